/* Where each WGSL attribute may stand (WGSL 12, "Attributes"): a table of
 * the places an attribute applies to, checked as the parser meets a list;
 * and the lookups of an attribute list the later passes share. */
#include "wgsl/ast.h"

#include <string.h>

/* Each attribute's places, as WGSL's attribute table gives them: the
 * shader-interface ones (builtin, location, ...) go on an entry point's
 * parameters and result and on struct members only. */
static const struct {
    const char *name;
    unsigned places;
    uint32_t lo, hi; /* how many arguments it takes */
} rules[] = {
    {"align", WG_AT_MEMBER, 1, 1},
    {"binding", WG_AT_VAR, 1, 1},
    {"blend_src", WG_AT_MEMBER | WG_AT_ENTRY_IO, 1, 1},
    {"builtin", WG_AT_MEMBER | WG_AT_ENTRY_IO, 1, 1},
    {"compute", WG_AT_FN, 0, 0},
    {"diagnostic", WG_AT_FN, 2, 2},
    {"fragment", WG_AT_FN, 0, 0},
    {"group", WG_AT_VAR, 1, 1},
    {"id", WG_AT_OVERRIDE, 1, 1},
    {"interpolate", WG_AT_MEMBER | WG_AT_ENTRY_IO, 1, 2},
    {"invariant", WG_AT_MEMBER | WG_AT_ENTRY_IO, 0, 0},
    {"location", WG_AT_MEMBER | WG_AT_ENTRY_IO, 1, 1},
    {"must_use", WG_AT_FN, 0, 0},
    {"size", WG_AT_MEMBER, 1, 1},
    {"vertex", WG_AT_FN, 0, 0},
    {"workgroup_size", WG_AT_FN, 1, 3},
};

const wg_attr *wg_find_attr(const wg_attr *a, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i].name && !strcmp(a[i].name, name))
            return &a[i];
    return NULL;
}

const wg_attr *wg_stage_attr(const wg_attr *a, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i].name && (!strcmp(a[i].name, "compute") || !strcmp(a[i].name, "vertex") ||
                          !strcmp(a[i].name, "fragment")))
            return &a[i];
    return NULL;
}

static const char *place_name(wg_attr_place place)
{
    switch (place) {
    case WG_AT_FN: return "a function";
    case WG_AT_PARAM: return "a parameter of a function that is no entry point";
    case WG_AT_RESULT: return "the result of a function that is no entry point";
    case WG_AT_ENTRY_IO: return "an entry point's parameter or result";
    case WG_AT_MEMBER: return "a struct member";
    case WG_AT_VAR: return "a module-scope 'var'";
    case WG_AT_OVERRIDE: return "an 'override'";
    default: return "this declaration";
    }
}

/* The name an enumerant argument spells (@builtin(position)), or "". */
static const char *enumerant(const wg_attr *a, uint32_t i)
{
    return i < a->nargs && a->args[i]->kind == E_IDENT ? a->args[i]->name : "";
}

/* @interpolate(type, sampling) (WGSL 12.3.1.3): the sampling each type
 * takes; both name a user-defined input or output. */
static void interpolate_rules(wg_diags *d, const wg_attr *a, uint32_t n)
{
    static const struct { const char *type, *sampling[3]; } kinds[] = {
        {"perspective", {"center", "centroid", "sample"}},
        {"linear", {"center", "centroid", "sample"}},
        {"flat", {"first", "either", NULL}},
    };
    const wg_attr *ip = wg_find_attr(a, n, "interpolate");
    if (!ip || ip->given < 1 || ip->given > 2)
        return;
    if (!wg_find_attr(a, n, "location"))
        wg_error(d, ip->loc, "attributes", "@interpolate applies to a user-defined input or "
                 "output, which has @location(...)");
    const char *type = enumerant(ip, 0), *sampling = enumerant(ip, 1);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        if (strcmp(type, kinds[k].type))
            continue;
        if (ip->given < 2)
            return;
        for (size_t j = 0; j < 3 && kinds[k].sampling[j]; j++)
            if (!strcmp(sampling, kinds[k].sampling[j]))
                return;
        wg_error(d, ip->loc, "attributes", "@interpolate(%s, ...) samples at %s, not '%s'",
                 type, k < 2 ? "center, centroid or sample" : "first or either",
                 sampling);
        return;
    }
    wg_error(d, ip->loc, "attributes", "@interpolate's type is perspective, linear or flat, "
             "not '%s'", type);
}

