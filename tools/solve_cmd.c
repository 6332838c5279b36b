/* Arbiter — MIT licence, see LICENSE.
 *
 * solve_cmd.c: `arbiter solve` — positions in (FEN lines, or JSON lines
 * {"fen","moves","goal","n","budget"}), one JSON answer per line out: can the side to move force
 * mate (or a draw) within n moves, the shortest length, every key move, a main line.  The
 * search is the library's (arbiter/solve.h); this file only translates.  With -j N the lines are
 * solved on N threads (each with its own solver) and answered in their order.
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void solve_usage(FILE *out) {
  fprintf(out,
          "usage: arbiter solve [--goal mate|draw] [--n N] [--budget NODES] [-j N]\n"
          "\n"
          "Reads positions, one per line: a FEN, or a JSON object\n"
          "  {\"fen\": FEN (default the start), \"moves\": [UCI or SAN, ...] played from it,\n"
          "   \"goal\": \"mate\"|\"draw\", \"n\": N, \"budget\": NODES}\n"
          "(the object's fields override the options), and answers each with one JSON line:\n"
          "  {\"input\" (its line number), \"fen\", \"goal\", \"n\", \"verdict\",\n"
          "   \"mate_in\" (or \"draw_in\"),\n"
          "   \"keys\" (UCI, sorted), \"keys_san\", \"key_lengths\", \"keys_complete\",\n"
          "   \"line\" (the main line in UCI), \"line_san\", \"nodes\", \"unique\"}\n"
          "verdict: mate (or draw): the side to move forces it within n of its moves; none:\n"
          "proven it cannot; unknown: the node budget ran out first (never a wrong mate or\n"
          "none).  keys: every first move that forces it within n, so a puzzle's uniqueness is\n"
          "proven: unique is true when exactly one move forces it at the shortest length and no\n"
          "other within n.  keys_complete is false when the budget ran out on some first move.\n"
          "A draw is a stalemate or a dead position (FIDE 5.2.2) reached by force (a mate of\n"
          "the opponent counts too); repetitions and the 50-move rule are not searched.\n"
          "  --goal G       mate (default) or draw\n"
          "  --n N          moves of the side to move, 1 to %d (default 3)\n"
          "  --budget N     search nodes per position (default %u)\n"
          "  -j N           threads (the answers keep the input's order)\n"
          "Bad lines get {\"input\": N, \"error\": {...}} and the stream goes on; blank lines\n"
          "and lines starting with # are skipped.\n"
          "Exit status: 0, 2 bad usage.\n",
          ARB_SOLVE_MAX_N, ARB_SOLVE_DEFAULT_BUDGET);
}

typedef struct solve_opts {
  int goal, n;
  unsigned long long budget;
} solve_opts;

static char *error_answer(long lineno, const char *code, const char *message, json_t *extra) {
  json_t *a = json_object(), *e = json_object();
  json_object_set_new(a, "input", json_integer(lineno));
  json_object_set_new(e, "code", json_string(code));
  json_t *m = json_string(message);
  json_object_set_new(e, "message", m ? m : json_string("(not UTF-8)"));
  if (extra) json_object_update(e, extra);
  json_decref(extra);
  json_object_set_new(a, "error", e);
  char *text = json_dumps(a, JSON_COMPACT);
  json_decref(a);
  return text;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One line: the position and the request, solved. */
