/* Arbiter — MIT licence, see LICENSE.
 *
 * pgn_cmd.c: `arbiter pgn check|convert|filter` — PGN files replayed under the full rules.
 *
 * With one thread the whole input goes through one reader, block by block.  With -j N the input
 * is cut into chunks of about 256 KB at game boundaries (a "[Event" line after a blank line);
 * each chunk is read by its own reader in one of N workers, and the chunks' output is written in
 * input order, so the output is byte for byte the one thread's — except for an input with no
 * game boundary in 512 KB, which is cut at a line end there (memory stays bounded).  Memory: one
 * reader (one thread); N + 1 chunks and their output (N workers).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_source.h"
#include "util.h"

#define CHUNK (1u << 18)
#define CHUNK_MAX (1u << 19) /* no game boundary within this: cut at a line end anyway */
#define READ_BLOCK (1u << 17)

enum { MODE_CHECK, MODE_CONVERT };
enum { FMT_NONE, FMT_PGN, FMT_UCI, FMT_LAN, FMT_FEN, FMT_JSONL };

typedef struct tag_filter {
  char name[64];
  const char *value;
} tag_filter;

typedef struct pgn_opts {
  int mode, fmt, json, quiet, jobs, tree;
  unsigned read_flags, write_flags;
  arb_ruleset rules;
  /* filters */
  int filtering;
  const char *white, *black, *player, *result, *date_from, *date_to, *eco_from, *eco_to;
  long min_elo, max_elo;
  int setup; /* 1 only games from a FEN, -1 only games from the initial position */
  int has_key, dedupe;
  uint64_t key;
  arb_position target; /* --position: compare placement, side, castling too */
  int has_target;
  tag_filter tags[16];
  int ntags;
  char eco_buf[2][4];
} pgn_opts;

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
#include <stdarg.h>
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

/* ---- a chunk of input and its output records ---- */

/* Output records: header, then prefix_len + suffix_len bytes.  An error report is "prefix N
 * suffix" with N the game number (known only when the chunks are put in order); a game's text
 * has no number (game = 0). */
typedef struct rec_head {
  uint8_t to_stderr;
  uint8_t is_game; /* a game's output (counts for dedupe and the "written" figure) */
  uint64_t game;   /* relative game number for error reports, else 0 */
  uint64_t hash;   /* dedupe hash of a game's output, 0 = none */
  size_t prefix_len, suffix_len;
} rec_head;

struct totals;

typedef struct job {
  const char *file;
  char *data;
  size_t len;
  uint64_t first_line;
  sbuf out;
  arb_pgn_stats stats;
  int done;
  struct totals *direct; /* without workers: records go straight out, in order anyway */
} job;

static void emit_record(struct totals *t, const rec_head *h, const char *pre, const char *suf);

static void rec_add(job *j, int to_stderr, int is_game, uint64_t game, uint64_t hash,
                    const char *prefix, size_t plen, const char *suffix, size_t slen) {
  rec_head h = {(uint8_t)to_stderr, (uint8_t)is_game, game, hash, plen, slen};
  if (j->direct) {
    emit_record(j->direct, &h, prefix, suffix);
    return;
  }
  sb_put(&j->out, (const char *)&h, sizeof h);
  sb_put(&j->out, prefix, plen);
  sb_put(&j->out, suffix, slen);
}

/* ---- per-game state of a worker ---- */

