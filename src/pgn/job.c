/* Arbiter — MIT licence, see LICENSE.
 *
 * job.c: PGN read as `arbiter pgn` reads it (arbiter/pgn.h): a reader's visitor that turns
 * problems into reports (text or JSON), games into conversions (pgn, uci, lan, fen, jsonl) and
 * applies the filters, each piece of output an arb_pgn_record — handed to a sink as it is made,
 * or kept serialised for another thread or process; and the ordered output that numbers the
 * games of consecutive jobs, drops repeated games and writes the summary line.  The command's
 * threads (`-j`), its single stream and the Python package's Dask stage all go through here, so
 * their output is the same bytes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/notation.h"
#include "arbiter/pgn.h"
#include "arbiter/tree.h"

/* ---- growable buffers ---- */

typedef struct sbuf {
  char *p;
  size_t n, cap;
  int oom;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t c = b->cap ? b->cap : 1024;
    while (c < b->n + n + 1)
      c *= 2;
    char *q = realloc(b->p, c);
    if (!q) {
      b->oom = 1;
      return;
    }
    b->p = q;
    b->cap = c;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = '\0';
}
static void sb_str(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }
static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (k < 0) return;
  if ((size_t)k < sizeof tmp) {
    sb_put(b, tmp, (size_t)k);
    return;
  }
  char *big = malloc((size_t)k + 1);
  if (!big) {
    b->oom = 1;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(big, (size_t)k + 1, fmt, ap);
  va_end(ap);
  sb_put(b, big, (size_t)k);
  free(big);
}
/* A JSON string (the reader hands out valid UTF-8). */
static void sb_json(sbuf *b, const char *s, size_t n) {
  sb_put(b, "\"", 1);
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    sb_put(b, s + run, i - run);
    run = i + 1;
    char esc[8];
    if (c == '"' || c == '\\')
      esc[0] = '\\', esc[1] = (char)c, esc[2] = 0;
    else if (c == '\n')
      strcpy(esc, "\\n");
    else if (c == '\t')
      strcpy(esc, "\\t");
    else
      snprintf(esc, sizeof esc, "\\u%04x", c);
    sb_str(b, esc);
  }
  sb_put(b, s + run, n - run);
  sb_put(b, "\"", 1);
}

/* ---- the job and its records ---- */

/* A serialised record: this head, then prefix_len + suffix_len bytes. */
typedef struct rec_head {
  uint8_t to_stderr, is_game;
  uint8_t pad_[6];
  uint64_t game, hash, prefix_len, suffix_len;
} rec_head;

static void job_record(arb_pgn_job *j, int to_stderr, int is_game, uint64_t game, uint64_t hash,
                       const char *prefix, size_t plen, const char *suffix, size_t slen);

/* ---- per-game state ---- */

typedef struct gctx {
  const arb_pgn_job_options *o;
  arb_pgn_job *job;
  arb_pgn_writer *w;   /* pgn output written as the reader goes (not with --tree) */
  arb_tree_builder *b; /* --tree: the game is built as a tree ... */
  arb_pgn_visitor bv;  /* (the builder's callbacks) */
  arb_pgn_writer *tw;  /* ... and written from it */
  sbuf text, tmp, tags_json, comments, clocks, evals, uci, san;
  char white[96], black[96], date[16], eco[8], result_tag[8];
  long white_elo, black_elo;
  int has_white_elo, has_black_elo, has_fen, pos_hit, main_ply, nmoves;
  uint32_t tag_hits; /* bit i: the game has --tag filter i's tag with its value */
  uint64_t hash;
  arb_position start;
} gctx;

