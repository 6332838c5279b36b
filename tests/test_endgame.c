/* Arbiter — MIT licence, see LICENSE.
 *
 * test_endgame.c: the endgame tables (arbiter/endgame.h).  What the expected values rest on,
 * none of them on the tables' own output:
 *   - the longest mates against the published maxima (White to move, moves to mate): KQK 10,
 *     KRK 16, KPK 28, KBNK 33 (Thompson's and Nalimov's tables);
 *   - positions worked out by hand from the Laws (stated beside each);
 *   - the definition of distance to mate, checked on thousands of random positions through the
 *     library's own legal move generator: a win in p plies has a move into a loss in p - 1 and
 *     none quicker, a loss in p has every move into a win and the longest in p - 1, a
 *     checkmate is a loss in 0 and a stalemate a draw — the tables are built from their own
 *     move code, so this checks that code move for move;
 *   - the library's exact solver (arbiter/solve.h), a forward search that shares nothing with
 *     the retrograde analysis: for random wins with DTM <= 3 its shortest mate and its key
 *     moves equal the table's DTM and best moves.
 * The tables against Stockfish are tests/cli/endgame.sh.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"

static arb_endgame *build(const char *material) {
  arb_status st = ARB_ERR_ARGUMENT;
  arb_endgame *eg = arb_endgame_new(material, &st);
  cr_assert_not_null(eg, "%s: %s", material, arb_strerror(st));
  cr_assert_eq(st, ARB_OK);
  cr_assert_str_eq(arb_endgame_material(eg), material);
  return eg;
}

static void probe_fen(const arb_endgame *eg, const char *fen, arb_endgame_result *r) {
  arb_position pos;
  cr_assert_eq(arb_fen_read(&pos, fen, 0, NULL), ARB_OK, "%s", fen);
  cr_assert_eq(arb_endgame_probe(eg, &pos, r), ARB_OK, "%s", fen);
}

static int cmp_uci(const void *a, const void *b) { return strcmp(a, b); }

/* The best moves in UCI, sorted, joined by spaces. */
static void best_text(const char *fen, const arb_endgame_result *r, char *out, size_t size) {
  arb_position pos;
  arb_fen_read(&pos, fen, 0, NULL);
  char u[ARB_ENDGAME_MAX_BEST][8];
  for (int i = 0; i < r->nbest; i++)
    arb_uci_write(&pos, r->best[i], u[i], sizeof u[i]);
  qsort(u, (size_t)r->nbest, sizeof u[0], cmp_uci);
  size_t len = 0;
  out[0] = 0;
  for (int i = 0; i < r->nbest && len < size; i++)
    len += (size_t)snprintf(out + len, size - len, "%s%s", i ? " " : "", u[i]);
}

static void check_longest(const char *material, int win, int loss) {
  arb_endgame *eg = build(material);
  arb_endgame_stats s;
  arb_endgame_stats_of(eg, &s);
  cr_assert_eq(s.longest[0], win, "%s: longest win %d", material, s.longest[0]);
  cr_assert_eq(s.longest[1], loss, "%s: longest loss %d", material, s.longest[1]);
  cr_assert_eq(s.losses[0], 0);
  cr_assert_eq(s.wins[1], 0);
  for (int k = 0; k < 2; k++)
    cr_assert_eq(s.positions[k], s.wins[k] + s.draws[k] + s.losses[k]);
  /* the example position is one with that distance */
  arb_endgame_result r;
  probe_fen(eg, s.longest_fen[0], &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_WIN);
  cr_assert_eq(r.dtm, win);
  probe_fen(eg, s.longest_fen[1], &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_LOSS);
  cr_assert_eq(r.dtm, loss);
  arb_endgame_free(eg);
}

/* Published: KQK mate in 10, KRK in 16, KPK 28 (the longest win with White to move). */
Test(endgame, kqk_longest_mate_is_the_published_10) { check_longest("KQK", 10, 10); }
Test(endgame, krk_longest_mate_is_the_published_16) { check_longest("KRK", 16, 16); }
Test(endgame, kpk_longest_mate_is_the_published_28) { check_longest("KPK", 28, 28); }

