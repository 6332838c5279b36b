/* Arbiter — MIT licence, see LICENSE.
 *
 * pgn.c: `arbiter pgn` against Debian's pgn-extract on the same PGN files in the same run.
 *
 * Modes compared (each tool's reports and output go to /dev/null):
 *   check only     arbiter pgn check -q -j 1 FILE
 *                    reads every game, replays every move and variation under the full rules,
 *                    checks results against the final position (mate, stalemate, dead
 *                    position, fivefold, 75 moves) and wins on time; writes only reports.
 *                  pgn-extract -s -r FILE
 *                    -r "report any errors but don't extract": parses every game and plays
 *                    every move (an illegal one is reported), writes no games.  It does not
 *                    check results against the position.
 *   check+rewrite  arbiter pgn convert --to pgn -q -j 1 FILE > /dev/null
 *                    the check above, then every game without problems in export format.
 *                  pgn-extract -s -o /dev/null FILE
 *                    plays every move and writes every game without errors, re-formatted
 *                    (SAN regenerated, lines re-wrapped), to /dev/null.
 *   ours, -j 2     the two arbiter commands again with -j 2 (two worker threads).
 *   side by side   two `arbiter pgn check -j 1` processes started together, each on the whole
 *                    file: what this machine's two cores do at once, the ceiling for -j 2.
 *                    Cores of a virtual machine need not be alike (here one is often a third
 *                    slower), so the ceiling is not twice the single thread: -j 2 shares the
 *                    pieces out as each worker is free, so at best it checks the file in
 *                    1 / (1/t_a + 1/t_b), t_a and t_b the two processes' own times.  The best
 *                    of the rounds is kept; ru_maxrss is not measured for them.
 *   ours, online   the check under --rules online, the rules the games were played under
 *                    (lichess): no dead-position search after each move (only the material
 *                    classes), and a win on time needs only mating material instead of a proof
 *                    that the winner could mate.  For information: where the time of the FIDE
 *                    check goes (its target ratio stays the default rules').
 * -s only silences pgn-extract's per-game messages; both tools read the file themselves.
 *
 * Every command runs RUNS times, the commands taking turns within each round (so a load from
 * elsewhere on the machine hits them alike), and the best wall-clock time of each is kept.
 * Peak memory is the largest ru_maxrss of the child process (wait4) over its runs; cpu is the
 * child's user+system time in its best run.  The game count comes from this library's reader
 * in token-only mode (ARB_PGN_NO_REPLAY), the same count for every tool.
 *
 * Ratios are speeds, ours / pgn-extract (pgn-extract's time / ours): above 1 means arbiter is
 * faster.  The ratios a speed target refers to are the single-thread ones (-j 1); the -j 2
 * figures are printed separately, for information only.
 *
 * usage: pgn [-n RUNS] [--arbiter PATH] [--pgn-extract PATH] [FILE...]
 *   -n RUNS   runs per command, best kept (1..20, default 3)
 *   FILE      PGN files, each measured on its own (default: the 35 MB Lichess export
 *             ../shared/data/pgn/real/lichess-jishanshaikh4-standard-14k.pgn, next to the repo)
 * pgn-extract is looked for in $PGN_EXTRACT, /usr/games/pgn-extract, /usr/bin/pgn-extract,
 * then PATH (Debian package pgn-extract).  From the project root:
 *   cmake --build build/release -j2 --target bench_pgn arbiter_cli && build/release/bench/pgn
 *
 * Exit status: 0 every command ran (whatever the ratios; also when pgn-extract is missing or
 * when the default file is absent), 1 a command failed (arbiter exit status other than 0 or 1,
 * or a signal), 2 a FILE cannot be read, 64 bad usage.
 */
#define _DEFAULT_SOURCE /* wait4 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arbiter/arbiter.h"
#include "peer.h"

#ifndef ARB_CLI_PATH
#define ARB_CLI_PATH "arbiter"
#endif
#ifndef ARB_BENCH_PGN_FILE
#define ARB_BENCH_PGN_FILE "../shared/data/pgn/real/lichess-jishanshaikh4-standard-14k.pgn"
#endif

#define BENCH_MAX_RUNS 20
#define BENCH_PATH 4096
#define BENCH_ARGS 16

static const char *const pgn_extract_names[] = {"/usr/games/pgn-extract", "/usr/bin/pgn-extract",
                                                "pgn-extract", NULL};

