/* stex race --html: see race_html.h.  The page is the template with the
 * study's data put where it says STEX_DATA; the C side only writes JSON. */
#include "cli/race_html.h"
#include "cli/cli.h"
#include "race_html_text.h"

#include "common/error.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Races written in detail: enough for every texel of a lesson's picture
 * twice over; the counts stay complete. */
enum { HTML_MAX_RACES = 20000, HTML_MAX_SOURCES = 16 };

/* A JSON string safe inside <script>: '<' as \u003c, so no "</script>" or
 * "<!--" can end the element early. */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* A value as JSON: null when not finite (NaN, infinities). */
static void json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.9g", v);
    else
        fputs("null", f);
}

/* Every channel of every texel, decoded (spec profile), row by row. */
static void json_values(FILE *f, const stex_image *img)
{
    const stex_format_info *fi = stex_format_get(img->format);
    const stex_profile *prof = stex_profile_get(STEX_PROFILE_SPEC);
    fputc('[', f);
    for (uint32_t y = 0; y < img->height; y++)
        for (uint32_t x = 0; x < img->width; x++) {
            stex_vec4 v;
            bool ok = !stex_decode_texel(prof, img->format, stex_image_texel(img, x, y, 0), &v);
            for (unsigned c = 0; c < fi->channels; c++) {
                if (x | y | c)
                    fputc(',', f);
                if (!ok)
                    fputs("null", f);
                else if (fi->scalar == STEX_SCALAR_U32)
                    fprintf(f, "%u", v.u[c]);
                else if (fi->scalar == STEX_SCALAR_I32)
                    fprintf(f, "%d", v.i[c]);
                else
                    json_num(f, v.f[c]);
            }
        }
    fputc(']', f);
}

static void json_u32s(FILE *f, const uint32_t *v)
{
    fprintf(f, "[%u,%u,%u]", v[0], v[1], v[2]);
}

static void json_party(FILE *f, const stex_race_party *p)
{
    fputs("{\"wg\":", f);
    json_u32s(f, p->workgroup_id);
    fputs(",\"lid\":", f);
    json_u32s(f, p->local_invocation_id);
    fprintf(f, ",\"access\":\"%s\",\"source\":", stex_race_access_name(p->access));
    if (p->source)
        json_str(f, p->source);
    else
        fputs("null", f);
    fputc('}', f);
}

static void json_race(FILE *f, const stex_race *r)
{
    char where[256];
    fputs("{\"location\":", f);
    json_str(f, stex_race_location_text(r, where, sizeof where));
    fputs(",\"name\":", f);
    if (r->name)
        json_str(f, r->name);
    else
        fputs("null", f);
    fprintf(f, ",\"dispatch\":%u,\"memory\":\"%s\",\"binding\":", r->dispatch,
            stex_race_memory_name(r->memory));
    if (r->binding == STEX_RACE_NO_BINDING)
        fputs("null", f);
    else
        fprintf(f, "%u", r->binding);
    fputs(",\"coord\":", f);
    json_u32s(f, r->coord);
    fprintf(f, ",\"word\":%llu,\"kind\":\"%s\",\"same_workgroup\":%s,\"a\":",
            (unsigned long long)r->word, stex_race_kind_name(r->kind),
            r->same_workgroup ? "true" : "false");
    json_party(f, &r->a);
    fputs(",\"b\":", f);
    json_party(f, &r->b);
    fputc('}', f);
}

/* The text of a shader file a race names: a kernel's embedded file, else
 * the file beside base_dir (malloc'ed; NULL when it cannot be read). */
static char *read_named(const race_html_data *d, const char *name, size_t *size)
{
    *size = 0;
    if (d->kernel) {
        const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
        const char *t = stex_kernel_file(base, size);
        char *copy = t ? malloc(*size + 1) : NULL;
        if (copy)
            memcpy(copy, t, *size + 1);
        return copy;
    }
    bool beside = name[0] != '/' && d->base_dir && d->base_dir[0];
    size_t n = strlen(name) + (beside ? strlen(d->base_dir) + 1 : 0) + 1;
    char *path = malloc(n);
    if (!path)
        return NULL;
    snprintf(path, n, "%s%s%s", beside ? d->base_dir : "", beside ? "/" : "", name);
    FILE *f = fopen(path, "rb");
    free(path);
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    char chunk[8192];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + got + 1 > cap) {
            cap = (len + got + 1) * 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        memcpy(buf + len, chunk, got);
        len += got;
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    *size = len;
    return buf;
}

static char *source_text(const race_html_data *d, const char *name)
{
    size_t n;
    return read_named(d, name, &n);
}