static void on_error(void *ctx, const arb_pgn_error *e) {
  gctx *g = ctx;
  sbuf *b = &g->tmp;
  b->n = 0;
  int to_stderr = g->o->format != ARB_PGN_FORMAT_NONE;
  if (g->o->json) {
    sb_str(b, "{\"file\":");
    sb_json(b, g->o->file, strlen(g->o->file));
    sb_printf(b, ",\"line\":%llu,\"column\":%u,\"game\":", (unsigned long long)e->where.line,
              e->where.column);
    size_t plen = b->n;
    sb_str(b, ",\"white\":");
    sb_json(b, g->white, strlen(g->white));
    sb_str(b, ",\"black\":");
    sb_json(b, g->black, strlen(g->black));
    sb_printf(b, ",\"ply\":%d,\"depth\":%d,\"severity\":\"%s\",\"problem\":\"%s\",\"message\":",
              e->where.ply, e->where.depth, e->warning ? "warning" : "error",
              arb_pgn_problem_name(e->problem));
    sb_json(b, e->message, strlen(e->message));
    sb_str(b, "}\n");
    job_record(g->job, to_stderr, 0, e->where.game, 0, b->p, plen, b->p + plen, b->n - plen);
    return;
  }
  sb_printf(b, "%s:%llu:", g->o->file, (unsigned long long)e->where.line);
  if (e->where.column) sb_printf(b, "%u:", e->where.column);
  sb_str(b, " game ");
  size_t plen = b->n;
  if (g->white[0] || g->black[0])
    sb_printf(b, " (%s \xE2\x80\x93 %s)", g->white[0] ? g->white : "?",
              g->black[0] ? g->black : "?");
  sb_str(b, ": ");
  if (e->where.ply) sb_printf(b, "ply %d%s: ", e->where.ply, e->where.depth ? " (variation)" : "");
  if (e->warning) sb_str(b, "warning: ");
  sb_str(b, e->message);
  sb_str(b, "\n");
  job_record(g->job, to_stderr, 0, e->where.game, 0, b->p, plen, b->p + plen, b->n - plen);
}

static void reset_game(gctx *g) {
  g->text.n = g->tags_json.n = g->comments.n = g->clocks.n = g->evals.n = g->uci.n = g->san.n = 0;
  g->white[0] = g->black[0] = g->date[0] = g->eco[0] = g->result_tag[0] = '\0';
  g->has_white_elo = g->has_black_elo = g->has_fen = g->pos_hit = 0;
  g->tag_hits = 0;
  g->main_ply = g->nmoves = 0;
  g->hash = 1469598103934665603ull;
}

static int on_begin_game(void *ctx, uint64_t game, uint64_t line) {
  gctx *g = ctx;
  if (g->b) g->bv.begin_game(g->bv.ctx, game, line);
  reset_game(g);
  if (g->w) arb_pgn_writer_begin_game(g->w);
  return 0;
}

static void copy_trunc(char *dst, size_t size, const char *s, size_t n) {
  if (n >= size) n = size - 1;
  memcpy(dst, s, n);
  dst[n] = '\0';
}

static int icontains(const char *hay, const char *needle) {
  size_t n = strlen(needle);
  for (const char *h = hay; *h; h++) {
    size_t i = 0;
    while (i < n && h[i]) {
      char a = h[i], b = needle[i];
      if (a >= 'A' && a <= 'Z') a = (char)(a + 32);
      if (b >= 'A' && b <= 'Z') b = (char)(b + 32);
      if (a != b) break;
      i++;
    }
    if (i == n) return 1;
  }
  return n == 0;
}

/* A rating as sscanf's "%ld" reads it (blanks, a sign, digits): 1 when it has a digit. */
static int read_elo(const char *value, long *out) {
  char *end;
  const long v = strtol(value, &end, 10);
  if (end == value) return 0;
  *out = v;
  return 1;
}

