/* Arbiter — MIT licence, see LICENSE.
 *
 * sha256.h: SHA-256 (FIPS 180-4), for hashing seat tokens before they are stored.  Written
 * from the standard; checked against its test vectors in tests/test_server.c.
 */
#ifndef ARB_SERVER_SHA256_H
#define ARB_SERVER_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SRV_SHA256_BYTES 32

/* The digest of len bytes of data into out. */
void srv_sha256(const void *data, size_t len, uint8_t out[SRV_SHA256_BYTES]);

/* The Merkle-Damgard frame SHA-1 and SHA-256 share (FIPS 180-4 5.1.1 padding, big-endian
 * words): runs block_fn over data and its padding from the initial state h (words 32-bit
 * words), then writes h to out (4 * words bytes). */
void srv_md_run(uint32_t *h, size_t words, void (*block_fn)(uint32_t *, const uint8_t *),
                const void *data, size_t len, uint8_t *out);

#endif
