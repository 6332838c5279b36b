/* Arbiter — MIT licence, see LICENSE.
 *
 * solve.h: exact searches over the rules, for puzzles and the trainer: "can the side to move
 * force mate within N of its moves?" and "can it force a draw (stalemate, or a dead position)
 * within N?" — with the shortest length, EVERY first move that does it within N (so a puzzle's
 * uniqueness is proven, not guessed), a main line and the nodes searched.  A node budget bounds
 * the work; when it runs out the answer is "unknown", never a wrong "mate" or "none".
 *
 * What the search knows: the position alone (a FEN's worth).  It does not see a game's history,
 * so repetitions are not drawn, and the 50- and 75-move rules are not applied (a puzzle's
 * lines are far shorter than either).
 *
 * Ownership and threads: an arb_solver is opaque and owns its transposition table
 * (arb_solver_new allocates it, arb_solver_free releases it); one solver serves one thread at a
 * time; solvers on different threads are independent (no hidden globals).
 */
#ifndef ARB_SOLVE_H
#define ARB_SOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "arbiter/common.h"
#include "arbiter/position.h"

typedef enum arb_solve_goal {
  ARB_SOLVE_MATE = 0, /* checkmate the opponent */
  ARB_SOLVE_DRAW = 1  /* end the game drawn (stalemate or a dead position) — or better: a mate */
} arb_solve_goal;

typedef enum arb_solve_verdict {
  ARB_SOLVE_UNKNOWN = 0, /* the budget ran out first */
  ARB_SOLVE_FOUND = 1,   /* the goal can be forced within n moves ("mate" or "draw") */
  ARB_SOLVE_NONE = 2     /* proven: it cannot be forced within n moves */
} arb_solve_verdict;

#define ARB_SOLVE_MAX_N 16 /* the longest search asked for, in the solver's moves */
#define ARB_SOLVE_DEFAULT_BUDGET 50000000u

typedef struct arb_solve_result {
  arb_solve_verdict verdict;
  int length;                    /* FOUND: the shortest, in the solver's moves (mate in 2: 2) */
  int nkeys;                     /* the first moves that reach the goal within n */
  arb_move keys[ARB_MAX_MOVES];  /* ... in the generator's order */
  int key_length[ARB_MAX_MOVES]; /* ... each one's own shortest length */
  int keys_complete;             /* 1: every other first move is proven not to reach it within n
                                    (0 when the budget ran out on some) */
  int line_len;                  /* plies of the main line */
  arb_move line[2 * ARB_SOLVE_MAX_N];
  uint64_t nodes; /* positions searched */
} arb_solve_result;

typedef struct arb_solver arb_solver;

/* A solver with a transposition table of about tt_bytes (0: 16 MB; at least 64 KB).  NULL
 * when memory runs out. */
ARB_API arb_solver *arb_solver_new(size_t tt_bytes);
ARB_API void arb_solver_free(arb_solver *s);

/* Searches pos for goal within n moves of the side to move (1 .. ARB_SOLVE_MAX_N), at most
 * budget nodes (0: ARB_SOLVE_DEFAULT_BUDGET).  Fills *out.  ARB_ERR_ARGUMENT for a bad n or
 * goal; a position with the side not to move in check (it cannot arise) is
 * ARB_ERR_FEN_INVALID.  The game already over on the board: verdict NONE (nothing to
 * force), length 0. */
ARB_API arb_status arb_solve(arb_solver *s, const arb_position *pos, arb_solve_goal goal, int n,
                             uint64_t budget, arb_solve_result *out);

/* "mate", "draw" / "unknown", "mate"|"draw" (FOUND, by goal), "none". */
ARB_API const char *arb_solve_goal_name(arb_solve_goal goal);
ARB_API const char *arb_solve_verdict_name(arb_solve_verdict v, arb_solve_goal goal);

#endif
