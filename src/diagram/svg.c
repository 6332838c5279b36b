/* Arbiter — MIT licence, see LICENSE.
 *
 * svg.c: SVG diagrams (diagram.h).  The drawing is in units of 1/100 square: the board is
 * 800 x 800, with a 40-unit margin on the left and at the bottom for the coordinates; every
 * number written is an integer, so the output does not depend on the C locale.
 *
 * The pieces are Arbiter's own drawings, made of a few simple shapes each in a 100 x 100 box:
 * a base plate under every piece, a pawn of a ball on a flared stem, a rook of a crenellated
 * tower, a knight's head in profile, a bishop's mitre with its slit and ball, a queen's crown
 * of five points with balls, a king's two-lobed body under a cross.  White pieces are light
 * with dark outlines, black ones dark with light inner lines.
 */
#include <string.h>

#include "arbiter/diagram.h"
#include "clock/clock_internal.h"

#define SQ 100
#define MARGIN 40

/* Each piece: its body (filled, outlined) and its inner lines (stroked only). */
static const struct {
  const char *name, *body, *lines;
} pieces[7] = {
    {"", "", ""},
    {"pawn",
     "<circle cx=\"50\" cy=\"30\" r=\"13\"/>"
     "<path d=\"M40 43h20l-3 8q11 10 13 27h-40q2-17 13-27z\"/>"
     "<rect x=\"22\" y=\"78\" width=\"56\" height=\"10\" rx=\"4\"/>",
     ""},
    {"knight",
     "<path d=\"M32 77h38C73 57 70 35 56 25L54 13L46 22C36 24 28 32 24 44L19 55C21 61 30 62 34 "
     "57L45 50C43 61 35 67 32 77z\"/>"
     "<rect x=\"22\" y=\"78\" width=\"56\" height=\"10\" rx=\"4\"/>",
     "<circle cx=\"41\" cy=\"34\" r=\"3\"/><path d=\"M56 28C64 40 66 56 63 72\"/>"},
    {"bishop",
     "<circle cx=\"50\" cy=\"16\" r=\"6\"/>"
     "<path d=\"M50 24C65 34 69 50 60 62H40C31 50 35 34 50 24z\"/>"
     "<rect x=\"36\" y=\"62\" width=\"28\" height=\"8\" rx=\"3\"/>"
     "<path d=\"M42 70h16l4 8h-24z\"/>"
     "<rect x=\"22\" y=\"78\" width=\"56\" height=\"10\" rx=\"4\"/>",
     "<path d=\"M55 36L46 49\"/>"},
    {"rook",
     "<path d=\"M26 20h10v8h8v-8h12v8h8v-8h10v16l-6 6v28l6 6H26l6-6V42l-6-6z\"/>"
     "<rect x=\"22\" y=\"78\" width=\"56\" height=\"10\" rx=\"4\"/>",
     "<path d=\"M32 42h36M32 70h36\"/>"},
    {"queen",
     "<path d=\"M24 72L14 32L30 50L34 22L44 46L50 16L56 46L66 22L70 50L86 32L76 72z\"/>"
     "<circle cx=\"14\" cy=\"32\" r=\"5\"/><circle cx=\"34\" cy=\"22\" r=\"5\"/>"
     "<circle cx=\"50\" cy=\"15\" r=\"5\"/><circle cx=\"66\" cy=\"22\" r=\"5\"/>"
     "<circle cx=\"86\" cy=\"32\" r=\"5\"/>"
     "<rect x=\"22\" y=\"76\" width=\"56\" height=\"12\" rx=\"4\"/>",
     "<path d=\"M27 64h46\"/>"},
    {"king",
     "<path d=\"M46 5h8v8h8v8h-8v12h-8V21h-8v-8h8z\"/>"
     "<path d=\"M50 36C58 29 74 31 78 43C82 55 72 64 70 72H30C28 64 18 55 22 43C26 31 42 29 50 "
     "36z\"/>"
     "<rect x=\"22\" y=\"75\" width=\"56\" height=\"12\" rx=\"4\"/>",
     "<path d=\"M50 37V72M31 64h38\"/>"},
};

static const char *const arrow_colors[4] = {"#2e8b57", "#c0392b", "#2f6fbf", "#d4a017"};