typedef struct gctx {
  const pgn_opts *o;
  job *j;
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
  int to_stderr = g->o->mode != MODE_CHECK;
  if (g->o->json) {
    sb_str(b, "{\"file\":");
    sb_json(b, g->j->file, strlen(g->j->file));
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
    rec_add(g->j, to_stderr, 0, e->where.game, 0, b->p, plen, b->p + plen, b->n - plen);
    return;
  }
  sb_printf(b, "%s:%llu:", g->j->file, (unsigned long long)e->where.line);
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
  rec_add(g->j, to_stderr, 0, e->where.game, 0, b->p, plen, b->p + plen, b->n - plen);
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

static int on_tag(void *ctx, const char *name, size_t nl, const char *value, size_t vl) {
  gctx *g = ctx;
  if (!strcmp(name, "White"))
    copy_trunc(g->white, sizeof g->white, value, vl);
  else if (!strcmp(name, "Black"))
    copy_trunc(g->black, sizeof g->black, value, vl);
  else if (!strcmp(name, "Date"))
    copy_trunc(g->date, sizeof g->date, value, vl);
  else if (!strcmp(name, "ECO"))
    copy_trunc(g->eco, sizeof g->eco, value, vl);
  else if (!strcmp(name, "Result"))
    copy_trunc(g->result_tag, sizeof g->result_tag, value, vl);
  else if (!strcmp(name, "WhiteElo"))
    g->has_white_elo = sscanf(value, "%ld", &g->white_elo) == 1;
  else if (!strcmp(name, "BlackElo"))
    g->has_black_elo = sscanf(value, "%ld", &g->black_elo) == 1;
  else if (!strcmp(name, "FEN"))
    g->has_fen = 1;
  for (int i = 0; i < g->o->ntags; i++)
    if (!strcmp(name, g->o->tags[i].name) && !strcmp(value, g->o->tags[i].value))
      g->tag_hits |= 1u << i;
  if (g->w) arb_pgn_writer_tag(g->w, name, nl, value, vl);
  if (g->b) g->bv.tag(g->bv.ctx, name, nl, value, vl);
  if (g->o->fmt == FMT_JSONL) {
    sb_str(&g->tags_json, g->tags_json.n ? "," : "{");
    sb_json(&g->tags_json, name, nl);
    sb_str(&g->tags_json, ":");
    sb_json(&g->tags_json, value, vl);
  }
  return 0;
}

static int position_matches(const pgn_opts *o, const arb_position *p) {
  if (o->has_key && p->key == o->key) return 1;
  if (o->has_target && p->key == o->target.key &&
      memcmp(p->board, o->target.board, sizeof p->board) == 0 && p->turn == o->target.turn)
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
  if (g->o->fmt == FMT_FEN) put_fen(g, start);
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
  if (!g->pos_hit && (g->o->has_key || g->o->has_target))
    g->pos_hit = position_matches(g->o, m->after);
  char buf[16];
  int k;
  switch (g->o->fmt) {
  case FMT_UCI:
    k = arb_uci_write(m->before, m->move, buf, sizeof buf);
    if (g->text.n) sb_put(&g->text, " ", 1);
    sb_put(&g->text, buf, (size_t)k);
    break;
  case FMT_LAN:
    k = arb_lan_write(m->before, m->move, buf, sizeof buf);
    if (g->text.n) sb_put(&g->text, " ", 1);
    sb_put(&g->text, buf, k > 0 ? (size_t)k : 0);
    break;
  case FMT_FEN: put_fen(g, m->after); break;
  case FMT_JSONL:
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
  if (g->o->fmt != FMT_JSONL || depth) return 0;
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
  const pgn_opts *o = g->o;
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
  if ((o->has_key || o->has_target) && !g->pos_hit) return 0;
  return 1;
}

/* A game not replayed because its Variant names other rules: a note, not a problem. */
static void report_skipped(gctx *g, const arb_pgn_game_end *e) {
  sbuf *b = &g->tmp;
  b->n = 0;
  size_t plen;
  if (g->o->json) {
    sb_str(b, "{\"file\":");
    sb_json(b, g->j->file, strlen(g->j->file));
    sb_printf(b, ",\"line\":%llu,\"game\":", (unsigned long long)e->first_line);
    plen = b->n;
    sb_str(b, ",\"severity\":\"skipped\",\"variant\":");
    sb_json(b, e->variant, strlen(e->variant));
    sb_str(b, "}\n");
  } else {
    sb_printf(b, "%s:%llu: game ", g->j->file, (unsigned long long)e->first_line);
    plen = b->n;
    if (g->white[0] || g->black[0])
      sb_printf(b, " (%s \xE2\x80\x93 %s)", g->white[0] ? g->white : "?",
                g->black[0] ? g->black : "?");
    sb_printf(b, ": skipped: Variant \"%s\" is not a game Arbiter plays\n", e->variant);
  }
  rec_add(g->j, g->o->mode != MODE_CHECK, 0, e->game, 0, b->p, plen, b->p + plen, b->n - plen);
}

static void on_end_game(void *ctx, const arb_pgn_game_end *e) {
  gctx *g = ctx;
  if (e->skipped) report_skipped(g, e);
  int keep = !e->errors && !e->skipped && g->o->fmt != FMT_NONE && passes_filters(g, e);
  if (g->b) {
    g->bv.end_game(g->bv.ctx, e);
    arb_tree *tree = arb_tree_builder_take(g->b);
    if (keep && tree && arb_tree_write(tree, g->tw) == ARB_OK) {
      size_t n;
      const char *d = arb_pgn_writer_data(g->tw, &n);
      rec_add(g->j, 0, 1, 0, g->o->dedupe ? g->hash | 1 : 0, d, n, "", 0);
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
    rec_add(g->j, 0, 1, 0, g->o->dedupe ? g->hash | 1 : 0, d, n, "", 0);
    arb_pgn_writer_clear(g->w);
    return;
  }
  sbuf *t = &g->text;
  if (g->o->fmt == FMT_UCI || g->o->fmt == FMT_LAN) {
    sb_put(t, "\n", 1);
  } else if (g->o->fmt == FMT_FEN) {
    sb_put(t, "\n", 1);
  } else if (g->o->fmt == FMT_JSONL) {
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
  rec_add(g->j, 0, 1, 0, g->o->dedupe ? g->hash | 1 : 0, t->p ? t->p : "", t->n, "", 0);
}

/* A reader with its visitor state, fed one chunk (workers) or a whole input (one thread). */
typedef struct reading {
  gctx g;
  arb_pgn_reader *r;
} reading;

static int reading_begin(reading *rd, const pgn_opts *o, job *j) {
  memset(&rd->g, 0, sizeof rd->g);
  rd->g.o = o;
  rd->g.j = j;
  if (o->fmt == FMT_PGN && o->tree) {
    if (!(rd->g.b = arb_tree_builder_new()) || !(rd->g.tw = arb_pgn_writer_new(o->write_flags)))
      return -1;
    arb_tree_builder_visitor(rd->g.b, &rd->g.bv);
  } else if (o->fmt == FMT_PGN && !(rd->g.w = arb_pgn_writer_new(o->write_flags))) {
    return -1;
  }
  arb_pgn_visitor v = {&rd->g, on_begin_game, on_tag,     on_begin_moves, on_move, on_comment,
                       on_nag, on_begin_var,  on_end_var, on_end_game,    on_error};
  if (o->fmt == FMT_NONE) {
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
  ro.first_line = j->first_line;
  rd->r = arb_pgn_reader_new(&ro, &v);
  return rd->r ? 0 : -1;
}

static void reading_end(reading *rd, job *j) {
  if (rd->r) {
    arb_pgn_reader_finish(rd->r);
    arb_pgn_reader_stats(rd->r, &j->stats);
  } else {
    j->out.oom = 1;
  }
  gctx *g = &rd->g;
  arb_pgn_reader_free(rd->r);
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
}

/* Reads one chunk: the whole job of a worker. */
static void run_job(const pgn_opts *o, job *j) {
  reading rd;
  if (reading_begin(&rd, o, j) == 0 && arb_pgn_reader_feed(rd.r, j->data, j->len) != ARB_OK)
    j->out.oom = 1;
  reading_end(&rd, j);
  free(j->data);
  j->data = NULL;
}

/* ---- ordered output ---- */

typedef struct totals {
  arb_pgn_stats s;
  uint64_t written, duplicates, game_base;
  const char *file;
  int oom;
  /* dedupe: open addressing on 64-bit hashes */
  uint64_t *set;
  size_t set_cap, set_n;
} totals;

static int seen_before(totals *t, uint64_t h) {
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

static void emit_record(totals *t, const rec_head *h, const char *pre, const char *suf) {
  if (h->hash && seen_before(t, h->hash)) {
    t->duplicates++;
    return;
  }
  FILE *f = h->to_stderr ? stderr : stdout;
  fwrite(pre, 1, h->prefix_len, f);
  if (h->game) fprintf(f, "%llu", (unsigned long long)(t->game_base + h->game));
  fwrite(suf, 1, h->suffix_len, f);
  if (h->is_game) t->written++;
}

static void emit(totals *t, job *j) {
  if (j->out.oom) t->oom = 1;
  size_t i = 0;
  while (i + sizeof(rec_head) <= j->out.n) {
    rec_head h;
    memcpy(&h, j->out.p + i, sizeof h);
    const char *pre = j->out.p + i + sizeof h, *suf = pre + h.prefix_len;
    i += sizeof h + h.prefix_len + h.suffix_len;
    emit_record(t, &h, pre, suf);
  }
  t->game_base += j->stats.games;
  t->s.bytes += j->stats.bytes;
  t->s.games += j->stats.games;
  t->s.games_with_errors += j->stats.games_with_errors;
  t->s.games_skipped += j->stats.games_skipped;
  t->s.plies += j->stats.plies;
  t->s.errors += j->stats.errors;
  t->s.warnings += j->stats.warnings;
  free(j->out.p);
  memset(&j->out, 0, sizeof j->out);
}

/* ---- worker pool ---- */

#define MAX_JOBS 64
typedef struct pool {
  const pgn_opts *o;
  totals *t;
  job slots[2 * MAX_JOBS];
  int nslots;
  uint64_t submitted, taken, emitted;
  int closing;
  pthread_mutex_t mu;
  pthread_cond_t work, done;
  pthread_t threads[MAX_JOBS];
  int nthreads;
} pool;

static void *worker(void *arg) {
  pool *p = arg;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (p->taken == p->submitted && !p->closing)
      pthread_cond_wait(&p->work, &p->mu);
    if (p->taken == p->submitted) break;
    job *j = &p->slots[p->taken++ % (uint64_t)p->nslots];
    pthread_mutex_unlock(&p->mu);
    run_job(p->o, j);
    pthread_mutex_lock(&p->mu);
    j->done = 1;
    pthread_cond_broadcast(&p->done);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* Emits finished jobs in order; with `all`, waits for every submitted job. */
static void drain(pool *p, int all) {
  pthread_mutex_lock(&p->mu);
  for (;;) {
    if (p->emitted == p->submitted) break;
    job *j = &p->slots[p->emitted % (uint64_t)p->nslots];
    if (!j->done) {
      if (!all && p->submitted - p->emitted < (uint64_t)p->nslots) break;
      pthread_cond_wait(&p->done, &p->mu);
      continue;
    }
    pthread_mutex_unlock(&p->mu);
    if (j->file != p->t->file) {
      p->t->file = j->file;
      p->t->game_base = 0;
    }
    emit(p->t, j);
    pthread_mutex_lock(&p->mu);
    p->emitted++;
  }
  pthread_mutex_unlock(&p->mu);
}

static void submit(pool *p, const char *file, char *data, size_t len, uint64_t first_line) {
  if (p->nthreads == 0) {
    job j;
    memset(&j, 0, sizeof j);
    j.file = file;
    j.data = data;
    j.len = len;
    j.first_line = first_line;
    if (file != p->t->file) {
      p->t->file = file;
      p->t->game_base = 0;
    }
    j.direct = p->t;
    run_job(p->o, &j);
    emit(p->t, &j); /* nothing left but the counts */
    return;
  }
  drain(p, 0);
  pthread_mutex_lock(&p->mu);
  job *j = &p->slots[p->submitted % (uint64_t)p->nslots];
  memset(j, 0, sizeof *j);
  j->file = file;
  j->data = data;
  j->len = len;
  j->first_line = first_line;
  p->submitted++;
  pthread_cond_signal(&p->work);
  pthread_mutex_unlock(&p->mu);
}

/* Where to cut buf[0, n): just before a "[Event" line that follows a blank line, at or after
 * CHUNK bytes; 0 when there is none yet. */
static size_t find_cut(const char *buf, size_t n) {
  size_t i = CHUNK;
  while (i + 8 < n) {
    const char *q = memchr(buf + i, '[', n - i - 8);
    if (!q) return 0;
    size_t k = (size_t)(q - buf);
    if (k >= 2 && buf[k - 1] == '\n' && memcmp(q, "[Event ", 7) == 0 &&
        (buf[k - 2] == '\n' || (k >= 3 && buf[k - 2] == '\r' && buf[k - 3] == '\n')))
      return k;
    i = k + 1;
  }
  return 0;
}

static uint64_t count_lines(const char *p, size_t n) {
  uint64_t c = 0;
  const char *e = p + n;
  while ((p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
    c++;
    p++;
  }
  return c;
}

/* One thread: the whole input through one reader, block by block; nothing is cut. */
static int stream_input(pool *p, const char *name, pgn_source *in) {
  job j;
  memset(&j, 0, sizeof j);
  j.file = name;
  j.first_line = 1;
  if (name != p->t->file) {
    p->t->file = name;
    p->t->game_base = 0;
  }
  j.direct = p->t;
  reading rd;
  int rc = reading_begin(&rd, p->o, &j);
  static const size_t block = READ_BLOCK;
  char *buf = rc == 0 ? malloc(block) : NULL;
  if (!buf) rc = -1;
  while (rc == 0) {
    size_t k = pgn_source_read(in, buf, block);
    if (k && arb_pgn_reader_feed(rd.r, buf, k) != ARB_OK) rc = -1;
    if (k < block) break;
  }
  free(buf);
  reading_end(&rd, &j);
  emit(p->t, &j); /* the counts */
  return rc || pgn_source_error(in) ? -1 : 0;
}

static int read_input(pool *p, const char *name, pgn_source *in) {
  if (p->nthreads == 0) return stream_input(p, name, in);
  char *buf = NULL;
  size_t n = 0, cap = 0;
  uint64_t line = 1;
  int eof = 0;
  while (!eof || n > 0) {
    if (!eof && n < CHUNK_MAX + READ_BLOCK) {
      if (n + READ_BLOCK > cap) {
        size_t c = cap ? cap * 2 : CHUNK + READ_BLOCK;
        char *b = realloc(buf, c);
        if (!b) {
          free(buf);
          return -1;
        }
        buf = b;
        cap = c;
      }
      size_t k = pgn_source_read(in, buf + n, READ_BLOCK);
      n += k;
      if (k < READ_BLOCK) eof = 1;
      if (n < CHUNK && !eof) continue;
    }
    size_t cut = eof && n <= CHUNK ? n : find_cut(buf, n);
    if (!cut && !eof && n < CHUNK_MAX) continue;
    if (!cut) {
      if (eof && n <= CHUNK_MAX) {
        cut = n;
      } else {
        /* No game boundary: cut after a line end (reported as a damaged game, memory bound). */
        const char *nl = NULL;
        for (size_t k = CHUNK_MAX; k > CHUNK && !nl; k--)
          if (buf[k - 1] == '\n') nl = buf + k;
        cut = nl ? (size_t)(nl - buf) : CHUNK_MAX;
      }
    }
    char *chunk = malloc(cut ? cut : 1);
    if (!chunk) {
      free(buf);
      return -1;
    }
    memcpy(chunk, buf, cut);
    uint64_t lines = count_lines(chunk, cut);
    submit(p, name, chunk, cut, line);
    line += lines;
    memmove(buf, buf + cut, n - cut);
    n -= cut;
  }
  free(buf);
  return pgn_source_error(in) ? -1 : 0;
}

/* ---- command line ---- */

static void pgn_usage(FILE *out) {
  fprintf(
      out,
      "usage: arbiter pgn check [OPTIONS] [FILE...]\n"
      "       arbiter pgn convert [--to FORMAT] [OPTIONS] [FILE...]\n"
      "       arbiter pgn filter [FILTERS] [--to FORMAT] [OPTIONS] [FILE...]\n"
      "\n"
      "Reads PGN files (or stdin, also as '-') and replays every game and variation under the\n"
      "full rules; a file compressed with zstd (.pgn.zst, as lichess publishes its database) or\n"
      "gzip (.pgn.gz) is read as it is decompressed.  Problems are reported as\n"
      "  FILE:LINE:COL: game N (White \xE2\x80\x93 Black): ply P: message\n"
      "and reading goes on with the next game.  Results are checked against the termination\n"
      "marker and the final position (mate, stalemate, dead position, fivefold, 75 moves), and a\n"
      "win on time (Termination \"Time forfeit\") against whether the winner could mate at all.\n"
      "Games whose Variant names other rules (crazyhouse, atomic, ...) are skipped, not errors.\n"
      "\n"
      "check: reports to stdout and a summary line; exit 1 when any game has a problem.\n"
      "convert: writes every game without problems (reports go to stderr); formats:\n"
      "  pgn    export format (default): Seven Tag Roster first, lines under 80 columns\n"
      "  uci    one line of UCI moves per game (main line)\n"
      "  lan    one line of long algebraic moves per game\n"
      "  fen    the FEN of every main-line position, a blank line after each game\n"
      "  jsonl  one JSON object per game: tags, start, uci, san, comments [[ply, text]],\n"
      "         clocks [[ply, ms]], evals [[ply, \"0.17\" or \"#-3\", depth if given]],\n"
      "         result, termination, final\n"
      "filter: convert only the games that pass every filter given:\n"
      "  --white NAME --black NAME --player NAME   (substring, any case)\n"
      "  --result R (1-0, 0-1, 1/2-1/2, *)   --date-from YYYY.MM.DD   --date-to YYYY.MM.DD\n"
      "  --min-elo N --max-elo N (both players)   --eco A00[-E99]   --tag NAME=VALUE\n"
      "  --setup (only games from a FEN)   --no-setup   --position FEN   --key HEX (Polyglot)\n"
      "  --dedupe (drop repeated games: same start and main-line moves)\n"
      "\n"
      "Options:\n"
      "  --json          check: one JSON object per problem, and a summary object\n"
      "  --strict        exact SAN and export-format habits; deviations are problems\n"
      "  --allow-null    accept null moves (--, Z0)\n"
      "  --no-result-check  do not check results (studies and puzzles end in mate with *)\n"
      "  --rules NAME    fide (default), fide-rapid, fide-blitz, uscf, online, casual\n"
      "  --no-comments --no-variations --no-nags   (pgn output)\n"
      "  --tree          pgn output through a game tree (arbiter/tree.h): comment commands\n"
      "                  ([%%clk] [%%emt] [%%eval] [%%csl] [%%cal]) rewritten in one canonical "
      "form\n"
      "  -j N            N worker threads (output stays in input order)\n"
      "  -q              no summary line\n"
      "Exit status: 0 clean, 1 a problem was found, 2 bad usage or unreadable input.\n");
}

static int parse_opts(int argc, char **argv, pgn_opts *o, int *first_file) {
  int i = 2;
  for (; i < argc; i++) {
    const char *a = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VAL                                                                                   \
  do {                                                                                             \
    if (!val) {                                                                                    \
      fprintf(stderr, "arbiter pgn: %s needs a value\n", a);                                       \
      return 2;                                                                                    \
    }                                                                                              \
    i++;                                                                                           \
  } while (0)
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      pgn_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--json")) {
      o->json = 1;
    } else if (!strcmp(a, "--strict")) {
      o->read_flags |= ARB_PGN_STRICT;
    } else if (!strcmp(a, "--allow-null")) {
      o->read_flags |= ARB_PGN_ALLOW_NULL;
    } else if (!strcmp(a, "--no-result-check")) {
      o->read_flags |= ARB_PGN_NO_RESULT_CHECK;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      o->quiet = 1;
    } else if (!strcmp(a, "--tree")) {
      o->tree = 1;
    } else if (!strcmp(a, "--no-comments")) {
      o->write_flags |= ARB_PGN_WRITE_NO_COMMENTS;
    } else if (!strcmp(a, "--no-variations")) {
      o->write_flags |= ARB_PGN_WRITE_NO_VARIATIONS;
    } else if (!strcmp(a, "--no-nags")) {
      o->write_flags |= ARB_PGN_WRITE_NO_NAGS;
    } else if (!strcmp(a, "--rules")) {
      NEED_VAL;
      if (arb_rules_parse(val, &o->rules) != ARB_OK) {
        fprintf(stderr, "arbiter pgn: unknown rules '%s'\n", val);
        return 2;
      }
    } else if (!strcmp(a, "-j") || !strncmp(a, "-j", 2)) {
      const char *n = a[2] ? a + 2 : val;
      if (!a[2]) NEED_VAL;
      char *end;
      long k = strtol(n, &end, 10);
      if (*end || k < 1 || k > MAX_JOBS) {
        fprintf(stderr, "arbiter pgn: -j wants 1 to %d\n", MAX_JOBS);
        return 2;
      }
      o->jobs = (int)k;
    } else if (!strcmp(a, "--to")) {
      NEED_VAL;
      static const char *const names[] = {"", "pgn", "uci", "lan", "fen", "jsonl"};
      int f = 0;
      for (int k = 1; k <= FMT_JSONL; k++)
        if (!strcmp(val, names[k])) f = k;
      if (!f || o->mode == MODE_CHECK) {
        fprintf(stderr, "arbiter pgn: --to wants pgn, uci, lan, fen or jsonl (convert, filter)\n");
        return 2;
      }
      o->fmt = f;
    } else if (!strcmp(a, "--white") || !strcmp(a, "--black") || !strcmp(a, "--player") ||
               !strcmp(a, "--result") || !strcmp(a, "--date-from") || !strcmp(a, "--date-to")) {
      NEED_VAL;
      o->filtering = 1;
      if (!strcmp(a, "--white"))
        o->white = val;
      else if (!strcmp(a, "--black"))
        o->black = val;
      else if (!strcmp(a, "--player"))
        o->player = val;
      else if (!strcmp(a, "--date-from"))
        o->date_from = val;
      else if (!strcmp(a, "--date-to"))
        o->date_to = val;
      else {
        arb_result r;
        if (arb_pgn_result_parse(val, strlen(val), &r) != 0) {
          fprintf(stderr, "arbiter pgn: --result wants 1-0, 0-1, 1/2-1/2 or *\n");
          return 2;
        }
        o->result = val;
      }
    } else if (!strcmp(a, "--min-elo") || !strcmp(a, "--max-elo")) {
      NEED_VAL;
      char *end;
      long k = strtol(val, &end, 10);
      if (*end || k <= 0) {
        fprintf(stderr, "arbiter pgn: %s wants a positive number\n", a);
        return 2;
      }
      o->filtering = 1;
      if (a[3] == 'i')
        o->min_elo = k;
      else
        o->max_elo = k;
    } else if (!strcmp(a, "--eco")) {
      NEED_VAL;
      char *from = o->eco_buf[0], *to = o->eco_buf[1];
      size_t n = strlen(val);
      if (!(n == 3 || (n == 7 && val[3] == '-'))) {
        fprintf(stderr, "arbiter pgn: --eco wants A00 or A00-E99\n");
        return 2;
      }
      memcpy(from, val, 3);
      memcpy(to, n == 7 ? val + 4 : val, 3);
      from[3] = to[3] = '\0';
      o->eco_from = from;
      o->eco_to = to;
      o->filtering = 1;
    } else if (!strcmp(a, "--tag")) {
      NEED_VAL;
      const char *eq = strchr(val, '=');
      if (!eq || eq == val || (size_t)(eq - val) >= sizeof o->tags[0].name || o->ntags == 16) {
        fprintf(stderr, "arbiter pgn: --tag wants NAME=VALUE (at most 16)\n");
        return 2;
      }
      memcpy(o->tags[o->ntags].name, val, (size_t)(eq - val));
      o->tags[o->ntags].name[eq - val] = '\0';
      o->tags[o->ntags++].value = eq + 1;
      o->filtering = 1;
    } else if (!strcmp(a, "--setup") || !strcmp(a, "--no-setup")) {
      o->setup = a[2] == 's' ? 1 : -1;
      o->filtering = 1;
    } else if (!strcmp(a, "--position")) {
      NEED_VAL;
      arb_fen_report rep;
      if (arb_fen_read(&o->target, val, ARB_FEN_PROBLEMS_ALL, &rep) != ARB_OK) {
        fprintf(stderr, "arbiter pgn: --position: %s\n", rep.message);
        return 2;
      }
      o->has_target = 1;
      o->filtering = 1;
    } else if (!strcmp(a, "--key")) {
      NEED_VAL;
      char *end;
      errno = 0;
      unsigned long long k = strtoull(val, &end, 16);
      if (*end || errno || !*val) {
        fprintf(stderr, "arbiter pgn: --key wants a hexadecimal Polyglot key\n");
        return 2;
      }
      o->key = k;
      o->has_key = 1;
      o->filtering = 1;
    } else if (!strcmp(a, "--dedupe")) {
      o->dedupe = 1;
      o->filtering = 1;
    } else if (!strcmp(a, "-") || a[0] != '-') {
      break;
    } else {
      fprintf(stderr, "arbiter pgn: unknown option '%s' (see --help)\n", a);
      return 2;
    }
  }
  *first_file = i;
  return -1;
}

int arb_cmd_pgn(int argc, char **argv) {
  if (argc < 3 || !strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")) {
    pgn_usage(argc < 3 ? stderr : stdout);
    return argc < 3 ? 2 : 0;
  }
  pgn_opts o;
  memset(&o, 0, sizeof o);
  o.jobs = 1;
  const char *sub = argv[2];
  if (!strcmp(sub, "check")) {
    o.mode = MODE_CHECK;
    o.fmt = FMT_NONE;
  } else if (!strcmp(sub, "convert") || !strcmp(sub, "filter")) {
    o.mode = MODE_CONVERT;
    o.fmt = FMT_PGN;
  } else {
    fprintf(stderr, "arbiter pgn: unknown subcommand '%s' (check, convert, filter)\n", sub);
    return 2;
  }
  int first;
  int rc = parse_opts(argc - 1, argv + 1, &o, &first);
  if (rc >= 0) return rc;
  first += 1;
  if (!strcmp(sub, "filter") && !o.filtering) {
    fprintf(stderr, "arbiter pgn filter: give at least one filter (see --help)\n");
    return 2;
  }

  totals t;
  memset(&t, 0, sizeof t);
  pool *p = calloc(1, sizeof *p);
  if (!p) return 2;
  p->o = &o;
  p->t = &t;
  p->nslots = o.jobs + 1; /* one chunk being read while each worker has one */
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work, NULL);
  pthread_cond_init(&p->done, NULL);
  if (o.jobs > 1)
    for (int k = 0; k < o.jobs; k++)
      if (pthread_create(&p->threads[p->nthreads], NULL, worker, p) == 0) p->nthreads++;
  if (p->nthreads == 0) p->nslots = 1;

  double t0 = arb_tool_now();
  int bad_input = 0;
  int nfiles = argc - first;
  for (int k = first; k < argc || (nfiles == 0 && k == first); k++) {
    const char *name = nfiles == 0 ? "-" : argv[k];
    FILE *in = strcmp(name, "-") == 0 ? stdin : fopen(name, "rb");
    const char *shown = strcmp(name, "-") == 0 ? "<stdin>" : name;
    if (!in) {
      fprintf(stderr, "arbiter pgn: %s: %s\n", name, strerror(errno));
      bad_input = 1;
      continue;
    }
    /* plain, .pgn.zst or .pgn.gz: told by the first bytes, decompressed as it is read */
    pgn_source *src = pgn_source_open(in);
    if (!src || read_input(p, shown, src) != 0) {
      const char *why = src ? pgn_source_error(src) : NULL;
      fprintf(stderr, "arbiter pgn: %s: %s\n", shown, why ? why : "out of memory");
      bad_input = 1;
    }
    pgn_source_close(src);
    if (in != stdin) fclose(in);
    if (nfiles == 0) break;
  }
  if (p->nthreads) {
    drain(p, 1);
    pthread_mutex_lock(&p->mu);
    p->closing = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int k = 0; k < p->nthreads; k++)
      pthread_join(p->threads[k], NULL);
  }
  double secs = arb_tool_now() - t0;
  fflush(stdout);
  FILE *sum = o.mode == MODE_CHECK ? stdout : stderr;
  if (!o.quiet && (o.mode == MODE_CHECK || t.s.errors)) {
    double mb = (double)t.s.bytes / 1e6;
    if (o.json)
      fprintf(
          sum,
          "{\"summary\":{\"games\":%llu,\"games_with_errors\":%llu,\"skipped\":%llu,"
          "\"problems\":%llu,\"warnings\":%llu,\"plies\":%llu,\"bytes\":%llu,\"seconds\":%.3f}}\n",
          (unsigned long long)t.s.games, (unsigned long long)t.s.games_with_errors,
          (unsigned long long)t.s.games_skipped, (unsigned long long)t.s.errors,
          (unsigned long long)t.s.warnings, (unsigned long long)t.s.plies,
          (unsigned long long)t.s.bytes, secs);
    else
      fprintf(sum,
              "%llu games, %llu with errors (%llu errors, %llu warnings), %llu skipped (other "
              "variants), %llu plies; %.1f MB in %.2f s (%.1f MB/s)\n",
              (unsigned long long)t.s.games, (unsigned long long)t.s.games_with_errors,
              (unsigned long long)t.s.errors, (unsigned long long)t.s.warnings,
              (unsigned long long)t.s.games_skipped, (unsigned long long)t.s.plies, mb, secs,
              secs > 0 ? mb / secs : 0.0);
  }
  if (o.mode == MODE_CONVERT && o.dedupe && !o.quiet && t.duplicates)
    fprintf(stderr, "%llu duplicate games dropped\n", (unsigned long long)t.duplicates);
  free(t.set);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->work);
  pthread_cond_destroy(&p->done);
  free(p);
  if (t.oom) {
    fprintf(stderr, "arbiter pgn: out of memory\n");
    return 2;
  }
  if (bad_input) return 2;
  return t.s.errors ? 1 : 0;
}
