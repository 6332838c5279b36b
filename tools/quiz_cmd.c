/* Arbiter — MIT licence, see LICENSE.
 *
 * quiz_cmd.c: `arbiter quiz make|check` — the rules quiz bank as JSON lines.  The items and
 * their answers are the library's (arb_quiz_make, arb_quiz_derive, arb_quiz_check_item); this
 * file reads games for positions, and turns items into JSON and back.
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quiz_json.h"
#include "util.h"

static void quiz_usage(FILE *out) {
  fprintf(out,
          "usage: arbiter quiz make [--topic T]... [--count N] [--seed S] [--from FILE.pgn]...\n"
          "                         [-o FILE.jsonl]\n"
          "       arbiter quiz check FILE.jsonl [--json]\n"
          "       arbiter quiz topics\n"
          "\n"
          "make: writes rules-quiz items as JSON lines, spread evenly over the templates of the\n"
          "topics asked for (all by default), positions taken from the games' main lines where a\n"
          "template wants a real game.  Every answer, explanation, article and highlighted square\n"
          "is derived by the library from the item's inputs (position, moves, clock, event log,\n"
          "rule set); an item: id, topic, template, difficulty (1-5), kind (choice or move),\n"
          "rules, fen, start_fen and moves (where history matters), move, clock, events,\n"
          "question, choices, answer, explanation, articles, squares, arrows, source.\n"
          "  --topic T       movement castling en-passant promotion mate-stalemate threefold\n"
          "                  fivefold fifty-move dead-position agreement flag touch-move\n"
          "                  illegal-move scoresheet online (repeatable)\n"
          "  --count N       items wanted (default 600)\n"
          "  --seed S        the random seed (default 1): the same seed and games, the same bank\n"
          "  --from FILE     a PGN file of games to take positions from (repeatable)\n"
          "  -o FILE         output (default stdout)\n"
          "\n"
          "check: derives every item again from its inputs alone and compares the answer, the\n"
          "choices, the explanation, the articles, the kind and the difficulty; prints each item\n"
          "that differs or does not read (with its line) and a summary per topic; --json: one\n"
          "JSON line per item instead.\n"
          "topics: the topics and their templates.\n"
          "Exit status: 0; 1 when check finds an item that differs or does not read; 2 bad\n"
          "usage.\n");
}

/* ---- make ---- */

#define MAX_GAME_PLIES 600

typedef struct reader {
  arb_quiz_game *games;
  arb_move *moves; /* one block per game */
  size_t n, cap;
  char (*sources)[96];
  arb_move **blocks; /* the games' moves, owned */
  arb_position start;
  int plies, bad;
  arb_move cur[MAX_GAME_PLIES];
  char site[96];
} reader;

static int r_begin(void *ctx, uint64_t n, uint64_t line) {
  reader *r = ctx;
  (void)n;
  (void)line;
  r->plies = 0;
  r->bad = 0;
  r->site[0] = 0;
  return 0;
}

static int r_tag(void *ctx, const char *name, size_t nl, const char *value, size_t vl) {
  reader *r = ctx;
  (void)nl;
  if (!strcmp(name, "Site") && !strncmp(value, "http", 4) && vl < sizeof r->site)
    memcpy(r->site, value, vl + 1);
  return 0;
}

static int r_moves(void *ctx, const arb_position *start) {
  ((reader *)ctx)->start = *start;
  return 0;
}

static int r_move(void *ctx, const arb_pgn_move *mv) {
  reader *r = ctx;
  if (mv->depth) return 0;
  if (mv->move == ARB_MOVE_NULL || r->plies >= MAX_GAME_PLIES)
    r->bad = 1;
  else
    r->cur[r->plies++] = mv->move;
  return 0;
}

