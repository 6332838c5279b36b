/* Arbiter — MIT licence, see LICENSE.
 *
 * token.c: random seat tokens and game ids, their hashes and comparison.
 */
#define _GNU_SOURCE
#include "token.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

int srv_random(void *buf, size_t n) {
  uint8_t *p = buf;
  while (n) {
    ssize_t got = getrandom(p, n, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += got;
    n -= (size_t)got;
  }
  return 0;
}

static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

void srv_base64url(const uint8_t *in, size_t n, char *out) {
  size_t o = 0;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
                 (i + 2 < n ? in[i + 2] : 0);
    size_t chars = n - i >= 3 ? 4 : n - i + 1;
    for (size_t k = 0; k < chars; k++)
      out[o++] = b64url[(v >> (18 - 6 * k)) & 63];
  }
  out[o] = 0;
}

int srv_new_token(char out[SRV_TOKEN_LEN + 1]) {
  uint8_t raw[16];
  if (srv_random(raw, sizeof raw)) return -1;
  srv_base64url(raw, sizeof raw, out);
  return 0;
}

int srv_new_game_id(char out[SRV_GAME_ID_LEN + 1]) {
  uint8_t raw[6];
  if (srv_random(raw, sizeof raw)) return -1;
  srv_base64url(raw, sizeof raw, out);
  return 0;
}

void srv_token_hash(const char *token, size_t len, uint8_t out[SRV_SHA256_BYTES]) {
  srv_sha256(token, len, out);
}

int srv_hash_equal(const uint8_t a[SRV_SHA256_BYTES], const uint8_t b[SRV_SHA256_BYTES]) {
  volatile uint8_t diff = 0;
  for (int i = 0; i < SRV_SHA256_BYTES; i++)
    diff |= (uint8_t)(a[i] ^ b[i]);
  return diff == 0;
}

int srv_game_id_valid(const char *s, size_t len) {
  if (len != SRV_GAME_ID_LEN) return 0;
  for (size_t i = 0; i < len; i++)
    if (!memchr(b64url, s[i], sizeof b64url - 1) || !s[i]) return 0;
  return 1;
}
