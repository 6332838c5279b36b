/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * position.h: the board layer.  A position is a plain value (copy it freely); move generation
 * is fully legal; keys are Polyglot-compatible Zobrist keys, updated incrementally.
 *
 * Ownership: callers own every arb_position, arb_undo and move buffer; nothing here allocates.
 * Thread-safety: all functions are reentrant; tables are built once by arb_init(), which is
 * idempotent and thread-safe (pthread_once) and is called implicitly by every function that
 * creates a position (arb_position_startpos, arb_fen_read).  Functions that
 * take an existing position assume it was created by one of those.
 */
#ifndef ARBITER_POSITION_H
#define ARBITER_POSITION_H

#include "arbiter/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t arb_bitboard; /* bit n set = square n (a1 = bit 0, h8 = bit 63) */

/* A chess position.  Treat the fields as read-only: change a position only through
 * arb_make_move / arb_unmake_move / arb_fen_read, which keep the
 * redundant parts (board[], bitboards, key) consistent.
 *
 * Castling rights are stored as the set of rooks that may still castle (castling_rooks),
 * so standard chess and Chess960 share one representation.
 *
 * ep_square is set after a double step only when a pawn of the side to move stands beside
 * the pawn that moved (a pseudo-legal en passant capture exists) — exactly the condition under
 * which the Polyglot key includes the en passant file.  Whether the capture is *legal* is a
 * separate question (arb_ep_legal), used by FEN output and by repetition identity. */
typedef struct arb_position {
  arb_bitboard by_type[7];     /* [0] every piece, [ARB_PAWN..ARB_KING] both colours */
  arb_bitboard by_color[2];    /* pieces of each colour */
  arb_bitboard castling_rooks; /* rooks (of either colour) that keep a castling right */
  uint64_t key;                /* Polyglot Zobrist key */
  arb_piece board[64];         /* piece code per square */
  uint8_t turn;                /* arb_color to move */
  uint8_t ep_square;           /* see above; ARB_NO_SQUARE when none */
  uint8_t chess960;            /* 1: write castling as king-takes-rook in UCI, X-FEN letters */
  uint8_t reserved_;
  uint16_t halfmove_clock; /* plies since the last capture or pawn move */
  uint16_t reserved2_;
  uint32_t fullmove_number; /* starts at 1, incremented after Black moves */
} arb_position;

/* What arb_make_move saves so arb_unmake_move can restore the position exactly. */
typedef struct arb_undo {
  uint64_t key;
  arb_bitboard castling_rooks;
  uint16_t halfmove_clock;
  uint8_t ep_square;
  arb_piece captured;
} arb_undo;

/* Builds the attack tables once.  Idempotent, thread-safe; called implicitly (see above). */
ARB_API void arb_init(void);

/* The standard starting position. */
ARB_API void arb_position_startpos(arb_position *pos);

/* The Chess960 start position with the given standard (Scharnagl) number, 0..959; 518 is the
 * standard placement.  The result is marked chess960 (UCI castling is king-takes-rook).
 * ARB_ERR_ARGUMENT for a number out of range. */
ARB_API arb_status arb_position_chess960(arb_position *pos, int number);

/* The colour-flipped position: ranks mirrored, colours swapped, the other side to move (with
 * the same rights and counters).  Every rule treats it exactly like the original, which makes
 * it a good cross-check.  out may equal pos. */
ARB_API void arb_position_mirror(const arb_position *pos, arb_position *out);

/* Makes a legal move (or ARB_MOVE_NULL).  The move must be legal in pos (as returned by
 * arb_generate_legal or a parser); otherwise the result is unspecified.  Saves into *undo. */
ARB_API void arb_make_move(arb_position *pos, arb_move move, arb_undo *undo);

/* Takes back the move made with arb_make_move(pos, move, undo). */
ARB_API void arb_unmake_move(arb_position *pos, arb_move move, const arb_undo *undo);

/* Fills moves[] (room for ARB_MAX_MOVES) with every legal move; returns the count.  Entries past
 * the count may be overwritten too (the vector code writes whole blocks), never past
 * ARB_MAX_MOVES. */
ARB_API int arb_generate_legal(const arb_position *pos, arb_move *moves);

/* Number of legal moves, without writing them (faster than generating). */
ARB_API int arb_count_legal(const arb_position *pos);

/* 1 if the side to move has at least one legal move, else 0 (stops at the first). */
ARB_API int arb_has_legal_move(const arb_position *pos);

/* 1 if move is a legal move in pos.  Any 16-bit value may be passed: garbage gives 0. */
ARB_API int arb_is_legal(const arb_position *pos, arb_move move);

/* 1 if the move gives check (0 for a move that is not legal). */
ARB_API int arb_gives_check(const arb_position *pos, arb_move move);

/* Pieces of colour `by` that attack square sq with the given occupancy (pins ignored, as in
 * FIDE 3.1.3: a pinned piece still attacks). */
ARB_API arb_bitboard arb_attackers(const arb_position *pos, arb_square sq, arb_color by,
                                   arb_bitboard occupied);

/* The pieces giving check to the side to move (0 if not in check). */
ARB_API arb_bitboard arb_checkers(const arb_position *pos);

/* 1 if the side to move is in check. */
ARB_API int arb_in_check(const arb_position *pos);

/* Square of the king of colour c. */
ARB_API arb_square arb_king_square(const arb_position *pos, arb_color c);

/* 1 if the side to move can legally capture en passant now. */
ARB_API int arb_ep_legal(const arb_position *pos);

/* The Polyglot key recomputed from scratch (equals pos->key; used to cross-check). */
ARB_API uint64_t arb_zobrist_compute(const arb_position *pos);

/* Attack sets for a piece type on sq with the given occupancy (pawns: use arb_pawn_attacks). */
ARB_API arb_bitboard arb_piece_attacks(arb_piece_type type, arb_square sq, arb_bitboard occupied);
ARB_API arb_bitboard arb_pawn_attacks(arb_color c, arb_square sq);

/* Perft: the number of leaf nodes of the legal move tree of the given depth (depth 0 = 1).
 * The last ply is counted without making its moves. */
ARB_API uint64_t arb_perft(const arb_position *pos, int depth);

#ifdef __cplusplus
}
#endif
#endif