static int on_tag(void *ctx, const char *name, size_t nl, const char *value, size_t vl) {
  gctx *g = ctx;
#define TAG_IS(lit) (nl == sizeof lit - 1 && memcmp(name, lit, sizeof lit - 1) == 0)
  if (TAG_IS("White"))
    copy_trunc(g->white, sizeof g->white, value, vl);
  else if (TAG_IS("Black"))
    copy_trunc(g->black, sizeof g->black, value, vl);
  else if (TAG_IS("Date"))
    copy_trunc(g->date, sizeof g->date, value, vl);
  else if (TAG_IS("ECO"))
    copy_trunc(g->eco, sizeof g->eco, value, vl);
  else if (TAG_IS("Result"))
    copy_trunc(g->result_tag, sizeof g->result_tag, value, vl);
  else if (TAG_IS("WhiteElo"))
    g->has_white_elo = read_elo(value, &g->white_elo);
  else if (TAG_IS("BlackElo"))
    g->has_black_elo = read_elo(value, &g->black_elo);
  else if (TAG_IS("FEN"))
    g->has_fen = 1;
#undef TAG_IS
  for (int i = 0; i < g->o->ntags; i++)
    if (!strcmp(name, g->o->tags[i].name) && !strcmp(value, g->o->tags[i].value))
      g->tag_hits |= 1u << i;
  if (g->w) arb_pgn_writer_tag(g->w, name, nl, value, vl);
  if (g->b) g->bv.tag(g->bv.ctx, name, nl, value, vl);
  if (g->o->format == ARB_PGN_FORMAT_JSONL) {
    sb_str(&g->tags_json, g->tags_json.n ? "," : "{");
    sb_json(&g->tags_json, name, nl);
    sb_str(&g->tags_json, ":");
    sb_json(&g->tags_json, value, vl);
  }
  return 0;
}

static int position_matches(const arb_pgn_job_options *o, const arb_position *p) {
  if (o->has_key && p->key == o->key) return 1;
  if (o->position && p->key == o->position->key &&
      memcmp(p->board, o->position->board, sizeof p->board) == 0 && p->turn == o->position->turn)
    return 1;
  return 0;
}

static void put_fen(gctx *g, const arb_position *p) {
  char fen[ARB_FEN_MAX];
  int k = arb_fen_write(p, fen, sizeof fen, 0);
  sb_put(&g->text, fen, (size_t)k);
  sb_put(&g->text, "\n", 1);
}

static int on_begin_moves(void *ctx, const arb_position *start) {
  gctx *g = ctx;
  g->start = *start;
  g->pos_hit = position_matches(g->o, start);
  g->hash ^= start->key;
  if (g->w) {
    arb_pgn_writer_start(g->w, start);
    arb_pgn_writer_begin_moves(g->w);
  }
  if (g->b) g->bv.begin_moves(g->bv.ctx, start);
  if (g->o->format == ARB_PGN_FORMAT_FEN) put_fen(g, start);
  return 0;
}

static int on_move(void *ctx, const arb_pgn_move *m) {
  gctx *g = ctx;
  if (g->w) arb_pgn_writer_move_to(g->w, m->before, m->move, m->after);
  if (g->b) g->bv.move(g->bv.ctx, m);
  if (m->depth) return 0;
  g->main_ply = m->ply;
  g->nmoves++;
  g->hash = (g->hash ^ m->move) * 1099511628211ull;
  if (!g->pos_hit && (g->o->has_key || g->o->position))
    g->pos_hit = position_matches(g->o, m->after);
  char buf[16];
  int k;
  switch (g->o->format) {
  case ARB_PGN_FORMAT_UCI:
    k = arb_uci_write(m->before, m->move, buf, sizeof buf);
    if (g->text.n) sb_put(&g->text, " ", 1);
    sb_put(&g->text, buf, (size_t)k);
    break;
  case ARB_PGN_FORMAT_LAN:
    k = arb_lan_write(m->before, m->move, buf, sizeof buf);
    if (g->text.n) sb_put(&g->text, " ", 1);
    sb_put(&g->text, buf, k > 0 ? (size_t)k : 0);
    break;
  case ARB_PGN_FORMAT_FEN: put_fen(g, m->after); break;
  case ARB_PGN_FORMAT_JSONL:
    k = arb_uci_write(m->before, m->move, buf, sizeof buf);
    sb_str(&g->uci, g->uci.n ? ",\"" : "[\"");
    sb_put(&g->uci, buf, (size_t)k);
    sb_str(&g->uci, "\"");
    k = arb_san_write(m->before, m->move, buf, sizeof buf);
    sb_str(&g->san, g->san.n ? ",\"" : "[\"");
    sb_put(&g->san, buf, k > 0 ? (size_t)k : 0);
    sb_str(&g->san, "\"");
    break;
  default: break;
  }
  return 0;
}