static void r_end(void *ctx, const arb_pgn_game_end *end) {
  reader *r = ctx;
  if (end->skipped || end->errors || r->bad || r->plies < 2) return;
  if (r->n == r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 256;
    arb_quiz_game *g = realloc(r->games, cap * sizeof *g);
    if (!g) return;
    r->games = g;
    char(*s)[96] = realloc(r->sources, cap * sizeof *s);
    if (!s) return;
    r->sources = s;
    arb_move **b = realloc(r->blocks, cap * sizeof *b);
    if (!b) return;
    r->blocks = b;
    r->cap = cap;
  }
  arb_move *ms = malloc((size_t)r->plies * sizeof *ms);
  if (!ms) return;
  memcpy(ms, r->cur, (size_t)r->plies * sizeof *ms);
  memcpy(r->sources[r->n], r->site, sizeof r->site);
  r->blocks[r->n] = ms;
  r->games[r->n] = (arb_quiz_game){r->start, ms, r->plies, NULL};
  r->n++;
}

static int cmd_make(int argc, char **argv) {
  arb_quiz_options o = {0, 600, 1, NULL, 0};
  const char *out_path = NULL;
  reader r;
  memset(&r, 0, sizeof r);
  arb_pgn_visitor v = {&r, r_begin, r_tag, r_moves, r_move, NULL, NULL, NULL, NULL, r_end, NULL};
  arb_pgn_options po = {ARB_PGN_NO_VARIATIONS, ARB_RULES_FIDE, 0, 0};
  int rc = 0;
  for (int i = 2; i < argc && !rc; i++) {
    const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--topic") && val) {
      arb_quiz_topic t;
      if (arb_quiz_topic_parse(val, &t) != ARB_OK) {
        fprintf(stderr, "arbiter quiz make: unknown topic '%s' (arbiter quiz topics lists them)\n",
                val);
        rc = 2;
      }
      o.topics |= 1u << t;
      i++;
    } else if (!strcmp(a, "--count") && val) {
      char *end;
      long n = strtol(val, &end, 10);
      if (*end || n < 1 || n > 100000) {
        fprintf(stderr, "arbiter quiz make: --count wants 1..100000, not '%s'\n", val);
        rc = 2;
      }
      o.count = (int)n;
      i++;
    } else if (!strcmp(a, "--seed") && val) {
      char *end;
      o.seed = strtoull(val, &end, 10);
      if (*end) {
        fprintf(stderr, "arbiter quiz make: --seed wants a number, not '%s'\n", val);
        rc = 2;
      }
      i++;
    } else if (!strcmp(a, "--from") && val) {
      FILE *f = fopen(val, "r");
      if (!f) {
        fprintf(stderr, "arbiter quiz make: cannot read %s\n", val);
        rc = 2;
      } else {
        arb_tool_pgn_read(f, &po, &v);
        fclose(f);
      }
      i++;
    } else if (!strcmp(a, "-o") && val) {
      out_path = val;
      i++;
    } else {
      fprintf(stderr, "arbiter quiz make: unknown or incomplete option '%s'\n", a);
      rc = 2;
    }
  }
  for (size_t i = 0; i < r.n; i++)
    r.games[i].source = r.sources[i];
  o.games = r.games;
  o.ngames = r.n;
  arb_quiz_item *items = rc ? NULL : calloc((size_t)o.count, sizeof *items);
  size_t made = 0;
  if (!rc && !items) {
    fprintf(stderr, "arbiter quiz make: out of memory\n");
    rc = 1;
  }
  if (!rc && arb_quiz_make(&o, items, (size_t)o.count, &made) != ARB_OK) {
    fprintf(stderr, "arbiter quiz make: the options make no items\n");
    rc = 2;
  }
  FILE *out = stdout;
  if (!rc && out_path && !(out = fopen(out_path, "w"))) {
    fprintf(stderr, "arbiter quiz make: cannot write %s\n", out_path);
    rc = 1;
  }
  if (!rc) {
    int per[ARB_QUIZ_TOPIC_COUNT] = {0};
    for (size_t i = 0; i < made; i++) {
      json_t *j = arb_tool_quiz_item_json(&items[i]);
      char *s = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER);
      if (s) fprintf(out, "%s\n", s);
      free(s);
      json_decref(j);
      per[items[i].topic]++;
    }
    if (out != stdout) fclose(out);
    fprintf(stderr, "arbiter quiz make: %zu items from %zu games:", made, r.n);
    for (int t = 0; t < ARB_QUIZ_TOPIC_COUNT; t++)
      if (per[t]) fprintf(stderr, " %s %d", arb_quiz_topic_name((arb_quiz_topic)t), per[t]);
    fprintf(stderr, "\n");
  }
  free(items);
  for (size_t i = 0; i < r.n; i++)
    free(r.blocks[i]);
  free(r.blocks);
  free(r.games);
  free(r.sources);
  return rc;
}

