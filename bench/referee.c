/* Arbiter — MIT licence, see LICENSE.
 *
 * referee.c: events per second through the referee layer's C API (arb_referee_event) against
 * the same events through the JSON codec of `arbiter referee` — in process (referee_answer:
 * parse, decide, print) and as the command reading a file — so the cost of the codec is known.
 *
 * The events are real games (the main lines of a PGN file, default: the 300 lichess games kept
 * in tests/data) played as timed games: a start with a 3+2 clock, each move 700 ms after the
 * last, a state query every tenth move, a resignation at the end of an unfinished game.
 *
 * usage: bench/referee [-n RUNS] [--rules R] [FILE.pgn]   (best of RUNS, default 5)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arbiter/arbiter.h"
#include "referee.h"

#ifndef ARB_CLI_PATH
#define ARB_CLI_PATH "arbiter"
#endif
#ifndef ARB_BENCH_REFEREE_PGN
#define ARB_BENCH_REFEREE_PGN "tests/data/pgn/real/lichess-jishanshaikh4-standard-first300.pgn"
#endif

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One event of the workload, in both forms. */
typedef struct bench_event {
  arb_ref_kind kind;
  int64_t t;
  int8_t by;
  char move[8]; /* UCI */
  char *json;   /* the same event as a JSON line */
} bench_event;

typedef struct workload {
  bench_event *ev;
  size_t n, cap;
  int64_t t;
  int moves_in_game;
  arb_ruleset rules;
} workload;

static bench_event *add(workload *w, arb_ref_kind kind, int by, const char *move) {
  if (w->n == w->cap) {
    w->cap = w->cap ? 2 * w->cap : 4096;
    if (!(w->ev = realloc(w->ev, w->cap * sizeof *w->ev))) exit(1);
  }
  bench_event *e = &w->ev[w->n++];
  memset(e, 0, sizeof *e);
  e->kind = kind;
  e->t = w->t;
  e->by = (int8_t)by;
  if (move) snprintf(e->move, sizeof e->move, "%s", move);
  char line[256];
  int len = snprintf(line, sizeof line, "{\"type\":\"%s\",\"t\":%lld", arb_ref_kind_name(kind),
                     (long long)w->t);
  if (by >= 0)
    len += snprintf(line + len, sizeof line - (size_t)len, ",\"by\":\"%s\"",
                    by == ARB_WHITE ? "white" : "black");
  if (move) len += snprintf(line + len, sizeof line - (size_t)len, ",\"move\":\"%s\"", move);
  if (kind == ARB_REF_START)
    len += snprintf(line + len, sizeof line - (size_t)len, ",\"control\":\"3+2\",\"rules\":\"%s\"",
                    arb_rules_get(w->rules)->name);
  snprintf(line + len, sizeof line - (size_t)len, "}");
  e->json = strdup(line);
  return e;
}

static int on_begin(void *ctx, const arb_position *start) {
  workload *w = ctx;
  (void)start;
  w->t = 0;
  w->moves_in_game = 0;
  add(w, ARB_REF_START, -1, NULL);
  return 0;
}

static int on_move(void *ctx, const arb_pgn_move *m) {
  workload *w = ctx;
  if (m->depth) return 0;
  char uci[8];
  arb_uci_write(m->before, m->move, uci, sizeof uci);
  w->t += 700;
  add(w, ARB_REF_MOVE, -1, uci);
  if (++w->moves_in_game % 10 == 0) add(w, ARB_REF_STATE, -1, NULL);
  return 0;
}

static void on_end(void *ctx, const arb_pgn_game_end *end) {
  workload *w = ctx;
  if (end->final_outcome.result == ARB_RESULT_NONE && end->final_position) {
    w->t += 700;
    add(w, ARB_REF_RESIGN, end->final_position->turn, NULL);
  }
}

