/* Arbiter — MIT licence, see LICENSE.
 *
 * review.c: the Leitner schedule of missed items (train.h): a miss goes to box 1, each right
 * answer a box up, five in a row retire the item.
 */
#include "arbiter/train.h"

/* the wait before an item in box b comes back, in days */
static const int wait_days[ARB_REVIEW_BOXES + 1] = {0, 1, 3, 7, 14, 30};

void arb_review_answer(arb_review *r, int right, int64_t now_ms) {
  r->seen_ms = now_ms;
  if (!right) {
    r->box = 1;
    r->streak = 0;
    r->due_ms = now_ms + wait_days[1] * ARB_REVIEW_DAY_MS;
    return;
  }
  if (r->box == 0 || r->box > ARB_REVIEW_BOXES) return; /* never missed, or mastered */
  if (++r->streak >= ARB_REVIEW_BOXES) {
    r->box = ARB_REVIEW_BOXES + 1;
    r->due_ms = 0;
    return;
  }
  if (r->box < ARB_REVIEW_BOXES) r->box++;
  r->due_ms = now_ms + wait_days[r->box] * ARB_REVIEW_DAY_MS;
}

int arb_review_due(const arb_review *r, int64_t now_ms) {
  return r->box >= 1 && r->box <= ARB_REVIEW_BOXES && now_ms >= r->due_ms;
}
