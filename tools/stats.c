/* Arbiter — MIT licence, see LICENSE.
 *
 * stats.c: Elo, nElo, LOS and SPRT (stats.h), the formulas of ../shared/docs/ENGINES.md 5.2 and
 * 5.4, written from their mathematical description: the normalized GSPRT of van den Bergh
 * ("normalized Elo practical", 4.1) and the multinomial MLE for the logistic and BayesElo
 * models.
 */
#include "stats.h"

#include <math.h>
#include <string.h>

#define Z95 1.959963984540054
#define LN10 2.302585092994045684
#define SQRT2 1.414213562373095049
#define NELO_K (800.0 / LN10)

static double elo_of(double x) { return -400.0 * log10(1.0 / x - 1.0); }

/* Elo from a score distribution: scores a[i] with counts c[i]; pairs: nElo is per pair. */
static int elo_from(const double *a, const double *c, int n, int pairs, stats_elo *out) {
  memset(out, 0, sizeof *out);
  double total = 0, s = 0, var = 0;
  for (int i = 0; i < n; i++)
    total += c[i];
  if (total <= 0) return 0;
  for (int i = 0; i < n; i++)
    s += a[i] * c[i] / total;
  for (int i = 0; i < n; i++)
    var += c[i] / total * (a[i] - s) * (a[i] - s);
  double se = sqrt(var / total);
  out->score = s;
  if (s <= 0 || s >= 1 || var <= 0) {
    /* all losses, all wins (or every game the same): no interval; a one-sided 95% bound from
     * the rule of three (3/n of the games could have gone the other way) */
    out->degenerate = 1;
    double eps = 3.0 / total;
    if (eps > 0.5) eps = 0.5;
    out->elo = (s >= 1 ? elo_of(1 - eps) : s <= 0 ? elo_of(eps) : 0) + 0.0; /* never -0 */
    out->los = s >= 1 ? 1 : s <= 0 ? 0 : 0.5;
    return 1;
  }
  out->elo = elo_of(s);
  double hi = s + Z95 * se, lo = s - Z95 * se;
  if (hi >= 1) hi = 1 - 1e-12;
  if (lo <= 0) lo = 1e-12;
  out->elo_error = (elo_of(hi) - elo_of(lo)) / 2;
  double sigma = pairs ? sqrt(2 * var) : sqrt(var);
  out->nelo = (s - 0.5) / sigma * NELO_K;
  out->nelo_error = Z95 * se / sigma * NELO_K;
  out->los = 0.5 * (1 - erf(-(s - 0.5) / (SQRT2 * se)));
  return 1;
}

/* fastchess's own arithmetic, unguarded (elo_wdl.cpp, elo_pentanomial.cpp): no clamp, no
 * one-sided bound, so degenerate counts give its nan and inf. */
static void elo_raw(const double *a, const double *c, int n, int pairs, stats_elo *out) {
  memset(out, 0, sizeof *out);
  double total = 0, s = 0, var = 0;
  for (int i = 0; i < n; i++)
    total += c[i];
  for (int i = 0; i < n; i++)
    s += a[i] * (c[i] / total);
  for (int i = 0; i < n; i++)
    var += c[i] / total * pow(a[i] - s, 2);
  double per = var / total;
  double hi = s + Z95 * sqrt(per), lo = s - Z95 * sqrt(per);
  double sigma = sqrt(pairs ? 2 * var : var);
  out->score = s;
  out->elo = elo_of(s);
  out->elo_error = (elo_of(hi) - elo_of(lo)) / 2.0;
  out->nelo = (s - 0.5) / sigma * NELO_K;
  out->nelo_error = ((hi - 0.5) / sigma * NELO_K - (lo - 0.5) / sigma * NELO_K) / 2.0;
  out->los = (1 - erf(-(s - 0.5) / sqrt(2.0 * per))) / 2.0;
}

static const double tri_scores[3] = {0, 0.5, 1};
static const double penta_scores[STATS_PENTA] = {0, 0.25, 0.5, 0.5, 0.75, 1};

int stats_elo_wdl(uint64_t wins, uint64_t draws, uint64_t losses, stats_elo *out) {
  double c[3] = {(double)losses, (double)draws, (double)wins};
  return elo_from(tri_scores, c, 3, 0, out);
}

int stats_elo_penta(const uint64_t cells[STATS_PENTA], stats_elo *out) {
  double c[STATS_PENTA];
  for (int i = 0; i < STATS_PENTA; i++)
    c[i] = (double)cells[i];
  return elo_from(penta_scores, c, STATS_PENTA, 1, out);
}

