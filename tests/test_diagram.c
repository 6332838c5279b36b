/* Arbiter — MIT licence, see LICENSE.
 *
 * test_diagram.c: text diagrams against boards written out by hand, and the structure of the
 * SVG diagram (which squares carry which marks, where the pieces are, the flipped coordinates,
 * the snprintf convention).  tests/cli/svg.sh checks the SVG is well-formed XML (xmllint).
 */
#include <stdio.h>
#include <stdlib.h>

#include "test_util.h"

static char *text_of(const arb_position *pos, unsigned flags) {
  static char buf[ARB_DIAGRAM_TEXT_MAX];
  int n = arb_diagram_text(pos, flags, buf, sizeof buf);
  cr_assert(n > 0 && (size_t)n < sizeof buf);
  cr_assert_eq(strlen(buf), (size_t)n);
  return buf;
}

Test(diagram, ascii_from_white_and_black) {
  /* after 1.e4 e5 2.Nf3 Nc6 3.Bb5 (the Ruy Lopez), written out by hand */
  arb_position pos = test_fen("r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3");
  cr_assert_str_eq(text_of(&pos, ARB_DIAGRAM_COORDS), "8 r . b q k b n r\n"
                                                      "7 p p p p . p p p\n"
                                                      "6 . . n . . . . .\n"
                                                      "5 . B . . p . . .\n"
                                                      "4 . . . . P . . .\n"
                                                      "3 . . . . . N . .\n"
                                                      "2 P P P P . P P P\n"
                                                      "1 R N B Q K . . R\n"
                                                      "  a b c d e f g h\n");
  cr_assert_str_eq(text_of(&pos, ARB_DIAGRAM_COORDS | ARB_DIAGRAM_FLIP), "1 R . . K Q B N R\n"
                                                                         "2 P P P . P P P P\n"
                                                                         "3 . . N . . . . .\n"
                                                                         "4 . . . P . . . .\n"
                                                                         "5 . . . p . . B .\n"
                                                                         "6 . . . . . n . .\n"
                                                                         "7 p p p . p p p p\n"
                                                                         "8 r n b k q b . r\n"
                                                                         "  h g f e d c b a\n");
  cr_assert_str_eq(text_of(&pos, 0), "r . b q k b n r\n"
                                     "p p p p . p p p\n"
                                     ". . n . . . . .\n"
                                     ". B . . p . . .\n"
                                     ". . . . P . . .\n"
                                     ". . . . . N . .\n"
                                     "P P P P . P P P\n"
                                     "R N B Q K . . R\n");
}

Test(diagram, unicode) {
  arb_position pos = test_fen("8/8/8/4k3/8/8/3QK2p/6N1 w - - 0 1");
  cr_assert_str_eq(text_of(&pos, ARB_DIAGRAM_UNICODE | ARB_DIAGRAM_COORDS), "8 · · · · · · · ·\n"
                                                                            "7 · · · · · · · ·\n"
                                                                            "6 · · · · · · · ·\n"
                                                                            "5 · · · · ♚ · · ·\n"
                                                                            "4 · · · · · · · ·\n"
                                                                            "3 · · · · · · · ·\n"
                                                                            "2 · · · ♕ ♔ · · ♟\n"
                                                                            "1 · · · · · · ♘ ·\n"
                                                                            "  a b c d e f g h\n");
  arb_position_startpos(&pos);
  const char *t = text_of(&pos, ARB_DIAGRAM_UNICODE | ARB_DIAGRAM_FLIP);
  cr_assert(!strncmp(t, "♖ ♘ ♗ ♔ ♕ ♗ ♘ ♖\n♙ ♙", strlen("♖ ♘ ♗ ♔ ♕ ♗ ♘ ♖\n♙ ♙")), "%s", t);
}

Test(diagram, text_snprintf_and_errors) {
  arb_position pos;
  arb_position_startpos(&pos);
  char full[ARB_DIAGRAM_TEXT_MAX], small[20];
  int n = arb_diagram_text(&pos, ARB_DIAGRAM_UNICODE | ARB_DIAGRAM_COORDS, full, sizeof full);
  cr_assert_eq(
      arb_diagram_text(&pos, ARB_DIAGRAM_UNICODE | ARB_DIAGRAM_COORDS, small, sizeof small), n);
  cr_assert_eq(strlen(small), sizeof small - 1);
  cr_assert(!strncmp(small, full, sizeof small - 1));
  cr_assert_eq(arb_diagram_text(&pos, 0, NULL, 0), 8 * 16);
  cr_assert_eq(arb_diagram_text(NULL, 0, small, sizeof small), ARB_ERR_ARGUMENT);
  cr_assert_str_eq(small, "");
  cr_assert_eq(arb_diagram_text(&pos, 64, small, sizeof small), ARB_ERR_ARGUMENT);
}