static char *solve_line(arb_solver *solver, const solve_opts *o, const char *line, size_t len,
                        long lineno, int too_long) {
  if (too_long) return error_answer(lineno, "line_too_long", "line longer than 65536 bytes", NULL);
  while (len && (*line == ' ' || *line == '\t'))
    line++, len--;
  int goal = o->goal, n = o->n;
  unsigned long long budget = o->budget;
  arb_position pos;
  arb_fen_report rep;
  json_t *req = NULL;
  if (len && line[0] == '{') {
    json_error_t jerr;
    req = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!json_is_object(req)) {
      json_decref(req);
      return error_answer(lineno, "json", jerr.text, json_pack("{s:i}", "column", jerr.column));
    }
    json_t *v;
    if ((v = json_object_get(req, "goal"))) {
      const char *g = json_string_value(v);
      if (!g || (strcmp(g, "mate") && strcmp(g, "draw"))) {
        json_decref(req);
        return error_answer(lineno, "bad_request", "\"goal\" is \"mate\" or \"draw\"", NULL);
      }
      goal = !strcmp(g, "draw") ? ARB_SOLVE_DRAW : ARB_SOLVE_MATE;
    }
    if ((v = json_object_get(req, "n"))) {
      if (!json_is_integer(v) || json_integer_value(v) < 1 ||
          json_integer_value(v) > ARB_SOLVE_MAX_N) {
        json_decref(req);
        return error_answer(lineno, "bad_request", "\"n\" is a whole number from 1 to 16", NULL);
      }
      n = (int)json_integer_value(v);
    }
    if ((v = json_object_get(req, "budget"))) {
      if (!json_is_integer(v) || json_integer_value(v) < 1) {
        json_decref(req);
        return error_answer(lineno, "bad_request", "\"budget\" is a positive number of nodes",
                            NULL);
      }
      budget = (unsigned long long)json_integer_value(v);
    }
    const char *fen = json_string_value(json_object_get(req, "fen"));
    if (json_object_get(req, "fen") && !fen) {
      json_decref(req);
      return error_answer(lineno, "bad_request", "\"fen\" is a string", NULL);
    }
    arb_status st = arb_fen_read(&pos, fen ? fen : ARB_FEN_START, 0, &rep);
    if (st != ARB_OK) {
      json_decref(req);
      return error_answer(lineno, arb_status_name(st), rep.message, NULL);
    }
    json_t *moves = json_object_get(req, "moves");
    if (moves && !json_is_array(moves)) {
      json_decref(req);
      return error_answer(lineno, "bad_request", "\"moves\" is an array of moves", NULL);
    }
    for (size_t i = 0; moves && i < json_array_size(moves); i++) {
      const char *t = json_string_value(json_array_get(moves, i));
      arb_move m;
      if (!t || arb_move_read(&pos, t, strlen(t), 0, &m, NULL) != ARB_OK) {
        char msg[160];
        snprintf(msg, sizeof msg, "moves[%zu] (%.40s) is not a legal move here", i,
                 t ? t : "not a string");
        json_decref(req);
        return error_answer(lineno, "bad_move", msg, json_pack("{s:i}", "move_index", (int)i));
      }
      arb_undo u;
      arb_make_move(&pos, m, &u);
    }
    json_decref(req);
  } else {
    const char *semi = memchr(line, ';', len);
    arb_status st = arb_fen_read_n(&pos, line, semi ? (size_t)(semi - line) : len, 0, &rep);
    if (st != ARB_OK) return error_answer(lineno, arb_status_name(st), rep.message, NULL);
  }
  arb_solve_result r;
  arb_status st = arb_solve(solver, &pos, (arb_solve_goal)goal, n, budget, &r);
  if (st != ARB_OK) return error_answer(lineno, arb_status_name(st), arb_strerror(st), NULL);
  json_t *a = json_object();
  char fen[ARB_FEN_MAX];
  arb_fen_write(&pos, fen, sizeof fen, 0);
  json_object_set_new(a, "input", json_integer(lineno));
  json_object_set_new(a, "fen", json_string(fen));
  json_object_set_new(a, "goal", json_string(arb_solve_goal_name((arb_solve_goal)goal)));
  json_object_set_new(a, "n", json_integer(n));
  json_object_set_new(a, "verdict",
                      json_string(arb_solve_verdict_name(r.verdict, (arb_solve_goal)goal)));
  const char *len_key = goal == ARB_SOLVE_DRAW ? "draw_in" : "mate_in";
  json_object_set_new(a, len_key,
                      r.verdict == ARB_SOLVE_FOUND ? json_integer(r.length) : json_null());
  /* keys sorted by UCI, SAN and lengths in the same order */
  char uci[ARB_MAX_MOVES][8], *order[ARB_MAX_MOVES];
  for (int i = 0; i < r.nkeys; i++) {
    arb_uci_write(&pos, r.keys[i], uci[i], sizeof uci[i]);
    order[i] = uci[i];
  }
  qsort(order, (size_t)r.nkeys, sizeof order[0], cmp_str);
  json_t *keys = json_array(), *sans = json_array(), *lens = json_array();
  int at_shortest = 0;
  for (int k = 0; k < r.nkeys; k++) {
    int i = (int)((order[k] - uci[0]) / (long)sizeof uci[0]);
    char san[ARB_SAN_MAX];
    arb_san_write(&pos, r.keys[i], san, sizeof san);
    json_array_append_new(keys, json_string(uci[i]));
    json_array_append_new(sans, json_string(san));
    json_array_append_new(lens, json_integer(r.key_length[i]));
    at_shortest += r.key_length[i] == r.length;
  }
  json_object_set_new(a, "keys", keys);
  json_object_set_new(a, "keys_san", sans);
  json_object_set_new(a, "key_lengths", lens);
  json_object_set_new(a, "keys_complete", json_boolean(r.keys_complete));
  json_object_set_new(a, "unique",
                      json_boolean(r.verdict == ARB_SOLVE_FOUND && r.keys_complete &&
                                   r.nkeys == 1 && at_shortest == 1));
  json_t *lu = json_array(), *ls = json_array();
  arb_position p = pos;
  for (int i = 0; i < r.line_len; i++) {
    char t[ARB_SAN_MAX > 8 ? ARB_SAN_MAX : 8];
    arb_uci_write(&p, r.line[i], t, sizeof t);
    json_array_append_new(lu, json_string(t));
    arb_san_write(&p, r.line[i], t, sizeof t);
    json_array_append_new(ls, json_string(t));
    arb_undo u;
    arb_make_move(&p, r.line[i], &u);
  }
  json_object_set_new(a, "line", lu);
  json_object_set_new(a, "line_san", ls);
  json_object_set_new(a, "nodes", json_integer((json_int_t)r.nodes));
  char *text = json_dumps(a, JSON_COMPACT);
  json_decref(a);
  return text;
}

