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
 * arb_make_move / arb_unmake_move / arb_fen_read and the editing functions below
 * (arb_position_put ...), which keep the redundant parts (board[], bitboards, key) consistent.
 *
 * Castling rights are stored as the set of rooks that may still castle (castling_rooks),
 * so standard chess and Chess960 share one representation.
 *
 * ep_square is set after a double step only when a pawn of the side to move stands beside
 * the pawn that moved (a pseudo-legal en passant capture exists) — exactly the condition under
 * which the Polyglot key includes the en passant file.  Whether the capture is *legal* is a
 * separate question (arb_ep_legal), used by FEN output and by repetition identity.
 * ep_target is the square the last move's double step skipped (or the FEN's en passant field),
 * kept even when no pawn can take: what FEN output writes with ARB_FEN_OUT_EP_ALWAYS.  It is 0
 * when there is none (a1 can never be an en passant square, so a zeroed struct is right). */
typedef struct arb_position {
  arb_bitboard by_type[7];     /* [0] every piece, [ARB_PAWN..ARB_KING] both colours */
  arb_bitboard by_color[2];    /* pieces of each colour */
  arb_bitboard castling_rooks; /* rooks (of either colour) that keep a castling right */
  uint64_t key;                /* Polyglot Zobrist key */
  arb_piece board[64];         /* piece code per square */
  uint8_t turn;                /* arb_color to move */
  uint8_t ep_square;           /* see above; ARB_NO_SQUARE when none */
  uint8_t chess960;            /* 1: write castling as king-takes-rook in UCI, X-FEN letters */
  uint8_t ep_target;           /* see above; 0 when none */
  uint16_t halfmove_clock;     /* plies since the last capture or pawn move */
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
  uint8_t ep_target;
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

/* side's material in the conventional pawn units (pawn 1, knight and bishop 3, rook 5, queen 9;
 * the king not counted). */
ARB_API int arb_material(const arb_position *pos, arb_color side);

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

/* ---- Board editing ----
 * Set up a position piece by piece, as a diagram editor does.  Each function keeps board[],
 * the bitboards and the key consistent, and stores what it is told even when the result is not
 * (yet) a possible position: between edits a position may lack kings, have castling rights
 * without rooks or an en passant square without a pawn.  Such a position may only be edited
 * further; arb_position_validate (notation.h) then reports its problems exactly as FEN reading
 * does and, on ARB_OK, makes it a position every other function accepts.  Only the validated
 * position may be given to move generation, make_move, FEN output and the rules.
 * ARB_ERR_ARGUMENT for a square > 63, a piece code that is not a piece, a bad colour. */

/* An empty board: no pieces, White to move, no castling rights or en passant square, counters
 * 0 and 1, standard chess (chess960 = 0). */
ARB_API void arb_position_clear(arb_position *pos);
/* Puts piece on sq (replacing what stood there); ARB_NO_PIECE empties the square. */
ARB_API arb_status arb_position_put(arb_position *pos, arb_square sq, arb_piece piece);
/* Empties sq and returns the piece that stood there (ARB_NO_PIECE if none or sq > 63). */
ARB_API arb_piece arb_position_remove(arb_position *pos, arb_square sq);
/* Sets the side to move. */
ARB_API arb_status arb_position_set_turn(arb_position *pos, arb_color turn);
/* Sets the castling rights as the set of rooks that may castle (any files: Chess960 rook files
 * are given by their squares, e.g. ARB_BB(ARB_SQUARE(1, 0)) for White's b1 rook).  Every right
 * must be on a back rank (ARB_ERR_ARGUMENT otherwise); whether king and rook stand there is for
 * validation.  Marks the position Chess960 when a right's king is off the e-file or its rook off
 * the a- and h-files, as FEN reading infers it (a right of a side without a king counts as
 * standard). */
ARB_API arb_status arb_position_set_castling(arb_position *pos, arb_bitboard rooks);
/* Marks the position Chess960 (1: king-takes-rook UCI castling, X-FEN letters) or not. */
ARB_API void arb_position_set_chess960(arb_position *pos, int chess960);
/* Sets the en passant square (the square the double step skipped; ARB_NO_SQUARE for none): a
 * square of the third or sixth rank (ARB_ERR_ARGUMENT otherwise); validation reports one that
 * no double step could have produced (wrong side, no pawn past it, ...). */
ARB_API arb_status arb_position_set_ep(arb_position *pos, arb_square sq);
/* Sets the halfmove clock (0..65535) and the fullmove number (1..100000000), the ranges of FEN
 * reading. */
ARB_API arb_status arb_position_set_counters(arb_position *pos, unsigned halfmove_clock,
                                             unsigned long fullmove_number);

/* ---- Move and board queries ---- */

/* Fills moves[] (room for ARB_MAX_MOVES) with every pseudo-legal move: each piece's moves by
 * its own rules, whether or not they leave the king attacked (python-chess's pseudo-legal
 * moves).  King captures are never generated, and castling only when it is legal (its own
 * conditions — path not attacked — are part of the move).  Returns the count. */
ARB_API int arb_generate_pseudo_legal(const arb_position *pos, arb_move *moves);

/* The pieces of colour c pinned to c's own king: each stands alone between that king and an
 * enemy bishop, rook or queen on a line.  0 when c has no king. */
ARB_API arb_bitboard arb_pinned(const arb_position *pos, arb_color c);
/* The pin's ray of the piece of colour c on sq: the squares from c's king through sq to the
 * pinning piece, both included (where a pinned piece may still move), or every square (~0)
 * when sq is not pinned — python-chess's Board.pin. */
ARB_API arb_bitboard arb_pin_ray(const arb_position *pos, arb_color c, arb_square sq);

/* What a legal move is, as bits of arb_move_info (0 for a move that is not legal). */
#define ARB_MOVE_IS_CAPTURE 1u    /* takes a piece (en passant included) */
#define ARB_MOVE_IS_EN_PASSANT 2u /* an en passant capture */
#define ARB_MOVE_IS_CASTLING 4u   /* castling */
#define ARB_MOVE_IS_PROMOTION 8u  /* a promotion */
#define ARB_MOVE_IS_ZEROING 16u   /* a capture or a pawn move: resets the halfmove clock */
#define ARB_MOVE_IS_IRREVERSIBLE                                                                   \
  32u                            /* no earlier position can recur after it: zeroing, losing a      \
                                    castling right, or giving up a legal en passant capture */
#define ARB_MOVE_GIVES_CHECK 64u /* the opponent is in check after it */
ARB_API unsigned arb_move_info(const arb_position *pos, arb_move move);

/* The Chess960 start number (0..959, 518 the standard placement) of pos when it is that start
 * position: the placement of arb_position_chess960, White to move, all four castling rights,
 * no en passant square (the counters are not looked at — python-chess's chess960_pos).
 * -1 otherwise. */
ARB_API int arb_position_chess960_number(const arb_position *pos);

/* Perft: the number of leaf nodes of the legal move tree of the given depth (depth 0 = 1).
 * The last ply is counted without making its moves. */
ARB_API uint64_t arb_perft(const arb_position *pos, int depth);

#ifdef __cplusplus
}
#endif
#endif
