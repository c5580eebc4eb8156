/* stex reflect: what a WGSL module asks of its pipeline - entry points,
 * workgroup sizes, the bindings of layout 'auto', overrides. */
#include "cli/cli_kernel.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const CMD = "reflect";

enum { MAX_OVERRIDES = 16 };

static const char SYNOPSIS[] =
    "usage: stex reflect [--json] [--entry NAME] [--override NAME=VALUE]... FILE.wgsl\n"
    "\n"
    "Prints what the module's compute entry points need of a pipeline, as\n"
    "createComputePipeline with layout 'auto' derives it: the workgroup size\n"
    "(with the overrides given applied), the bytes of var<workgroup>, whether\n"
    "it uses barriers, and every binding it statically uses - group, binding,\n"
    "kind, texel format, access, view dimension, sample type, minimum binding\n"
    "size - then the module's overrides with their types, @id and defaults.\n"
    "With --override, the sizes, the var<workgroup> bytes and every override's\n"
    "value (override-expressions evaluated) are the pipeline's, and a\n"
    "workgroup past WebGPU's default limits (maxComputeWorkgroupSizeX..Z,\n"
    "maxComputeInvocationsPerWorkgroup, maxComputeWorkgroupStorageSize) is an\n"
    "error naming the limit, as createComputePipeline refuses it.\n"
    "A module with errors prints its diagnostics (see `stex check`).\n";

static const char EPILOGUE[] =
    "examples:\n"
    "  stex reflect blur.wgsl\n"
    "  stex reflect --json --override block=16 reduce.wgsl\n"
    "  stex run decaer --print-wgsl | stex reflect -\n"
    "\n"
    "exit status: 0 done, 1 the module has errors (or an override value breaks\n"
    "it), 2 usage error or an unreadable file.\n";

typedef struct reflect_overrides {
    uint32_t n;
    stex_wgsl_override v[MAX_OVERRIDES];
} reflect_overrides;

typedef struct reflect_opts {
    bool json;
    const char *entry;
    reflect_overrides ov;
} reflect_opts;

static bool parse_override(const char *cmd, const char *s, void *field)
{
    reflect_overrides *ov = field;
    const char *eq = strchr(s, '=');
    if (ov->n == MAX_OVERRIDES) {
        cli_usage(cmd, "--override: at most %d overrides", MAX_OVERRIDES);
        return false;
    }
    if (!eq || eq == s || !eq[1]) {
        cli_usage(cmd, "--override: '%s' is not NAME=VALUE", s);
        return false;
    }
    char *end;
    errno = 0;
    double v = !strcmp(eq + 1, "true") ? 1 : !strcmp(eq + 1, "false") ? 0 : strtod(eq + 1, &end);
    if (strcmp(eq + 1, "true") && strcmp(eq + 1, "false") && (*end || errno || !isfinite(v))) {
        cli_usage(cmd, "--override: '%s' is not a finite number (or true, false)", eq + 1);
        return false;
    }
    /* the name stays in argv; keep only its length's worth */
    ov->v[ov->n++] = (stex_wgsl_override){.name = s, .value = v};
    return true;
}

#define AT(f) offsetof(reflect_opts, f)
static const cli_option reflect_options[] = {
    {.name = "json", .kind = CLI_FLAG, .at = AT(json), .help = "print one JSON object"},
    {.name = "entry", .kind = CLI_TEXT, .at = AT(entry), .metavar = "NAME",
     .help = "only this entry point (default: every one)"},
    {.name = "override", .kind = CLI_CUSTOM, .parse = parse_override, .at = AT(ov),
     .metavar = "NAME=VALUE",
     .help = "a pipeline-overridable constant's value, by name or\n@id (repeatable)"},
    {0}};
#undef AT

const cli_spec cli_reflect_spec = {"reflect", SYNOPSIS, EPILOGUE, reflect_options};

static const char *kind_name(stex_binding_type t)
{
    switch (t) {
    case STEX_BINDING_STORAGE_TEXTURE: return "storage-texture";
    case STEX_BINDING_TEXTURE: return "texture";
    case STEX_BINDING_SAMPLER: return "sampler";
    case STEX_BINDING_STORAGE_BUFFER: return "storage-buffer";
    case STEX_BINDING_READ_ONLY_STORAGE_BUFFER: return "read-only-storage-buffer";
    case STEX_BINDING_UNIFORM_BUFFER: return "uniform-buffer";
    default: return "?";
    }
}

