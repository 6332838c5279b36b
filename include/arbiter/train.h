/* Arbiter — MIT licence, see LICENSE.
 *
 * train.h: what the trainer needs that every front end shares.  This part: puzzles — records in
 * lichess's puzzle CSV exactly (PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,
 * Themes,GameUrl,OpeningTags; the FEN is the position before the opponent's move, Moves in UCI:
 * the opponent's move, then the solver's and the opponent's in turn), and their proof: a
 * puzzle that ends in mate or a forced draw is re-proven by the exact solver (solve.h), move by
 * move, for a second solution or none.
 *
 * Ownership: records are caller values (fixed-size fields, no allocation); the solver is the
 * caller's.  Thread-safety: pure functions; a solver serves one thread at a time.
 */
#ifndef ARB_TRAIN_H
#define ARB_TRAIN_H

#include <stddef.h>
#include <stdint.h>

#include "arbiter/common.h"
#include "arbiter/notation.h"
#include "arbiter/position.h"
#include "arbiter/solve.h"

#define ARB_PUZZLE_MAX_MOVES 32 /* plies of a puzzle's line, the opponent's first included */

typedef struct arb_puzzle {
  char id[16];
  char fen[ARB_FEN_MAX];
  char moves[ARB_PUZZLE_MAX_MOVES][6]; /* UCI */
  int nmoves;
  int rating, rating_deviation, popularity, plays;
  char themes[256];   /* space-separated */
  char game_url[160]; /* "" none */
  char openings[160]; /* space-separated, "" none */
} arb_puzzle;

/* The CSV header line (without its newline). */
ARB_API const char *arb_puzzle_csv_header(void);

/* Reads one CSV record (a line without its newline; fields may be quoted as RFC 4180 allows).
 * ARB_OK, or ARB_ERR_ARGUMENT with words in err naming the field that is wrong (the header
 * line, too, is ARB_ERR_ARGUMENT: "the header").  The FEN and moves are only read as text
 * here; arb_puzzle_check judges them. */
ARB_API arb_status arb_puzzle_csv_read(const char *line, size_t len, arb_puzzle *p, char *err,
                                       size_t err_size);

/* Writes p as one CSV record, no newline; snprintf convention (the length needed). */
ARB_API int arb_puzzle_csv_write(const arb_puzzle *p, char *buf, size_t size);

/* 1 if the space-separated theme list holds theme. */
ARB_API int arb_puzzle_has_theme(const arb_puzzle *p, const char *theme);

typedef enum arb_puzzle_verdict {
  ARB_PUZZLE_OK = 0,      /* proven: every solver move is the only one that forces it */
  ARB_PUZZLE_SECOND,      /* another move forces it as fast at ply `ply` (`other`) */
  ARB_PUZZLE_NO_SOLUTION, /* the solver move at ply `ply` does not force it */
  ARB_PUZZLE_UNCHECKED,   /* the line ends in neither mate nor a draw: nothing to prove */
  ARB_PUZZLE_UNKNOWN,     /* the node budget ran out */
  ARB_PUZZLE_BAD          /* the FEN does not read, or a move is not legal (`message`) */
} arb_puzzle_verdict;

typedef struct arb_puzzle_check {
  arb_puzzle_verdict verdict;
  arb_solve_goal goal;   /* what the line ends in: mate, or a draw (stalemate, dead position) */
  int length;            /* the solver's moves */
  int ply;               /* SECOND, NO_SOLUTION, BAD: the ply of the line concerned (0 = the
                            opponent's first move) */
  char other[8];         /* SECOND: the other move, UCI */
  int last_alternatives; /* the other moves that also end it on the last move (a mate in one
                            accepts any mate, as lichess's does) */
  char message[160];
} arb_puzzle_check;

/* Re-proves a puzzle with the solver, at most budget nodes per solver move (0: the solver's
 * default).  The line must end in mate by the solver, or in a stalemate or a dead position
 * (then the goal is a draw); each solver move must force it within the moves left and no other
 * move may (the last move excepted: any move that ends it there is accepted and counted in
 * last_alternatives).  ARB_OK with *out filled; ARB_ERR_ARGUMENT for NULL arguments. */
ARB_API arb_status arb_puzzle_check_record(arb_solver *s, const arb_puzzle *p, uint64_t budget,
                                           arb_puzzle_check *out);

/* "ok", "second_solution", "no_solution", "unchecked", "unknown", "bad". */
ARB_API const char *arb_puzzle_verdict_name(arb_puzzle_verdict v);

#endif
