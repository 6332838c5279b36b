/* Arbiter — MIT licence, see LICENSE.
 *
 * audit.h: a review of a played game for the rule mistakes that cost points — the things the
 * laws would have given a player that the player did not take, and results the laws would not
 * have given:
 *   claim_threefold   the player who went on to lose could have claimed a draw by threefold
 *                     repetition (on the board, or by writing an intended move: FIDE 9.2.1);
 *   claim_fifty       ... under the 50-move rule (9.3.1);
 *   stalemate_given   a player well ahead (a mate proven within reach, or five points of
 *                     material up) stalemated the opponent: half a point thrown away (5.2.1);
 *   stalemate_promotion  ... with a queen promotion, where another piece would not stalemate;
 *   missed_rescue     the player who lost had a forced stalemate or dead position (proven by
 *                     the solver) and played something else;
 *   result_not_lawful lost on time or by resignation while the opponent could not checkmate by
 *                     any series of legal moves, or with a dead position on the board: by the
 *                     FIDE Laws a draw (6.9, 5.1.2, 5.2.2);
 *   played_on         the game had ended by the laws (a dead position, the fifth occurrence,
 *                     75 moves) and play went on: the moves after it do not count.
 * Every finding rests on the rules (arb_game's claims and endings, arb_flag_fall,
 * arb_game_resign) or on the exact solver's proof; nothing is an engine's opinion, so a finding
 * is never invented.  A search the budget cuts short reports nothing.
 *
 * Layer: train, above solve, game, clock and the PGN reader.  Ownership: the input, the solver
 * and the findings are the caller's; arb_audit keeps nothing after the call and allocates only
 * through arb_game_new/arb_game_free; an arb_audit_reader (_new/_free) owns its PGN reader and
 * one game's moves.  Thread-safety: reentrant; a solver serves one call at a time.
 */
#ifndef ARB_AUDIT_H
#define ARB_AUDIT_H

#include <stddef.h>
#include <stdint.h>

#include "arbiter/game.h"
#include "arbiter/notation.h"
#include "arbiter/pgn.h"
#include "arbiter/solve.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum arb_audit_kind {
  ARB_AUDIT_CLAIM_THREEFOLD = 0,
  ARB_AUDIT_CLAIM_FIFTY,
  ARB_AUDIT_STALEMATE_GIVEN,
  ARB_AUDIT_STALEMATE_PROMOTION,
  ARB_AUDIT_MISSED_RESCUE,
  ARB_AUDIT_RESULT_NOT_LAWFUL,
  ARB_AUDIT_PLAYED_ON,
  ARB_AUDIT_KIND_COUNT
} arb_audit_kind;

/* "claim_threefold", "claim_fifty", "stalemate_given", "stalemate_promotion", "missed_rescue",
 * "result_not_lawful", "played_on"; "" out of range. */
ARB_API const char *arb_audit_kind_name(arb_audit_kind kind);

/* How the recorded game ended, where the record says (PGN Termination). */
typedef enum arb_audit_ending {
  ARB_AUDIT_END_UNKNOWN = 0, /* decisive without a mate: read as a resignation */
  ARB_AUDIT_END_TIME,        /* "Time forfeit" */
  ARB_AUDIT_END_OTHER        /* abandoned, adjudicated, rules infraction: not judged */
} arb_audit_ending;

typedef struct arb_audit_game {
  arb_position start;
  const arb_move *moves; /* the main line, legal in turn (the caller's memory) */
  int nmoves;
  arb_result result; /* the recorded result (ARB_RESULT_NONE: unfinished) */
  arb_audit_ending ending;
} arb_audit_game;

typedef struct arb_audit_finding {
  arb_audit_kind kind;
  int ply;         /* the position concerned stands before move ply+1 (0: the start) */
  int move_number; /* its move number (the FEN\'s) */
  int8_t side;     /* the player it concerns (arb_color) */
  char fen[ARB_FEN_MAX];
  char move[8];          /* UCI: the move to claim with, the rescue, the other promotion; "" none */
  char played[8];        /* UCI: the move the game played there; "" none */
  char san[ARB_SAN_MAX]; /* move in SAN, "" none */
  char played_san[ARB_SAN_MAX]; /* played in SAN, "" none */
  char text[480];               /* the finding in words */
  char article[24];             /* "FIDE 9.2.1" */
  double points;                /* what it cost the player: 0.5 or 1 */
} arb_audit_finding;

#define ARB_AUDIT_DEFAULT_BUDGET 200000u /* solver nodes per position searched */

/* Reviews one game under the FIDE Laws: writes at most cap findings, in the order of the game,
 * and returns how many it found (findings beyond cap are counted, not written).  solver: for
 * the proofs (NULL: no solver-based findings); budget: nodes per position (0: the default).
 * -1 for bad arguments or moves that do not replay. */
ARB_API int arb_audit(const arb_audit_game *game, arb_solver *solver, uint64_t budget,
                      arb_audit_finding *out, int cap);

/* ---- PGN in, findings out ---- */

/* What the reader knows of one game of a PGN stream. */
typedef struct arb_audit_info {
  uint64_t game; /* 1-based number in the stream */
  uint64_t line; /* its first line */
  char white[64], black[64], site[128], date[16];
  char result[8];       /* "1-0", "0-1", "1/2-1/2", "*" */
  char termination[32]; /* the Termination tag, "" none */
  int plies;
  int readable;    /* 0: the game did not replay (errors, another variant): not reviewed */
  char error[192]; /* why not, when not readable */
} arb_audit_info;

/* Called once per game, with its findings (n of them; at most ARB_AUDIT_MAX_FINDINGS).  A
 * non-zero return stops the reviewing: the games after it are still read and reported, not
 * reviewed (readable 0, error "not reviewed: ..."), so a caller can bound its work. */
typedef int (*arb_audit_callback)(void *ctx, const arb_audit_info *info,
                                  const arb_audit_finding *findings, int n);
#define ARB_AUDIT_MAX_FINDINGS 16
#define ARB_AUDIT_MAX_PLIES 2048 /* longer games are reviewed up to there */

typedef struct arb_audit_reader arb_audit_reader;

/* A streaming reviewer: PGN bytes in (any chunks), the callback per game.  The solver is the
 * caller's (NULL: no solver findings), kept until _free.  NULL when memory runs out. */
ARB_API arb_audit_reader *arb_audit_reader_new(arb_solver *solver, uint64_t budget,
                                               arb_audit_callback cb, void *ctx);
ARB_API arb_status arb_audit_reader_feed(arb_audit_reader *r, const void *data, size_t len);
ARB_API arb_status arb_audit_reader_finish(arb_audit_reader *r);
ARB_API void arb_audit_reader_free(arb_audit_reader *r);

#ifdef __cplusplus
}
#endif
#endif
