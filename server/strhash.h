/* Arbiter — MIT licence, see LICENSE.
 *
 * strhash.h: FNV-1a over a NUL-terminated string — the one hash of the server's tables of
 * games, addresses and ids (none of them chosen by a client alone: ids and tokens are the
 * server's, addresses the kernel's).
 */
#ifndef ARB_SERVER_STRHASH_H
#define ARB_SERVER_STRHASH_H

#include <stdint.h>

static inline uint64_t srv_strhash(const char *s) {
  uint64_t h = 1469598103934665603u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

#endif
