/* Arbiter — MIT licence, see LICENSE.
 *
 * test_pgn.c: the PGN reader and writer.  The synthetic games of tests/data/pgn state their
 * intended verdict in their Event tag, and the reader must agree; the reader must not depend on
 * how its input is cut into chunks; text arrives as UTF-8; limits hold on hostile input; errors
 * say where they are; real games survive a round trip through the writer; results are checked
 * against the rules (mate, stalemate, moves after the end, time forfeits, other variants).
 * Every expected value comes from the input's documented intent or from the laws of chess.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "test_util.h"

#ifndef ARB_TEST_DATA
#define ARB_TEST_DATA "tests/data"
#endif
#define PGN_DATA ARB_TEST_DATA "/pgn"

/* ---- growable text ---- */

typedef struct tbuf {
  char *p;
  size_t n, cap;
} tbuf;

static void tb_reserve(tbuf *b, size_t more) {
  if (b->p && b->n + more + 1 <= b->cap) return;
  size_t c = b->cap ? b->cap : 256;
  while (c < b->n + more + 1)
    c *= 2;
  char *q = realloc(b->p, c);
  cr_assert_not_null(q, "out of memory");
  if (!b->p) q[0] = '\0';
  b->p = q;
  b->cap = c;
}

static void tb_put(tbuf *b, const void *s, size_t n) {
  tb_reserve(b, n);
  if (n) memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = '\0';
}

static void tb_str(tbuf *b, const char *s) { tb_put(b, s, strlen(s)); }

static void tb_printf(tbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tb_printf(tbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  cr_assert_geq(k, 0);
  tb_reserve(b, (size_t)k);
  va_start(ap, fmt);
  vsnprintf(b->p + b->n, (size_t)k + 1, fmt, ap);
  va_end(ap);
  b->n += (size_t)k;
}

static void tb_free(tbuf *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

static void tb_repeat(tbuf *b, const char *s, size_t times) {
  size_t n = strlen(s);
  tb_reserve(b, n * times);
  for (size_t i = 0; i < times; i++)
    tb_put(b, s, n);
}

/* ---- files ---- */

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "cannot open %s", path);
  tbuf b = {0};
  tb_reserve(&b, 0);
  char tmp[1 << 16];
  size_t k;
  while ((k = fread(tmp, 1, sizeof tmp, f)) > 0)
    tb_put(&b, tmp, k);
  fclose(f);
  *len = b.n;
  return b.p;
}

typedef struct flist {
  char **v;
  int n, cap;
} flist;

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

static void list_pgn_rec(const char *dir, flist *l) {
  DIR *d = opendir(dir);
  cr_assert_not_null(d, "cannot open directory %s", dir);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    tbuf path = {0};
    tb_printf(&path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path.p, &st) == 0 && S_ISDIR(st.st_mode)) {
      list_pgn_rec(path.p, l);
      tb_free(&path);
    } else if (ends_with(e->d_name, ".pgn")) {
      if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
        cr_assert_not_null(l->v);
      }
      l->v[l->n++] = path.p;
    } else {
      tb_free(&path);
    }
  }
  closedir(d);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static flist list_pgn(const char *dir) {
  flist l = {0};
  list_pgn_rec(dir, &l);
  if (l.n) qsort(l.v, (size_t)l.n, sizeof *l.v, cmp_str);
  return l;
}

static void fl_free(flist *l) {
  for (int i = 0; i < l->n; i++)
    free(l->v[i]);
  free(l->v);
  memset(l, 0, sizeof *l);
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* ---- the collector: a visitor that records what the reader reports ---- */

typedef struct rep {
  arb_pgn_problem problem;
  int warning, ply, depth;
  uint64_t line, game;
  uint32_t column;
} rep;

#define GAME_REPS 16

/* One game as the reader reported it. */
typedef struct grec {
  uint64_t number, line;
  int has_event;
  char event[256], white[128], black[128], site[128];
  char comment[256]; /* the first comment */
  int comments;
  int nreps;
  rep reps[GAME_REPS];  /* the first problems reported (errors and warnings) */
  int errors, warnings; /* as counted from the error callback */
  int first_move_ply;   /* ply of the first move problem (error), -1 when none */
  arb_pgn_problem first_move_problem;
  int max_depth, moves, variation_moves, begin_moves;
  int ended, end_errors, end_warnings, skipped, chess960, plies;
  int has_mt, has_tag;
  arb_result mt, tag;
  arb_termination term;
  char variant[48];
} grec;

typedef struct coll {
  grec *g;
  int n, cap;
  int in_game;
  int bad_order;    /* a callback came outside begin_game .. end_game */
  int unterminated; /* a tag name or value was not NUL-terminated */
  int stray_errors; /* problems reported between games */
  rep stray[8];
  tbuf log; /* every event, in order (chunking comparisons) */
  /* Round trips: the games' structure, and a writer fed with every event. */
  tbuf st, tags, mt;
  int normalise_tags; /* write the tags in the order the writer documents */
  arb_pgn_writer *w;
  int move_to;          /* write moves with arb_pgn_writer_move_to (the position after given) */
  int wfail;            /* a writer call failed */
  uint64_t skip_game;   /* the tag callback asks to skip this game */
  size_t longest_value; /* the longest tag value passed */
  arb_pgn_stats stats;
} coll;

static void push_game(coll *c, uint64_t number, uint64_t line) {
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 16;
    c->g = realloc(c->g, (size_t)c->cap * sizeof *c->g);
    cr_assert_not_null(c->g);
  }
  grec *g = &c->g[c->n++];
  memset(g, 0, sizeof *g);
  g->number = number;
  g->line = line;
  g->first_move_ply = -1;
}

static grec *cur_game(coll *c) {
  if (!c->in_game) c->bad_order++;
  if (c->n == 0) push_game(c, 0, 0);
  return &c->g[c->n - 1];
}

static void copy_text(char *dst, size_t size, const char *s, size_t n) {
  if (n >= size) n = size - 1;
  if (n) memcpy(dst, s, n);
  dst[n] = '\0';
}

static int c_begin_game(void *ctx, uint64_t game, uint64_t line) {
  coll *c = ctx;
  if (c->in_game) c->bad_order++;
  push_game(c, game, line);
  c->in_game = 1;
  c->tags.n = c->mt.n = 0;
  tb_printf(&c->log, "begin %llu line %llu\n", (unsigned long long)game, (unsigned long long)line);
  if (c->w) arb_pgn_writer_begin_game(c->w);
  return 0;
}

static int c_tag(void *ctx, const char *name, size_t nl, const char *value, size_t vl) {
  coll *c = ctx;
  grec *g = cur_game(c);
  if (name[nl] != '\0' || value[vl] != '\0') c->unterminated++;
  if (vl > c->longest_value) c->longest_value = vl;
  tb_printf(&c->log, "tag %.*s %zu:", (int)nl, name, vl);
  tb_put(&c->log, value, vl);
  tb_str(&c->log, "\n");
  if (nl == 5 && memcmp(name, "Event", 5) == 0 && !g->has_event) {
    g->has_event = 1;
    copy_text(g->event, sizeof g->event, value, vl);
  } else if (nl == 5 && memcmp(name, "White", 5) == 0 && !g->white[0]) {
    copy_text(g->white, sizeof g->white, value, vl);
  } else if (nl == 5 && memcmp(name, "Black", 5) == 0 && !g->black[0]) {
    copy_text(g->black, sizeof g->black, value, vl);
  } else if (nl == 4 && memcmp(name, "Site", 4) == 0 && !g->site[0]) {
    copy_text(g->site, sizeof g->site, value, vl);
  }
  tb_put(&c->tags, name, nl);
  tb_str(&c->tags, "=");
  tb_put(&c->tags, value, vl);
  tb_str(&c->tags, "\n");
  if (c->w && arb_pgn_writer_tag(c->w, name, nl, value, vl) != ARB_OK) c->wfail++;
  return c->skip_game && g->number == c->skip_game;
}

static int c_begin_moves(void *ctx, const arb_position *start) {
  coll *c = ctx;
  grec *g = cur_game(c);
  g->begin_moves++;
  char fen[ARB_FEN_MAX];
  arb_fen_write(start, fen, sizeof fen, 0);
  tb_printf(&c->log, "moves from %s\n", fen);
  if (c->w && arb_pgn_writer_begin_moves(c->w) != ARB_OK) c->wfail++;
  return 0;
}

static int c_move(void *ctx, const arb_pgn_move *m) {
  coll *c = ctx;
  grec *g = cur_game(c);
  char uci[8] = "";
  arb_uci_write(m->before, m->move, uci, sizeof uci);
  tb_printf(&c->log, "move %d %d %.*s %s %llx\n", m->ply, m->depth, (int)m->san_len, m->san, uci,
            (unsigned long long)m->after->key);
  tb_printf(&c->mt, "M %d %d %s\n", m->depth, m->ply, uci);
  if (m->depth == 0)
    g->moves++;
  else
    g->variation_moves++;
  if (c->w && (c->move_to ? arb_pgn_writer_move_to(c->w, m->before, m->move, m->after)
                          : arb_pgn_writer_move(c->w, m->before, m->move)) != ARB_OK)
    c->wfail++;
  return 0;
}

static int c_comment(void *ctx, const char *text, size_t len, int depth) {
  coll *c = ctx;
  grec *g = cur_game(c);
  tb_printf(&c->log, "comment %d %zu:", depth, len);
  tb_put(&c->log, text, len);
  tb_str(&c->log, "\n");
  tb_printf(&c->mt, "C %d ", depth);
  tb_put(&c->mt, text, len);
  tb_str(&c->mt, "\n");
  if (g->comments++ == 0) copy_text(g->comment, sizeof g->comment, text, len);
  if (c->w && arb_pgn_writer_comment(c->w, text, len) != ARB_OK) c->wfail++;
  return 0;
}

static int c_nag(void *ctx, int nag, int depth) {
  coll *c = ctx;
  cur_game(c);
  tb_printf(&c->log, "nag %d %d\n", nag, depth);
  tb_printf(&c->mt, "N %d %d\n", depth, nag);
  if (c->w && arb_pgn_writer_nag(c->w, nag) != ARB_OK) c->wfail++;
  return 0;
}

static int c_begin_var(void *ctx, int depth) {
  coll *c = ctx;
  grec *g = cur_game(c);
  if (depth > g->max_depth) g->max_depth = depth;
  tb_printf(&c->log, "( %d\n", depth);
  tb_printf(&c->mt, "( %d\n", depth);
  if (c->w && arb_pgn_writer_begin_variation(c->w) != ARB_OK) c->wfail++;
  return 0;
}

static int c_end_var(void *ctx, int depth) {
  coll *c = ctx;
  cur_game(c);
  tb_printf(&c->log, ") %d\n", depth);
  tb_printf(&c->mt, ") %d\n", depth);
  if (c->w && arb_pgn_writer_end_variation(c->w) != ARB_OK) c->wfail++;
  return 0;
}

static const char *const str_tags[7] = {"Event", "Site",  "Date",  "Round",
                                        "White", "Black", "Result"};

/* Whether the tag line at p ("name=value\n") has that name. */
static int tag_line_is(const char *p, const char *name) {
  size_t k = strlen(name);
  return strncmp(p, name, k) == 0 && p[k] == '=';
}

static const char *next_line(const char *p) {
  const char *q = strchr(p, '\n');
  return q ? q + 1 : p + strlen(p);
}

/* Appends the finished game's structure (tags, movetext events, result) to c->st.  With
 * normalise_tags, the tags are put in the order the writer documents: the Seven Tag Roster
 * first (missing ones "?", Result "*"), then the others in the order given, a repeated tag
 * keeping its first value. */
static void emit_structure(coll *c, arb_result res) {
  tb_str(&c->st, "game\n");
  const char *tags = c->tags.p ? c->tags.p : "";
  if (!c->normalise_tags) {
    tb_str(&c->st, tags);
  } else {
    for (int s = 0; s < 7; s++) {
      const char *p = tags;
      while (*p && !tag_line_is(p, str_tags[s]))
        p = next_line(p);
      if (*p)
        tb_put(&c->st, p, (size_t)(next_line(p) - p));
      else
        tb_printf(&c->st, "%s=%s\n", str_tags[s], s == 6 ? "*" : "?");
    }
    for (const char *p = tags; *p; p = next_line(p)) {
      size_t nl = (size_t)(strchr(p, '=') - p);
      int skip = 0;
      for (int s = 0; s < 7; s++)
        skip |= strlen(str_tags[s]) == nl && strncmp(p, str_tags[s], nl) == 0;
      for (const char *q = tags; q < p && !skip; q = next_line(q))
        skip |= strncmp(q, p, nl + 1) == 0;
      if (!skip) tb_put(&c->st, p, (size_t)(next_line(p) - p));
    }
  }
  if (c->mt.n) tb_put(&c->st, c->mt.p, c->mt.n);
  tb_printf(&c->st, "result %s\n", arb_result_string(res));
}

