/* Arbiter — MIT licence, see LICENSE.
 *
 * pgn_cmd.c: `arbiter pgn check|convert|filter` — PGN files replayed under the full rules.
 *
 * A front end over the library's PGN jobs (arbiter/pgn.h: arb_pgn_job reads a piece as this
 * command does, arb_pgn_output puts the pieces' records together in order, arb_pgn_splitter cuts
 * the input at game boundaries): this file parses the options, opens the inputs (plain, zstd or
 * gzip: pgn_source.c), runs the workers and shows progress on a terminal.  With one thread the
 * whole input goes through one job, block by block.  With -j N the input is cut into pieces of
 * about 256 KB at game boundaries, each read by its own job in one of N workers, and the
 * pieces' records are written in input order, so the output is byte for byte the one thread's —
 * except for an input with no game boundary in 512 KB, which is cut at a line end there (memory
 * stays bounded).  Memory: one job (one thread); N + 1 pieces and their records (N workers).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pgn_source.h"
#include "util.h"

#define READ_BLOCK (1u << 17)

enum { MODE_CHECK, MODE_CONVERT };

typedef struct pgn_opts {
  int mode, quiet, jobs, progress;
  arb_pgn_job_options j;       /* what each job does (file: set per input) */
  arb_position target;         /* --position (j.position points here) */
  arb_pgn_tag_filter tags[16]; /* --tag (j.tags) */
  char tag_names[16][64];
  char eco_buf[2][4];
} pgn_opts;

/* ---- a piece of input and its job ---- */

typedef struct chunk {
  const char *file;
  arb_pgn_job_options o; /* the options with this input's name */
  char *data;
  size_t len;
  uint64_t first_line;
  arb_pgn_job *job; /* its records, once read */
  arb_pgn_stats stats;
  int done, failed;
} chunk;

/* Reads one piece: the whole work of a worker. */
static void run_chunk(chunk *c) {
  c->job = arb_pgn_job_new(&c->o, c->first_line, NULL, NULL);
  if (!c->job || arb_pgn_job_feed(c->job, c->data, c->len) != ARB_OK ||
      arb_pgn_job_finish(c->job, &c->stats) != ARB_OK)
    c->failed = 1;
  free(c->data);
  c->data = NULL;
}

/* ---- progress on a terminal ---- */

/* A line on stderr, redrawn at most four times a second while the input is read: the bytes of
 * the file read so far (of its size, when it is a file), games per second and the time left.
 * Only when stderr is a terminal: never in a pipe or a test's output. */
typedef struct progress {
  int on, shown, stdout_tty;
  double t0, last;
  uint64_t games, size, bytes;
} progress;

/* ---- ordered output ---- */

typedef struct totals {
  arb_pgn_output *out;
  const char *file; /* the input whose games are being numbered */
  int oom;
  progress prog;
} totals;

