/* Arbiter — MIT licence, see LICENSE.
 *
 * ws.c: the WebSocket reader and frame headers (ws.h), from RFC 6455 sections 5 and 7.
 */
#include "ws.h"

#include <string.h>

#include "arbiter/arbiter.h"
#include "sha1.h"

enum { ST_HEAD, ST_PAYLOAD, ST_OVER };

void srv_ws_init(srv_ws_reader *r) {
  r->state = ST_HEAD;
  r->head_len = 0;
  r->head_need = 2;
  r->in_message = 0;
  r->msg_len = 0;
  r->ctl_len = 0;
}

static void fail(srv_ws_reader *r, srv_ws_event *ev, int code, const char *why) {
  r->state = ST_OVER;
  ev->kind = SRV_WS_FAIL;
  ev->code = code;
  ev->why = why;
}

/* The head is complete in r->head: check it and get ready for the payload. */
static int read_head(srv_ws_reader *r, srv_ws_event *ev) {
  uint8_t b0 = r->head[0], b1 = r->head[1];
  r->fin = b0 >> 7;
  r->opcode = b0 & 0x0f;
  if (b0 & 0x70) return fail(r, ev, SRV_WS_PROTOCOL_ERROR, "reserved bits set"), -1;
  if (!(b1 & 0x80)) return fail(r, ev, SRV_WS_PROTOCOL_ERROR, "an unmasked frame"), -1;
  uint64_t len = b1 & 0x7f;
  const uint8_t *m = r->head + 2;
  if (len == 126) {
    len = (uint64_t)r->head[2] << 8 | r->head[3];
    m = r->head + 4;
  } else if (len == 127) {
    len = 0;
    for (int i = 0; i < 8; i++)
      len = len << 8 | r->head[2 + i];
    if (len >> 63) return fail(r, ev, SRV_WS_PROTOCOL_ERROR, "a length over 2^63"), -1;
    m = r->head + 10;
  }
  memcpy(r->mask, m, 4);
  r->mpos = 0;
  r->left = len;
  switch (r->opcode) {
  case SRV_WS_OP_CLOSE:
  case SRV_WS_OP_PING:
  case SRV_WS_OP_PONG:
    if (!r->fin) return fail(r, ev, SRV_WS_PROTOCOL_ERROR, "a fragmented control frame"), -1;
    if (len > 125) return fail(r, ev, SRV_WS_PROTOCOL_ERROR, "a control frame over 125 bytes"), -1;
    r->ctl_len = 0;
    break;
  case SRV_WS_OP_BINARY: return fail(r, ev, SRV_WS_UNACCEPTABLE, "text frames only"), -1;
  case SRV_WS_OP_TEXT:
    if (r->in_message)
      return fail(r, ev, SRV_WS_PROTOCOL_ERROR, "a new message inside a fragmented one"), -1;
    r->in_message = 1;
    r->msg_len = 0;
    /* fall through */
  case SRV_WS_OP_CONT:
    if (!r->in_message) return fail(r, ev, SRV_WS_PROTOCOL_ERROR, "a continuation of nothing"), -1;
    if (len > SRV_WS_MAX_MESSAGE - r->msg_len)
      return fail(r, ev, SRV_WS_TOO_BIG, "message too big"), -1;
    break;
  default: return fail(r, ev, SRV_WS_PROTOCOL_ERROR, "an unknown opcode"), -1;
  }
  r->state = ST_PAYLOAD;
  return 0;
}

/* The frame's payload is all here: the event it makes, if any. */
static void frame_done(srv_ws_reader *r, srv_ws_event *ev) {
  r->state = ST_HEAD;
  r->head_len = 0;
  r->head_need = 2;
  switch (r->opcode) {
  case SRV_WS_OP_PING:
  case SRV_WS_OP_PONG:
    ev->kind = r->opcode == SRV_WS_OP_PING ? SRV_WS_PING : SRV_WS_PONG;
    ev->data = r->ctl;
    ev->len = r->ctl_len;
    return;
  case SRV_WS_OP_CLOSE: {
    r->state = ST_OVER;
    ev->kind = SRV_WS_CLOSE;
    ev->code = SRV_WS_NO_STATUS;
    ev->data = "";
    ev->len = 0;
    if (r->ctl_len == 1) {
      fail(r, ev, SRV_WS_PROTOCOL_ERROR, "a one-byte close payload");
      return;
    }
    if (r->ctl_len >= 2) {
      int code = (unsigned char)r->ctl[0] << 8 | (unsigned char)r->ctl[1];
      int ok = (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1011) ||
               (code >= 3000 && code <= 4999);
      if (!ok) {
        fail(r, ev, SRV_WS_PROTOCOL_ERROR, "a close code that may not be sent");
        return;
      }
      if (!arb_utf8_valid(r->ctl + 2, r->ctl_len - 2)) {
        fail(r, ev, SRV_WS_BAD_DATA, "a close reason that is not UTF-8");
        return;
      }
      ev->code = code;
      ev->data = r->ctl + 2;
      ev->len = r->ctl_len - 2;
    }
    return;
  }
  default:
    if (!r->fin) return; /* more fragments to come */
    r->in_message = 0;
    if (!arb_utf8_valid(r->msg, r->msg_len)) {
      fail(r, ev, SRV_WS_BAD_DATA, "text that is not UTF-8");
      return;
    }
    ev->kind = SRV_WS_TEXT;
    ev->data = r->msg;
    ev->len = r->msg_len;
    return;
  }
}