static void c_end_game(void *ctx, const arb_pgn_game_end *e) {
  coll *c = ctx;
  grec *g = cur_game(c);
  if (g->ended || e->game != g->number) c->bad_order++;
  g->ended = 1;
  g->end_errors = e->errors;
  g->end_warnings = e->warnings;
  g->skipped = e->skipped;
  g->chess960 = e->chess960;
  g->plies = e->plies;
  g->has_mt = e->has_movetext_result;
  g->has_tag = e->has_tag_result;
  g->mt = e->movetext_result;
  g->tag = e->tag_result;
  g->term = e->final_outcome.termination;
  copy_text(g->variant, sizeof g->variant, e->variant ? e->variant : "",
            e->variant ? strlen(e->variant) : 0);
  char fen[ARB_FEN_MAX] = "-";
  if (e->final_position) arb_fen_write(e->final_position, fen, sizeof fen, 0);
  tb_printf(&c->log,
            "end %llu line %llu tag %d/%d mt %d/%d outcome %d/%d plies %d errors %d warnings %d "
            "skipped %d chess960 %d variant %s final %s\n",
            (unsigned long long)e->game, (unsigned long long)e->first_line, e->has_tag_result,
            (int)e->tag_result, e->has_movetext_result, (int)e->movetext_result,
            (int)e->final_outcome.termination, (int)e->final_outcome.result, e->plies, e->errors,
            e->warnings, e->skipped, e->chess960, g->variant, fen);
  arb_result res = e->has_movetext_result ? e->movetext_result : e->tag_result;
  if (!e->errors && !e->skipped) emit_structure(c, res);
  if (c->w) {
    if (!e->errors && !e->skipped) {
      if (arb_pgn_writer_end_game(c->w, res) != ARB_OK) c->wfail++;
    } else {
      arb_pgn_writer_discard_game(c->w);
    }
  }
  c->in_game = 0;
}

static int is_move_problem(arb_pgn_problem p) {
  return p == ARB_PGN_MOVE_SYNTAX || p == ARB_PGN_MOVE_ILLEGAL || p == ARB_PGN_MOVE_AMBIGUOUS ||
         p == ARB_PGN_NULL_MOVE || p == ARB_PGN_AFTER_END;
}

static void c_error(void *ctx, const arb_pgn_error *e) {
  coll *c = ctx;
  cr_assert_not_null(e->message);
  tb_printf(&c->log, "problem %s %d at %llu:%u game %llu ply %d depth %d [%.*s] %s\n",
            arb_pgn_problem_name(e->problem), e->warning, (unsigned long long)e->where.line,
            e->where.column, (unsigned long long)e->where.game, e->where.ply, e->where.depth,
            (int)(e->token ? e->token_len : 0), e->token ? e->token : "", e->message);
  rep r = {e->problem,    e->warning,    e->where.ply,   e->where.depth,
           e->where.line, e->where.game, e->where.column};
  if (!c->in_game) {
    if (c->stray_errors < 8) c->stray[c->stray_errors] = r;
    c->stray_errors++;
    return;
  }
  grec *g = cur_game(c);
  if (e->warning)
    g->warnings++;
  else
    g->errors++;
  if (g->nreps < GAME_REPS) g->reps[g->nreps++] = r;
  if (!e->warning && is_move_problem(e->problem) && g->first_move_ply < 0) {
    g->first_move_ply = e->where.ply;
    g->first_move_problem = e->problem;
  }
}

static arb_pgn_visitor visitor_of(coll *c) {
  arb_pgn_visitor v = {c,     c_begin_game, c_tag,     c_begin_moves, c_move, c_comment,
                       c_nag, c_begin_var,  c_end_var, c_end_game,    c_error};
  return v;
}

static void coll_free(coll *c) {
  free(c->g);
  tb_free(&c->log);
  tb_free(&c->st);
  tb_free(&c->tags);
  tb_free(&c->mt);
  memset(c, 0, sizeof *c);
}

enum { ONE_CHUNK, BYTES, RANDOM_CHUNKS, CHUNKS_64K };

static void feed_all(arb_pgn_reader *r, const char *data, size_t len, int how, uint64_t seed) {
  size_t i = 0;
  if (how == BYTES) cr_assert_eq(arb_pgn_reader_feed(r, data, 0), ARB_OK);
  while (i < len) {
    size_t k = len - i;
    if (how == BYTES) {
      k = 1;
    } else if (how == CHUNKS_64K) {
      k = 65536;
    } else if (how == RANDOM_CHUNKS) {
      uint64_t x = test_rand(&seed);
      static const size_t scale[4] = {8, 100, 5000, 200000};
      k = 1 + (size_t)((x >> 8) % scale[x & 3]);
    }
    if (k > len - i) k = len - i;
    cr_assert_eq(arb_pgn_reader_feed(r, data + i, k), ARB_OK);
    i += k;
  }
}

static void read_with(coll *c, const arb_pgn_options *o, const char *data, size_t len, int how,
                      uint64_t seed) {
  arb_pgn_visitor v = visitor_of(c);
  arb_pgn_reader *r = arb_pgn_reader_new(o, &v);
  cr_assert_not_null(r);
  feed_all(r, data, len, how, seed);
  cr_assert_eq(arb_pgn_reader_finish(r), ARB_OK);
  arb_pgn_reader_stats(r, &c->stats);
  arb_pgn_reader_free(r);
}

static void read_into(coll *c, unsigned flags, const char *data, size_t len, int how) {
  arb_pgn_options o;
  memset(&o, 0, sizeof o);
  o.flags = flags;
  read_with(c, &o, data, len, how, 1);
}

static void read_text(coll *c, unsigned flags, const char *text) {
  read_into(c, flags, text, strlen(text), ONE_CHUNK);
}

static int has_problem(const grec *g, arb_pgn_problem p) {
  for (int i = 0; i < g->nreps; i++)
    if (g->reps[i].problem == p && !g->reps[i].warning) return 1;
  return 0;
}

/* The problems of a game, for failure messages. */
static const char *problems_of(const grec *g) {
  static char buf[1024];
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < g->nreps && k + 80 < sizeof buf; i++)
    k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%llu:%u ply %d %s%s", i ? "; " : "",
                          (unsigned long long)g->reps[i].line, g->reps[i].column, g->reps[i].ply,
                          arb_pgn_problem_name(g->reps[i].problem),
                          g->reps[i].warning ? " (warning)" : "");
  return g->nreps ? buf : "none";
}

static const grec *game_with_event(const coll *c, const char *event) {
  for (int i = 0; i < c->n; i++)
    if (c->g[i].has_event && strcmp(c->g[i].event, event) == 0) return &c->g[i];
  return NULL;
}

/* ==== 1. Synthetic games: the verdict their Event tag states ==== */

enum { V_UNKNOWN, V_VALID, V_LENIENT, V_ERROR, V_POLICY };