static char svg[ARB_SVG_MAX];

static const char *draw(const arb_position *pos, const arb_svg_options *opt) {
  int n = arb_diagram_svg(pos, opt, svg, sizeof svg);
  cr_assert(n > 0 && (size_t)n < sizeof svg, "%d", n);
  cr_assert_eq(strlen(svg), (size_t)n);
  return svg;
}

static int count(const char *hay, const char *needle) {
  int k = 0;
  for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
    k++;
  return k;
}

/* The <rect> of a square: its class attribute starts with "square". */
static const char *square_rect(const char *doc, const char *name) {
  static char cls[96];
  const char *p = doc;
  while ((p = strstr(p, "class=\"square ")) != NULL) {
    const char *end = strchr(p + 7, '"');
    size_t len = (size_t)(end - (p + 7));
    snprintf(cls, sizeof cls, "%.*s", (int)len, p + 7);
    size_t nl = strlen(name);
    if (len >= nl && !strcmp(cls + len - nl, name) && cls[len - nl - 1] == ' ') return cls;
    p = end;
  }
  return "";
}

/* "x=\"..\" y=\"..\"" of the piece on a square. */
static void piece_xy(const char *doc, const char *cls, int *x, int *y) {
  const char *p = strstr(doc, cls);
  cr_assert_not_null(p, "no %s", cls);
  p = strstr(p, " x=\"");
  cr_assert_eq(sscanf(p, " x=\"%d\" y=\"%d\"", x, y), 2);
}

