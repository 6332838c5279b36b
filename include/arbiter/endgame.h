/* Arbiter — MIT licence, see LICENSE.
 *
 * endgame.h: exact endgame tables built in memory — win, draw or loss for the side to move and
 * the distance to mate, for king and queen, king and rook, king and pawn, and king, bishop and
 * knight against a lone king ("KQK", "KRK", "KPK", "KBNK").
 *
 * A table is built by retrograde analysis (src/solve/endgame.c): every legal position of the
 * material is enumerated, the mates found, and the distance to mate propagated backwards one
 * ply at a time.  Moves that leave the material are exact: a capture of the last piece (or of
 * either minor piece in KBNK) is a dead draw; a pawn promotion leads into KQK or KRK (built
 * inside the KPK table) or into KBK / KNK (draws).  Stalemate is a draw.  What the table does
 * not see: a game's history — repetitions and the 50-move rule are not applied (as published
 * distance-to-mate tables do not apply them), and castling rights (a position with any is
 * refused).  En passant cannot arise with a lone king on one side.
 *
 * Distance to mate (DTM) is counted as published tables count it: "mate in N" is N moves of the
 * winner (the winner's Nth move mates); a lost side "is mated in N" after N moves of the winner;
 * a checkmated side to move has DTM 0.
 *
 * Memory and time (release build, one core): KQK, KRK 0.5 MB, a few milliseconds; KPK 0.5 MB
 * plus its KQK and KRK, a few tens of milliseconds; KBNK 32 MB (a byte per position, 2 * 64^4
 * positions, no symmetry folding), a few seconds.
 *
 * Ownership and threads: arb_endgame_new allocates a table the caller frees with
 * arb_endgame_free (NULL is a no-op).  A built table is never written again: any number of
 * threads may probe one table at once.  Building uses no globals; tables built on different
 * threads are independent.
 */
#ifndef ARB_ENDGAME_H
#define ARB_ENDGAME_H

#include <stdint.h>

#include "arbiter/common.h"
#include "arbiter/notation.h"
#include "arbiter/position.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct arb_endgame arb_endgame;

/* The outcome for the side to move, with perfect play by both sides. */
typedef enum arb_endgame_wdl {
  ARB_ENDGAME_LOSS = -1,
  ARB_ENDGAME_DRAW = 0,
  ARB_ENDGAME_WIN = 1
} arb_endgame_wdl;

/* More than the legal moves of any position these tables hold (at most 35: a queen's 27 and
 * the king's 8). */
#define ARB_ENDGAME_MAX_BEST 64

typedef struct arb_endgame_result {
  arb_endgame_wdl wdl; /* for the side to move */
  int dtm;             /* moves to mate as above (WIN: mate in dtm; LOSS: mated in dtm, 0 when
                          checkmated now); -1 for a draw */
  int plies;           /* the same in plies (WIN: 2*dtm-1; LOSS: 2*dtm); -1 for a draw */
  int nbest;           /* the best moves, in the move generator's order: */
  arb_move best[ARB_ENDGAME_MAX_BEST]; /* WIN: every move that keeps the shortest mate; LOSS:
                                          every move that delays mate longest; DRAW: every move
                                          that keeps the draw.  None when the game is over
                                          (checkmate, stalemate). */
} arb_endgame_result;

/* Figures of a whole table, counted over every legal position of the material with the strong
 * side White (no symmetry folding: a position and its mirror images count separately; a
 * position with the side not to move in check is not legal and not counted).  Index [0]: the
 * strong side to move, [1]: the lone king to move. */
typedef struct arb_endgame_stats {
  uint64_t positions[2];
  uint64_t wins[2], draws[2], losses[2]; /* for the side to move */
  int longest[2];                        /* the longest DTM in moves ([0] a win, [1] a loss) */
  char longest_fen[2][ARB_FEN_MAX];      /* one position with that DTM (the first in index
                                            order) */
} arb_endgame_stats;

/* Builds the table of material "KQK", "KRK", "KPK" or "KBNK" (the strong side's men first; the
 * lone king last) and returns it; NULL on failure with *st (when st is not NULL) set to
 * ARB_ERR_ARGUMENT for another material or ARB_ERR_NO_MEMORY.  *st is ARB_OK on success. */
ARB_API arb_endgame *arb_endgame_new(const char *material, arb_status *st);
ARB_API void arb_endgame_free(arb_endgame *eg);

/* The table's material as given to arb_endgame_new ("KQK" ...); owned by the table. */
ARB_API const char *arb_endgame_material(const arb_endgame *eg);

/* The table that covers pos: "KQK", "KRK", "KPK" or "KBNK" when pos has exactly that material
 * with the strong side of either colour (static strings), else NULL. */
ARB_API const char *arb_endgame_material_of(const arb_position *pos);

/* Looks pos up: its material must be the table's, the strong side of either colour (a position
 * with Black the strong side is mirrored before the look-up, its best moves given in pos).
 * Fills *out.  ARB_ERR_ARGUMENT when the material is not the table's or pos has castling
 * rights.  Reentrant; does not allocate. */
ARB_API arb_status arb_endgame_probe(const arb_endgame *eg, const arb_position *pos,
                                     arb_endgame_result *out);

/* The table's figures (computed while it was built). */
ARB_API void arb_endgame_stats_of(const arb_endgame *eg, arb_endgame_stats *out);

/* "win", "draw", "loss" (static). */
ARB_API const char *arb_endgame_wdl_name(arb_endgame_wdl wdl);

#ifdef __cplusplus
}
#endif
#endif
