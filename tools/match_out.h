/* Arbiter — MIT licence, see LICENSE.
 *
 * match_out.h: what `arbiter match` prints about a match — the per-game lines and the results
 * blocks — in three formats: Arbiter's own (the model named on every line, one-sided bounds in
 * degenerate cases), and fastchess's two output modes (`-output format=fastchess`, its default,
 * and `format=cutechess`), byte for byte, so that scripts written for fastchess parse ours.
 * Pure formatting over counts; the caller owns every string and the FILE.
 */
#ifndef ARB_TOOLS_MATCH_OUT_H
#define ARB_TOOLS_MATCH_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "stats.h"

typedef enum match_format {
  MATCH_OUT_ARBITER,
  MATCH_OUT_FASTCHESS,
  MATCH_OUT_CUTECHESS
} match_format;

/* "arbiter", "fastchess", "cutechess": 0, or -1 for another name. */
int match_format_parse(const char *name, match_format *out);

/* One engine's score against one opponent (or the field): wins, draws, losses, and game pairs
 * in stats.h's cells. */
typedef struct match_tally {
  uint64_t w, d, l;
  uint64_t penta[STATS_PENTA];
} match_tally;

typedef struct match_sprt {
  int on;
  double elo0, elo1, alpha, beta;
  stats_model model;
} match_sprt;

/* The head-to-head block of two engines.  tc, threads, hash and book fill fastchess's bracket
 * ("1000 nodes", "1t", "16MB", "open.epd"; book "" when there is none); Arbiter's format uses
 * tc only.  penta: report the pentanomial figures (fastchess's -report penta=true). */
typedef struct match_h2h {
  const char *first, *second;
  const char *tc, *threads, *hash, *book;
  match_tally t;
  int penta;
} match_h2h;
void match_print_h2h(FILE *out, match_format f, const match_h2h *h, const match_sprt *s);

/* The ranking table of three or more engines, each against the field (fastchess's layout in
 * its formats; Arbiter's prints the same table with the model named).  rows are sorted here. */
typedef struct match_row {
  const char *name;
  match_tally t;
} match_row;
void match_print_table(FILE *out, match_format f, match_row *rows, int n, int penta);

/* cutechess's running score line: `Score of A vs B: W - L - D  [0.500] N`. */
void match_print_score(FILE *out, const char *first, const char *second, const match_tally *t);

/* The SPRT decision for t: 1 H1 accepted, -1 H0 accepted, 0 go on. */
int match_sprt_decision(const match_sprt *s, const match_tally *t, int penta);

/* fastchess's number formatting of a time in milliseconds as seconds ("{}" of a double: the
 * shortest text that reads back the same): 10000 -> "10", 100 -> "0.1". */
void match_seconds(int64_t ms, char *buf, size_t len);

#endif