static int starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The verdict an Event tag of nasty/synthetic states, and the ply it names (0 when none). */
static int verdict_of(const char *event, int *ply) {
  const char *e = event;
  if (*e == '#') { /* "#3 ILLEGAL at ply 9 ..." (mixed-valid-invalid.pgn) */
    e++;
    while (*e >= '0' && *e <= '9')
      e++;
    while (*e == ' ')
      e++;
  }
  *ply = 0;
  const char *p = strstr(e, "(ply ");
  if (p)
    *ply = atoi(p + 5);
  else if ((p = strstr(e, " at ply ")) != NULL)
    *ply = atoi(p + 8);
  /* Policy: either verdict is fine. */
  static const char *const policy[] = {"LENIENT/INVALID", "INVALID/LENIENT", "QUESTIONABLE",
                                       "RESULT TOKEN", "TAGS ONLY"};
  for (size_t i = 0; i < sizeof policy / sizeof *policy; i++)
    if (starts_with(e, policy[i])) return V_POLICY;
  if (strstr(e, "then ILLEGAL")) return V_ERROR; /* "NON-CANONICAL SAN then ILLEGAL: ..." */
  if (starts_with(e, "VALID") || starts_with(e, "PLAUSIBLE")) return V_VALID;
  if (starts_with(e, "LENIENT") || starts_with(e, "STRICT SAN") || starts_with(e, "NON-CANONICAL"))
    return V_LENIENT;
  static const char *const bad[] = {
      "ILLEGAL",   "INVALID", "RESULT WRONG", "RESULT MISMATCH",
      "NULL MOVE", "BAD TAG", "TRUNCATED",    "NO TERMINATION MARKER"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    if (starts_with(e, bad[i])) return V_ERROR;
  /* Games the data's README says to accept (huge-and-odd-tags, latin1-tags-crlf,
   * utf8-bom-crlf-tabs). */
  static const char *const accepted[] = {"HUGE TAG VALUE",   "200 custom tags",  "The \"Immortal\"",
                                         "tags on one line", "SEVEN TAG ROSTER", "LATIN-1 bytes",
                                         "UTF-8 BOM"};
  for (size_t i = 0; i < sizeof accepted / sizeof *accepted; i++)
    if (starts_with(e, accepted[i])) return V_VALID;
  return V_UNKNOWN;
}

/* Lines that start a complete Event tag pair. */
static int count_event_tags(const char *data, size_t len) {
  int n = 0;
  for (size_t i = 0; i + 8 <= len; i++)
    if ((i == 0 || data[i - 1] == '\n' || (i == 3 && (unsigned char)data[0] == 0xEF)) &&
        memcmp(data + i, "[Event \"", 8) == 0) {
      const char *nl = memchr(data + i, '\n', len - i);
      size_t end = nl ? (size_t)(nl - data) : len;
      const char *close = NULL;
      for (size_t j = i + 8; j + 1 < end; j++)
        if (data[j] == '"' && data[j - 1] != '\\' && data[j + 1] == ']') {
          close = data + j;
          break;
        }
      n += close != NULL;
    }
  return n;
}

Test(pgn_verdicts, synthetic_games_meet_their_event_tags) {
  flist files = list_pgn(PGN_DATA "/nasty/synthetic");
  cr_assert_geq(files.n, 30, "nasty/synthetic has %d files", files.n);
  int checked = 0, expected_events = 0;
  for (int f = 0; f < files.n; f++) {
    const char *name = base_name(files.v[f]);
    size_t len;
    char *data = slurp(files.v[f], &len);
    coll L = {0}, S = {0};
    read_into(&L, 0, data, len, ONE_CHUNK);
    read_into(&S, ARB_PGN_STRICT, data, len, ONE_CHUNK);
    cr_expect_eq(L.bad_order + S.bad_order, 0, "%s: callbacks out of order", name);
    cr_expect_eq(L.n, S.n, "%s: %d games lenient, %d strict", name, L.n, S.n);
    int events = 0;
    for (int i = 0; i < L.n; i++)
      events += L.g[i].has_event;
    /* Every complete Event tag starts a game of its own: none is lost or merged. */
    int want_events = count_event_tags(data, len);
    expected_events += want_events;
    cr_expect_eq(events, want_events, "%s: %d games with an Event tag, the file has %d", name,
                 events, want_events);
    for (int i = 0; i < L.n && i < S.n; i++) {
      const grec *g = &L.g[i], *s = &S.g[i];
      cr_expect(g->ended, "%s game %d: no end_game", name, i + 1);
      if (!g->has_event) continue; /* tagless movetext, or garbage */
      int ply;
      int v = verdict_of(g->event, &ply);
      cr_expect_neq(v, V_UNKNOWN, "%s game %d: no known verdict for Event \"%s\"", name, i + 1,
                    g->event);
      checked++;
      switch (v) {
      case V_VALID:
        cr_expect_eq(g->errors, 0, "%s game %d \"%s\": %d errors in lenient mode: %s", name, i + 1,
                     g->event, g->errors, problems_of(g));
        break;
      case V_LENIENT:
        cr_expect_eq(g->errors, 0, "%s game %d \"%s\": %d errors in lenient mode: %s", name, i + 1,
                     g->event, g->errors, problems_of(g));
        cr_expect_geq(s->errors, 1, "%s game %d \"%s\": no error with ARB_PGN_STRICT", name, i + 1,
                      g->event);
        cr_expect(has_problem(s, ARB_PGN_NOT_STRICT),
                  "%s game %d \"%s\": strict reading reports no not_strict problem: %s", name,
                  i + 1, g->event, problems_of(s));
        break;
      case V_ERROR:
        cr_expect_geq(g->errors, 1, "%s game %d \"%s\": no error in lenient mode", name, i + 1,
                      g->event);
        cr_expect_geq(s->errors, 1, "%s game %d \"%s\": no error in strict mode", name, i + 1,
                      g->event);
        if (ply)
          cr_expect_eq(g->first_move_ply, ply, "%s game %d \"%s\": first move error at ply %d: %s",
                       name, i + 1, g->event, g->first_move_ply, problems_of(g));
        break;
      default: break;
      }
    }
    coll_free(&L);
    coll_free(&S);
    free(data);
  }
  cr_expect_eq(checked, expected_events, "%d games checked, %d Event tags", checked,
               expected_events);
  cr_expect_geq(checked, 100);
  fl_free(&files);
}

/* The kinds of problem the Event tags name. */
Test(pgn_verdicts, problem_kinds) {
  static const struct {
    const char *file, *event;
    arb_pgn_problem problem;
  } cases[] = {
      {"ambiguous-san.pgn", "INVALID SAN: Nd2 is ambiguous (b1 and f3), needs Nbd2/Nfd2",
       ARB_PGN_MOVE_AMBIGUOUS},
      {"illegal-move-then-good.pgn", "ILLEGAL: Ke3 is a two-square king move (ply 3)",
       ARB_PGN_MOVE_ILLEGAL},
      {"castling-illegal.pgn", "ILLEGAL: O-O after the king has moved (ply 11)",
       ARB_PGN_MOVE_ILLEGAL},
      {"castling-illegal.pgn", "ILLEGAL: castling out of check (ply 11)", ARB_PGN_MOVE_ILLEGAL},
      {"king-into-check.pgn", "ILLEGAL: king moves into check (ply 4)", ARB_PGN_MOVE_ILLEGAL},
      {"king-into-check.pgn", "ILLEGAL: pinned knight moves (ply 8)", ARB_PGN_MOVE_ILLEGAL},
      {"en-passant-forms.pgn", "ILLEGAL: en passant one move too late (ply 7)",
       ARB_PGN_MOVE_ILLEGAL},
      {"null-moves.pgn", "NULL MOVE written as --", ARB_PGN_NULL_MOVE},
      {"null-moves.pgn", "NULL MOVE written as Z0", ARB_PGN_NULL_MOVE},
      {"result-mismatch.pgn", "RESULT WRONG: white mated black but tag and movetext say 0-1",
       ARB_PGN_RESULT},
      {"result-mismatch.pgn", "RESULT MISMATCH: tag 1-0, movetext 1/2-1/2", ARB_PGN_RESULT},
      {"result-mismatch.pgn", "RESULT WRONG: stalemate (Loyd 10-move stalemate) scored 1-0",
       ARB_PGN_RESULT},
      {"result-mismatch.pgn", "RESULT WRONG: checkmate but result *", ARB_PGN_RESULT},
      {"result-mismatch.pgn", "ILLEGAL: move after checkmate (ply 5)", ARB_PGN_AFTER_END},
      {"missing-result-and-tags.pgn", "NO TERMINATION MARKER, next game follows directly",
       ARB_PGN_RESULT},
      {"unterminated-tag-string.pgn", "BAD TAG: unterminated string on White", ARB_PGN_TAG},
      {"truncated-eof.pgn", "TRUNCATED: unterminated comment at EOF", ARB_PGN_TRUNCATED},
      {"fen-edge.pgn", "INVALID FEN: two white kings", ARB_PGN_FEN},
      {"fen-edge.pgn", "INVALID FEN: side not to move is in check", ARB_PGN_FEN},
      {"fen-edge.pgn", "INVALID FEN: castling rights without rooks", ARB_PGN_FEN},
      {"fen-edge.pgn", "INVALID FEN: bad en-passant square e4 (should be e3)", ARB_PGN_FEN},
      {"fen-edge.pgn", "INVALID FEN: pawn on 8th rank", ARB_PGN_FEN},
      {"fen-edge.pgn", "INVALID FEN: rank with 9 squares", ARB_PGN_FEN},
      {"bad-variations.pgn", "INVALID: variation before the first move", ARB_PGN_VARIATION},
      {"bad-variations.pgn", "INVALID: unclosed variation", ARB_PGN_VARIATION},
      {"bad-variations.pgn", "INVALID: stray closing parenthesis", ARB_PGN_VARIATION},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/nasty/synthetic/%s", PGN_DATA, cases[i].file);
    size_t len;
    char *data = slurp(path, &len);
    coll c = {0};
    read_into(&c, 0, data, len, ONE_CHUNK);
    const grec *g = game_with_event(&c, cases[i].event);
    cr_expect_not_null(g, "%s: no game \"%s\"", cases[i].file, cases[i].event);
    if (g)
      cr_expect(has_problem(g, cases[i].problem), "%s \"%s\": no %s problem among: %s",
                cases[i].file, cases[i].event, arb_pgn_problem_name(cases[i].problem),
                problems_of(g));
    coll_free(&c);
    free(data);
  }
}

static void read_synthetic(coll *c, const char *file, unsigned flags) {
  char path[512];
  snprintf(path, sizeof path, "%s/nasty/synthetic/%s", PGN_DATA, file);
  size_t len;
  char *data = slurp(path, &len);
  read_into(c, flags, data, len, ONE_CHUNK);
  free(data);
}

/* README: "exactly 2 rejected, 8 accepted (error recovery count)". */
Test(pgn_verdicts, mixed_valid_invalid_rejects_exactly_games_3_and_7) {
  coll c = {0};
  read_synthetic(&c, "mixed-valid-invalid.pgn", 0);
  cr_assert_eq(c.n, 10);
  for (int i = 0; i < 10; i++) {
    int bad = i + 1 == 3 || i + 1 == 7;
    if (bad)
      cr_expect(c.g[i].errors > 0 && c.g[i].first_move_ply == 9, "game %d: %s", i + 1,
                problems_of(&c.g[i]));
    else
      cr_expect_eq(c.g[i].errors, 0, "game %d: %s", i + 1, problems_of(&c.g[i]));
    cr_expect_eq(c.g[i].end_errors, c.g[i].errors, "game %d: end_game counts %d errors", i + 1,
                 c.g[i].end_errors);
  }
  cr_expect_eq(c.stats.games, 10);
  cr_expect_eq(c.stats.games_with_errors, 2);
  coll_free(&c);
}

/* README: "reject game 1 at ply 3, keep reading, accept game 2". */
Test(pgn_verdicts, illegal_move_then_good_game) {
  coll c = {0};
  read_synthetic(&c, "illegal-move-then-good.pgn", 0);
  cr_assert_eq(c.n, 2);
  cr_expect_geq(c.g[0].errors, 1);
  cr_expect_eq(c.g[0].first_move_ply, 3, "%s", problems_of(&c.g[0]));
  cr_expect_eq(c.g[0].first_move_problem, ARB_PGN_MOVE_ILLEGAL);
  cr_expect_eq(c.g[1].errors, 0, "%s", problems_of(&c.g[1]));
  cr_expect_eq(c.g[1].moves, 6);
  cr_expect(c.g[1].has_mt && c.g[1].mt == ARB_RESULT_DRAW);
  coll_free(&c);
}

/* README: "recover game boundaries at the next [; report missing result".  The file holds a game
 * without its marker, a valid game, tagless movetext, a tag section alone, and a valid game. */
Test(pgn_verdicts, missing_result_and_tags_recovers_boundaries) {
  coll c = {0};
  read_synthetic(&c, "missing-result-and-tags.pgn", 0);
  cr_assert_eq(c.n, 5, "%d games", c.n);
  cr_expect(has_problem(&c.g[0], ARB_PGN_RESULT), "%s", problems_of(&c.g[0]));
  cr_expect_eq(c.g[0].moves, 3);
  cr_expect_str_eq(c.g[1].event, "VALID game after one with no result");
  cr_expect_eq(c.g[1].errors, 0, "%s", problems_of(&c.g[1]));
  cr_expect_eq(c.g[1].moves, 2);
  cr_expect(!c.g[2].has_event);
  cr_expect_eq(c.g[2].errors, 0, "tagless movetext: %s", problems_of(&c.g[2]));
  cr_expect_eq(c.g[2].moves, 4);
  cr_expect_str_eq(c.g[3].event, "TAGS ONLY, no movetext at all");
  cr_expect_eq(c.g[3].moves, 0);
  cr_expect_str_eq(c.g[4].event, "VALID final game");
  cr_expect_eq(c.g[4].errors, 0, "%s", problems_of(&c.g[4]));
  cr_expect_eq(c.g[4].moves, 1);
  coll_free(&c);
}

Test(pgn_verdicts, ambiguous_then_disambiguated) {
  coll c = {0};
  read_synthetic(&c, "ambiguous-san.pgn", 0);
  cr_assert_eq(c.n, 2);
  cr_expect_eq(c.g[0].first_move_problem, ARB_PGN_MOVE_AMBIGUOUS);
  cr_expect_eq(c.g[0].first_move_ply, 5);
  cr_expect_eq(c.g[1].errors, 0);
  cr_expect_eq(c.g[1].moves, 5);
  coll_free(&c);
}

Test(pgn_verdicts, empty_and_blank_inputs) {
  static const char *const none[] = {"empty.pgn", "whitespace-only.pgn"};
  for (int i = 0; i < 2; i++) {
    coll c = {0};
    read_synthetic(&c, none[i], 0);
    cr_expect_eq(c.n, 0, "%s: %d games", none[i], c.n);
    cr_expect_eq(c.stray_errors, 0, "%s: %d problems", none[i], c.stray_errors);
    cr_expect_eq(c.stats.games, 0);
    coll_free(&c);
  }
  coll c = {0};
  read_synthetic(&c, "only-result.pgn", 0); /* a lone "*": no game, or one empty game */
  cr_expect_leq(c.n, 1);
  if (c.n == 1) cr_expect_eq(c.g[0].moves, 0);
  coll_free(&c);
}

Test(pgn_verdicts, garbage_then_game) {
  coll c = {0};
  read_synthetic(&c, "binary-garbage-then-game.pgn", 0);
  cr_assert_geq(c.n, 1);
  const grec *g = &c.g[c.n - 1];
  cr_expect_str_eq(g->event, "VALID game after 4 KiB of random bytes incl. NUL");
  cr_expect_eq(g->errors, 0, "%s", problems_of(g));
  cr_expect_eq(g->moves, 3);
  coll_free(&c);
}

/* README: "report truncated last game; first game still accepted". */
Test(pgn_verdicts, truncated_inputs) {
  static const char *const files[] = {"truncated-eof.pgn", "truncated-mid-tag.pgn"};
  for (int i = 0; i < 2; i++) {
    coll c = {0};
    read_synthetic(&c, files[i], 0);
    cr_assert_eq(c.n, 2, "%s: %d games", files[i], c.n);
    cr_expect_str_eq(c.g[0].event, "VALID");
    cr_expect_eq(c.g[0].errors, 0, "%s: %s", files[i], problems_of(&c.g[0]));
    cr_expect(has_problem(&c.g[1], ARB_PGN_TRUNCATED), "%s: the last game's problems: %s", files[i],
              problems_of(&c.g[1]));
    coll_free(&c);
  }
}

Test(pgn_verdicts, unterminated_tag_string_then_good_game) {
  coll c = {0};
  read_synthetic(&c, "unterminated-tag-string.pgn", 0);
  cr_assert_eq(c.n, 2, "%d games", c.n);
  cr_expect(has_problem(&c.g[0], ARB_PGN_TAG), "%s", problems_of(&c.g[0]));
  cr_expect_str_eq(c.g[1].event, "VALID game after bad tag");
  cr_expect_eq(c.g[1].errors, 0, "%s", problems_of(&c.g[1]));
  coll_free(&c);
}

/* The data's README: the null move "--" is allowed by an option; pgn.h: ARB_PGN_ALLOW_NULL
 * accepts "--" and "Z0". */
Test(pgn_verdicts, null_moves_with_the_option) {
  coll c = {0};
  read_synthetic(&c, "null-moves.pgn", ARB_PGN_ALLOW_NULL);
  cr_assert_geq(c.n, 2);
  for (int i = 0; i < 2; i++) {
    cr_expect_eq(c.g[i].errors, 0, "\"%s\": %s", c.g[i].event, problems_of(&c.g[i]));
    cr_expect_eq(c.g[i].moves, 3, "\"%s\"", c.g[i].event);
  }
  coll_free(&c);
}

Test(pgn_verdicts, escaped_tag_values) {
  coll c = {0};
  read_synthetic(&c, "huge-and-odd-tags.pgn", 0);
  cr_assert_eq(c.n, 5, "%d games", c.n);
  cr_expect_str_eq(c.g[2].event, "The \"Immortal\" game \\ escaped quote and backslash");
  cr_expect_str_eq(c.g[3].event, "tags on one line");
  for (int i = 0; i < c.n; i++)
    cr_expect_eq(c.g[i].errors, 0, "game %d: %s", i + 1, problems_of(&c.g[i]));
  cr_expect_eq(c.unterminated, 0);
  coll_free(&c);
}

/* Tag pairs in every spelling the reader accepts, read whole (where the common form has a path
 * of its own) and byte by byte: the same pairs, unescaped and in UTF-8, the same reports. */
Test(pgn_verdicts, tag_spellings_read_alike_whole_and_byte_by_byte) {
  static const char text[] = "[Event \"plain\"]\n"
                             "[Site \"with \\\"escaped\\\" quotes \\\\ and a backslash\"]\n"
                             "[Date\"glued\"]\n"
                             "[Round  \"two blanks\"  ]\n"
                             "[White \"M\xc3\xbcller\"]\n"
                             "[Black \"M\xfcller\"]\n"
                             "[Result \"1-0\"] [Annotator \"two on a line\"]\n"
                             "[lower \"a lower-case name\"]\n"
                             "\n1. e4 1-0\n";
  static const char *const want[] = {
      "tag Event 5:plain\n",
      "tag Site 39:with \"escaped\" quotes \\ and a backslash\n",
      "tag Date 5:glued\n",
      "tag Round 10:two blanks\n",
      "tag White 7:M\xc3\xbcller\n",
      "tag Black 7:M\xc3\xbcller\n",
      "tag Result 3:1-0\n",
      "tag Annotator 13:two on a line\n",
      "tag lower 17:a lower-case name\n",
  };
  coll whole = {0}, bytes = {0};
  read_into(&whole, ARB_PGN_STRICT, text, sizeof text - 1, ONE_CHUNK);
  read_into(&bytes, ARB_PGN_STRICT, text, sizeof text - 1, BYTES);
  cr_assert_eq(whole.n, 1);
  cr_assert_eq(bytes.n, 1);
  const char *at = whole.log.p;
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const char *hit = strstr(at, want[i]);
    cr_expect_not_null(hit, "missing (in order): %s", want[i]);
    if (hit) at = hit + strlen(want[i]);
  }
  cr_expect_str_eq(whole.log.p, bytes.log.p);
  /* strict mode: the lower-case name, the blanks around a value, the pairs sharing a line */
  cr_expect(has_problem(&whole.g[0], ARB_PGN_NOT_STRICT), "%s", problems_of(&whole.g[0]));
  cr_expect_eq(whole.g[0].nreps, bytes.g[0].nreps);
  for (int i = 0; i < whole.g[0].nreps && i < bytes.g[0].nreps; i++)
    cr_expect_eq(whole.g[0].reps[i].problem, bytes.g[0].reps[i].problem);
  coll_free(&whole);
  coll_free(&bytes);
}

