/* Output on a terminal fits 80 columns (issue 26): stdout and stderr, when
 * they are terminals, break a long line at a space and indent the rest;
 * into a pipe each line stays whole.  The words are the same either way:
 * the expectation is the piped text itself, joined again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cli_exec.h"

/* text with every run of whitespace (spaces, \r, \n) as one space, and
 * every digit as '#' (a run's time differs from one run to the next) */
static char *words(const char *text)
{
    char *out = malloc(strlen(text) + 1), *o = out;
    bool space = true;
    for (const char *p = text; *p; p++) {
        bool ws = *p == ' ' || *p == '\n' || *p == '\r';
        if (ws && !space)
            *o++ = ' ';
        else if (!ws)
            *o++ = *p >= '0' && *p <= '9' ? '#' : *p;
        space = ws;
    }
    while (o > out && o[-1] == ' ')
        o--;
    *o = '\0';
    return out;
}

/* The widest line on the screen: \r and \n start a line, a terminal control
 * (ESC [ ... letter, the progress line's "erase") takes no column. */
static void longest_line(const char *text, size_t *longest)
{
    size_t col = 0;
    *longest = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '\r' || *p == '\n') {
            col = 0;
        } else if (*p == '\033' && p[1] == '[') {
            p += 2;
            while (*p && !((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
                p++;
            if (!*p)
                break;
        } else if (((unsigned char)*p & 0xc0) != 0x80 && ++col > *longest) {
            *longest = col;
        }
    }
}

/* A command whose lines run past 80 columns into a pipe: on a terminal
 * every line fits, and the words are the pipe's. */
static void check(const char *const *args, const char *piped_cmd, int want)
{
    cli_result r = run_stex("%s", piped_cmd);
    assert_int_equal(r.code, want);
    size_t longest;
    char *both = malloc(strlen(r.out) + strlen(r.err) + 2);
    sprintf(both, "%s %s", r.err, r.out); /* no order between two pipes */
    longest_line(both, &longest);
    if (longest <= 80)
        fail_msg("stex %s: no line past 80 columns into a pipe (%zu): the test shows nothing",
                 piped_cmd, longest);
    int code;
    char *tty = cli_on_terminal(args, NULL, NULL, &code);
    assert_non_null(tty);
    assert_int_equal(code, want);
    longest_line(tty, &longest);
    if (longest > 80)
        fail_msg("stex %s on a terminal: a line of %zu columns:\n%s", piped_cmd, longest, tty);
    char *a = words(tty), *b1 = words(both);
    /* stderr and stdout share the terminal (with a progress line there):
     * each piped stream's words appear on it, in order */
    char *o = words(r.out), *e = words(r.err);
    if (!strstr(a, o) || !strstr(a, e))
        fail_msg("stex %s: the terminal's words differ:\n%s\n--- piped:\n%s\n%s", piped_cmd, a, o, e);
    free(a), free(b1), free(o), free(e), free(tty), free(both);
    cli_free(&r);
}

static void test_long_lines_wrapped(void **state)
{
    (void)state;
    const char *validate[] = {"validate", "--format", "rgba8unorm", "--access", "read-write", NULL};
    check(validate, "validate --format rgba8unorm --access read-write", 1);
    const char *run[] = {"run", "decaer", "--size", "16x16", "--threads", "1", NULL};
    check(run, "run decaer --size 16x16 --threads 1", 0);
    const char *race[] = {"race", "difundir", "--size", "16x16", "--runs", "2", "--threads", "1",
                          NULL};
    check(race, "race difundir --size 16x16 --runs 2 --threads 1", 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_lines_wrapped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
