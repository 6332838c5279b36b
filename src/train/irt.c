/* Arbiter — MIT licence, see LICENSE.
 *
 * irt.c: the diagnostic's measurement (train.h) — the two-parameter logistic model, its
 * information, and the expected-a-posteriori ability with its standard error by quadrature.
 */
#include <math.h>

#include "arbiter/train.h"

#define LN10 2.30258509299404568402

static double p_right(const arb_irt_item *it, double theta) {
  return 1.0 / (1.0 + exp(-it->a * (theta - it->b)));
}

double arb_irt_information(const arb_irt_item *item, double theta) {
  double p = p_right(item, theta);
  return item->a * item->a * p * (1.0 - p);
}

double arb_irt_rating(double theta) { return 1500.0 + theta * 400.0 / LN10; }

double arb_irt_difficulty(double rating) { return (rating - 1500.0) / 400.0 * LN10; }

void arb_irt_estimate(const arb_irt_item *items, const int *right, int n, double prior_mean,
                      double prior_sd, double *theta, double *se) {
  enum { POINTS = 81 };
  double sum_w = 0, sum_t = 0, sum_t2 = 0;
  double lo = prior_mean - 5.0 * prior_sd, step = 10.0 * prior_sd / (POINTS - 1);
  /* work in logs: many answers make tiny likelihoods */
  double logw[POINTS], maxlog = -INFINITY;
  for (int k = 0; k < POINTS; k++) {
    double t = lo + k * step, z = (t - prior_mean) / prior_sd, l = -0.5 * z * z;
    for (int i = 0; i < n; i++) {
      double p = p_right(&items[i], t);
      l += right[i] ? log(p) : log(1.0 - p);
    }
    logw[k] = l;
    if (l > maxlog) maxlog = l;
  }
  for (int k = 0; k < POINTS; k++) {
    double t = lo + k * step, w = exp(logw[k] - maxlog);
    sum_w += w;
    sum_t += w * t;
    sum_t2 += w * t * t;
  }
  double mean = sum_t / sum_w;
  *theta = mean;
  double var = sum_t2 / sum_w - mean * mean;
  *se = var > 0 ? sqrt(var) : 0;
}