Test(pgn_verdicts, deep_variations_replay) {
  size_t len;
  char *data = slurp(PGN_DATA "/nasty/synthetic/deep-variations.pgn", &len);
  int depth = 0, deepest = 0;
  for (size_t i = 0; i < len; i++) {
    depth += data[i] == '(' ? 1 : data[i] == ')' ? -1 : 0;
    if (depth > deepest) deepest = depth;
  }
  coll c = {0};
  read_into(&c, 0, data, len, ONE_CHUNK);
  cr_assert_eq(c.n, 1);
  cr_expect_eq(c.g[0].errors, 0, "%s", problems_of(&c.g[0]));
  cr_expect_eq(c.g[0].max_depth, deepest, "deepest variation %d, the file nests %d",
               c.g[0].max_depth, deepest);
  cr_expect_geq(c.g[0].variation_moves, 200);
  coll_free(&c);
  free(data);
}

/* ==== 2. The reader: chunking, text, limits, locations ==== */

static size_t first_difference(const tbuf *a, const tbuf *b) {
  size_t n = a->n < b->n ? a->n : b->n, i = 0;
  while (i < n && a->p[i] == b->p[i])
    i++;
  return i;
}

static void expect_same_log(const char *file, const char *how, const tbuf *a, const tbuf *b) {
  if (a->n == b->n && (a->n == 0 || memcmp(a->p, b->p, a->n) == 0)) return;
  size_t d = first_difference(a, b);
  size_t from = d > 80 ? d - 80 : 0;
  cr_expect_fail("%s: events differ when fed %s, at byte %zu of the event log:\n"
                 "one chunk: ...%.160s\n%s: ...%.160s",
                 file, how, d, a->p + from, how, b->p + from);
}

/* Every file, fed in one chunk, byte by byte and in random chunks, gives the same events. */
Test(pgn_reader, chunking_is_invisible) {
  flist files = list_pgn(PGN_DATA);
  cr_assert_geq(files.n, 80, "%d files", files.n);
  for (int f = 0; f < files.n; f++) {
    size_t len;
    char *data = slurp(files.v[f], &len);
    coll one = {0}, bytes = {0}, random = {0};
    read_into(&one, 0, data, len, ONE_CHUNK);
    read_into(&bytes, 0, data, len, BYTES);
    arb_pgn_options o;
    memset(&o, 0, sizeof o);
    read_with(&random, &o, data, len, RANDOM_CHUNKS, (uint64_t)f * 7919u + 1);
    expect_same_log(files.v[f], "byte by byte", &one.log, &bytes.log);
    expect_same_log(files.v[f], "in random chunks", &one.log, &random.log);
    /* Consistency of the reports. */
    cr_expect_eq(one.bad_order, 0, "%s: callbacks out of order", files.v[f]);
    cr_expect_eq(one.unterminated, 0, "%s: tag text not NUL-terminated", files.v[f]);
    cr_expect_eq(one.stats.games, (uint64_t)one.n, "%s: stats say %llu games, %d seen", files.v[f],
                 (unsigned long long)one.stats.games, one.n);
    cr_expect_eq(one.stats.bytes, (uint64_t)len, "%s", files.v[f]);
    uint64_t errors = (uint64_t)one.stray_errors;
    for (int i = 0; i < one.n; i++) {
      const grec *g = &one.g[i];
      errors += (uint64_t)g->errors;
      cr_expect(g->ended, "%s game %d: no end_game", files.v[f], i + 1);
      cr_expect_eq(g->number, (uint64_t)i + 1, "%s: game %d numbered %llu", files.v[f], i + 1,
                   (unsigned long long)g->number);
      cr_expect_eq(g->end_errors, g->errors, "%s game %d: end_game says %d errors, %d reported",
                   files.v[f], i + 1, g->end_errors, g->errors);
      for (int k = 0; k < g->nreps; k++)
        cr_expect_eq(g->reps[k].game, g->number, "%s game %d: a problem names game %llu",
                     files.v[f], i + 1, (unsigned long long)g->reps[k].game);
    }
    cr_expect_eq(one.stats.errors, errors, "%s: stats say %llu errors, %llu reported", files.v[f],
                 (unsigned long long)one.stats.errors, (unsigned long long)errors);
    coll_free(&one);
    coll_free(&bytes);
    coll_free(&random);
    free(data);
  }
  fl_free(&files);
}

/* "The reader may then be fed a new input, whose lines and games are counted afresh." */
Test(pgn_reader, reader_is_reusable_after_finish) {
  size_t len;
  char *data = slurp(PGN_DATA "/nasty/synthetic/king-into-check.pgn", &len);
  coll a = {0}, b = {0};
  read_into(&a, 0, data, len, ONE_CHUNK);
  arb_pgn_visitor v = visitor_of(&b);
  arb_pgn_reader *r = arb_pgn_reader_new(NULL, &v);
  cr_assert_not_null(r);
  for (int k = 0; k < 2; k++) {
    b.log.n = 0;
    cr_assert_eq(arb_pgn_reader_feed(r, data, len), ARB_OK);
    cr_assert_eq(arb_pgn_reader_finish(r), ARB_OK);
    expect_same_log("king-into-check.pgn", k ? "a second time" : "once", &a.log, &b.log);
  }
  arb_pgn_reader_free(r);
  arb_pgn_reader_free(NULL);
  coll_free(&a);
  coll_free(&b);
  free(data);
}

Test(pgn_reader, text_is_utf8) {
  coll c = {0};
  /* ISO-8859-1 bytes in tags and a comment, CRLF line ends. */
  read_synthetic(&c, "latin1-tags-crlf.pgn", 0);
  cr_assert_eq(c.n, 1);
  cr_expect_str_eq(c.g[0].site, "M\u00e4hrisch-Ostrau");
  cr_expect_str_eq(c.g[0].white, "R\u00e9ti, Richard");
  cr_expect_str_eq(c.g[0].comment, "R\u00e9ti Er\u00f6ffnung \u00dcbersicht");
  cr_expect_eq(c.g[0].errors, 0, "%s", problems_of(&c.g[0]));
  coll_free(&c);

  /* UTF-8 with a byte order mark, CRLF and tabs. */
  memset(&c, 0, sizeof c);
  read_synthetic(&c, "utf8-bom-crlf-tabs.pgn", 0);
  cr_assert_eq(c.n, 1);
  cr_expect_str_eq(c.g[0].event, "UTF-8 BOM, CRLF, tabs, multi-byte UTF-8");
  cr_expect_str_eq(c.g[0].white, "Ding Liren \u4e01\u7acb\u4eba");
  cr_expect_str_eq(c.g[0].black, "\u041d\u0435\u043f\u043e\u043c\u043d\u044f\u0449\u0438\u0439, "
                                 "\u042f\u043d");
  cr_expect_str_eq(c.g[0].comment, "\u4e01\u7acb\u4eba \u2014 "
                                   "\u041d\u0435\u043f\u043e\u043c\u043d\u044f\u0449\u0438\u0439 "
                                   "\u265e");
  cr_expect_eq(c.g[0].errors, 0, "%s", problems_of(&c.g[0]));
  cr_expect_eq(c.g[0].moves, 4);
  coll_free(&c);

  /* Dortmund 1928: Latin-1 player names ("Van N\xfcss, Alfred"). */
  memset(&c, 0, sizeof c);
  size_t len;
  char *data = slurp(PGN_DATA "/real/pychess-dortmund.pgn", &len);
  read_into(&c, 0, data, len, ONE_CHUNK);
  cr_assert_geq(c.n, 1);
  cr_expect_str_eq(c.g[0].black, "Van N\u00fcss, Alfred");
  coll_free(&c);
  free(data);

  /* python-chess's BOM file: the first tag is read whole. */
  memset(&c, 0, sizeof c);
  read_into(&c, 0, "\xEF\xBB\xBF[Event \"bom\"]\n\n1. e4 *\n", 25, BYTES);
  cr_assert_eq(c.n, 1);
  cr_expect_str_eq(c.g[0].event, "bom");
  cr_expect_eq(c.g[0].errors, 0);
  coll_free(&c);
}

/* Errors say where they are: lines and columns counted by hand (columns count bytes). */
static const char *const located_lf =
    "[Event \"loc\"]\n"            /* 1 */
    "[Site \"?\"]\n"               /* 2 */
    "\n"                           /* 3 */
    "1. e4 e5 {a comment\n"        /* 4 */
    "over two lines} 2. Nf3 Nc6\n" /* 5 */
    "3. Bb5 a6 4. Ke3 *\n"         /* 6: Ke3 at column 14, ply 7 */
    "\n"                           /* 7 */
    "[Event \"loc2\"]\n"           /* 8 */
    "\n"                           /* 9 */
    "1. d4 d5 2. Bg4 *\n"          /* 10: Bg4 at column 13, ply 3 */
    "\n"                           /* 11 */
    "[Event \"loc3\"]\n"           /* 12 */
    "\n"                           /* 13 */
    "1. e4 ) e5 $256 *\n";         /* 14: ')' at column 7, $256 at column 12 */

static void expect_locations(const coll *c, uint64_t line0, uint64_t game0, const char *what) {
  cr_assert_eq(c->n, 3, "%s: %d games", what, c->n);
  const grec *g = &c->g[0];
  cr_expect_eq(g->number, game0, "%s", what);
  cr_expect_eq(g->line, line0, "%s: game 1 begins on line %llu", what, (unsigned long long)g->line);
  cr_assert_geq(g->nreps, 1, "%s", what);
  cr_expect_eq(g->reps[0].problem, ARB_PGN_MOVE_ILLEGAL, "%s", what);
  cr_expect_eq(g->reps[0].line, line0 + 5, "%s: %s", what, problems_of(g));
  cr_expect_eq(g->reps[0].column, 14, "%s: %s", what, problems_of(g));
  cr_expect_eq(g->reps[0].ply, 7, "%s: %s", what, problems_of(g));
  cr_expect_eq(g->reps[0].game, game0, "%s", what);
  g = &c->g[1];
  cr_expect_eq(g->line, line0 + 7, "%s: game 2 begins on line %llu", what,
               (unsigned long long)g->line);
  cr_assert_geq(g->nreps, 1, "%s", what);
  cr_expect_eq(g->reps[0].problem, ARB_PGN_MOVE_ILLEGAL, "%s", what);
  cr_expect_eq(g->reps[0].line, line0 + 9, "%s: %s", what, problems_of(g));
  cr_expect_eq(g->reps[0].column, 13, "%s: %s", what, problems_of(g));
  cr_expect_eq(g->reps[0].ply, 3, "%s: %s", what, problems_of(g));
  cr_expect_eq(g->reps[0].game, game0 + 1, "%s", what);
  g = &c->g[2];
  cr_assert_geq(g->nreps, 2, "%s: %s", what, problems_of(g));
  cr_expect_eq(g->reps[0].problem, ARB_PGN_VARIATION, "%s: %s", what, problems_of(g));
  cr_expect_eq(g->reps[0].line, line0 + 13, "%s: %s", what, problems_of(g));
  cr_expect_eq(g->reps[0].column, 7, "%s: %s", what, problems_of(g));
  cr_expect_eq(g->reps[1].problem, ARB_PGN_SYNTAX, "%s: %s", what, problems_of(g));
  cr_expect_eq(g->reps[1].line, line0 + 13, "%s: %s", what, problems_of(g));
  cr_expect_eq(g->reps[1].column, 12, "%s: %s", what, problems_of(g));
}

/* A comment read between games waits until a game without tags takes it (or a tag section drops
 * it); a problem in it is reported where it stood, however the input was fed (the fuzzer found
 * the column worked out from the held copy's address instead). */
Test(pgn_reader, held_comment_problems_located_where_they_stood) {
  static const char text[] = "1. e4 *\n"                    /* 1 */
                             "\n"                           /* 2 */
                             "  {[%illegal no move]}\n"     /* 3: the text at column 4 */
                             "{[%illegal e2e4]} 1. d4 *\n"; /* 4: the text at column 2 */
  coll whole = {0}, bytes = {0};
  read_into(&whole, 0, text, sizeof text - 1, ONE_CHUNK);
  read_into(&bytes, 0, text, sizeof text - 1, BYTES);
  cr_assert_eq(whole.n, 2);
  cr_assert_eq(bytes.n, 2);
  const grec *g = &whole.g[1];
  cr_assert_eq(g->nreps, 2, "%s", problems_of(g));
  for (int i = 0; i < 2; i++) {
    cr_expect_eq(g->reps[i].problem, ARB_PGN_SYNTAX, "%s", problems_of(g));
    cr_expect_eq(g->reps[i].line, (uint64_t)(3 + i), "%s", problems_of(g));
    cr_expect_eq(g->reps[i].column, i == 0 ? 4u : 2u, "%s", problems_of(g));
    cr_expect_eq(g->reps[i].game, 2, "%s", problems_of(g));
  }
  cr_expect_str_eq(whole.log.p, bytes.log.p);
  cr_assert_eq(bytes.g[1].nreps, 2);
  for (int i = 0; i < 2; i++) {
    cr_expect_eq(bytes.g[1].reps[i].line, g->reps[i].line);
    cr_expect_eq(bytes.g[1].reps[i].column, g->reps[i].column);
  }
  coll_free(&whole);
  coll_free(&bytes);
}

