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
/* The theme that says what the puzzle is: stalemateTrap, stalemateRescue, underPromotion,
 * mateIn1..mateIn4, enPassant or castling, the first it has in that order; else "tactics"
 * (a static string). */
ARB_API const char *arb_puzzle_kind_theme(const arb_puzzle *p);

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

/* ---- a learner's move, judged (the page's server and `arbiter train` alike) ---- */

/* Is the learner's legal move m in p right?  expected is the line's move there; on the line's
 * last solver move (final) any move that ends the game as goal wants is right too: a mate, or
 * for a draw a stalemate or a dead position (a mate in one accepts every mate, as lichess
 * does).  1 right, 0 not. */
ARB_API int arb_puzzle_move_right(const arb_position *p, arb_move m, arb_move expected, int final,
                                  arb_solve_goal goal);

/* Why the legal move m, not right in p, fails to force goal within left solver moves, in words
 * written to buf (NUL-terminated, cut to size): the stalemate or dead position it makes, or the
 * reply that refutes it (found by the solver, at most budget nodes per reply; 0: 200,000), or
 * that it forces nothing within the moves left.  Answers buf. */
ARB_API const char *arb_puzzle_why_wrong(arb_solver *s, const arb_position *p, arb_move m,
                                         arb_solve_goal goal, int left, uint64_t budget, char *buf,
                                         size_t size);

/* ---- ratings: Glicko-2 (Glickman, "Example of the Glicko-2 system"), lichess's constants ---- */

/* lichess (scalachess rating/glicko, lila Glicko.scala): τ 0.75; a new player 1500 / RD 500 /
 * volatility 0.09; RD kept within 45 .. 500, volatility at most 0.1, ratings within
 * 400 .. 4000, at most 700 points a game; provisional while RD >= 110. */
#define ARB_GLICKO_TAU 0.75
#define ARB_GLICKO_RATING 1500.0
#define ARB_GLICKO_RD 500.0
#define ARB_GLICKO_VOLATILITY 0.09
#define ARB_GLICKO_RD_MIN 45.0
#define ARB_GLICKO_RD_MAX 500.0
#define ARB_GLICKO_VOLATILITY_MAX 0.1
#define ARB_GLICKO_PROVISIONAL_RD 110.0

typedef struct arb_glicko {
  double rating, rd, volatility;
} arb_glicko;

/* A new player (or item): 1500, 500, 0.09. */
ARB_API arb_glicko arb_glicko_new(void);

/* One rating period for `player` against n opponents with scores 1 (win), 0.5, 0 (loss), by
 * Glicko-2 with system constant tau (Glickman's step 1..8; the volatility by his Illinois
 * iteration, tolerance 1e-6).  No game (n = 0): only the RD grows.  Pure: no clamping here
 * (arb_glicko_clamp applies lichess's bounds).  ARB_ERR_ARGUMENT for NULL or a score outside
 * 0..1. */
ARB_API arb_status arb_glicko_update(arb_glicko *player, const arb_glicko *opponents,
                                     const double *scores, int n, double tau);
/* lichess's bounds: RD within 45..500, volatility at most 0.1, rating within 400..4000 and at
 * most 700 from `before`. */
ARB_API void arb_glicko_clamp(arb_glicko *g, const arb_glicko *before);
/* The expected score of a against b (Glicko-2's E with b's RD). */
ARB_API double arb_glicko_expected(const arb_glicko *a, const arb_glicko *b);

/* A puzzle attempt as lichess rates it (PuzzleFinisher): a game between learner and puzzle,
 * then each new rating mixed with the old one by a weight — smaller for themes that give the
 * answer away (a mate in one drilled as "mateIn1" earns little): theme_kind 0 a healthy mix
 * (1 / 1), 1 an obvious theme (0.1 solved / 0.4 failed), 2 another hinting theme (0.2 / 0.7),
 * 3 a non-hinting one (phases, origins: 0.7 / 0.8); the learner's weight falls by 0.2 / 0.7
 * more (to at least 0.1) while the puzzle is provisional.  Both are updated in place. */
ARB_API void arb_puzzle_rate(arb_glicko *learner, arb_glicko *puzzle, int solved, int theme_kind);

/* lichess's theme kinds for arb_puzzle_rate: 1 for enPassant, attackingF2F7, doubleCheck,
 * mateIn1, castling and every *Mate; 3 for phases (opening, middlegame, endgame, ...Endgame)
 * and origins (master, masterVsMaster, superGM); 2 for any other theme; 0 for none or "mix". */
