/* The programs `stex run` and `stex race` run: a built-in kernel's WGSL
 * through its run file (the run layer on stex's WGSL interpreter), its C
 * version (a stex_kernel_instance), or a user's run file. */
#include "cli/program.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/kernel_template.h"
#include "kernels/inputs.h"
#include "kernels/instance.h"

struct cli_program {
    cli_program_desc d;
    stex_kernel_instance *ki;       /* C */
    stex_adapter *adapter;          /* WGSL and run files: the device the runs share */
    stex_device *device;
    stex_run *run;                  /* the last run */
    kernel_run kr;                  /* WGSL: the kernel's run file for these options */
    uint8_t *input, *points;        /* WGSL: the files input.bin and points.bin */
    size_t input_size, points_size;
    kernel_values values;
    bool *dispatches_at;            /* run file: which steps dispatch (frames) */
    size_t step_count;
    double step_start, steps_ms;    /* the last run's time in its steps */
    double step_ms[CLI_STEP_TIMES]; /* and each of its first steps' */
    size_t nstep_ms;
};

/* ---- the files a kernel's run file names: its WGSL (in the library) and
 * its input, made from the options ---- */

static stex_status read_kernel_file(void *user, const char *path, uint8_t **bytes, size_t *size)
{
    cli_program *p = user;
    const uint8_t *src = NULL;
    size_t n = 0;
    if (!strcmp(path, "input.bin") && p->input)
        src = p->input, n = p->input_size;
    else if (!strcmp(path, "points.bin") && p->points)
        src = p->points, n = p->points_size;
    else if (!(src = (const uint8_t *)stex_kernel_file(path, &n)))
        return stex_fail(STEX_IO_ERROR, "no file '%s' among kernel %s's files", path,
                         p->d.kernel->name);
    if (!(*bytes = malloc(n ? n : 1)))
        return stex_fail(STEX_OUT_OF_MEMORY, "out of memory");
    memcpy(*bytes, src, n);
    *size = n;
    return STEX_OK;
}

/* The input texels: the caller's image (rows bytes_per_row apart) or the
 * kernel's embedded one; histogram: its points. */
static stex_status make_inputs(cli_program *p)
{
    const stex_kernel *k = p->d.kernel;
    const stex_kernel_setup *s = &p->d.setup;
    uint32_t w = p->values.width, h = p->values.height;
    stex_status st;
    if (k->input_format != STEX_FORMAT_UNDEFINED && !s->input &&
        (st = stex_kernel_default_input(k, w, h, s->variant, &p->input, &p->input_size)))
        return st;
    if (s->input) {
        size_t row = (size_t)w * stex_format_get(k->input_format)->bytes;
        size_t bpr = s->input_bytes_per_row ? s->input_bytes_per_row : row;
        if (bpr < row || s->input_size < bpr * (h - 1) + row)
            return stex_fail(STEX_INVALID_ARGUMENT, "kernel %s: the input image is smaller "
                                                    "than %ux%u", k->name, w, h);
        if (!(p->input = malloc(row * h)))
            return stex_fail(STEX_OUT_OF_MEMORY, "kernel %s: no memory for its input", k->name);
        for (uint32_t y = 0; y < h; y++)
            memcpy(p->input + y * row, (const uint8_t *)s->input + y * bpr, row);
        p->input_size = row * h;
    }
    if (k == &kernels_histogram) {
        uint32_t n = p->values.points = kernels_histogram_points(w, h);
        uint32_t *xy = malloc((size_t)n * 8);
        p->points = malloc((size_t)n * 8);
        if (!xy || !p->points) {
            free(xy);
            return stex_fail(STEX_OUT_OF_MEMORY, "histogram: no memory for %u points", n);
        }
        kernels_input_points(w, h, n, xy);
        for (size_t i = 0; i < (size_t)n * 2; i++)
            kernels_put_u32(p->points + 4 * i, xy[i]);
        free(xy);
        p->points_size = (size_t)n * 8;
    }
    return STEX_OK;
}

/* Which steps of a run file dispatch: its frames. */
static stex_status find_dispatches(cli_program *p)
{
    json_t *root = json_loads(p->d.json, 0, NULL);
    json_t *steps = json_object_get(root, "steps");
    p->step_count = json_array_size(steps);
    p->dispatches_at = calloc(p->step_count + 1, sizeof *p->dispatches_at);
    for (size_t i = 0; p->dispatches_at && i < p->step_count; i++)
        p->dispatches_at[i] = json_object_get(json_array_get(steps, i), "dispatchWorkgroups");
    json_decref(root);
    return p->dispatches_at ? STEX_OK : stex_fail(STEX_OUT_OF_MEMORY, "out of memory");
}