Test(pgn_reader, error_locations) {
  coll c = {0};
  read_text(&c, 0, located_lf);
  expect_locations(&c, 1, 1, "LF");
  coll_free(&c);

  /* CRLF: the same lines and columns. */
  tbuf crlf = {0};
  for (const char *p = located_lf; *p; p++)
    tb_str(&crlf, *p == '\n' ? "\r\n" : (char[2]){*p, 0});
  memset(&c, 0, sizeof c);
  read_into(&c, 0, crlf.p, crlf.n, BYTES);
  expect_locations(&c, 1, 1, "CRLF");
  coll_free(&c);
  tb_free(&crlf);

  /* A piece of a larger file: numbering starts at first_line and first_game. */
  arb_pgn_options o;
  memset(&o, 0, sizeof o);
  o.first_line = 100;
  o.first_game = 7;
  memset(&c, 0, sizeof c);
  read_with(&c, &o, located_lf, strlen(located_lf), RANDOM_CHUNKS, 5);
  expect_locations(&c, 100, 7, "first_line 100, first_game 7");
  coll_free(&c);
}

static void expect_limit(const char *what, const char *data, size_t len, int how) {
  coll c = {0};
  read_into(&c, 0, data, len, how);
  const char *mode = how == ONE_CHUNK ? "one chunk" : "64 KB chunks";
  cr_assert_geq(c.n, 1, "%s (%s): no game", what, mode);
  const grec *g = &c.g[0];
  cr_expect(has_problem(g, ARB_PGN_LIMIT), "%s (%s): no limit problem: %s", what, mode,
            problems_of(g));
  cr_expect_leq(c.longest_value, ARB_PGN_MAX_TOKEN, "%s (%s): a tag value of %zu bytes", what, mode,
                c.longest_value);
  const grec *after = &c.g[c.n - 1];
  cr_expect_eq(c.n, 2, "%s (%s): %d games", what, mode, c.n);
  cr_expect_str_eq(after->event, "after", "%s (%s): the next game is lost", what, mode);
  cr_expect_eq(after->errors, 0, "%s (%s): next game: %s", what, mode, problems_of(after));
  cr_expect_eq(after->moves, 1, "%s (%s): next game", what, mode);
  coll_free(&c);
}

#define BIG (3u << 20)

/* Hostile input: bounded, reported, and the next game is read. */
Test(pgn_limits, nested_variations) {
  /* 100000 nested '(' left open. */
  tbuf t = {0};
  tb_str(&t, "[Event \"deep\"]\n\n1. e4 ");
  tb_repeat(&t, "(", 100000);
  tb_str(&t, " *\n\n[Event \"after\"]\n\n1. d4 *\n");
  coll c = {0};
  read_into(&c, 0, t.p, t.n, CHUNKS_64K);
  cr_assert_eq(c.n, 2, "%d games", c.n);
  cr_expect(has_problem(&c.g[0], ARB_PGN_LIMIT) || has_problem(&c.g[0], ARB_PGN_VARIATION), "%s",
            problems_of(&c.g[0]));
  cr_expect_str_eq(c.g[1].event, "after");
  cr_expect_eq(c.g[1].errors, 0, "%s", problems_of(&c.g[1]));
  coll_free(&c);

  /* 100000 nested variations, closed again. */
  t.n = 0;
  tb_str(&t, "[Event \"deep\"]\n\n1. e4 ");
  tb_repeat(&t, "(1. d4 ", 100000);
  tb_repeat(&t, ")", 100000);
  tb_str(&t, " e5 *\n\n[Event \"after\"]\n\n1. d4 *\n");
  memset(&c, 0, sizeof c);
  read_into(&c, 0, t.p, t.n, CHUNKS_64K);
  cr_assert_eq(c.n, 2, "%d games", c.n);
  cr_expect(has_problem(&c.g[0], ARB_PGN_LIMIT), "%s", problems_of(&c.g[0]));
  cr_expect_eq(c.g[0].moves, 2);
  cr_expect_leq(c.g[0].max_depth, ARB_PGN_MAX_DEPTH);
  cr_expect_geq(c.g[0].max_depth, 200);
  cr_expect_str_eq(c.g[1].event, "after");
  cr_expect_eq(c.g[1].errors, 0, "%s", problems_of(&c.g[1]));
  coll_free(&c);
  tb_free(&t);
}

Test(pgn_limits, long_comments) {
  static const int hows[2] = {ONE_CHUNK, CHUNKS_64K};
  /* A 3 MB comment spread over lines: cut, and the line count stays right. */
  tbuf t = {0};
  tb_str(&t, "[Event \"big\"]\n\n1. e4 {");
  size_t lines = BIG / 20;
  tb_repeat(&t, "0123456789 abcdefgh\n", lines);
  tb_str(&t, "} e5 *\n\n[Event \"after\"]\n\n1. d4 *\n");
  for (int h = 0; h < 2; h++) {
    expect_limit("3 MB comment", t.p, t.n, hows[h]);
    coll c = {0};
    read_into(&c, 0, t.p, t.n, hows[h]);
    cr_assert_eq(c.n, 2);
    cr_expect_eq(c.g[0].moves, 2, "the game goes on after the comment");
    cr_expect_eq(c.g[1].line, 3 + lines + 2, "game 2 begins on line %llu",
                 (unsigned long long)c.g[1].line);
    coll_free(&c);
  }

  /* A 3 MB comment on one line, and a 3 MB rest-of-line comment. */
  t.n = 0;
  tb_str(&t, "[Event \"big\"]\n\n1. e4 {");
  tb_repeat(&t, "x", BIG);
  tb_str(&t, "} e5 *\n\n[Event \"after\"]\n\n1. d4 *\n");
  for (int h = 0; h < 2; h++)
    expect_limit("3 MB one-line comment", t.p, t.n, hows[h]);
  t.n = 0;
  tb_str(&t, "[Event \"big\"]\n\n1. e4 ;");
  tb_repeat(&t, "x", BIG);
  tb_str(&t, "\ne5 *\n\n[Event \"after\"]\n\n1. d4 *\n");
  for (int h = 0; h < 2; h++)
    expect_limit("3 MB ; comment", t.p, t.n, hows[h]);

  /* A 3 MB unterminated comment at the end of the input. */
  t.n = 0;
  tb_str(&t, "[Event \"big\"]\n\n1. e4 {");
  tb_repeat(&t, "x", BIG);
  coll c = {0};
  read_into(&c, 0, t.p, t.n, CHUNKS_64K);
  cr_assert_eq(c.n, 1);
  cr_expect_geq(c.g[0].errors, 1);
  coll_free(&c);
  tb_free(&t);
}

/* Comments a little over the limit (1.5 MB), closed: still over the limit, whatever the
 * chunks.  Latin-1 text doubles in size when converted to UTF-8. */
Test(pgn_limits, comment_over_the_limit_in_one_chunk) {
  static const char *const fill[2] = {"x", "\xe9"};
  static const int hows[2] = {ONE_CHUNK, CHUNKS_64K};
  for (int k = 0; k < 2; k++) {
    tbuf t = {0};
    tb_str(&t, "[Event \"big\"]\n\n1. e4 {");
    tb_repeat(&t, fill[k], ARB_PGN_MAX_TOKEN + ARB_PGN_MAX_TOKEN / 2);
    tb_str(&t, "} e5 *\n\n[Event \"after\"]\n\n1. d4 *\n");
    for (int h = 0; h < 2; h++)
      expect_limit(k ? "1.5 MB Latin-1 comment" : "1.5 MB comment", t.p, t.n, hows[h]);
    tb_free(&t);
  }
}

Test(pgn_limits, long_tag_value) {
  tbuf t = {0};
  tb_str(&t, "[Event \"");
  tb_repeat(&t, "x", BIG);
  tb_str(&t, "\"]\n[Site \"?\"]\n\n1. e4 *\n\n[Event \"after\"]\n\n1. d4 *\n");
  expect_limit("3 MB tag value", t.p, t.n, CHUNKS_64K);
  expect_limit("3 MB tag value", t.p, t.n, ONE_CHUNK);
  tb_free(&t);
}

/* A callback's non-zero return skips the rest of the game; end_game still comes. */
Test(pgn_reader, visitor_can_skip_a_game) {
  coll c = {0};
  c.skip_game = 1;
  read_text(&c, 0,
            "[Event \"a\"]\n[White \"x\"]\n\n1. e4 e5 2. Ke3 *\n\n"
            "[Event \"b\"]\n\n1. d4 d5 *\n");
  cr_assert_eq(c.n, 2);
  cr_expect(c.g[0].ended);
  cr_expect_eq(c.g[0].moves, 0);
  cr_expect_str_eq(c.g[0].white, "", "no tag after the skip");
  cr_expect_eq(c.g[1].moves, 2);
  cr_expect_eq(c.g[1].errors, 0);
  coll_free(&c);
}

Test(pgn_reader, options) {
  const char *text = "[Event \"a\"]\n\n1. e4 (1. d4 Ke3) e5 2. Ke3 *\n";
  coll c = {0};
  read_text(&c, ARB_PGN_NO_REPLAY, text);
  cr_assert_eq(c.n, 1);
  cr_expect_eq(c.g[0].moves, 0, "NO_REPLAY resolves no move");
  cr_expect_eq(c.g[0].first_move_ply, -1, "NO_REPLAY: %s", problems_of(&c.g[0]));
  coll_free(&c);

  memset(&c, 0, sizeof c);
  read_text(&c, ARB_PGN_NO_VARIATIONS, text);
  cr_assert_eq(c.n, 1);
  cr_expect_eq(c.g[0].variation_moves, 0);
  cr_expect_eq(c.g[0].first_move_ply, 3, "NO_VARIATIONS: %s", problems_of(&c.g[0]));
  coll_free(&c);

  memset(&c, 0, sizeof c);
  read_text(&c, 0, text);
  cr_assert_eq(c.n, 1);
  cr_expect_eq(c.g[0].first_move_ply, 2, "the variation's Ke3: %s", problems_of(&c.g[0]));
  coll_free(&c);

  memset(&c, 0, sizeof c);
  read_text(&c, ARB_PGN_NO_RESULT_CHECK, "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n");
  cr_assert_eq(c.n, 1);
  cr_expect_eq(c.g[0].errors, 0, "NO_RESULT_CHECK: %s", problems_of(&c.g[0]));
  coll_free(&c);
}

/* pgn.h: the suffix marks "!" "?" "!!" "??" "!?" "?!" reach the visitor as NAGs 1 to 6, right
 * after their move. */
typedef struct suffix_log {
  int ev[32], n;
} suffix_log;
static int suffix_move(void *ctx, const arb_pgn_move *m) {
  suffix_log *l = ctx;
  (void)m;
  if (l->n < 32) l->ev[l->n++] = 0;
  return 0;
}
static int suffix_nag(void *ctx, int nag, int depth) {
  suffix_log *l = ctx;
  (void)depth;
  if (l->n < 32) l->ev[l->n++] = nag;
  return 0;
}

Test(pgn_reader, move_suffix_annotations) {
  const char *text = "[Event \"s\"]\n\n1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 *\n";
  suffix_log log;
  memset(&log, 0, sizeof log);
  arb_pgn_visitor v;
  memset(&v, 0, sizeof v);
  v.ctx = &log;
  v.move = suffix_move;
  v.nag = suffix_nag;
  arb_pgn_reader *r = arb_pgn_reader_new(NULL, &v);
  cr_assert_not_null(r);
  arb_pgn_reader_feed(r, text, strlen(text));
  arb_pgn_reader_finish(r);
  arb_pgn_reader_free(r);
  static const int want[] = {0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0};
  cr_assert_eq(log.n, 13);
  for (int i = 0; i < 13; i++)
    cr_expect_eq(log.ev[i], want[i], "event %d: %d (0 = a move, else a NAG)", i, log.ev[i]);
}

Test(pgn_reader, helpers) {
  arb_result res;
  cr_expect_eq(arb_pgn_result_parse("1-0", 3, &res), 0);
  cr_expect_eq(res, ARB_RESULT_WHITE_WINS);
  cr_expect_eq(arb_pgn_result_parse("0-1", 3, &res), 0);
  cr_expect_eq(res, ARB_RESULT_BLACK_WINS);
  cr_expect_eq(arb_pgn_result_parse("1/2-1/2", 7, &res), 0);
  cr_expect_eq(res, ARB_RESULT_DRAW);
  cr_expect_eq(arb_pgn_result_parse("*", 1, &res), 0);
  cr_expect_eq(res, ARB_RESULT_NONE);
  cr_expect_eq(arb_pgn_result_parse("1/2", 3, &res), -1);
  cr_expect_eq(arb_pgn_result_parse("1-0 ", 4, &res), -1);
  static const struct {
    const char *v;
    int kind;
  } kinds[] = {{"", 0},
               {"Standard", 0},
               {"From Position", 0},
               {"Chess960", 1},
               {"chess 960", 1},
               {"Fischerandom", 1},
               {"fischerandom", 1},
               {"FRC", 1},
               {"Crazyhouse", -1},
               {"Atomic", -1},
               {"King of the Hill", -1},
               {"Antichess", -1}};
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
    cr_expect_eq(arb_pgn_variant_kind(kinds[i].v, strlen(kinds[i].v)), kinds[i].kind, "\"%s\"",
                 kinds[i].v);
  cr_expect_str_eq(arb_pgn_problem_name(ARB_PGN_MOVE_ILLEGAL), "move_illegal");
}

/* ==== 3. Round trips through the writer ==== */