ARB_API int arb_puzzle_theme_kind(const char *theme);

/* ---- reviews: a Leitner schedule ---- */

/* Why Leitner and not FSRS: a learner sees each item a handful of times, too few for FSRS to
 * fit its weights, and the boxes are what a person can be told ("again in 3 days; mastered
 * after 5 in a row"): failed items come back the next day, then after 1, 3, 7, 14 and 30 days
 * (discochess's Mistake Review), and five right answers in a row retire them. */
#define ARB_REVIEW_BOXES 5
#define ARB_REVIEW_DAY_MS (86400000LL)

typedef struct arb_review {
  int box;         /* 0 not yet missed (nothing to review), 1..5 in review, 6 mastered */
  int streak;      /* right answers in a row since the last miss */
  int64_t due_ms;  /* when it is due (box 1..5), 0 otherwise */
  int64_t seen_ms; /* the last answer */
} arb_review;

/* One answer at now_ms: a miss puts the item in box 1 (due in a day); a right answer moves a
 * reviewed item up a box (due after 1, 3, 7, 14, 30 days) and retires it after five in a row.
 * An item never missed stays out of review. */
ARB_API void arb_review_answer(arb_review *r, int right, int64_t now_ms);
/* 1 if the item is due for review at now_ms. */
ARB_API int arb_review_due(const arb_review *r, int64_t now_ms);

/* ---- choosing the next item ---- */

/* lichess's difficulty offsets: easiest -600, easier -300, normal 0, harder +300, hardest +600. */
typedef enum arb_difficulty {
  ARB_DIFFICULTY_EASIEST = -2,
  ARB_DIFFICULTY_EASIER = -1,
  ARB_DIFFICULTY_NORMAL = 0,
  ARB_DIFFICULTY_HARDER = 1,
  ARB_DIFFICULTY_HARDEST = 2
} arb_difficulty;

/* The rating to aim at, and lichess's window around it at a compromise level c (1..5, raised
 * when nothing fits): +- (100 + |1500 - target| / 4) * min(c, 4). */
ARB_API double arb_select_target(double learner_rating, arb_difficulty d);
ARB_API double arb_select_window(double target, int compromise);

/* An item a learner may be given next. */
typedef struct arb_select_item {
  double rating;
  int seen;     /* answered before */
  int due;      /* due for review (arb_review_due) */
  int theme_ok; /* has the theme asked for (1 when none is asked) */
} arb_select_item;

/* The index of the next item: a due review first (the one whose rating is nearest the
 * target); else an unseen item with the theme within the window, the compromise raised from 1
 * to 5 until one fits (at 5 seen items may come again); the nearest to the target, ties to the
 * lowest index.  -1 when there are none.  `seed` breaks ties among equally near items so two
 * learners do not get the same order (0: lowest index). */
ARB_API int arb_select_next(const arb_select_item *items, int n, double target, uint64_t seed);
/* The next of the seeded sequence the trainer's choosers draw from (splitmix64: the same seed,
 * the same sequence; *state advances). */
ARB_API uint64_t arb_select_rand(uint64_t *state);

/* ---- the diagnostic: item response theory ---- */

/* The two-parameter logistic model (2PL): P(right | theta) = 1 / (1 + e^(-a (theta - b))),
 * theta and b on a logit scale (an item's Elo-like rating r maps to b = (r - 1500) / 400 *
 * ln 10, so a rating difference of 400 is odds of 10 to 1, as in Elo). */
typedef struct arb_irt_item {
  double a, b;
} arb_irt_item;

/* The expected-a-posteriori ability and its standard error from n answers (right[i] 0/1) to
 * items, with a normal prior N(prior_mean, prior_sd^2), by quadrature over 81 points in
 * prior_mean +- 5 prior_sd.  Pure. */
ARB_API void arb_irt_estimate(const arb_irt_item *items, const int *right, int n, double prior_mean,
                              double prior_sd, double *theta, double *se);
/* The Fisher information of an item at theta: a^2 P (1 - P). */
ARB_API double arb_irt_information(const arb_irt_item *item, double theta);
/* The rating an ability stands for (the inverse of the map above). */
ARB_API double arb_irt_rating(double theta);
/* An item's difficulty b from its rating. */
ARB_API double arb_irt_difficulty(double rating);

#endif