/* ---- one thread: streaming ---- */

typedef struct stream_ctx {
  arb_solver *solver;
  const solve_opts *o;
} stream_ctx;

static char *stream_line(void *ctx, const char *line, size_t len, long lineno, int too_long) {
  stream_ctx *c = ctx;
  return solve_line(c->solver, c->o, line, len, lineno, too_long);
}

/* ---- N threads: the whole input, then the answers in order ---- */

typedef struct job {
  char *text;
  size_t len;
  long lineno;
  int too_long;
  char *answer;
} job;

typedef struct pool {
  job *jobs;
  size_t n;
  size_t next;
  pthread_mutex_t mu;
  const solve_opts *o;
} pool;

static void *worker(void *arg) {
  pool *p = arg;
  arb_solver *s = arb_solver_new(0);
  for (;;) {
    pthread_mutex_lock(&p->mu);
    size_t i = p->next++;
    pthread_mutex_unlock(&p->mu);
    if (i >= p->n) break;
    job *j = &p->jobs[i];
    j->answer = s ? solve_line(s, p->o, j->text, j->len, j->lineno, j->too_long)
                  : error_answer(j->lineno, "no_memory", "out of memory", NULL);
  }
  arb_solver_free(s);
  return NULL;
}

static int run_parallel(const solve_opts *o, int threads) {
  pool p = {NULL, 0, 0, PTHREAD_MUTEX_INITIALIZER, o};
  size_t cap = 0;
  char *buf = NULL;
  size_t bcap = 0;
  ssize_t got;
  long lineno = 0;
  while ((got = getline(&buf, &bcap, stdin)) >= 0) {
    lineno++;
    size_t len = (size_t)got;
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
      len--;
    size_t k = 0;
    while (k < len && (buf[k] == ' ' || buf[k] == '\t'))
      k++;
    if (k == len || buf[k] == '#') continue;
    if (p.n == cap) {
      cap = cap ? cap * 2 : 256;
      job *nj = realloc(p.jobs, cap * sizeof *nj);
      if (!nj) break;
      p.jobs = nj;
    }
    job *j = &p.jobs[p.n++];
    j->too_long = len > 65536;
    j->len = j->too_long ? 0 : len;
    j->text = malloc(j->len + 1);
    if (j->text) memcpy(j->text, buf, j->len), j->text[j->len] = 0;
    j->lineno = lineno;
    j->answer = NULL;
  }
  free(buf);
  pthread_t t[64];
  int nt = threads > 64 ? 64 : threads;
  for (int i = 0; i < nt; i++)
    if (pthread_create(&t[i], NULL, worker, &p)) nt = i;
  if (nt == 0) worker(&p);
  for (int i = 0; i < nt; i++)
    pthread_join(t[i], NULL);
  for (size_t i = 0; i < p.n; i++) {
    if (p.jobs[i].answer)
      printf("%s\n", p.jobs[i].answer);
    else
      printf("{\"input\":%ld,\"error\":{\"code\":\"no_memory\",\"message\":\"out of memory\"}}\n",
             p.jobs[i].lineno);
    free(p.jobs[i].answer);
    free(p.jobs[i].text);
  }
  free(p.jobs);
  fflush(stdout);
  return 0;
}

