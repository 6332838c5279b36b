/* Arbiter — MIT licence, see LICENSE.
 *
 * fen.c: FEN/EPD input with validation of every problem, and FEN output.
 */
#include <stdio.h>
#include <string.h>

#include "arbiter/notation.h"
#include "board/board_internal.h"
#include "board/zobrist.h"

const char *arb_fen_problem_message(uint32_t problem) {
#define ARB_FEN_PROBLEM_MSG_(name, bit, msg)                                                       \
  if (problem == name) return msg;
  ARB_FEN_PROBLEM_LIST(ARB_FEN_PROBLEM_MSG_)
#undef ARB_FEN_PROBLEM_MSG_
  return NULL;
}

const char *arb_fen_problem_name(uint32_t problem) {
  static const char *const names[ARB_FEN_PROBLEM_COUNT] = {
      "no_white_king",    "no_black_king",     "too_many_kings",    "pawn_on_back_rank",
      "bad_castling",     "bad_en_passant",    "opponent_in_check", "too_many_checkers",
      "impossible_check", "too_much_material", "kings_adjacent",    "too_many_men"};
  for (int i = 0; i < ARB_FEN_PROBLEM_COUNT; i++)
    if (problem == (1u << i)) return names[i];
  return NULL;
}

static arb_status syntax_error(arb_fen_report *r, int field, size_t column, const char *fmt,
                               int arg) {
  if (r) {
    r->field = field;
    r->column = (int)column;
    snprintf(r->message, sizeof r->message, fmt, arg);
  }
  return ARB_ERR_FEN_SYNTAX;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static const char *field_names[7] = {"",           "piece placement", "side to move",   "castling",
                                     "en passant", "halfmove clock",  "fullmove number"};

static int piece_from_char(char c) {
  const char *letters = "PNBRQK";
  for (int t = 0; t < 6; t++) {
    if (c == letters[t]) return ARB_MAKE_PIECE(ARB_WHITE, t + 1);
    if (c == letters[t] + ('a' - 'A')) return ARB_MAKE_PIECE(ARB_BLACK, t + 1);
  }
  return 0;
}

/* Problems of the position's own content.  ep: the en passant square as written (and shaped
 * right), which constrains the checks even when no pawn can take (ARB_NO_SQUARE if none). */
static uint32_t position_problems(const arb_position *p, arb_square ep) {
  uint32_t probs = 0;
  int wk = arb__popcount(p->by_type[ARB_KING] & p->by_color[ARB_WHITE]);
  int bk = arb__popcount(p->by_type[ARB_KING] & p->by_color[ARB_BLACK]);
  if (wk == 0) probs |= ARB_FEN_NO_WHITE_KING;
  if (bk == 0) probs |= ARB_FEN_NO_BLACK_KING;
  if (wk > 1 || bk > 1) probs |= ARB_FEN_TOO_MANY_KINGS;
  if (p->by_type[ARB_PAWN] & (ARB_RANK_BB(0) | ARB_RANK_BB(7))) probs |= ARB_FEN_PAWN_ON_BACK_RANK;
  for (int c = 0; c < 2; c++) {
    arb_bitboard mine = p->by_color[c];
    int pawns = arb__popcount(mine & p->by_type[ARB_PAWN]);
    int extra = 0;
    int nn = arb__popcount(mine & p->by_type[ARB_KNIGHT]);
    int lb = arb__popcount(mine & p->by_type[ARB_BISHOP] & ARB_LIGHT_SQUARES);
    int db = arb__popcount(mine & p->by_type[ARB_BISHOP] & ARB_DARK_SQUARES);
    int rr = arb__popcount(mine & p->by_type[ARB_ROOK]);
    int qq = arb__popcount(mine & p->by_type[ARB_QUEEN]);
    extra += nn > 2 ? nn - 2 : 0;
    extra += lb > 1 ? lb - 1 : 0;
    extra += db > 1 ? db - 1 : 0;
    extra += rr > 2 ? rr - 2 : 0;
    extra += qq > 1 ? qq - 1 : 0;
    if (arb__popcount(mine) > 16 || pawns > 8 || extra > 8 - pawns)
      probs |= ARB_FEN_TOO_MUCH_MATERIAL;
    if (arb__popcount(mine) > 16) probs |= ARB_FEN_TOO_MANY_MEN;
  }
  if (probs & ARB_FEN_FATAL) return probs;
  const int us = p->turn, them = us ^ 1;
  arb_square ksq = arb__king_sq(p, us), oksq = arb__king_sq(p, them);
  if (arb__tab.king[ksq] & ARB_BB(oksq)) probs |= ARB_FEN_KINGS_ADJACENT;
  if (arb__attackers_by(p, oksq, us, p->by_type[0])) probs |= ARB_FEN_OPPONENT_IN_CHECK;
  arb_bitboard checkers = arb__attackers_by(p, ksq, them, p->by_type[0]);
  int nchk = arb__popcount(checkers);
  arb_bitboard sliders = p->by_type[ARB_BISHOP] | p->by_type[ARB_ROOK] | p->by_type[ARB_QUEEN];
  if (nchk > 2) {
    probs |= ARB_FEN_TOO_MANY_CHECKERS;
  } else if (nchk == 2) {
    arb_square a = arb__lsb(checkers), b = arb__lsb(checkers & (checkers - 1));
    /* A double check always includes a discovered check by a slider, and two checkers can
     * never stand on one line through the king. */
    if (!(checkers & sliders) || (arb__tab.line[a][b] & ARB_BB(ksq)))
      probs |= ARB_FEN_IMPOSSIBLE_CHECK;
  }
  if (ep != ARB_NO_SQUARE && nchk > 0) {
    /* After a double step, the check comes from the pawn itself or from a slider the pawn
     * uncovered by leaving its start square. */
    arb_square pushed = (arb_square)(ep ^ 8);
    arb_square origin = (arb_square)(us == ARB_WHITE ? ep + 8 : ep - 8);
    arb_bitboard c = checkers;
    while (c) {
      arb_square s = arb__pop_lsb(&c);
      if (s == pushed) continue;
      if ((ARB_BB(s) & sliders) && (arb__tab.between[ksq][s] & ARB_BB(origin))) continue;
      probs |= ARB_FEN_IMPOSSIBLE_CHECK;
    }
  }
  return probs;
}

/* The castling rights of pos that no position could have: a right whose rook is not a rook of
 * the rank's colour on its back rank, whose king is not on that back rank, or a second right on
 * one side of the king. */
static arb_bitboard bad_castling_rooks(const arb_position *pos) {
  arb_bitboard bad = 0, seen[2][2] = {{0, 0}, {0, 0}}, rooks = pos->castling_rooks;
  while (rooks) {
    arb_square r = arb__pop_lsb(&rooks);
    int c = r >= 56 ? ARB_BLACK : ARB_WHITE;
    int back = c == ARB_WHITE ? 0 : 7;
    arb_square k = arb__king_sq(pos, c);
    int side = ARB_FILE_OF(r) > ARB_FILE_OF(k);
    if (pos->board[r] != ARB_MAKE_PIECE(c, ARB_ROOK) || ARB_RANK_OF(r) != back ||
        ARB_RANK_OF(k) != back || seen[c][side])
      bad |= ARB_BB(r);
    else
      seen[c][side] = 1;
  }
  return bad;
}

uint32_t arb_position_problems(const arb_position *pos) {
  uint32_t probs = 0;
  arb_square ep = ARB_NO_SQUARE;
  if (pos->ep_target) {
    if (arb__ep_plausible(pos, pos->ep_target))
      ep = pos->ep_target;
    else
      probs |= ARB_FEN_BAD_EN_PASSANT;
  }
  probs |= position_problems(pos, ep);
  if (probs & ARB_FEN_FATAL) return probs;
  if (bad_castling_rooks(pos)) probs |= ARB_FEN_BAD_CASTLING;
  return probs;
}

/* The one validation behind FEN reading and board editing: every problem of p, with `probs`
 * the ones a reader found while parsing, into the report; when none is refused, p is made
 * playable: accepted bad castling rights and en passant squares are dropped, the en passant
 * square is kept where a pawn can take, and the key is computed. */
static arb_status validate(arb_position *p, uint32_t probs, uint32_t accept, arb_fen_report *r) {
  probs |= arb_position_problems(p);
  r->problems = probs;
  uint32_t bad = ((probs & ~accept) | (probs & ARB_FEN_FATAL)) & ARB_FEN_PROBLEMS_ALL;
  if (bad) {
    uint32_t first = bad & (0u - bad);
    snprintf(r->message, sizeof r->message, "%s", arb_fen_problem_message(first));
    return ARB_ERR_FEN_INVALID;
  }
  p->castling_rooks &= ~bad_castling_rooks(p);
  if (p->ep_target && !arb__ep_plausible(p, p->ep_target)) p->ep_target = 0;
  p->ep_square =
      p->ep_target && arb__ep_capturable(p, p->turn, p->ep_target) ? p->ep_target : ARB_NO_SQUARE;
  p->key = arb_zobrist_compute(p);
  return ARB_OK;
}

static void report_reset(arb_fen_report *r) {
  r->problems = 0;
  r->field = 0;
  r->column = -1;
  r->message[0] = '\0';
}

arb_status arb_position_validate(arb_position *pos, uint32_t accept, arb_fen_report *report) {
  arb_fen_report local;
  arb_fen_report *r = report ? report : &local;
  report_reset(r);
  if (!pos) return ARB_ERR_ARGUMENT;
  arb_position p = *pos;
  arb_status st = validate(&p, 0, accept, r);
  if (st == ARB_OK) *pos = p;
  return st;
}

/* Parses a decimal counter; returns the index after it or 0 on error. */
static size_t parse_uint(const char *s, size_t i, size_t len, unsigned long max,
                         unsigned long *out) {
  size_t start = i;
  unsigned long v = 0;
  while (i < len && s[i] >= '0' && s[i] <= '9') {
    v = v * 10 + (unsigned long)(s[i] - '0');
    if (v > max) return 0;
    i++;
  }
  if (i == start) return 0;
  *out = v;
  return i;
}

arb_status arb_fen_read_n(arb_position *out, const char *s, size_t len, uint32_t accept,
                          arb_fen_report *report) {
  arb_fen_report local;
  arb_fen_report *r = report ? report : &local;
  report_reset(r);
  if (!out || (!s && len)) return ARB_ERR_ARGUMENT;
  arb_init();
  arb_position p;
  memset(&p, 0, sizeof p);
  p.ep_square = ARB_NO_SQUARE;
  p.fullmove_number = 1;

  size_t i = 0;
  while (i < len && is_blank(s[i]))
    i++;
  if (i == len) return syntax_error(r, 1, i, "empty FEN", 0);

  /* Field 1: placement, rank 8 first. */
  int rank = 7, file = 0;
  for (;; i++) {
    char c = i < len ? s[i] : '\0';
    if (c == '/' || is_blank(c) || c == '\0') {
      if (file != 8)
        return syntax_error(r, 1, i, "rank %d does not describe exactly 8 squares", rank + 1);
      if (c != '/') break;
      if (rank == 0) return syntax_error(r, 1, i, "more than 8 ranks", 0);
      rank--;
      file = 0;
    } else if (c >= '1' && c <= '8') {
      if (i > 0 && s[i - 1] >= '1' && s[i - 1] <= '8')
        return syntax_error(r, 1, i, "two digits in a row in rank %d", rank + 1);
      file += c - '0';
      if (file > 8) return syntax_error(r, 1, i, "rank %d has more than 8 squares", rank + 1);
    } else {
      int pc = piece_from_char(c);
      if (!pc) {
        if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
          return syntax_error(r, 1, i, "unexpected character '%c' in the piece placement", c);
        return syntax_error(r, 1, i, "unexpected byte 0x%02x in the piece placement",
                            (unsigned char)c);
      }
      if (file > 7) return syntax_error(r, 1, i, "rank %d has more than 8 squares", rank + 1);
      arb__put(&p, (arb_piece)pc, ARB_SQUARE(file, rank));
      file++;
    }
  }
  if (rank != 0) return syntax_error(r, 1, i, "only %d ranks in the piece placement", 8 - rank);

  /* The remaining fields, separated by blanks. */
  const char *fields[6] = {0};
  size_t fstart[6] = {0}, flen[6] = {0};
  int nf = 1;
  for (;;) {
    while (i < len && is_blank(s[i]))
      i++;
    if (i >= len || s[i] == '\0') break;
    if (nf == 6) return syntax_error(r, 6, i, "unexpected text after the sixth field", 0);
    fstart[nf] = i;
    fields[nf] = s + i;
    while (i < len && !is_blank(s[i]) && s[i] != '\0')
      i++;
    flen[nf] = i - fstart[nf];
    nf++;
  }
  if (i < len && s[i] == '\0') return syntax_error(r, nf, i, "NUL byte inside the FEN", 0);
  if (nf < 4) {
    syntax_error(r, nf + 1, i, "missing field %d", nf + 1);
    size_t used = strlen(r->message);
    snprintf(r->message + used, sizeof r->message - used, " (%s)", field_names[nf + 1]);
    return ARB_ERR_FEN_SYNTAX;
  }

  /* Field 2: side to move. */
  if (flen[1] != 1 || (fields[1][0] != 'w' && fields[1][0] != 'b'))
    return syntax_error(r, 2, fstart[1], "side to move must be 'w' or 'b'", 0);
  p.turn = fields[1][0] == 'w' ? ARB_WHITE : ARB_BLACK;

  /* Field 3: castling.  KQkq (outermost rook on that side), or file letters (X-FEN and
   * Shredder-FEN). */
  uint32_t probs = 0;
  arb_bitboard castling = 0;
  if (!(flen[2] == 1 && fields[2][0] == '-')) {
    for (size_t j = 0; j < flen[2]; j++) {
      char c = fields[2][j];
      int color = (c >= 'A' && c <= 'Z') ? ARB_WHITE : ARB_BLACK;
      char u = (char)(color == ARB_BLACK ? c - ('a' - 'A') : c);
      if (!(u == 'K' || u == 'Q' || (u >= 'A' && u <= 'H')))
        return syntax_error(r, 3, fstart[2] + j, "unexpected character '%c' in castling rights",
                            (unsigned char)c >= 0x20 && (unsigned char)c < 0x7f ? c : '?');
      int back = color == ARB_WHITE ? 0 : 7;
      arb_bitboard kings = p.by_type[ARB_KING] & p.by_color[color] & ARB_RANK_BB(back);
      arb_bitboard rooks = p.by_type[ARB_ROOK] & p.by_color[color] & ARB_RANK_BB(back);
      if (arb__popcount(kings) != 1) {
        probs |= ARB_FEN_BAD_CASTLING;
        continue;
      }
      int kf = ARB_FILE_OF(arb__lsb(kings));
      arb_square rook = ARB_NO_SQUARE;
      if ((accept & ARB_FEN_READ_STANDARD) && kf != 4) {
        probs |= ARB_FEN_BAD_CASTLING; /* standard chess: the king castles from the e-file */
        continue;
      }
      if (u == 'K') {
        for (int f = 7; f > kf && rook == ARB_NO_SQUARE; f--)
          if (rooks & ARB_BB(ARB_SQUARE(f, back))) rook = ARB_SQUARE(f, back);
      } else if (u == 'Q') {
        for (int f = 0; f < kf && rook == ARB_NO_SQUARE; f++)
          if (rooks & ARB_BB(ARB_SQUARE(f, back))) rook = ARB_SQUARE(f, back);
      } else {
        int f = u - 'A';
        if (f != kf && (rooks & ARB_BB(ARB_SQUARE(f, back)))) rook = ARB_SQUARE(f, back);
      }
      if (rook != ARB_NO_SQUARE && (accept & ARB_FEN_READ_STANDARD) && ARB_FILE_OF(rook) != 0 &&
          ARB_FILE_OF(rook) != 7)
        rook = ARB_NO_SQUARE; /* standard chess: only the a- and h-rooks castle */
      if (rook == ARB_NO_SQUARE) {
        probs |= ARB_FEN_BAD_CASTLING;
        continue;
      }
      if (castling & ARB_BB(rook))
        return syntax_error(r, 3, fstart[2] + j, "castling right '%c' given twice", c);
      /* At most one right per side of the king: a second one is dropped and reported. */
      arb_bitboard side = ARB_FILE_OF(rook) > kf ? ~((ARB_BB(ARB_SQUARE(kf, back)) << 1) - 1)
                                                 : ((ARB_BB(ARB_SQUARE(kf, back))) - 1);
      if (castling & side & ARB_RANK_BB(back)) {
        probs |= ARB_FEN_BAD_CASTLING;
        continue;
      }
      castling |= ARB_BB(rook);
    }
  }
  p.castling_rooks = castling;
  /* Chess960 when the caller says so, or when a castling king or rook is not where standard
   * chess has them. */
  if (accept & ARB_FEN_READ_CHESS960) p.chess960 = 1;
  if (!(accept & ARB_FEN_READ_STANDARD) && arb__castling_is_960(&p, castling)) p.chess960 = 1;

  /* Field 4: en passant: kept as written (ep_target); validate() judges it. */
  if (!(flen[3] == 1 && fields[3][0] == '-')) {
    if (flen[3] != 2 || fields[3][0] < 'a' || fields[3][0] > 'h' || fields[3][1] < '1' ||
        fields[3][1] > '8')
      return syntax_error(r, 4, fstart[3], "en passant square must be '-' or a square like e3", 0);
    p.ep_target = ARB_SQUARE(fields[3][0] - 'a', fields[3][1] - '1');
    if (p.ep_target == 0) probs |= ARB_FEN_BAD_EN_PASSANT; /* a1: 0 would mean "none" */
  }

  /* Fields 5 and 6: counters (optional, EPD style). */
  if (nf > 4) {
    unsigned long v = 0;
    size_t e = parse_uint(s, fstart[4], fstart[4] + flen[4], 65535, &v);
    if (e != fstart[4] + flen[4])
      return syntax_error(r, 5, fstart[4], "halfmove clock must be a number from 0 to 65535", 0);
    p.halfmove_clock = (uint16_t)v;
  }
  if (nf > 5) {
    unsigned long v = 0;
    size_t e = parse_uint(s, fstart[5], fstart[5] + flen[5], 100000000, &v);
    if (e != fstart[5] + flen[5])
      return syntax_error(r, 6, fstart[5], "fullmove number must be a number from 1 to 100000000",
                          0);
    p.fullmove_number = v ? (uint32_t)v : 1; /* some writers use 0; the count starts at 1 */
  }

  arb_status st = validate(&p, probs, accept, r);
  if (st == ARB_OK) *out = p;
  return st;
}

arb_status arb_fen_read(arb_position *pos, const char *fen, uint32_t accept,
                        arb_fen_report *report) {
  return arb_fen_read_n(pos, fen, fen ? strlen(fen) : 0, accept, report);
}

/* True if rook r is the outermost castling-capable rook on its side (X-FEN K/Q suffice). */
static int outermost(const arb_position *p, arb_square r, arb_square k) {
  int c = r >= 56, back = ARB_RANK_OF(r);
  arb_bitboard rooks = p->by_type[ARB_ROOK] & p->by_color[c] & ARB_RANK_BB(back);
  for (int f = ARB_FILE_OF(r) + (r > k ? 1 : -1); f >= 0 && f < 8; f += (r > k ? 1 : -1))
    if (rooks & ARB_BB(ARB_SQUARE(f, back))) return 0;
  return 1;
}

int arb_fen_write(const arb_position *p, char *buf, size_t size, unsigned flags) {
  char tmp[ARB_FEN_MAX + 32];
  size_t n = 0;
  static const char letters[] = " PNBRQK  pnbrqk";
  for (int rank = 7; rank >= 0; rank--) {
    int empty = 0;
    for (int file = 0; file < 8; file++) {
      arb_piece pc = p->board[ARB_SQUARE(file, rank)];
      if (!pc) {
        empty++;
        continue;
      }
      if (empty) tmp[n++] = (char)('0' + empty);
      empty = 0;
      tmp[n++] = letters[pc];
    }
    if (empty) tmp[n++] = (char)('0' + empty);
    if (rank) tmp[n++] = '/';
  }
  tmp[n++] = ' ';
  tmp[n++] = p->turn == ARB_WHITE ? 'w' : 'b';
  tmp[n++] = ' ';
  if (!p->castling_rooks) {
    tmp[n++] = '-';
  } else {
    for (int c = 0; c < 2; c++) {
      arb_square k = arb__king_sq(p, c);
      /* King side first, then queen side (KQkq order). */
      for (int side = 0; side < 2; side++) {
        arb_bitboard rooks = p->castling_rooks & p->by_color[c];
        while (rooks) {
          arb_square r = arb__pop_lsb(&rooks);
          if ((r > k) != (side == 0)) continue;
          char ch;
          if (!(flags & ARB_FEN_OUT_SHREDDER) && outermost(p, r, k))
            ch = side == 0 ? 'K' : 'Q';
          else
            ch = (char)('A' + ARB_FILE_OF(r));
          tmp[n++] = c == ARB_WHITE ? ch : (char)(ch + ('a' - 'A'));
        }
      }
    }
  }
  tmp[n++] = ' ';
  arb_square ep = (flags & ARB_FEN_OUT_EP_ALWAYS) ? (p->ep_target ? p->ep_target : ARB_NO_SQUARE)
                  : arb_ep_legal(p)               ? p->ep_square
                                                  : ARB_NO_SQUARE;
  if (ep != ARB_NO_SQUARE) {
    tmp[n++] = (char)('a' + ARB_FILE_OF(ep));
    tmp[n++] = (char)('1' + ARB_RANK_OF(ep));
  } else {
    tmp[n++] = '-';
  }
  if (!(flags & ARB_FEN_OUT_EPD))
    n += (size_t)snprintf(tmp + n, sizeof tmp - n, " %u %lu", (unsigned)p->halfmove_clock,
                          (unsigned long)p->fullmove_number);
  tmp[n] = '\0';
  if (size) {
    size_t c = n < size ? n : size - 1;
    memcpy(buf, tmp, c);
    buf[c] = '\0';
  }
  return (int)n;
}