static bool is_buffer(stex_binding_type t)
{
    return t == STEX_BINDING_STORAGE_BUFFER || t == STEX_BINDING_READ_ONLY_STORAGE_BUFFER ||
           t == STEX_BINDING_UNIFORM_BUFFER;
}

/* The --override options (by name or @id) resolved to the keys a
 * pipeline's constants use (the @id in decimal when the override has one,
 * else its name): a usage error for one the module does not declare. */
static int resolve_overrides(const stex_wgsl_module *m, reflect_overrides *ov, char names[][128])
{
    for (uint32_t i = 0; i < ov->n; i++) {
        const char *s = ov->v[i].name;
        size_t len = (size_t)(strchr(s, '=') - s);
        const stex_wgsl_override_info *found = NULL;
        for (uint32_t k = 0; k < stex_wgsl_override_count(m) && !found; k++) {
            const stex_wgsl_override_info *o = stex_wgsl_override_at(m, k);
            char id[24];
            snprintf(id, sizeof id, "%" PRId64, o->id);
            if ((strlen(o->name) == len && !strncmp(o->name, s, len)) ||
                (o->id >= 0 && strlen(id) == len && !strncmp(id, s, len)))
                found = o;
        }
        if (!found) {
            fprintf(stderr, "stex %s: --override: the module declares no override '%.*s'; it "
                            "declares:", CMD, (int)len, s);
            for (uint32_t k = 0; k < stex_wgsl_override_count(m); k++)
                fprintf(stderr, " %s", stex_wgsl_override_at(m, k)->name);
            fputs(stex_wgsl_override_count(m) ? "\n" : " none\n", stderr);
            return CLI_USAGE;
        }
        /* the pipeline's key (WebGPU): the @id in decimal when there is one */
        if (found->id >= 0)
            snprintf(names[i], 128, "%" PRId64, found->id);
        else
            snprintf(names[i], 128, "%s", found->name);
        ov->v[i].name = names[i];
    }
    return CLI_OK;
}

/* A value of an override's type; NaN (a default that depends on an
 * override the pipeline gives) as the string "override-expression". */
static void print_number(double v, const char *type)
{
    if (isnan(v))
        fputs("\"override-expression\"", stdout);
    else if (!strcmp(type, "bool"))
        fputs(v != 0 ? "true" : "false", stdout);
    else if (!strcmp(type, "f32"))
        printf("%.9g", v);
    else
        printf("%.0f", v);
}

static void json_binding(const stex_wgsl_entry_point *ep, uint32_t i)
{
    const stex_layout_entry *e = &ep->entries[i];
    printf("%s\n        {\"group\": %u, \"binding\": %u, \"name\": ", i ? "," : "", e->group,
           e->binding);
    cli_json_string(stdout, ep->binding_names[i]);
    printf(", \"kind\": \"%s\", \"format\": ", kind_name(e->type));
    if (e->type == STEX_BINDING_STORAGE_TEXTURE)
        printf("\"%s\", \"access\": \"%s\", \"view_dimension\": \"%s\"",
               stex_format_name(e->storage_texture.format),
               stex_access_name(e->storage_texture.access),
               stex_view_dimension_name(e->storage_texture.view_dimension));
    else if (e->type == STEX_BINDING_TEXTURE)
        printf("null, \"access\": null, \"view_dimension\": \"%s\"",
               stex_view_dimension_name(e->texture_view_dimension));
    else if (is_buffer(e->type))
        printf("null, \"access\": \"%s\", \"view_dimension\": null",
               e->type == STEX_BINDING_STORAGE_BUFFER ? "read-write" : "read-only");
    else
        fputs("null, \"access\": null, \"view_dimension\": null", stdout);
    fputs(", \"sample_type\": ", stdout);
    if (ep->sample_types && ep->sample_types[i])
        printf("\"%s\"", ep->sample_types[i]);
    else
        fputs("null", stdout);
    if (e->type == STEX_BINDING_TEXTURE)
        printf(", \"multisampled\": %s", e->texture_multisampled ? "true" : "false");
    if (e->type == STEX_BINDING_SAMPLER)
        printf(", \"sampler_type\": \"%s\"", stex_sampler_binding_type_name(
                   e->sampler_type ? e->sampler_type : STEX_SAMPLER_BINDING_FILTERING));
    if (is_buffer(e->type))
        printf(", \"min_binding_size\": %" PRIu64 "}", e->buffer.min_binding_size);
    else
        fputs(", \"min_binding_size\": null}", stdout);
}

