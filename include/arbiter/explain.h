/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * explain.h: why a move is illegal.  For any from-square, to-square and promotion piece on a
 * position — legal or not, even nonsense such as a bishop moving like a knight — the rule that
 * decides it, as a stable code a program switches on, the article of the FIDE Laws of Chess
 * (2023) and a sentence that names the deciding piece and square ("the king would be in check
 * from the bishop on b5").  What the quiz, `arbiter play`, the server's refusals and the page
 * say when a move is refused.
 *
 * Legality is exactly that of the move generator: a move is legal here if and only if
 * arb_uci_read accepts its UCI text (some move of arb_generate_legal has that from-square and
 * that to-square — for castling the king's destination, or the rook's square, king takes rook —
 * and that promotion piece), and the move it gives is arb_uci_read's.  Castling may be given
 * either way in standard chess and in Chess960: e1g1 or e1h1; where a one-square king step is
 * also a castling destination (Chess960 f1g1, rook on h1), the step is read first, as
 * arb_uci_read does.  A position read from FEN has no history, so castling rights and the en
 * passant square stand for it: a right that is gone means the king or that rook has moved, and
 * a pawn that could be taken en passant but for the missing square was not the last to move.
 *
 * The checks run in this order and the first that fails decides: whose turn it is (only when a
 * player is named), a piece on the from-square, that it belongs to the side to move, a
 * promotion piece named for a piece that is not a pawn, castling (a king on its back rank going
 * to a castling destination or onto its own rook), the square changing, the piece's way of
 * moving, its own piece on the target, the path, the enemy king on the target, the promotion
 * piece, and last the king's safety.
 *
 * Ownership: the caller owns the position and the explanation; nothing allocates.
 * Thread-safety: every function is reentrant; article and name strings are static.
 */
#ifndef ARBITER_EXPLAIN_H
#define ARBITER_EXPLAIN_H

#include "arbiter/position.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Why a move is illegal, with the article each reason cites (FIDE Laws of Chess 2023):
 *
 *   legal                   3.10.1   the move is legal
 *   not_your_turn           1.2      a player named who is not to move (arb_move_explain_for)
 *   no_piece                -        nothing stands on the from-square
 *   not_your_piece          1.1      the piece there belongs to the opponent
 *   same_square             3.2-3.8  from == to (the article of the piece's move)
 *   piece_does_not_move_so  3.2-3.8  not the piece's way of moving (bishop 3.2, rook 3.3,
 *                                    queen 3.4, knight 3.6, pawn 3.7.1-3.7.3, king 3.8.1)
 *   own_piece_on_target     3.1      a piece of the same colour stands on the target
 *   path_blocked            3.5      a piece stands in between (a pawn's double step: 3.7.2)
 *   pawn_blocked            3.7.1    a pawn advancing onto an occupied square (3.7.2 for two)
 *   king_capture            1.4.1    the move would take the king (positions read with
 *                                    problems accepted)
 *   promotion_needs_piece   3.7.3.3  a pawn reaching the last rank must name its new piece
 *   promotion_not_allowed   3.7.3.3  a promotion piece named for a move that is not a pawn
 *                                    reaching the last rank
 *   promotion_wrong_piece   3.7.3.3  a pawn becomes a queen, rook, bishop or knight only
 *   en_passant_expired      3.7.3.2  en passant only on the very next move after the double
 *                                    step (a pawn where one would have put it, the square
 *                                    behind empty, and that was not the last move)
 *   leaves_king_in_check    3.9.2    in check, and the move does not stop it
 *   king_into_check         3.9.2    the king would move onto an attacked square
 *   king_next_to_king       3.9.2    ... next to the other king
 *   pinned                  3.9.2    moving the pinned piece would expose the king
 *   exposes_king            3.9.2    en passant would open a line onto the king (the two pawns
 *                                    leave one rank, or the captured pawn shielded it)
 *   castling_king_moved     3.8.2.1  no castling right left: the king has moved
 *   castling_rook_moved     3.8.2.1  no right on that side: that rook has moved (or was taken)
 *   castling_path_occupied  3.8.2.2  a piece between king and rook, or on their destinations
 *   castling_out_of_check   3.8.2.2  the king is in check
 *   castling_through_check  3.8.2.2  the king would cross an attacked square
 *   castling_into_check     3.8.2.2  the king would land on an attacked square
 *
 * X(name, value, code): `code` is the stable snake_case name of arb_illegal_name (JSON
 * "reason").  Values and codes never change; new ones are added at the end. */
#define ARB_ILLEGAL_LIST(X)                                                                        \
  X(ARB_MOVE_LEGAL, 0, "legal")                                                                    \
  X(ARB_ILLEGAL_NOT_YOUR_TURN, 1, "not_your_turn")                                                 \
  X(ARB_ILLEGAL_NO_PIECE, 2, "no_piece")                                                           \
  X(ARB_ILLEGAL_NOT_YOUR_PIECE, 3, "not_your_piece")                                               \
  X(ARB_ILLEGAL_SAME_SQUARE, 4, "same_square")                                                     \
  X(ARB_ILLEGAL_PIECE_DOES_NOT_MOVE_SO, 5, "piece_does_not_move_so")                               \
  X(ARB_ILLEGAL_OWN_PIECE_ON_TARGET, 6, "own_piece_on_target")                                     \
  X(ARB_ILLEGAL_PATH_BLOCKED, 7, "path_blocked")                                                   \
  X(ARB_ILLEGAL_PAWN_BLOCKED, 8, "pawn_blocked")                                                   \
  X(ARB_ILLEGAL_KING_CAPTURE, 9, "king_capture")                                                   \
  X(ARB_ILLEGAL_PROMOTION_NEEDS_PIECE, 10, "promotion_needs_piece")                                \
  X(ARB_ILLEGAL_PROMOTION_NOT_ALLOWED, 11, "promotion_not_allowed")                                \
  X(ARB_ILLEGAL_PROMOTION_WRONG_PIECE, 12, "promotion_wrong_piece")                                \
  X(ARB_ILLEGAL_EN_PASSANT_EXPIRED, 13, "en_passant_expired")                                      \
  X(ARB_ILLEGAL_LEAVES_KING_IN_CHECK, 14, "leaves_king_in_check")                                  \
  X(ARB_ILLEGAL_KING_INTO_CHECK, 15, "king_into_check")                                            \
  X(ARB_ILLEGAL_KING_NEXT_TO_KING, 16, "king_next_to_king")                                        \
  X(ARB_ILLEGAL_PINNED, 17, "pinned")                                                              \
  X(ARB_ILLEGAL_EXPOSES_KING, 18, "exposes_king")                                                  \
  X(ARB_ILLEGAL_CASTLING_KING_MOVED, 19, "castling_king_moved")                                    \
  X(ARB_ILLEGAL_CASTLING_ROOK_MOVED, 20, "castling_rook_moved")                                    \
  X(ARB_ILLEGAL_CASTLING_PATH_OCCUPIED, 21, "castling_path_occupied")                              \
  X(ARB_ILLEGAL_CASTLING_OUT_OF_CHECK, 22, "castling_out_of_check")                                \
  X(ARB_ILLEGAL_CASTLING_THROUGH_CHECK, 23, "castling_through_check")                              \
  X(ARB_ILLEGAL_CASTLING_INTO_CHECK, 24, "castling_into_check")

typedef enum arb_illegal {
#define ARB_ILLEGAL_ENUM_(name, value, code) name = value,
  ARB_ILLEGAL_LIST(ARB_ILLEGAL_ENUM_)
#undef ARB_ILLEGAL_ENUM_
} arb_illegal;

#define ARB_ILLEGAL_COUNT 25

/* The stable code of a reason, e.g. "path_blocked" ("legal" for ARB_MOVE_LEGAL); NULL for a
 * value outside the list.  Static string. */
ARB_API const char *arb_illegal_name(arb_illegal reason);

/* What arb_move_explain found. */
typedef struct arb_move_explanation {
  arb_illegal reason;  /* ARB_MOVE_LEGAL or why not */
  const char *article; /* FIDE Laws 2023 article ("3.9.2", "3.8.2.2", "3.10.1" when legal);
                        * "" when no article applies (no_piece).  Static, never NULL */
  arb_square square;   /* the square of the deciding piece (the checker, the pinner, the
                        * blocker, the piece on the target, the moving piece ...), or the
                        * empty square concerned (no_piece); ARB_NO_SQUARE when none */
  arb_piece piece;     /* the piece on `square` (ARB_NO_PIECE when none) */
  arb_square attacked; /* castling through or into check: the square the king would cross or
                        * land on that `piece` attacks; else ARB_NO_SQUARE */
  arb_move move;       /* the legal move as arb_generate_legal encodes it (castling king takes
                        * rook); ARB_MOVE_NONE when illegal */
  char message[192];   /* one plain English sentence, no final full stop, naming pieces and
                        * squares: "the knight on e4 is pinned: moving it would expose the king
                        * to check from the rook on e8" */
} arb_move_explanation;

/* Explains the move from -> to (promotion: ARB_NO_TYPE for none, ARB_KNIGHT..ARB_QUEEN, or
 * ARB_PAWN / ARB_KING to be told that a pawn cannot become one) by the side to move of pos.
 * A piece of the other side on `from` is ARB_ILLEGAL_NOT_YOUR_PIECE.  Castling is the king's
 * move to its destination (e1g1, e1c1; in Chess960 the g- or c-file) or onto its own rook
 * (e1h1).  pos must be a position the library accepts (arb_fen_read, arb_position_validate).
 * Errors: ARB_ERR_ARGUMENT for NULL pos or out, a square > 63 or a promotion value > ARB_KING;
 * *out (when not NULL) is then reason ARB_ILLEGAL_NO_PIECE with an empty article and
 * message. */
ARB_API arb_status arb_move_explain(const arb_position *pos, arb_square from, arb_square to,
                                    arb_piece_type promotion, arb_move_explanation *out);

/* The same for a named player: when `player` is not the side to move, the answer is
 * ARB_ILLEGAL_NOT_YOUR_TURN whatever the move (what a server says to a move sent out of turn).
 * ARB_ERR_ARGUMENT also for a player that is neither ARB_WHITE nor ARB_BLACK. */
ARB_API arb_status arb_move_explain_for(const arb_position *pos, arb_color player, arb_square from,
                                        arb_square to, arb_piece_type promotion,
                                        arb_move_explanation *out);

/* Reads UCI text leniently, for explaining: two squares ("e2e4", files a-h in either case) and
 * an optional fifth letter q r b n, or k p (which arb_move_explain refuses with a reason), in
 * either case — whether or not any move fits.  "0000" is not a move here.  text need not be
 * NUL-terminated.  Returns ARB_OK or ARB_ERR_MOVE_SYNTAX (ARB_ERR_ARGUMENT for NULL). */
ARB_API arb_status arb_uci_read_squares(const char *text, size_t len, arb_square *from,
                                        arb_square *to, arb_piece_type *promotion);

/* arb_uci_read_squares then arb_move_explain: the explanation of a move written in UCI by the
 * side to move.  ARB_ERR_MOVE_SYNTAX when the text is not two squares and an optional
 * promotion letter (*out as for ARB_ERR_ARGUMENT above). */
ARB_API arb_status arb_move_explain_uci(const arb_position *pos, const char *text, size_t len,
                                        arb_move_explanation *out);

#ifdef __cplusplus
}
#endif
#endif