static void square_name(arb_square sq, char out[3]) {
  out[0] = (char)('a' + ARB_FILE_OF(sq));
  out[1] = (char)('1' + ARB_RANK_OF(sq));
  out[2] = '\0';
}

/* Top-left corner of a square in drawing units. */
static void corner(arb_square sq, int flip, int margin, int *x, int *y) {
  int file = ARB_FILE_OF(sq), rank = ARB_RANK_OF(sq);
  *x = margin + SQ * (flip ? 7 - file : file);
  *y = SQ * (flip ? rank : 7 - rank);
}

static long isqrt(long v) {
  long r = 0;
  while ((r + 1) * (r + 1) <= v)
    r++;
  return r;
}

static void defs(arb__out *o) {
  arb__outf(o, "<defs>");
  for (int c = 0; c < 2; c++)
    for (int t = ARB_PAWN; t <= ARB_KING; t++) {
      const char *fill = c ? "#2b2b2b" : "#fbfaf5", *edge = c ? "#0d0d0d" : "#1c1c1c";
      arb__outf(o, "<g id=\"%s-%s\" fill=\"%s\" stroke=\"%s\"", c ? "black" : "white",
                pieces[t].name, fill, edge);
      arb__outf(o, " stroke-width=\"3.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\">");
      arb__out_bytes(o, pieces[t].body, strlen(pieces[t].body));
      if (pieces[t].lines[0]) {
        arb__outf(o, "<g fill=\"none\" stroke=\"%s\">", c ? "#d8d8d8" : "#1c1c1c");
        arb__out_bytes(o, pieces[t].lines, strlen(pieces[t].lines));
        arb__outf(o, "</g>");
      }
      arb__outf(o, "</g>");
    }
  arb__outf(o, "<radialGradient id=\"check-glow\"><stop offset=\"0\" stop-color=\"#ff2020\"/>"
               "<stop offset=\"0.5\" stop-color=\"#e01010\" stop-opacity=\"0.75\"/>"
               "<stop offset=\"1\" stop-color=\"#a00000\" stop-opacity=\"0\"/>"
               "</radialGradient></defs>");
}

static void arrow(arb__out *o, const arb_svg_arrow *a, int flip, int margin) {
  int x1, y1, x2, y2;
  corner(a->from, flip, margin, &x1, &y1);
  corner(a->to, flip, margin, &x2, &y2);
  x1 += SQ / 2, y1 += SQ / 2, x2 += SQ / 2, y2 += SQ / 2;
  char f[3], t[3];
  square_name(a->from, f);
  square_name(a->to, t);
  const char *color = arrow_colors[a->color & 3];
  arb__outf(o, "<g class=\"arrow %s %s\" opacity=\"0.8\">", f, t);
  if (a->from == a->to) {
    arb__outf(o,
              "<circle cx=\"%d\" cy=\"%d\" r=\"44\" fill=\"none\" stroke=\"%s\" "
              "stroke-width=\"8\"/></g>",
              x1, y1, color);
    return;
  }
  long dx = x2 - x1, dy = y2 - y1, len = isqrt(dx * dx + dy * dy);
  /* the head: 45 long, 70 wide at its base; the tip stops short of the target's centre */
  long tipx = x2 - dx * 15 / len, tipy = y2 - dy * 15 / len;
  long bx = tipx - dx * 45 / len, by = tipy - dy * 45 / len;
  long wx = -dy * 35 / len, wy = dx * 35 / len;
  arb__outf(o,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%ld\" y2=\"%ld\" stroke=\"%s\" "
            "stroke-width=\"20\" stroke-linecap=\"round\"/>",
            x1, y1, bx, by, color);
  arb__outf(o, "<polygon points=\"%ld,%ld %ld,%ld %ld,%ld\" fill=\"%s\"/></g>", tipx, tipy, bx + wx,
            by + wy, bx - wx, by - wy, color);
}

