/* Arbiter — MIT licence, see LICENSE.
 *
 * position.c: the start position, make/unmake with incremental Polyglot keys, and the
 * attack queries of the public API.
 */
#include <string.h>

#include "board/make.h"
#include "board/zobrist.h"

/* The standard start position, written out: a game's first position is set for every game a
 * reader reads (arb_position_chess960 would work out placement 518 and the key each time).
 * test_board checks it against Chess960 placement 518 and the Polyglot specification's key. */
#define W(t) ARB_MAKE_PIECE(ARB_WHITE, ARB_##t)
#define B(t) ARB_MAKE_PIECE(ARB_BLACK, ARB_##t)
static const arb_position start_position = {
    .by_type = {UINT64_C(0xFFFF00000000FFFF), UINT64_C(0x00FF00000000FF00),
                UINT64_C(0x4200000000000042), UINT64_C(0x2400000000000024),
                UINT64_C(0x8100000000000081), UINT64_C(0x0800000000000008),
                UINT64_C(0x1000000000000010)},
    .by_color = {UINT64_C(0x000000000000FFFF), UINT64_C(0xFFFF000000000000)},
    .castling_rooks = UINT64_C(0x8100000000000081),
    .key = UINT64_C(0x463B96181691FC9C),
    /* clang-format off */
    .board = {W(ROOK), W(KNIGHT), W(BISHOP), W(QUEEN), W(KING), W(BISHOP), W(KNIGHT), W(ROOK),
              W(PAWN), W(PAWN),   W(PAWN),   W(PAWN),  W(PAWN), W(PAWN),   W(PAWN),   W(PAWN),
              [48] =
              B(PAWN), B(PAWN),   B(PAWN),   B(PAWN),  B(PAWN), B(PAWN),   B(PAWN),   B(PAWN),
              B(ROOK), B(KNIGHT), B(BISHOP), B(QUEEN), B(KING), B(BISHOP), B(KNIGHT), B(ROOK)},
    /* clang-format on */
    .turn = ARB_WHITE,
    .ep_square = ARB_NO_SQUARE,
    .fullmove_number = 1,
};
#undef W
#undef B

void arb_position_startpos(arb_position *pos) {
  arb_init(); /* a position comes before any question about it: the tables are built here */
  *pos = start_position;
}

void arb_position_mirror(const arb_position *pos, arb_position *out) {
  arb_position m;
  memset(&m, 0, sizeof m);
  for (int sq = 0; sq < 64; sq++) {
    arb_piece pc = pos->board[sq];
    if (pc) arb__put(&m, (arb_piece)(pc ^ 8), (arb_square)(sq ^ 56));
  }
  m.castling_rooks = __builtin_bswap64(pos->castling_rooks);
  m.turn = pos->turn ^ 1;
  m.ep_square = pos->ep_square == ARB_NO_SQUARE ? ARB_NO_SQUARE : (uint8_t)(pos->ep_square ^ 56);
  m.ep_target = pos->ep_target ? (uint8_t)(pos->ep_target ^ 56) : 0;
  m.chess960 = pos->chess960;
  m.halfmove_clock = pos->halfmove_clock;
  m.fullmove_number = pos->fullmove_number;
  m.key = arb_zobrist_compute(&m);
  *out = m;
}