void wg_check_attrs(wg_diags *d, const wg_attr *a, uint32_t n, wg_attr_place place)
{
    for (uint32_t i = 0; i < n; i++) {
        if (!a[i].name)
            continue;
        size_t r = sizeof rules / sizeof rules[0];
        for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++)
            if (!strcmp(rules[k].name, a[i].name))
                r = k;
        if (r == sizeof rules / sizeof rules[0]) /* no attribute: the parser said so */
            continue;
        unsigned places = rules[r].places;
        if (a[i].given < rules[r].lo || a[i].given > rules[r].hi ||
            (rules[r].hi == 0 && a[i].parens)) {
            if (rules[r].hi == 0)
                wg_error(d, a[i].loc, "attributes", "@%s takes no arguments and no parentheses",
                         a[i].name);
            else if (rules[r].lo == rules[r].hi)
                wg_error(d, a[i].loc, "attributes", "@%s takes %u argument%s in parentheses, "
                         "not %u", a[i].name, rules[r].lo, rules[r].lo == 1 ? "" : "s",
                         a[i].given);
            else
                wg_error(d, a[i].loc, "attributes", "@%s takes %u to %u arguments in "
                         "parentheses, not %u", a[i].name, rules[r].lo, rules[r].hi, a[i].given);
            continue;
        }
        if (!(places & place)) {
            wg_error(d, a[i].loc, "attributes", "@%s does not apply to %s", a[i].name,
                     place_name(place));
            continue;
        }
        /* one of each per object; @diagnostic repeats for different rules */
        for (uint32_t j = 0; j < i; j++)
            if (a[j].name && !strcmp(a[j].name, a[i].name) && strcmp(a[i].name, "diagnostic")) {
                wg_error(d, a[i].loc, "attributes", "@%s is given twice", a[i].name);
                break;
            }
    }
    if (place == WG_AT_MEMBER || place == WG_AT_ENTRY_IO) {
        interpolate_rules(d, a, n);
        /* WGSL 12.3.1.2: @invariant marks the position built-in alone */
        const wg_attr *inv = wg_find_attr(a, n, "invariant");
        const wg_attr *b = wg_find_attr(a, n, "builtin");
        if (inv && (!b || strcmp(enumerant(b, 0), "position")))
            wg_error(d, inv->loc, "attributes", "@invariant applies to @builtin(position) "
                     "only");
    }
    if (place != WG_AT_FN)
        return;
    /* a function: one shader stage at most; @workgroup_size with @compute;
     * @must_use on no entry point (its result goes to the pipeline) */
    const wg_attr *stage = wg_stage_attr(a, n);
    for (const wg_attr *s = stage; s; s = wg_stage_attr(s + 1, n - (uint32_t)(s + 1 - a)))
        if (strcmp(stage->name, s->name))
            wg_error(d, s->loc, "attributes", "a function is one shader stage: @%s and @%s",
                     stage->name, s->name);
    const wg_attr *wg = wg_find_attr(a, n, "workgroup_size");
    if (wg && (!stage || strcmp(stage->name, "compute")))
        wg_error(d, wg->loc, "attributes", "@workgroup_size applies to a @compute entry point "
                 "only");
    const wg_attr *mu = wg_find_attr(a, n, "must_use");
    if (mu && stage)
        wg_error(d, mu->loc, "attributes", "@must_use does not apply to an entry point");
}
