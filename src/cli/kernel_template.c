/* A built-in kernel's run file made concrete: the template's "$width"-like
 * strings become numbers, "$when" picks the steps of each iteration, and
 * "$output" names what is read back.  The template is the kernel's own file
 * (src/kernels/wgsl/NAME.json, embedded in the library). */
#include "cli/kernel_template.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

#define BAD STEX_FILE_FORMAT_ERROR

typedef struct value {
    const char *name;
    double number;
    bool real;
} value;

/* Every $ value a template may use, from the options. */
static size_t values_of(const kernel_values *v, value out[])
{
    size_t n = 0;
    out[n++] = (value){"$width", v->width, false};
    out[n++] = (value){"$height", v->height, false};
    out[n++] = (value){"$groups_x", (v->width + 7u) / 8u, false};   /* @workgroup_size(8, 8) */
    out[n++] = (value){"$groups_y", (v->height + 7u) / 8u, false};
    out[n++] = (value){"$word_bytes", (double)v->width * v->height * 4, false}; /* a word a texel */
    out[n++] = (value){"$points", v->points, false};
    out[n++] = (value){"$point_bytes", (double)v->points * 8, false};  /* vec2<u32> each */
    out[n++] = (value){"$point_groups", (v->points + 63u) / 64u, false}; /* @workgroup_size(64) */
    out[n++] = (value){"$time", v->time, true};
    return n;
}

/* The number of $ value `s` (a string starting with '$'), or NULL. */
static json_t *number_of(const char *file, const char *s, const value *vals, size_t nv)
{
    for (size_t k = 0; k < nv; k++)
        if (!strcmp(vals[k].name, s))
            return vals[k].real ? json_real(vals[k].number)
                                : json_integer((json_int_t)vals[k].number);
    stex_fail(BAD, "%s: unknown value '%s' (docs/kernels.md lists them)", file, s);
    return NULL;
}

static bool is_value(const json_t *j)
{
    const char *s = json_string_value(j);
    return s && s[0] == '$';
}

/* Replaces, everywhere below j, each string naming a $ value by its number. */
static stex_status fill(const char *file, json_t *j, const value *vals, size_t nv)
{
    stex_status st = STEX_OK;
    if (json_is_object(j)) {
        const char *key;
        json_t *m, *num;
        json_object_foreach(j, key, m) {
            if (!is_value(m))
                st = fill(file, m, vals, nv);
            else if (!(num = number_of(file, json_string_value(m), vals, nv)))
                st = BAD;
            else /* a new value for a key the object has: the iteration goes on */
                json_object_set_new(j, key, num);
            if (st)
                return st;
        }
    }
    for (size_t i = 0; json_is_array(j) && i < json_array_size(j); i++) {
        json_t *e = json_array_get(j, i), *num;
        if (!is_value(e))
            st = fill(file, e, vals, nv);
        else if (!(num = number_of(file, json_string_value(e), vals, nv)))
            st = BAD;
        else
            json_array_set_new(j, i, num);
        if (st)
            return st;
    }
    return STEX_OK;
}

/* Whether an entry marked "$when" belongs to iteration i of n. */
static stex_status when(const char *file, const json_t *obj, uint32_t i, uint32_t n,
                        bool every_last, bool *yes)
{
    const json_t *w = json_object_get(obj, "$when");
    const char *s = json_string_value(w);
    if (!w) {
        *yes = true;
        return STEX_OK;
    }
    if (s && !strcmp(s, "first"))
        *yes = i == 0;
    else if (s && !strcmp(s, "later"))
        *yes = i > 0;
    else if (s && !strcmp(s, "even"))
        *yes = i % 2 == 0;
    else if (s && !strcmp(s, "odd"))
        *yes = i % 2 == 1;
    else if (s && !strcmp(s, "last"))
        *yes = every_last || i + 1 == n;
    else
        return stex_fail(BAD, "%s: \"$when\" must be first, later, even, odd or last", file);
    return STEX_OK;
}