static void text_binding(const stex_wgsl_entry_point *ep, uint32_t i)
{
    const stex_layout_entry *e = &ep->entries[i];
    printf("    @group(%u) @binding(%u) %s: %s", e->group, e->binding, ep->binding_names[i],
           kind_name(e->type));
    if (e->type == STEX_BINDING_STORAGE_TEXTURE)
        printf(", format %s, access %s, view %s", stex_format_name(e->storage_texture.format),
               stex_access_name(e->storage_texture.access),
               stex_view_dimension_name(e->storage_texture.view_dimension));
    else if (e->type == STEX_BINDING_TEXTURE)
        printf(", view %s, sample type %s%s",
               stex_view_dimension_name(e->texture_view_dimension),
               ep->sample_types && ep->sample_types[i] ? ep->sample_types[i] : "?",
               e->texture_multisampled ? ", multisampled" : "");
    else if (e->type == STEX_BINDING_SAMPLER)
        printf(", type %s", stex_sampler_binding_type_name(
                   e->sampler_type ? e->sampler_type : STEX_SAMPLER_BINDING_FILTERING));
    else if (is_buffer(e->type))
        printf(", min binding size %" PRIu64, e->buffer.min_binding_size);
    fputc('\n', stdout);
}

/* One workgroup dimension; `unknown` when the pipeline's constants decide it. */
static void dim(char buf[16], uint32_t v, const char *unknown)
{
    if (v)
        snprintf(buf, 16, "%u", v);
    else
        snprintf(buf, 16, "%s", unknown);
}

/* createComputePipeline's limits on the workgroup (WebGPU's default
 * limits: reflect has no device), each refusal naming its limit. */
static int check_limits(const char *entry, const uint32_t wg[3], uint32_t memory, bool given)
{
    stex_limits l = stex_limits_default();
    static const char *const limit[3] = {"maxComputeWorkgroupSizeX", "maxComputeWorkgroupSizeY",
                                         "maxComputeWorkgroupSizeZ"};
    const uint64_t max[3] = {l.max_compute_workgroup_size_x, l.max_compute_workgroup_size_y,
                             l.max_compute_workgroup_size_z};
    const char *with = given ? "with the overrides given, " : "";
    for (int k = 0; k < 3; k++)
        if (wg[k] > max[k]) {
            fprintf(stderr, "stex %s: %sentry point %s: @workgroup_size %c = %u exceeds %s (%"
                    PRIu64 ", WebGPU's default limit)\n", CMD, with, entry, "xyz"[k], wg[k],
                    limit[k], max[k]);
            return CLI_REFUSED;
        }
    uint64_t total = (uint64_t)wg[0] * wg[1] * wg[2];
    if (total > l.max_compute_invocations_per_workgroup) {
        fprintf(stderr, "stex %s: %sentry point %s: @workgroup_size(%u, %u, %u) has %" PRIu64
                " invocations, more than maxComputeInvocationsPerWorkgroup (%" PRIu64 ")\n", CMD,
                with, entry, wg[0], wg[1], wg[2], total,
                (uint64_t)l.max_compute_invocations_per_workgroup);
        return CLI_REFUSED;
    }
    if (memory > l.max_compute_workgroup_storage_size) {
        fprintf(stderr, "stex %s: %sentry point %s: %u bytes of var<workgroup> exceed "
                "maxComputeWorkgroupStorageSize (%" PRIu64 ")\n", CMD, with, entry, memory,
                (uint64_t)l.max_compute_workgroup_storage_size);
        return CLI_REFUSED;
    }
    return CLI_OK;
}