/* The size of a regular file (what progress counts against), else 0 (a pipe, a terminal). */
static uint64_t file_size(FILE *f) {
  struct stat st;
  return fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

static void progress_clear(progress *pr) {
  if (!pr->shown) return;
  fputs("\r\033[K", stderr);
  pr->shown = 0;
}

static void progress_draw(progress *pr) {
  double now = arb_tool_now();
  if (now - pr->last < 0.25) return;
  pr->last = now;
  double secs = now - pr->t0;
  char left[48] = "";
  if (pr->size && pr->bytes && pr->bytes <= pr->size && secs > 0.5) {
    double rest = (double)(pr->size - pr->bytes) * secs / (double)pr->bytes;
    snprintf(left, sizeof left, ", %d:%02d left", (int)(rest / 60), (int)rest % 60);
  }
  char of[48] = "";
  if (pr->size)
    snprintf(of, sizeof of, " of %.1f MB (%d%%)", (double)pr->size / 1e6,
             (int)(100.0 * (double)pr->bytes / (double)pr->size));
  fprintf(stderr, "\rarbiter pgn: %.1f MB%s, %llu games, %.0f games/s%s\033[K",
          (double)pr->bytes / 1e6, of, (unsigned long long)pr->games,
          secs > 0 ? (double)pr->games / secs : 0.0, left);
  fflush(stderr);
  pr->shown = 1;
}

static void progress_games(progress *pr, uint64_t n) {
  pr->games += n;
  if (pr->on) progress_draw(pr);
}

static void progress_bytes(progress *pr, uint64_t consumed) {
  pr->bytes = consumed;
  if (pr->on) progress_draw(pr);
}

static void write_out(void *ctx, int to_stderr, const char *data, size_t len) {
  totals *t = ctx;
  if (t->prog.shown && (to_stderr || t->prog.stdout_tty)) progress_clear(&t->prog);
  fwrite(data, 1, len, to_stderr ? stderr : stdout);
}

static void same_file(totals *t, const char *file) {
  if (file != t->file) {
    t->file = file;
    arb_pgn_output_file(t->out);
  }
}

/* A piece's records, in order; then its counts. */
static void emit(totals *t, chunk *c) {
  if (c->failed) t->oom = 1;
  if (c->job) {
    size_t len, pos = 0;
    const void *recs = arb_pgn_job_records(c->job, &len);
    arb_pgn_record r;
    while (arb_pgn_records_next(recs, len, &pos, &r))
      arb_pgn_output_record(t->out, &r);
  }
  arb_pgn_output_job_done(t->out, &c->stats);
  arb_pgn_job_free(c->job);
  c->job = NULL;
  progress_games(&t->prog, c->stats.games);
}

/* ---- worker pool ---- */

#define MAX_JOBS 64
typedef struct pool {
  const pgn_opts *o;
  totals *t;
  chunk slots[2 * MAX_JOBS];
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
    chunk *c = &p->slots[p->taken++ % (uint64_t)p->nslots];
    pthread_mutex_unlock(&p->mu);
    run_chunk(c);
    pthread_mutex_lock(&p->mu);
    c->done = 1;
    pthread_cond_broadcast(&p->done);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* Emits finished pieces in order; with `all`, waits for every submitted one. */
static void drain(pool *p, int all) {
  pthread_mutex_lock(&p->mu);
  for (;;) {
    if (p->emitted == p->submitted) break;
    chunk *c = &p->slots[p->emitted % (uint64_t)p->nslots];
    if (!c->done) {
      if (!all && p->submitted - p->emitted < (uint64_t)p->nslots) break;
      pthread_cond_wait(&p->done, &p->mu);
      continue;
    }
    pthread_mutex_unlock(&p->mu);
    same_file(p->t, c->file);
    emit(p->t, c);
    pthread_mutex_lock(&p->mu);
    p->emitted++;
  }
  pthread_mutex_unlock(&p->mu);
}

/* Hands a piece (copied) to the workers. */
static int submit(pool *p, const char *file, const arb_pgn_piece *pc) {
  char *data = malloc(pc->len ? pc->len : 1);
  if (!data) return -1;
  memcpy(data, pc->data, pc->len);
  drain(p, 0);
  pthread_mutex_lock(&p->mu);
  chunk *c = &p->slots[p->submitted % (uint64_t)p->nslots];
  memset(c, 0, sizeof *c);
  c->file = file;
  c->o = p->o->j;
  c->o.file = file;
  c->data = data;
  c->len = pc->len;
  c->first_line = pc->first_line;
  p->submitted++;
  pthread_cond_signal(&p->work);
  pthread_mutex_unlock(&p->mu);
  return 0;
}

/* One thread: the whole input through one job, block by block, its records straight out. */
static void direct_record(void *ctx, const arb_pgn_record *r) {
  arb_pgn_output_record(((totals *)ctx)->out, r);
}

static int stream_input(pool *p, const char *name, pgn_source *in) {
  totals *t = p->t;
  same_file(t, name);
  arb_pgn_job_options o = p->o->j;
  o.file = name;
  arb_pgn_job *job = arb_pgn_job_new(&o, 1, direct_record, t);
  char *buf = job ? malloc(READ_BLOCK) : NULL;
  int rc = buf ? 0 : -1;
  uint64_t games = 0;
  arb_pgn_stats st;
  memset(&st, 0, sizeof st);
  while (rc == 0) {
    size_t k = pgn_source_read(in, buf, READ_BLOCK);
    if (k && arb_pgn_job_feed(job, buf, k) != ARB_OK) rc = -1;
    if (t->prog.on) {
      arb_pgn_job_stats(job, &st);
      progress_games(&t->prog, st.games - games);
      games = st.games;
      progress_bytes(&t->prog, pgn_source_consumed(in));
    }
    if (k < READ_BLOCK) break;
  }
  free(buf);
  if (job && arb_pgn_job_finish(job, &st) != ARB_OK) rc = -1;
  if (job) arb_pgn_output_job_done(t->out, &st);
  arb_pgn_job_free(job);
  if (rc) t->oom = 1;
  return rc || pgn_source_error(in) ? -1 : 0;
}

static int read_input(pool *p, const char *name, pgn_source *in) {
  if (p->nthreads == 0) return stream_input(p, name, in);
  arb_pgn_splitter *s = arb_pgn_splitter_new(0, 0);
  char *buf = s ? malloc(READ_BLOCK) : NULL;
  int rc = buf ? 0 : -1;
  arb_pgn_piece pc;
  for (int end = 0; rc == 0 && !end;) {
    size_t k = pgn_source_read(in, buf, READ_BLOCK);
    end = k < READ_BLOCK;
    if (arb_pgn_splitter_feed(s, buf, k) != ARB_OK) rc = -1;
    while (rc == 0 && arb_pgn_splitter_next(s, end, &pc))
      rc = submit(p, name, &pc);
    progress_bytes(&p->t->prog, pgn_source_consumed(in));
  }
  free(buf);
  arb_pgn_splitter_free(s);
  if (rc) p->t->oom = 1;
  return rc || pgn_source_error(in) ? -1 : 0;
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
      "On a terminal, stderr shows progress while reading: MB read (of the file's size),\n"
      "games, games/s and the time left; never in a pipe or a file.\n"
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
      o->j.json = 1;
    } else if (!strcmp(a, "--strict")) {
      o->j.read_flags |= ARB_PGN_STRICT;
    } else if (!strcmp(a, "--allow-null")) {
      o->j.read_flags |= ARB_PGN_ALLOW_NULL;
    } else if (!strcmp(a, "--no-result-check")) {
      o->j.read_flags |= ARB_PGN_NO_RESULT_CHECK;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      o->quiet = 1;
    } else if (!strcmp(a, "--tree")) {
      o->j.tree = 1;
    } else if (!strcmp(a, "--no-comments")) {
      o->j.write_flags |= ARB_PGN_WRITE_NO_COMMENTS;
    } else if (!strcmp(a, "--no-variations")) {
      o->j.write_flags |= ARB_PGN_WRITE_NO_VARIATIONS;
    } else if (!strcmp(a, "--no-nags")) {
      o->j.write_flags |= ARB_PGN_WRITE_NO_NAGS;
    } else if (!strcmp(a, "--rules")) {
      NEED_VAL;
      if (arb_rules_parse(val, &o->j.rules) != ARB_OK) {
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
      for (int k = 1; k <= ARB_PGN_FORMAT_JSONL; k++)
        if (!strcmp(val, names[k])) f = k;
      if (!f || o->mode == MODE_CHECK) {
        fprintf(stderr, "arbiter pgn: --to wants pgn, uci, lan, fen or jsonl (convert, filter)\n");
        return 2;
      }
      o->j.format = (arb_pgn_format)f;
    } else if (!strcmp(a, "--white") || !strcmp(a, "--black") || !strcmp(a, "--player") ||
               !strcmp(a, "--result") || !strcmp(a, "--date-from") || !strcmp(a, "--date-to")) {
      NEED_VAL;
      o->j.filtering = 1;
      if (!strcmp(a, "--white"))
        o->j.white = val;
      else if (!strcmp(a, "--black"))
        o->j.black = val;
      else if (!strcmp(a, "--player"))
        o->j.player = val;
      else if (!strcmp(a, "--date-from"))
        o->j.date_from = val;
      else if (!strcmp(a, "--date-to"))
        o->j.date_to = val;
      else {
        arb_result r;
        if (arb_pgn_result_parse(val, strlen(val), &r) != 0) {
          fprintf(stderr, "arbiter pgn: --result wants 1-0, 0-1, 1/2-1/2 or *\n");
          return 2;
        }
        o->j.result = val;
      }
    } else if (!strcmp(a, "--min-elo") || !strcmp(a, "--max-elo")) {
      NEED_VAL;
      char *end;
      long k = strtol(val, &end, 10);
      if (*end || k <= 0) {
        fprintf(stderr, "arbiter pgn: %s wants a positive number\n", a);
        return 2;
      }
      o->j.filtering = 1;
      if (a[3] == 'i')
        o->j.min_elo = k;
      else
        o->j.max_elo = k;
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
      o->j.eco_from = from;
      o->j.eco_to = to;
      o->j.filtering = 1;
    } else if (!strcmp(a, "--tag")) {
      NEED_VAL;
      const char *eq = strchr(val, '=');
      if (!eq || eq == val || (size_t)(eq - val) >= sizeof o->tag_names[0] || o->j.ntags == 16) {
        fprintf(stderr, "arbiter pgn: --tag wants NAME=VALUE (at most 16)\n");
        return 2;
      }
      int n = o->j.ntags++;
      memcpy(o->tag_names[n], val, (size_t)(eq - val));
      o->tag_names[n][eq - val] = '\0';
      o->tags[n].name = o->tag_names[n];
      o->tags[n].value = eq + 1;
      o->j.tags = o->tags;
      o->j.filtering = 1;
    } else if (!strcmp(a, "--setup") || !strcmp(a, "--no-setup")) {
      o->j.setup = a[2] == 's' ? 1 : -1;
      o->j.filtering = 1;
    } else if (!strcmp(a, "--position")) {
      NEED_VAL;
      arb_fen_report rep;
      if (arb_fen_read(&o->target, val, ARB_FEN_PROBLEMS_ALL, &rep) != ARB_OK) {
        fprintf(stderr, "arbiter pgn: --position: %s\n", rep.message);
        return 2;
      }
      o->j.position = &o->target;
      o->j.filtering = 1;
    } else if (!strcmp(a, "--key")) {
      NEED_VAL;
      char *end;
      errno = 0;
      unsigned long long k = strtoull(val, &end, 16);
      if (*end || errno || !*val) {
        fprintf(stderr, "arbiter pgn: --key wants a hexadecimal Polyglot key\n");
        return 2;
      }
      o->j.key = k;
      o->j.has_key = 1;
      o->j.filtering = 1;
    } else if (!strcmp(a, "--dedupe")) {
      o->j.dedupe = 1;
      o->j.filtering = 1;
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
#if defined(__GLIBC__)
  /* A win on time asks the winnability search, which allocates its tables and frees them once
   * per game: glibc would give the memory back to the kernel every time and fault it in again
   * (1,300 of the 2,300 page faults, and about 5% of the time, of checking the 35 MB lichess
   * file).  Keep it for the next game: the peak stays what it was. */
  mallopt(M_TRIM_THRESHOLD, 32 << 20);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
  pgn_opts o;
  memset(&o, 0, sizeof o);
  o.jobs = 1;
  const char *sub = argv[2];
  if (!strcmp(sub, "check")) {
    o.mode = MODE_CHECK;
    o.j.format = ARB_PGN_FORMAT_NONE;
  } else if (!strcmp(sub, "convert") || !strcmp(sub, "filter")) {
    o.mode = MODE_CONVERT;
    o.j.format = ARB_PGN_FORMAT_PGN;
  } else {
    fprintf(stderr, "arbiter pgn: unknown subcommand '%s' (check, convert, filter)\n", sub);
    return 2;
  }
  int first;
  int rc = parse_opts(argc - 1, argv + 1, &o, &first);
  if (rc >= 0) return rc;
  first += 1;
  if (!strcmp(sub, "filter") && !o.j.filtering) {
    fprintf(stderr, "arbiter pgn filter: give at least one filter (see --help)\n");
    return 2;
  }

  totals t;
  memset(&t, 0, sizeof t);
  t.prog.on = isatty(2);
  t.prog.stdout_tty = isatty(1);
  t.prog.t0 = arb_tool_now();
  t.out = arb_pgn_output_new(o.j.dedupe, write_out, &t);
  pool *p = t.out ? calloc(1, sizeof *p) : NULL;
  if (!p) {
    arb_pgn_output_free(t.out);
    fprintf(stderr, "arbiter pgn: out of memory\n");
    return 2;
  }
  p->o = &o;
  p->t = &t;
  p->nslots = o.jobs + 1; /* one piece being read while each worker has one */
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
      progress_clear(&t.prog);
      fprintf(stderr, "arbiter pgn: %s: %s\n", name, strerror(errno));
      bad_input = 1;
      continue;
    }
    t.prog.size = file_size(in);
    t.prog.bytes = 0;
    /* plain, .pgn.zst or .pgn.gz: told by the first bytes, decompressed as it is read */
    pgn_source *src = pgn_source_open(in);
    if (!src || read_input(p, shown, src) != 0) {
      const char *why = src ? pgn_source_error(src) : NULL;
      if (p->nthreads) drain(p, 1);
      progress_clear(&t.prog);
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
  progress_clear(&t.prog);
  double secs = arb_tool_now() - t0;
  fflush(stdout);
  arb_pgn_stats s;
  uint64_t duplicates;
  arb_pgn_output_totals(t.out, &s, NULL, &duplicates);
  FILE *sum = o.mode == MODE_CHECK ? stdout : stderr;
  if (!o.quiet && (o.mode == MODE_CHECK || s.errors)) {
    char line[512];
    arb_pgn_summary_write(&s, secs, o.j.json, line, sizeof line);
    fputs(line, sum);
  }
  if (o.mode == MODE_CONVERT && o.j.dedupe && !o.quiet && duplicates)
    fprintf(stderr, "%llu duplicate games dropped\n", (unsigned long long)duplicates);
  arb_pgn_output_free(t.out);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->work);
  pthread_cond_destroy(&p->done);
  free(p);
  if (t.oom) {
    fprintf(stderr, "arbiter pgn: out of memory\n");
    return 2;
  }
  if (bad_input) return 2;
  return s.errors ? 1 : 0;
}
