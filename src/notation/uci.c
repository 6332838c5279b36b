/* Arbiter — MIT licence, see LICENSE.
 *
 * uci.c: UCI (pure coordinate) and long algebraic notation.
 */
#include <string.h>

#include "arbiter/notation.h"
#include "board/board_internal.h"
#include "notation/text.h"

int arb__copy_out(const char *text, size_t n, char *buf, size_t size) {
  if (size) {
    size_t c = n < size ? n : size - 1;
    memcpy(buf, text, c);
    buf[c] = '\0';
  }
  return (int)n;
}

size_t arb__square_text(arb_square sq, char *out) {
  out[0] = (char)('a' + ARB_FILE_OF(sq));
  out[1] = (char)('1' + ARB_RANK_OF(sq));
  return 2;
}

/* The square the king really lands on (castling is stored king-takes-rook). */
arb_square arb__move_dest(const arb_position *pos, arb_move m) {
  if (ARB_MOVE_KIND(m) != ARB_MOVE_CASTLING) return ARB_MOVE_TO(m);
  return arb__castle_king_to(pos->turn, ARB_MOVE_FROM(m), ARB_MOVE_TO(m));
}

int arb_uci_write(const arb_position *pos, arb_move m, char *buf, size_t size) {
  char t[8];
  size_t n = 0;
  if (m == ARB_MOVE_NULL || m == ARB_MOVE_NONE) return arb__copy_out("0000", 4, buf, size);
  n += arb__square_text(ARB_MOVE_FROM(m), t + n);
  arb_square to = pos->chess960 ? ARB_MOVE_TO(m) : arb__move_dest(pos, m);
  n += arb__square_text(to, t + n);
  if (ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION) t[n++] = "nbrq"[ARB_MOVE_PROMO(m) - ARB_KNIGHT];
  return arb__copy_out(t, n, buf, size);
}

static int parse_square(const char *s, arb_square *sq) {
  if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') return 0;
  *sq = ARB_SQUARE(s[0] - 'a', s[1] - '1');
  return 1;
}

int arb__promo_type(char c) {
  switch (c) {
  case 'q':
  case 'Q': return ARB_QUEEN;
  case 'r':
  case 'R': return ARB_ROOK;
  case 'b':
  case 'B': return ARB_BISHOP;
  case 'n':
  case 'N': return ARB_KNIGHT;
  default: return 0;
  }
}

int arb__looks_like_uci(const char *s, size_t len) {
  arb_square a, b;
  if (len == 4 && memcmp(s, "0000", 4) == 0) return 1;
  if (len != 4 && len != 5) return 0;
  if (!parse_square(s, &a) || !parse_square(s + 2, &b)) return 0;
  return len == 4 || arb__promo_type(s[4]) != 0;
}

arb_status arb_uci_read(const arb_position *pos, const char *s, size_t len, int allow_null,
                        arb_move *move) {
  *move = ARB_MOVE_NONE;
  if (!s) return ARB_ERR_ARGUMENT;
  if (len == 4 && memcmp(s, "0000", 4) == 0) {
    if (!allow_null) return ARB_ERR_NULL_MOVE;
    *move = ARB_MOVE_NULL;
    return ARB_OK;
  }
  arb_square from, to;
  if ((len != 4 && len != 5) || !parse_square(s, &from) || !parse_square(s + 2, &to))
    return ARB_ERR_MOVE_SYNTAX;
  int promo = 0;
  if (len == 5 && !(promo = arb__promo_type(s[4]))) return ARB_ERR_MOVE_SYNTAX;
  return arb_move_from_squares(pos, from, to, promo, move);
}

arb_status arb_move_from_squares(const arb_position *pos, arb_square from, arb_square to,
                                 int promotion, arb_move *move) {
  *move = ARB_MOVE_NONE;
  if (from > 63 || to > 63 || (promotion && (promotion < ARB_KNIGHT || promotion > ARB_QUEEN)))
    return ARB_ERR_ARGUMENT;
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(pos, moves);
  arb_move castle = ARB_MOVE_NONE;
  for (int i = 0; i < n; i++) {
    arb_move m = moves[i];
    if (ARB_MOVE_FROM(m) != from) continue;
    if (ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING) {
      /* king-takes-rook (e1h1) or the king's two-square step (e1g1) */
      if (!promotion && (ARB_MOVE_TO(m) == to || arb__move_dest(pos, m) == to)) castle = m;
      continue;
    }
    if (ARB_MOVE_TO(m) != to) continue;
    if (ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION ? (int)ARB_MOVE_PROMO(m) != promotion
                                               : promotion != 0)
      continue;
    *move = m;
    return ARB_OK;
  }
  if (castle != ARB_MOVE_NONE) {
    *move = castle;
    return ARB_OK;
  }
  return ARB_ERR_MOVE_ILLEGAL;
}

int arb_lan_write(const arb_position *pos, arb_move m, char *buf, size_t size) {
  char t[16];
  size_t n = 0;
  if (m == ARB_MOVE_NULL) return arb__copy_out("--", 2, buf, size);
  if (!arb_is_legal(pos, m)) {
    if (size) buf[0] = '\0';
    return ARB_ERR_MOVE_ILLEGAL;
  }
  arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
  if (ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING) {
    const char *c = to > from ? "O-O" : "O-O-O";
    n = strlen(c);
    memcpy(t, c, n);
  } else {
    arb_piece_type type = ARB_PIECE_TYPE(pos->board[from]);
    if (type != ARB_PAWN) t[n++] = " PNBRQK"[type];
    n += arb__square_text(from, t + n);
    t[n++] = (pos->board[to] || ARB_MOVE_KIND(m) == ARB_MOVE_EN_PASSANT) ? 'x' : '-';
    n += arb__square_text(to, t + n);
    if (ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION) {
      t[n++] = '=';
      t[n++] = " PNBRQK"[ARB_MOVE_PROMO(m)];
    }
  }
  n += arb__check_suffix(pos, m, t + n);
  return arb__copy_out(t, n, buf, size);
}
