/* Arbiter — MIT licence, see LICENSE.
 *
 * shim_board.c: the Python Board's hot calls, each one crossing into C once (shim.h): a call
 * from Python costs more than the work of most of these, so the position lookup, the move's
 * identification from its squares and the library call they lead to are done here together.
 * No rule is decided here: each function only chains the library's public calls.
 */
#include "shim.h"

#include "arbiter/arbiter.h"

int pyarb_code(const arb_game *g, unsigned key) {
  if (key == 0) return ARB_MOVE_NULL; /* from a1 to a1, no promotion */
  arb_move m;
  arb_status st = arb_move_from_squares(arb_game_position(g), (arb_square)(key & 63),
                                        (arb_square)(key >> 6 & 63), (int)(key >> 12), &m);
  return st == ARB_OK ? (int)m : (int)ARB_ERR_MOVE_ILLEGAL;
}

int pyarb_push(arb_game *g, unsigned key) {
  int code = pyarb_code(g, key);
  if (code < 0) return code;
  arb_status st = arb_game_play(g, (arb_move)code);
  return st == ARB_OK ? code : (int)st;
}

int pyarb_legal(const arb_game *g, arb_move *moves) {
  return arb_generate_legal(arb_game_position(g), moves);
}

int pyarb_san(const arb_game *g, unsigned key, char *buf, size_t size) {
  int code = pyarb_code(g, key);
  if (code < 0) return code;
  return arb_san_write(arb_game_position(g), (arb_move)code, buf, size);
}

int pyarb_parse_san(const arb_game *g, const char *text, size_t len, arb_san_error *err) {
  arb_move m;
  arb_status st = arb_san_read(arb_game_position(g), text, len, ARB_SAN_ALLOW_NULL, &m, err);
  return st == ARB_OK ? (int)m : (int)st;
}
