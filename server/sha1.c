/* Arbiter — MIT licence, see LICENSE.
 *
 * sha1.c: SHA-1 as FIPS 180-4 describes it (section 6.1), one message at a time.
 */
#include "sha1.h"

#include "sha256.h"

static uint32_t rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

/* One 64-byte block into the hash state (6.1.2). */
static void block(uint32_t *h, const uint8_t *p) {
  uint32_t w[80];
  for (int t = 0; t < 16; t++)
    w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 | (uint32_t)p[4 * t + 2] << 8 |
           p[4 * t + 3];
  for (int t = 16; t < 80; t++)
    w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
  for (int t = 0; t < 80; t++) {
    uint32_t f, k;
    if (t < 20)
      f = (b & c) | (~b & d), k = 0x5a827999;
    else if (t < 40)
      f = b ^ c ^ d, k = 0x6ed9eba1;
    else if (t < 60)
      f = (b & c) | (b & d) | (c & d), k = 0x8f1bbcdc;
    else
      f = b ^ c ^ d, k = 0xca62c1d6;
    uint32_t tmp = rotl(a, 5) + f + e + k + w[t];
    e = d;
    d = c;
    c = rotl(b, 30);
    b = a;
    a = tmp;
  }
  h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

void srv_sha1(const void *data, size_t len, uint8_t out[SRV_SHA1_BYTES]) {
  uint32_t h[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0}; /* 5.3.1 */
  srv_md_run(h, 5, block, data, len, out);
}
