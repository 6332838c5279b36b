/* Arbiter — MIT licence, see LICENSE.
 *
 * rating.c: Glicko-2 as Glickman's "Example of the Glicko-2 system" (2013) gives it, step by
 * step, lichess's bounds, and lichess's rating of a puzzle attempt (train.h).
 */
#include <math.h>
#include <string.h>

#include "arbiter/train.h"

#define SCALE 173.7178
#define PI 3.14159265358979323846

arb_glicko arb_glicko_new(void) {
  arb_glicko g = {ARB_GLICKO_RATING, ARB_GLICKO_RD, ARB_GLICKO_VOLATILITY};
  return g;
}

static double gfun(double phi) { return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI)); }

static double efun(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + exp(-gfun(phi_j) * (mu - mu_j)));
}

double arb_glicko_expected(const arb_glicko *a, const arb_glicko *b) {
  return efun((a->rating - 1500.0) / SCALE, (b->rating - 1500.0) / SCALE, b->rd / SCALE);
}

/* Step 5: the new volatility, by the Illinois algorithm on f (Glickman's 5.1 - 5.5). */
static double new_volatility(double sigma, double phi, double v, double delta, double tau) {
  const double a = log(sigma * sigma), eps = 0.000001;
  const double d2 = delta * delta, p2 = phi * phi;
#define F(x)                                                                                       \
  (exp(x) * (d2 - p2 - v - exp(x)) / (2.0 * (p2 + v + exp(x)) * (p2 + v + exp(x))) -               \
   ((x)-a) / (tau * tau))
  double A = a, B;
  if (d2 > p2 + v) {
    B = log(d2 - p2 - v);
  } else {
    int k = 1;
    while (F(a - k * tau) < 0 && k < 1000)
      k++;
    B = a - k * tau;
  }
  double fA = F(A), fB = F(B);
  for (int i = 0; fabs(B - A) > eps && i < 1000; i++) {
    double C = A + (A - B) * fA / (fB - fA), fC = F(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2.0;
    }
    B = C;
    fB = fC;
  }
#undef F
  return exp(A / 2.0);
}

arb_status arb_glicko_update(arb_glicko *player, const arb_glicko *opponents, const double *scores,
                             int n, double tau) {
  if (!player || n < 0 || (n > 0 && (!opponents || !scores))) return ARB_ERR_ARGUMENT;
  for (int j = 0; j < n; j++)
    if (!(scores[j] >= 0.0 && scores[j] <= 1.0)) return ARB_ERR_ARGUMENT;
  /* step 2: the Glicko-2 scale */
  double mu = (player->rating - 1500.0) / SCALE, phi = player->rd / SCALE;
  if (n == 0) { /* step 6 alone: the RD grows by the volatility */
    player->rd = sqrt(phi * phi + player->volatility * player->volatility) * SCALE;
    return ARB_OK;
  }
  /* steps 3 and 4: the estimated variance v and the improvement delta */
  double vinv = 0.0, sum = 0.0;
  for (int j = 0; j < n; j++) {
    double mu_j = (opponents[j].rating - 1500.0) / SCALE, phi_j = opponents[j].rd / SCALE;
    double g = gfun(phi_j), e = efun(mu, mu_j, phi_j);
    vinv += g * g * e * (1.0 - e);
    sum += g * (scores[j] - e);
  }
  double v = 1.0 / vinv, delta = v * sum;
  /* steps 5 - 8 */
  double sigma = new_volatility(player->volatility, phi, v, delta, tau);
  double phi_star = sqrt(phi * phi + sigma * sigma);
  double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  double mu_new = mu + phi_new * phi_new * sum;
  player->rating = SCALE * mu_new + 1500.0;
  player->rd = SCALE * phi_new;
  player->volatility = sigma;
  return ARB_OK;
}

void arb_glicko_clamp(arb_glicko *g, const arb_glicko *before) {
  if (g->rd < ARB_GLICKO_RD_MIN) g->rd = ARB_GLICKO_RD_MIN;
  if (g->rd > ARB_GLICKO_RD_MAX) g->rd = ARB_GLICKO_RD_MAX;
  if (g->volatility > ARB_GLICKO_VOLATILITY_MAX) g->volatility = ARB_GLICKO_VOLATILITY_MAX;
  if (before) {
    if (g->rating > before->rating + 700.0) g->rating = before->rating + 700.0;
    if (g->rating < before->rating - 700.0) g->rating = before->rating - 700.0;
  }
  if (g->rating < 400.0) g->rating = 400.0;
  if (g->rating > 4000.0) g->rating = 4000.0;
}

int arb_puzzle_theme_kind(const char *theme) {
  if (!theme || !*theme || !strcmp(theme, "mix")) return 0;
  static const char *const obvious[] = {"enPassant", "attackingF2F7", "doubleCheck", "mateIn1",
                                        "castling"};
  for (size_t i = 0; i < sizeof obvious / sizeof obvious[0]; i++)
    if (!strcmp(theme, obvious[i])) return 1;
  size_t n = strlen(theme);
  if (n > 4 && !strcmp(theme + n - 4, "Mate")) return 1;
  static const char *const plain[] = {"opening", "middlegame",     "endgame",
                                      "master",  "masterVsMaster", "superGM"};
  for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
    if (!strcmp(theme, plain[i])) return 3;
  if (n > 7 && !strcmp(theme + n - 7, "Endgame")) return 3;
  return 2;
}

/* old + w (new - old), each part (lichess's Glicko.average) */
static arb_glicko mix(const arb_glicko *old, const arb_glicko *now, double w) {
  arb_glicko g = {old->rating + w * (now->rating - old->rating), old->rd + w * (now->rd - old->rd),
                  old->volatility + w * (now->volatility - old->volatility)};
  return g;
}

void arb_puzzle_rate(arb_glicko *learner, arb_glicko *puzzle, int solved, int theme_kind) {
  static const double weight[4][2] = {{1.0, 1.0}, {0.4, 0.1}, {0.7, 0.2}, {0.8, 0.7}};
  int k = theme_kind < 0 || theme_kind > 3 ? 0 : theme_kind;
  double w = weight[k][solved ? 1 : 0];
  arb_glicko l0 = *learner, p0 = *puzzle, l = l0, p = p0;
  double s = solved ? 1.0 : 0.0, ps = 1.0 - s;
  arb_glicko_update(&l, &p0, &s, 1, ARB_GLICKO_TAU);
  arb_glicko_update(&p, &l0, &ps, 1, ARB_GLICKO_TAU);
  double wl = w;
  if (p0.rd >= ARB_GLICKO_PROVISIONAL_RD)
    wl = wl - (solved ? 0.2 : 0.7) < 0.1 ? 0.1 : wl - (solved ? 0.2 : 0.7);
  *learner = mix(&l0, &l, wl);
  *puzzle = mix(&p0, &p, w);
  arb_glicko_clamp(learner, &l0);
  arb_glicko_clamp(puzzle, &p0);
}
