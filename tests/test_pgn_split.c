/* Arbiter — MIT licence, see LICENSE.
 *
 * test_pgn_split.c: a PGN stream cut at game boundaries (arb_pgn_splitter) and read as pieces
 * (arb_pgn_job, arb_pgn_output).  What must hold, from the definitions in arbiter/pgn.h: the
 * pieces put back together are the stream; each ends just before a line "[Event " that follows
 * a blank line (LF or CRLF), the first at or after `target` bytes, unless none comes before
 * `max` (then after the last line end there); their line numbers and offsets count the bytes
 * before them; where they end does not depend on how the stream was fed; and the jobs' records,
 * put together by one output, are byte for byte the records of one job over the whole stream.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "test_util.h"

#ifndef ARB_TEST_DATA
#define ARB_TEST_DATA "tests/data"
#endif

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "%s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc((size_t)n + 1);
  cr_assert_eq(fread(p, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  *len = (size_t)n;
  return p;
}

#define REAL ARB_TEST_DATA "/pgn/real/lichess-jishanshaikh4-standard-first300.pgn"

typedef struct pieces {
  size_t n, off[4096], len[4096];
  uint64_t line[4096];
  int forced[4096];
} pieces;

/* Cuts data into pieces, fed `block` bytes at a time (0: all at once). */
static void split(const char *data, size_t len, size_t target, size_t max, size_t block,
                  pieces *out) {
  arb_pgn_splitter *s = arb_pgn_splitter_new(target, max);
  cr_assert_not_null(s);
  memset(out, 0, sizeof *out);
  arb_pgn_piece pc;
  size_t fed = 0;
  for (int end = 0; !end;) {
    size_t k = block && len - fed > block ? block : len - fed;
    cr_assert_eq(arb_pgn_splitter_feed(s, data + fed, k), ARB_OK);
    fed += k;
    end = fed == len;
    while (arb_pgn_splitter_next(s, end, &pc)) {
      cr_assert_lt(out->n, 4096);
      out->off[out->n] = (size_t)pc.offset;
      out->len[out->n] = pc.len;
      out->line[out->n] = pc.first_line;
      out->forced[out->n] = pc.forced;
      cr_assert(memcmp(pc.data, data + pc.offset, pc.len) == 0, "piece %zu's bytes", out->n);
      out->n++;
    }
  }
  arb_pgn_splitter_free(s);
}

static uint64_t lines_before(const char *data, size_t off) {
  uint64_t n = 1;
  for (size_t i = 0; i < off; i++)
    n += data[i] == '\n';
  return n;
}

static int starts_game(const char *data, size_t k) {
  return k >= 2 && data[k - 1] == '\n' && !strncmp(data + k, "[Event ", 7) &&
         (data[k - 2] == '\n' || (k >= 3 && data[k - 2] == '\r' && data[k - 3] == '\n'));
}

static void check_pieces(const char *data, size_t len, size_t target, size_t max, const pieces *p) {
  size_t at = 0;
  for (size_t i = 0; i < p->n; i++) {
    cr_assert_eq(p->off[i], at, "piece %zu starts where the last ended", i);
    cr_assert_eq(p->line[i], lines_before(data, at), "piece %zu's first line", i);
    size_t end = at + p->len[i];
    if (end < len) {
      if (!p->forced[i]) {
        cr_assert(starts_game(data, end), "piece %zu ends before a game", i);
        cr_assert_geq(p->len[i], target, "piece %zu: at least target", i);
        for (size_t k = at + target; k < end; k++)
          cr_assert(!starts_game(data, k), "piece %zu passed a boundary at %zu", i, k);
        cr_assert_leq(p->len[i], max);
      } else {
        cr_assert_leq(p->len[i], max, "a forced piece is at most max");
        for (size_t k = at + target; k <= at + max && k < len; k++)
          cr_assert(!starts_game(data, k), "forced piece %zu had a boundary at %zu", i, k);
      }
    }
    at = end;
  }
  cr_assert_eq(at, len, "the pieces are the whole stream");
}