void srv_ws_feed(srv_ws_reader *r, const uint8_t *data, size_t len, size_t *used,
                 srv_ws_event *ev) {
  size_t i = 0;
  memset(ev, 0, sizeof *ev);
  ev->kind = SRV_WS_NONE;
  while (i < len && r->state != ST_OVER) {
    if (r->state == ST_HEAD) {
      r->head[r->head_len++] = data[i++];
      if (r->head_len == 2) {
        unsigned l7 = r->head[1] & 0x7f;
        r->head_need = 2 + (l7 == 126 ? 2 : l7 == 127 ? 8 : 0) + 4;
        /* an unmasked frame is refused at once, without waiting for a mask that never comes */
        if (!(r->head[1] & 0x80)) {
          read_head(r, ev);
          break;
        }
      }
      if (r->head_len < r->head_need) continue;
      if (read_head(r, ev)) break;
      if (r->left) continue;
    } else {
      size_t n = len - i;
      if ((uint64_t)n > r->left) n = (size_t)r->left;
      char *to = r->opcode >= 8 ? r->ctl + r->ctl_len : r->msg + r->msg_len;
      for (size_t k = 0; k < n; k++)
        to[k] = (char)(data[i + k] ^ r->mask[(r->mpos + k) & 3]);
      r->mpos = (unsigned)((r->mpos + n) & 3);
      if (r->opcode >= 8)
        r->ctl_len += n;
      else
        r->msg_len += n;
      r->left -= n;
      i += n;
      if (r->left) continue;
    }
    frame_done(r, ev);
    if (ev->kind != SRV_WS_NONE) break;
  }
  *used = i;
}

static void base64(const uint8_t *in, size_t n, char *out) {
  static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t o = 0;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
                 (i + 2 < n ? in[i + 2] : 0);
    out[o++] = a[v >> 18 & 63];
    out[o++] = a[v >> 12 & 63];
    out[o++] = i + 1 < n ? a[v >> 6 & 63] : '=';
    out[o++] = i + 2 < n ? a[v & 63] : '=';
  }
  out[o] = 0;
}

int srv_ws_accept(const char *key, char out[SRV_WS_ACCEPT_LEN + 1]) {
  /* 16 bytes in base64: 22 characters of the alphabet and "==" (4.2.1 point 5) */
  if (strlen(key) != 24 || key[22] != '=' || key[23] != '=') return -1;
  for (int i = 0; i < 22; i++) {
    char c = key[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
          c == '/'))
      return -1;
  }
  static const char guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  char both[24 + sizeof guid];
  memcpy(both, key, 24);
  memcpy(both + 24, guid, sizeof guid - 1);
  uint8_t h[SRV_SHA1_BYTES];
  srv_sha1(both, 24 + sizeof guid - 1, h);
  base64(h, sizeof h, out);
  return 0;
}

size_t srv_ws_header(uint8_t out[10], int opcode, size_t len) {
  out[0] = (uint8_t)(0x80 | (opcode & 0x0f));
  if (len < 126) {
    out[1] = (uint8_t)len;
    return 2;
  }
  if (len <= 0xffff) {
    out[1] = 126;
    out[2] = (uint8_t)(len >> 8);
    out[3] = (uint8_t)len;
    return 4;
  }
  out[1] = 127;
  for (int i = 0; i < 8; i++)
    out[2 + i] = (uint8_t)((uint64_t)len >> (56 - 8 * i));
  return 10;
}

size_t srv_ws_close_frame(uint8_t out[127], int code, const char *why) {
  size_t n = why ? strlen(why) : 0;
  if (n > 123) n = 123;
  out[0] = 0x80 | SRV_WS_OP_CLOSE;
  out[1] = (uint8_t)(2 + n);
  out[2] = (uint8_t)(code >> 8);
  out[3] = (uint8_t)code;
  if (n) memcpy(out + 4, why, n);
  return 4 + n;
}