/* The file part of "file:line:col" into out. */
static bool site_file(const char *site, char *out, size_t n)
{
    const char *c2 = site ? strrchr(site, ':') : NULL;
    if (!c2 || c2 == site)
        return false;
    const char *c1 = c2 - 1;
    while (c1 > site && *c1 != ':')
        c1--;
    if (c1 == site || (size_t)(c1 - site) >= n)
        return false;
    memcpy(out, site, (size_t)(c1 - site));
    out[c1 - site] = '\0';
    return true;
}

/* "sources": the main source, then every other file the races name. */
static void json_sources(FILE *f, const race_html_data *d)
{
    char names[HTML_MAX_SOURCES][512];
    size_t count = 0;
    if (d->main_source)
        snprintf(names[count++], sizeof names[0], "%s", d->main_source);
    size_t n = d->rd ? stex_race_reported(d->rd) : 0;
    for (size_t i = 0; i < n && count < HTML_MAX_SOURCES; i++) {
        const stex_race *r = stex_race_get(d->rd, i);
        const char *sites[2] = {r->a.source, r->b.source};
        for (int k = 0; k < 2 && count < HTML_MAX_SOURCES; k++) {
            char file[512];
            if (!site_file(sites[k], file, sizeof file))
                continue;
            size_t j = 0;
            while (j < count && strcmp(names[j], file))
                j++;
            if (j == count)
                snprintf(names[count++], sizeof names[0], "%s", file);
        }
    }
    fputc('[', f);
    bool first = true;
    for (size_t i = 0; i < count; i++) {
        char *text = source_text(d, names[i]);
        if (!text)
            continue;
        fputs(first ? "{\"name\":" : ",{\"name\":", f);
        json_str(f, names[i]);
        fputs(",\"text\":", f);
        json_str(f, text);
        fputc('}', f);
        free(text);
        first = false;
    }
    fputc(']', f);
}

/* ---- the run file and its files, for the browser's own GPU ---- */

enum { HTML_MAX_FILE_BYTES = 16 << 20 };

static void base64(FILE *f, const uint8_t *p, size_t n)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    fputc('"', f);
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        fputc(A[v >> 18 & 63], f);
        fputc(A[v >> 12 & 63], f);
        fputc(i + 1 < n ? A[v >> 6 & 63] : '=', f);
        fputc(i + 2 < n ? A[v & 63] : '=', f);
    }
    fputc('"', f);
}

/* Every {"file": NAME} the run file holds (modules, contents, data; the
 * outputs' names too, which do not exist yet and are skipped). */
static void collect_files(const json_t *j, const char **names, size_t *n, size_t max)
{
    const char *key;
    const json_t *v;
    size_t i;
    if (json_is_object(j)) {
        json_object_foreach((json_t *)j, key, v) {
            if (!strcmp(key, "file") && json_is_string(v) && *n < max) {
                size_t k = 0;
                while (k < *n && strcmp(names[k], json_string_value(v)))
                    k++;
                if (k == *n)
                    names[(*n)++] = json_string_value(v);
            } else {
                collect_files(v, names, n, max);
            }
        }
    } else if (json_is_array(j)) {
        json_array_foreach((json_t *)j, i, v)
            collect_files(v, names, n, max);
    }
}

/* "gpu": the run file's text and its files (base64), or null. */
static void json_gpu(FILE *f, const race_html_data *d)
{
    json_t *run = d->run_json ? json_loads(d->run_json, 0, NULL) : NULL;
    if (!run) {
        fputs("null", f);
        return;
    }
    const char *names[64];
    size_t n = 0, total = 0;
    collect_files(run, names, &n, 64);
    fputs("{\"run\":", f);
    json_str(f, d->run_json);
    fputs(",\"files\":{", f);
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *bytes = NULL;
        size_t size = 0;
        char *owned = NULL;
        if (d->kernel && !strcmp(names[i], "input.bin") && d->input)
            bytes = d->input, size = d->input_size;
        else if ((owned = read_named(d, names[i], &size)))
            bytes = (const uint8_t *)owned;
        if (bytes && total + size <= HTML_MAX_FILE_BYTES) {
            fputs(first ? "" : ",", f);
            json_str(f, names[i]);
            fputc(':', f);
            base64(f, bytes, size);
            total += size;
            first = false;
        }
        free(owned);
    }
    fputs("}}", f);
    json_decref(run);
}

