/* Arbiter — MIT licence, see LICENSE.
 *
 * stats_cmd.c: `arbiter stats` — match statistics from counts, every tool's figures side by
 * side for cross-checking (tools/stats.h): Arbiter's (one-sided bounds when a count is
 * degenerate), fastchess's (its arithmetic as it prints it, nan included) from game counts and
 * from game pairs, and cutechess's (its approximate quantile, its LOS, its BayesElo SPRT).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

static void stats_usage(FILE *out) {
  fprintf(out,
          "usage: arbiter stats [--wdl W D L] [--ptnml LL LD WL+DD WD WW]\n"
          "                     [--sprt ELO0 ELO1 [ALPHA BETA]]\n"
          "\n"
          "Elo with half its 95%% interval, nElo, LOS and the SPRT's LLR from game counts (wins,\n"
          "draws, losses) and/or game-pair counts (fastchess's Ptnml(0-2) order), as Arbiter,\n"
          "fastchess and cutechess compute them, side by side.  ALPHA and BETA default to "
          "0.05.\n");
}

static int parse_counts(char **argv, int i, int argc, int n, uint64_t *out) {
  if (i + n >= argc) return -1;
  for (int k = 0; k < n; k++) {
    char *end;
    const char *a = argv[i + 1 + k];
    unsigned long long v = strtoull(a, &end, 10);
    if (!*a || *end || a[0] == '-') return -1;
    out[k] = v;
  }
  return 0;
}

static void row(const char *who, const stats_elo *e, int guarded) {
  if (guarded && e->degenerate)
    printf("  %-24s Elo %s %.2f (one-sided 95%%)\n", who, e->score >= 0.5 ? ">" : "<", e->elo);
  else
    printf("  %-24s Elo %.2f +/- %.2f, nElo %.2f +/- %.2f, LOS %.2f %%\n", who, e->elo,
           e->elo_error, e->nelo, e->nelo_error, e->los * 100);
}

int arb_cmd_stats(int argc, char **argv) {
  uint64_t wdl[3] = {0}, five[5] = {0};
  int have_wdl = 0, have_penta = 0, sprt = 0;
  double elo0 = 0, elo1 = 0, alpha = 0.05, beta = 0.05;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      stats_usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--wdl")) {
      if (parse_counts(argv, i, argc, 3, wdl))
        return fprintf(stderr, "arbiter stats: --wdl needs three counts W D L\n"), 2;
      have_wdl = 1;
      i += 3;
    } else if (!strcmp(argv[i], "--ptnml")) {
      if (parse_counts(argv, i, argc, 5, five))
        return fprintf(stderr, "arbiter stats: --ptnml needs five counts\n"), 2;
      have_penta = 1;
      i += 5;
    } else if (!strcmp(argv[i], "--sprt") && i + 2 < argc) {
      sprt = 1;
      elo0 = atof(argv[++i]);
      elo1 = atof(argv[++i]);
      if (i + 2 < argc && argv[i + 1][0] != '-') {
        alpha = atof(argv[++i]);
        beta = atof(argv[++i]);
      }
      if (!(alpha > 0 && alpha < 1 && beta > 0 && beta < 1))
        return fprintf(stderr, "arbiter stats: --sprt: ALPHA and BETA between 0 and 1\n"), 2;
    } else {
      fprintf(stderr, "arbiter stats: unexpected argument '%s'\n", argv[i]);
      stats_usage(stderr);
      return 2;
    }
  }
  if (!have_wdl && !have_penta) {
    stats_usage(stderr);
    return 2;
  }
  /* the half-point pairs as one cell (fastchess's five) */
  uint64_t penta[STATS_PENTA] = {five[0], five[1], five[2], 0, five[3], five[4]};
  stats_elo e;
  if (have_wdl) {
    printf("Games: W %llu, D %llu, L %llu\n", (unsigned long long)wdl[0],
           (unsigned long long)wdl[1], (unsigned long long)wdl[2]);
    if (stats_elo_wdl(wdl[0], wdl[1], wdl[2], &e)) {
      row("arbiter (trinomial)", &e, 1);
      stats_elo_wdl_raw(wdl[0], wdl[1], wdl[2], &e);
      row("fastchess (trinomial)", &e, 0);
      double elo, err, los;
      stats_cutechess_elo(wdl[0], wdl[1], wdl[2], &elo, &err, &los);
      printf("  %-24s Elo %.1f +/- %.1f, LOS %.1f %% (draws ignored)\n", "cutechess", elo, err,
             los * 100);
    }
  }
  if (have_penta) {
    printf("Pairs: [%llu, %llu, %llu, %llu, %llu]\n", (unsigned long long)five[0],
           (unsigned long long)five[1], (unsigned long long)five[2], (unsigned long long)five[3],
           (unsigned long long)five[4]);
    if (stats_elo_penta(penta, &e)) {
      row("arbiter (pentanomial)", &e, 1);
      stats_elo_penta_raw(penta, &e);
      row("fastchess (pentanomial)", &e, 0);
    }
  }
  if (sprt) {
    double lo, hi;
    stats_sprt_bounds(alpha, beta, &lo, &hi);
    printf("SPRT [%.2f, %.2f], alpha %.3g, beta %.3g: bounds (%.2f, %.2f)\n", elo0, elo1, alpha,
           beta, lo, hi);
    for (int m = 0; m < 3; m++) {
      if (have_wdl)
        printf("  LLR %-11s trinomial   %.3f\n", stats_model_name((stats_model)m),
               stats_llr_wdl(wdl[0], wdl[1], wdl[2], elo0, elo1, (stats_model)m));
      if (have_penta && m != STATS_BAYESIAN)
        printf("  LLR %-11s pentanomial %.3f\n", stats_model_name((stats_model)m),
               stats_llr_penta(penta, elo0, elo1, (stats_model)m));
    }
    if (have_wdl)
      printf("  LLR cutechess   trinomial   %.3f (BayesElo, +0.5 per count)\n",
             stats_cutechess_llr(wdl[0], wdl[1], wdl[2], elo0, elo1));
  }
  return 0;
}
