/* Arbiter — MIT licence, see LICENSE.
 *
 * dead_cmd.c: `arbiter dead` — FEN lines in, one JSON verdict per line out: is the position
 * dead, and can each side still checkmate (with the proof).  For bulk checks of game databases,
 * e.g. the final positions of games lost on time.  Positions that cannot arise in a game are
 * refused as `query` refuses them, unless accepted (--accept): then analysed, and marked with the
 * problems found.
 */
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "util.h"

static void dead_usage(FILE *out) {
  fprintf(
      out,
      "usage: arbiter dead [--budget NODES] [--accept all|PROBLEM[,PROBLEM...]]\n"
      "\n"
      "Reads positions, one FEN (or EPD, or FEN followed by ';' and anything) per line, and\n"
      "answers each with one JSON line:\n"
      "  {\"line\": N, \"fen\": FEN, \"dead\": BOOL,\n"
      "   \"white\": {\"verdict\", \"proof\", \"line\", \"nodes\"}, \"black\": {...}}\n"
      "verdict: winnable (proof helpmate, with the line in UCI; empty for a mate on the board),\n"
      "unwinnable (proof material, locked_walls, fixed_pawns: pawns that can never move and no\n"
      "square behind them where the king could be mated, pawn_lanes: the same where pawns can\n"
      "still move, only along their files and never capturing, pawn_structures: every pawn\n"
      "structure reachable from the board (pawn moves, captures, promotions) listed, the\n"
      "other men as the squares they could reach, and no mate possible behind any of them,\n"
      "search: every position\n"
      "reachable from the board enumerated, nodes says how many, or game_over: no legal move\n"
      "on the board), or\n"
      "unknown (the search budget ran out).  dead: neither side can mate\n"
      "(FIDE 5.2.2); a side that cannot mate does not lose on time (6.9).\n"
      "Bad lines get {\"line\": N, \"error\": {...}} and the stream goes on; blank lines and\n"
      "lines starting with # are skipped.  A position that cannot arise in a game (the\n"
      "error's \"problems\", as in `arbiter query`: too_much_material, opponent_in_check, ...)\n"
      "is an error unless accepted; an accepted one is analysed, and its answer carries\n"
      "\"problems\": [{\"problem\", \"message\"}, ...].\n"
      "  --budget NODES  search nodes per side (default 500000)\n"
      "  --accept all|PROBLEM,...  FEN problems to accept deliberately (composed positions)\n"
      "Exit status: 0, 2 bad usage.\n");
}

typedef struct dead_opts {
  unsigned long long budget;
  uint32_t accept; /* ARB_FEN_* problems accepted */
} dead_opts;

static char *dead_line(void *ctx, const char *line, size_t len, long lineno, int too_long) {
  const dead_opts *o = ctx;
  json_t *a = json_object();
  json_object_set_new(a, "line", json_integer(lineno));
  while (len && (*line == ' ' || *line == '\t'))
    line++, len--;
  arb_position pos;
  arb_fen_report rep;
  const char *semi = memchr(line, ';', len);
  size_t fen_len = semi ? (size_t)(semi - line) : len;
  arb_status st =
      too_long ? ARB_ERR_FEN_SYNTAX : arb_fen_read_n(&pos, line, fen_len, o->accept, &rep);
  if (st != ARB_OK) {
    json_t *e = json_object();
    json_object_set_new(e, "code", json_string(too_long ? "line_too_long" : arb_status_name(st)));
    json_t *m = json_string(too_long ? "line longer than 4096 bytes" : rep.message);
    json_object_set_new(e, "message", m ? m : json_string("bad text"));
    if (st == ARB_ERR_FEN_INVALID)
      json_object_set_new(e, "problems", arb_query_problems(rep.problems));
    json_object_set_new(a, "error", e);
  } else {
    char fen[ARB_FEN_MAX];
    arb_fen_write(&pos, fen, sizeof fen, 0);
    json_object_set_new(a, "fen", json_string(fen));
    if (rep.problems) json_object_set_new(a, "problems", arb_query_problems(rep.problems));
    json_t *w = arb_query_winnability(&pos, o->budget);
    const char *vw = json_string_value(json_object_get(json_object_get(w, "white"), "verdict"));
    const char *vb = json_string_value(json_object_get(json_object_get(w, "black"), "verdict"));
    json_object_set_new(a, "dead",
                        json_boolean(!strcmp(vw, "unwinnable") && !strcmp(vb, "unwinnable")));
    json_object_update(a, w);
    json_decref(w);
  }
  char *text = json_dumps(a, JSON_COMPACT);
  json_decref(a);
  return text;
}

/* --accept all, or a comma-separated list of problem names: 0, or -1 for an unknown name. */
static int parse_accept(const char *text, uint32_t *accept) {
  if (!strcmp(text, "all")) {
    *accept = ARB_FEN_PROBLEMS_ALL;
    return 0;
  }
  char name[64];
  for (const char *p = text; *p;) {
    size_t n = strcspn(p, ",");
    if (n == 0 || n >= sizeof name) return -1;
    memcpy(name, p, n);
    name[n] = '\0';
    uint32_t bit = arb_query_problem_bit(name);
    if (!bit) return -1;
    *accept |= bit;
    p += n;
    if (*p == ',') p++;
  }
  return 0;
}

int arb_cmd_dead(int argc, char **argv) {
  dead_opts o = {0, 0};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      dead_usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--budget") && i + 1 < argc) {
      char *end;
      o.budget = strtoull(argv[++i], &end, 10);
      if (*end || o.budget == 0) {
        fprintf(stderr, "arbiter dead: --budget wants a positive number\n");
        return 2;
      }
    } else if (!strcmp(argv[i], "--accept") && i + 1 < argc) {
      if (parse_accept(argv[++i], &o.accept) != 0) {
        fprintf(stderr,
                "arbiter dead: --accept wants all or problem names (e.g. "
                "too_much_material,opponent_in_check), not '%s'\n",
                argv[i]);
        return 2;
      }
    } else {
      fprintf(stderr, "arbiter dead: unexpected argument '%s'\n", argv[i]);
      dead_usage(stderr);
      return 2;
    }
  }
  return arb_tool_answer_lines(4096, 1, dead_line, &o);
}
