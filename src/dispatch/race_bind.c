/* Race detection for one dispatch: a shadow beside every writable binding's
 * memory (src/race), and the fast bindings' race fields and tags, so the
 * builtins' inline path records into the summary words itself. */
#include "common/error.h"
#include "dispatch/dispatch_internal.h"
#include "race/race_internal.h"

static struct race_shadow *shadow_for(struct race_dispatch *d, const exec_binding *b)
{
    if (b->type == STEX_BINDING_STORAGE_BUFFER) {
        uint64_t words = stex_buffer_size(b->buffer) / 4;
        return race_dispatch_shadow(d, STEX_RACE_MEMORY_BUFFER, b->ref, b->buffer, 0, words, 1,
                                    words, b->offset / 4, b->words);
    }
    stex_extent3d m = stex_texture_mip_size(b->texture, b->mip);
    const stex_texture_desc *td = stex_texture_get_desc(b->texture);
    uint64_t w = m.width ? m.width : 1, h = m.height ? m.height : 1;
    uint64_t layers = td->dimension == STEX_TEXTURE_DIMENSION_3D ? m.depth_or_array_layers
                                                                 : td->size.depth_or_array_layers;
    if (!layers)
        layers = 1;
    return race_dispatch_shadow(d, STEX_RACE_MEMORY_TEXTURE, b->ref, b->texture, b->mip, w, h,
                                w * h * layers, 0, w * h * layers);
}

/* What the inline builtins read to mark a summary word (shader/fast.h). */
static void arm_fast_binding(stex_fast_binding *f, const exec_binding *b)
{
    const race_shadow_head *h = race_shadow_summary(b->shadow);
    f->race = h->word;
    f->race_touch = h->touch;
    f->race_runs = h->runs;
    /* the inline builtins take their race path on these tags */
    if (f->load_tag != EXEC_TAG_NONE)
        f->load_tag |= STEX__TAG_RACE;
    if (f->store_tag != EXEC_TAG_NONE)
        f->store_tag |= STEX__TAG_RACE;
    f->buf_load |= f->buf_load ? STEX__TAG_RACE : 0;
    f->buf_store |= f->buf_store ? STEX__TAG_RACE : 0;
    f->race_count = h->count;
    f->race_values = h->value != NULL;
    if (b->type == STEX_BINDING_STORAGE_TEXTURE) {
        f->race_w = h->g.w;
        f->race_wh = h->g.w * h->g.h;
        f->race_off = f->race_wh * exec_layer0(b);
        f->race_bpp = b->bpp;
    } else { /* buffer word index + offset / 4 */
        f->race_w = f->race_wh = 1;
        f->race_off = b->offset / 4;
        f->race_bpp = 4;
    }
}

stex_status dispatch_race_begin(stex_race_detector *rd, exec_dispatch *ctx,
                                struct race_dispatch **out)
{
    race_geometry g = {.wg_invocations = ctx->wg_invocations, .total_wg = ctx->total_wg,
                       .wg_memory_size = ctx->wg_memory_size, .threads = ctx->threads,
                       .barriers = ctx->barriers,
                       .site_name = ctx->pipeline->executor.site_name,
                       .location_name = ctx->pipeline->executor.location_name,
                       .site_user = ctx->pipeline->executor.user};
    memcpy(g.num_wg, ctx->num_wg, sizeof g.num_wg);
    memcpy(g.wg_size, ctx->wg_size, sizeof g.wg_size);
    struct race_dispatch *d;
    stex_status st = race_dispatch_begin(rd, &g, &d);
    if (st)
        return st;
    /* Only writable bindings can race: WebGPU's usage scope keeps read-only
     * bindings off memory that the dispatch writes. */
    for (uint32_t i = 0; i < ctx->nb; i++) {
        exec_binding *b = &ctx->b[i];
        bool tex = b->type == STEX_BINDING_STORAGE_TEXTURE && b->access != STEX_ACCESS_READ_ONLY;
        if (!tex && b->type != STEX_BINDING_STORAGE_BUFFER)
            continue;
        if (!(b->shadow = shadow_for(d, b))) {
            dispatch_race_free(ctx, d);
            return stex_fail(STEX_OUT_OF_MEMORY, "race detector: out of memory for the shadow "
                             "of %s", EXEC_REF(b->ref));
        }
        if (race_dispatch_summary(d))
            arm_fast_binding(&ctx->fb[i], b);
    }
    race_dispatch_ready(d);
    *out = d;
    return STEX_OK;
}

void dispatch_race_free(exec_dispatch *ctx, struct race_dispatch *d)
{
    for (uint32_t i = 0; i < ctx->nb; i++)
        ctx->b[i].shadow = NULL;
    race_dispatch_free(d);
}
