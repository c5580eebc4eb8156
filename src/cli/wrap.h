/* Terminal output within its width (at most 80 columns): stdout and
 * stderr, when they are terminals, break long lines at a space (wrap.c). */
#ifndef STEX_CLI_WRAP_H
#define STEX_CLI_WRAP_H

/* Puts the wrapping stream in front of stdout and stderr where they are
 * terminals; pipes and files are left as they are.  Call once, first. */
void cli_wrap_terminals(void);

#endif