/* The profile's device as WebGPU showed it; a user's run file asks it for
 * the file's requiredFeatures. */
static stex_status create_device(cli_program *p)
{
    stex_adapter_desc desc = stex_adapter_desc_for_profile(p->d.profile);
    stex_status st = stex_adapter_create(&desc, &p->adapter);
    if (st || p->d.kernel)
        return st ? st : stex_device_create(p->adapter, NULL, &p->device);
    stex_run *r;
    stex_run_options ro = {.allow_paths = p->d.allow_paths,
                           .allow_path_count = p->d.allow_path_count};
    if ((st = stex_run_parse(p->d.json, p->d.path, p->d.base_dir, &ro, &r)))
        return st;
    st = stex_run_request_device(r, p->adapter, &p->device);
    stex_run_destroy(r);
    return st;
}

stex_status cli_program_create(const cli_program_desc *d, cli_program **out)
{
    *out = NULL;
    cli_program *p = calloc(1, sizeof *p);
    if (!p)
        return stex_fail(STEX_OUT_OF_MEMORY, "out of memory");
    p->d = *d;
    stex_status st = STEX_OK;
    const stex_kernel *k = d->kernel;
    if (k && !d->wgsl) {
        st = stex_kernel_instance_create(k, &d->setup, &p->ki);
    } else if (k) {
        p->values = (kernel_values){
            .width = d->setup.width ? d->setup.width : k->default_width,
            .height = d->setup.width ? d->setup.height : k->default_height,
            .iterations = d->setup.iterations ? d->setup.iterations : 1,
            .time = d->setup.time};
        if (!(st = make_inputs(p)) && !(st = create_device(p)))
            st = kernel_run_make(k, &p->values, false, &p->kr);
    } else if (!(st = find_dispatches(p))) {
        st = create_device(p);
    }
    if (st) {
        cli_program_destroy(p);
        return st;
    }
    *out = p;
    return STEX_OK;
}

void cli_program_destroy(cli_program *p)
{
    if (!p)
        return;
    stex_kernel_instance_destroy(p->ki);
    stex_run_destroy(p->run);
    kernel_run_free(&p->kr);
    stex_device_destroy(p->device);
    stex_adapter_destroy(p->adapter);
    free(p->input);
    free(p->points);
    free(p->dispatches_at);
    free(p);
}

/* Each step timed; after it, the caller's hook (frames) if any. */
typedef struct step_watch {
    cli_program *p;
    stex_run_step_fn after;
    void *user;
} step_watch;

static stex_status before_step(void *user, stex_run *r, size_t step)
{
    (void)r, (void)step;
    step_watch *w = user;
    w->p->step_start = cli_now_ms();
    return STEX_OK;
}

static stex_status after_step(void *user, stex_run *r, size_t step)
{
    step_watch *w = user;
    double ms = cli_now_ms() - w->p->step_start;
    w->p->steps_ms += ms;
    if (w->p->nstep_ms < CLI_STEP_TIMES)
        w->p->step_ms[w->p->nstep_ms++] = ms;
    return w->after ? w->after(w->user, r, step) : STEX_OK;
}

/* One execution of a run file's text, kept in p->run. */
static stex_status execute(cli_program *p, const char *json, const stex_dispatch_options *o,
                           stex_run_step_fn after, void *user)
{
    stex_run_destroy(p->run);
    p->run = NULL;
    char name[96];
    const char *path = p->d.path;
    if (p->d.kernel) {
        snprintf(name, sizeof name, "%s.json", p->d.kernel->name);
        path = name;
    }
    stex_run_options ro = {.before_step = before_step, .after_step = after_step,
                           .step_user = &(step_watch){p, after, user},
                           .subgroup_width = p->d.subgroup_width, .max_steps = p->d.max_steps,
                           .executor = p->d.executor, .allow_paths = p->d.allow_paths,
                           .allow_path_count = p->d.allow_path_count,
                           .progress = p->d.progress, .progress_user = p->d.progress_user,
                           .allowed = p->d.allowed};
    p->steps_ms = 0;
    p->nstep_ms = 0;
    if (p->d.kernel) {
        ro.read_file = read_kernel_file;
        ro.read_file_user = p;
    }
    stex_status st = stex_run_parse(json, path, p->d.kernel ? "" : p->d.base_dir, &ro, &p->run);
    return st ? st : stex_run_execute(p->run, p->device, o);
}

