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

#endif