void stats_elo_wdl_raw(uint64_t wins, uint64_t draws, uint64_t losses, stats_elo *out) {
  double c[3] = {(double)losses, (double)draws, (double)wins};
  elo_raw(tri_scores, c, 3, 0, out);
}

void stats_elo_penta_raw(const uint64_t cells[STATS_PENTA], stats_elo *out) {
  double c[STATS_PENTA];
  for (int i = 0; i < STATS_PENTA; i++)
    c[i] = (double)cells[i];
  elo_raw(penta_scores, c, STATS_PENTA, 1, out);
}

/* cutechess's quantile: its approximate inverse error function (Winitzki, a = 8(pi - 3) /
 * (3 pi (4 - pi))) at 0.975, which gives 1.95716 rather than 1.95996. */
static double cute_quantile(double p) {
  const double pi = 3.14159265358979323846, a = 8 * (pi - 3) / (3 * pi * (4 - pi));
  double x = 2 * p - 1, y = log(1 - x * x), z = 2 / (pi * a) + y / 2;
  double inv_erf = (x < 0 ? -1 : 1) * sqrt(sqrt(z * z - y / a) - z);
  return SQRT2 * inv_erf;
}

int stats_cutechess_elo(uint64_t wins, uint64_t draws, uint64_t losses, double *elo, double *error,
                        double *los) {
  double n = (double)(wins + draws + losses);
  if (n <= 0) return 0;
  double w = (double)wins / n, d = (double)draws / n, l = (double)losses / n;
  double mu = w + d / 2;
  double var = w * pow(1 - mu, 2) + d * pow(0.5 - mu, 2) + l * pow(mu, 2);
  double sd = sqrt(var) / sqrt(n);
  *elo = elo_of(mu);
  *error = (elo_of(mu + cute_quantile(0.975) * sd) - elo_of(mu + cute_quantile(0.025) * sd)) / 2;
  *los = 0.5 + 0.5 * erf(((double)wins - (double)losses) / sqrt(2.0 * (double)(wins + losses)));
  return 1;
}

/* BayesElo win and loss probabilities. */
static void bayes_wl(double elo, double drawelo, double *pw, double *pl) {
  *pw = 1 / (1 + pow(10, (drawelo - elo) / 400));
  *pl = 1 / (1 + pow(10, (drawelo + elo) / 400));
}

double stats_cutechess_llr(uint64_t wins, uint64_t draws, uint64_t losses, double elo0,
                           double elo1) {
  double W = (double)wins + 0.5, D = (double)draws + 0.5, L = (double)losses + 0.5;
  double n = W + D + L, w = W / n, l = L / n;
  double d = 200 * log10((1 - l) / l * (1 - w) / w);
  double x = pow(10, -d / 400), scale = 4 * x / ((1 + x) * (1 + x));
  double w0, l0, w1, l1;
  bayes_wl(elo0 / scale, d, &w0, &l0);
  bayes_wl(elo1 / scale, d, &w1, &l1);
  return W * log(w1 / w0) + L * log(l1 / l0) + D * log((1 - w1 - l1) / (1 - w0 - l0));
}

void stats_sprt_bounds(double alpha, double beta, double *lower, double *upper) {
  *lower = log(beta / (1 - alpha));
  *upper = log((1 - beta) / alpha);
}

/* The root of f(theta) = sum p[i] x[i] / (1 + theta x[i]) on (-1/max x, -1/min x): f falls
 * from +inf to -inf there, so bisection always converges (no hang, fastchess #877). */
static double theta_root(const double *p, const double *x, int n) {
  double mx = x[0], mn = x[0];
  for (int i = 1; i < n; i++) {
    if (x[i] > mx) mx = x[i];
    if (x[i] < mn) mn = x[i];
  }
  if (mx <= 0 || mn >= 0) return 0; /* no sign change: already the MLE */
  double lo = -1 / mx, hi = -1 / mn;
  double w = hi - lo;
  lo += w * 1e-12, hi -= w * 1e-12;
  for (int it = 0; it < 200; it++) {
    double mid = (lo + hi) / 2, f = 0;
    for (int i = 0; i < n; i++)
      f += p[i] * x[i] / (1 + mid * x[i]);
    if (f > 0)
      lo = mid;
    else
      hi = mid;
    if (hi - lo < 1e-15) break;
  }
  return (lo + hi) / 2;
}