int main(int argc, char **argv) {
  int runs = 5;
  const char *file = ARB_BENCH_REFEREE_PGN;
  workload w = {NULL, 0, 0, 0, 0, ARB_RULES_FIDE};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) {
      runs = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--rules") && i + 1 < argc) {
      if (arb_rules_parse(argv[++i], &w.rules) != ARB_OK) return 2;
    } else if (argv[i][0] != '-') {
      file = argv[i];
    } else {
      fprintf(stderr, "usage: %s [-n RUNS] [--rules R] [FILE.pgn]\n", argv[0]);
      return 2;
    }
  }
  FILE *in = fopen(file, "rb");
  if (!in) {
    fprintf(stderr, "bench/referee: cannot read %s\n", file);
    return 2;
  }
  arb_pgn_visitor v = {.ctx = &w, .begin_moves = on_begin, .move = on_move, .end_game = on_end};
  arb_pgn_options o = {ARB_PGN_NO_VARIATIONS, ARB_RULES_FIDE, 0, 0};
  arb_pgn_reader *rd = arb_pgn_reader_new(&o, &v);
  char buf[1 << 16];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, in)) > 0)
    arb_pgn_reader_feed(rd, buf, got);
  arb_pgn_reader_finish(rd);
  arb_pgn_reader_free(rd);
  fclose(in);

  /* the events as JSON lines in a file, for the command */
  char path[] = "/tmp/arb-bench-referee-XXXXXX";
  int fd = mkstemp(path);
  FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!out) return 1;
  for (size_t i = 0; i < w.n; i++)
    fprintf(out, "%s\n", w.ev[i].json);
  fclose(out);

  double best_api = 1e30, best_codec = 1e30, best_cli = 1e30;
  size_t refused = 0, accepted = 0;
  for (int r = 0; r < runs; r++) {
    /* the C API */
    arb_referee *ref = arb_referee_new(w.rules);
    arb_time_control tc;
    arb_tc_parse("3+2", 3, ARB_TC_HUMAN, &tc, NULL);
    arb_ref_setup su = ARB_REF_SETUP_INIT;
    su.rules = w.rules;
    su.control = &tc;
    refused = accepted = 0;
    double t0 = now();
    for (size_t i = 0; i < w.n; i++) {
      const bench_event *e = &w.ev[i];
      arb_ref_event ev = ARB_REF_EVENT_INIT(e->kind, e->t);
      ev.by = e->by;
      if (e->move[0]) {
        ev.text = e->move;
        ev.text_len = strlen(e->move);
      }
      if (e->kind == ARB_REF_START) ev.setup = &su;
      arb_ref_decision d;
      if (arb_referee_event(ref, &ev, &d) == ARB_OK)
        accepted++;
      else
        refused++;
    }
    double t = now() - t0;
    if (t < best_api) best_api = t;
    arb_referee_free(ref);
    /* the JSON codec, in process */
    ref_state *st = ref_state_new(w.rules);
    t0 = now();
    for (size_t i = 0; i < w.n; i++)
      free(referee_answer(st, w.ev[i].json, strlen(w.ev[i].json), (long)i + 1));
    t = now() - t0;
    if (t < best_codec) best_codec = t;
    ref_state_free(st);
    /* the command */
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "'%s' referee < '%s' > /dev/null", ARB_CLI_PATH, path);
    t0 = now();
    if (system(cmd) != 0) {
      fprintf(stderr, "bench/referee: '%s' failed\n", cmd);
      return 1;
    }
    t = now() - t0;
    if (t < best_cli) best_cli = t;
  }
  remove(path);
  double n = (double)w.n;
  printf("referee: %zu events (%zu accepted, %zu refused) from %s, rules %s, best of %d\n", w.n,
         accepted, refused, file, arb_rules_get(w.rules)->name, runs);
  printf("  C API (arb_referee_event):        %9.0f events/s  %6.2f us/event\n", n / best_api,
         best_api / n * 1e6);
  printf("  JSON codec in process:            %9.0f events/s  %6.2f us/event\n", n / best_codec,
         best_codec / n * 1e6);
  printf("  arbiter referee (file to /dev/null): %6.0f events/s  %6.2f us/event\n", n / best_cli,
         best_cli / n * 1e6);
  printf("ratio, JSON codec / C API: %.2f\n", best_codec / best_api);
  for (size_t i = 0; i < w.n; i++)
    free(w.ev[i].json);
  free(w.ev);
  return refused ? 1 : 0;
}
