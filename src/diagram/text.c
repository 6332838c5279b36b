/* Arbiter — MIT licence, see LICENSE.
 *
 * text.c: text diagrams (diagram.h), ASCII or Unicode, from either side.
 */
#include "arbiter/diagram.h"
#include "clock/clock_internal.h"

/* FEN letter and UTF-8 symbol per piece code (index: the arb_piece value). */
static const char letters[16] = ".PNBRQK??pnbrqk?";
static const char *const symbols[16] = {"\xc2\xb7",
                                        "\xe2\x99\x99",
                                        "\xe2\x99\x98",
                                        "\xe2\x99\x97",
                                        "\xe2\x99\x96",
                                        "\xe2\x99\x95",
                                        "\xe2\x99\x94",
                                        "?",
                                        "?",
                                        "\xe2\x99\x9f",
                                        "\xe2\x99\x9e",
                                        "\xe2\x99\x9d",
                                        "\xe2\x99\x9c",
                                        "\xe2\x99\x9b",
                                        "\xe2\x99\x9a",
                                        "?"};

int arb_diagram_text(const arb_position *pos, unsigned flags, char *buf, size_t size) {
  arb__out o;
  arb__out_init(&o, buf, size);
  if (!pos || flags > (ARB_DIAGRAM_UNICODE | ARB_DIAGRAM_FLIP | ARB_DIAGRAM_COORDS))
    return ARB_ERR_ARGUMENT;
  int flip = (flags & ARB_DIAGRAM_FLIP) != 0, coords = (flags & ARB_DIAGRAM_COORDS) != 0;
  for (int row = 0; row < 8; row++) {
    int rank = flip ? row : 7 - row;
    if (coords) arb__outf(&o, "%c ", '1' + rank);
    for (int col = 0; col < 8; col++) {
      int file = flip ? 7 - col : col;
      arb_piece p = pos->board[ARB_SQUARE(file, rank)] & 15;
      if (flags & ARB_DIAGRAM_UNICODE)
        arb__outf(&o, "%s", symbols[p]);
      else
        arb__out_bytes(&o, &letters[p], 1);
      arb__out_bytes(&o, col < 7 ? " " : "\n", 1);
    }
  }
  if (coords) {
    arb__out_bytes(&o, " ", 1);
    for (int col = 0; col < 8; col++)
      arb__outf(&o, " %c", 'a' + (flip ? 7 - col : col));
    arb__out_bytes(&o, "\n", 1);
  }
  return arb__out_result(&o);
}