/* KBNK: 33 (about 3 s in release, 9 s under ASan at -O1) */
Test(endgame, kbnk_longest_mate_is_the_published_33, .timeout = 180) {
  check_longest("KBNK", 33, 33);
}

Test(endgame, known_positions_by_hand) {
  arb_endgame *kqk = build("KQK"), *krk = build("KRK"), *kpk = build("KPK");
  arb_endgame_result r;
  char best[512];
  /* Ka8 against Qb6, Kc6: Qb7 is the only mate (b7 guarded by the king; Qa7+, Qb8+ are taken
   * or let the king out; quiet moves do not check) */
  probe_fen(kqk, "k7/8/1QK5/8/8/8/8/8 w - - 0 1", &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_WIN);
  cr_assert_eq(r.dtm, 1);
  cr_assert_eq(r.plies, 1);
  best_text("k7/8/1QK5/8/8/8/8/8 w - - 0 1", &r, best, sizeof best);
  cr_assert_str_eq(best, "b6b7");
  /* the same with colours swapped: the strong side Black */
  probe_fen(kqk, "8/8/8/8/8/1qk5/8/K7 b - - 0 1", &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_WIN);
  cr_assert_eq(r.dtm, 1);
  best_text("8/8/8/8/8/1qk5/8/K7 b - - 0 1", &r, best, sizeof best);
  cr_assert_str_eq(best, "b3b2");
  /* checkmated: Qb7 guarded by Kc6 */
  probe_fen(kqk, "k7/1Q6/2K5/8/8/8/8/8 b - - 0 1", &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_LOSS);
  cr_assert_eq(r.dtm, 0);
  cr_assert_eq(r.nbest, 0);
  /* stalemate: Ka8, Qb6 covers a7, b7, b8; not in check */
  probe_fen(kqk, "k7/8/1Q6/2K5/8/8/8/8 b - - 0 1", &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_DRAW);
  cr_assert_eq(r.dtm, -1);
  cr_assert_eq(r.nbest, 0);
  /* the queen en prise and unguarded: Kxb7 draws, the only drawing move */
  probe_fen(kqk, "k7/1Q6/8/8/8/8/8/7K b - - 0 1", &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_DRAW);
  best_text("k7/1Q6/8/8/8/8/8/7K b - - 0 1", &r, best, sizeof best);
  cr_assert_str_eq(best, "a8b7");
  /* Ka8, Kb6, Rh1: Rh8 is the only mate (Ra1+ leaves b8) */
  probe_fen(krk, "k7/8/1K6/8/8/8/8/7R w - - 0 1", &r);
  cr_assert_eq(r.dtm, 1);
  best_text("k7/8/1K6/8/8/8/8/7R w - - 0 1", &r, best, sizeof best);
  cr_assert_str_eq(best, "h1h8");
  /* KPK: Ke8 in front of Pe7 with Ke6 behind it, Black to move: stalemate (d7, f7 held by the
   * king, d8, f8 by the pawn) */
  probe_fen(kpk, "4k3/4P3/4K3/8/8/8/8/8 b - - 0 1", &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_DRAW);
  cr_assert_eq(r.nbest, 0);
  /* the rook's pawn with the defending king in the corner in front of it: a draw whatever
   * White's king does (the textbook draw) */
  probe_fen(kpk, "k7/8/8/P7/8/8/8/1K6 w - - 0 1", &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_DRAW);
  probe_fen(kpk, "k7/8/K7/P7/8/8/8/8 w - - 0 1", &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_DRAW);
  /* the attacking king on the sixth rank in front of its (non-rook) pawn wins whoever moves */
  probe_fen(kpk, "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_WIN);
  probe_fen(kpk, "4k3/8/4K3/4P3/8/8/8/8 b - - 0 1", &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_LOSS);
  /* the opposition: Ke5, Pe4 against Ke7 — White to move draws (Black keeps the opposition),
   * Black to move loses (White's king reaches d6, e6 or f6, the key squares) */
  probe_fen(kpk, "8/4k3/8/4K3/4P3/8/8/8 w - - 0 1", &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_DRAW);
  probe_fen(kpk, "8/4k3/8/4K3/4P3/8/8/8 b - - 0 1", &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_LOSS);
  /* the pawn outside the square of the black king: Pa4 runs, Kh4 cannot catch it; a4-a5-a6-a7
   * -a8=Q, then the queen mates */
  probe_fen(kpk, "8/8/8/8/P6k/8/8/K7 w - - 0 1", &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_WIN);
  /* inside the square (Black to move, Ke4-d5 enters it and catches the pawn): a draw */
  probe_fen(kpk, "8/8/8/8/P3k3/8/8/7K b - - 0 1", &r);
  cr_assert_eq(r.wdl, ARB_ENDGAME_DRAW);
  arb_endgame_free(kqk);
  arb_endgame_free(krk);
  arb_endgame_free(kpk);
}

Test(endgame, contract) {
  arb_status st = ARB_OK;
  cr_assert_null(arb_endgame_new("KQQK", &st));
  cr_assert_eq(st, ARB_ERR_ARGUMENT);
  cr_assert_null(arb_endgame_new(NULL, NULL));
  arb_endgame_free(NULL);
  arb_endgame *eg = build("KRK");
  arb_position pos;
  arb_endgame_result r;
  /* another material, castling rights */
  cr_assert_eq(arb_fen_read(&pos, "k7/8/1K6/8/8/8/7Q/8 w - - 0 1", 0, NULL), ARB_OK);
  cr_assert_eq(arb_endgame_probe(eg, &pos, &r), ARB_ERR_ARGUMENT);
  cr_assert_str_eq(arb_endgame_material_of(&pos), "KQK");
  arb_fen_read(&pos, "k7/8/8/8/8/8/8/4K2R w K - 0 1", 0, NULL);
  cr_assert_eq(arb_endgame_probe(eg, &pos, &r), ARB_ERR_ARGUMENT);
  arb_fen_read(&pos, "k7/8/8/8/8/8/8/4K2R w - - 0 1", 0, NULL);
  cr_assert_eq(arb_endgame_probe(eg, &pos, &r), ARB_OK);
  arb_fen_read(&pos, "k7/8/8/8/8/8/8/2B1K1N1 w - - 0 1", 0, NULL);
  cr_assert_str_eq(arb_endgame_material_of(&pos), "KBNK");
  arb_fen_read(&pos, "k7/p7/8/8/8/8/8/4K3 b - - 0 1", 0, NULL);
  cr_assert_str_eq(arb_endgame_material_of(&pos), "KPK");
  arb_fen_read(&pos, "k7/p7/8/8/8/8/P7/4K3 b - - 0 1", 0, NULL);
  cr_assert_null(arb_endgame_material_of(&pos));
  cr_assert_str_eq(arb_endgame_wdl_name(ARB_ENDGAME_WIN), "win");
  cr_assert_str_eq(arb_endgame_wdl_name(ARB_ENDGAME_DRAW), "draw");
  cr_assert_str_eq(arb_endgame_wdl_name(ARB_ENDGAME_LOSS), "loss");
  arb_endgame_free(eg);
}

/* ---- random positions ---- */

static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* A random legal position of the material (the strong side of a random colour). */
static void random_position(const char *material, uint64_t *seed, arb_position *pos) {
  arb_piece_type men[2] = {ARB_NO_TYPE, ARB_NO_TYPE};
  int np = 1;
  if (!strcmp(material, "KQK")) men[0] = ARB_QUEEN;
  if (!strcmp(material, "KRK")) men[0] = ARB_ROOK;
  if (!strcmp(material, "KPK")) men[0] = ARB_PAWN;
  if (!strcmp(material, "KBNK")) men[0] = ARB_BISHOP, men[1] = ARB_KNIGHT, np = 2;
  for (;;) {
    int strong = (int)(rng_next(seed) & 1);
    arb_position_clear(pos);
    arb_square sq[4];
    for (int i = 0; i < 2 + np; i++)
      sq[i] = (arb_square)(rng_next(seed) % 64);
    int ok = 1;
    for (int i = 0; i < 2 + np; i++)
      for (int j = 0; j < i; j++)
        ok &= sq[i] != sq[j];
    if (!ok) continue;
    arb_position_put(pos, sq[0], ARB_MAKE_PIECE(strong, ARB_KING));
    arb_position_put(pos, sq[1], ARB_MAKE_PIECE(!strong, ARB_KING));
    for (int i = 0; i < np; i++)
      arb_position_put(pos, sq[2 + i], ARB_MAKE_PIECE(strong, men[i]));
    arb_position_set_turn(pos, (arb_color)(rng_next(seed) & 1));
    if (arb_position_validate(pos, 0, NULL) == ARB_OK) return;
  }
}

typedef struct tables {
  arb_endgame *t[4];
} tables;

/* The value of a child position for its side to move, from whichever table covers it (draws
 * for the dead material a capture or a minor promotion leaves). */
static void child_value(const tables *ts, const arb_position *c, int *wdl, int *plies) {
  const char *name = arb_endgame_material_of(c);
  if (!name) {
    cr_assert(arb_is_insufficient_material(c));
    *wdl = ARB_ENDGAME_DRAW;
    *plies = -1;
    return;
  }
  for (int i = 0; i < 4; i++)
    if (ts->t[i] && !strcmp(arb_endgame_material(ts->t[i]), name)) {
      arb_endgame_result r;
      cr_assert_eq(arb_endgame_probe(ts->t[i], c, &r), ARB_OK);
      *wdl = r.wdl;
      *plies = r.plies;
      return;
    }
  cr_assert_fail("no table for %s", name);
}

/* The definition of DTM, move by move through arb_generate_legal. */
static void check_consistent(const tables *ts, const arb_endgame *eg, const arb_position *pos) {
  arb_endgame_result r;
  char fen[ARB_FEN_MAX];
  arb_fen_write(pos, fen, sizeof fen, 0);
  cr_assert_eq(arb_endgame_probe(eg, pos, &r), ARB_OK, "%s", fen);
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(pos, moves);
  if (n == 0) {
    if (arb_in_check(pos))
      cr_assert(r.wdl == ARB_ENDGAME_LOSS && r.dtm == 0 && r.plies == 0, "%s", fen);
    else
      cr_assert(r.wdl == ARB_ENDGAME_DRAW, "%s", fen);
    cr_assert_eq(r.nbest, 0);
    return;
  }
  int best_win = -1, worst_loss = -1, draws = 0, nbest = 0;
  arb_move want[ARB_MAX_MOVES];
  int wv[ARB_MAX_MOVES], wp[ARB_MAX_MOVES];
  for (int i = 0; i < n; i++) {
    arb_position c = *pos;
    arb_undo u;
    arb_make_move(&c, moves[i], &u);
    child_value(ts, &c, &wv[i], &wp[i]);
    if (wv[i] == ARB_ENDGAME_LOSS && (best_win < 0 || wp[i] + 1 < best_win)) best_win = wp[i] + 1;
    if (wv[i] == ARB_ENDGAME_WIN && wp[i] + 1 > worst_loss) worst_loss = wp[i] + 1;
    draws += wv[i] == ARB_ENDGAME_DRAW;
  }
  if (best_win >= 0) {
    cr_assert(r.wdl == ARB_ENDGAME_WIN && r.plies == best_win, "%s: %d plies, want win in %d", fen,
              r.plies, best_win);
    cr_assert_eq(r.dtm, (best_win + 1) / 2);
  } else if (draws) {
    cr_assert(r.wdl == ARB_ENDGAME_DRAW, "%s", fen);
  } else {
    cr_assert(r.wdl == ARB_ENDGAME_LOSS && r.plies == worst_loss, "%s: %d plies, want loss in %d",
              fen, r.plies, worst_loss);
    cr_assert_eq(r.dtm, worst_loss / 2);
  }
  for (int i = 0; i < n; i++) {
    int keep = r.wdl == ARB_ENDGAME_WIN    ? wv[i] == ARB_ENDGAME_LOSS && wp[i] + 1 == r.plies
               : r.wdl == ARB_ENDGAME_LOSS ? wv[i] == ARB_ENDGAME_WIN && wp[i] + 1 == r.plies
                                           : wv[i] == ARB_ENDGAME_DRAW;
    if (keep) want[nbest++] = moves[i];
  }
  cr_assert_eq(r.nbest, nbest, "%s", fen);
  for (int i = 0; i < nbest; i++)
    cr_assert_eq(r.best[i], want[i], "%s", fen);
  /* the mirror image is the same position */
  arb_position m;
  arb_endgame_result rm;
  arb_position_mirror(pos, &m);
  cr_assert_eq(arb_endgame_probe(eg, &m, &rm), ARB_OK);
  cr_assert(rm.wdl == r.wdl && rm.plies == r.plies && rm.nbest == r.nbest, "%s mirrored", fen);
}

static void check_random(const char *material, int count, uint64_t seed) {
  tables ts = {{NULL, NULL, NULL, NULL}};
  arb_endgame *eg = build(material);
  ts.t[0] = eg;
  if (!strcmp(material, "KPK")) {
    ts.t[1] = build("KQK");
    ts.t[2] = build("KRK");
  }
  int wins = 0, draws = 0, losses = 0;
  for (int i = 0; i < count; i++) {
    arb_position pos;
    random_position(material, &seed, &pos);
    check_consistent(&ts, eg, &pos);
    arb_endgame_result r;
    arb_endgame_probe(eg, &pos, &r);
    wins += r.wdl == ARB_ENDGAME_WIN;
    draws += r.wdl == ARB_ENDGAME_DRAW;
    losses += r.wdl == ARB_ENDGAME_LOSS;
  }
  cr_assert(wins > 0 && losses > 0 && (draws > 0 || !strcmp(material, "KRK")),
            "%s: %d wins %d draws %d losses", material, wins, draws, losses);
  for (int i = 0; i < 4; i++)
    arb_endgame_free(ts.t[i]);
}

Test(endgame, kqk_random_positions_obey_the_definition) { check_random("KQK", 4000, 11); }
Test(endgame, krk_random_positions_obey_the_definition) { check_random("KRK", 4000, 12); }
Test(endgame, kpk_random_positions_obey_the_definition) { check_random("KPK", 6000, 13); }
Test(endgame, kbnk_random_positions_obey_the_definition, .timeout = 180) {
  check_random("KBNK", 2000, 14);
}

/* ---- against the exact solver ---- */

static arb_solve_result SR; /* large: not on the stack */

static void check_solver(const char *material, int want, uint64_t seed) {
  arb_endgame *eg = build(material);
  arb_solver *s = arb_solver_new(1 << 22);
  cr_assert_not_null(s);
  int done = 0;
  for (int tries = 0; done < want && tries < 200000; tries++) {
    arb_position pos;
    random_position(material, &seed, &pos);
    arb_endgame_result r;
    cr_assert_eq(arb_endgame_probe(eg, &pos, &r), ARB_OK);
    if (r.wdl != ARB_ENDGAME_WIN || r.dtm > 3) continue;
    char fen[ARB_FEN_MAX];
    arb_fen_write(&pos, fen, sizeof fen, 0);
    cr_assert_eq(arb_solve(s, &pos, ARB_SOLVE_MATE, r.dtm, 0, &SR), ARB_OK);
    cr_assert_eq(SR.verdict, ARB_SOLVE_FOUND, "%s", fen);
    cr_assert_eq(SR.length, r.dtm, "%s: solver %d, table %d", fen, SR.length, r.dtm);
    cr_assert(SR.keys_complete, "%s", fen);
    cr_assert_eq(SR.nkeys, r.nbest, "%s: solver %d keys, table %d", fen, SR.nkeys, r.nbest);
    for (int i = 0; i < SR.nkeys; i++) {
      int found = 0;
      for (int j = 0; j < r.nbest; j++)
        found |= SR.keys[i] == r.best[j];
      cr_assert(found, "%s: solver key not in the table's best", fen);
    }
    if (r.dtm > 1) {
      cr_assert_eq(arb_solve(s, &pos, ARB_SOLVE_MATE, r.dtm - 1, 0, &SR), ARB_OK);
      cr_assert_eq(SR.verdict, ARB_SOLVE_NONE, "%s", fen);
    }
    done++;
  }
  cr_assert_eq(done, want);
  arb_solver_free(s);
  arb_endgame_free(eg);
}

Test(endgame, kqk_short_mates_equal_the_solver, .timeout = 120) { check_solver("KQK", 40, 21); }
Test(endgame, krk_short_mates_equal_the_solver, .timeout = 120) { check_solver("KRK", 40, 22); }
Test(endgame, kpk_short_mates_equal_the_solver, .timeout = 120) { check_solver("KPK", 30, 23); }
