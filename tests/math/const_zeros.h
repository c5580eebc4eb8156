/* Dawn's front end keeps one constant per value, compared with ==, so -0
 * and +0 are one constant: within a module, the first f32 zero made is
 * every later one.  The measurement put the value cases of a group (op,
 * signature, source) into one module, in row order, each case's literals
 * before its results; zero_table replays that order for the const replays
 * (tests/math/test_const.c, tests/wgsl/test_wgsl_const.c) under the Tint
 * rule.  Needs <stdbool.h>, <string.h> and stex/math.h. */
#ifndef STEX_TESTS_CONST_ZEROS_H
#define STEX_TESTS_CONST_ZEROS_H

typedef struct zero_table {
    char group[160];
    bool set;
    uint32_t zero;
} zero_table;

/* A new module when the group changes. */
static void zt_group(zero_table *z, const char *op, const char *sig, const char *src)
{
    char g[160];
    snprintf(g, sizeof g, "%s %s %s", op, sig, src);
    if (strcmp(g, z->group)) {
        snprintf(z->group, sizeof z->group, "%s", g);
        z->set = false;
    }
}

static uint32_t zt_intern(zero_table *z, uint32_t w)
{
    if (w & 0x7fffffffu)
        return w;
    if (!z->set)
        z->set = true, z->zero = w;
    return z->zero;
}

/* The row's f32 arguments as the module held them: a zero literal makes +0
 * (a -0 input is written `(-0x0p0f)`, the negation of +0).  AbstractFloat
 * literals are another type, with their own constants. */
static void zt_args(zero_table *z, stex_math_fn fn, bool abstract, uint32_t *in)
{
    char t[16];
    int n = stex_math_word_types(stex_math_fn_get(fn)->sig, t, 16);
    for (int i = 0; i < n && !abstract; i++)
        if (t[i] == 'f' && !(in[i] & 0x7fffffffu)) {
            zt_intern(z, 0);
            in[i] = zt_intern(z, in[i]);
        }
}

static void zt_results(zero_table *z, stex_math_fn fn, uint32_t *out)
{
    char t[16];
    const stex_math_fn_info *info = stex_math_fn_get(fn);
    int n = stex_math_word_types(strstr(info->sig, "->") + 2, t, 16);
    for (int i = 0; i < n && i < (int)info->out_words; i++)
        if (t[i] == 'f')
            out[i] = zt_intern(z, out[i]);
}

#endif
