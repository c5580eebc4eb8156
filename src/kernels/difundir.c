/*
 * difundir - lesson 000 ("write, read y read_write"), section "Leer y
 * escribir la misma textura": a 4-neighbour average.
 *
 * difundir (the lesson's INCORRECTO version) reads, in place on one
 * read_write texture, neighbours that other invocations write in the same
 * dispatch: a race whose outcome depends on the order of workgroups (and of
 * invocations inside a workgroup).  difundir-pingpong is the lesson's fix:
 * read one texture, write the other, swap them between dispatches.
 */
#include <pthread.h>
#include <string.h>

#include "kernels/inputs.h"
#include "kernels/instance.h"
#include "kernels/kernels_text.h" /* the WGSL and run file: wgsl/ */
#include "race/race_internal.h"
#include "shader/exec.h"
#include "shader/tile.h"

/* racy: @binding(0) var campo : texture_storage_2d<r32float, read_write> */
enum { CAMPO = 0 };
/* ping-pong: @binding(0) origen (read), @binding(1) destino (write) */
enum { ORIGEN = 0, DESTINO = 1 };

/* The lesson has no bounds guard: out-of-bounds loads return the zero texel
 * (or what the dispatch's oob_load policy says) and stores are discarded. */
static void difundir(const stex_invocation *inv)
{
    int32_t cx = (int32_t)inv->global_invocation_id[0]; /* c = vec2<i32>(id.xy) */
    int32_t cy = (int32_t)inv->global_invocation_id[1];
    /* The four loads in source order, summed left to right in f32. */
    float izq = stex_textureLoad_2d(inv, CAMPO, cx - 1, cy).v.f[0];
    float der = stex_textureLoad_2d(inv, CAMPO, cx + 1, cy).v.f[0];
    float arr = stex_textureLoad_2d(inv, CAMPO, cx, cy - 1).v.f[0];
    float aba = stex_textureLoad_2d(inv, CAMPO, cx, cy + 1).v.f[0];
    float suma = izq + der + arr + aba;
    stex_textureStore_2d(inv, CAMPO, cx, cy, stex_f32x4(suma * 0.25f, 0.0f, 0.0f, 0.0f));
}

static void difundir_pingpong(const stex_invocation *inv)
{
    int32_t cx = (int32_t)inv->global_invocation_id[0];
    int32_t cy = (int32_t)inv->global_invocation_id[1];
    float izq = stex_textureLoad_2d(inv, ORIGEN, cx - 1, cy).v.f[0];
    float der = stex_textureLoad_2d(inv, ORIGEN, cx + 1, cy).v.f[0];
    float arr = stex_textureLoad_2d(inv, ORIGEN, cx, cy - 1).v.f[0];
    float aba = stex_textureLoad_2d(inv, ORIGEN, cx, cy + 1).v.f[0];
    float suma = izq + der + arr + aba;
    stex_textureStore_2d(inv, DESTINO, cx, cy, stex_f32x4(suma * 0.25f, 0.0f, 0.0f, 0.0f));
}

/* The racy kernel's workgroup function.  An 8x8 workgroup whose 10x10
 * neighbourhood (less its corners) lies inside a plain r32float binding
 * runs its invocations in the engine's order with the texels addressed
 * directly - the same loads, sum and store as difundir, so the same bytes:
 * an invocation sees what earlier ones wrote.  With the race summary on,
 * the 96 locations' accesses are recorded once per location instead of
 * once per access (race_note_set): each texel of the workgroup is written
 * by its own invocation and read by its neighbours inside the workgroup,
 * each texel around it read by one invocation; the keys are known from the
 * workgroup's position alone.  Anything else runs difundir per invocation. */
enum { WG = 8 };

/* Per location of the neighbourhood, built once: the local indices + 1 of
 * its two smallest readers and of its writer, packed as race pairs (rp, wq:
 * race_note_set), and which halves hold a key (rmask, wmask): the
 * workgroup's keys are these + (the key of its local index 0) - 1. */
typedef struct halo_cell {
    int8_t hx, hy;
    bool one;
    uint64_t rp, wq, rmask, wmask;
} halo_cell;
static halo_cell HALO[(WG + 2) * (WG + 2) - 4];

static int halo_key(int x, int y) /* local index + 1 of (x, y), 0 outside */
{
    return x >= 0 && x < WG && y >= 0 && y < WG ? WG * y + x + 1 : 0;
}