/* The "$output" entry that holds for iteration i. */
static stex_status output_at(const char *file, const json_t *spec, uint32_t i, uint32_t n,
                             kernel_output *out)
{
    size_t count = json_is_array(spec) ? json_array_size(spec) : 1;
    for (size_t k = 0; k < count; k++) {
        const json_t *e = json_is_array(spec) ? json_array_get(spec, k) : spec;
        bool yes;
        stex_status st;
        if (!json_is_object(e))
            return stex_fail(BAD, "%s: \"$output\" must be an object or a list of them", file);
        if ((st = when(file, e, i, n, false, &yes)))
            return st;
        if (!yes)
            continue;
        out->texture = json_string_value(json_object_get(e, "texture"));
        out->buffer = json_string_value(json_object_get(e, "buffer"));
        out->format = stex_format_from_name(json_string_value(json_object_get(e, "format")));
        if (!out->texture == !out->buffer || (out->buffer && !out->format))
            return stex_fail(BAD, "%s: \"$output\" names a \"texture\", or a \"buffer\" and its "
                                  "texels' \"format\"", file);
        return STEX_OK;
    }
    return stex_fail(BAD, "%s: no \"$output\" for iteration %u", file, i + 1);
}

/* The steps of every iteration, in order, "$when" taken out. */
static stex_status expand_steps(const char *file, const json_t *tmpl_root, json_t *root,
                                kernel_run *kr, bool frames)
{
    json_t *tmpl = json_object_get(root, "steps"), *steps = json_array();
    if (!steps)
        return stex_fail(STEX_OUT_OF_MEMORY, "%s: out of memory", file);
    stex_status st = STEX_OK;
    for (uint32_t i = 0; !st && i < kr->iterations; i++) {
        for (size_t k = 0; !st && k < json_array_size(tmpl); k++) {
            json_t *s = json_array_get(tmpl, k);
            bool yes;
            if (!json_is_object(s))
                st = stex_fail(BAD, "%s: $.steps[%zu]: expected an object", file, k);
            else if (!(st = when(file, s, i, kr->iterations, frames, &yes)) && yes) {
                json_t *copy = json_deep_copy(s);
                json_object_del(copy, "$when");
                json_array_append_new(steps, copy);
            }
        }
        if (!st && json_array_size(steps) == 0)
            st = stex_fail(BAD, "%s: iteration %u has no steps", file, i + 1);
        if (!st)
            kr->last_step[i] = json_array_size(steps) - 1;
        if (!st)
            st = output_at(file, json_object_get(tmpl_root, "$output"), i, kr->iterations,
                           &kr->output[i]);
    }
    if (st) {
        json_decref(steps);
        return st;
    }
    return json_object_set_new(root, "steps", steps) ? stex_fail(BAD, "%s: out of memory", file)
                                                      : STEX_OK;
}

stex_status kernel_run_make(const stex_kernel *k, const kernel_values *v, bool frames,
                            kernel_run *out)
{
    memset(out, 0, sizeof *out);
    char file[96];
    snprintf(file, sizeof file, "%s.json", k->name);
    json_error_t e;
    json_t *root = json_loads(k->run_file, JSON_REJECT_DUPLICATES, &e);
    if (!root)
        return stex_fail(BAD, "%s: line %d: malformed JSON: %s", file, e.line, e.text);
    out->root = root;
    out->iterations = v->iterations ? v->iterations : 1;
    out->last_step = calloc(out->iterations, sizeof *out->last_step);
    out->output = calloc(out->iterations, sizeof *out->output);
    value vals[16];
    size_t nv = values_of(v, vals);
    stex_status st = out->last_step && out->output
                         ? STEX_OK : stex_fail(STEX_OUT_OF_MEMORY, "%s: out of memory", file);
    /* the copy that goes to the run layer: $ values filled, steps laid out */
    json_t *run = st ? NULL : json_deep_copy(root);
    if (!st && !run)
        st = stex_fail(STEX_OUT_OF_MEMORY, "%s: out of memory", file);
    if (!st && !(st = fill(file, run, vals, nv)))
        st = expand_steps(file, root, run, out, frames);
    if (!st) {
        json_object_del(run, "$output");
        if (!(out->json = json_dumps(run, JSON_COMPACT)))
            st = stex_fail(STEX_OUT_OF_MEMORY, "%s: out of memory", file);
    }
    json_decref(run); /* the outputs' names point into the template, kept in out->root */
    if (st)
        kernel_run_free(out);
    return st;
}

void kernel_run_free(kernel_run *kr)
{
    free(kr->json);
    free(kr->last_step);
    free(kr->output);
    json_decref(kr->root);
    memset(kr, 0, sizeof *kr);
}
