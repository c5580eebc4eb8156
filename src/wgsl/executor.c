/* The executor a pipeline runs on, and the library's notices. */
#include "wgsl/executor.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgsl/jit.h"

static pthread_mutex_t notice_lock = PTHREAD_MUTEX_INITIALIZER;
static stex_wgsl_notice_fn notice_fn;
static void *notice_user;
/* the texts said so far: few and short (one per construct) */
static char **said;
static size_t nsaid;
static wg_executor_counts counts; /* under notice_lock */

void wg_executor_get_counts(wg_executor_counts *out)
{
    pthread_mutex_lock(&notice_lock);
    *out = counts;
    pthread_mutex_unlock(&notice_lock);
}

static void count(uint64_t *field, uint64_t by)
{
    pthread_mutex_lock(&notice_lock);
    *field += by;
    pthread_mutex_unlock(&notice_lock);
}

void stex_wgsl_set_notice(stex_wgsl_notice_fn fn, void *user)
{
    pthread_mutex_lock(&notice_lock);
    notice_fn = fn;
    notice_user = user;
    pthread_mutex_unlock(&notice_lock);
}

void wg_notice_once(const char *fmt, ...)
{
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&notice_lock);
    bool seen = false;
    for (size_t k = 0; k < nsaid && !seen; k++)
        seen = !strcmp(said[k], text);
    if (!seen && notice_fn) {
        char **grown = realloc(said, (nsaid + 1) * sizeof *said);
        if (grown) {
            said = grown;
            if ((said[nsaid] = strdup(text)))
                nsaid++;
        }
        notice_fn(notice_user, text);
    }
    pthread_mutex_unlock(&notice_lock);
}

bool stex_wgsl_jit_available(void)
{
#ifdef STEX_HAVE_JIT
    return true;
#else
    return false;
#endif
}

void wg_executor_setup(wg_exec_program *xp, const stex_profile *prof,
                       stex_wgsl_executor executor)
{
    /* STEX_WGSL_EXECUTOR=jit: every pipeline asks for the JIT - how a test
     * suite written for the interpreter runs under the JIT unchanged */
    const char *env = getenv("STEX_WGSL_EXECUTOR");
    if (env && !strcmp(env, "jit"))
        executor = STEX_WGSL_EXECUTOR_JIT;
    if (executor != STEX_WGSL_EXECUTOR_JIT)
        return;
    if (xp->allowed) {
        count(&counts.fallback, 1);
        wg_notice_once("executor jit: allowed mode runs on its own executor (sets of values), "
                       "not the JIT");
        return;
    }
#ifdef STEX_HAVE_JIT
    char why[300] = "";
    wg_jit_stats st;
    wg_jit_code *c = wg_jit_get(xp, prof, &st, why, sizeof why);
    if (!c) {
        count(&counts.fallback, 1);
        wg_notice_once("executor jit: %s; the pipeline runs on the interpreter", why);
        return;
    }
    count(&counts.jit, 1);
    count(&counts.native, st.native);
    count(&counts.stepped, st.stepped);
    pthread_mutex_lock(&notice_lock);
    counts.compiled += !st.cached;
    counts.compile_ms += st.compile_ms;
    pthread_mutex_unlock(&notice_lock);
    xp->jit = c;
    xp->jit_fn = wg_jit_entry(c);
    xp->jit_prof = prof;
#else
    (void)prof;
    count(&counts.fallback, 1);
    wg_notice_once("executor jit: this build has no JIT (LLVM was not found when it was "
                   "built); the interpreter runs every pipeline");
#endif
}

void wg_executor_release(wg_exec_program *xp)
{
#ifdef STEX_HAVE_JIT
    wg_jit_put(xp->jit);
#endif
    xp->jit = NULL;
    xp->jit_fn = NULL;
}