/* The entry points to show (one, or all) with their sizes after overrides. */
static int print_module(const char *path, const stex_wgsl_module *m, const reflect_opts *o)
{
    uint32_t n = stex_wgsl_entry_point_count(m), no = stex_wgsl_override_count(m);
    stex_wgsl_options wo = {.overrides = o->ov.v, .override_count = o->ov.n};
    uint32_t (*sizes)[3] = calloc(n ? n : 1, sizeof *sizes);
    uint32_t *memory = calloc(n ? n : 1, sizeof *memory);
    double *values = calloc(no ? no : 1, sizeof *values);
    if (!sizes || !memory || !values) {
        free(sizes), free(memory), free(values);
        return cli_fail(CMD, stex_fail(STEX_OUT_OF_MEMORY, "out of memory"));
    }
    stex_status st = o->ov.n ? stex_wgsl_override_values(m, &wo, values) : STEX_OK;
    if (st == STEX_VALIDATION_ERROR) /* a value the override's type cannot hold */
        fprintf(stderr, "stex %s: with the overrides given: %s\n", CMD, stex_last_error());
    int rc = CLI_OK;
    for (uint32_t i = 0; i < n && !st && !rc; i++) {
        const stex_wgsl_entry_point *ep = stex_wgsl_entry_point_at(m, i);
        if (o->entry && strcmp(o->entry, ep->name))
            continue;
        /* without --override: the module's reflection (0 where an override
         * without a default decides the size); with: the sizes and the
         * var<workgroup> bytes under the values given */
        memcpy(sizes[i], ep->workgroup_size, sizeof sizes[i]);
        memory[i] = ep->workgroup_memory_size;
        if (o->ov.n && !(st = stex_wgsl_workgroup_size(m, ep->name, &wo, sizes[i])))
            st = stex_wgsl_workgroup_memory_size(m, ep->name, &wo, &memory[i]);
        if (!st)
            rc = check_limits(ep->name, sizes[i], memory[i], o->ov.n > 0);
        if (st == STEX_VALIDATION_ERROR)
            fprintf(stderr, "stex %s: with the overrides given, entry point %s has errors:\n"
                            "%s", CMD, ep->name, stex_last_error());
    }
    if (st || rc) {
        free(sizes), free(memory), free(values);
        return rc ? rc : st == STEX_VALIDATION_ERROR ? CLI_REFUSED : cli_fail(CMD, st);
    }
    if (o->json) {
        fputs("{\"file\": ", stdout);
        cli_json_string(stdout, path);
        fputs(", \"entry_points\": [", stdout);
    } else {
        printf("%s\n", path);
    }
    bool first = true;
    for (uint32_t i = 0; i < n; i++) {
        const stex_wgsl_entry_point *ep = stex_wgsl_entry_point_at(m, i);
        if (o->entry && strcmp(o->entry, ep->name))
            continue;
        if (o->json) {
            printf("%s\n    {\"name\": ", first ? "" : ",");
            cli_json_string(stdout, ep->name);
            char d[3][16];
            for (int k = 0; k < 3; k++)
                dim(d[k], sizes[i][k], "null");
            printf(", \"stage\": \"compute\", \"workgroup_size\": [%s, %s, %s], "
                   "\"workgroup_memory_size\": %u, \"workgroup_memory_by_override\": %s, "
                   "\"uses_barriers\": %s, \"bindings\": [",
                   d[0], d[1], d[2], memory[i],
                   ep->workgroup_memory_by_override && !o->ov.n ? "true" : "false",
                   ep->uses_barriers ? "true" : "false");
            for (uint32_t b = 0; b < ep->entry_count; b++)
                json_binding(ep, b);
            fputs(ep->entry_count ? "\n    ]}" : "]}", stdout);
        } else {
            char d[3][16];
            for (int k = 0; k < 3; k++)
                dim(d[k], sizes[i][k], "?");
            printf("  @compute @workgroup_size(%s, %s, %s) fn %s: %s%u bytes of var<workgroup>%s, "
                   "%s, %u binding%s\n", d[0], d[1], d[2], ep->name,
                   ep->workgroup_memory_by_override && !o->ov.n ? "at least " : "", memory[i],
                   ep->workgroup_memory_by_override && !o->ov.n
                       ? " (an array sized by an override without a default: the pipeline's "
                         "constants decide)"
                       : "",
                   ep->uses_barriers ? "barriers" : "no barriers", ep->entry_count,
                   ep->entry_count == 1 ? "" : "s");
            for (uint32_t b = 0; b < ep->entry_count; b++)
                text_binding(ep, b);
        }
        first = false;
    }
    free(sizes);
    free(memory);
    if (o->json)
        fputs(first ? "], \"overrides\": [" : "\n  ], \"overrides\": [", stdout);
    else if (no)
        puts("  overrides:");
    for (uint32_t i = 0; i < no; i++) {
        const stex_wgsl_override_info *ov = stex_wgsl_override_at(m, i);
        const stex_wgsl_override *given = NULL;
        char key[24];
        snprintf(key, sizeof key, "%" PRId64, ov->id);
        for (uint32_t k = 0; k < o->ov.n; k++)
            if (!strcmp(o->ov.v[k].name, ov->id >= 0 ? key : ov->name))
                given = &o->ov.v[k];
        if (o->json) {
            printf("%s\n    {\"name\": ", i ? "," : "");
            cli_json_string(stdout, ov->name);
            printf(", \"type\": \"%s\", \"id\": ", ov->type);
            if (ov->id >= 0)
                printf("%" PRId64, ov->id);
            else
                fputs("null", stdout);
            fputs(", \"default\": ", stdout);
            if (ov->has_default)
                print_number(ov->default_value, ov->type);
            else
                fputs("null", stdout);
            fputs(", \"value\": ", stdout);
            /* with --override: what the pipeline would take, expressions evaluated */
            double v = o->ov.n ? values[i] : given ? given->value : ov->default_value;
            if (!isnan(v) && (o->ov.n || given || ov->has_default))
                print_number(v, ov->type);
            else
                fputs("null", stdout);
            fputs("}", stdout);
        } else {
            printf("    override %s: %s", ov->name, ov->type);
            if (ov->has_default && isnan(ov->default_value)) {
                fputs(" = (an override-expression)", stdout);
            } else if (ov->has_default) {
                fputs(" = ", stdout);
                print_number(ov->default_value, ov->type);
            } else {
                fputs(" (no default: the pipeline gives it)", stdout);
            }
            if (ov->id >= 0)
                printf(" (@id %" PRId64 ")", ov->id);
            if (given) {
                fputs(", given ", stdout);
                print_number(given->value, ov->type);
            } else if (o->ov.n && !isnan(values[i]) &&
                       !(ov->has_default && values[i] == ov->default_value)) {
                fputs(", now ", stdout); /* an override-expression of the values given */
                print_number(values[i], ov->type);
            }
            fputc('\n', stdout);
        }
    }
    free(values);
    if (o->json)
        puts(no ? "\n  ]}" : "]}");
    return CLI_OK;
}

