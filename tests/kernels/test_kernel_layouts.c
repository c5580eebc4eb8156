/*
 * Every built-in kernel's hand-written bind group layout is exactly what its
 * WGSL text declares: for each `@group(g) @binding(b) var...` line, one
 * layout entry with the same group, binding, kind, format, access and view
 * dimension (and, for var<uniform>, a minBindingSize equal to the WGSL
 * type's size), and no entry the WGSL does not declare.  The WGSL is read
 * here with a small scanner of those declarations, independent of the
 * kernels' C code.
 */
#include "kernel_test.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct decl {
    uint32_t group, binding;
    stex_binding_type type;
    stex_format format;          /* storage textures */
    stex_access access;          /* storage textures */
    stex_view_dimension dim;     /* textures */
    uint64_t size;               /* var<uniform>: SizeOf(the store type); 0 = not computed */
} decl;

/* Size and alignment of a host-shareable WGSL type made of 32-bit scalars,
 * vectors and the structs declared in `src` (WGSL's memory layout table). */
static bool type_layout(const char *src, const char *t, uint64_t *size, uint64_t *align)
{
    while (*t == ' ')
        t++;
    static const struct { const char *name; uint64_t size, align; } base[] = {
        {"f32", 4, 4}, {"i32", 4, 4}, {"u32", 4, 4},
        {"vec2<f32>", 8, 8}, {"vec2<i32>", 8, 8}, {"vec2<u32>", 8, 8},
        {"vec3<f32>", 12, 16}, {"vec3<i32>", 12, 16}, {"vec3<u32>", 12, 16},
        {"vec4<f32>", 16, 16}, {"vec4<i32>", 16, 16}, {"vec4<u32>", 16, 16},
    };
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
        if (!strncmp(t, base[i].name, strlen(base[i].name))) {
            *size = base[i].size, *align = base[i].align;
            return true;
        }
    /* a struct: "struct Name { a : T, b : U };" */
    char name[64];
    size_t n = 0;
    while (n < sizeof name - 1 && (isalnum((unsigned char)t[n]) || t[n] == '_'))
        name[n] = t[n], n++;
    name[n] = 0;
    char head[80];
    snprintf(head, sizeof head, "struct %s", name);
    const char *s = strstr(src, head);
    if (!n || !s || !(s = strchr(s, '{')))
        return false;
    uint64_t off = 0, max_align = 1;
    for (s++; *s && *s != '}';) {
        const char *colon = strchr(s, ':');
        if (!colon)
            return false;
        uint64_t ms, ma;
        if (!type_layout(src, colon + 1, &ms, &ma))
            return false;
        off = (off + ma - 1) / ma * ma + ms;
        max_align = ma > max_align ? ma : max_align;
        const char *next = strpbrk(colon, ",}");
        if (!next)
            return false;
        s = *next == ',' ? next + 1 : next;
        while (*s == ' ' || *s == '\n')
            s++;
    }
    *size = (off + max_align - 1) / max_align * max_align;
    *align = max_align;
    return true;
}

static stex_access wgsl_access(const char *a)
{
    if (!strncmp(a, "read_write", 10))
        return STEX_ACCESS_READ_WRITE;
    if (!strncmp(a, "read", 4))
        return STEX_ACCESS_READ_ONLY;
    if (!strncmp(a, "write", 5))
        return STEX_ACCESS_WRITE_ONLY;
    return STEX_ACCESS_UNDEFINED;
}

static stex_view_dimension wgsl_dim(const char *d)
{
    if (!strncmp(d, "2d_array", 8))
        return STEX_VIEW_DIMENSION_2D_ARRAY;
    if (!strncmp(d, "1d", 2))
        return STEX_VIEW_DIMENSION_1D;
    if (!strncmp(d, "2d", 2))
        return STEX_VIEW_DIMENSION_2D;
    if (!strncmp(d, "3d", 2))
        return STEX_VIEW_DIMENSION_3D;
    return STEX_VIEW_DIMENSION_UNDEFINED;
}

/* Reads one declaration starting at "@group(".  False if it is not one. */
static bool parse_decl(const char *src, const char *p, decl *d)
{
    memset(d, 0, sizeof *d);
    if (sscanf(p, "@group(%u) @binding(%u)", &d->group, &d->binding) != 2)
        return false;
    const char *v = strstr(p, "var");
    const char *colon = v ? strchr(v, ':') : NULL;
    if (!colon)
        return false;
    const char *t = colon + 1;
    while (*t == ' ')
        t++;
    if (!strncmp(v, "var<storage, read_write>", 24))
        d->type = STEX_BINDING_STORAGE_BUFFER;
    else if (!strncmp(v, "var<storage, read>", 18) || !strncmp(v, "var<storage>", 12))
        d->type = STEX_BINDING_READ_ONLY_STORAGE_BUFFER;
    else if (!strncmp(v, "var<uniform>", 12)) {
        uint64_t align;
        d->type = STEX_BINDING_UNIFORM_BUFFER;
        if (!type_layout(src, t, &d->size, &align))
            d->size = 0;
    } else if (!strncmp(t, "texture_storage_", 16)) {
        d->type = STEX_BINDING_STORAGE_TEXTURE;
        d->dim = wgsl_dim(t + 16);
        const char *lt = strchr(t, '<'), *comma = lt ? strchr(lt, ',') : NULL;
        if (!comma)
            return false;
        char fmt[32];
        size_t n = (size_t)(comma - lt - 1);
        if (n >= sizeof fmt)
            return false;
        memcpy(fmt, lt + 1, n);
        fmt[n] = 0;
        d->format = stex_format_from_name(fmt);
        const char *a = comma + 1;
        while (*a == ' ')
            a++;
        d->access = wgsl_access(a);
    } else if (!strncmp(t, "texture_", 8)) {
        d->type = STEX_BINDING_TEXTURE;
        d->dim = wgsl_dim(t + 8);
    } else if (!strncmp(t, "sampler", 7))
        d->type = STEX_BINDING_SAMPLER;
    else
        return false;
    return true;
}

