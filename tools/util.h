/* Arbiter — MIT licence, see LICENSE.
 *
 * util.h: helpers shared by the arbiter subcommands (public headers only below this).
 */
#ifndef ARB_TOOLS_UTIL_H
#define ARB_TOOLS_UTIL_H

#include <stdint.h>
#include <stdio.h>

#include "arbiter/arbiter.h"

/* Subcommand entry points: return the process exit status (0 ok, 1 finding, 2 bad usage). */
int arb_cmd_perft(int argc, char **argv);
int arb_cmd_query(int argc, char **argv);
int arb_cmd_referee(int argc, char **argv);
int arb_cmd_dead(int argc, char **argv);
int arb_cmd_pgn(int argc, char **argv);
int arb_cmd_match(int argc, char **argv); /* match_cmd.c */
int arb_cmd_play(int argc, char **argv);  /* play_cmd.c */
int arb_cmd_readjudicate(int argc, char **argv);
int arb_cmd_stats(int argc, char **argv);
int arb_cmd_serve(int argc, char **argv);   /* server/serve_cmd.c */
int arb_cmd_book(int argc, char **argv);    /* book_cmd.c */
int arb_cmd_svg(int argc, char **argv);     /* svg_cmd.c */
int arb_cmd_solve(int argc, char **argv);   /* solve_cmd.c */
int arb_cmd_puzzles(int argc, char **argv); /* puzzles_cmd.c */
int arb_cmd_quiz(int argc, char **argv);    /* quiz_cmd.c */
int arb_cmd_endgame(int argc, char **argv); /* endgame_cmd.c */
int arb_cmd_train(int argc, char **argv);   /* train_cmd.c */

/* What arb_tool_setup found wrong: the status, which move (0-based, -1 for the FEN) and why. */
typedef struct arb_tool_setup_error {
  arb_status status;
  int move_index;
  char message[256];
} arb_tool_setup_error;

/* A position from a FEN (NULL or "startpos": the initial position; every non-fatal problem
 * accepted) and moves played from it (SAN or UCI, separated by blanks or commas; NULL for none).
 * *last is the last move played (ARB_MOVE_NONE without moves) and *before the position it was
 * played in (either may be NULL).  Returns ARB_OK or the first error, described in *err. */
arb_status arb_tool_setup(const char *fen, size_t fen_len, const char *moves, size_t moves_len,
                          arb_position *pos, arb_position *before, arb_move *last,
                          arb_tool_setup_error *err);

/* Reads a whole PGN stream through a reader made with opts and v, then finishes and frees it.
 * ARB_OK, ARB_ERR_NO_MEMORY without a reader, or the reader's first error. */
arb_status arb_tool_pgn_read(FILE *in, const arb_pgn_options *opts, const arb_pgn_visitor *v);

/* Reads one line of at most max bytes (without the newline) into a growing buffer; longer
 * lines are consumed to their end and *too_long is set.  Returns the length, -1 at EOF. */
long arb_tool_read_line(FILE *in, char **buf, size_t *cap, size_t max, int *too_long);

/* One answer per request line: called with the line (without its newline), its length, its
 * 1-based number and whether it was longer than the limit (then only its first max bytes are
 * given).  Returns a malloc'd answer without a newline, or NULL when memory ran out. */
typedef char *(*arb_line_answer)(void *ctx, const char *line, size_t len, long lineno,
                                 int too_long);

/* The loop shared by the JSON-lines commands (query, referee, dead): reads stdin line by line,
 * skips blank lines (and lines starting with '#' when skip_comments), writes each answer and a
 * newline to stdout and flushes, so a client may wait for each answer before sending more.  A
 * NULL answer is replaced by an out-of-memory error object; an empty one ("") writes nothing,
 * not even the newline.  Returns 0. */
int arb_tool_answer_lines(size_t max_line, int skip_comments, arb_line_answer answer, void *ctx);
/* The same loop over any stream (a file named on the command line). */
int arb_tool_answer_stream(FILE *in, size_t max_line, int skip_comments, arb_line_answer answer,
                           void *ctx);

/* A data file of the trainer ("puzzles/starter.csv") when no flag names it: in a source tree
 * (data/...), else installed beside the program (PREFIX/share/arbiter/...), else where the
 * build was configured for; into buf, NULL when none exists. */
const char *arb_tool_data_file(const char *rel, char *buf, size_t size);

/* mkdir -p of a folder's path (0700 for new ones): 0, or -1 (errno says why). */
int arb_tool_make_dirs(const char *path);

/* Monotonic time in seconds, for timing output. */
double arb_tool_now(void);
/* The same in whole milliseconds (engine timing, real-time clocks). */
int64_t arb_tool_now_ms(void);

#endif
