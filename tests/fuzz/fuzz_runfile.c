/* A fuzz target over run files (stex/run.h): any bytes as a run file's
 * JSON, parsed, then - when what it asks for is small - executed on a
 * device with its requiredFeatures, and every "outputs" entry read back as
 * an image.  Built with libFuzzer (tools/fuzz.sh runfile) and as a plain
 * program replaying tests/fuzz/corpus_runfile (the `fuzz_runfile_corpus`
 * test, under ASan/UBSan in CI).
 *
 * The input: the JSON text, then optionally a NUL byte and the files it
 * names, separated by FILE_SEP.  The read hook hands the i-th file read the
 * i-th of them (cycling; none given: "no such file"), so nothing is read
 * from disk; the run's folder is one that does not exist, and outputs are
 * never written (stex_run_write_outputs is not called).
 *
 * What must hold besides "no crash, leak or sanitizer report": a refused
 * run file's message names the run file ("fuzz.json: ..."), and a status is
 * one of stex's. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stex/stex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FILE_SEP "\n--file--\n"
enum {
    MAX_INPUT = 1 << 16,
    MAX_FILES = 8,
    MAX_EXTENT = 1 << 16,     /* texels of a texture, bytes of a buffer, a copy's size */
    MAX_WORKGROUPS = 16,      /* dispatched workgroups, all steps and repeats together */
    MAX_REPEAT = 16,
    MAX_STEPS = 2000          /* instructions of one sub-group per workgroup */
};

typedef struct files {
    const uint8_t *data[MAX_FILES];
    size_t size[MAX_FILES];
    int count, next;
} files;

static stex_status read_hook(void *user, const char *path, uint8_t **bytes, size_t *size)
{
    files *f = user;
    (void)path;
    stex_clear_error(); /* the run layer puts the file's JSON path before it */
    if (f->count == 0)
        return STEX_IO_ERROR; /* the fuzz input holds no files */
    int i = f->next++ % f->count;
    *bytes = malloc(f->size[i] ? f->size[i] : 1);
    if (!*bytes)
        return STEX_OUT_OF_MEMORY;
    memcpy(*bytes, f->data[i], f->size[i]);
    *size = f->size[i];
    return STEX_OK;
}

/* The product of the numbers in v (a number, or a list/object of them). */
static double product(const json_t *v)
{
    if (json_is_number(v))
        return json_number_value(v) < 1 ? 1 : json_number_value(v);
    double p = 1;
    size_t i;
    const char *k;
    const json_t *e;
    if (json_is_array(v))
        json_array_foreach(v, i, e) p *= product(e);
    else if (json_is_object(v))
        json_object_foreach((json_t *)v, k, e) p *= product(e);
    return p;
}

/* Whether running v would take more than a fuzz input should: big
 * resources or copies, many workgroups.  Such inputs are parsed only. */
static bool costly(const json_t *v, double *workgroups)
{
    const char *k;
    const json_t *e;
    size_t i;
    if (json_is_array(v)) {
        json_array_foreach(v, i, e) if (costly(e, workgroups)) return true;
        return false;
    }
    if (!json_is_object(v))
        return false;
    const json_t *d = json_object_get(v, "dispatchWorkgroups");
    if (json_is_object(d)) {
        const json_t *rep = json_object_get(d, "repeat");
        double r = json_is_number(rep) ? json_number_value(rep) : 1;
        if (r > MAX_REPEAT)
            return true;
        *workgroups += product(json_object_get(d, "workgroupCount")) * (r < 1 ? 1 : r);
        if (*workgroups > MAX_WORKGROUPS)
            return true;
    }
    json_object_foreach((json_t *)v, k, e) {
        if ((!strcmp(k, "size") || !strcmp(k, "copySize") || !strcmp(k, "workgroupCount")) &&
            product(e) > MAX_EXTENT)
            return true;
        if (costly(e, workgroups))
            return true;
    }
    return false;
}

static bool worth_running(const char *json)
{
    json_t *root = json_loads(json, 0, NULL);
    double workgroups = 0;
    bool ok = root && !costly(root, &workgroups);
    json_decref(root);
    return ok;
}