void arb__chess960_rank(int number, arb_piece_type rank[8]) {
  /* Where the two knights go among the five squares left after bishops and queen. */
  static const int knights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                     {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
  for (int f = 0; f < 8; f++)
    rank[f] = ARB_NO_TYPE;
  int n = number;
  rank[2 * (n % 4) + 1] = ARB_BISHOP; /* light-squared bishop: b, d, f or h */
  n /= 4;
  rank[2 * (n % 4)] = ARB_BISHOP; /* dark-squared bishop: a, c, e or g */
  n /= 4;
  int q = n % 6, kn = n / 6, empty = 0;
  for (int f = 0; f < 8; f++)
    if (rank[f] == ARB_NO_TYPE && empty++ == q) rank[f] = ARB_QUEEN;
  empty = 0;
  for (int f = 0; f < 8; f++)
    if (rank[f] == ARB_NO_TYPE) {
      if (empty == knights[kn][0] || empty == knights[kn][1]) rank[f] = ARB_KNIGHT;
      empty++;
    }
  /* rook, king, rook on the three squares left, from the a-side */
  static const arb_piece_type rkr[3] = {ARB_ROOK, ARB_KING, ARB_ROOK};
  empty = 0;
  for (int f = 0; f < 8; f++)
    if (rank[f] == ARB_NO_TYPE) rank[f] = rkr[empty++];
}

arb_status arb_position_chess960(arb_position *pos, int number) {
  if (number < 0 || number > 959) return ARB_ERR_ARGUMENT;
  arb_piece_type rank[8];
  arb__chess960_rank(number, rank);
  arb_init();
  memset(pos, 0, sizeof *pos);
  for (int f = 0; f < 8; f++) {
    arb__put(pos, ARB_MAKE_PIECE(ARB_WHITE, rank[f]), ARB_SQUARE(f, 0));
    arb__put(pos, ARB_MAKE_PIECE(ARB_WHITE, ARB_PAWN), ARB_SQUARE(f, 1));
    arb__put(pos, ARB_MAKE_PIECE(ARB_BLACK, ARB_PAWN), ARB_SQUARE(f, 6));
    arb__put(pos, ARB_MAKE_PIECE(ARB_BLACK, rank[f]), ARB_SQUARE(f, 7));
    if (rank[f] == ARB_ROOK) pos->castling_rooks |= ARB_BB(f) | ARB_BB(56 + f);
  }
  pos->turn = ARB_WHITE;
  pos->ep_square = ARB_NO_SQUARE;
  pos->chess960 = 1;
  pos->fullmove_number = 1;
  pos->key = arb_zobrist_compute(pos);
  return ARB_OK;
}

void arb_make_move(arb_position *p, arb_move m, arb_undo *u) { arb__make(p, m, u, 1); }

void arb_unmake_move(arb_position *p, arb_move m, const arb_undo *u) {
  const int them = p->turn, us = them ^ 1;
  p->turn = (uint8_t)us;
  if (us == ARB_BLACK) p->fullmove_number--;
  p->key = u->key;
  p->castling_rooks = u->castling_rooks;
  p->halfmove_clock = u->halfmove_clock;
  p->ep_square = u->ep_square;
  p->ep_target = u->ep_target;
  if (m == ARB_MOVE_NULL) return;
  const arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
  const unsigned kind = ARB_MOVE_KIND(m);
  if (kind == ARB_MOVE_CASTLING) {
    arb_square kto = arb__castle_king_to(us, from, to), rto = arb__castle_rook_to(us, from, to);
    arb_piece king = p->board[kto], rook = p->board[rto];
    arb__remove(p, kto);
    arb__remove(p, rto);
    arb__put(p, king, from);
    arb__put(p, rook, to);
    return;
  }
  if (kind == ARB_MOVE_PROMOTION) {
    arb__remove(p, to);
    arb__put(p, ARB_MAKE_PIECE(us, ARB_PAWN), to);
  }
  arb__move_piece(p, to, from);
  if (u->captured)
    arb__put(p, u->captured, kind == ARB_MOVE_EN_PASSANT ? (arb_square)(to ^ 8) : to);
}

arb_bitboard arb_attackers(const arb_position *pos, arb_square sq, arb_color by,
                           arb_bitboard occupied) {
  if (sq > 63 || (by != ARB_WHITE && by != ARB_BLACK)) return 0;
  return arb__attackers_by(pos, sq, by, occupied);
}

arb_square arb_king_square(const arb_position *pos, arb_color c) {
  arb_bitboard k = pos->by_type[ARB_KING] & pos->by_color[c & 1];
  return k ? arb__lsb(k) : ARB_NO_SQUARE;
}

arb_bitboard arb_checkers(const arb_position *pos) {
  return arb__attackers_by(pos, arb__king_sq(pos, pos->turn), pos->turn ^ 1, pos->by_type[0]);
}

int arb_in_check(const arb_position *pos) { return arb_checkers(pos) != 0; }

int arb_ep_legal(const arb_position *p) {
  if (p->ep_square == ARB_NO_SQUARE) return 0;
  const int us = p->turn, them = us ^ 1;
  arb_square ep = p->ep_square, capsq = (arb_square)(ep ^ 8), ksq = arb__king_sq(p, us);
  arb_bitboard cands = arb__tab.pawn[them][ep] & p->by_type[ARB_PAWN] & p->by_color[us];
  while (cands) {
    arb_square from = arb__pop_lsb(&cands);
    arb_bitboard occ = (p->by_type[0] ^ ARB_BB(from) ^ ARB_BB(capsq)) | ARB_BB(ep);
    if (!(arb__attackers_by(p, ksq, them, occ) & ~ARB_BB(capsq))) return 1;
  }
  return 0;
}

int arb_material(const arb_position *pos, arb_color side) {
  static const int value[7] = {0, 1, 3, 3, 5, 9, 0};
  int m = 0;
  for (int t = ARB_PAWN; t <= ARB_QUEEN; t++)
    m += value[t] * __builtin_popcountll(pos->by_type[t] & pos->by_color[side]);
  return m;
}
