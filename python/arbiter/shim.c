/* Arbiter — MIT licence, see LICENSE.
 *
 * shim.c: the PGN reader's visitor for the Python package (shim.h).  Each game is collected in
 * growing buffers; finished games wait in an array until Python takes them and calls
 * pyarb_pgn_drop.  Memory: the games of one chunk, never the whole file.
 */
#include "shim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct buf {
  char *data;
  size_t len, cap;
} buf;

typedef struct game {
  buf tags, moves, errors; /* moves: arb_move codes, as bytes */
  arb_position start;
  int result;
  uint64_t number;
  int flags;
} game;

struct pyarb_pgn {
  arb_pgn_reader *reader;
  game *games; /* games[0 .. ready-1] finished, games[ready] the one being read when open */
  int ready, cap, open;
  int failed; /* memory ran out */
};

static int put(buf *b, const void *data, size_t len) {
  if (b->len + len > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + len)
      cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) return 0;
    b->data = d;
    b->cap = cap;
  }
  if (len) memcpy(b->data + b->len, data, len);
  b->len += len;
  return 1;
}

static void game_free(game *g) {
  free(g->tags.data);
  free(g->moves.data);
  free(g->errors.data);
}

/* The game being read, made when absent; NULL out of memory. */
static game *current(pyarb_pgn *p) {
  if (p->open) return &p->games[p->ready];
  if (p->ready + 1 > p->cap) {
    int cap = p->cap ? 2 * p->cap : 16;
    game *g = realloc(p->games, (size_t)cap * sizeof *g);
    if (!g) return NULL;
    p->games = g;
    p->cap = cap;
  }
  game *g = &p->games[p->ready];
  memset(g, 0, sizeof *g);
  g->result = -1;
  g->flags = 4;
  arb_position_startpos(&g->start);
  p->open = 1;
  return g;
}

static int on_begin(void *ctx, uint64_t number, uint64_t line) {
  (void)line;
  pyarb_pgn *p = ctx;
  game *g = current(p);
  if (!g) return p->failed = 1;
  g->number = number;
  return 0;
}

static int on_tag(void *ctx, const char *name, size_t name_len, const char *value,
                  size_t value_len) {
  pyarb_pgn *p = ctx;
  game *g = current(p);
  if (!g || !put(&g->tags, name, name_len + 1) || !put(&g->tags, value, value_len + 1))
    return p->failed = 1;
  return 0;
}

static int on_begin_moves(void *ctx, const arb_position *start) {
  pyarb_pgn *p = ctx;
  game *g = current(p);
  if (!g) return p->failed = 1;
  g->start = *start;
  g->flags &= ~4;
  return 0;
}

static int on_move(void *ctx, const arb_pgn_move *m) {
  pyarb_pgn *p = ctx;
  if (m->depth != 0) return 0;
  game *g = current(p);
  if (!g || !put(&g->moves, &m->move, sizeof m->move)) return p->failed = 1;
  return 0;
}

static void on_end(void *ctx, const arb_pgn_game_end *end) {
  pyarb_pgn *p = ctx;
  game *g = current(p);
  if (!g) {
    p->failed = 1;
    return;
  }
  g->number = end->game;
  g->result = end->has_tag_result ? (int)end->tag_result : -1;
  if (end->skipped) g->flags |= 1;
  if (end->chess960) g->flags |= 2;
  p->open = 0;
  p->ready++;
}

static void on_error(void *ctx, const arb_pgn_error *e) {
  pyarb_pgn *p = ctx;
  /* A problem belongs to the game being read, or (reported at its end) to the last one. */
  game *g = NULL;
  if (!p->open && p->ready > 0 && p->games[p->ready - 1].number == e->where.game)
    g = &p->games[p->ready - 1];
  else
    g = current(p);
  if (!g) {
    p->failed = 1;
    return;
  }
  char head[160];
  int n = snprintf(head, sizeof head, "%s\t%s\t%llu\t%u\t%d\t", e->warning ? "warning" : "error",
                   arb_pgn_problem_name(e->problem), (unsigned long long)e->where.line,
                   (unsigned)e->where.column, e->where.ply);
  const char *msg = e->message ? e->message : "";
  if (n < 0 || !put(&g->errors, head, (size_t)n) || !put(&g->errors, msg, strlen(msg)) ||
      !put(&g->errors, "\n", 1))
    p->failed = 1;
}

pyarb_pgn *pyarb_pgn_new(unsigned flags) {
  pyarb_pgn *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  arb_pgn_options opts;
  memset(&opts, 0, sizeof opts);
  opts.flags = flags;
  arb_pgn_visitor v;
  memset(&v, 0, sizeof v);
  v.ctx = p;
  v.begin_game = on_begin;
  v.tag = on_tag;
  v.begin_moves = on_begin_moves;
  v.move = on_move;
  v.end_game = on_end;
  v.error = on_error;
  p->reader = arb_pgn_reader_new(&opts, &v);
  if (!p->reader) {
    free(p);
    return NULL;
  }
  return p;
}