static void halo_init(void)
{
    int n = 0;
    for (int hy = -1; hy <= WG; hy++)
        for (int hx = -1; hx <= WG; hx++) {
            if ((hx == -1 || hx == WG) && (hy == -1 || hy == WG))
                continue; /* corners: nobody's neighbour */
            /* readers by increasing key: above, left, right, below */
            int rd[4] = {halo_key(hx, hy - 1), halo_key(hx - 1, hy), halo_key(hx + 1, hy),
                         halo_key(hx, hy + 1)}, k = 0;
            uint32_t r[2] = {0, 0}, w = (uint32_t)halo_key(hx, hy);
            for (int i = 0; i < 4; i++)
                if (rd[i] && k++ < 2)
                    r[k - 1] = (uint32_t)rd[i];
            halo_cell c = {(int8_t)hx, (int8_t)hy, !w && !r[1], ((uint64_t)r[0] << 32) | r[1],
                           (uint64_t)w << 32, (r[0] ? 0xffffffff00000000ull : 0)
                           | (r[1] ? 0xffffffffull : 0), w ? 0xffffffff00000000ull : 0};
            HALO[n++] = c;
        }
}

static pthread_once_t halo_once = PTHREAD_ONCE_INIT;

/* The workgroup's accesses to the race summary, location by location. */
static void difundir_race(const stex_invocation *inv, const stex_fast_binding *b, uint64_t x0,
                          uint64_t y0)
{
    const struct stex_exec *e = inv->exec;
    struct race_shadow *sh = e->b[b->slot].shadow;
    uint32_t tid = e->fast.race_tid, key = e->fast.race_key - 1; /* key of local index + 1 */
    uint64_t first = x0 + b->race_w * y0 + b->race_off;
    uint64_t add = ((uint64_t)key << 32) | key; /* to both halves of a pair */
    for (size_t i = 0; i < sizeof HALO / sizeof HALO[0]; i++) {
        const halo_cell *c = &HALO[i];
        uint64_t loc = first + (uint64_t)((int64_t)b->race_w * c->hy + c->hx);
        race_note_set(sh, tid, loc, c->rp + (add & c->rmask), c->wq + (add & c->wmask), c->one);
    }
}

/* difundir on texel (cx, cy) of binding b, addressed directly. */
STEX__ALWAYS_INLINE void difundir_texel(const stex_fast_binding *b, uint64_t cx, uint64_t cy)
{
    float izq, der, arr, aba;
    memcpy(&izq, b->memory + b->col[cx - 1] + b->row[cy], 4);
    memcpy(&der, b->memory + b->col[cx + 1] + b->row[cy], 4);
    memcpy(&arr, b->memory + b->col[cx] + b->row[cy - 1], 4);
    memcpy(&aba, b->memory + b->col[cx] + b->row[cy + 1], 4);
    float suma = izq + der + arr + aba;
    float v = suma * 0.25f;
    memcpy(b->memory + b->col[cx] + b->row[cy], &v, 4);
}

STEX__FLATTEN static void difundir_workgroup(const stex_workgroup *w)
{
    const stex_invocation *inv = w->inv;
    const stex_fast_binding *b = stex__fast(inv, CAMPO);
    uint32_t race = b->load_tag & STEX__TAG_RACE;
    uint64_t x0 = w->base[0], y0 = w->base[1];
    bool plain = w->size[0] == WG && w->size[1] == WG && w->size[2] == 1 &&
                 b->load_tag == (STEX__TILE_LOAD_TAG | race) &&
                 b->store_tag == (STEX__TILE_STORE_TAG(STEX_SCALAR_F32) | race) && b->raw32 &&
                 b->col && x0 >= 1 && y0 >= 1 && x0 + WG + 1 <= b->w && y0 + WG + 1 <= b->h &&
                 !(race && b->race_values);
    if (!plain) {
        stex__workgroup_loop(w, difundir);
        return;
    }
    if (race) {
        pthread_once(&halo_once, halo_init);
        difundir_race(inv, b, x0, y0);
    }
    if (!w->order) {
        for (uint64_t ly = 0; ly < WG; ly++)
            for (uint64_t lx = 0; lx < WG; lx++)
                difundir_texel(b, x0 + lx, y0 + ly);
        return;
    }
    for (uint32_t k = 0; k < WG * WG; k++) {
        const uint32_t *l = w->lid[w->order[k]];
        difundir_texel(b, x0 + l[0], y0 + l[1]);
    }
}
STEX_WORKGROUP_FN(difundir_pingpong_workgroup, difundir_pingpong)

static const stex_layout_entry ENTRIES_RACY[] = {
    {.binding = CAMPO, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_TEXTURE,
     .storage_texture = {STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_2D}},
};
static const stex_layout_entry ENTRIES_PINGPONG[] = {
    {.binding = ORIGEN, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_TEXTURE,
     .storage_texture = {STEX_ACCESS_READ_ONLY, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_2D}},
    {.binding = DESTINO, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_TEXTURE,
     .storage_texture = {STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_2D}},
};

