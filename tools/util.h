/* Arbiter — MIT licence, see LICENSE.
 *
 * util.h: helpers shared by the arbiter subcommands (public headers only below this).
 */
#ifndef ARB_TOOLS_UTIL_H
#define ARB_TOOLS_UTIL_H

#include <stdio.h>

#include "arbiter/arbiter.h"

/* Subcommand entry points: return the process exit status (0 ok, 1 finding, 2 bad usage). */
int arb_cmd_perft(int argc, char **argv);
int arb_cmd_query(int argc, char **argv);
int arb_cmd_referee(int argc, char **argv);
int arb_cmd_dead(int argc, char **argv);

/* Reads one line of at most max bytes (without the newline) into a growing buffer; longer
 * lines are consumed to their end and *too_long is set.  Returns the length, -1 at EOF. */
long arb_tool_read_line(FILE *in, char **buf, size_t *cap, size_t max, int *too_long);

/* Monotonic time in seconds, for timing output. */
double arb_tool_now(void);

#endif
