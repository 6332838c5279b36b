/* Arbiter — MIT licence, see LICENSE.
 *
 * common.c: status messages.
 */
#include "arbiter/common.h"

#include <string.h>

const char *arb_strerror(arb_status status) {
  switch (status) {
#define ARB_STATUS_MSG_(name, value, msg)                                                          \
  case name: return msg;
    ARB_STATUS_LIST(ARB_STATUS_MSG_)
#undef ARB_STATUS_MSG_
  }
  return "unknown status";
}

const char *arb_status_name(arb_status status) {
  switch (status) {
  case ARB_OK: return "ok";
  case ARB_ERR_ARGUMENT: return "argument";
  case ARB_ERR_BUFFER: return "buffer";
  case ARB_ERR_FEN_SYNTAX: return "fen_syntax";
  case ARB_ERR_FEN_INVALID: return "fen_invalid";
  case ARB_ERR_MOVE_SYNTAX: return "move_syntax";
  case ARB_ERR_MOVE_ILLEGAL: return "move_illegal";
  case ARB_ERR_MOVE_AMBIGUOUS: return "move_ambiguous";
  case ARB_ERR_NULL_MOVE: return "null_move";
  case ARB_ERR_NO_MEMORY: return "no_memory";
  case ARB_ERR_GAME_OVER: return "game_over";
  case ARB_ERR_NOT_YOUR_TURN: return "not_your_turn";
  case ARB_ERR_NO_OFFER: return "no_offer";
  case ARB_ERR_NOT_ALLOWED: return "not_allowed";
  case ARB_ERR_MUST_PLAY: return "must_play";
  case ARB_ERR_TC_SYNTAX: return "tc_syntax";
  case ARB_ERR_TIME_BACKWARDS: return "time_backwards";
  case ARB_ERR_CLOCK_STATE: return "clock_state";
  case ARB_ERR_FLAG_NOT_FALLEN: return "flag_not_fallen";
  case ARB_ERR_BOOK_FORMAT: return "book_format";
  case ARB_ERR_NULL_IN_CHECK: return "null_in_check";
  case ARB_ERR_EPD_SYNTAX: return "epd_syntax";
  }
  return "unknown";
}

int arb_utf8_valid(const char *text, size_t n) {
  const unsigned char *s = (const unsigned char *)text;
  size_t i = 0;
  while (i < n) {
    uint64_t w; /* eight ASCII bytes at once: the common text */
    if (n - i >= 8 && (memcpy(&w, s + i, 8), !(w & UINT64_C(0x8080808080808080)))) {
      i += 8;
      continue;
    }
    unsigned c = s[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t k;
    unsigned min;
    if (c >= 0xc2 && c <= 0xdf)
      k = 1, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef)
      k = 2, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4)
      k = 3, min = 0x10000;
    else
      return 0;
    if (n - i <= k) return 0;
    unsigned cp = c & (0x3fu >> k);
    for (size_t j = 1; j <= k; j++) {
      unsigned d = s[i + j];
      if ((d & 0xc0) != 0x80) return 0;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    i += k + 1;
  }
  return 1;
}