/* ---- check ---- */

static int cmd_check(int argc, char **argv) {
  const char *path = NULL;
  int as_json = 0;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--json"))
      as_json = 1;
    else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "arbiter quiz check: unknown option '%s'\n", argv[i]);
      return 2;
    } else if (path) {
      fprintf(stderr, "arbiter quiz check: one file, not '%s' too\n", argv[i]);
      return 2;
    } else
      path = argv[i];
  }
  if (!path) {
    fprintf(stderr, "arbiter quiz check: which file? (arbiter quiz check FILE.jsonl)\n");
    return 2;
  }
  FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
  if (!f) {
    fprintf(stderr, "arbiter quiz check: cannot read %s\n", path);
    return 2;
  }
  arb_quiz_item *it = malloc(sizeof *it);
  if (!it) {
    if (f != stdin) fclose(f);
    return 1;
  }
  char *line = NULL;
  size_t cap = 0;
  long lineno = 0, total = 0, bad = 0;
  int per[ARB_QUIZ_TOPIC_COUNT] = {0};
  int too_long;
  long len;
  while ((len = arb_tool_read_line(f, &line, &cap, 1 << 16, &too_long)) >= 0) {
    lineno++;
    if (!len) continue;
    total++;
    char why[400] = "";
    json_error_t je;
    json_t *j = too_long ? NULL : json_loadb(line, (size_t)len, 0, &je);
    int ok = 0;
    if (too_long)
      snprintf(why, sizeof why, "the line is longer than 65536 bytes");
    else if (!j)
      snprintf(why, sizeof why, "not JSON: %s at column %d", je.text, je.column);
    else if (!arb_tool_quiz_item_read(j, it, why, sizeof why))
      ok = arb_quiz_check_item(it, why, sizeof why);
    const char *id = j ? json_string_value(json_object_get(j, "id")) : NULL;
    if (ok)
      per[it->topic]++;
    else
      bad++;
    if (as_json) {
      json_t *o = json_pack("{s:i,s:s?,s:b}", "line", (int)lineno, "id", id, "ok", ok);
      if (!ok) json_object_set_new(o, "error", json_string(why));
      char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
      if (s) printf("%s\n", s);
      free(s);
      json_decref(o);
    } else if (!ok) {
      printf("%s:%ld: %s: %s\n", path, lineno, id ? id : "(no id)", why);
    }
    json_decref(j);
  }
  free(line);
  free(it);
  if (f != stdin) fclose(f);
  if (!as_json) {
    printf("%ld items, %ld re-derive exactly, %ld differ or do not read\n", total, total - bad,
           bad);
    for (int t = 0; t < ARB_QUIZ_TOPIC_COUNT; t++)
      printf("  %-15s %d\n", arb_quiz_topic_name((arb_quiz_topic)t), per[t]);
  }
  return bad ? 1 : 0;
}

static int cmd_topics(void) {
  for (int t = 0; t < ARB_QUIZ_TOPIC_COUNT; t++) {
    printf("%s:", arb_quiz_topic_name((arb_quiz_topic)t));
    for (int i = 0; i < arb_quiz_template_count(); i++)
      if (arb_quiz_template_topic(i) == (arb_quiz_topic)t) printf(" %s", arb_quiz_template_name(i));
    printf("\n");
  }
  return 0;
}

int arb_cmd_quiz(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    quiz_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (!strcmp(argv[1], "make")) return cmd_make(argc, argv);
  if (!strcmp(argv[1], "check")) return cmd_check(argc, argv);
  if (!strcmp(argv[1], "topics") && argc == 2) return cmd_topics();
  fprintf(stderr, "arbiter quiz: the commands are make, check and topics, not '%s'\n", argv[1]);
  return 2;
}
