/* Arbiter — MIT licence, see LICENSE.
 *
 * ws.h: the WebSocket protocol (RFC 6455) as `arbiter serve` speaks it — the handshake's
 * accept key, an incremental reader of a client's frames that yields whole text messages,
 * pings, pongs and closes, and the headers of the frames the server writes.  Pure: no sockets,
 * no allocation, no clock; the fuzz target fuzz_ws drives the reader.
 *
 * The reader fails the connection, with the close code to send, on: an unmasked frame (5.1:
 * a server MUST close), reserved bits or opcodes (1002), a binary message (1003), a message
 * over SRV_WS_MAX_MESSAGE bytes (1009), text that is not UTF-8 (1007), a fragmented or long
 * control frame, a continuation with nothing to continue, a bad close payload (1002).
 *
 * Ownership: the reader is a caller-owned value; an event's data points into it and is valid
 * until the next call.
 */
#ifndef ARB_SERVER_WS_H
#define ARB_SERVER_WS_H

#include <stddef.h>
#include <stdint.h>

#define SRV_WS_MAX_MESSAGE 8192
#define SRV_WS_ACCEPT_LEN 28 /* base64 of 20 bytes */

enum {
  SRV_WS_OP_CONT = 0,
  SRV_WS_OP_TEXT = 1,
  SRV_WS_OP_BINARY = 2,
  SRV_WS_OP_CLOSE = 8,
  SRV_WS_OP_PING = 9,
  SRV_WS_OP_PONG = 10
};

/* Close codes (7.4.1). */
enum {
  SRV_WS_NORMAL = 1000,
  SRV_WS_GOING_AWAY = 1001,
  SRV_WS_PROTOCOL_ERROR = 1002,
  SRV_WS_UNACCEPTABLE = 1003,
  SRV_WS_NO_STATUS = 1005,
  SRV_WS_BAD_DATA = 1007,
  SRV_WS_POLICY = 1008,
  SRV_WS_TOO_BIG = 1009,
  SRV_WS_SERVER_ERROR = 1011
};

typedef enum srv_ws_kind {
  SRV_WS_NONE,  /* every byte was taken; more are needed */
  SRV_WS_TEXT,  /* a whole text message: data, len (UTF-8, checked) */
  SRV_WS_PING,  /* data, len: the payload to echo in the pong */
  SRV_WS_PONG,  /* an answer to our ping (or unsolicited: ignored) */
  SRV_WS_CLOSE, /* the client closes: code (1005 none) and its reason in data, len */
  SRV_WS_FAIL   /* the connection must be failed: send a close with code, why */
} srv_ws_kind;

typedef struct srv_ws_event {
  srv_ws_kind kind;
  const char *data;
  size_t len;
  int code;
  const char *why; /* SRV_WS_FAIL: words for the close frame (static) */
} srv_ws_event;

typedef struct srv_ws_reader {
  int state;
  uint8_t head[14];
  size_t head_len, head_need;
  int fin, opcode;
  uint64_t left; /* payload bytes of this frame still to come */
  uint8_t mask[4];
  unsigned mpos;
  int in_message; /* a fragmented text message under way */
  char msg[SRV_WS_MAX_MESSAGE];
  size_t msg_len;
  char ctl[125];
  size_t ctl_len;
} srv_ws_reader;

void srv_ws_init(srv_ws_reader *r);
/* Takes bytes up to the next event: *used says how many were taken (all when the event is
 * SRV_WS_NONE).  After SRV_WS_FAIL or SRV_WS_CLOSE it takes nothing more. */
void srv_ws_feed(srv_ws_reader *r, const uint8_t *data, size_t len, size_t *used, srv_ws_event *ev);

/* The Sec-WebSocket-Accept for a client's key: 0, or -1 when the key is not the base64 of 16
 * bytes (the handshake is then refused). */
int srv_ws_accept(const char *key, char out[SRV_WS_ACCEPT_LEN + 1]);

/* The header of a server frame (FIN, no mask) of opcode and len payload bytes into out;
 * returns its length (2, 4 or 10). */
size_t srv_ws_header(uint8_t out[10], int opcode, size_t len);

/* A whole close frame (code, and why cut to fit 123 bytes) into out; returns its length. */
size_t srv_ws_close_frame(uint8_t out[127], int code, const char *why);

#endif