static void check_pass(const stex_kernel *k, const stex_kernel_pass *pass)
{
    const char *src = pass->wgsl;
    const stex_pipeline_desc *pd = &pass->pipeline;
    uint32_t declared = 0;
    for (const char *p = strstr(src, "@group("); p; p = strstr(p + 1, "@group(")) {
        decl d;
        if (!parse_decl(src, p, &d))
            fail_msg("%s/%s: cannot read the declaration at \"%.40s\"", k->name,
                     pass->entry_point, p);
        declared++;
        const stex_layout_entry *e = NULL;
        for (uint32_t i = 0; i < pd->entry_count; i++)
            if (pd->entries[i].group == d.group && pd->entries[i].binding == d.binding) {
                if (e)
                    fail_msg("%s: @group(%u) @binding(%u) has two layout entries", k->name,
                             d.group, d.binding);
                e = &pd->entries[i];
            }
        if (!e)
            fail_msg("%s/%s: the WGSL declares @group(%u) @binding(%u), the C layout lacks it",
                     k->name, pass->entry_point, d.group, d.binding);
        if (e->type != d.type)
            fail_msg("%s: @binding(%u) is kind %d in the WGSL, %d in the layout", k->name,
                     d.binding, (int)d.type, (int)e->type);
        if (d.type == STEX_BINDING_STORAGE_TEXTURE) {
            assert_int_equal(e->storage_texture.format, d.format);
            assert_int_equal(e->storage_texture.access, d.access);
            assert_int_equal(e->storage_texture.view_dimension, d.dim);
        }
        if (d.type == STEX_BINDING_TEXTURE) {
            stex_view_dimension ld = e->texture_view_dimension ? e->texture_view_dimension
                                                               : STEX_VIEW_DIMENSION_2D;
            assert_int_equal(ld, d.dim);
        }
        if (d.type == STEX_BINDING_UNIFORM_BUFFER) {
            if (!d.size)
                fail_msg("%s: cannot size the uniform at @binding(%u)", k->name, d.binding);
            if (e->buffer.min_binding_size != d.size)
                fail_msg("%s: uniform @binding(%u) is %llu bytes in the WGSL, minBindingSize "
                         "%llu in the layout", k->name, d.binding, (unsigned long long)d.size,
                         (unsigned long long)e->buffer.min_binding_size);
        }
    }
    if (declared != pd->entry_count)
        fail_msg("%s/%s: the WGSL declares %u bindings, the C layout has %u entries", k->name,
                 pass->entry_point, declared, pd->entry_count);
}

static void test_every_layout_matches_its_wgsl(void **state)
{
    (void)state;
    uint32_t uniforms = 0;
    for (size_t i = 0; i < stex_kernel_count(); i++) {
        const stex_kernel *k = stex_kernel_at(i);
        for (uint32_t p = 0; p < k->pass_count; p++) {
            check_pass(k, &k->passes[p]);
            for (uint32_t e = 0; e < k->passes[p].pipeline.entry_count; e++)
                uniforms += k->passes[p].pipeline.entries[e].type == STEX_BINDING_UNIFORM_BUFFER;
        }
    }
    /* generar, blur, histogram's acumular and box3x3-buffer declare var<uniform> */
    assert_int_equal(uniforms, 4);
}

/* The scanner itself: a declaration the layout would contradict is seen. */
static void test_scanner_reads_each_kind(void **state)
{
    (void)state;
    const char *src = "struct P { a : vec2<f32>, b : f32 };\n"
                      "@group(1) @binding(7) var<uniform> p : P;\n"
                      "@group(0) @binding(2) var t : texture_storage_2d_array<rg32sint, read>;\n"
                      "@group(3) @binding(0) var<storage, read_write> b : array<u32>;\n";
    decl d;
    assert_true(parse_decl(src, strstr(src, "@group(1)"), &d));
    assert_int_equal(d.group, 1);
    assert_int_equal(d.binding, 7);
    assert_int_equal(d.type, STEX_BINDING_UNIFORM_BUFFER);
    assert_int_equal(d.size, 16); /* 8 + 4, rounded up to vec2's alignment 8 */
    assert_true(parse_decl(src, strstr(src, "@group(0)"), &d));
    assert_int_equal(d.type, STEX_BINDING_STORAGE_TEXTURE);
    assert_int_equal(d.format, STEX_FORMAT_RG32SINT);
    assert_int_equal(d.access, STEX_ACCESS_READ_ONLY);
    assert_int_equal(d.dim, STEX_VIEW_DIMENSION_2D_ARRAY);
    assert_true(parse_decl(src, strstr(src, "@group(3)"), &d));
    assert_int_equal(d.type, STEX_BINDING_STORAGE_BUFFER);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_layout_matches_its_wgsl),
        cmocka_unit_test(test_scanner_reads_each_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