int cli_reflect(int argc, char **argv)
{
    reflect_opts o = {0};
    cli_args a;
    int rc = cli_parse(&cli_reflect_spec, argc, argv, &o, &a);
    if (rc || a.help)
        return rc;
    if (a.count == 0)
        return cli_usage(CMD, "missing FILE.wgsl");
    if (a.count > 1)
        return cli_usage(CMD, "unexpected argument '%s' after the file (one module at a time)",
                         a.value[1]);
    stex_wgsl_module *m;
    if ((rc = cli_load_wgsl(CMD, a.value[0], false, &m)))
        return rc;
    char names[MAX_OVERRIDES][128];
    if (o.entry && !stex_wgsl_entry_point_find(m, o.entry)) {
        fprintf(stderr, "stex %s: --entry: %s has no @compute entry point '%s'; it has:", CMD,
                a.value[0], o.entry);
        for (uint32_t i = 0; i < stex_wgsl_entry_point_count(m); i++)
            fprintf(stderr, " %s", stex_wgsl_entry_point_at(m, i)->name);
        fputs("\n", stderr);
        rc = CLI_USAGE;
    }
    if (!rc)
        rc = resolve_overrides(m, &o.ov, names);
    if (!rc)
        rc = print_module(!strcmp(a.value[0], "-") ? "<stdin>" : a.value[0], m, &o);
    stex_wgsl_module_destroy(m);
    return rc;
}