stex_status cli_program_run(cli_program *p, const stex_dispatch_options *o)
{
    if (p->ki) {
        stex_status st = stex_kernel_instance_reset(p->ki);
        double t0 = cli_now_ms();
        if (!st)
            st = stex_kernel_instance_dispatch(p->ki, o);
        p->steps_ms = cli_now_ms() - t0;
        p->step_ms[0] = p->steps_ms;
        p->nstep_ms = 1;
        return st;
    }
    return execute(p, p->d.kernel ? p->kr.json : p->d.json, o, NULL, NULL);
}

/* The image of a kernel's output o in run r. */
static stex_status kernel_image(const cli_program *p, stex_run *r, const kernel_output *o,
                                stex_image *out)
{
    if (o->texture)
        return stex_image_from_texture(stex_run_texture(r, o->texture), 0, out);
    stex_buffer *b = stex_run_buffer(r, o->buffer);
    uint32_t w = p->values.width, h = p->values.height;
    size_t row = (size_t)w * stex_format_get(o->format)->bytes;
    if (!b || stex_buffer_size(b) < row * h)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s.json: \"$output\": buffer '%s' does not "
                         "hold %ux%u texels", p->d.kernel->name, o->buffer, w, h);
    stex_status st = stex_image_init(out, o->format, w, h, 1);
    for (uint32_t y = 0; !st && y < h; y++)
        memcpy(stex_image_texel(out, 0, y, 0), stex_buffer_data(b) + y * row, row);
    return st;
}

stex_status cli_program_image(cli_program *p, stex_image *out)
{
    memset(out, 0, sizeof *out);
    if (p->ki)
        return cli_instance_image(p->ki, out);
    if (!p->run)
        return stex_fail(STEX_INVALID_ARGUMENT, "cli_program_image: nothing has run");
    if (p->d.kernel)
        return kernel_image(p, p->run, &p->kr.output[p->kr.iterations - 1], out);
    if (!stex_run_output_entry_count(p->run))
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: no \"outputs\": say which texture or buffer "
                                                "to compare between runs", p->d.path);
    return stex_run_output_image(p->run, 0, out);
}

stex_status cli_program_bounds(cli_program *p, stex_bounds *out)
{
    memset(out, 0, sizeof *out);
    if (!p->d.allowed || !p->run)
        return stex_fail(STEX_INVALID_ARGUMENT, "cli_program_bounds: no allowed run");
    if (!p->d.kernel)
        return stex_run_output_bounds(p->run, 0, out);
    const kernel_output *o = &p->kr.output[p->kr.iterations - 1];
    stex_image img;
    stex_status st = kernel_image(p, p->run, o, &img);
    if (st)
        return st;
    stex_allowed_output ao = {0};
    st = o->texture ? stex_allowed_texture(p->d.allowed, stex_run_texture(p->run, o->texture), 0,
                                           &ao)
                    : stex_allowed_buffer(p->d.allowed, stex_run_buffer(p->run, o->buffer), 0,
                                          img.width * (uint64_t)stex_format_get(img.format)->bytes *
                                              img.height, &ao);
    if (!st)
        st = stex_bounds_from_allowed(&ao, &img, out);
    stex_allowed_output_free(&ao);
    stex_image_free(&img);
    return st;
}

/* ---- frames ---- */

typedef struct frames {
    cli_program *p;
    const kernel_run *kr;   /* a kernel: its steps for frames */
    uint32_t next;          /* the next iteration */
    cli_frame_fn fn;
    void *user;
} frames;

static stex_status frame_of(frames *f, stex_run *r, size_t step)
{
    stex_image img = {0};
    stex_status st = STEX_OK;
    if (f->kr) {
        if (f->next >= f->kr->iterations || step != f->kr->last_step[f->next])
            return STEX_OK;
        st = kernel_image(f->p, r, &f->kr->output[f->next++], &img);
    } else {
        if (step >= f->p->step_count || !f->p->dispatches_at[step])
            return STEX_OK;
        if (!stex_run_output_entry_count(r))
            return stex_fail(STEX_INVALID_ARGUMENT, "%s: no \"outputs\": say which texture or "
                                                    "buffer the frames show", f->p->d.path);
        st = stex_run_output_image(r, 0, &img);
    }
    if (!st)
        st = f->fn(f->user, &img);
    stex_image_free(&img);
    return st;
}

static stex_status frame_step(void *user, stex_run *r, size_t step)
{
    return frame_of(user, r, step);
}

