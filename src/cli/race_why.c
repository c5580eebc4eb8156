/* stex race: why races found gave no second output (race_why.h).  The
 * cases follow what each schedule varies: the shuffled one only the order of
 * workgroups, the interleaved one also the lock-step groups and turns inside
 * a workgroup (docs/engine.md, "Schedules"). */
#include "cli/race_why.h"

#include <stdarg.h>
#include <stdio.h>

#include "stex/wgsl.h"

static size_t add(char *buf, size_t size, size_t at, const char *fmt, ...)
{
    if (at >= size)
        return at;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + at, size - at, fmt, ap);
    va_end(ap);
    return n < 0 ? at : at + (size_t)n;
}

size_t cli_race_why(const cli_race_why_facts *f, char *buf, size_t size)
{
    size_t at = 0;
    if (size)
        buf[0] = '\0';
    if (!f->races || f->distinct > 1)
        return 0;
    uint32_t width = f->width ? f->width : STEX_WGSL_SUBGROUP_WIDTH_DEFAULT;
    bool inside = f->reported && f->same_workgroup == f->reported;
    if (f->runs < 2)
        return add(buf, size, at, "why one output: one run, nothing to compare with; "
                                  "--runs 2 or more compares\nschedules.\n");
    at = add(buf, size, at, "why one output: ");
    if (inside && f->c)
        return add(buf, size, at,
                   "every racing pair is inside one workgroup; the C version\n"
                   "runs a workgroup's invocations one after another between "
                   "barriers, and no\norder it was given changed a value. "
                   "--executor wgsl (the default) with\n--schedule interleaved "
                   "(the default) interleaves them.\n");
    if (inside && f->schedule != STEX_SCHEDULE_INTERLEAVED)
        return add(buf, size, at,
                   "every racing pair is inside one workgroup, and the\n"
                   "%s schedule varies only the order of workgroups; inside one "
                   "the\ninterpreter runs lock-step groups of %u invocations, each "
                   "instruction for\nall of them in program order, the same way "
                   "in every run. --schedule\ninterleaved (the default) varies "
                   "the order inside workgroups and shows them.\n",
                   stex_schedule_name(f->schedule), width);
    if (inside)
        return add(buf, size, at,
                   "every racing pair is inside one workgroup, and the\n"
                   "interleaved schedule varied the order of its invocations "
                   "(lock-step groups\nof 1 to %u taking turns), yet every run "
                   "gave the same output: the racing\naccesses may store equal "
                   "values, or what they read may not reach the output.\n"
                   "A shader with subgroup operations keeps its sub-groups of %u "
                   "whole:\n--subgroup-size 1 runs every invocation alone.\n",
                   width, width);
    return add(buf, size, at,
               "the %s schedule ran the workgroups in %u orders, yet\n"
               "every run gave the same output: the racing accesses may store "
               "equal values,\nor what they read may not reach the output. "
               "Still a race: nothing orders\nthe workgroups of a dispatch. "
               "More --runs, --threads 2 or --visibility\nsnapshot may show "
               "them.\n", stex_schedule_name(f->schedule), f->runs);
}
