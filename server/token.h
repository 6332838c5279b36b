/* Arbiter — MIT licence, see LICENSE.
 *
 * token.h: seat tokens and game ids — random bytes from getrandom(2), written in base64url;
 * tokens are stored only as their SHA-256 and compared in constant time.
 */
#ifndef ARB_SERVER_TOKEN_H
#define ARB_SERVER_TOKEN_H

#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

#define SRV_TOKEN_LEN 22  /* 16 random bytes (128 bits), base64url without padding */
#define SRV_GAME_ID_LEN 8 /* 6 random bytes */

/* Fills buf with n random bytes from the kernel.  0, or -1 when it cannot. */
int srv_random(void *buf, size_t n);
/* Writes n bytes as base64url without padding into out (4n/3 rounded up, plus a NUL). */
void srv_base64url(const uint8_t *in, size_t n, char *out);
/* A new seat token (SRV_TOKEN_LEN characters and a NUL) / game id (SRV_GAME_ID_LEN and a NUL).
 * 0, or -1 without randomness. */
int srv_new_token(char out[SRV_TOKEN_LEN + 1]);
int srv_new_game_id(char out[SRV_GAME_ID_LEN + 1]);
/* The hash kept of a token. */
void srv_token_hash(const char *token, size_t len, uint8_t out[SRV_SHA256_BYTES]);
/* 1 if the two hashes are equal, in time independent of where they differ. */
int srv_hash_equal(const uint8_t a[SRV_SHA256_BYTES], const uint8_t b[SRV_SHA256_BYTES]);
/* 1 if s (len bytes) could be a game id: SRV_GAME_ID_LEN base64url characters. */
int srv_game_id_valid(const char *s, size_t len);

#endif