stex_status cli_program_run_frames(cli_program *p, const stex_dispatch_options *o,
                                   cli_frame_fn fn, void *user)
{
    frames f = {.p = p, .fn = fn, .user = user};
    if (p->ki) { /* an instance of one iteration, dispatched once per frame */
        stex_kernel_setup one = p->d.setup;
        one.iterations = 1;
        stex_kernel_instance *ki;
        stex_status st = stex_kernel_instance_create(p->d.kernel, &one, &ki);
        uint32_t n = p->d.setup.iterations ? p->d.setup.iterations : 1;
        for (uint32_t i = 0; !st && i < n; i++) {
            stex_image img = {0};
            if (!(st = stex_kernel_instance_dispatch(ki, o)) &&
                !(st = cli_instance_image(ki, &img)))
                st = fn(user, &img);
            stex_image_free(&img);
        }
        stex_kernel_instance_destroy(ki);
        return st;
    }
    if (!p->d.kernel)
        return execute(p, p->d.json, o, frame_step, &f);
    kernel_run kr;
    stex_status st = kernel_run_make(p->d.kernel, &p->values, true, &kr);
    f.kr = &kr;
    if (!st)
        st = execute(p, kr.json, o, frame_step, &f);
    stex_run_destroy(p->run); /* its names point into kr */
    p->run = NULL;
    kernel_run_free(&kr);
    return st;
}

typedef struct phase_frames {
    cli_program *p;
    cli_phase_frame_fn fn;
    void *user;
    stex_status st;         /* the first failure; later phases are skipped */
} phase_frames;

static void phase_frame(void *user, const uint32_t wg[3], uint32_t phase, bool last)
{
    phase_frames *f = user;
    cli_program *p = f->p;
    if (f->st)
        return;
    stex_image img = {0};
    if (p->ki)
        f->st = cli_instance_image(p->ki, &img);
    else if (p->d.kernel)
        f->st = kernel_image(p, p->run, &p->kr.output[p->kr.iterations - 1], &img);
    else
        f->st = stex_run_output_image(p->run, 0, &img);
    if (!f->st)
        f->st = f->fn(f->user, &img, wg, phase, last);
    stex_image_free(&img);
}

stex_status cli_program_run_phase_frames(cli_program *p, const stex_dispatch_options *o,
                                         cli_phase_frame_fn fn, void *user)
{
    phase_frames f = {p, fn, user, STEX_OK};
    stex_dispatch_options one = *o;
    one.threads = 1; /* nothing else runs while a frame is read */
    one.after_phase = phase_frame;
    one.after_phase_user = &f;
    stex_status st = cli_program_run(p, &one);
    return st ? st : f.st;
}

bool cli_program_output_is_texture(const cli_program *p)
{
    if (p->ki)
        return stex_kernel_instance_output_texture(p->ki) != NULL;
    if (!p->d.kernel) { /* a run file: its first "outputs" entry */
        bool is_buffer = false;
        return !p->run || !stex_run_output_resource(p->run, 0, &is_buffer) || !is_buffer;
    }
    return p->kr.output[p->kr.iterations - 1].texture;
}

bool cli_program_race_on_output(const cli_program *p, const stex_race *rr)
{
    if (p->ki || !p->run)
        return true;
    bool want_buffer = false, is_buffer = false;
    const char *want;
    if (p->d.kernel) {
        const kernel_output *o = &p->kr.output[p->kr.iterations - 1];
        want_buffer = o->texture == NULL;
        want = want_buffer ? o->buffer : o->texture;
    } else {
        want = stex_run_output_resource(p->run, 0, &want_buffer);
    }
    const char *at = stex_run_bound_resource(p->run, rr->dispatch, rr->binding, &is_buffer);
    return want && at && want_buffer == is_buffer && !strcmp(want, at);
}

bool cli_program_is_output(const cli_program *p, const stex_texture *t)
{
    if (p->ki)
        return t == stex_kernel_instance_output_texture(p->ki);
    const char *label = stex_texture_get_desc(t)->label;
    const char *name = p->d.kernel ? p->kr.output[p->kr.iterations - 1].texture : NULL;
    return label && name && !strcmp(label, name);
}

const uint8_t *cli_program_input(const cli_program *p)
{
    return p->ki ? p->ki->input : p->input;
}

uint32_t cli_program_width(const cli_program *p)
{
    return p->ki ? stex_kernel_instance_width(p->ki) : p->values.width;
}

uint32_t cli_program_height(const cli_program *p)
{
    return p->ki ? stex_kernel_instance_height(p->ki) : p->values.height;
}

const char *cli_program_run_file(const cli_program *p)
{
    return p->d.kernel && !p->ki ? p->kr.json : NULL;
}

uint64_t cli_program_dispatches(const cli_program *p)
{
    return p->ki ? 0 : stex_run_dispatch_count(p->run);
}

double cli_program_steps_ms(const cli_program *p) { return p->steps_ms; }
const double *cli_program_step_times(const cli_program *p, size_t *n)
{
    *n = p->nstep_ms;
    return p->step_ms;
}