Test(pgn_split, real_games_at_their_boundaries_however_fed) {
  size_t len;
  char *data = slurp(REAL, &len);
  static pieces a, b, c;
  split(data, len, 16384, 65536, 0, &a);
  check_pieces(data, len, 16384, 65536, &a);
  cr_assert_gt(a.n, 10);
  split(data, len, 16384, 65536, 1000, &b);
  split(data, len, 16384, 65536, 7, &c);
  cr_assert_eq(a.n, b.n);
  cr_assert_eq(a.n, c.n);
  for (size_t i = 0; i < a.n; i++) {
    cr_assert_eq(a.len[i], b.len[i], "piece %zu, fed 1000 bytes at a time", i);
    cr_assert_eq(a.len[i], c.len[i], "piece %zu, fed 7 bytes at a time", i);
  }
  free(data);
}

Test(pgn_split, crlf_boundaries_and_small_inputs) {
  const char *text = "[Event \"a\"]\r\n\r\n1. e4 *\r\n\r\n[Event \"b\"]\r\n\r\n1. d4 *\r\n";
  static pieces p;
  split(text, strlen(text), 4, 64, 3, &p);
  cr_assert_eq(p.n, 2);
  cr_assert_eq(p.off[1], (size_t)(strstr(text + 1, "[Event") - text));
  cr_assert_eq(p.line[1], 5);
  check_pieces(text, strlen(text), 4, 64, &p);
  split(text, strlen(text), 1 << 20, 1 << 20, 0, &p); /* below target: one piece */
  cr_assert_eq(p.n, 1);
  split("", 0, 0, 0, 0, &p);
  cr_assert_eq(p.n, 0);
  /* "[Event" not after a blank line, or not at a line start: no boundary */
  const char *no = "[Event \"a\"]\n1. e4 *\n[Event \"b\"]\nxx [Event \"c\"]\n";
  split(no, strlen(no), 2, 1000, 0, &p);
  cr_assert_eq(p.n, 1);
}

Test(pgn_split, no_boundary_is_cut_at_a_line_end_within_max) {
  /* one long game: 200 lines of 50 bytes, no boundary */
  static char text[10000 + 1];
  for (int i = 0; i < 200; i++) {
    memset(text + i * 50, 'x', 49);
    text[i * 50 + 49] = '\n';
  }
  static pieces p;
  split(text, 10000, 1000, 2025, 333, &p);
  check_pieces(text, 10000, 1000, 2025, &p);
  cr_assert(p.forced[0]);
  cr_assert_eq(p.len[0], 2000); /* the last line end at or before 2025 */
  /* without a line end either: at max */
  memset(text, 'y', 10000);
  split(text, 10000, 1000, 2025, 0, &p);
  cr_assert_eq(p.len[0], 2025);
  check_pieces(text, 10000, 1000, 2025, &p);
}

/* ---- jobs and the ordered output ---- */

typedef struct sink {
  char *p;
  size_t n, cap;
} sink;

static void put(sink *s, const char *d, size_t n) {
  if (s->n + n + 1 > s->cap) {
    s->cap = (s->n + n + 1) * 2;
    s->p = realloc(s->p, s->cap);
  }
  memcpy(s->p + s->n, d, n);
  s->n += n;
  s->p[s->n] = 0;
}

typedef struct both {
  sink out, err;
} both;

static void write_both(void *ctx, int to_stderr, const char *d, size_t n) {
  both *b = ctx;
  put(to_stderr ? &b->err : &b->out, d, n);
}

static void to_output(void *ctx, const arb_pgn_record *r) { arb_pgn_output_record(ctx, r); }

/* The whole stream through one job, or piece by piece through one job each, records kept and
 * read back (as another process would); both through an output. */
