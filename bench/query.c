/* Arbiter — MIT licence, see LICENSE.
 *
 * query.c: `arbiter query` on requests that carry a whole game (the answer includes the history
 * fields: repetitions, claims, 50/75-move rule, result) against the same final positions given
 * as a bare FEN, in one run.  Prints both times and their ratio.
 *
 * usage: bench/query [ARBITER] [--games N] [--plies P]   (default: the arbiter built alongside,
 *        10000 games of up to 300 plies)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arbiter/arbiter.h"

#ifndef ARB_CLI_PATH
#define ARB_CLI_PATH "arbiter"
#endif

static uint64_t next_rand(uint64_t *s) {
  uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs `arbiter query < in > /dev/null` and returns the wall time (best of `runs`). */
static double run_query(const char *arbiter, const char *in, int runs) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' query < '%s' > /dev/null", arbiter, in);
  double best = 1e30;
  for (int i = 0; i < runs; i++) {
    double t0 = now();
    if (system(cmd) != 0) {
      fprintf(stderr, "bench/query: '%s' failed\n", cmd);
      exit(1);
    }
    double t = now() - t0;
    if (t < best) best = t;
  }
  return best;
}

int main(int argc, char **argv) {
  const char *arbiter = ARB_CLI_PATH;
  long games = 10000, plies = 300;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--games") && i + 1 < argc)
      games = strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--plies") && i + 1 < argc)
      plies = strtol(argv[++i], NULL, 10);
    else if (argv[i][0] != '-')
      arbiter = argv[i];
    else {
      fprintf(stderr, "usage: %s [ARBITER] [--games N] [--plies P]\n", argv[0]);
      return 2;
    }
  }
  char hist_path[] = "/tmp/arb-bench-history-XXXXXX", fen_path[] = "/tmp/arb-bench-fen-XXXXXX";
  char bare_path[] = "/tmp/arb-bench-bare-XXXXXX";
  int fd1 = mkstemp(hist_path), fd2 = mkstemp(fen_path), fd3 = mkstemp(bare_path);
  FILE *hist = fd1 >= 0 ? fdopen(fd1, "w") : NULL, *fens = fd2 >= 0 ? fdopen(fd2, "w") : NULL;
  FILE *bare = fd3 >= 0 ? fdopen(fd3, "w") : NULL;
  if (!hist || !fens || !bare) {
    perror("bench/query: temporary files");
    return 1;
  }
  uint64_t seed = 2026;
  long total_plies = 0;
  for (long g = 0; g < games; g++) {
    arb_game *game = arb_game_new(NULL, ARB_RULES_FIDE);
    if (!game) return 1;
    fprintf(hist, "{\"fen\":\"%s\",\"moves\":[", ARB_FEN_START);
    fprintf(bare, "{\"history\":false,\"fen\":\"%s\",\"moves\":[", ARB_FEN_START);
    for (long k = 0; k < plies && arb_game_outcome(game).result == ARB_RESULT_NONE; k++) {
      const arb_position *p = arb_game_position(game);
      arb_move moves[ARB_MAX_MOVES];
      int n = arb_generate_legal(p, moves);
      arb_move m = moves[next_rand(&seed) % (uint64_t)n];
      char uci[8];
      arb_uci_write(p, m, uci, sizeof uci);
      fprintf(hist, "%s\"%s\"", k ? "," : "", uci);
      fprintf(bare, "%s\"%s\"", k ? "," : "", uci);
      arb_game_play(game, m);
      total_plies++;
    }
    char fen[ARB_FEN_MAX];
    arb_fen_write(arb_game_position(game), fen, sizeof fen, 0);
    fprintf(hist, "]}\n");
    fprintf(bare, "]}\n");
    fprintf(fens, "{\"fen\":\"%s\"}\n", fen);
    arb_game_free(game);
  }
  fclose(hist);
  fclose(fens);
  fclose(bare);
  double t_hist = run_query(arbiter, hist_path, 3);
  double t_bare = run_query(arbiter, bare_path, 3);
  double t_fen = run_query(arbiter, fen_path, 3);
  printf("arbiter query, %ld requests, %.1f plies per game on average (best of 3)\n", games,
         (double)total_plies / (double)games);
  printf("  whole games (history fields): %8.3f s  %8.1f us/request  %6.2f us/ply\n", t_hist,
         t_hist / (double)games * 1e6, t_hist / (double)total_plies * 1e6);
  printf("  same moves, \"history\": false: %8.3f s  %8.1f us/request\n", t_bare,
         t_bare / (double)games * 1e6);
  printf("  final FEN only:               %8.3f s  %8.1f us/request\n", t_fen,
         t_fen / (double)games * 1e6);
  printf("ratio, history fields / same requests without them: %.2f\n", t_hist / t_bare);
  printf("ratio, history fields / final FEN only:             %.2f\n", t_hist / t_fen);
  remove(bare_path);
  remove(hist_path);
  remove(fen_path);
  return 0;
}