int arb_cmd_solve(int argc, char **argv) {
  solve_opts o = {ARB_SOLVE_MATE, 3, 0};
  int threads = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      solve_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--goal") && more) {
      const char *g = argv[++i];
      if (strcmp(g, "mate") && strcmp(g, "draw")) {
        fprintf(stderr, "arbiter solve: --goal is mate or draw, not '%s'\n", g);
        return 2;
      }
      o.goal = !strcmp(g, "draw") ? ARB_SOLVE_DRAW : ARB_SOLVE_MATE;
    } else if (!strcmp(a, "--n") && more) {
      char *end;
      long v = strtol(argv[++i], &end, 10);
      if (*end || v < 1 || v > ARB_SOLVE_MAX_N) {
        fprintf(stderr, "arbiter solve: --n takes 1 to %d, not '%s'\n", ARB_SOLVE_MAX_N, argv[i]);
        return 2;
      }
      o.n = (int)v;
    } else if (!strcmp(a, "--budget") && more) {
      char *end;
      o.budget = strtoull(argv[++i], &end, 10);
      if (*end || !o.budget) {
        fprintf(stderr, "arbiter solve: --budget wants a positive number of nodes\n");
        return 2;
      }
    } else if (!strcmp(a, "-j") && more) {
      char *end;
      long v = strtol(argv[++i], &end, 10);
      if (*end || v < 1 || v > 64) {
        fprintf(stderr, "arbiter solve: -j takes 1 to 64 threads, not '%s'\n", argv[i]);
        return 2;
      }
      threads = (int)v;
    } else {
      fprintf(stderr, "arbiter solve: unexpected argument '%s'\n", a);
      solve_usage(stderr);
      return 2;
    }
  }
  if (threads > 1) return run_parallel(&o, threads);
  stream_ctx c = {arb_solver_new(0), &o};
  if (!c.solver) {
    fprintf(stderr, "arbiter solve: out of memory\n");
    return 1;
  }
  int rc = arb_tool_answer_lines(65536, 1, stream_line, &c);
  arb_solver_free(c.solver);
  return rc;
}
