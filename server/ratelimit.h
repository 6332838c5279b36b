/* Arbiter — MIT licence, see LICENSE.
 *
 * ratelimit.h: token buckets — one per connection (messages), per seat (draw offers) and, in
 * a table keyed by the client's address, per address (games made).  Pure: time is an argument.
 *
 * Ownership: buckets are caller values; a table is the caller's (srv_rate_table_init/_free),
 * its memory bounded by `max_keys` (when full, the fullest buckets — those nobody has used
 * lately — are forgotten first, which only ever errs towards allowing).
 */
#ifndef ARB_SERVER_RATELIMIT_H
#define ARB_SERVER_RATELIMIT_H

#include <stddef.h>
#include <stdint.h>

typedef struct srv_bucket {
  double tokens;
  int64_t refill_ms;
} srv_bucket;

/* A full bucket at now_ms. */
void srv_bucket_init(srv_bucket *b, double burst, int64_t now_ms);
/* Refills at rate tokens a second up to burst, then takes one: 1, or 0 when there is none. */
int srv_bucket_take(srv_bucket *b, int64_t now_ms, double rate, double burst);

typedef struct srv_rate_entry {
  char key[64]; /* "" free */
  srv_bucket b;
} srv_rate_entry;

typedef struct srv_rate_table {
  srv_rate_entry *e;
  size_t cap, used, max_keys;
  double rate, burst;
} srv_rate_table;

/* rate per second, burst at once; at most max_keys addresses remembered. */
void srv_rate_table_init(srv_rate_table *t, double rate, double burst, size_t max_keys);
void srv_rate_table_free(srv_rate_table *t);
/* One token for key: 1 allowed, 0 over the limit.  Without memory it allows. */
int srv_rate_take(srv_rate_table *t, const char *key, int64_t now_ms);

#endif
