/* Arbiter — MIT licence, see LICENSE.
 *
 * select.c: choosing the next item near the learner's level, as lichess's puzzle paths do
 * (train.h): a target from the rating and the difficulty, a window that widens when nothing
 * fits, reviews first.
 */
#include <math.h>

#include "arbiter/train.h"

double arb_select_target(double learner_rating, arb_difficulty d) {
  int k = d < ARB_DIFFICULTY_EASIEST ? -2 : d > ARB_DIFFICULTY_HARDEST ? 2 : (int)d;
  return learner_rating + 300.0 * k;
}

double arb_select_window(double target, int compromise) {
  int c = compromise < 1 ? 1 : compromise > 4 ? 4 : compromise;
  return (100.0 + fabs(1500.0 - target) / 4.0) * c;
}

uint64_t arb_select_rand(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static uint64_t mixbits(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdu;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53u;
  x ^= x >> 33;
  return x;
}

/* nearest to the target among those that pass; ties broken by the seeded order */
static int nearest(const arb_select_item *items, int n, double target, uint64_t seed, int due,
                   int compromise) {
  int best = -1;
  double best_d = 0;
  uint64_t best_t = 0;
  double w = arb_select_window(target, compromise);
  for (int i = 0; i < n; i++) {
    const arb_select_item *it = &items[i];
    if (due ? !it->due : (!it->theme_ok || (it->seen && compromise < 5) || it->due)) continue;
    double d = fabs(it->rating - target);
    if (!due && d > w && compromise < 5) continue;
    uint64_t t = seed ? mixbits(seed ^ (uint64_t)i) : (uint64_t)i;
    if (best < 0 || d < best_d || (d == best_d && t < best_t)) {
      best = i;
      best_d = d;
      best_t = t;
    }
  }
  return best;
}

int arb_select_next(const arb_select_item *items, int n, double target, uint64_t seed) {
  if (!items || n <= 0) return -1;
  int i = nearest(items, n, target, seed, 1, 1);
  if (i >= 0) return i;
  for (int c = 1; c <= 5; c++)
    if ((i = nearest(items, n, target, seed, 0, c)) >= 0) return i;
  return -1;
}
