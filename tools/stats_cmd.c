/* Arbiter — MIT licence, see LICENSE.
 *
 * stats_cmd.c: `arbiter stats` — match statistics from counts, every tool's figures side by
 * side for cross-checking (tools/stats.h): Arbiter's (one-sided bounds when a count is
 * degenerate), fastchess's (its arithmetic as it prints it, nan included) from game counts and
 * from game pairs, and cutechess's (its approximate quantile, its LOS, its BayesElo SPRT).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "stats.h"
#include "util.h"

/* --pgn: each game's players, result and opening (the FEN tag, or Opening, else the standard
 * start), in file order. */
typedef struct pgn_game {
  char white[64], black[64], opening[128];
  arb_result result;
} pgn_game;

typedef struct pgn_games {
  pgn_game *g;
  size_t n, cap;
  pgn_game cur;
} pgn_games;

static int pg_begin(void *ctx, uint64_t game, uint64_t line) {
  pgn_games *pg = ctx;
  (void)game;
  (void)line;
  memset(&pg->cur, 0, sizeof pg->cur);
  return 0;
}

static int pg_tag(void *ctx, const char *name, size_t nl, const char *value, size_t vl) {
  pgn_games *pg = ctx;
  (void)nl;
  (void)vl;
  if (!strcmp(name, "White")) snprintf(pg->cur.white, sizeof pg->cur.white, "%s", value);
  if (!strcmp(name, "Black")) snprintf(pg->cur.black, sizeof pg->cur.black, "%s", value);
  if (!strcmp(name, "FEN") || (!strcmp(name, "Opening") && !pg->cur.opening[0]))
    snprintf(pg->cur.opening, sizeof pg->cur.opening, "%s", value);
  return 0;
}

static void pg_end(void *ctx, const arb_pgn_game_end *end) {
  pgn_games *pg = ctx;
  pg->cur.result = end->has_tag_result ? end->tag_result : end->movetext_result;
  if (pg->cur.result == ARB_RESULT_NONE) return;
  if (pg->n == pg->cap) {
    size_t cap = pg->cap ? 2 * pg->cap : 256;
    pgn_game *g = realloc(pg->g, cap * sizeof *g);
    if (!g) return;
    pg->g = g, pg->cap = cap;
  }
  pg->g[pg->n++] = pg->cur;
}

/* The score of `engine` in game g: 1, 0.5, 0, or -1 when it did not play. */
static double score_of(const pgn_game *g, const char *engine) {
  int white = !strcmp(g->white, engine), black = !strcmp(g->black, engine);
  if (!white && !black) return -1;
  if (g->result == ARB_RESULT_DRAW) return 0.5;
  return (g->result == ARB_RESULT_WHITE_WINS) == white ? 1 : 0;
}

/* Counts from a PGN file: engine's wins, draws and losses, and its game pairs (two games in a
 * row with the same opening and the same opponent, colours swapped).  0, or -1 when the file
 * cannot be read. */
static int counts_from_pgn(const char *path, const char **engine, char *name, size_t nlen,
                           uint64_t wdl[3], uint64_t five[5], uint64_t *games) {
  FILE *f = !strcmp(path, "-") ? stdin : fopen(path, "rb");
  if (!f) return -1;
  pgn_games pg = {0};
  arb_pgn_options opts = {0, ARB_RULES_FIDE, 0, 0};
  opts.flags = ARB_PGN_NO_REPLAY | ARB_PGN_NO_RESULT_CHECK;
  arb_pgn_visitor v = {0};
  v.ctx = &pg;
  v.begin_game = pg_begin;
  v.tag = pg_tag;
  v.end_game = pg_end;
  arb_tool_pgn_read(f, &opts, &v);
  if (f != stdin) fclose(f);
  if (!*engine && pg.n) {
    snprintf(name, nlen, "%s", pg.g[0].white);
    *engine = name;
  }
  *games = pg.n;
  for (size_t i = 0; i < pg.n; i++) {
    double a = *engine ? score_of(&pg.g[i], *engine) : -1;
    if (a < 0) continue;
    wdl[a == 1 ? 0 : a == 0.5 ? 1 : 2]++;
    if (i + 1 < pg.n) {
      const pgn_game *x = &pg.g[i], *y = &pg.g[i + 1];
      double b = score_of(y, *engine);
      if (b >= 0 && !strcmp(x->white, y->black) && !strcmp(x->black, y->white) &&
          !strcmp(x->opening, y->opening)) {
        double sum = a + b;
        five[sum == 0 ? 0 : sum == 0.5 ? 1 : sum == 1 ? 2 : sum == 1.5 ? 3 : 4]++;
        wdl[b == 1 ? 0 : b == 0.5 ? 1 : 2]++;
        i++;
      }
    }
  }
  free(pg.g);
  return 0;
}

static void stats_usage(FILE *out) {
  fprintf(out,
          "usage: arbiter stats [--wdl W D L] [--ptnml LL LD WL+DD WD WW]\n"
          "                     [--pgn FILE [--engine NAME]] [--sprt ELO0 ELO1 [ALPHA BETA]]\n"
          "\n"
          "Elo with half its 95%% interval, nElo, LOS and the SPRT's LLR from game counts (wins,\n"
          "draws, losses) and/or game-pair counts (fastchess's Ptnml(0-2) order), as Arbiter,\n"
          "fastchess and cutechess compute them, side by side.  ALPHA and BETA default to "
          "0.05.\n"
          "--pgn: the counts of NAME (default: White of the first game) from a PGN file; two\n"
          "games in a row with the same opening and colours swapped are a pair.\n");
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
  else if (guarded && isinf(e->elo_error))
    printf("  %-24s Elo %.2f (95%%: %.2f to %.2f), nElo %.2f +/- %.2f, LOS %.2f %%\n", who, e->elo,
           e->elo_lo, e->elo_hi, e->nelo, e->nelo_error, e->los * 100);
  else
    printf("  %-24s Elo %.2f +/- %.2f, nElo %.2f +/- %.2f, LOS %.2f %%\n", who, e->elo,
           e->elo_error, e->nelo, e->nelo_error, e->los * 100);
}

int arb_cmd_stats(int argc, char **argv) {
  uint64_t wdl[3] = {0}, five[5] = {0};
  int have_wdl = 0, have_penta = 0, sprt = 0;
  const char *pgn = NULL, *engine = NULL;
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
    } else if (!strcmp(argv[i], "--pgn") && i + 1 < argc) {
      pgn = argv[++i];
    } else if (!strcmp(argv[i], "--engine") && i + 1 < argc) {
      engine = argv[++i];
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
  if (pgn) {
    char name[64];
    uint64_t games = 0;
    memset(wdl, 0, sizeof wdl);
    memset(five, 0, sizeof five);
    if (counts_from_pgn(pgn, &engine, name, sizeof name, wdl, five, &games))
      return fprintf(stderr, "arbiter stats: %s: cannot open\n", pgn), 2;
    printf("%s: %llu games; %s\n", pgn, (unsigned long long)games, engine ? engine : "no games");
    have_wdl = wdl[0] + wdl[1] + wdl[2] > 0;
    have_penta = five[0] + five[1] + five[2] + five[3] + five[4] > 0;
    if (!have_wdl) return 1;
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
