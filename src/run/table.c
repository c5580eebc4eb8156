/* Named objects of one kind (textures, buffers, ...), in declaration order. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "run/run_internal.h"

stex_status run_table_add(run_table *t, const char *name, void *item)
{
    const char **names = realloc(t->names, (t->n + 1) * sizeof *names);
    if (names)
        t->names = names;
    void **items = names ? realloc(t->items, (t->n + 1) * sizeof *items) : NULL;
    if (!items)
        return stex_fail(STEX_OUT_OF_MEMORY, "run: out of memory for '%s'", name);
    t->items = items;
    t->names[t->n] = name;
    t->items[t->n++] = item;
    return STEX_OK;
}

void *run_table_find(const run_table *t, const char *name)
{
    for (size_t i = 0; name && i < t->n; i++)
        if (!strcmp(t->names[i], name))
            return t->items[i];
    return NULL;
}

void run_table_free(run_table *t)
{
    free(t->names);
    free(t->items);
    memset(t, 0, sizeof *t);
}

stex_status run_get_ref(const stex_run *r, const json_t *obj, const char *path, const char *key,
                        const run_table *t, const char *what, void **out)
{
    const char *name = NULL;
    stex_status st = run_get_string(r, obj, path, key, true, &name);
    if (st)
        return st;
    char p[RUN_PATH_MAX];
    run_path_key(p, path, key);
    if (!(*out = run_table_find(t, name)))
        return run_fail(r, STEX_FILE_FORMAT_ERROR, p, "%s '%s' is not declared", what, name);
    return STEX_OK;
}