/* The MLE distribution on scores a with mean score s (logistic, BayesElo). */
static void mle_mean(const double *phat, const double *a, int n, double s, double *p) {
  double x[STATS_PENTA] = {0};
  for (int i = 0; i < n; i++)
    x[i] = a[i] - s;
  double th = theta_root(phat, x, n);
  for (int i = 0; i < n; i++)
    p[i] = phat[i] / (1 + th * x[i]);
}

/* The MLE distribution with (mu - 1/2) / sigma = t (normalized Elo). */
static void mle_t(const double *phat, const double *a, int n, double t, double *p) {
  for (int i = 0; i < n; i++)
    p[i] = 1.0 / n;
  for (int it = 0; it < 10; it++) {
    double mu = 0, var = 0;
    for (int i = 0; i < n; i++)
      mu += p[i] * a[i];
    for (int i = 0; i < n; i++)
      var += p[i] * (a[i] - mu) * (a[i] - mu);
    double sigma = sqrt(var), phi[STATS_PENTA] = {0};
    for (int i = 0; i < n; i++) {
      double z = (a[i] - mu) / sigma;
      phi[i] = a[i] - 0.5 - 0.5 * t * sigma * (1 + z * z);
    }
    double th = theta_root(phat, phi, n), change = 0;
    for (int i = 0; i < n; i++) {
      double q = phat[i] / (1 + th * phi[i]);
      if (fabs(q - p[i]) > change) change = fabs(q - p[i]);
      p[i] = q;
    }
    if (change < 1e-4) break;
  }
}

static double bayes_score(double elo, double drawelo) {
  double win = 1 / (1 + pow(10, (drawelo - elo) / 400));
  double loss = 1 / (1 + pow(10, (drawelo + elo) / 400));
  return win + 0.5 * (1 - win - loss);
}

static double llr(const double *counts, const double *a, int n, int pairs, double elo0, double elo1,
                  stats_model model) {
  double c[STATS_PENTA], total = 0, phat[STATS_PENTA];
  for (int i = 0; i < n; i++)
    total += c[i] = counts[i] > 0 ? counts[i] : 1e-3;
  for (int i = 0; i < n; i++)
    phat[i] = c[i] / total;
  double p0[STATS_PENTA] = {0}, p1[STATS_PENTA] = {0};
  if (model == STATS_NORMALIZED) {
    double f = pairs ? SQRT2 : 1;
    mle_t(phat, a, n, elo0 / NELO_K * f, p0);
    mle_t(phat, a, n, elo1 / NELO_K * f, p1);
  } else if (model == STATS_LOGISTIC) {
    mle_mean(phat, a, n, 1 / (1 + pow(10, -elo0 / 400)), p0);
    mle_mean(phat, a, n, 1 / (1 + pow(10, -elo1 / 400)), p1);
  } else {
    if (pairs || counts[0] <= 0 || counts[n - 1] <= 0) return 0;
    double l = phat[0], w = phat[n - 1];
    double drawelo = 200 * log10((1 - l) / l * (1 - w) / w);
    mle_mean(phat, a, n, bayes_score(elo0, drawelo), p0);
    mle_mean(phat, a, n, bayes_score(elo1, drawelo), p1);
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += phat[i] * log(p1[i] / p0[i]);
  return total * sum;
}

double stats_llr_wdl(uint64_t wins, uint64_t draws, uint64_t losses, double elo0, double elo1,
                     stats_model model) {
  double c[3] = {(double)losses, (double)draws, (double)wins};
  return llr(c, tri_scores, 3, 0, elo0, elo1, model);
}

double stats_llr_penta(const uint64_t cells[STATS_PENTA], double elo0, double elo1,
                       stats_model model) {
  /* the two half-point cells are one cell of the distribution */
  double c[5] = {(double)cells[STATS_LL], (double)cells[STATS_LD],
                 (double)(cells[STATS_WL] + cells[STATS_DD]), (double)cells[STATS_WD],
                 (double)cells[STATS_WW]};
  static const double a[5] = {0, 0.25, 0.5, 0.75, 1};
  return llr(c, a, 5, 1, elo0, elo1, model);
}

static const char *const model_names[] = {"normalized", "logistic", "bayesian"};

const char *stats_model_name(stats_model m) { return (unsigned)m < 3 ? model_names[m] : ""; }

int stats_model_parse(const char *name, stats_model *out) {
  for (int i = 0; i < 3; i++)
    if (name && !strcmp(name, model_names[i])) {
      *out = (stats_model)i;
      return 0;
    }
  return -1;
}