static int on_comment(void *ctx, const char *text, size_t len, int depth) {
  gctx *g = ctx;
  if (g->w) arb_pgn_writer_comment(g->w, text, len);
  if (g->b) g->bv.comment(g->bv.ctx, text, len, depth);
  if (g->o->format != ARB_PGN_FORMAT_JSONL || depth) return 0;
  sb_printf(&g->comments, "%s[%d,", g->comments.n ? "," : "[", g->main_ply);
  sb_json(&g->comments, text, len);
  sb_str(&g->comments, "]");
  arb_pgn_commands c;
  arb_pgn_commands_clear(&c);
  arb_pgn_commands_read(text, len, &c, NULL, 0, NULL);
  if (c.clk_ms >= 0)
    sb_printf(&g->clocks, "%s[%d,%lld]", g->clocks.n ? "," : "[", g->main_ply, (long long)c.clk_ms);
  if (c.has_eval) {
    /* [ply, "0.17"] or [ply, "#-3"], and the depth third when the comment gives it */
    arb_pgn_commands e;
    arb_pgn_commands_clear(&e);
    e.has_eval = 1, e.eval_mate = c.eval_mate, e.eval = c.eval;
    char v[48];
    int k = arb_pgn_commands_write(&e, v, sizeof v); /* "[%eval 0.17]" */
    sb_printf(&g->evals, "%s[%d,\"%.*s\"", g->evals.n ? "," : "[", g->main_ply, k - 8, v + 7);
    if (c.eval_depth >= 0) sb_printf(&g->evals, ",%d", (int)c.eval_depth);
    sb_str(&g->evals, "]");
  }
  return 0;
}

static int on_nag(void *ctx, int nag, int depth) {
  gctx *g = ctx;
  if (g->w) arb_pgn_writer_nag(g->w, nag);
  if (g->b) g->bv.nag(g->bv.ctx, nag, depth);
  return 0;
}
static int on_begin_var(void *ctx, int depth) {
  gctx *g = ctx;
  if (g->w) arb_pgn_writer_begin_variation(g->w);
  if (g->b) g->bv.begin_variation(g->bv.ctx, depth);
  return 0;
}
static int on_end_var(void *ctx, int depth) {
  gctx *g = ctx;
  if (g->w) arb_pgn_writer_end_variation(g->w);
  if (g->b) g->bv.end_variation(g->bv.ctx, depth);
  return 0;
}