static const stex_kernel_pass PASSES_RACY[] = {
    {"difundir", kernels_text_difundir_wgsl, {.kernel = difundir, .workgroup = difundir_workgroup,
      .workgroup_size = {8, 8, 1},
                             .entries = ENTRIES_RACY, .entry_count = 1, .label = "difundir"}},
};
static const stex_kernel_pass PASSES_PINGPONG[] = {
    {"difundir", kernels_text_difundir_pingpong_wgsl,
     {.kernel = difundir_pingpong, .workgroup = difundir_pingpong_workgroup,
      .workgroup_size = {8, 8, 1}, .entries = ENTRIES_PINGPONG,
      .entry_count = 2, .label = "difundir-pingpong"}},
};

static void make_input(const stex_kernel_instance *ki, uint8_t *out)
{
    kernels_input_difundir(ki->width, ki->height, ki->hot, out);
}

static const uint32_t USAGE =
    STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_SRC | STEX_USAGE_COPY_DST;

static stex_status create_racy(stex_kernel_instance *ki)
{
    stex_status st = kernels_texture(ki, 0, STEX_FORMAT_R32FLOAT, USAGE);
    if (st)
        return st;
    ki->out_texture = ki->texture[0];
    stex_bind_group_entry e[] = {{.binding = CAMPO, .view = ki->view[0]}};
    return kernels_group(ki, 0, 0, e, 1);
}

static stex_status create_pingpong(stex_kernel_instance *ki)
{
    stex_status st;
    if ((st = kernels_texture(ki, 0, STEX_FORMAT_R32FLOAT, USAGE)) ||
        (st = kernels_texture(ki, 1, STEX_FORMAT_R32FLOAT, USAGE)))
        return st;
    /* group 0: a -> b, group 1: b -> a */
    stex_bind_group_entry ab[] = {{.binding = ORIGEN, .view = ki->view[0]},
                                  {.binding = DESTINO, .view = ki->view[1]}};
    stex_bind_group_entry ba[] = {{.binding = ORIGEN, .view = ki->view[1]},
                                  {.binding = DESTINO, .view = ki->view[0]}};
    if ((st = kernels_group(ki, 0, 0, ab, 2)))
        return st;
    return kernels_group(ki, 1, 0, ba, 2);
}

static stex_status reset(stex_kernel_instance *ki)
{
    ki->out_texture = ki->texture[0];
    return kernels_write_texture(ki, 0, ki->input);
}

static stex_status iterate_racy(stex_kernel_instance *ki, const stex_dispatch_options *opt)
{
    return kernels_dispatch(ki, 0, 0, kernels_groups8(ki->width), kernels_groups8(ki->height),
                            opt, NULL, 0);
}

static stex_status iterate_pingpong(stex_kernel_instance *ki, const stex_dispatch_options *opt)
{
    int g = (int)(ki->steps % 2);
    stex_status st = kernels_dispatch(ki, 0, g, kernels_groups8(ki->width),
                                      kernels_groups8(ki->height), opt, NULL, 0);
    ki->out_texture = ki->texture[ki->steps % 2]; /* the texture written last */
    return st;
}

static const struct stex_kernel_ops OPS_RACY = {make_input, create_racy, reset, iterate_racy,
                                                NULL};
static const struct stex_kernel_ops OPS_PINGPONG = {make_input, create_pingpong, reset,
                                                    iterate_pingpong, NULL};

#define DIFUNDIR_INPUT                                                                    \
    "variant random (default): Math.fround(mulberry32(0xd1f0)()) per texel; variant hot: " \
    "0 but 1000.0 at (width/2, height/2)"

const stex_kernel kernels_difundir = {
    .name = "difundir",
    .summary = "4-neighbour average in place on one read_write r32float texture (racy)",
    .lesson = "000 write, read y read_write: \"Leer y escribir la misma textura\" (INCORRECTO)",
    .default_width = 256,
    .default_height = 256,
    .input_format = STEX_FORMAT_R32FLOAT,
    .output_format = STEX_FORMAT_R32FLOAT,
    .input = DIFUNDIR_INPUT,
    .racy = true,
    .conserves_sum = true,
    .passes = PASSES_RACY,
    .pass_count = 1,
    .ops = &OPS_RACY,
    .run_file = kernels_text_difundir_json,
};

const stex_kernel kernels_difundir_pingpong = {
    .name = "difundir-pingpong",
    .summary = "the same average from a read texture into a write texture, swapped each dispatch",
    .lesson = "000 write, read y read_write: \"dos texturas que alternan\" (the fix)",
    .default_width = 256,
    .default_height = 256,
    .input_format = STEX_FORMAT_R32FLOAT,
    .output_format = STEX_FORMAT_R32FLOAT,
    .input = DIFUNDIR_INPUT,
    .racy = false,
    .conserves_sum = true,
    .passes = PASSES_PINGPONG,
    .pass_count = 1,
    .ops = &OPS_PINGPONG,
    .run_file = kernels_text_difundir_pingpong_json,
};
