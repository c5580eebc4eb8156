fn f( { let = ; }
@compute