int arb_diagram_svg(const arb_position *pos, const arb_svg_options *options, char *buf,
                    size_t size) {
  arb__out o;
  arb__out_init(&o, buf, size);
  static const arb_svg_options plain = {0, 0, ARB_MOVE_NONE, 0, NULL, 0};
  const arb_svg_options *opt = options ? options : &plain;
  int px = opt->size ? opt->size : 400;
  if (!pos || px < 16 || px > 8192 || opt->arrow_count < 0 ||
      opt->arrow_count > ARB_SVG_MAX_ARROWS || (opt->arrow_count && !opt->arrows))
    return ARB_ERR_ARGUMENT;
  for (int i = 0; i < opt->arrow_count; i++)
    if (opt->arrows[i].from > 63 || opt->arrows[i].to > 63) return ARB_ERR_ARGUMENT;
  int flip = (opt->flags & ARB_SVG_FLIP) != 0, coords = !(opt->flags & ARB_SVG_NO_COORDS);
  int margin = coords ? MARGIN : 0, extent = 8 * SQ + margin;

  /* the tinted squares */
  arb_bitboard last = 0, check = 0;
  arb_move m = opt->last_move;
  if (m != ARB_MOVE_NONE && m != ARB_MOVE_NULL) {
    arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
    if (ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING && !pos->chess960)
      to = ARB_SQUARE(ARB_FILE_OF(to) > ARB_FILE_OF(from) ? 6 : 2, ARB_RANK_OF(from));
    last = UINT64_C(1) << from | UINT64_C(1) << to;
  }
  if (!(opt->flags & ARB_SVG_NO_CHECK) && arb_in_check(pos))
    check = UINT64_C(1) << arb_king_square(pos, (arb_color)pos->turn);

  arb__outf(&o,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" "
            "xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\">",
            px, px, extent, extent);
  defs(&o);
  if (coords)
    arb__outf(&o, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#3a3a3a\"/>", extent,
              extent);
  for (arb_square sq = 0; sq < 64; sq++) {
    int x, y;
    corner(sq, flip, margin, &x, &y);
    int light = (ARB_FILE_OF(sq) + ARB_RANK_OF(sq)) & 1;
    char name[3];
    square_name(sq, name);
    arb_bitboard bit = UINT64_C(1) << sq;
    const char *tint = bit & opt->squares ? "#4f8fd8" : bit & last ? "#d9c83a" : NULL;
    arb__outf(&o,
              "<rect class=\"square %s%s%s%s %s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
              "fill=\"%s\"/>",
              light ? "light" : "dark", bit & last ? " lastmove" : "",
              bit & opt->squares ? " marked" : "", bit & check ? " check" : "", name, x, y, SQ, SQ,
              light ? "#efe3c8" : "#b48a63");
    if (tint)
      arb__outf(&o,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                "fill-opacity=\"0.55\"/>",
                x, y, SQ, SQ, tint);
    if (bit & check)
      arb__outf(&o,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"url(#check-glow)\"/>", x,
                y, SQ, SQ);
  }
  if (coords)
    for (int i = 0; i < 8; i++) {
      int file = flip ? 7 - i : i, rank = flip ? i : 7 - i;
      arb__outf(&o,
                "<text class=\"coord\" x=\"%d\" y=\"%d\" font-family=\"sans-serif\" "
                "font-size=\"28\" font-weight=\"bold\" fill=\"#e8e8e8\" "
                "text-anchor=\"middle\">%c</text>",
                margin + SQ * i + SQ / 2, 8 * SQ + 30, 'a' + file);
      arb__outf(&o,
                "<text class=\"coord\" x=\"%d\" y=\"%d\" font-family=\"sans-serif\" "
                "font-size=\"28\" font-weight=\"bold\" fill=\"#e8e8e8\" "
                "text-anchor=\"middle\">%c</text>",
                margin / 2, SQ * i + SQ / 2 + 10, '1' + rank);
    }
  for (arb_square sq = 0; sq < 64; sq++) {
    arb_piece p = pos->board[sq];
    if (p == ARB_NO_PIECE || ARB_PIECE_TYPE(p) < ARB_PAWN || ARB_PIECE_TYPE(p) > ARB_KING) continue;
    int x, y;
    corner(sq, flip, margin, &x, &y);
    char name[3];
    square_name(sq, name);
    const char *color = ARB_PIECE_COLOR(p) == ARB_WHITE ? "white" : "black";
    const char *type = pieces[ARB_PIECE_TYPE(p)].name;
    arb__outf(&o, "<use class=\"piece %s %s %s\" xlink:href=\"#%s-%s\" x=\"%d\" y=\"%d\"/>", color,
              type, name, color, type, x, y);
  }
  for (int i = 0; i < opt->arrow_count; i++)
    arrow(&o, &opt->arrows[i], flip, margin);
  arb__outf(&o, "</svg>\n");
  return arb__out_result(&o);
}
