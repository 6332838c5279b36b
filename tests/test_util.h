/* Arbiter — MIT licence, see LICENSE.
 *
 * test_util.h: helpers for the Criterion tests (a seeded PRNG, random games, FEN helper).
 */
#ifndef ARB_TEST_UTIL_H
#define ARB_TEST_UTIL_H

#include <criterion/criterion.h>
#include <string.h>

#include "arbiter/arbiter.h"

static inline uint64_t test_rand(uint64_t *s) {
  /* splitmix64: deterministic, so failures reproduce */
  uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static inline arb_position test_fen(const char *fen) {
  arb_position p;
  arb_fen_report rep;
  arb_status st = arb_fen_read(&p, fen, 0, &rep);
  cr_assert_eq(st, ARB_OK, "FEN %s: %s", fen, rep.message);
  return p;
}

static inline arb_move test_uci(const arb_position *p, const char *uci) {
  arb_move m;
  arb_status st = arb_uci_read(p, uci, strlen(uci), 0, &m);
  cr_assert_eq(st, ARB_OK, "move %s: %s", uci, arb_strerror(st));
  return m;
}

static inline void test_play(arb_position *p, const char *uci) {
  arb_undo u;
  arb_make_move(p, test_uci(p, uci), &u);
}

/* Start positions used by random-game tests. */
static const char *const test_starts[] = {
    ARB_FEN_START,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1",
    "bbq1nrkr/1pp2ppp/3pn3/4p3/pP2P3/3N1P2/P1PP2PP/BBQNR1KR w Kkq - 0 6",
    "bbrk1qrn/ppp1p1p1/5p2/1B5p/2p4n/1P5P/P2PPPP1/B1RKQNRN w KQkq - 0 11",
};
#define TEST_STARTS (sizeof test_starts / sizeof test_starts[0])

#endif
