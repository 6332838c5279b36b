/* Arbiter — MIT licence, see LICENSE.
 *
 * dead.c: speed of arb_winnability_of — "can the side with time still mate?" — on positions
 * read from files (one FEN per line; the side NOT to move is the one asked about, as after a
 * flag fall of the side to move), plus constructed locked positions.  Prints positions/s, the
 * median, 99th percentile and worst time, and how many answers were winnable, unwinnable and
 * unknown at the default budget.
 *
 * usage: bench/dead [FEN_FILE...]   e.g. the final positions of games lost on time:
 *   echo 'Termination "Time forfeit"' > tf; pgn-extract -s -ttf -F GAMES.pgn |
 *     grep -o '{ "[^"]*" }' | sed 's/{ "//; s/" }//' > timeouts.fen;  bench/dead timeouts.fen
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arbiter/arbiter.h"

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct run {
  double *us;
  size_t n, cap;
  long verdicts[3];
} run;

static void measure(run *r, const arb_position *p) {
  arb_winnability w;
  double t0 = now_us();
  arb_winnability_of(p, (arb_color)(p->turn ^ 1), 0, &w);
  double t = now_us() - t0;
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 1024;
    r->us = realloc(r->us, r->cap * sizeof *r->us);
    if (!r->us) exit(1);
  }
  r->us[r->n++] = t;
  r->verdicts[w.verdict]++;
}

static void report(const char *name, run *r) {
  if (!r->n) {
    printf("%-28s no positions\n", name);
    return;
  }
  double total = 0;
  for (size_t i = 0; i < r->n; i++)
    total += r->us[i];
  qsort(r->us, r->n, sizeof *r->us, cmp_double);
  printf("%-28s %6zu positions  %9.0f pos/s  median %8.1f us  p99 %9.1f us  worst %10.1f us  "
         "winnable %ld  unwinnable %ld  unknown %ld\n",
         name, r->n, (double)r->n / (total / 1e6), r->us[r->n / 2], r->us[(r->n * 99) / 100],
         r->us[r->n - 1], r->verdicts[ARB_WIN_WINNABLE], r->verdicts[ARB_WIN_UNWINNABLE],
         r->verdicts[ARB_WIN_UNKNOWN]);
}

int main(int argc, char **argv) {
  run files = {0}, locked = {0};
  char line[512];
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "r");
    if (!f) {
      perror(argv[i]);
      return 2;
    }
    while (fgets(line, sizeof line, f)) {
      arb_position p;
      if (arb_fen_read(&p, line, ARB_FEN_PROBLEMS_ALL, NULL) == ARB_OK) measure(&files, &p);
    }
    fclose(f);
  }
  static const char *const walls[] = {
      "k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1",
      "k7/2b5/8/p1p1p1p1/P1P1P1P1/8/4B3/K7 w - - 0 1",
      "8/8/3k4/1p1p1p1p/1P1P1P1P/3K4/8/8 b - - 0 1",
      "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/2B1K3 b - - 0 1",
      "k7/8/8/p1p1p1p1/P1P1P1P1/8/8/KQ6 b - - 0 1",
  };
  for (size_t i = 0; i < sizeof walls / sizeof walls[0]; i++) {
    arb_position p, m;
    arb_fen_read(&p, walls[i], ARB_FEN_PROBLEMS_ALL, NULL);
    arb_position_mirror(&p, &m);
    measure(&locked, &p);
    measure(&locked, &m);
  }
  report(argc > 1 ? "positions from files" : "(no FEN files given)", &files);
  report("constructed locked positions", &locked);
  free(files.us);
  free(locked.us);
  return 0;
}
