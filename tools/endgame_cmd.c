/* Arbiter — MIT licence, see LICENSE.
 *
 * endgame_cmd.c: `arbiter endgame` — positions in (FEN lines, or JSON lines {"fen": ...}), one
 * JSON answer per line out: win, draw or loss for the side to move, the distance to mate and the
 * best moves, from the library's exact tables (arbiter/endgame.h), each built the first time a
 * position needs it.  `--stats TABLE` prints a table's figures.  This file only translates.
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_LINE 65536

static void endgame_usage(FILE *out) {
  fprintf(out,
          "usage: arbiter endgame [FILE...]\n"
          "       arbiter endgame --stats KQK|KRK|KPK|KBNK\n"
          "\n"
          "Exact endgame tables, built in memory by retrograde analysis: king and queen, king\n"
          "and rook, king and pawn, king, bishop and knight against a lone king (the strong\n"
          "side of either colour).  Reads positions from the FILEs (or standard input; '-' is\n"
          "standard input), one per line: a FEN, or a JSON object {\"fen\": FEN}, and answers\n"
          "each with one JSON line:\n"
          "  {\"input\" (its line number), \"file\" (when files are given), \"fen\", \"table\",\n"
          "   \"result\" (\"win\", \"draw\" or \"loss\" for the side to move),\n"
          "   \"dtm\" (moves to mate: the winner's moves, \"mate in N\"; for the side that\n"
          "   loses, the moves until it is mated, 0 when checkmated; null for a draw),\n"
          "   \"plies\", \"best\" (UCI, sorted), \"best_san\" (the same order)}\n"
          "best: for a win every move that keeps the shortest mate, for a loss every move that\n"
          "delays mate longest, for a draw every move that keeps the draw.  Stalemate is a\n"
          "draw; captures and promotions lead into the smaller endings exactly; repetitions\n"
          "and the 50-move rule are not applied (as in published mate-distance tables).\n"
          "A position no table covers (other material, castling rights) or a bad line gets\n"
          "{\"input\": N, \"error\": {\"code\", \"message\"}} and the stream goes on; blank lines\n"
          "and lines starting with # are skipped.\n"
          "  --stats TABLE  build TABLE and print, as one JSON line, its legal positions (White\n"
          "                 the strong side, no symmetry folding), wins, draws and losses for\n"
          "                 each side to move, the longest mate and a position with it\n"
          "Building KBNK takes a few seconds and 32 MB; the others a fraction of a second.\n"
          "Exit status: 0, 1 when some line got an error, 2 bad usage.\n");
}

static const char *const table_names[] = {"KQK", "KRK", "KPK", "KBNK"};
#define NTABLES 4

typedef struct eg_ctx {
  arb_endgame *tables[NTABLES];
  const char *file; /* NULL: standard input without files named */
  int errors;
  int no_memory;
} eg_ctx;

static char *error_answer(eg_ctx *c, long lineno, const char *code, const char *message) {
  c->errors++;
  json_t *a = json_object(), *e = json_object();
  json_object_set_new(a, "input", json_integer(lineno));
  if (c->file) json_object_set_new(a, "file", json_string(c->file));
  json_object_set_new(e, "code", json_string(code));
  json_t *m = json_string(message);
  json_object_set_new(e, "message", m ? m : json_string("(not UTF-8)"));
  json_object_set_new(a, "error", e);
  char *text = json_dumps(a, JSON_COMPACT);
  json_decref(a);
  return text;
}

static arb_endgame *table_for(eg_ctx *c, const char *name) {
  for (int i = 0; i < NTABLES; i++)
    if (!strcmp(table_names[i], name)) {
      if (!c->tables[i]) c->tables[i] = arb_endgame_new(name, NULL);
      return c->tables[i];
    }
  return NULL;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *answer_line(eg_ctx *c, const char *line, size_t len, long lineno, int too_long) {
  if (too_long) return error_answer(c, lineno, "line_too_long", "line longer than 65536 bytes");
  while (len && (*line == ' ' || *line == '\t'))
    line++, len--;
  arb_position pos;
  arb_fen_report rep;
  arb_status st;
  if (len && line[0] == '{') {
    json_error_t jerr;
    json_t *req = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!json_is_object(req)) {
      json_decref(req);
      char msg[256];
      snprintf(msg, sizeof msg, "%s (column %d)", jerr.text, jerr.column);
      return error_answer(c, lineno, "json", msg);
    }
    const char *fen = json_string_value(json_object_get(req, "fen"));
    if (!fen) {
      json_decref(req);
      return error_answer(c, lineno, "bad_request", "\"fen\" (a string) is required");
    }
    st = arb_fen_read(&pos, fen, 0, &rep);
    json_decref(req);
  } else {
    st = arb_fen_read_n(&pos, line, len, 0, &rep);
  }
  if (st != ARB_OK) return error_answer(c, lineno, arb_status_name(st), rep.message);
  const char *name = arb_endgame_material_of(&pos);
  if (!name)
    return error_answer(c, lineno, "no_table",
                        "no table covers this material: the tables are KQK, KRK, KPK and KBNK "
                        "(either colour the strong side)");
  if (pos.castling_rooks)
    return error_answer(c, lineno, "no_table", "the tables hold positions without castling rights");
  arb_endgame *eg = table_for(c, name);
  if (!eg) {
    c->no_memory = 1;
    return error_answer(c, lineno, "no_memory", "out of memory building the table");
  }
  arb_endgame_result r;
  st = arb_endgame_probe(eg, &pos, &r);
  if (st != ARB_OK) return error_answer(c, lineno, arb_status_name(st), arb_strerror(st));
  json_t *a = json_object();
  char fen[ARB_FEN_MAX];
  arb_fen_write(&pos, fen, sizeof fen, 0);
  json_object_set_new(a, "input", json_integer(lineno));
  if (c->file) json_object_set_new(a, "file", json_string(c->file));
  json_object_set_new(a, "fen", json_string(fen));
  json_object_set_new(a, "table", json_string(name));
  json_object_set_new(a, "result", json_string(arb_endgame_wdl_name(r.wdl)));
  json_object_set_new(a, "dtm", r.wdl == ARB_ENDGAME_DRAW ? json_null() : json_integer(r.dtm));
  json_object_set_new(a, "plies", r.wdl == ARB_ENDGAME_DRAW ? json_null() : json_integer(r.plies));
  char uci[ARB_ENDGAME_MAX_BEST][8], *order[ARB_ENDGAME_MAX_BEST];
  for (int i = 0; i < r.nbest; i++) {
    arb_uci_write(&pos, r.best[i], uci[i], sizeof uci[i]);
    order[i] = uci[i];
  }
  qsort(order, (size_t)r.nbest, sizeof order[0], cmp_str);
  json_t *best = json_array(), *sans = json_array();
  for (int k = 0; k < r.nbest; k++) {
    int i = (int)((order[k] - uci[0]) / (long)sizeof uci[0]);
    char san[ARB_SAN_MAX];
    arb_san_write(&pos, r.best[i], san, sizeof san);
    json_array_append_new(best, json_string(uci[i]));
    json_array_append_new(sans, json_string(san));
  }
  json_object_set_new(a, "best", best);
  json_object_set_new(a, "best_san", sans);
  char *text = json_dumps(a, JSON_COMPACT);
  json_decref(a);
  return text;
}

