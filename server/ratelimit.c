/* Arbiter — MIT licence, see LICENSE.
 *
 * ratelimit.c: token buckets and the table of them by address (ratelimit.h).
 */
#include "ratelimit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strhash.h"

void srv_bucket_init(srv_bucket *b, double burst, int64_t now_ms) {
  b->tokens = burst;
  b->refill_ms = now_ms;
}

int srv_bucket_take(srv_bucket *b, int64_t now_ms, double rate, double burst) {
  if (now_ms > b->refill_ms) {
    b->tokens += (double)(now_ms - b->refill_ms) / 1000.0 * rate;
    if (b->tokens > burst) b->tokens = burst;
    b->refill_ms = now_ms;
  }
  if (b->tokens < 1.0) return 0;
  b->tokens -= 1.0;
  return 1;
}

void srv_rate_table_init(srv_rate_table *t, double rate, double burst, size_t max_keys) {
  memset(t, 0, sizeof *t);
  t->rate = rate;
  t->burst = burst;
  t->max_keys = max_keys ? max_keys : 1;
}

void srv_rate_table_free(srv_rate_table *t) {
  free(t->e);
  memset(t, 0, sizeof *t);
}

static size_t hash(const char *s) { return (size_t)srv_strhash(s); }

/* A new table of cap slots holding the live entries of the old one; with prune, only those
 * whose bucket is not full at now (the others would allow as a fresh one does). */
static int rebuild(srv_rate_table *t, size_t cap, int prune, int64_t now) {
  srv_rate_entry *n = calloc(cap, sizeof *n);
  if (!n) return -1;
  size_t used = 0;
  for (size_t i = 0; i < t->cap; i++) {
    srv_rate_entry *o = &t->e[i];
    if (!o->key[0]) continue;
    if (prune) {
      srv_bucket b = o->b;
      srv_bucket_take(&b, now, t->rate, t->burst);
      if (b.tokens + 1.0 >= t->burst) continue;
    }
    size_t k = hash(o->key) & (cap - 1);
    while (n[k].key[0])
      k = (k + 1) & (cap - 1);
    n[k] = *o;
    used++;
  }
  free(t->e);
  t->e = n;
  t->cap = cap;
  t->used = used;
  return 0;
}

int srv_rate_take(srv_rate_table *t, const char *key, int64_t now_ms) {
  if (!t->cap && rebuild(t, 64, 0, now_ms)) return 1;
  if ((t->used + 1) * 2 > t->cap) {
    if (t->used + 1 > t->max_keys) rebuild(t, t->cap, 1, now_ms);
    if ((t->used + 1) * 2 > t->cap && t->used + 1 <= t->max_keys &&
        rebuild(t, t->cap * 2, 0, now_ms))
      return 1;
    if ((t->used + 1) * 2 > t->cap) return 1; /* still full of busy addresses: allowed */
  }
  size_t k = hash(key) & (t->cap - 1);
  while (t->e[k].key[0] && strcmp(t->e[k].key, key))
    k = (k + 1) & (t->cap - 1);
  srv_rate_entry *e = &t->e[k];
  if (!e->key[0]) {
    snprintf(e->key, sizeof e->key, "%s", key);
    srv_bucket_init(&e->b, t->burst, now_ms);
    t->used++;
  }
  return srv_bucket_take(&e->b, now_ms, t->rate, t->burst);
}
