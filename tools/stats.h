/* Arbiter — MIT licence, see LICENSE.
 *
 * stats.h: match statistics for `arbiter match` — Elo with its 95% interval, normalized Elo,
 * LOS, and the SPRT log-likelihood ratio, from trinomial (W/D/L) or pentanomial (game-pair)
 * counts, with the formulas of fastchess (../shared/docs/ENGINES.md section 5), so that the
 * printed digits agree with it.  Pure functions over plain values; no allocation.
 */
#ifndef ARB_TOOLS_STATS_H
#define ARB_TOOLS_STATS_H

#include <stdint.h>

/* Pentanomial cells, in fastchess's order: a pair scores 0, 1/4, 1/2 (a win and a loss), 1/2
 * (two draws), 3/4, 1. */
enum { STATS_LL, STATS_LD, STATS_WL, STATS_DD, STATS_WD, STATS_WW, STATS_PENTA };

typedef struct stats_elo {
  double elo, elo_error; /* logistic Elo and half the 95% interval */
  double nelo, nelo_error;
  double los;     /* likelihood of superiority, 0..1 */
  double score;   /* mean score */
  int degenerate; /* no wins or no losses: elo is a one-sided 95% bound (elo_error 0) */
} stats_elo;

/* Trinomial (every game on its own).  0 when n = 0. */
int stats_elo_wdl(uint64_t wins, uint64_t draws, uint64_t losses, stats_elo *out);
/* Pentanomial (game pairs).  0 when there is no pair. */
int stats_elo_penta(const uint64_t cells[STATS_PENTA], stats_elo *out);

/* The same figures as fastchess computes them, unguarded: a degenerate count gives its nan and
 * inf (for `-output format=fastchess`, whose lines must be fastchess's byte for byte). */
void stats_elo_wdl_raw(uint64_t wins, uint64_t draws, uint64_t losses, stats_elo *out);
void stats_elo_penta_raw(const uint64_t cells[STATS_PENTA], stats_elo *out);

/* cutechess's figures (ENGINES.md 5.3): Elo and half its 95% interval with cutechess's
 * approximate quantile, and its LOS = 1/2 + 1/2 erf((W - L) / sqrt(2 (W + L))) (draws ignored),
 * 0..1.  0 when there is no game. */
int stats_cutechess_elo(uint64_t wins, uint64_t draws, uint64_t losses, double *elo, double *error,
                        double *los);
/* cutechess's SPRT LLR: BayesElo with the sample's draw Elo, 0.5 added to every count, the
 * bounds elo0 and elo1 taken as logistic Elo (scaled to BayesElo). */
double stats_cutechess_llr(uint64_t wins, uint64_t draws, uint64_t losses, double elo0,
                           double elo1);

typedef enum stats_model {
  STATS_NORMALIZED = 0, /* fastchess's default, fishtest's LLR_normalized */
  STATS_LOGISTIC,
  STATS_BAYESIAN /* BayesElo with the sample's draw Elo (trinomial only) */
} stats_model;

/* The SPRT bounds for alpha and beta: lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) /
 * alpha). */
void stats_sprt_bounds(double alpha, double beta, double *lower, double *upper);

/* The LLR of H1 (elo1) against H0 (elo0).  Each empty cell counts as 1e-3 (fastchess).
 * Bayesian: trinomial only (returns 0 for pentanomial counts, and when there is no win or no
 * loss). */
double stats_llr_wdl(uint64_t wins, uint64_t draws, uint64_t losses, double elo0, double elo1,
                     stats_model model);
double stats_llr_penta(const uint64_t cells[STATS_PENTA], double elo0, double elo1,
                       stats_model model);

/* "normalized", "logistic", "bayesian"; parse: 0 on success, -1 for another name. */
const char *stats_model_name(stats_model m);
int stats_model_parse(const char *name, stats_model *out);

#endif
