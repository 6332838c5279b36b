/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * status.h: the rules layer's facts about a single position — check, checkmate, stalemate and
 * the insufficient-material classes of RULES.md R13.  (The exact dead-position test comes in
 * its own module.)
 *
 * Ownership: nothing is allocated; callers own the position.  Thread-safety: reentrant.
 */
#ifndef ARBITER_STATUS_H
#define ARBITER_STATUS_H

#include "arbiter/position.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if the side to move is checkmated. */
ARB_API int arb_is_checkmate(const arb_position *pos);

/* 1 if the side to move is stalemated. */
ARB_API int arb_is_stalemate(const arb_position *pos);

/* Material classes in which neither side can ever mate (FIDE 5.2.2 by material; R13). */
typedef enum arb_material_class {
  ARB_MATERIAL_SUFFICIENT = 0, /* a helpmate may exist: pawns, rooks, queens, or mixed minors */
  ARB_MATERIAL_KK = 1,         /* king against king */
  ARB_MATERIAL_KBK = 2,        /* king and bishop against king */
  ARB_MATERIAL_KNK = 3,        /* king and knight against king */
  ARB_MATERIAL_BISHOPS_ONE_COLOR = 4 /* only bishops besides the kings, all on one square colour */
} arb_material_class;

/* The insufficient-material class of the position (both sides together). */
ARB_API arb_material_class arb_material_class_of(const arb_position *pos);

/* A static name for the class: "sufficient", "KvK", "KBvK", "KNvK", "bishops_one_colour". */
ARB_API const char *arb_material_class_name(arb_material_class c);

/* 1 if neither side has mating material (arb_material_class_of != SUFFICIENT). */
ARB_API int arb_is_insufficient_material(const arb_position *pos);

/* 1 if `side` can never checkmate, judged from material alone, soundly (never 1 when a helpmate
 * exists): a lone king; one knight against king and at most one queen; bishops only, all the
 * bishops on the board on one square colour, against a side with no knight and no pawn (queens
 * and rooks cannot help: proof in status.c).  Used for resignation and flag fall (FIDE 5.1.2,
 * 6.9) through arb_cannot_mate.  lichess's timeout predicate is looser in one case: it declares
 * one knight unable to mate king and several queens. */
ARB_API int arb_cannot_mate_by_material(const arb_position *pos, arb_color side);

/* 1 if `side` can never checkmate by any sequence of legal moves, proven: by material (above),
 * or — when every pawn is blocked head-on by a pawn — by enumerating every position reachable
 * from the board and finding no mate (dead.c; bounded, milliseconds to a tenth of a second for
 * such rare positions).  0 means "not proven", which is what FIDE 6.9 and 5.1.2 then apply (the
 * flagging or resigning player loses).  The one function flag fall and resignation use. */
ARB_API int arb_cannot_mate(const arb_position *pos, arb_color side);

/* ---- "Can this side ever checkmate?" with its proof ---- */

typedef enum arb_win_verdict {
  ARB_WIN_UNKNOWN = 0, /* the budget ran out before a proof either way */
  ARB_WIN_WINNABLE,    /* a helpmate exists: the line proves it */
  ARB_WIN_UNWINNABLE   /* proven: no sequence of legal moves lets the side mate */
} arb_win_verdict;

typedef enum arb_win_proof {
  ARB_PROOF_NONE = 0,
  ARB_PROOF_HELPMATE,     /* WINNABLE: line[] is a helpmate (checked by replaying it) */
  ARB_PROOF_MATERIAL,     /* UNWINNABLE: by material (arb_cannot_mate_by_material) */
  ARB_PROOF_LOCKED_WALLS, /* UNWINNABLE: every position behind the locked pawns enumerated */
  ARB_PROOF_GAME_OVER     /* UNWINNABLE: no legal move on the board (stalemate, or the side
                           * itself mated); a mate already on the board is WINNABLE, a HELPMATE
                           * line of no moves */
} arb_win_proof;

#define ARB_WIN_MAX_LINE 64

typedef struct arb_winnability {
  arb_win_verdict verdict;
  arb_win_proof proof;
  int line_len;                    /* plies of the helpmate line */
  arb_move line[ARB_WIN_MAX_LINE]; /* from pos, both sides' moves, ending in mate */
  uint64_t nodes;                  /* positions searched */
} arb_winnability;

/* Decides whether `side` can ever checkmate in pos, cheapest test first: a game already over on
 * the board, material, the locked-wall enumeration, then a helpmate search with both sides
 * cooperating, in phases under one budget (src/rules/winnable.c): long lines that leave the
 * best-ordered move at most a few times (limited discrepancy) — the winner's king walking to the
 * loser's, then everything heading for each corner, then the exact corner net of a lone bishop
 * or knight (the loser's own men blocking its king) — probes along the best two or three moves,
 * the corner lines again with their ties broken otherwise, and a full iterative-deepening
 * search; a mate in one is looked for at every node where the winner moves.  At most `budget`
 * nodes in all, 0 = a default of 500 000 — at most about a tenth of a second; about five
 * microseconds for most real positions (bench/dead).  Sound: never UNWINNABLE when a helpmate
 * exists (the search itself never answers UNWINNABLE), and every WINNABLE line is replayed to
 * mate before it is returned.  *out is filled in; returns out->verdict.  Reentrant; up to about
 * 260 KB of stack (a 4 KB frame per ply of a line of at most 63 plies).  Allocates,
 * like the wall enumeration (see arb_cannot_mate): a 2 MB table of searched positions once a
 * search runs past a few thousand nodes, freed before it returns (without memory the search runs
 * on, only slower). */
ARB_API arb_win_verdict arb_winnability_of(const arb_position *pos, arb_color side, uint64_t budget,
                                           arb_winnability *out);

/* Static names: "winnable", "unwinnable", "unknown"; "helpmate", "material", "locked_walls",
 * "game_over". */
ARB_API const char *arb_win_verdict_name(arb_win_verdict v);
ARB_API const char *arb_win_proof_name(arb_win_proof p);

/* 1 if the position is dead: neither side can checkmate by any sequence of legal moves
 * (FIDE 5.2.2) — the material classes, or a locked pawn structure whose reachable positions
 * hold no mate (as arb_cannot_mate).  Positions that are dead for other reasons (found only
 * by deeper search) are not yet recognised: 0 means "not proven dead". */
ARB_API int arb_is_dead_position(const arb_position *pos);

#ifdef __cplusplus
}
#endif
#endif
