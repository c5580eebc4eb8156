/* Stopping a command's work: the process's cancel flag (stex/cancel.h),
 * raised by SIGINT or SIGTERM or by the deadline of --timeout, and checked
 * by every dispatch the command makes.  Outputs are written only after the
 * work succeeded, through the all-or-nothing writers, so a stopped command
 * leaves every output file as it was. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "stex/cancel.h"

static stex_cancel *flag;
static volatile sig_atomic_t signal_seen; /* the first signal's number */
static double timeout_s;

stex_cancel *cli_cancel(void)
{
    if (!flag && !(flag = stex_cancel_create())) {
        fputs("stex: out of memory\n", stderr);
        exit(CLI_USAGE);
    }
    return flag;
}

/* The first SIGINT or SIGTERM asks the work to stop (a store to an atomic,
 * safe here); the handler is then reset (SA_RESETHAND), so a second one
 * ends the process at once, as it would without stex's handler. */
static void on_signal(int sig)
{
    if (!signal_seen)
        signal_seen = sig;
    stex_cancel_request(flag, STEX_CANCEL_INTERRUPTED);
}

void cli_cancel_install(void)
{
    cli_cancel();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

bool cli_parse_timeout(const char *cmd, const char *value, void *field)
{
    (void)field; /* the deadline is the process's, not one command's field */
    char *end;
    double s = strtod(value, &end);
    if (!*value || *end || !(s > 0) || s > 1e9) /* also NaN */
        return cli_usage(cmd, "--timeout %s: not a number of seconds in (0, 1e9]", value), false;
    timeout_s = s;
    stex_cancel_set_timeout(cli_cancel(), s);
    return true;
}

int cli_cancel_exit(int rc)
{
    switch (stex_cancel_reason_of(flag)) {
    case STEX_CANCEL_NONE:
        return rc;
    case STEX_CANCEL_TIMEOUT:
        fprintf(stderr, "stex: timeout: the work ran longer than --timeout %g s and was "
                "stopped\n", timeout_s);
        return CLI_TIMEOUT;
    case STEX_CANCEL_INTERRUPTED:
        break;
    }
    fprintf(stderr, "stex: interrupted (%s)\n",
            signal_seen == SIGTERM ? "SIGTERM" : "SIGINT");
    return signal_seen == SIGTERM ? CLI_TERMINATED : CLI_INTERRUPTED;
}