/* Lines of the movetext (not tag pairs) longer than 79 columns (UTF-8 characters). */
static int long_lines(const char *s, size_t n, size_t *where) {
  int bad = 0;
  size_t i = 0;
  while (i < n) {
    const char *nl = memchr(s + i, '\n', n - i);
    size_t e = nl ? (size_t)(nl - s) : n, cols = 0;
    for (size_t k = i; k < e; k++)
      cols += ((unsigned char)s[k] & 0xC0) != 0x80;
    if (s[i] != '[' && cols > 79) {
      if (!bad) *where = i;
      bad++;
    }
    i = e + 1;
  }
  return bad;
}

/* Games whose tag section (lines after a blank line, or at the start, beginning with '[') does
 * not begin with the Seven Tag Roster in order. */
static int str_out_of_order(const char *s, size_t n) {
  int bad = 0, after_blank = 1;
  size_t i = 0;
  while (i < n) {
    const char *nl = memchr(s + i, '\n', n - i);
    size_t e = nl ? (size_t)(nl - s) : n;
    if (after_blank && s[i] == '[') {
      size_t k = i;
      for (int t = 0; t < 7; t++) {
        size_t len = strlen(str_tags[t]);
        if (k + len + 2 > n || s[k] != '[' || memcmp(s + k + 1, str_tags[t], len) != 0 ||
            s[k + 1 + len] != ' ') {
          bad++;
          break;
        }
        const char *q = memchr(s + k, '\n', n - k);
        k = q ? (size_t)(q - s) + 1 : n;
      }
    }
    after_blank = e == i;
    i = e + 1;
  }
  return bad;
}

/* The "{ [%clk H:MM:SS] }" comments, in order, each on one line. */
static void clock_comments(const char *s, size_t n, tbuf *out) {
  const char *p = s, *end = s + n;
  while ((p = memchr(p, '{', (size_t)(end - p))) != NULL) {
    if (end - p > 10 && memcmp(p, "{ [%clk ", 8) == 0) {
      const char *q = p + 8;
      while (q < end && ((*q >= '0' && *q <= '9') || *q == ':' || *q == '.'))
        q++;
      if (end - q >= 3 && memcmp(q, "] }", 3) == 0) {
        tb_put(out, p, (size_t)(q + 3 - p));
        tb_str(out, "\n");
      }
    }
    p++;
  }
}

static void round_trip(const char *path) {
  size_t len;
  char *data = slurp(path, &len);
  const char *name = base_name(path);
  coll a = {0}, b = {0}, c = {0};
  a.normalise_tags = 1;
  a.w = arb_pgn_writer_new(0);
  b.w = arb_pgn_writer_new(0);
  cr_assert(a.w && b.w);
  read_into(&a, 0, data, len, ONE_CHUNK);
  cr_expect_eq(a.wfail, 0, "%s: %d writer calls failed", name, a.wfail);
  int written = 0;
  for (int i = 0; i < a.n; i++) {
    cr_expect_eq(a.g[i].errors, 0, "%s game %d: %s", name, i + 1, problems_of(&a.g[i]));
    written += !a.g[i].errors && !a.g[i].skipped;
  }
  size_t n1;
  const char *out1 = arb_pgn_writer_data(a.w, &n1);
  cr_assert_not_null(out1);

  read_into(&b, 0, out1, n1, ONE_CHUNK);
  cr_expect_eq(b.n, written, "%s: %d games written, %d read back", name, written, b.n);
  for (int i = 0; i < b.n; i++)
    cr_expect_eq(b.g[i].errors, 0, "%s: written game %d: %s", name, i + 1, problems_of(&b.g[i]));
  cr_expect_eq(b.wfail, 0);
  if (a.st.n != b.st.n || (a.st.n && memcmp(a.st.p, b.st.p, a.st.n) != 0)) {
    size_t d = first_difference(&a.st, &b.st), from = d > 100 ? d - 100 : 0;
    cr_expect_fail("%s: the games read back differ at byte %zu of their structure:\n"
                   "read:      ...%.200s\nread back: ...%.200s",
                   name, d, a.st.p + from, b.st.p + from);
  }
  size_t n2;
  const char *out2 = arb_pgn_writer_data(b.w, &n2);
  if (n1 != n2 || memcmp(out1, out2, n1) != 0) {
    size_t d = 0;
    while (d < n1 && d < n2 && out1[d] == out2[d])
      d++;
    size_t from = d > 100 ? d - 100 : 0;
    cr_expect_fail("%s: writing the games read back gives other text, at byte %zu:\n"
                   "first:  ...%.200s\nsecond: ...%.200s",
                   name, d, out1 + from, out2 + from);
  }

  size_t where = 0;
  int longs = long_lines(out1, n1, &where);
  cr_expect_eq(longs, 0, "%s: %d movetext lines over 79 columns, the first: %.100s", name, longs,
               out1 + where);
  cr_expect_eq(str_out_of_order(out1, n1), 0, "%s: Seven Tag Roster not first", name);

  tbuf clk_in = {0}, clk_out = {0};
  clock_comments(data, len, &clk_in);
  clock_comments(out1, n1, &clk_out);
  tb_reserve(&clk_in, 0);
  tb_reserve(&clk_out, 0);
  cr_expect(clk_in.n == clk_out.n && memcmp(clk_in.p, clk_out.p, clk_in.n) == 0,
            "%s: %%clk comments do not survive byte for byte (%zu bytes of them in, %zu out)", name,
            clk_in.n, clk_out.n);

  /* Reading in strict mode what the writer wrote: export format is exact. */
  read_into(&c, ARB_PGN_STRICT, out1, n1, ONE_CHUNK);
  int strict_errors = 0;
  for (int i = 0; i < c.n; i++)
    strict_errors += c.g[i].errors;
  cr_expect_eq(strict_errors, 0, "%s: the writer's output has %d strict-mode errors", name,
               strict_errors);
  arb_pgn_writer_free(a.w);
  arb_pgn_writer_free(b.w);
  coll_free(&a);
  coll_free(&b);
  coll_free(&c);
  tb_free(&clk_in);
  tb_free(&clk_out);
  free(data);
}

Test(pgn_round_trip, real_files) {
  flist files = list_pgn(PGN_DATA "/real");
  cr_assert_geq(files.n, 6);
  for (int f = 0; f < files.n; f++)
    round_trip(files.v[f]);
  fl_free(&files);
}

/* arb_pgn_writer_move_to (check mark from the position after the move) writes what
 * arb_pgn_writer_move (which makes the move itself) writes. */
Test(pgn_round_trip, move_to_writes_the_same) {
  flist files = list_pgn(PGN_DATA "/real");
  cr_assert_geq(files.n, 6);
  for (int f = 0; f < files.n; f++) {
    size_t len;
    char *data = slurp(files.v[f], &len);
    coll a = {0}, b = {0};
    a.w = arb_pgn_writer_new(0);
    b.w = arb_pgn_writer_new(0);
    cr_assert(a.w && b.w);
    b.move_to = 1;
    read_into(&a, 0, data, len, ONE_CHUNK);
    read_into(&b, 0, data, len, ONE_CHUNK);
    size_t n1, n2;
    const char *o1 = arb_pgn_writer_data(a.w, &n1), *o2 = arb_pgn_writer_data(b.w, &n2);
    cr_expect(n1 > 0 && n1 == n2 && memcmp(o1, o2, n1) == 0, "%s: move and move_to differ",
              base_name(files.v[f]));
    cr_expect_eq(a.wfail + b.wfail, 0);
    arb_pgn_writer_free(a.w);
    arb_pgn_writer_free(b.w);
    coll_free(&a);
    coll_free(&b);
    free(data);
  }
  fl_free(&files);
}

Test(pgn_round_trip, clock_comments_exist_in_the_data) {
  size_t len;
  char *data = slurp(PGN_DATA "/real/lichess-jishanshaikh4-standard-first300.pgn", &len);
  tbuf clk = {0};
  clock_comments(data, len, &clk);
  cr_expect_gt(clk.n, 10000);
  tb_free(&clk);
  free(data);
}

/* ---- the writer on its own ---- */

static void w_moves(arb_pgn_writer *w, arb_position *p, const char *const *uci, int n) {
  for (int i = 0; i < n; i++) {
    arb_move m = test_uci(p, uci[i]);
    cr_assert_eq(arb_pgn_writer_move(w, p, m), ARB_OK);
    arb_undo u;
    arb_make_move(p, m, &u);
  }
}

static const char *w_text(const arb_pgn_writer *w) {
  size_t n;
  const char *s = arb_pgn_writer_data(w, &n);
  cr_assert_eq(strlen(s), n);
  return s;
}

/* The export format of the PGN standard (section 8): the Seven Tag Roster in order, other tags
 * after it, a blank line, movetext with "N." before White's moves and "N..." before Black's
 * after a comment or a variation, the termination marker and a blank line. */
static void write_sample(arb_pgn_writer *w) {
  arb_pgn_writer_begin_game(w);
  cr_assert_eq(arb_pgn_writer_tag(w, "White", 5, "A \"B\" C", 7), ARB_OK);
  cr_assert_eq(arb_pgn_writer_tag(w, "ECO", 3, "C20", 3), ARB_OK);
  cr_assert_eq(arb_pgn_writer_tag(w, "Event", 5, "Ex", 2), ARB_OK);
  cr_assert_eq(arb_pgn_writer_tag(w, "Black", 5, "D\\E", 3), ARB_OK);
  cr_assert_eq(arb_pgn_writer_tag(w, "Event", 5, "Second", 6), ARB_OK); /* keeps the first */
  cr_assert_eq(arb_pgn_writer_tag(w, "Result", 6, "1-0", 3), ARB_OK);
  cr_assert_eq(arb_pgn_writer_tag(w, "Annotator", 9, "me", 2), ARB_OK);
  arb_position p;
  arb_position_startpos(&p);
  arb_position start = p;
  w_moves(w, &p, (const char *const[]){"e2e4"}, 1);
  cr_assert_eq(arb_pgn_writer_nag(w, 1), ARB_OK);
  cr_assert_eq(arb_pgn_writer_begin_variation(w), ARB_OK);
  arb_position v = start;
  w_moves(w, &v, (const char *const[]){"d2d4", "d7d5"}, 2);
  cr_assert_eq(arb_pgn_writer_end_variation(w), ARB_OK);
  w_moves(w, &p, (const char *const[]){"e7e5", "d1h5"}, 2);
  cr_assert_eq(arb_pgn_writer_comment(w, "a b c", 5), ARB_OK);
  w_moves(w, &p, (const char *const[]){"b8c6", "f1c4", "g8f6", "h5f7"}, 4);
  cr_assert_eq(arb_pgn_writer_end_game(w, ARB_RESULT_WHITE_WINS), ARB_OK);
}

static const char *const sample_tags_before_date = "[Event \"Ex\"]\n[Site \"?\"]\n";
static const char *const sample_rest =
    "[Round \"?\"]\n[White \"A \\\"B\\\" C\"]\n[Black \"D\\\\E\"]\n[Result \"1-0\"]\n"
    "[ECO \"C20\"]\n[Annotator \"me\"]\n\n"
    "1. e4 $1 (1. d4 d5) 1... e5 2. Qh5 { a b c } 2... Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";

static void expect_sample(const char *got, const char *moves_instead) {
  /* An unknown date is "????.??.??" in the PGN standard; pgn.h says "?". */
  for (int d = 0; d < 2; d++) {
    tbuf want = {0};
    tb_str(&want, sample_tags_before_date);
    tb_str(&want, d ? "[Date \"?\"]\n" : "[Date \"????.??.??\"]\n");
    if (moves_instead) {
      const char *blank = strstr(sample_rest, "\n\n");
      tb_put(&want, sample_rest, (size_t)(blank + 2 - sample_rest));
      tb_str(&want, moves_instead);
    } else {
      tb_str(&want, sample_rest);
    }
    int same = strcmp(want.p, got) == 0;
    if (same || d == 1) cr_expect(same, "written:\n%s\nexpected:\n%s", got, want.p);
    tb_free(&want);
    if (same) break;
  }
}

Test(pgn_writer, export_format) {
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  cr_assert_not_null(w);
  write_sample(w);
  expect_sample(w_text(w), NULL);
  /* The checkers the round trips use. */
  cr_expect_eq(str_out_of_order(w_text(w), strlen(w_text(w))), 0);
  const char *swapped = "[Site \"?\"]\n[Event \"x\"]\n\n*\n\n";
  cr_expect_eq(str_out_of_order(swapped, strlen(swapped)), 1);
  arb_pgn_writer_clear(w);
  cr_expect_str_eq(w_text(w), "");
  arb_pgn_writer_free(w);
  arb_pgn_writer_free(NULL);

  w = arb_pgn_writer_new(ARB_PGN_WRITE_NO_COMMENTS | ARB_PGN_WRITE_NO_VARIATIONS |
                         ARB_PGN_WRITE_NO_NAGS);
  cr_assert_not_null(w);
  write_sample(w);
  expect_sample(w_text(w), "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n");
  arb_pgn_writer_free(w);
}

Test(pgn_writer, discard_and_bad_arguments) {
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  cr_assert_not_null(w);
  write_sample(w);
  tbuf first = {0};
  tb_str(&first, w_text(w));
  arb_pgn_writer_begin_game(w);
  cr_expect_neq(arb_pgn_writer_tag(w, "Bad Name", 8, "x", 1), ARB_OK, "a name with a blank");
  cr_expect_eq(arb_pgn_writer_tag(w, "Event", 5, "dropped", 7), ARB_OK);
  arb_position p;
  arb_position_startpos(&p);
  w_moves(w, &p, (const char *const[]){"e2e4"}, 1);
  arb_pgn_writer_discard_game(w);
  cr_expect_str_eq(w_text(w), first.p);
  cr_expect_neq(arb_pgn_writer_nag(w, 256), ARB_OK);
  arb_pgn_writer_free(w);
  tb_free(&first);
}