static char *answer_one(void *ctx, const char *line, size_t len, long lineno, int too_long) {
  return answer_line(ctx, line, len, lineno, too_long);
}

static json_t *side_stats(const arb_endgame_stats *s, int k) {
  return json_pack("{s:I,s:I,s:I,s:I,s:i,s:s}", "positions", (json_int_t)s->positions[k], "wins",
                   (json_int_t)s->wins[k], "draws", (json_int_t)s->draws[k], "losses",
                   (json_int_t)s->losses[k], "longest", s->longest[k], "longest_fen",
                   s->longest_fen[k]);
}

static int print_stats(const char *name) {
  int known = 0;
  for (int i = 0; i < NTABLES; i++)
    known |= !strcmp(table_names[i], name);
  if (!known) {
    fprintf(stderr, "arbiter endgame: --stats takes KQK, KRK, KPK or KBNK, not '%s'\n", name);
    return 2;
  }
  double t0 = arb_tool_now();
  arb_status st;
  arb_endgame *eg = arb_endgame_new(name, &st);
  double t1 = arb_tool_now();
  if (!eg) {
    fprintf(stderr, "arbiter endgame: %s: %s\n", name, arb_strerror(st));
    return 1;
  }
  arb_endgame_stats s;
  arb_endgame_stats_of(eg, &s);
  json_t *a = json_object();
  json_object_set_new(a, "table", json_string(name));
  json_object_set_new(a, "build_ms", json_integer((json_int_t)((t1 - t0) * 1000 + 0.5)));
  json_object_set_new(a, "white_to_move", side_stats(&s, 0));
  json_object_set_new(a, "black_to_move", side_stats(&s, 1));
  char *text = json_dumps(a, JSON_COMPACT);
  json_decref(a);
  puts(text);
  free(text);
  arb_endgame_free(eg);
  return 0;
}

int arb_cmd_endgame(int argc, char **argv) {
  const char *stats = NULL;
  int first_file = argc;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      endgame_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--stats") && i + 1 < argc) {
      stats = argv[++i];
    } else if (!strcmp(a, "--")) {
      first_file = i + 1;
      break;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "arbiter endgame: unexpected argument '%s'\n", a);
      endgame_usage(stderr);
      return 2;
    } else {
      first_file = i;
      break;
    }
  }
  if (stats) {
    if (first_file < argc) {
      fprintf(stderr, "arbiter endgame: --stats reads no positions\n");
      return 2;
    }
    return print_stats(stats);
  }
  eg_ctx c;
  memset(&c, 0, sizeof c);
  int rc = 0;
  if (first_file >= argc) {
    arb_tool_answer_stream(stdin, MAX_LINE, 1, answer_one, &c);
  } else {
    for (int i = first_file; i < argc; i++) {
      FILE *in = strcmp(argv[i], "-") ? fopen(argv[i], "r") : stdin;
      if (!in) {
        fprintf(stderr, "arbiter endgame: cannot open '%s'\n", argv[i]);
        rc = 1;
        continue;
      }
      c.file = argv[i];
      arb_tool_answer_stream(in, MAX_LINE, 1, answer_one, &c);
      if (in != stdin) fclose(in);
    }
  }
  for (int i = 0; i < NTABLES; i++)
    arb_endgame_free(c.tables[i]);
  if (c.errors) {
    fprintf(stderr, "arbiter endgame: %d line%s could not be answered\n", c.errors,
            c.errors == 1 ? "" : "s");
    rc = 1;
  }
  return rc;
}
