/* Arbiter — MIT licence, see LICENSE.
 *
 * text.h (internal): small helpers shared by the notation files.
 */
#ifndef ARB_NOTATION_TEXT_H
#define ARB_NOTATION_TEXT_H

#include "arbiter/notation.h"
#include "board/bitboard.h"

/* snprintf-style copy of n bytes of text into buf. */
int arb__copy_out(const char *text, size_t n, char *buf, size_t size) ARB_HIDDEN;
/* Writes "e4" for sq; returns 2. */
size_t arb__square_text(arb_square sq, char *out) ARB_HIDDEN;
/* Destination square of the moving king/piece (castling: the king's real square). */
arb_square arb__move_dest(const arb_position *pos, arb_move m) ARB_HIDDEN;
/* Piece type for a promotion letter (either case), or 0. */
int arb__promo_type(char c) ARB_HIDDEN;
/* 1 if text has the shape of a UCI move. */
int arb__looks_like_uci(const char *s, size_t len) ARB_HIDDEN;
/* SAN of the legal move m, given the check mark ('+', '#' or 0) that the caller already knows;
 * snprintf convention.  For callers that have made the move anyway. */
int arb__san_format(const arb_position *pos, arb_move m, char mark, char *buf,
                    size_t size) ARB_HIDDEN;
/* Writes "+" or "#" (or nothing) for the legal move m; returns the length. */
size_t arb__check_suffix(const arb_position *pos, arb_move m, char *out) ARB_HIDDEN;

#endif