/* Long movetext is broken into lines under 80 columns, between tokens only. */
Test(pgn_writer, line_length) {
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  cr_assert_not_null(w);
  arb_pgn_writer_begin_game(w);
  arb_position p;
  arb_position_startpos(&p);
  tbuf want = {0};
  static const char *const shuffle[4] = {"g1f3", "g8f6", "f3g1", "f6g8"};
  static const char *const san[4] = {"Nf3", "Nf6", "Ng1", "Ng8"};
  for (int i = 0; i < 120; i++) {
    if (i % 2 == 0) tb_printf(&want, "%s%d. ", i ? " " : "", i / 2 + 1);
    tb_printf(&want, "%s%s", i % 2 ? " " : "", san[i % 4]);
    w_moves(w, &p, &shuffle[i % 4], 1);
    if (i % 10 == 9) {
      cr_assert_eq(arb_pgn_writer_comment(w, "a rather long comment of several words", 38), ARB_OK);
      tb_str(&want, " { a rather long comment of several words }");
    }
  }
  tb_str(&want, " *");
  cr_assert_eq(arb_pgn_writer_end_game(w, ARB_RESULT_NONE), ARB_OK);
  const char *s = strstr(w_text(w), "\n\n");
  cr_assert_not_null(s);
  s += 2;
  size_t where = 0;
  cr_expect_eq(long_lines(s, strlen(s), &where), 0, "%.100s", s + where);
  tbuf got = {0};
  tb_str(&got, s);
  for (size_t i = 0; i < got.n; i++)
    if (got.p[i] == '\n') got.p[i] = ' ';
  cr_assert_geq(got.n, 2);
  got.p[got.n - 2] = '\0'; /* the blank line that ends the game */
  cr_expect_str_eq(got.p, want.p);
  tb_free(&got);
  tb_free(&want);
  arb_pgn_writer_free(w);
}

/* ==== 4. The rules behind results ==== */

static grec read_one(const char *text, unsigned flags) {
  coll c = {0};
  read_text(&c, flags, text);
  cr_assert_eq(c.n, 1, "%d games in:\n%s", c.n, text);
  grec g = c.g[0];
  coll_free(&c);
  return g;
}

