/* The progress line (progress.h).  A thread of its own draws it, so that a
 * single dispatch that runs for seconds still shows the time going on; the
 * run only counts its dispatches into two atomics. */
#include "cli/progress.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct cli_progress {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool stop, drawn;
    double delay;                 /* seconds before the first line */
    struct timespec t0;
    _Atomic uint64_t done, total;
};

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void *draw(void *arg)
{
    cli_progress *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        /* four lines a second, the first as soon as the delay is over */
        until.tv_nsec += p->drawn || p->delay >= 0.25 ? 250000000L : (long)(p->delay * 1e9) + 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000;
        until.tv_nsec %= 1000000000;
        pthread_cond_timedwait(&p->wake, &p->lock, &until);
        double s = since(&p->t0);
        if (p->stop || s < p->delay)
            continue;
        uint64_t total = atomic_load(&p->total);
        /* the dispatch running now: one past those done, while any remain */
        uint64_t now = atomic_load(&p->done) + 1;
        if (total && now > total)
            now = total;
        if (total)
            fprintf(stderr, "\r\033[Kstex run: dispatch %llu/%llu, %.1f s", (unsigned long long)now,
                    (unsigned long long)total, s);
        else
            fprintf(stderr, "\r\033[Kstex run: running, %.1f s", s);
        fflush(stderr);
        p->drawn = true;
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* The line being drawn: one run at a time in a process. */
static cli_progress *active;

cli_progress *cli_progress_start(bool show)
{
    if (!show || !isatty(STDERR_FILENO) || active)
        return NULL;
    cli_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    const char *d = getenv("STEX_PROGRESS_DELAY");
    char *end;
    p->delay = d && *d ? strtod(d, &end) : 2.0;
    if (d && *d && (*end || p->delay < 0))
        p->delay = 2.0;
    clock_gettime(CLOCK_MONOTONIC, &p->t0);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    if (pthread_create(&p->thread, NULL, draw, p)) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
    return active = p;
}

void cli_progress_note(void *user, uint64_t done, uint64_t total)
{
    (void)user;
    cli_progress *p = active;
    if (!p)
        return;
    atomic_store(&p->total, total);
    atomic_store(&p->done, done);
}

void cli_progress_stop(cli_progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    active = NULL;
    if (p->drawn) { /* wipe the line */
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p);
}