void pyarb_pgn_drop(pyarb_pgn *p) {
  for (int i = 0; i < p->ready; i++)
    game_free(&p->games[i]);
  if (p->open) memmove(&p->games[0], &p->games[p->ready], sizeof p->games[0]);
  p->ready = 0;
}

void pyarb_pgn_free(pyarb_pgn *p) {
  if (!p) return;
  pyarb_pgn_drop(p);
  if (p->open) game_free(&p->games[0]);
  free(p->games);
  arb_pgn_reader_free(p->reader);
  free(p);
}

arb_status pyarb_pgn_feed(pyarb_pgn *p, const char *data, size_t len) {
  arb_status st = arb_pgn_reader_feed(p->reader, data, len);
  return st == ARB_OK && p->failed ? ARB_ERR_NO_MEMORY : st;
}

arb_status pyarb_pgn_finish(pyarb_pgn *p) {
  arb_status st = arb_pgn_reader_finish(p->reader);
  return st == ARB_OK && p->failed ? ARB_ERR_NO_MEMORY : st;
}

int pyarb_pgn_ready(const pyarb_pgn *p) { return p->ready; }

const char *pyarb_pgn_tags(const pyarb_pgn *p, int i, size_t *len) {
  *len = p->games[i].tags.len;
  return p->games[i].tags.data ? p->games[i].tags.data : "";
}

const arb_move *pyarb_pgn_moves(const pyarb_pgn *p, int i, int *count) {
  static const arb_move none[1] = {0};
  *count = (int)(p->games[i].moves.len / sizeof(arb_move));
  return p->games[i].moves.data ? (const arb_move *)(const void *)p->games[i].moves.data : none;
}

const arb_position *pyarb_pgn_start(const pyarb_pgn *p, int i) { return &p->games[i].start; }

const char *pyarb_pgn_errors(const pyarb_pgn *p, int i, size_t *len) {
  *len = p->games[i].errors.len;
  return p->games[i].errors.data ? p->games[i].errors.data : "";
}

int pyarb_pgn_result(const pyarb_pgn *p, int i) { return p->games[i].result; }
uint64_t pyarb_pgn_number(const pyarb_pgn *p, int i) { return p->games[i].number; }
int pyarb_pgn_flags(const pyarb_pgn *p, int i) { return p->games[i].flags; }

arb_status pyarb_write_moves(arb_pgn_writer *w, const arb_position *start, const arb_move *moves,
                             int count) {
  arb_position before = *start, after;
  for (int i = 0; i < count; i++) {
    if (moves[i] != ARB_MOVE_NULL && !arb_is_legal(&before, moves[i])) return ARB_ERR_MOVE_ILLEGAL;
    after = before;
    arb_undo u;
    arb_make_move(&after, moves[i], &u);
    arb_status st = arb_pgn_writer_move_to(w, &before, moves[i], &after);
    if (st != ARB_OK) return st;
    before = after;
  }
  return ARB_OK;
}

/* ---- the ordered output, collected ---- */

struct pyarb_output {
  arb_pgn_output *out;
  buf text[2];
  int failed;
};

static void collect(void *ctx, int to_stderr, const char *data, size_t len) {
  pyarb_output *o = ctx;
  if (!put(&o->text[to_stderr ? 1 : 0], data, len)) o->failed = 1;
}

pyarb_output *pyarb_output_new(int dedupe) {
  pyarb_output *o = calloc(1, sizeof *o);
  if (!o) return NULL;
  if (!(o->out = arb_pgn_output_new(dedupe, collect, o))) {
    free(o);
    return NULL;
  }
  return o;
}

void pyarb_output_free(pyarb_output *o) {
  if (!o) return;
  arb_pgn_output_free(o->out);
  free(o->text[0].data);
  free(o->text[1].data);
  free(o);
}

void pyarb_output_file(pyarb_output *o) { arb_pgn_output_file(o->out); }

int pyarb_output_job(pyarb_output *o, const void *records, size_t len, const arb_pgn_stats *stats) {
  size_t pos = 0;
  arb_pgn_record r;
  while (arb_pgn_records_next(records, len, &pos, &r))
    arb_pgn_output_record(o->out, &r);
  arb_pgn_output_job_done(o->out, stats);
  return pos == len && !o->failed ? 0 : -1;
}

const char *pyarb_output_text(pyarb_output *o, int to_stderr, size_t *len) {
  buf *b = &o->text[to_stderr ? 1 : 0];
  *len = b->len;
  return b->data ? b->data : "";
}

void pyarb_output_clear(pyarb_output *o) { o->text[0].len = o->text[1].len = 0; }

void pyarb_output_totals(const pyarb_output *o, arb_pgn_stats *stats, uint64_t *written,
                         uint64_t *duplicates) {
  arb_pgn_output_totals(o->out, stats, written, duplicates);
}