/* ---- counting games (this library, tokens only) ---- */

static int count_games(const char *path, uint64_t *games, uint64_t *bytes) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  arb_pgn_options opts;
  memset(&opts, 0, sizeof opts);
  opts.flags = ARB_PGN_NO_REPLAY;
  arb_pgn_visitor none;
  memset(&none, 0, sizeof none);
  arb_pgn_reader *r = arb_pgn_reader_new(&opts, &none);
  char *buf = malloc(1u << 20);
  int bad = !r || !buf;
  while (!bad) {
    size_t n = fread(buf, 1, 1u << 20, f);
    if (n && arb_pgn_reader_feed(r, buf, n) != ARB_OK) bad = 1;
    if (n < (1u << 20)) break;
  }
  bad |= ferror(f) != 0;
  if (!bad && arb_pgn_reader_finish(r) != ARB_OK) bad = 1;
  if (!bad) {
    arb_pgn_stats st;
    arb_pgn_reader_stats(r, &st);
    *games = st.games;
    *bytes = st.bytes;
  }
  arb_pgn_reader_free(r);
  free(buf);
  fclose(f);
  return bad ? -1 : 0;
}

/* ---- running a command ---- */

typedef struct command {
  const char *label;
  const char *argv[BENCH_ARGS];
  int ours;      /* arbiter: exit 0 or 1 is success; pgn-extract: any exit is, 0 expected */
  int available; /* 0: not run (pgn-extract missing) */
  double best;   /* best wall time (s) */
  double cpu;    /* user+system time of the best run (s) */
  long peak_kb;  /* largest ru_maxrss over the runs */
  int status;    /* exit status of the last run */
} command;

/* Runs argv with stdin from /dev/null and stdout, stderr to /dev/null.  Returns 0 and sets the
 * wall time, rusage and exit status; -1 when it could not be started or died of a signal. */
static int run_once(const char *const *argv, double *wall, struct rusage *ru, int *exit_status) {
  double t0 = bench_now();
  pid_t pid = bench_spawn_quiet(argv);
  if (pid < 0) return -1;
  int status = 0;
  pid_t got;
  do
    got = wait4(pid, &status, 0, ru);
  while (got < 0 && errno == EINTR);
  *wall = bench_now() - t0;
  if (got != pid || !WIFEXITED(status)) return -1;
  *exit_status = WEXITSTATUS(status);
  return 0;
}

static int run_command(command *c) {
  double wall;
  struct rusage ru;
  int st = 0;
  if (run_once(c->argv, &wall, &ru, &st) != 0 || st == 127 || (c->ours && st > 1)) {
    fprintf(stderr, "bench/pgn: %s failed (exit status %d):", c->label, st);
    for (int i = 0; c->argv[i]; i++)
      fprintf(stderr, " %s", c->argv[i]);
    fprintf(stderr, "\n");
    return -1;
  }
  if (!c->ours && st != 0 && c->status == 0)
    fprintf(stderr, "bench/pgn: note: %s exited with status %d\n", c->label, st);
  c->status = st;
  if (wall < c->best) {
    c->best = wall;
    c->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
             (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
  }
  if (ru.ru_maxrss > c->peak_kb) c->peak_kb = ru.ru_maxrss;
  return 0;
}

#define SIDE_BY_SIDE 2 /* processes started together for the -j 2 ceiling */

/* Starts SIDE_BY_SIDE copies of argv at once (stdin, stdout, stderr /dev/null) and waits for
 * them all: each one's own wall time into times[].  0, or -1 when one could not start, died of a
 * signal or exited with a status above 1. */
static int run_side_by_side(const char *const *argv, double times[SIDE_BY_SIDE]) {
  pid_t pids[SIDE_BY_SIDE];
  double t0 = bench_now();
  int started = 0, bad = 0;
  for (; started < SIDE_BY_SIDE; started++) {
    pid_t pid = bench_spawn_quiet(argv);
    if (pid < 0) {
      bad = 1;
      break;
    }
    pids[started] = pid;
  }
  for (int left = started; left > 0; left--) {
    int status = 0;
    pid_t got = wait(&status);
    if (got < 0 && errno == EINTR) {
      left++;
      continue;
    }
    if (got < 0) return -1;
    for (int k = 0; k < started; k++)
      if (pids[k] == got) times[k] = bench_now() - t0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) bad = 1;
  }
  return bad ? -1 : 0;
}