static int passes_filters(const gctx *g, const arb_pgn_game_end *e) {
  const arb_pgn_job_options *o = g->o;
  if (!o->filtering) return 1;
  if (g->tag_hits != (1u << o->ntags) - 1) return 0; /* every --tag NAME=VALUE present */
  if (o->white && !icontains(g->white, o->white)) return 0;
  if (o->black && !icontains(g->black, o->black)) return 0;
  if (o->player && !icontains(g->white, o->player) && !icontains(g->black, o->player)) return 0;
  if (o->result) {
    arb_result want;
    if (arb_pgn_result_parse(o->result, strlen(o->result), &want) != 0) return 0;
    arb_result got = e->has_movetext_result ? e->movetext_result : e->tag_result;
    if (got != want) return 0;
  }
  if (o->date_from || o->date_to) {
    char d[16];
    size_t n = strlen(g->date);
    if (n < 4 || g->date[0] == '?') return 0;
    for (size_t i = 0; i < sizeof d; i++)
      d[i] = i < n ? (g->date[i] == '?' ? '0' : g->date[i]) : '\0';
    d[sizeof d - 1] = '\0';
    if (o->date_from && strcmp(d, o->date_from) < 0) return 0;
    if (o->date_to) {
      for (size_t i = 0; i < n && i < sizeof d - 1; i++)
        if (g->date[i] == '?') d[i] = '9';
      if (strncmp(d, o->date_to, strlen(o->date_to)) > 0) return 0;
    }
  }
  if (o->min_elo > 0 && !(g->has_white_elo && g->has_black_elo && g->white_elo >= o->min_elo &&
                          g->black_elo >= o->min_elo))
    return 0;
  if (o->max_elo > 0 && !(g->has_white_elo && g->has_black_elo && g->white_elo <= o->max_elo &&
                          g->black_elo <= o->max_elo))
    return 0;
  if (o->eco_from &&
      (!g->eco[0] || strcmp(g->eco, o->eco_from) < 0 || strcmp(g->eco, o->eco_to) > 0))
    return 0;
  if (o->setup == 1 && !g->has_fen) return 0;
  if (o->setup == -1 && g->has_fen) return 0;
  if ((o->has_key || o->position) && !g->pos_hit) return 0;
  return 1;
}

/* A game not replayed because its Variant names other rules: a note, not a problem. */
static void report_skipped(gctx *g, const arb_pgn_game_end *e) {
  sbuf *b = &g->tmp;
  b->n = 0;
  size_t plen;
  if (g->o->json) {
    sb_str(b, "{\"file\":");
    sb_json(b, g->o->file, strlen(g->o->file));
    sb_printf(b, ",\"line\":%llu,\"game\":", (unsigned long long)e->first_line);
    plen = b->n;
    sb_str(b, ",\"severity\":\"skipped\",\"variant\":");
    sb_json(b, e->variant, strlen(e->variant));
    sb_str(b, "}\n");
  } else {
    sb_printf(b, "%s:%llu: game ", g->o->file, (unsigned long long)e->first_line);
    plen = b->n;
    if (g->white[0] || g->black[0])
      sb_printf(b, " (%s \xE2\x80\x93 %s)", g->white[0] ? g->white : "?",
                g->black[0] ? g->black : "?");
    sb_printf(b, ": skipped: Variant \"%s\" is not a game Arbiter plays\n", e->variant);
  }
  job_record(g->job, g->o->format != ARB_PGN_FORMAT_NONE, 0, e->game, 0, b->p, plen, b->p + plen,
             b->n - plen);
}

