/* math/nvidia_units.h - the nvidia profile's arithmetic units (nvidia.c),
 * for the library functions built from them (nvidia_lib.c).  Each takes
 * and returns f32 values as the device holds them: subnormals flushed. */
#ifndef STEX_MATH_NVIDIA_UNITS_H
#define STEX_MATH_NVIDIA_UNITS_H

float stex_nv_ftz(float x);
float stex_nv_mul(float a, float b); /* FMUL.FTZ */
float stex_nv_add(float a, float b); /* FADD.FTZ */
float stex_nv_div(float x, float y); /* x * MUFU.RCP(y) */
float stex_nv_add_rz(double a, double b); /* FADD.RZ of two f32 values */
float stex_nv_rcp(float y);          /* MUFU.RCP */
float stex_nv_ex2(float x);          /* MUFU.EX2 */
float stex_nv_lg2(float x);          /* MUFU.LG2 */
float stex_nv_sqrt(float x);
float stex_nv_rsqrt(float x);
float stex_nv_sin(float x);
float stex_nv_cos(float x);
float stex_nv_tan(float x);
float stex_nv_exp(float x);
float stex_nv_log(float x);
float stex_nv_pow(float x, float y);
float stex_nv_sinh(float x);
float stex_nv_cosh(float x);
void stex_nv_prepare(void);    /* inflates the tables */
unsigned stex_nv_loaded(void); /* how many tables are loaded */

#endif
