/* Arbiter — MIT licence, see LICENSE.
 *
 * dead.c: speed of arb_winnability_of — "can the side with time still mate?" — on the final
 * positions of real games that ended on time, plus constructed locked positions.  Prints
 * positions/s, the median, 99th percentile and worst time, the median and 99th percentile of
 * nodes searched (deterministic, unlike the times), how many answers were winnable,
 * unwinnable and unknown at the default budget, and how much of the time and of the nodes went
 * to the positions that needed 1,000 nodes or more.
 *
 * usage: bench/dead [-n RUNS] [FILE...]
 *        bench/dead --list [FILE...]
 *        bench/dead --labels [-v] [--budget NODES] [FILE]
 *   FILE  a PGN file (name ending in .pgn): the final position of every game with
 *         [Termination "Time forfeit"]; or a file of FEN lines.  The side NOT to move is asked
 *         about, as after a flag fall of the side to move.
 *         Default: ../shared/data/pgn/real/lichess-jishanshaikh4-standard-14k.pgn (6,539 games
 *         lost on time) when it is there, else the 300-game copy in tests/data/pgn/real, and
 *         ten constructed locked positions (measured apart).
 *   -n    runs over the whole set (default 3); each position keeps its best time.  Other
 *         positions run in between, so no position is timed with warm caches from itself.
 *   --list  one line per position instead of the figures: nodes, verdict, proof, the FEN and
 *         the side asked about (0 white, 1 black) — to compare two builds' verdicts and nodes.
 *   --labels  labelled positions instead (default ../shared/data/dead/community-positions.txt,
 *         "skipped" when absent; format in its README: "WB", "W-", "-B" or "--", a space, a
 *         FEN): both sides of each at NODES (default: the library's), counting unknown sides and
 *         wrong verdicts — an "unwinnable" where the label says the side can mate, or a
 *         "winnable" (a replayed helpmate line) where it says it cannot.  Each wrong verdict is
 *         printed with its FEN; with -v every unknown side too.  The figures for issue 19.
 * From the project root: cmake --build build/release --target bench_dead &&
 * build/release/bench/dead
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "forfeit.h"
#include "peer.h"

/* Absolute paths from CMake (bench/CMakeLists.txt); these are for a build by hand. */
#ifndef SHARED_PGN
#define SHARED_PGN "../shared/data/pgn/real/lichess-jishanshaikh4-standard-14k.pgn"
#endif
#ifndef SHARED_LABELS
#define SHARED_LABELS "../shared/data/dead/community-positions.txt"
#endif
#ifndef LOCAL_PGN
#define LOCAL_PGN "tests/data/pgn/real/lichess-jishanshaikh4-standard-first300.pgn"
#endif

typedef struct set {
  arb_position *pos;
  size_t n, cap;
} set;

static void add(set *s, const arb_position *p) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 1024;
    s->pos = realloc(s->pos, s->cap * sizeof *s->pos);
    if (!s->pos) exit(1);
  }
  s->pos[s->n++] = *p;
}

/* PGN: the final position of each game lost (or drawn) on time. */
static void add_final(void *ctx, const arb_position *p) { add(ctx, p); }

static int read_pgn(const char *path, set *s) { return forfeit_positions(path, add_final, s); }

static int read_fens(const char *path, set *s) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    arb_position p;
    if (arb_fen_read(&p, line, ARB_FEN_PROBLEMS_ALL, NULL) == ARB_OK) add(s, &p);
  }
  fclose(f);
  return 1;
}

static int read_file(const char *path, set *s) {
  size_t len = strlen(path);
  return len > 4 && !strcmp(path + len - 4, ".pgn") ? read_pgn(path, s) : read_fens(path, s);
}