static void on_end_game(void *ctx, const arb_pgn_game_end *e) {
  gctx *g = ctx;
  if (e->skipped) report_skipped(g, e);
  int keep =
      !e->errors && !e->skipped && g->o->format != ARB_PGN_FORMAT_NONE && passes_filters(g, e);
  if (g->b) {
    g->bv.end_game(g->bv.ctx, e);
    arb_tree *tree = arb_tree_builder_take(g->b);
    if (keep && tree && arb_tree_write(tree, g->tw) == ARB_OK) {
      size_t n;
      const char *d = arb_pgn_writer_data(g->tw, &n);
      job_record(g->job, 0, 1, 0, g->o->dedupe ? g->hash | 1 : 0, d, n, "", 0);
    }
    arb_pgn_writer_clear(g->tw);
    arb_tree_free(tree);
    return;
  }
  if (!keep) {
    if (g->w) arb_pgn_writer_discard_game(g->w);
    return;
  }
  arb_result res = e->has_movetext_result ? e->movetext_result : e->tag_result;
  if (g->w) {
    arb_pgn_writer_end_game(g->w, res);
    size_t n;
    const char *d = arb_pgn_writer_data(g->w, &n);
    job_record(g->job, 0, 1, 0, g->o->dedupe ? g->hash | 1 : 0, d, n, "", 0);
    arb_pgn_writer_clear(g->w);
    return;
  }
  sbuf *t = &g->text;
  if (g->o->format == ARB_PGN_FORMAT_UCI || g->o->format == ARB_PGN_FORMAT_LAN) {
    sb_put(t, "\n", 1);
  } else if (g->o->format == ARB_PGN_FORMAT_FEN) {
    sb_put(t, "\n", 1);
  } else if (g->o->format == ARB_PGN_FORMAT_JSONL) {
    sb_str(t, "{\"tags\":");
    sb_str(t, g->tags_json.n ? g->tags_json.p : "{");
    sb_str(t, "}");
    if (g->has_fen) {
      char fen[ARB_FEN_MAX];
      arb_fen_write(&g->start, fen, sizeof fen, 0);
      sb_printf(t, ",\"start\":\"%s\"", fen);
    }
    if (e->chess960) sb_str(t, ",\"chess960\":true");
    sb_str(t, ",\"uci\":");
    sb_str(t, g->uci.n ? g->uci.p : "[");
    sb_str(t, "],\"san\":");
    sb_str(t, g->san.n ? g->san.p : "[");
    sb_str(t, "],\"comments\":");
    sb_str(t, g->comments.n ? g->comments.p : "[");
    sb_str(t, "],\"clocks\":");
    sb_str(t, g->clocks.n ? g->clocks.p : "[");
    sb_str(t, "],\"evals\":");
    sb_str(t, g->evals.n ? g->evals.p : "[");
    sb_printf(t, "],\"result\":\"%s\"", arb_result_string(res));
    if (e->final_outcome.termination)
      sb_printf(t, ",\"termination\":\"%s\"", arb_termination_name(e->final_outcome.termination));
    if (e->final_position) {
      char fen[ARB_FEN_MAX];
      arb_fen_write(e->final_position, fen, sizeof fen, 0);
      sb_printf(t, ",\"final\":\"%s\"", fen);
    }
    sb_str(t, "}\n");
  }
  job_record(g->job, 0, 1, 0, g->o->dedupe ? g->hash | 1 : 0, t->p ? t->p : "", t->n, "", 0);
}

struct arb_pgn_job {
  const arb_pgn_job_options *o;
  arb_pgn_record_fn sink;
  void *ctx;
  sbuf out; /* without a sink: the records, serialised */
  gctx g;
  arb_pgn_reader *r;
  int failed; /* memory ran out */
};

static void job_record(arb_pgn_job *j, int to_stderr, int is_game, uint64_t game, uint64_t hash,
                       const char *prefix, size_t plen, const char *suffix, size_t slen) {
  if (j->sink) {
    arb_pgn_record r = {
        (uint8_t)to_stderr, (uint8_t)is_game, game, hash, prefix, plen, suffix, slen};
    j->sink(j->ctx, &r);
    return;
  }
  rec_head h;
  memset(&h, 0, sizeof h);
  h.to_stderr = (uint8_t)to_stderr;
  h.is_game = (uint8_t)is_game;
  h.game = game;
  h.hash = hash;
  h.prefix_len = plen;
  h.suffix_len = slen;
  sb_put(&j->out, (const char *)&h, sizeof h);
  sb_put(&j->out, prefix, plen);
  sb_put(&j->out, suffix, slen);
}

int arb_pgn_records_next(const void *buf, size_t len, size_t *pos, arb_pgn_record *out) {
  const char *p = buf;
  rec_head h;
  if (!buf || *pos > len || len - *pos < sizeof h) return 0;
  memcpy(&h, p + *pos, sizeof h);
  size_t body = len - *pos - sizeof h;
  if (h.prefix_len > body || h.suffix_len > body - h.prefix_len) return 0;
  out->to_stderr = h.to_stderr;
  out->is_game = h.is_game;
  out->game = h.game;
  out->hash = h.hash;
  out->prefix = p + *pos + sizeof h;
  out->prefix_len = (size_t)h.prefix_len;
  out->suffix = out->prefix + h.prefix_len;
  out->suffix_len = (size_t)h.suffix_len;
  *pos += sizeof h + (size_t)h.prefix_len + (size_t)h.suffix_len;
  return 1;
}

