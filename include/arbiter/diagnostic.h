/* Arbiter — MIT licence, see LICENSE.
 *
 * diagnostic.h: the trainer's diagnostic — a short adaptive test over three areas (rules
 * fluency, tactics, endgames) that stops when each area's estimate is precise enough, and the
 * endgame drills it plays: a won king-and-queen or king-and-rook ending to be mated against the
 * table's perfect defence, within the moves allowed and without stalemating.
 *
 * The test (item response theory, train.h's 2PL model): each answer updates the area's
 * expected-a-posteriori ability (prior N(0, 2^2): about 1500 +- 350 on the rating scale); the
 * next area is the one whose estimate is least precise; the next item the one that tells most
 * about the learner there (the largest Fisher information at the current estimate).  It stops
 * after ARB_DIAG_MAX items, or after ARB_DIAG_MIN when every area has at least
 * ARB_DIAG_MIN_PER_AREA answers and a standard error under ARB_DIAG_PRECISE.
 *
 * Layer: train, above solve (endgame tables).  Ownership: an arb_diag and an arb_drill are
 * plain values of the caller (no allocation); tables and items are the caller's.  Pure and
 * reentrant.
 */
#ifndef ARB_DIAGNOSTIC_H
#define ARB_DIAGNOSTIC_H

#include "arbiter/endgame.h"
#include "arbiter/train.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum arb_diag_area {
  ARB_DIAG_RULES = 0,
  ARB_DIAG_TACTICS,
  ARB_DIAG_ENDGAMES,
  ARB_DIAG_AREAS
} arb_diag_area;

/* "rules", "tactics", "endgames"; "" out of range. */
ARB_API const char *arb_diag_area_name(arb_diag_area area);

#define ARB_DIAG_MAX 30
#define ARB_DIAG_MIN 18
#define ARB_DIAG_MIN_PER_AREA 5
#define ARB_DIAG_PRECISE 0.75 /* standard error, logits (about 130 rating points) */
#define ARB_DIAG_PRIOR_SD 2.0

typedef struct arb_diag {
  int n;
  unsigned skipped; /* bit set of areas not asked (arb_diag_skip) */
  int area[ARB_DIAG_MAX];
  arb_irt_item item[ARB_DIAG_MAX];
  int right[ARB_DIAG_MAX];
} arb_diag;

/* An empty test. */
ARB_API void arb_diag_init(arb_diag *d);
/* Leaves an area out (no items to ask there): it is never chosen, and the stop rule and the
 * weakest area ignore it. */
ARB_API void arb_diag_skip(arb_diag *d, arb_diag_area area);
/* Records an answer: ARB_OK, ARB_ERR_ARGUMENT for a bad or skipped area, ARB_ERR_GAME_OVER once
 * done. */
ARB_API arb_status arb_diag_answer(arb_diag *d, arb_diag_area area, arb_irt_item item, int right);

typedef struct arb_diag_estimate {
  double theta, se;         /* logits */
  double rating, rating_se; /* the same on the rating scale */
  int answered, right;
} arb_diag_estimate;
ARB_API void arb_diag_estimate_of(const arb_diag *d, arb_diag_area area, arb_diag_estimate *out);

/* 1 when the test has asked enough (see above). */
ARB_API int arb_diag_done(const arb_diag *d);
/* The area to ask next: the one with the fewest answers below ARB_DIAG_MIN_PER_AREA, else the
 * largest standard error; ties in area order.  ARB_DIAG_AREAS when done. */
ARB_API arb_diag_area arb_diag_next_area(const arb_diag *d);
/* Among n candidate items, the index of the most informative at the area's current estimate
 * (ties to the lowest index); -1 when n is 0. */
ARB_API int arb_diag_pick(const arb_diag *d, arb_diag_area area, const arb_irt_item *items, int n);
/* The weakest area against the learner's own average (the one to train next). */
ARB_API arb_diag_area arb_diag_weakest(const arb_diag *d);

/* The model's items: a quiz item of difficulty 1..5 (rated 900 + 250 d), a puzzle of its
 * rating. */
ARB_API arb_irt_item arb_diag_quiz_item(int difficulty);
ARB_API arb_irt_item arb_diag_puzzle_item(int rating);

/* Endgame questions, drawn anew for each question from the tables: drills (king and queen
 * rated 650 + 60 per move of the shortest mate, king and rook 950 + 55) of several lengths,
 * and one won and one drawn king-and-pawn position to call "won or drawn" (rated 1450, a
 * discrimination of 0.8: a guess is right half the time). */
#define ARB_DIAG_DRILL 0 /* kind: mate it on the board */
#define ARB_DIAG_WDL 1   /* kind: won or drawn? */
#define ARB_DIAG_TABLE_KQK 0
#define ARB_DIAG_TABLE_KRK 1
#define ARB_DIAG_TABLE_KPK 2
typedef struct arb_diag_endgame {
  int kind, table;
  arb_position pos; /* White to move */
  arb_irt_item irt;
  int win; /* WDL: 1 won, 0 drawn */
} arb_diag_endgame;
#define ARB_DIAG_ENDGAME_CANDIDATES 9
/* Fills out[] (at most ARB_DIAG_ENDGAME_CANDIDATES) from tables[ARB_DIAG_TABLE_*] (KQK, KRK,
 * KPK); returns how many. */
ARB_API int arb_diag_endgames(const arb_endgame *const tables[3], uint64_t seed,
                              arb_diag_endgame *out);

/* ---- endgame drills ---- */

typedef enum arb_drill_state {
  ARB_DRILL_ON = 0,  /* the learner is to move */
  ARB_DRILL_MATED,   /* the learner mated: done */
  ARB_DRILL_DRAWN,   /* the win is gone: stalemate, or a move after which the table says draw */
  ARB_DRILL_TOO_SLOW /* the moves allowed are used up (or the 50-move rule could be claimed) */
} arb_drill_state;

/* "on", "mated", "drawn", "too_slow". */
ARB_API const char *arb_drill_state_name(arb_drill_state s);

typedef struct arb_drill {
  arb_position pos; /* the learner to move while ON */
  arb_drill_state state;
  int dtm;           /* the table's distance to mate at the start */
  int moves_allowed; /* dtm + the slack given */
  int moves_made;
  arb_move last_reply; /* the defence's last move (ARB_MOVE_NONE before the first) */
} arb_drill;

/* Starts a drill: pos must be a win for the side to move in eg's table.  slack: moves allowed
 * beyond the shortest mate.  ARB_OK; ARB_ERR_ARGUMENT when pos is not such a win. */
ARB_API arb_status arb_drill_start(arb_drill *d, const arb_endgame *eg, const arb_position *pos,
                                   int slack);
/* The learner's move: ARB_ERR_MOVE_ILLEGAL (nothing changes) or ARB_OK with the new state; while
 * ON the defence has answered with the move that resists longest (d->last_reply). */
ARB_API arb_status arb_drill_move(arb_drill *d, const arb_endgame *eg, arb_move m);

/* A drill position: a win for White in eg's material with a distance to mate in [lo, hi],
 * White to move, from the seed (deterministic).  ARB_OK, or ARB_ERR_ARGUMENT when none was
 * found in a few thousand tries. */
ARB_API arb_status arb_drill_position(const arb_endgame *eg, int lo, int hi, uint64_t seed,
                                      arb_position *out);

#ifdef __cplusplus
}
#endif
#endif