static void print_row(const command *c, double mb, uint64_t games) {
  if (!c->available) return;
  printf("  %-40s %8.3f %8.1f %10.0f %9ld %8.3f\n", c->label, c->best, mb / c->best,
         (double)games / c->best, c->peak_kb, c->cpu);
}

enum {
  OUR_CHECK,
  OUR_REWRITE,
  PX_CHECK,
  PX_REWRITE,
  OUR_CHECK_J2,
  OUR_REWRITE_J2,
  OUR_CHECK_ONLINE,
  NCOMMANDS
};

/* Measures one file.  0 ok, 1 a command failed, 2 the file cannot be read. */
static int bench_file(const char *arbiter, const char *px, const char *file, int runs) {
  uint64_t games = 0, bytes = 0;
  if (count_games(file, &games, &bytes) != 0) {
    fprintf(stderr, "bench/pgn: %s: cannot read: %s\n", file, strerror(errno));
    return 2;
  }
  double mb = (double)bytes / 1e6;
  /* Commands not given a best time yet; pgn-extract ones only when it was found. */
#define OURS(label_, ...) {.label = label_, .argv = {__VA_ARGS__, NULL}, .ours = 1, .available = 1}
#define PEER(label_, ...)                                                                          \
  { .label = label_, .argv = {__VA_ARGS__, NULL}, .available = px != NULL }
  command cmds[NCOMMANDS] = {
      OURS("arbiter pgn check -j 1", arbiter, "pgn", "check", "-q", "-j", "1", file),
      OURS("arbiter pgn convert --to pgn -j 1", arbiter, "pgn", "convert", "--to", "pgn", "-q",
           "-j", "1", file),
      PEER("pgn-extract -s -r (check only)", px, "-s", "-r", file),
      PEER("pgn-extract -s -o /dev/null (rewrite)", px, "-s", "-o", "/dev/null", file),
      OURS("arbiter pgn check -j 2", arbiter, "pgn", "check", "-q", "-j", "2", file),
      OURS("arbiter pgn convert --to pgn -j 2", arbiter, "pgn", "convert", "--to", "pgn", "-q",
           "-j", "2", file),
      OURS("arbiter pgn check --rules online -j 1", arbiter, "pgn", "check", "--rules", "online",
           "-q", "-j", "1", file),
  };
#undef OURS
#undef PEER
  for (int i = 0; i < NCOMMANDS; i++)
    cmds[i].best = 1e30;
  printf("%s: %.2f MB, %llu games; best of %d run%s (wall clock)\n", file, mb,
         (unsigned long long)games, runs, runs == 1 ? "" : "s");
  fflush(stdout);
  double pair[2] = {0, 0}, pair_ideal = 1e30; /* side by side: the best round's two times */
  for (int r = 0; r < runs; r++) {
    for (int i = 0; i < NCOMMANDS; i++)
      if (cmds[i].available && run_command(&cmds[i]) != 0) return 1;
    double t[SIDE_BY_SIDE];
    if (run_side_by_side(cmds[OUR_CHECK].argv, t) != 0) {
      fprintf(stderr, "bench/pgn: two arbiter pgn check -j 1 side by side failed\n");
      return 1;
    }
    double ideal = 1.0 / (1.0 / t[0] + 1.0 / t[1]);
    if (ideal < pair_ideal) {
      pair_ideal = ideal;
      pair[0] = t[0] < t[1] ? t[0] : t[1];
      pair[1] = t[0] < t[1] ? t[1] : t[0];
    }
  }

  printf("  %-40s %8s %8s %10s %9s %8s\n", "tool and mode", "s", "MB/s", "games/s", "peak KB",
         "cpu s");
  printf("  single thread:\n");
  for (int i = OUR_CHECK; i <= PX_REWRITE; i++)
    print_row(&cmds[i], mb, games);
  printf("  ours with two worker threads (not what the target ratio is about):\n");
  for (int i = OUR_CHECK_J2; i <= OUR_REWRITE_J2; i++)
    print_row(&cmds[i], mb, games);
  printf("  two `pgn check -j 1` side by side, each on the file: %.3f s and %.3f s, so at best\n"
         "  %.3f s for -j 2 on this machine (%.2fx the single thread); -j 2 check: %.2fx, %.0f%%\n"
         "  of that ceiling\n",
         pair[0], pair[1], pair_ideal, cmds[OUR_CHECK].best / pair_ideal,
         cmds[OUR_CHECK].best / cmds[OUR_CHECK_J2].best,
         100.0 * pair_ideal / cmds[OUR_CHECK_J2].best);
  printf("  ours under the server's own rules (lichess: no dead-position search after each move,\n"
         "  a win on time needs only mating material), for information:\n");
  print_row(&cmds[OUR_CHECK_ONLINE], mb, games);
  if (!px) {
    printf(
        "  pgn-extract not found (Debian package pgn-extract, or set $PGN_EXTRACT): no ratios\n");
    return 0;
  }
  printf("  ratio ours/pgn-extract, speed, single thread (the target ratio):  check %.2f  "
         "check+rewrite %.2f\n",
         cmds[PX_CHECK].best / cmds[OUR_CHECK].best,
         cmds[PX_REWRITE].best / cmds[OUR_REWRITE].best);
  printf("  ratio ours -j 2/pgn-extract (single thread), for information:     check %.2f  "
         "check+rewrite %.2f\n",
         cmds[PX_CHECK].best / cmds[OUR_CHECK_J2].best,
         cmds[PX_REWRITE].best / cmds[OUR_REWRITE_J2].best);
  printf("  peak memory ours/pgn-extract, single thread:                      check %.2f  "
         "check+rewrite %.2f\n",
         (double)cmds[OUR_CHECK].peak_kb / (double)cmds[PX_CHECK].peak_kb,
         (double)cmds[OUR_REWRITE].peak_kb / (double)cmds[PX_REWRITE].peak_kb);
  return 0;
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: pgn [-n RUNS] [--arbiter PATH] [--pgn-extract PATH] [FILE...]\n"
          "  -n RUNS   runs per command, best kept (1..%d, default 3)\n"
          "  FILE      PGN files, each measured on its own (default %s)\n",
          BENCH_MAX_RUNS, ARB_BENCH_PGN_FILE);
}