Test(diagram, svg_marks_squares) {
  /* 1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7#: Black is mated, the king on e8 is in check */
  arb_position before =
      test_fen("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
  arb_move mate = test_uci(&before, "h5f7");
  arb_position pos = before;
  test_play(&pos, "h5f7");
  arb_svg_arrow arrows[2] = {{ARB_SQUARE(2, 3), ARB_SQUARE(5, 6), ARB_SVG_GREEN},
                             {ARB_SQUARE(4, 7), ARB_SQUARE(4, 7), ARB_SVG_RED}};
  arb_svg_options opt = {0, 0, mate, UINT64_C(1) << ARB_SQUARE(3, 4), arrows, 2};
  const char *d = draw(&pos, &opt);
  cr_assert(!strncmp(d, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39));
  cr_assert(strstr(d, "width=\"400\" height=\"400\""));
  cr_assert_str_eq(square_rect(d, "h5"), "square light lastmove h5");
  cr_assert_str_eq(square_rect(d, "f7"), "square light lastmove f7");
  cr_assert_str_eq(square_rect(d, "e8"), "square light check e8");
  cr_assert_str_eq(square_rect(d, "d5"), "square light marked d5");
  cr_assert_str_eq(square_rect(d, "a1"), "square dark a1");
  cr_assert_eq(count(d, "class=\"square "), 64);
  cr_assert_eq(count(d, " lastmove "), 2);
  cr_assert_eq(count(d, " check "), 1);
  cr_assert_eq(count(d, " marked "), 1);
  cr_assert_eq(count(d, "<use class=\"piece "), 31, "32 men less the pawn taken on f7");
  cr_assert(strstr(d, "class=\"piece white queen f7\""));
  cr_assert(strstr(d, "class=\"piece black king e8\""));
  cr_assert(strstr(d, "<g class=\"arrow c4 f7\""));
  cr_assert(strstr(d, "<g class=\"arrow e8 e8\""), "a circle");
  cr_assert_eq(count(d, "class=\"coord\""), 16);
  cr_assert(!strcmp(d + strlen(d) - 7, "</svg>\n"));

  /* no check mark when asked, no coordinates: the board fills the view */
  opt.flags = ARB_SVG_NO_CHECK | ARB_SVG_NO_COORDS;
  opt.size = 200;
  d = draw(&pos, &opt);
  cr_assert_eq(count(d, " check "), 0);
  cr_assert_eq(count(d, "class=\"coord\""), 0);
  cr_assert(strstr(d, "width=\"200\" height=\"200\" viewBox=\"0 0 800 800\""));
}

Test(diagram, svg_flipped_coordinates) {
  arb_position pos;
  arb_position_startpos(&pos);
  int x, y;
  const char *d = draw(&pos, NULL);
  piece_xy(d, "\"piece white rook a1\"", &x, &y);
  cr_assert(x == 40 && y == 700, "a1 bottom left, after the margin: %d %d", x, y);
  piece_xy(d, "\"piece black rook h8\"", &x, &y);
  cr_assert(x == 740 && y == 0, "h8 top right: %d %d", x, y);
  const char *a = strstr(d, ">a</text>"), *h = strstr(d, ">h</text>");
  cr_assert(a && h && a < h, "files a to h from the left");

  arb_svg_options opt = {0, ARB_SVG_FLIP, ARB_MOVE_NONE, 0, NULL, 0};
  d = draw(&pos, &opt);
  piece_xy(d, "\"piece white rook a1\"", &x, &y);
  cr_assert(x == 740 && y == 0, "flipped: a1 top right: %d %d", x, y);
  piece_xy(d, "\"piece black rook h8\"", &x, &y);
  cr_assert(x == 40 && y == 700, "flipped: h8 bottom left: %d %d", x, y);
  /* the letter under the first column is h, the digit beside the top row is 1 */
  const char *first = strstr(d, "class=\"coord\"");
  cr_assert(strstr(first, ">h</text>") < strstr(first, ">a</text>"));
  cr_assert(strstr(first, ">1</text>") < strstr(first, ">8</text>"));
}

Test(diagram, svg_castling_last_move) {
  arb_position before = test_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  arb_move oo = test_uci(&before, "e1g1");
  arb_position pos = before;
  test_play(&pos, "e1g1");
  arb_svg_options opt = {0, 0, oo, 0, NULL, 0};
  const char *d = draw(&pos, &opt);
  cr_assert_str_eq(square_rect(d, "e1"), "square dark lastmove e1");
  cr_assert_str_eq(square_rect(d, "g1"), "square dark lastmove g1", "the king's square, not h1");
  cr_assert_str_eq(square_rect(d, "h1"), "square light h1");
}

Test(diagram, svg_snprintf_and_errors) {
  arb_position pos;
  arb_position_startpos(&pos);
  int n = arb_diagram_svg(&pos, NULL, NULL, 0);
  cr_assert(n > 1000 && n < ARB_SVG_MAX);
  char small[64];
  cr_assert_eq(arb_diagram_svg(&pos, NULL, small, sizeof small), n);
  cr_assert_eq(strlen(small), sizeof small - 1);
  cr_assert(!strncmp(small, draw(&pos, NULL), sizeof small - 1));
  /* the most there can be: every arrow, every square marked, a full board */
  arb_svg_arrow arrows[ARB_SVG_MAX_ARROWS];
  for (int i = 0; i < ARB_SVG_MAX_ARROWS; i++)
    arrows[i] = (arb_svg_arrow){(arb_square)i, (arb_square)(63 - i), (uint8_t)(i & 3)};
  arb_svg_options opt = {8192, 0, test_uci(&pos, "e2e4"), ~UINT64_C(0), arrows, ARB_SVG_MAX_ARROWS};
  n = arb_diagram_svg(&pos, &opt, NULL, 0);
  cr_assert(n > 0 && n < ARB_SVG_MAX, "%d", n);
  opt.size = 15;
  cr_assert_eq(arb_diagram_svg(&pos, &opt, small, sizeof small), ARB_ERR_ARGUMENT);
  cr_assert_str_eq(small, "");
  opt.size = 0;
  opt.arrow_count = ARB_SVG_MAX_ARROWS + 1;
  cr_assert_eq(arb_diagram_svg(&pos, &opt, small, sizeof small), ARB_ERR_ARGUMENT);
  opt.arrow_count = 1;
  arrows[0].to = 64;
  cr_assert_eq(arb_diagram_svg(&pos, &opt, small, sizeof small), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_diagram_svg(NULL, NULL, small, sizeof small), ARB_ERR_ARGUMENT);
}