static void check_refusal(stex_status st)
{
    if (st <= STEX_OK || st >= STEX_STATUS_COUNT) {
        fprintf(stderr, "fuzz_runfile: status %d is not a refusal\n", (int)st);
        abort();
    }
}

static void check_message(stex_status st)
{
    check_refusal(st);
    if (getenv("FUZZ_VERBOSE")) /* what each input came to, for seeding */
        fprintf(stderr, "%s\n", stex_last_error());
    if (strncmp(stex_last_error(), "fuzz.json: ", 11) != 0) {
        fprintf(stderr, "fuzz_runfile: a refusal that does not name the run file: %s\n",
                stex_last_error());
        abort();
    }
}

static void run(stex_run *r, uint32_t hash)
{
    static const stex_profile_id profiles[] = {STEX_PROFILE_SPEC, STEX_PROFILE_LAVAPIPE,
                                               STEX_PROFILE_NVIDIA};
    stex_adapter_desc desc = stex_adapter_desc_for_profile(profiles[hash % 3]);
    stex_adapter *a = NULL;
    stex_device *dev = NULL;
    stex_race_detector *rd = NULL;
    stex_cancel *cancel = NULL;
    if (stex_adapter_create(&desc, &a))
        abort();
    stex_status st = stex_run_request_device(r, a, &dev);
    if (st) {
        check_message(st);
    } else {
        if ((hash >> 2) & 1)
            stex_race_detector_create(NULL, &rd);
        /* one input in 16 stopped before it starts (Ctrl-C, a lost device) */
        if ((hash >> 5) % 16 == 0)
            cancel = stex_cancel_create();
        if (cancel)
            stex_cancel_request(cancel, STEX_CANCEL_INTERRUPTED);
        stex_dispatch_options o = {.schedule = (stex_schedule)((hash >> 3) % 3), .seed = hash,
                                   .threads = 1, .races = rd, .cancel = cancel};
        if ((st = stex_run_execute(r, dev, &o)))
            check_message(st);
        else if (getenv("FUZZ_VERBOSE"))
            fprintf(stderr, "ran: %llu dispatches\n", (unsigned long long)stex_run_dispatch_count(r));
        if (!st)
            for (size_t i = 0; i < stex_run_output_entry_count(r); i++) {
                stex_image img = {0};
                if ((st = stex_run_output_image(r, i, &img)))
                    check_refusal(st);
                stex_image_free(&img);
            }
    }
    stex_run_destroy(r);
    stex_cancel_destroy(cancel);
    stex_race_detector_destroy(rd);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_INPUT)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    files f = {.count = 0};
    size_t json_len = strlen(text);
    if (json_len < size) { /* the files after the NUL */
        const char *p = text + json_len + 1, *end = text + size;
        while (f.count < MAX_FILES) {
            const char *sep = memmem(p, (size_t)(end - p), FILE_SEP, strlen(FILE_SEP));
            f.data[f.count] = (const uint8_t *)p;
            f.size[f.count++] = (size_t)((sep ? sep : end) - p);
            if (!sep)
                break;
            p = sep + strlen(FILE_SEP);
        }
    }
    uint32_t hash = 2166136261u; /* FNV-1a: the device's profile and schedule */
    for (size_t i = 0; i < size; i++)
        hash = (hash ^ data[i]) * 16777619u;
    stex_run_options opt = {.read_file = read_hook, .read_file_user = &f,
                            .subgroup_width = 1u << (hash % 4) * 2, .max_steps = MAX_STEPS,
                            /* now and then a budget its resources may well pass */
                            .max_memory = hash % 8 == 0 ? 4096 : 16u << 20};
    stex_run *r = NULL;
    stex_status st = stex_run_parse(text, "fuzz.json", "/nonexistent-stex-fuzz", &opt, &r);
    if (st) {
        check_message(st);
        if (r)
            abort(); /* *out is NULL on failure */
    } else if (worth_running(text)) {
        run(r, hash);
    } else {
        if (getenv("FUZZ_VERBOSE"))
            fputs("parsed only: too costly to run\n", stderr);
        stex_run_destroy(r);
    }
    free(text);
    return 0;
}
