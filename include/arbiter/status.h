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
 * exists): a lone king; one knight against king and queens only; bishops only, all the
 * bishops on the board on one square colour, against a side with no knight and no pawn (queens
 * and rooks cannot help: proof in status.c).  Used for resignation and flag fall (FIDE 5.1.2,
 * 6.9) through arb_cannot_mate.  lichess's timeout predicate agrees on the knight. */
ARB_API int arb_cannot_mate_by_material(const arb_position *pos, arb_color side);

/* 1 if `side` can never checkmate by any sequence of legal moves, proven:
 * arb_winnability_of(pos, side, 0, ...) == ARB_WIN_UNWINNABLE (material, locked walls, or the
 * exhaustive search; about five microseconds for most real positions, at most about a tenth of
 * a second).  0 means "not proven", which is what FIDE 6.9 and 5.1.2 then apply (the flagging
 * or resigning player loses).  The one function flag fall, resignation and the second illegal
 * move use.  Allocates as arb_winnability_of does. */
ARB_API int arb_cannot_mate(const arb_position *pos, arb_color side);
/* The same within a node budget (0: ARB_WIN_DEFAULT_BUDGET): 1 only when proven. */
ARB_API int arb_cannot_mate_within(const arb_position *pos, arb_color side, uint64_t budget);

/* ---- "Can this side ever checkmate?" with its proof ---- */

typedef enum arb_win_verdict {
  ARB_WIN_UNKNOWN = 0, /* the budget ran out before a proof either way */
  ARB_WIN_WINNABLE,    /* a helpmate exists: the line proves it */
  ARB_WIN_UNWINNABLE   /* proven: no sequence of legal moves lets the side mate */
} arb_win_verdict;

typedef enum arb_win_proof {
  ARB_PROOF_NONE = 0,
  ARB_PROOF_HELPMATE,       /* WINNABLE: line[] is a helpmate (checked by replaying it) */
  ARB_PROOF_MATERIAL,       /* UNWINNABLE: by material (arb_cannot_mate_by_material) */
  ARB_PROOF_LOCKED_WALLS,   /* UNWINNABLE: every position behind the locked pawns enumerated */
  ARB_PROOF_GAME_OVER,      /* UNWINNABLE: no legal move on the board (stalemate, or the side
                             * itself mated); a mate already on the board is WINNABLE, a HELPMATE
                             * line of no moves */
  ARB_PROOF_FIXED_PAWNS,    /* UNWINNABLE: every pawn blocked for ever, and no square the other
                             * king can reach could be a mate: never attacked, or too few of its
                             * flights can be covered or blocked (walls.c) */
  ARB_PROOF_SEARCH,         /* UNWINNABLE: every position reachable from the board enumerated
                             * (captures and pawn moves too), stopping only at positions proven by
                             * material, fixed_pawns or pawn_lanes, and none of them a mate; nodes
                             * says how many were made */
  ARB_PROOF_PAWN_LANES,     /* UNWINNABLE: as FIXED_PAWNS, but some pawns can still move: each only
                             * along its file towards the other side's pawns, which it can never
                             * pass, and no capture is ever possible (walls.c) */
  ARB_PROOF_PAWN_STRUCTURES /* UNWINNABLE: every pawn structure reachable from the board listed
                             * (pawn moves, captures, promotions), the other men as the squares
                             * they could reach behind each, and no structure leaves a square
                             * where the other king could be mated: checks only from pieces or
                             * a pawn that has just moved, every flight covered or blocked
                             * (structures.c) */
} arb_win_proof;

/* The node budget arb_winnability_of uses when asked for 0. */
#define ARB_WIN_DEFAULT_BUDGET 500000

#define ARB_WIN_MAX_LINE 128

typedef struct arb_winnability {
  arb_win_verdict verdict;
  arb_win_proof proof;
  int line_len;                    /* plies of the helpmate line */
  arb_move line[ARB_WIN_MAX_LINE]; /* from pos, both sides' moves, ending in mate */
  uint64_t nodes;                  /* positions searched */
} arb_winnability;

/* Decides whether `side` can ever checkmate in pos, cheapest test first: a game already over on
 * the board, material, the locked-wall enumeration, fixed pawns and pawn lanes, then two
 * searches under one budget — and, once the first helpmate phase has failed, the pawn-structure
 * listing (PAWN_STRUCTURES, at most budget / 16 structures expanded): an
 * exhaustive enumeration of every position reachable from the board (proof SEARCH; a forced
 * line — one legal move, or captures into insufficient material — costs a node or two; it is
 * given a few nodes first, then after each helpmate phase as many nodes as that phase used; it
 * keeps how each position was first reached, so a mate it meets is a helpmate line too, and
 * once the first phase has failed against a winner with at most one piece besides pawns it
 * expands best first, towards the nearest mate pictures in a corner — an order only: what it
 * proves is unchanged),
 * and a helpmate search with both sides cooperating, in phases (src/rules/winnable.c): long lines
 * that leave the best-ordered move at most a few times (limited discrepancy) — the winner's king
 * walking to the loser's, then everything heading for each corner, then the exact corner net of a
 * lone bishop or knight (the loser's own men blocking its king) — probes along the best two or
 * three moves, the corner lines again with their ties broken otherwise, and a full
 * iterative-deepening search; a mate in one is looked for at every node where the winner moves.  At
 * most `budget` nodes in all (both searches; one expansion may pass it by up to ARB_MAX_MOVES), 0 =
 * ARB_WIN_DEFAULT_BUDGET — at most about a tenth of a second; about five microseconds for most
 * real positions (bench/dead).  Sound: never UNWINNABLE when a helpmate exists (the helpmate
 * search never answers UNWINNABLE; the enumeration compares positions whole, with castling and
 * en passant rights, and proves only when nothing is left to expand), and every WINNABLE line is
 * replayed to mate before it is returned.  *out is filled in; returns out->verdict.  Reentrant;
 * up to about 520 KB of stack (a 4 KB frame per ply of a line of at most 127 plies).  Allocates,
 * freed before it returns: a table of searched positions once a helpmate search runs long (64 KB,
 * growing to 2 MB past about 131,000 nodes; without memory it runs on, only slower), and the
 * enumeration's set, about 64 bytes per position, at most min(budget, 4 194 304) positions
 * (without memory: unknown). */
ARB_API arb_win_verdict arb_winnability_of(const arb_position *pos, arb_color side, uint64_t budget,
                                           arb_winnability *out);

/* Static names: "winnable", "unwinnable", "unknown"; "helpmate", "material", "locked_walls",
 * "game_over", "fixed_pawns", "search", "pawn_lanes", "pawn_structures". */
ARB_API const char *arb_win_verdict_name(arb_win_verdict v);
ARB_API const char *arb_win_proof_name(arb_win_proof p);

/* 1 if the position is dead: neither side can checkmate by any sequence of legal moves
 * (FIDE 5.2.2) — the material classes, fixed pawns (for both sides), a locked pawn structure
 * whose reachable positions hold no mate, or the exhaustive enumeration of arb_winnability_of
 * for both sides at once within 64 nodes, on a board of at most 8 men where the side to move, in
 * check or with only king and pawns, has at most 4 legal moves: forced lines such as a queen
 * that must be taken.  Asked after every move of a game, so it stays cheap: a count of the men,
 * and a move generation on sparse boards.  Deeper cases are left to arb_winnability_of: 0 means
 * "not proven dead". */
ARB_API int arb_is_dead_position(const arb_position *pos);

#ifdef __cplusplus
}
#endif
#endif
