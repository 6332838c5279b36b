/* Arbiter — MIT licence, see LICENSE.
 *
 * sha1.h: SHA-1 (FIPS 180-4), only for the WebSocket handshake's Sec-WebSocket-Accept
 * (RFC 6455 section 4.2.2), where the protocol fixes it; nothing secret depends on it.
 */
#ifndef ARB_SERVER_SHA1_H
#define ARB_SERVER_SHA1_H

#include <stddef.h>
#include <stdint.h>

#define SRV_SHA1_BYTES 20

void srv_sha1(const void *data, size_t len, uint8_t out[SRV_SHA1_BYTES]);

#endif