int main(int argc, char **argv) {
  const char *arbiter = ARB_CLI_PATH, *px_arg = NULL;
  int runs = 3, nfiles = 0;
  const char **files = calloc((size_t)argc + 1, sizeof *files);
  if (!files) return 1;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "-n") && a + 1 < argc) {
      if (bench_parse_runs(argv[++a], BENCH_MAX_RUNS, &runs) != 0) {
        usage(stderr);
        return 64;
      }
    } else if (!strcmp(argv[a], "--arbiter") && a + 1 < argc) {
      arbiter = argv[++a];
    } else if (!strcmp(argv[a], "--pgn-extract") && a + 1 < argc) {
      px_arg = argv[++a];
    } else if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
      usage(stdout);
      return 0;
    } else if (argv[a][0] == '-' && argv[a][1]) {
      usage(stderr);
      return 64;
    } else {
      files[nfiles++] = argv[a];
    }
  }
  if (!bench_is_executable(arbiter)) {
    fprintf(stderr, "bench/pgn: %s is not an executable (build arbiter_cli, or --arbiter)\n",
            arbiter);
    return 1;
  }
  if (!nfiles) {
    if (access(ARB_BENCH_PGN_FILE, R_OK) != 0) {
      printf("bench/pgn: the default file %s is missing; skipped (give PGN files as "
             "arguments)\n",
             ARB_BENCH_PGN_FILE);
      return 0;
    }
    files[nfiles++] = ARB_BENCH_PGN_FILE;
  }
  char px_path[BENCH_PATH];
  const char *px = NULL;
  if (px_arg
          ? bench_resolve(px_arg, px_path, sizeof px_path)
          : bench_find_peer("PGN_EXTRACT", pgn_extract_names, "bench/pgn", px_path, sizeof px_path))
    px = px_path;
  arb_init();
  printf("arbiter: %s\npgn-extract: %s\n", arbiter, px ? px : "not found");
  int worst = 0;
  for (int i = 0; i < nfiles; i++) {
    int rc = bench_file(arbiter, px, files[i], runs);
    if (rc > worst) worst = rc;
    if (rc == 1) break;
  }
  if (!px)
    printf("bench/pgn: pgn-extract is missing: only our own figures were measured (apt-get "
           "install pgn-extract)\n");
  free(files);
  return worst;
}