static void run(const arb_pgn_job_options *o, const char *data, size_t len, size_t target,
                both *res, arb_pgn_stats *stats) {
  memset(res, 0, sizeof *res);
  arb_pgn_output *out = arb_pgn_output_new(o->dedupe, write_both, res);
  if (!target) {
    arb_pgn_job *j = arb_pgn_job_new(o, 1, to_output, out);
    cr_assert_eq(arb_pgn_job_feed(j, data, len), ARB_OK);
    arb_pgn_stats st;
    cr_assert_eq(arb_pgn_job_finish(j, &st), ARB_OK);
    arb_pgn_output_job_done(out, &st);
    arb_pgn_job_free(j);
  } else {
    arb_pgn_splitter *s = arb_pgn_splitter_new(target, 4 * target);
    arb_pgn_splitter_feed(s, data, len);
    arb_pgn_piece pc;
    while (arb_pgn_splitter_next(s, 1, &pc)) {
      arb_pgn_job *j = arb_pgn_job_new(o, pc.first_line, NULL, NULL);
      cr_assert_eq(arb_pgn_job_feed(j, pc.data, pc.len), ARB_OK);
      arb_pgn_stats st;
      cr_assert_eq(arb_pgn_job_finish(j, &st), ARB_OK);
      size_t n, pos = 0;
      const void *recs = arb_pgn_job_records(j, &n);
      char *copy = malloc(n + 1);
      memcpy(copy, recs, n);
      arb_pgn_job_free(j);
      arb_pgn_record r;
      while (arb_pgn_records_next(copy, n, &pos, &r))
        arb_pgn_output_record(out, &r);
      cr_assert_eq(pos, n, "every record read back");
      free(copy);
      arb_pgn_output_job_done(out, &st);
    }
    arb_pgn_splitter_free(s);
  }
  arb_pgn_output_totals(out, stats, NULL, NULL);
  arb_pgn_output_free(out);
}

static void same_as_one_job(arb_pgn_job_options *o, const char *path) {
  size_t len;
  char *data = slurp(path, &len);
  both one, many;
  arb_pgn_stats s1, s2;
  run(o, data, len, 0, &one, &s1);
  run(o, data, len, 8192, &many, &s2);
  cr_assert_eq(one.out.n, many.out.n, "%s: output sizes", path);
  cr_assert(one.out.n == 0 || memcmp(one.out.p, many.out.p, one.out.n) == 0, "%s: output", path);
  cr_assert_eq(one.err.n, many.err.n, "%s: diagnostics", path);
  cr_assert(one.err.n == 0 || memcmp(one.err.p, many.err.p, one.err.n) == 0);
  cr_assert_eq(s1.games, s2.games);
  cr_assert_eq(s1.errors, s2.errors);
  cr_assert_eq(s1.plies, s2.plies);
  cr_assert_eq(s1.bytes, s2.bytes);
  free(one.out.p), free(one.err.p), free(many.out.p), free(many.err.p);
  free(data);
}

#define NASTY ARB_TEST_DATA "/pgn/nasty/"

Test(pgn_split, pieces_read_apart_give_one_readers_output) {
  arb_pgn_job_options o;
  memset(&o, 0, sizeof o);
  o.file = "games.pgn";
  same_as_one_job(&o, REAL); /* check */
  o.format = ARB_PGN_FORMAT_JSONL;
  same_as_one_job(&o, REAL);
  o.format = ARB_PGN_FORMAT_PGN;
  o.filtering = 1;
  o.min_elo = 1500;
  o.dedupe = 1;
  same_as_one_job(&o, REAL);
}

Test(pgn_split, reports_name_file_line_and_game) {
  const char *text = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 *\n";
  arb_pgn_job_options o;
  memset(&o, 0, sizeof o);
  o.file = "x.pgn";
  both res;
  arb_pgn_stats st;
  run(&o, text, strlen(text), 0, &res, &st);
  cr_assert_str_eq(res.out.p,
                   "x.pgn:4:13: game 1 (A \xE2\x80\x93 B): ply 3: 2. Ke3: no legal move fits\n");
  char line[256];
  arb_pgn_summary_write(&st, 0, 0, line, sizeof line);
  cr_assert(!strncmp(line, "1 games, 1 with errors (1 errors, 0 warnings), 0 skipped", 56), "%s",
            line);
  free(res.out.p);
  free(res.err.p);
  /* a serialised buffer cut short reads no record past its end */
  arb_pgn_job *j = arb_pgn_job_new(&o, 1, NULL, NULL);
  arb_pgn_job_feed(j, text, strlen(text));
  arb_pgn_job_finish(j, NULL);
  size_t n, pos = 0;
  const void *recs = arb_pgn_job_records(j, &n);
  arb_pgn_record r;
  cr_assert(arb_pgn_records_next(recs, n, &pos, &r));
  cr_assert_eq(r.game, 1);
  pos = 0;
  cr_assert(!arb_pgn_records_next(recs, n - 1, &pos, &r));
  arb_pgn_job_free(j);
}
