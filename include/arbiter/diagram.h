/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * diagram.h: pictures of a position — a text diagram (ASCII or Unicode chess symbols, from
 * either side, with coordinates) and an SVG diagram (coordinates, the last move, a king in
 * check, arrows, highlighted squares, from either side, any size), with piece drawings of
 * Arbiter's own.
 *
 * Ownership: callers own the position, the options and the buffer.  Output follows snprintf:
 * at most `size` bytes are written including the terminating NUL, and the return value is the
 * length the whole text needs (excluding the NUL), so a return value >= size means the output
 * was cut; call again with a buffer of return value + 1 bytes.  Nothing allocates.
 * Thread-safety: every function is reentrant.
 * Errors: ARB_ERR_ARGUMENT (negative, empty output) for a NULL position or a bad option.
 */
#ifndef ARBITER_DIAGRAM_H
#define ARBITER_DIAGRAM_H

#include "arbiter/position.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- text ---- */

#define ARB_DIAGRAM_UNICODE                                                                        \
  1u                          /* chess symbols U+2654-U+265F and U+00B7 for an empty square        \
                                 (UTF-8) instead of FEN letters and '.' */
#define ARB_DIAGRAM_FLIP 2u   /* seen from Black: rank 1 at the top, the h-file on the left */
#define ARB_DIAGRAM_COORDS 4u /* rank digits on the left, file letters under the board */

/* Eight lines, one per rank from the viewer's far side, squares separated by a blank and each
 * line ending in '\n' (plus a ninth line of file letters with ARB_DIAGRAM_COORDS):
 *
 *   8 r n b q k b n r
 *   ...
 *   1 R N B Q K B N R
 *     a b c d e f g h
 *
 * At most ARB_DIAGRAM_TEXT_MAX bytes with the NUL. */
#define ARB_DIAGRAM_TEXT_MAX 512
ARB_API int arb_diagram_text(const arb_position *pos, unsigned flags, char *buf, size_t size);

/* ---- SVG ---- */

/* Arrow (and circle) colours. */
typedef enum arb_svg_color {
  ARB_SVG_GREEN = 0,
  ARB_SVG_RED = 1,
  ARB_SVG_BLUE = 2,
  ARB_SVG_YELLOW = 3
} arb_svg_color;

/* An arrow from one square to another; from == to draws a circle round the square. */
typedef struct arb_svg_arrow {
  arb_square from, to;
  uint8_t color; /* arb_svg_color */
} arb_svg_arrow;

#define ARB_SVG_FLIP 1u      /* seen from Black */
#define ARB_SVG_NO_COORDS 2u /* no file letters and rank digits (and no margin for them) */
#define ARB_SVG_NO_CHECK 4u  /* do not mark the king of the side to move when it is in check */

/* What to draw besides the pieces.  A zeroed struct (or NULL) is a plain 400-pixel diagram with
 * coordinates and the check marked. */
typedef struct arb_svg_options {
  int size;                    /* width and height in pixels, 0 for 400; else 16 .. 8192 */
  unsigned flags;              /* ARB_SVG_* */
  arb_move last_move;          /* the move that led to pos (its from and to squares are tinted;
                                  castling, king-takes-rook, tints the king's two squares in standard
                                  chess and the king and rook squares in Chess960); ARB_MOVE_NONE */
  arb_bitboard squares;        /* squares to tint (blue) */
  const arb_svg_arrow *arrows; /* arrow_count arrows drawn over the pieces, in order */
  int arrow_count;             /* 0 .. ARB_SVG_MAX_ARROWS */
} arb_svg_options;
#define ARB_SVG_MAX_ARROWS 64

/* A standalone SVG 1.1 document (UTF-8, one root <svg>, viewBox in units of 1/100 square):
 * every square is a <rect> with class "square light|dark NAME" plus "lastmove", "marked" and
 * "check" where those apply; pieces are <use> elements of class "piece COLOUR TYPE NAME"
 * (e.g. "piece white king e1"); coordinates are <text> of class "coord"; arrows are <g> of
 * class "arrow FROM TO".  Under 64 KiB for any options (ARB_SVG_MAX bytes with the NUL).
 * ARB_ERR_ARGUMENT for NULL pos, a size out of range, an arrow count out of range or an arrow
 * with a square off the board. */
#define ARB_SVG_MAX 65536
ARB_API int arb_diagram_svg(const arb_position *pos, const arb_svg_options *options, char *buf,
                            size_t size);

#ifdef __cplusplus
}
#endif
#endif