Test(pgn_rules, results_against_the_final_position) {
  static const struct {
    const char *pgn;
    int error; /* 1: a result error expected */
  } cases[] = {
      /* Fool's mate: Black mates. */
      {"[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", 0},
      {"[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n", 1},
      {"[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n", 1},
      {"\n1. f3 e5 2. g4 Qh4# 1-0\n", 1},
      /* Stalemate: Black's king on a8, White's queen on b6. */
      {"[SetUp \"1\"]\n[FEN \"k7/8/8/2Q5/8/8/8/7K w - - 0 1\"]\n[Result \"1/2-1/2\"]\n\n"
       "1. Qb6 1/2-1/2\n",
       0},
      {"[SetUp \"1\"]\n[FEN \"k7/8/8/2Q5/8/8/8/7K w - - 0 1\"]\n[Result \"1-0\"]\n\n1. Qb6 1-0\n",
       1},
      /* Insufficient material after a capture: king against king. */
      {"[SetUp \"1\"]\n[FEN \"8/8/8/7k/3q4/4K3/8/8 w - - 0 1\"]\n[Result \"0-1\"]\n\n"
       "1. Kxd4 0-1\n",
       1},
      {"[SetUp \"1\"]\n[FEN \"8/8/8/7k/3q4/4K3/8/8 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n\n"
       "1. Kxd4 1/2-1/2\n",
       0},
      /* A resignation is not implied by the position, and needs not be. */
      {"[Result \"0-1\"]\n\n1. e4 e5 0-1\n", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    grec g = read_one(cases[i].pgn, 0);
    if (cases[i].error)
      cr_expect(has_problem(&g, ARB_PGN_RESULT), "case %zu: no result error: %s\n%s", i,
                problems_of(&g), cases[i].pgn);
    else
      cr_expect_eq(g.errors, 0, "case %zu: %s\n%s", i, problems_of(&g), cases[i].pgn);
  }
}

Test(pgn_rules, moves_after_the_end) {
  grec g = read_one("[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 3. a3 0-1\n", 0);
  cr_expect_eq(g.first_move_problem, ARB_PGN_AFTER_END, "after mate: %s", problems_of(&g));
  cr_expect_eq(g.first_move_ply, 5);
  g = read_one("[SetUp \"1\"]\n[FEN \"k7/8/8/2Q5/8/8/8/7K w - - 0 1\"]\n[Result \"1/2-1/2\"]\n\n"
               "1. Qb6 Ka7 1/2-1/2\n",
               0);
  cr_expect_eq(g.first_move_problem, ARB_PGN_AFTER_END, "after stalemate: %s", problems_of(&g));
  cr_expect_eq(g.first_move_ply, 2);
}

/* FIDE 6.9: a player who oversteps the time loses, unless the opponent cannot checkmate by any
 * series of legal moves: then the game is drawn. */
static const char *forfeit(tbuf *t, const char *fen, const char *moves, const char *result,
                           int time_forfeit) {
  t->n = 0;
  tb_printf(t, "[Event \"t\"]\n[Result \"%s\"]\n[SetUp \"1\"]\n[FEN \"%s\"]\n", result, fen);
  if (time_forfeit) tb_str(t, "[Termination \"Time forfeit\"]\n");
  tb_printf(t, "\n%s %s\n", moves, result);
  return t->p;
}

Test(pgn_rules, time_forfeit) {
  tbuf t = {0};
  /* White: king and queen; Black: a lone king. */
  const char *kq = "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1";
  grec g = read_one(forfeit(&t, kq, "1. Qd3 Kf7", "0-1", 1), 0);
  cr_expect(has_problem(&g, ARB_PGN_TIME_FORFEIT), "lone king wins on time: %s", problems_of(&g));
  g = read_one(forfeit(&t, kq, "1. Qd3 Kf7", "1-0", 1), 0);
  cr_expect_eq(g.errors, 0, "king and queen win on time: %s", problems_of(&g));
  g = read_one(forfeit(&t, kq, "1. Qd3 Kf7", "0-1", 0), 0);
  cr_expect_eq(g.errors, 0, "White resigns: %s", problems_of(&g));
  g = read_one(forfeit(&t, kq, "1. Qd3 Kf7", "1/2-1/2", 1), 0);
  cr_expect_eq(g.errors, 0, "drawn on time: %s", problems_of(&g));

  /* White: king and rook; Black: a lone king. */
  const char *kr = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
  g = read_one(forfeit(&t, kr, "1. Ra7 Kf8", "1-0", 1), 0);
  cr_expect_eq(g.errors, 0, "king and rook win on time: %s", problems_of(&g));
  g = read_one(forfeit(&t, kr, "1. Ra7 Kf8", "0-1", 1), 0);
  cr_expect(has_problem(&g, ARB_PGN_TIME_FORFEIT), "lone king wins on time against K+R: %s",
            problems_of(&g));

  /* King and knight against a lone king, after White takes the last pawn: no one can mate (a
   * dead position, too). */
  const char *kn = "4k3/8/8/8/8/8/4p3/1N2K3 w - - 0 1";
  g = read_one(forfeit(&t, kn, "1. Kxe2", "1-0", 1), 0);
  cr_expect(has_problem(&g, ARB_PGN_TIME_FORFEIT) || has_problem(&g, ARB_PGN_RESULT),
            "K+N wins on time against a lone king: %s", problems_of(&g));
  g = read_one(forfeit(&t, kn, "1. Kxe2", "0-1", 1), 0);
  cr_expect(has_problem(&g, ARB_PGN_TIME_FORFEIT) || has_problem(&g, ARB_PGN_RESULT),
            "lone king wins on time against K+N: %s", problems_of(&g));
  tb_free(&t);
}

Test(pgn_rules, other_variants_are_skipped) {
  static const char *const games[] = {
      "[Event \"zh\"]\n[Variant \"Crazyhouse\"]\n[Result \"*\"]\n\n"
      "1. e4 d5 2. exd5 Nf6 3. P@e5 *\n",
      "[Event \"atomic\"]\n[Variant \"Atomic\"]\n[Result \"1-0\"]\n\n"
      "1. Nf3 f6 2. Ne5 fxe5 3. e4 Kf7 1-0\n",
  };
  for (int i = 0; i < 2; i++) {
    grec g = read_one(games[i], 0);
    cr_expect_eq(g.skipped, 1, "%s", games[i]);
    cr_expect_eq(g.errors, 0, "%s: %s", games[i], problems_of(&g));
    cr_expect_eq(g.moves, 0, "%s", games[i]);
  }
  size_t len;
  char *data = slurp(PGN_DATA "/nasty/lichess-other-variants.pgn", &len);
  coll c = {0};
  read_into(&c, 0, data, len, ONE_CHUNK);
  cr_expect_eq(c.n, 133);
  for (int i = 0; i < c.n; i++) {
    const grec *g = &c.g[i];
    int ours = !strcmp(g->variant, "Standard") || !strcmp(g->variant, "Chess960") ||
               !strcmp(g->variant, "From Position") || !g->variant[0];
    cr_expect_eq(g->errors, 0, "game %d (%s): %s", i + 1, g->variant, problems_of(g));
    cr_expect_eq(g->skipped, !ours, "game %d (%s)", i + 1, g->variant);
  }
  cr_expect_eq(c.stray_errors, 0);
  cr_expect_eq(c.stats.games_skipped, 133);
  coll_free(&c);
  free(data);
}

/* Every Chess960 game of the data replays (Chess960 games in the PGN corpus replay). */
Test(pgn_rules, chess960_games_replay) {
  flist files = list_pgn(PGN_DATA);
  int games = 0;
  for (int f = 0; f < files.n; f++) {
    size_t len;
    char *data = slurp(files.v[f], &len);
    coll c = {0};
    read_into(&c, 0, data, len, ONE_CHUNK);
    for (int i = 0; i < c.n; i++) {
      if (!c.g[i].chess960) continue;
      games++;
      cr_expect_eq(c.g[i].errors, 0, "%s game %d: %s", files.v[f], i + 1, problems_of(&c.g[i]));
    }
    coll_free(&c);
    free(data);
  }
  cr_expect_geq(games, 300 + 6 + 4, "%d Chess960 games", games);
  fl_free(&files);
}

/* ---- issue 18: the PGN gaps ---- */

typedef struct msgs {
  char msg[4][256];
  int n;
} msgs;

static void err_to_msgs(void *ctx, const arb_pgn_error *e) {
  msgs *m = ctx;
  if (m->n < 4) snprintf(m->msg[m->n], sizeof m->msg[0], "%s", e->message);
  m->n++;
}

/* A comment before the first move of a game without tags is that game's (PGN 8.2.5: comments
 * may appear anywhere in the movetext), not text between games. */
Test(pgn_issue18, starting_comment_without_tags) {
  grec g = read_one("{ Starting comment } 1. d3 *\n", 0);
  cr_expect_eq(g.errors, 0, "%s", problems_of(&g));
  cr_expect_eq(g.comments, 1);
  cr_expect_str_eq(g.comment, "Starting comment");
  cr_expect_eq(g.moves, 1);
  /* Between two games: the second, tagless one takes it; before a tag section it is dropped. */
  coll c = {0};
  read_text(&c, 0,
            "1. e4 *\n\n{ second } ; and more\n1. d4 *\n\n{ junk }\n[Event \"3\"]\n\n1. c4 *\n");
  cr_assert_eq(c.n, 3);
  cr_expect_eq(c.g[0].comments, 0);
  cr_expect_eq(c.g[1].comments, 2);
  cr_expect_str_eq(c.g[1].comment, "second");
  cr_expect_eq(c.g[2].comments, 0);
  cr_expect_eq(c.stray_errors, 0);
  coll_free(&c);
  /* and the writer keeps it in front of the first move */
  arb_tree *t;
  const char *text = "{ Starting comment } 1. d3 *\n";
  cr_assert_eq(arb_tree_read(text, strlen(text), NULL, &t, NULL, NULL, 0), ARB_OK);
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  cr_assert_eq(arb_tree_write(t, w), ARB_OK);
  cr_expect(strstr(arb_pgn_writer_data(w, NULL), "\n\n{ Starting comment } 1. d3 *\n") != NULL,
            "%s", arb_pgn_writer_data(w, NULL));
  arb_pgn_writer_free(w);
  arb_tree_free(t);
}

/* PGN standard 9.7.1: SetUp "1" says a FEN tag follows. */
Test(pgn_issue18, setup_without_fen_is_not_strict) {
  const char *pgn = "[Event \"x\"]\n[Result \"*\"]\n[SetUp \"1\"]\n\n1. e4 *\n";
  grec g = read_one(pgn, ARB_PGN_STRICT);
  cr_expect(has_problem(&g, ARB_PGN_NOT_STRICT), "%s", problems_of(&g));
  g = read_one(pgn, 0);
  cr_expect_eq(g.errors, 0, "lenient: %s", problems_of(&g));
  g = read_one("[Event \"x\"]\n[Result \"*\"]\n[SetUp \"0\"]\n\n1. e4 *\n", ARB_PGN_STRICT);
  cr_expect_eq(g.errors, 0, "SetUp 0: %s", problems_of(&g));
}

/* The writer names Chess960 when the game starts from a Chess960 position. */
Test(pgn_issue18, writer_adds_variant_chess960) {
  arb_position p;
  cr_assert_eq(arb_position_chess960(&p, 518), ARB_OK); /* 518 is the standard array */
  p.chess960 = 1;
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  arb_pgn_writer_begin_game(w);
  arb_pgn_writer_tag(w, "Variant", 7, "Standard", 8);
  arb_move m;
  cr_assert_eq(arb_san_read(&p, "e4", 2, 0, &m, NULL), ARB_OK);
  cr_assert_eq(arb_pgn_writer_move(w, &p, m), ARB_OK);
  arb_pgn_writer_end_game(w, ARB_RESULT_NONE);
  const char *d = arb_pgn_writer_data(w, NULL);
  cr_expect(strstr(d, "[Variant \"Chess960\"]\n") != NULL, "%s", d);
  cr_expect(strstr(d, "Standard") == NULL, "%s", d);
  /* a standard game: no Variant added */
  arb_pgn_writer_clear(w);
  arb_pgn_writer_begin_game(w);
  arb_position_startpos(&p);
  arb_pgn_writer_start(w, &p);
  arb_pgn_writer_end_game(w, ARB_RESULT_NONE);
  cr_expect(strstr(arb_pgn_writer_data(w, NULL), "Variant") == NULL);
  /* a Chess960 start without a move, told with arb_pgn_writer_start */
  arb_pgn_writer_clear(w);
  arb_pgn_writer_begin_game(w);
  cr_assert_eq(arb_position_chess960(&p, 0), ARB_OK);
  arb_pgn_writer_start(w, &p);
  arb_pgn_writer_end_game(w, ARB_RESULT_NONE);
  cr_expect(strstr(arb_pgn_writer_data(w, NULL), "[Variant \"Chess960\"]") != NULL);
  arb_pgn_writer_free(w);
}

/* FIDE 5.2.2: a dead position ends the game as a draw.  Here 1. g4 locks the pawn wall (no
 * capture is possible and no king can pass it).  Playing on is a warning naming the ply;
 * a win scored afterwards is an error that says FIDE makes it a draw. */
Test(pgn_issue18, play_after_a_dead_position) {
  tbuf t = {0};
  const char *fen = "8/4k3/8/p1p1p1p1/P1P1P3/6P1/4K3/8 w - - 0 1";
  grec g = read_one(forfeit(&t, fen, "1. g4 Kd7 2. Kd3 Ke7", "1/2-1/2", 0), 0);
  cr_expect_eq(g.errors, 0, "drawn: %s", problems_of(&g));
  cr_expect_eq(g.warnings, 1, "drawn: %s", problems_of(&g));
  cr_expect_eq(g.moves, 4, "the moves after it are replayed");
  cr_expect_eq(g.reps[0].problem, ARB_PGN_AFTER_END);
  cr_expect_eq(g.reps[0].warning, 1);
  cr_expect_eq(g.reps[0].ply, 2, "the first move played after it");
  g = read_one(forfeit(&t, fen, "1. g4 Kd7 2. Kd3 Ke7", "1-0", 0), 0);
  cr_expect_eq(g.errors, 1, "won: %s", problems_of(&g));
  cr_expect(has_problem(&g, ARB_PGN_RESULT), "%s", problems_of(&g));
  g = read_one(forfeit(&t, fen, "1. g4 Kd7 2. Kd3 Ke7", "*", 0), 0);
  cr_expect_eq(g.errors, 0, "unfinished: %s", problems_of(&g));
  tb_free(&t);

  /* the messages */
  msgs m = {0};
  arb_pgn_visitor v = {0};
  v.ctx = &m;
  v.error = err_to_msgs;
  arb_pgn_reader *r = arb_pgn_reader_new(NULL, &v);
  const char *pgn = "[Result \"0-1\"]\n[SetUp \"1\"]\n[FEN \"8/4k3/8/p1p1p1p1/P1P1P3/6P1/4K3/8 w - "
                    "- 0 1\"]\n\n1. g4 Kd7 0-1\n";
  arb_pgn_reader_feed(r, pgn, strlen(pgn));
  arb_pgn_reader_finish(r);
  arb_pgn_reader_free(r);
  cr_assert_eq(m.n, 2);
  cr_expect(strstr(m.msg[0], "ply 1 was dead") != NULL, "%s", m.msg[0]);
  cr_expect(strstr(m.msg[1], "FIDE 5.2.2 makes the game a draw") != NULL, "%s", m.msg[1]);
}

/* ---- game trees over the whole corpus: read, write, read again, nothing lost ---- */

typedef struct tree_count {
  arb_pgn_visitor inner; /* the builder's */
  arb_tree_builder *b;
  arb_pgn_writer *w;
  const char *file;
  long games;
  long moves, nags, texts, commands; /* reported by the reader and not yet found in a tree */
} tree_count;

static void tc_round_trip(tree_count *tc, arb_tree *t, int check_counts);

static int tc_begin_game(void *ctx, uint64_t g, uint64_t l) {
  tree_count *t = ctx;
  t->moves = t->nags = t->texts = t->commands = 0;
  return t->inner.begin_game(t->inner.ctx, g, l);
}
static int tc_tag(void *ctx, const char *n, size_t nl, const char *v, size_t vl) {
  tree_count *t = ctx;
  return t->inner.tag(t->inner.ctx, n, nl, v, vl);
}
static int tc_begin_moves(void *ctx, const arb_position *s) {
  tree_count *t = ctx;
  return t->inner.begin_moves(t->inner.ctx, s);
}
static int tc_move(void *ctx, const arb_pgn_move *m) {
  tree_count *t = ctx;
  t->moves++;
  return t->inner.move(t->inner.ctx, m);
}
/* A comment counts as a text if something is left without its commands (or it is empty),
 * and as the commands it holds. */
static void count_comment(const char *text, size_t len, long *texts, long *commands) {
  arb_pgn_commands c;
  arb_pgn_commands_clear(&c);
  size_t rest;
  arb_pgn_commands_read(text, len, &c, NULL, 0, &rest);
  *texts += rest > 0 || len == 0;
  *commands += (c.clk_ms >= 0) + (c.emt_ms >= 0) + c.has_eval + c.nshapes;
}

static int tc_comment(void *ctx, const char *text, size_t len, int depth) {
  tree_count *t = ctx;
  count_comment(text, len, &t->texts, &t->commands);
  return t->inner.comment(t->inner.ctx, text, len, depth);
}
static int tc_nag(void *ctx, int nag, int depth) {
  tree_count *t = ctx;
  t->nags++;
  return t->inner.nag(t->inner.ctx, nag, depth);
}
static int tc_begin_var(void *ctx, int d) {
  tree_count *t = ctx;
  return t->inner.begin_variation(t->inner.ctx, d);
}
static int tc_end_var(void *ctx, int d) {
  tree_count *t = ctx;
  return t->inner.end_variation(t->inner.ctx, d);
}
static void tc_end_game(void *ctx, const arb_pgn_game_end *e) {
  tree_count *t = ctx;
  t->inner.end_game(t->inner.ctx, e);
  arb_tree *tree = arb_tree_builder_take(t->b);
  /* (in a game with errors the reader reports what follows an error without replaying it) */
  if (tree) tc_round_trip(t, tree, e->errors == 0);
}

/* What a tree holds, counted like tree_count counts the reader's events. */
static void count_tree(arb_tree *t, long *moves, long *nags, long *texts, long *commands) {
  *moves = *nags = *texts = *commands = 0;
  for (arb_tree_node *n = arb_tree_root(t); n; n = arb_tree_node_walk(n)) {
    *moves += arb_tree_node_parent(n) != NULL;
    *nags += arb_tree_node_nag_count(n);
    for (int side = 0; side < 2; side++)
      for (int i = 0; i < arb_tree_node_comment_count(n, (arb_tree_side)side); i++) {
        size_t len;
        const char *s = arb_tree_node_comment(n, (arb_tree_side)side, i, &len);
        count_comment(s, len, texts, commands); /* (a command repeated on a move stays text) */
      }
    const arb_pgn_commands *c = arb_tree_node_commands(n);
    *commands += (c->clk_ms >= 0) + (c->emt_ms >= 0) + c->has_eval + c->nshapes;
  }
}

/* Two trees are equal: the same moves in the same places, the same annotations. */
static int same_node(const arb_tree_node *a, const arb_tree_node *b) {
  if (arb_tree_node_move(a) != arb_tree_node_move(b)) return 0;
  if (arb_tree_node_child_count(a) != arb_tree_node_child_count(b)) return 0;
  if (arb_tree_node_nag_count(a) != arb_tree_node_nag_count(b)) return 0;
  for (int i = 0; i < arb_tree_node_nag_count(a); i++)
    if (arb_tree_node_nag(a, i) != arb_tree_node_nag(b, i)) return 0;
  for (int s = 0; s < 2; s++) {
    int k = arb_tree_node_comment_count(a, (arb_tree_side)s);
    if (k != arb_tree_node_comment_count(b, (arb_tree_side)s)) return 0;
    for (int i = 0; i < k; i++)
      if (strcmp(arb_tree_node_comment(a, (arb_tree_side)s, i, NULL),
                 arb_tree_node_comment(b, (arb_tree_side)s, i, NULL)) != 0)
        return 0;
  }
  const arb_pgn_commands *x = arb_tree_node_commands(a), *y = arb_tree_node_commands(b);
  if (x->clk_ms != y->clk_ms || x->emt_ms != y->emt_ms || x->has_eval != y->has_eval ||
      x->eval != y->eval || x->eval_mate != y->eval_mate || x->eval_depth != y->eval_depth ||
      x->nshapes != y->nshapes)
    return 0;
  for (int i = 0; i < x->nshapes; i++)
    if (memcmp(&x->shapes[i], &y->shapes[i], sizeof x->shapes[i]) != 0) return 0;
  return 1;
}

static int same_tree(arb_tree *a, arb_tree *b) {
  if (arb_tree_node_count(a) != arb_tree_node_count(b)) return 0;
  if (arb_tree_result(a) != arb_tree_result(b)) return 0;
  arb_tree_node *x = arb_tree_root(a), *y = arb_tree_root(b);
  for (; x && y; x = arb_tree_node_walk(x), y = arb_tree_node_walk(y))
    if (!same_node(x, y)) return 0;
  return !x && !y;
}

/* Writes the tree, reads it back: the same tree; and the reader's events are all in it. */
static void tc_round_trip(tree_count *tc, arb_tree *t, int check_counts) {
  tc->games++;
  long mv, ng, tx, cm;
  count_tree(t, &mv, &ng, &tx, &cm);
  tc->moves -= mv, tc->nags -= ng, tc->texts -= tx, tc->commands -= cm;
  cr_expect(!check_counts ||
                (tc->moves == 0 && tc->nags == 0 && tc->texts == 0 && tc->commands == 0),
            "%s game %ld: not in the tree: %ld moves, %ld NAGs, %ld comments, %ld commands",
            tc->file, tc->games, tc->moves, tc->nags, tc->texts, tc->commands);
  tc->moves = tc->nags = tc->texts = tc->commands = 0;
  cr_expect_eq(arb_tree_write(t, tc->w), ARB_OK, "%s game %ld", tc->file, tc->games);
  size_t n;
  const char *d = arb_pgn_writer_data(tc->w, &n);
  arb_tree *u = NULL;
  int errors = 0;
  char msg[256] = "";
  arb_pgn_options o = {ARB_PGN_ALLOW_NULL | ARB_PGN_NO_RESULT_CHECK, ARB_RULES_FIDE, 0, 0};
  cr_assert_eq(arb_tree_read(d, n, &o, &u, &errors, msg, sizeof msg), ARB_OK);
  cr_expect(same_tree(t, u), "%s game %ld: read back differs (%s):\n%s", tc->file, tc->games, msg,
            d);
  arb_pgn_writer_clear(tc->w);
  arb_tree_free(u);
  arb_tree_free(t);
}

static void tree_round_trip_dir(const char *dir, long *games) {
  flist files = list_pgn(dir);
  tree_count tc;
  memset(&tc, 0, sizeof tc);
  tc.b = arb_tree_builder_new();
  tc.w = arb_pgn_writer_new(0);
  arb_tree_builder_visitor(tc.b, &tc.inner);
  arb_pgn_visitor v = {&tc,    tc_begin_game, tc_tag,     tc_begin_moves, tc_move, tc_comment,
                       tc_nag, tc_begin_var,  tc_end_var, tc_end_game,    NULL};
  arb_pgn_options o = {ARB_PGN_ALLOW_NULL | ARB_PGN_NO_RESULT_CHECK, ARB_RULES_FIDE, 0, 0};
  for (int f = 0; f < files.n; f++) {
    size_t len;
    char *data = slurp(files.v[f], &len);
    tc.file = files.v[f];
    arb_pgn_reader *r = arb_pgn_reader_new(&o, &v);
    arb_pgn_reader_feed(r, data, len);
    arb_pgn_reader_finish(r);
    arb_pgn_reader_free(r);
    free(data);
  }
  *games += tc.games;
  arb_pgn_writer_free(tc.w);
  arb_tree_builder_free(tc.b);
  fl_free(&files);
}

Test(pgn_tree, corpus_round_trip_loses_nothing, .timeout = 600) {
  long games = 0;
  tree_round_trip_dir(PGN_DATA, &games);
  cr_expect_gt(games, 1000, "%ld games", games);
  struct stat st;
  const char *shared = ARB_TEST_DATA "/../../../shared/data/pgn";
  if (stat(shared, &st) == 0 && S_ISDIR(st.st_mode)) tree_round_trip_dir(shared, &games);
}
