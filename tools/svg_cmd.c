/* Arbiter — MIT licence, see LICENSE.
 *
 * svg_cmd.c: `arbiter svg` — a position (FEN and/or moves) in, an SVG diagram (or a text one)
 * out: the last move tinted, arrows, circles and marked squares, from either side.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void svg_usage(FILE *out) {
  fprintf(out,
          "usage: arbiter svg [--fen FEN] [--moves MOVES] [--arrow FROMTO[:COLOUR]]...\n"
          "                   [--circle SQUARE[:COLOUR]]... [--square SQUARE]... [--flip]\n"
          "                   [--size PIXELS] [--no-coords] [--no-check] [--no-last-move]\n"
          "                   [--text | --unicode] [-o FILE]\n"
          "\n"
          "Draws the position after MOVES (SAN or UCI, separated by commas or blanks) played from\n"
          "FEN (default the initial position) as an SVG document: the last move is tinted, a king\n"
          "in check glows red, coordinates are in the margin.\n"
          "  --arrow e2e4[:COLOUR]  an arrow; COLOUR green (default), red, blue, yellow; several\n"
          "                         arrows may be given at once, separated by commas\n"
          "  --circle e4[:COLOUR]   a circle round a square\n"
          "  --square e4[,d5...]    tint squares (blue)\n"
          "  --flip                 seen from Black\n"
          "  --size PIXELS          width and height (default 400; 16 .. 8192)\n"
          "  --no-coords, --no-check, --no-last-move   leave those out\n"
          "  --text, --unicode      a text diagram instead (FEN letters or chess symbols)\n"
          "  -o FILE                write to FILE instead of stdout\n"
          "Exit status: 0; 2 bad usage (a bad FEN, move, square or option).\n");
}

static int parse_square(const char *s, arb_square *sq) {
  if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') return 0;
  *sq = ARB_SQUARE(s[0] - 'a', s[1] - '1');
  return 1;
}

/* "e2e4", "e2e4:red", "e4:blue" (circle: circle = 1), several separated by commas. */
static int add_marks(const char *text, int circle, arb_svg_arrow *arrows, int *n) {
  static const char *const colors[4] = {"green", "red", "blue", "yellow"};
  const char *p = text;
  while (*p) {
    size_t len = strcspn(p, ",");
    arb_svg_arrow a = {0, 0, ARB_SVG_GREEN};
    size_t sqlen = circle ? 2 : 4;
    if (len < sqlen || *n >= ARB_SVG_MAX_ARROWS || !parse_square(p, &a.from) ||
        !parse_square(p + sqlen - 2, &a.to))
      return 0;
    if (len > sqlen) {
      if (p[sqlen] != ':') return 0;
      int found = 0;
      for (int c = 0; c < 4; c++)
        if (len - sqlen - 1 == strlen(colors[c]) &&
            !strncmp(p + sqlen + 1, colors[c], strlen(colors[c])))
          a.color = (uint8_t)c, found = 1;
      if (!found) return 0;
    }
    arrows[(*n)++] = a;
    p += len;
    if (*p == ',') p++;
  }
  return 1;
}

static int bad(const char *what, const char *arg) {
  fprintf(stderr, "arbiter svg: bad %s '%s'\n", what, arg);
  return 2;
}

int arb_cmd_svg(int argc, char **argv) {
  const char *fen = NULL, *moves = NULL, *out_name = NULL;
  arb_svg_arrow arrows[ARB_SVG_MAX_ARROWS];
  arb_svg_options opt = {0, 0, ARB_MOVE_NONE, 0, arrows, 0};
  int text = 0, no_last = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      svg_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--flip")) {
      opt.flags |= ARB_SVG_FLIP;
    } else if (!strcmp(a, "--no-coords")) {
      opt.flags |= ARB_SVG_NO_COORDS;
    } else if (!strcmp(a, "--no-check")) {
      opt.flags |= ARB_SVG_NO_CHECK;
    } else if (!strcmp(a, "--no-last-move")) {
      no_last = 1;
    } else if (!strcmp(a, "--text")) {
      text = 1;
    } else if (!strcmp(a, "--unicode")) {
      text = 2;
    } else if (v && !strcmp(a, "--fen")) {
      fen = argv[++i];
    } else if (v && !strcmp(a, "--moves")) {
      moves = argv[++i];
    } else if (v && !strcmp(a, "-o")) {
      out_name = argv[++i];
    } else if (v && (!strcmp(a, "--arrow") || !strcmp(a, "--circle"))) {
      if (!add_marks(argv[++i], a[2] == 'c', arrows, &opt.arrow_count)) return bad(a + 2, argv[i]);
    } else if (v && !strcmp(a, "--square")) {
      for (const char *p = argv[++i]; *p; p += *p == ',') {
        arb_square sq;
        if (!parse_square(p, &sq)) return bad("square", argv[i]);
        opt.squares |= UINT64_C(1) << sq;
        p += 2;
        if (*p && *p != ',') return bad("square", argv[i]);
      }
    } else if (v && !strcmp(a, "--size")) {
      char *end;
      errno = 0;
      long n = strtol(argv[++i], &end, 10);
      if (*end || errno || n < 16 || n > 8192) return bad("size", argv[i]);
      opt.size = (int)n;
    } else {
      fprintf(stderr, "arbiter svg: unexpected argument '%s'\n", a);
      svg_usage(stderr);
      return 2;
    }
  }
  arb_position pos;
  arb_move last;
  arb_tool_setup_error err;
  if (arb_tool_setup(fen, fen ? strlen(fen) : 0, moves, moves ? strlen(moves) : 0, &pos, NULL,
                     &last, &err) != ARB_OK) {
    fprintf(stderr, "arbiter svg: %s\n", err.message);
    return 2;
  }
  if (!no_last) opt.last_move = last;
  static char buf[ARB_SVG_MAX];
  int n = text ? arb_diagram_text(&pos,
                                  ARB_DIAGRAM_COORDS | (text == 2 ? ARB_DIAGRAM_UNICODE : 0u) |
                                      (opt.flags & ARB_SVG_FLIP ? ARB_DIAGRAM_FLIP : 0u),
                                  buf, sizeof buf)
               : arb_diagram_svg(&pos, &opt, buf, sizeof buf);
  if (n < 0 || (size_t)n >= sizeof buf) {
    fprintf(stderr, "arbiter svg: %s\n", arb_strerror(n < 0 ? (arb_status)n : ARB_ERR_BUFFER));
    return 2;
  }
  FILE *out = out_name ? fopen(out_name, "w") : stdout;
  if (!out) {
    fprintf(stderr, "arbiter svg: %s: %s\n", out_name, strerror(errno));
    return 2;
  }
  fwrite(buf, 1, (size_t)n, out);
  if (out != stdout && fclose(out) != 0) {
    fprintf(stderr, "arbiter svg: %s: %s\n", out_name, strerror(errno));
    return 2;
  }
  return 0;
}
