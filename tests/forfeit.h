/* Arbiter — MIT licence, see LICENSE.
 *
 * forfeit.h: the final position of every game of a PGN file that ended on time
 * ([Termination "Time forfeit"]), for the winnability benchmark (bench/dead.c) and tests
 * (tests/test_dead.c): "could the side with time still mate?" is asked of those.
 */
#ifndef ARB_TESTS_FORFEIT_H
#define ARB_TESTS_FORFEIT_H

#include <stdio.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "arbiter/pgn.h"

typedef void (*forfeit_fn)(void *ctx, const arb_position *final_position);

typedef struct forfeit_reader {
  forfeit_fn fn;
  void *ctx;
  int on_time; /* the current game's Termination tag says time forfeit */
} forfeit_reader;

static inline int forfeit_tag(void *ctx, const char *name, size_t nl, const char *value,
                              size_t vl) {
  (void)nl;
  (void)vl;
  if (!strcmp(name, "Termination") && !strcmp(value, "Time forfeit"))
    ((forfeit_reader *)ctx)->on_time = 1;
  return 0;
}

static inline int forfeit_begin(void *ctx, uint64_t game, uint64_t line) {
  (void)game;
  (void)line;
  ((forfeit_reader *)ctx)->on_time = 0;
  return 0;
}

static inline void forfeit_end(void *ctx, const arb_pgn_game_end *end) {
  forfeit_reader *r = ctx;
  if (r->on_time && end->final_position && !end->skipped) r->fn(r->ctx, end->final_position);
}

/* Calls fn(ctx, position) for each such game of the file; 0 when the file cannot be read. */
static inline int forfeit_positions(const char *path, forfeit_fn fn, void *ctx) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  forfeit_reader fr = {fn, ctx, 0};
  arb_pgn_visitor v = {0};
  v.ctx = &fr;
  v.begin_game = forfeit_begin;
  v.tag = forfeit_tag;
  v.end_game = forfeit_end;
  arb_pgn_options o = {0};
  o.flags = ARB_PGN_NO_VARIATIONS | ARB_PGN_NO_RESULT_CHECK;
  arb_pgn_reader *r = arb_pgn_reader_new(&o, &v);
  if (!r) {
    fclose(f);
    return 0;
  }
  char buf[1 << 14];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, f)) > 0)
    arb_pgn_reader_feed(r, buf, got);
  arb_pgn_reader_finish(r);
  arb_pgn_reader_free(r);
  fclose(f);
  return 1;
}

#endif