#define LONG_SEARCH 1000 /* nodes: a search that the first row did not settle, most often */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void measure(const char *name, const set *s, int runs) {
  if (!s->n) {
    printf("%-28s no positions\n", name);
    return;
  }
  double *us = malloc(s->n * sizeof *us), *nodes = malloc(s->n * sizeof *nodes);
  if (!us || !nodes) exit(1);
  long verdicts[3] = {0, 0, 0};
  for (int r = 0; r < runs; r++) {
    for (size_t i = 0; i < s->n; i++) {
      const arb_position *p = &s->pos[i];
      arb_winnability w;
      double t0 = bench_now();
      arb_winnability_of(p, (arb_color)(p->turn ^ 1), 0, &w);
      double t = (bench_now() - t0) * 1e6;
      if (r == 0 || t < us[i]) us[i] = t;
      if (r == 0) {
        nodes[i] = (double)w.nodes;
        verdicts[w.verdict]++;
      }
    }
  }
  /* The long searches apart: on the positions lost on time, half the nodes are in the 80
   * positions that need 1,000 or more (docs/testing.md). */
  double total = 0, long_us = 0, long_nodes = 0, all_nodes = 0;
  size_t long_n = 0;
  for (size_t i = 0; i < s->n; i++) {
    total += us[i];
    all_nodes += nodes[i];
    if (nodes[i] >= LONG_SEARCH) {
      long_n++;
      long_us += us[i];
      long_nodes += nodes[i];
    }
  }
  qsort(us, s->n, sizeof *us, cmp_double);
  qsort(nodes, s->n, sizeof *nodes, cmp_double);
  size_t mid = s->n / 2, p99 = (s->n * 99) / 100;
  printf("%-28s %6zu positions  %9.0f pos/s  median %8.1f us  p99 %9.1f us  worst %10.1f us  "
         "nodes median %.0f p99 %.0f  winnable %ld  unwinnable %ld  unknown %ld\n",
         name, s->n, (double)s->n / (total / 1e6), us[mid], us[p99], us[s->n - 1], nodes[mid],
         nodes[p99], verdicts[ARB_WIN_WINNABLE], verdicts[ARB_WIN_UNWINNABLE],
         verdicts[ARB_WIN_UNKNOWN]);
  printf("%-28s %6zu positions of %d nodes or more: %.1f of %.1f ms, %.0f of %.0f nodes\n", "",
         long_n, LONG_SEARCH, long_us / 1e3, total / 1e3, long_nodes, all_nodes);
  free(us);
  free(nodes);
}

/* --list: each position's answer for the side not to move, one line each. */
static void list_verdicts(const set *s) {
  for (size_t i = 0; i < s->n; i++) {
    const arb_position *p = &s->pos[i];
    arb_winnability w;
    arb_winnability_of(p, (arb_color)(p->turn ^ 1), 0, &w);
    char fen[128];
    arb_fen_write(p, fen, sizeof fen, 0);
    printf("%llu %s %s %s|%d\n", (unsigned long long)w.nodes, arb_win_verdict_name(w.verdict),
           arb_win_proof_name(w.proof), fen, p->turn ^ 1);
  }
}