arb_pgn_job *arb_pgn_job_new(const arb_pgn_job_options *o, uint64_t first_line,
                             arb_pgn_record_fn sink, void *ctx) {
  arb_pgn_job *j = calloc(1, sizeof *j);
  if (!j) return NULL;
  j->o = o;
  j->sink = sink;
  j->ctx = ctx;
  gctx *g = &j->g;
  g->o = o;
  g->job = j;
  int ok = 1;
  if (o->format == ARB_PGN_FORMAT_PGN && o->tree) {
    if (!(g->b = arb_tree_builder_new()) || !(g->tw = arb_pgn_writer_new(o->write_flags)))
      ok = 0;
    else
      arb_tree_builder_visitor(g->b, &g->bv);
  } else if (o->format == ARB_PGN_FORMAT_PGN && !(g->w = arb_pgn_writer_new(o->write_flags))) {
    ok = 0;
  }
  arb_pgn_visitor v = {g,      on_begin_game, on_tag,     on_begin_moves, on_move, on_comment,
                       on_nag, on_begin_var,  on_end_var, on_end_game,    on_error};
  if (o->format == ARB_PGN_FORMAT_NONE) {
    /* check: names for the reports are all it needs (the reader skips what has no callback) */
    v.move = NULL;
    v.comment = NULL;
    v.nag = NULL;
    v.begin_variation = v.end_variation = NULL;
  }
  arb_pgn_options ro;
  memset(&ro, 0, sizeof ro);
  ro.flags = o->read_flags;
  ro.rules = o->rules;
  ro.first_line = first_line;
  if (ok) j->r = arb_pgn_reader_new(&ro, &v);
  if (!j->r) {
    arb_pgn_job_free(j);
    return NULL;
  }
  return j;
}

void arb_pgn_job_free(arb_pgn_job *j) {
  if (!j) return;
  gctx *g = &j->g;
  arb_pgn_reader_free(j->r);
  arb_pgn_writer_free(g->w);
  arb_pgn_writer_free(g->tw);
  arb_tree_builder_free(g->b);
  free(g->text.p);
  free(g->tmp.p);
  free(g->tags_json.p);
  free(g->comments.p);
  free(g->clocks.p);
  free(g->evals.p);
  free(g->uci.p);
  free(g->san.p);
  free(j->out.p);
  free(j);
}

arb_status arb_pgn_job_feed(arb_pgn_job *j, const void *data, size_t len) {
  if (arb_pgn_reader_feed(j->r, data, len) != ARB_OK) j->failed = 1;
  return j->failed || j->out.oom ? ARB_ERR_NO_MEMORY : ARB_OK;
}

arb_status arb_pgn_job_finish(arb_pgn_job *j, arb_pgn_stats *stats) {
  if (arb_pgn_reader_finish(j->r) != ARB_OK) j->failed = 1;
  if (stats) arb_pgn_reader_stats(j->r, stats);
  return j->failed || j->out.oom ? ARB_ERR_NO_MEMORY : ARB_OK;
}

void arb_pgn_job_stats(const arb_pgn_job *j, arb_pgn_stats *stats) {
  arb_pgn_reader_stats(j->r, stats);
}

const void *arb_pgn_job_records(const arb_pgn_job *j, size_t *len) {
  *len = j->out.n;
  return j->out.p ? j->out.p : "";
}

/* ---- ordered output ---- */

struct arb_pgn_output {
  int dedupe;
  arb_pgn_write_fn write;
  void *ctx;
  arb_pgn_stats s;
  uint64_t written, duplicates, game_base;
  /* dedupe: open addressing on 64-bit hashes */
  uint64_t *set;
  size_t set_cap, set_n;
};

arb_pgn_output *arb_pgn_output_new(int dedupe, arb_pgn_write_fn write, void *ctx) {
  arb_pgn_output *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->dedupe = dedupe;
  t->write = write;
  t->ctx = ctx;
  return t;
}