static void json_data(FILE *f, const race_html_data *d)
{
    const cli_race_summary *s = d->s;
    const stex_format_info *fi = stex_format_get(s->format);
    size_t texels = (size_t)s->width * s->height;
    /* a run file's output of one row with races on buffers only: a buffer
     * (the run layer reads both back as images) */
    bool buffer = d->buffer_output;
    size_t kept = d->rd ? stex_race_reported(d->rd) : 0;
    if (!d->kernel && s->height == 1 && kept) {
        buffer = true;
        for (size_t i = 0; i < kept && buffer; i++)
            buffer = stex_race_get(d->rd, i)->memory != STEX_RACE_MEMORY_TEXTURE;
    }
    fputs("{\"stex_race_html\":1,\"name\":", f);
    json_str(f, d->name);
    fprintf(f, ",\"format\":\"%s\",\"channels\":%u,\"width\":%u,\"height\":%u,\"depth\":1,"
               "\"output\":\"%s\",\"runs\":%u,\"seed\":%llu,\"iterations\":%u,\"threads\":%u,"
               "\"texels_differing\":%llu,\"flagged_count\":%llu,\"distinct\":[",
            stex_format_name(s->format), fi->channels, s->width, s->height,
            buffer ? "buffer" : "texture", d->runs, (unsigned long long)d->seed0,
            s->iterations, d->threads, (unsigned long long)s->texels_differing,
            (unsigned long long)s->flagged);
    for (uint32_t i = 0; i < s->distinct; i++)
        fprintf(f, "%s{\"hash\":\"%016llx\",\"runs\":%u,\"seed\":%llu}", i ? "," : "",
                (unsigned long long)s->seen[i].hash, s->seen[i].runs,
                (unsigned long long)s->seen[i].first_seed);
    fputs("],\"images\":[", f);
    for (uint32_t i = 0; i < d->image_count; i++) {
        fprintf(f, "%s{\"seed\":%llu,\"runs\":%u,\"values\":", i ? "," : "",
                (unsigned long long)d->images[i].seed, d->images[i].runs);
        json_values(f, d->images[i].img);
        fputc('}', f);
    }
    fputs("],\"frames\":[", f);
    for (uint32_t i = 0; i < d->frame_count; i++) {
        fputs(i ? ",{\"values\":" : "{\"values\":", f);
        json_values(f, &d->frames[i]);
        if (d->frame_labels) {
            fputs(",\"label\":", f);
            cli_json_string(f, d->frame_labels[i]);
        }
        fputc('}', f);
    }
    fputs("],\"differs\":[", f);
    for (size_t i = 0; i < texels; i++)
        fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)d->differs[i]);
    fputs("],\"flagged\":[", f);
    for (size_t i = 0; i < texels; i++)
        fprintf(f, "%s%u", i ? "," : "", d->flagged[i]);
    size_t n = d->rd ? stex_race_reported(d->rd) : 0;
    n = n < HTML_MAX_RACES ? n : HTML_MAX_RACES;
    fprintf(f, "],\"races\":{\"total\":%llu,\"read_write\":%llu,\"write_write\":%llu,\"list\":[",
            (unsigned long long)s->races, (unsigned long long)s->read_write,
            (unsigned long long)s->write_write);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputs(",\n", f);
        json_race(f, stex_race_get(d->rd, i));
    }
    /* the groups by pair of source sites, complete counts (the race layer's) */
    fputs("],\"groups\":[", f);
    size_t ng = d->rd ? stex_race_group_count(d->rd) : 0;
    for (size_t i = 0; i < ng; i++) {
        const stex_race_group *g = stex_race_group_get(d->rd, i);
        fprintf(f, "%s{\"kind\":\"%s\",\"memory\":\"%s\",\"count\":%llu,"
                   "\"same_workgroup\":%llu,\"sites\":[", i ? ",\n" : "",
                stex_race_kind_name(g->kind), stex_race_memory_name(g->memory),
                (unsigned long long)g->count, (unsigned long long)g->same_workgroup);
        for (int k = 0; k < 2; k++) {
            fprintf(f, "%s{\"access\":\"%s\",\"source\":", k ? "," : "",
                    stex_race_access_name(g->sites[k].access));
            if (g->sites[k].source)
                json_str(f, g->sites[k].source);
            else
                fputs("null", f);
            fputc('}', f);
        }
        fputs("],\"example\":", f);
        json_race(f, &g->example);
        fputc('}', f);
    }
    fputs("]},\"sources\":", f);
    json_sources(f, d);
    fputs(",\"gpu\":", f);
    json_gpu(f, d);
    fputc('}', f);
}

stex_status race_html_write(const char *path, const race_html_data *d)
{
    static const char MARK[] = "/*STEX_DATA*/";
    const char *page = race_html_text_race_report_html;
    const char *at = strstr(page, MARK);
    FILE *f = fopen(path, "wb");
    if (!f)
        return stex_fail(STEX_IO_ERROR, "--html: cannot write '%s'", path);
    fwrite(page, 1, (size_t)(at - page), f);
    json_data(f, d);
    fputs(at + strlen(MARK), f);
    bool bad = ferror(f);
    if (fclose(f) || bad)
        return stex_fail(STEX_IO_ERROR, "--html: writing '%s' failed", path);
    return STEX_OK;
}