/* --labels: unknown sides and wrong verdicts against the labels of `path`. */
static int labelled(const char *path, uint64_t budget, int verbose) {
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("bench/dead --labels: %s not found, skipped\n", path);
    return 0;
  }
  char line[512];
  long positions = 0, sides = 0, wrong = 0, refused = 0, counts[2][3] = {{0}};
  uint64_t nodes = 0;
  double t0 = bench_now();
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || strlen(line) < 4 || line[2] != ' ') continue;
    arb_position p;
    if (arb_fen_read(&p, line + 3, ARB_FEN_PROBLEMS_ALL, NULL) != ARB_OK) {
      refused++;
      continue;
    }
    positions++;
    for (int side = 0; side < 2; side++) {
      const int can = line[side] != '-'; /* "W" or "B": the label says a helpmate exists */
      arb_winnability w;
      arb_winnability_of(&p, (arb_color)side, budget, &w);
      sides++;
      nodes += w.nodes;
      counts[can][w.verdict]++;
      if (verbose && w.verdict == ARB_WIN_UNKNOWN)
        printf("unknown for %s: %.*s\n", side ? "black" : "white", (int)strcspn(line, "\n"), line);
      if ((can && w.verdict == ARB_WIN_UNWINNABLE) || (!can && w.verdict == ARB_WIN_WINNABLE)) {
        wrong++;
        printf("wrong: %s %s (proof %s) for %s: %.*s\n", arb_win_verdict_name(w.verdict),
               can ? "against a label that can mate" : "against a label that cannot",
               arb_win_proof_name(w.proof), side ? "black" : "white", (int)strcspn(line, "\n"),
               line);
      }
    }
  }
  fclose(f);
  double s = bench_now() - t0;
  printf("labelled positions %s, budget %llu nodes: %ld positions (%ld refused), %ld sides in "
         "%.1f s (%.0f nodes)\n",
         path, (unsigned long long)(budget ? budget : ARB_WIN_DEFAULT_BUDGET), positions, refused,
         sides, s, (double)nodes);
  printf("  label can mate:    winnable %ld  unwinnable %ld  unknown %ld\n",
         counts[1][ARB_WIN_WINNABLE], counts[1][ARB_WIN_UNWINNABLE], counts[1][ARB_WIN_UNKNOWN]);
  printf("  label cannot mate: winnable %ld  unwinnable %ld  unknown %ld\n",
         counts[0][ARB_WIN_WINNABLE], counts[0][ARB_WIN_UNWINNABLE], counts[0][ARB_WIN_UNKNOWN]);
  printf("  unknown sides %ld of %ld (%.1f%%), wrong verdicts %ld\n",
         counts[0][ARB_WIN_UNKNOWN] + counts[1][ARB_WIN_UNKNOWN], sides,
         100.0 * (double)(counts[0][ARB_WIN_UNKNOWN] + counts[1][ARB_WIN_UNKNOWN]) /
             (double)(sides ? sides : 1),
         wrong);
  return wrong ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--labels")) {
    uint64_t budget = 0;
    int i = 2, verbose = 0;
    for (; i < argc && argv[i][0] == '-'; i++)
      if (!strcmp(argv[i], "-v"))
        verbose = 1;
      else if (!strcmp(argv[i], "--budget") && i + 1 < argc)
        budget = strtoull(argv[++i], NULL, 10);
    return labelled(i < argc ? argv[i] : SHARED_LABELS, budget, verbose);
  }
  int runs = 3, first = 1, list = 0;
  if (argc > 1 && !strcmp(argv[1], "--list")) {
    list = 1;
    first = 2;
  } else if (argc > 2 && !strcmp(argv[1], "-n")) {
    if (bench_parse_runs(argv[2], 20, &runs) != 0) {
      fprintf(stderr, "usage: bench/dead [-n RUNS (1..20)] [FILE...]\n");
      return 64;
    }
    first = 3;
  }
  set files = {0}, locked = {0};
  const char *label = "time-forfeit final positions";
  for (int i = first; i < argc; i++)
    if (!read_file(argv[i], &files)) {
      perror(argv[i]);
      return 2;
    }
  if (first == argc) {
    const int shared = read_pgn(SHARED_PGN, &files);
    const char *path = shared ? SHARED_PGN : LOCAL_PGN;
    if (!shared && !read_pgn(LOCAL_PGN, &files)) {
      perror(LOCAL_PGN);
      return 2;
    }
    if (!list) printf("bench/dead: games lost on time in %s, best of %d runs\n", path, runs);
  } else {
    label = "positions from files";
  }
  static const char *const walls[] = {
      "k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1",
      "k7/2b5/8/p1p1p1p1/P1P1P1P1/8/4B3/K7 w - - 0 1",
      "8/8/3k4/1p1p1p1p/1P1P1P1P/3K4/8/8 b - - 0 1",
      "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/2B1K3 b - - 0 1",
      "k7/8/8/p1p1p1p1/P1P1P1P1/8/8/KQ6 b - - 0 1",
  };
  /* The constructed positions only beside the default set: a file's figures are its own. */
  for (size_t i = 0; first == argc && i < sizeof walls / sizeof walls[0]; i++) {
    arb_position p, m;
    arb_fen_read(&p, walls[i], ARB_FEN_PROBLEMS_ALL, NULL);
    arb_position_mirror(&p, &m);
    add(&locked, &p);
    add(&locked, &m);
  }
  if (list) {
    list_verdicts(&files);
    list_verdicts(&locked);
  } else {
    measure(label, &files, runs);
    if (locked.n) measure("constructed locked positions", &locked, runs);
  }
  free(files.pos);
  free(locked.pos);
  return 0;
}