void arb_pgn_output_free(arb_pgn_output *t) {
  if (!t) return;
  free(t->set);
  free(t);
}

void arb_pgn_output_file(arb_pgn_output *t) { t->game_base = 0; }

static int seen_before(arb_pgn_output *t, uint64_t h) {
  if (t->set_n * 2 >= t->set_cap) {
    size_t cap = t->set_cap ? t->set_cap * 2 : 1u << 12;
    uint64_t *s = calloc(cap, sizeof *s);
    if (!s) return 0;
    for (size_t i = 0; i < t->set_cap; i++)
      if (t->set[i]) {
        size_t k = (size_t)(t->set[i] * 0x9E3779B97F4A7C15ull) & (cap - 1);
        while (s[k])
          k = (k + 1) & (cap - 1);
        s[k] = t->set[i];
      }
    free(t->set);
    t->set = s;
    t->set_cap = cap;
  }
  size_t k = (size_t)(h * 0x9E3779B97F4A7C15ull) & (t->set_cap - 1);
  while (t->set[k]) {
    if (t->set[k] == h) return 1;
    k = (k + 1) & (t->set_cap - 1);
  }
  t->set[k] = h;
  t->set_n++;
  return 0;
}

void arb_pgn_output_record(arb_pgn_output *t, const arb_pgn_record *r) {
  if (t->dedupe && r->hash && seen_before(t, r->hash)) {
    t->duplicates++;
    return;
  }
  t->write(t->ctx, r->to_stderr, r->prefix, r->prefix_len);
  if (r->game) {
    char num[24];
    int k = snprintf(num, sizeof num, "%llu", (unsigned long long)(t->game_base + r->game));
    t->write(t->ctx, r->to_stderr, num, (size_t)k);
  }
  t->write(t->ctx, r->to_stderr, r->suffix, r->suffix_len);
  if (r->is_game) t->written++;
}

void arb_pgn_output_job_done(arb_pgn_output *t, const arb_pgn_stats *s) {
  t->game_base += s->games;
  t->s.bytes += s->bytes;
  t->s.games += s->games;
  t->s.games_with_errors += s->games_with_errors;
  t->s.games_skipped += s->games_skipped;
  t->s.plies += s->plies;
  t->s.errors += s->errors;
  t->s.warnings += s->warnings;
}

void arb_pgn_output_totals(const arb_pgn_output *t, arb_pgn_stats *stats, uint64_t *written,
                           uint64_t *duplicates) {
  if (stats) *stats = t->s;
  if (written) *written = t->written;
  if (duplicates) *duplicates = t->duplicates;
}

int arb_pgn_summary_write(const arb_pgn_stats *s, double secs, int json, char *buf, size_t size) {
  double mb = (double)s->bytes / 1e6;
  if (json)
    return snprintf(
        buf, size,
        "{\"summary\":{\"games\":%llu,\"games_with_errors\":%llu,\"skipped\":%llu,"
        "\"problems\":%llu,\"warnings\":%llu,\"plies\":%llu,\"bytes\":%llu,\"seconds\":%.3f}}\n",
        (unsigned long long)s->games, (unsigned long long)s->games_with_errors,
        (unsigned long long)s->games_skipped, (unsigned long long)s->errors,
        (unsigned long long)s->warnings, (unsigned long long)s->plies, (unsigned long long)s->bytes,
        secs);
  return snprintf(buf, size,
                  "%llu games, %llu with errors (%llu errors, %llu warnings), %llu skipped (other "
                  "variants), %llu plies; %.1f MB in %.2f s (%.1f MB/s)\n",
                  (unsigned long long)s->games, (unsigned long long)s->games_with_errors,
                  (unsigned long long)s->errors, (unsigned long long)s->warnings,
                  (unsigned long long)s->games_skipped, (unsigned long long)s->plies, mb, secs,
                  secs > 0 ? mb / secs : 0.0);
}
