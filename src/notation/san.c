/* Arbiter — MIT licence, see LICENSE.
 *
 * san.c: Standard Algebraic Notation out (minimal disambiguation) and in (lenient or strict).
 */
#include <stdio.h>
#include <string.h>

#include "arbiter/notation.h"
#include "board/board_internal.h"
#include "notation/text.h"

size_t arb__check_suffix(const arb_position *pos, arb_move m, char *out) {
  arb_position next = *pos;
  arb_undo u;
  arb_make_move(&next, m, &u);
  if (!arb_in_check(&next)) return 0;
  out[0] = arb_has_legal_move(&next) ? '+' : '#';
  return 1;
}

/* SAN without the check suffix. */
static size_t san_core(const arb_position *pos, arb_move m, char *t) {
  size_t n = 0;
  if (m == ARB_MOVE_NULL) {
    memcpy(t, "--", 2);
    return 2;
  }
  arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
  if (ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING) {
    const char *c = to > from ? "O-O" : "O-O-O";
    n = strlen(c);
    memcpy(t, c, n);
    return n;
  }
  arb_piece_type type = ARB_PIECE_TYPE(pos->board[from]);
  int capture = pos->board[to] != ARB_NO_PIECE || ARB_MOVE_KIND(m) == ARB_MOVE_EN_PASSANT;
  if (type == ARB_PAWN) {
    if (capture) {
      t[n++] = (char)('a' + ARB_FILE_OF(from));
      t[n++] = 'x';
    }
  } else {
    t[n++] = " PNBRQK"[type];
    /* Disambiguation: other pieces of this type that can legally reach the same square. */
    int others = 0, same_file = 0, same_rank = 0;
    const arb_bitboard occ = pos->by_type[0];
    arb_bitboard rivals = type == ARB_KNIGHT   ? arb__tab.knight[to]
                          : type == ARB_BISHOP ? arb__bishop_attacks(to, occ)
                          : type == ARB_ROOK   ? arb__rook_attacks(to, occ)
                          : type == ARB_QUEEN  ? arb__queen_attacks(to, occ)
                                               : 0;
    rivals &= pos->by_type[type] & pos->by_color[pos->turn] & ~ARB_BB(from);
    while (rivals) {
      arb_square o = arb__pop_lsb(&rivals);
      if (!arb__pseudo_move_legal(pos, ARB_MOVE_MAKE(o, to))) continue;
      others++;
      if (ARB_FILE_OF(o) == ARB_FILE_OF(from)) same_file = 1;
      if (ARB_RANK_OF(o) == ARB_RANK_OF(from)) same_rank = 1;
    }
    if (others) {
      if (!same_file) {
        t[n++] = (char)('a' + ARB_FILE_OF(from));
      } else if (!same_rank) {
        t[n++] = (char)('1' + ARB_RANK_OF(from));
      } else {
        n += arb__square_text(from, t + n);
      }
    }
    if (capture) t[n++] = 'x';
  }
  n += arb__square_text(to, t + n);
  if (ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION) {
    t[n++] = '=';
    t[n++] = " PNBRQK"[ARB_MOVE_PROMO(m)];
  }
  return n;
}

int arb_san_write(const arb_position *pos, arb_move m, char *buf, size_t size) {
  char t[16];
  if (m != ARB_MOVE_NULL && !arb_is_legal(pos, m)) {
    if (size) buf[0] = '\0';
    return ARB_ERR_MOVE_ILLEGAL;
  }
  size_t n = san_core(pos, m, t);
  if (m != ARB_MOVE_NULL) n += arb__check_suffix(pos, m, t + n);
  return arb__copy_out(t, n, buf, size);
}

int arb__san_format(const arb_position *pos, arb_move m, char mark, char *buf, size_t size) {
  char t[16];
  size_t n = san_core(pos, m, t);
  if (mark) t[n++] = mark;
  return arb__copy_out(t, n, buf, size);
}

static arb_status san_fail(arb_san_error *err, arb_status code, int column, const char *msg) {
  if (err) {
    err->code = code;
    err->column = column;
    snprintf(err->message, sizeof err->message, "%s", msg);
  }
  return code;
}

static int is_file(char c) { return c >= 'a' && c <= 'h'; }
static int is_rank(char c) { return c >= '1' && c <= '8'; }

/* The legal moves that fit a parsed SAN move: the piece `type` (a pawn without a file is a push:
 * from_file is then the destination's), optionally from a file and a rank (-1: any), to `dest`,
 * promoting to `promo` (0: none).  The first 8 into fits; returns how many fit. */
static int san_fits(const arb_position *pos, arb_piece_type type, int from_file, int from_rank,
                    int dest, int promo, arb_move *fits) {
  int found = 0;
  const int us = pos->turn;
  const arb_bitboard occ = pos->by_type[0], own = pos->by_color[us];
  const arb_bitboard opp = pos->by_color[us ^ 1];
  arb_bitboard cands = 0;
  switch (type) {
  case ARB_PAWN:
    if (from_file != ARB_FILE_OF(dest)) {
      /* A capture: onto a piece of the opponent or the en passant square. */
      if ((opp & ARB_BB(dest)) || dest == pos->ep_square) cands = arb__tab.pawn[us ^ 1][dest];
    } else if (!(occ & ARB_BB(dest))) {
      int back = us == ARB_WHITE ? -8 : 8;
      int one = dest + back;
      if (one >= 0 && one < 64) {
        if (occ & ARB_BB(one))
          cands = ARB_BB(one);
        else if (ARB_RANK_OF(dest) == (us == ARB_WHITE ? 3 : 4))
          cands = ARB_BB(one + back);
      }
    }
    break;
  case ARB_KNIGHT: cands = arb__tab.knight[dest]; break;
  case ARB_BISHOP: cands = arb__bishop_attacks_small((arb_square)dest, occ); break;
  case ARB_ROOK: cands = arb__rook_attacks_small((arb_square)dest, occ); break;
  case ARB_QUEEN:
    cands = arb__rook_attacks_small((arb_square)dest, occ) |
            arb__bishop_attacks_small((arb_square)dest, occ);
    break;
  default: cands = arb__tab.king[dest]; break; /* the small tables: see arb__pseudo_move_legal */
  }
  cands &= own & pos->by_type[type];
  /* The destination holds no piece of ours and never the opponent's king. */
  if (own & ARB_BB(dest) || (opp & pos->by_type[ARB_KING] & ARB_BB(dest))) cands = 0;
  const int last_rank = us == ARB_WHITE ? 7 : 0;
  while (cands) {
    arb_square from = arb__pop_lsb(&cands);
    if (from_file >= 0 && ARB_FILE_OF(from) != from_file) continue;
    if (from_rank >= 0 && ARB_RANK_OF(from) != from_rank) continue;
    arb_move m;
    if (type == ARB_PAWN && ARB_RANK_OF(dest) == last_rank) {
      if (!promo) continue;
      m = ARB_MOVE_MAKE_SPECIAL(from, dest, ARB_MOVE_PROMOTION, promo);
    } else if (promo) {
      continue;
    } else if (type == ARB_PAWN && dest == pos->ep_square && from_file != ARB_FILE_OF(dest)) {
      m = ARB_MOVE_MAKE_SPECIAL(from, dest, ARB_MOVE_EN_PASSANT, ARB_KNIGHT);
    } else {
      m = ARB_MOVE_MAKE(from, dest);
    }
    if (!arb__pseudo_move_legal(pos, m)) continue;
    if (found < 8) fits[found] = m;
    found++;
  }
  return found;
}

/* The legal castling move on the king's side (castle_side 1) or the queen's (2), or
 * ARB_MOVE_NONE: the king takes the rook on its side (the castling rights' rook). */
static arb_move castling_move(const arb_position *pos, int castle_side) {
  arb_move found = ARB_MOVE_NONE;
  const arb_square ksq = arb__king_sq(pos, pos->turn);
  for (arb_bitboard rooks = pos->castling_rooks & pos->by_color[pos->turn]; rooks;) {
    const arb_square r = arb__pop_lsb(&rooks);
    const arb_move m = ARB_MOVE_MAKE_SPECIAL(ksq, r, ARB_MOVE_CASTLING, ARB_KNIGHT);
    if ((r > ksq) == (castle_side == 1) && arb_is_legal(pos, m)) found = m;
  }
  return found;
}

/* Whether t[i, n) holds only the marks that may follow a move: [+ or #] [! and ?...]. */
static int marks_only(const char *t, size_t i, size_t n) {
  if (i < n && (t[i] == '+' || t[i] == '#')) i++;
  while (i < n && (t[i] == '!' || t[i] == '?'))
    i++;
  return i == n;
}

/* The common shapes of a move in one pass, lenient reading only: [NBRQK] [a-h] [1-8] [x] a-h 1-8
 * [=NBRQ] [+ or #] [! and ?...], and O-O or O-O-O [+ or #] [! and ?...], the optional parts as
 * written in PGN files.  1 and *move when the text has such a shape and exactly one legal move
 * fits; 0 otherwise — another shape (UCI text "e2e4", "0-0", null moves, lower-case pieces,
 * blanks ...) or no single move: then the general reading decides, and says why it fails.  What
 * it accepts, the general reading reads the same. */
static int san_common(const arb_position *pos, const char *t, size_t n, arb_move *move) {
  size_t i = 0;
  arb_piece_type type = ARB_PAWN;
  if (n >= 3 && t[0] == 'O' && t[1] == '-' && t[2] == 'O') { /* "O-O", "O-O-O" */
    i = n >= 5 && t[3] == '-' && t[4] == 'O' ? 5 : 3;
    if (!marks_only(t, i, n)) return 0;
    *move = castling_move(pos, i == 5 ? 2 : 1);
    return *move != ARB_MOVE_NONE;
  }
  switch (n ? t[0] : 0) {
  case 'N': type = ARB_KNIGHT; break;
  case 'B': type = ARB_BISHOP; break;
  case 'R': type = ARB_ROOK; break;
  case 'Q': type = ARB_QUEEN; break;
  case 'K': type = ARB_KING; break;
  default: break;
  }
  if (type != ARB_PAWN) i = 1;
  /* Up to two squares, each a file and a rank, the first one possibly partial. */
  int f1 = -1, r1 = -1, f2 = -1, r2 = -1, capture = 0;
  if (i < n && is_file(t[i])) f1 = t[i++] - 'a';
  if (i < n && is_rank(t[i])) r1 = t[i++] - '1';
  if (i < n && t[i] == 'x') capture = 1, i++;
  if (i < n && is_file(t[i])) f2 = t[i++] - 'a';
  if (i < n && is_rank(t[i])) r2 = t[i++] - '1';
  int dest, from_file, from_rank;
  if (f2 >= 0 && r2 >= 0) { /* two squares: the first is the origin, however partial */
    /* No origin: a piece's capture ("Bxf3"); a pawn's capture names the pawn's file. */
    if (f1 < 0 && r1 < 0 && type == ARB_PAWN) return 0;
    if (!capture && type == ARB_PAWN && f1 >= 0 && r1 >= 0) return 0; /* UCI-like: e2e4 */
    dest = ARB_SQUARE(f2, r2), from_file = f1, from_rank = r1;
  } else if (f2 < 0 && r2 < 0 && !capture && f1 >= 0 && r1 >= 0) {
    dest = ARB_SQUARE(f1, r1), from_file = -1, from_rank = -1;
  } else {
    return 0;
  }
  int promo = 0;
  if (i + 1 < n && t[i] == '=') {
    switch (t[i + 1]) {
    case 'N': promo = ARB_KNIGHT; break;
    case 'B': promo = ARB_BISHOP; break;
    case 'R': promo = ARB_ROOK; break;
    case 'Q': promo = ARB_QUEEN; break;
    default: return 0;
    }
    i += 2;
  }
  if (!marks_only(t, i, n) || (promo && type != ARB_PAWN)) return 0;
  if (type == ARB_PAWN && from_file < 0) from_file = ARB_FILE_OF(dest);
  arb_move fits[8];
  if (san_fits(pos, type, from_file, from_rank, dest, promo, fits) != 1) return 0;
  *move = fits[0];
  return 1;
}

arb_status arb_san_read(const arb_position *pos, const char *s, size_t len, unsigned flags,
                        arb_move *move, arb_san_error *err) {
  const int strict = (flags & ARB_SAN_STRICT) != 0;
  *move = ARB_MOVE_NONE;
  if (err) {
    memset(err, 0, sizeof *err);
    err->column = -1;
  }
  if (!s) return san_fail(err, ARB_ERR_ARGUMENT, -1, "no move text");
  if (!strict && san_common(pos, s, len, move)) return ARB_OK;
  if (memchr(s, '\0', len)) len = strlen(s);
  /* Trim blanks, then the annotation and check marks at the end. */
  size_t b = 0, e = len;
  while (b < e && (s[b] == ' ' || s[b] == '\t'))
    b++;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r' || s[e - 1] == '\n'))
    e--;
  /* Annotations ("!", "?", "!?" ...), check marks and, when lenient, "e.p." and blanks may
   * follow the move in any order: "e4!+", "exd6+ e.p.". */
  char check_mark = 0;
  for (;;) {
    size_t before = e;
    while (e > b && (s[e - 1] == '!' || s[e - 1] == '?'))
      e--;
    while (e > b && (s[e - 1] == '+' || s[e - 1] == '#')) {
      if (check_mark && strict)
        return san_fail(err, ARB_ERR_MOVE_SYNTAX, (int)e - 1, "repeated check mark");
      check_mark = s[--e];
    }
    if (!strict) {
      while (e > b && s[e - 1] == ' ')
        e--;
      if (e - b > 4 && memcmp(s + e - 4, "e.p.", 4) == 0)
        e -= 4;
      else if (e - b > 4 && memcmp(s + e - 2, "ep", 2) == 0 && is_rank(s[e - 3]))
        e -= 2;
    }
    if (e == before) break;
  }
  if (e == b) return san_fail(err, ARB_ERR_MOVE_SYNTAX, (int)b, "empty move");
  const char *t = s + b;
  size_t n = e - b;

  /* Null moves. */
  if ((n == 2 && memcmp(t, "--", 2) == 0) || (n == 2 && memcmp(t, "Z0", 2) == 0) ||
      (!strict &&
       ((n == 4 && memcmp(t, "0000", 4) == 0) || (n == 4 && memcmp(t, "null", 4) == 0)))) {
    if (!(flags & ARB_SAN_ALLOW_NULL))
      return san_fail(err, ARB_ERR_NULL_MOVE, (int)b, "null move not allowed");
    *move = ARB_MOVE_NULL;
    return ARB_OK;
  }

  /* The full list of legal moves is made only where it is needed: castling, strict checks and
   * error messages.  Ordinary moves are found from the named piece's candidates. */
  arb_move legal[ARB_MAX_MOVES];
  int nlegal = -1;

  /* Castling. */
  int castle_side = 0; /* 1 king side, 2 queen side */
  if ((n == 3 && memcmp(t, "O-O", 3) == 0) ||
      (!strict && n == 3 && (memcmp(t, "0-0", 3) == 0 || memcmp(t, "o-o", 3) == 0)))
    castle_side = 1;
  else if ((n == 5 && memcmp(t, "O-O-O", 5) == 0) ||
           (!strict && n == 5 && (memcmp(t, "0-0-0", 5) == 0 || memcmp(t, "o-o-o", 5) == 0)))
    castle_side = 2;
  if (castle_side) {
    *move = castling_move(pos, castle_side);
    if (*move == ARB_MOVE_NONE)
      return san_fail(err, ARB_ERR_MOVE_ILLEGAL, (int)b, "castling is not legal here");
    goto check_suffix;
  }

  /* Lenient fallback: UCI text. */
  if (!strict && arb__looks_like_uci(t, n) && arb_uci_read(pos, t, n, 0, move) == ARB_OK)
    goto check_suffix;

  {
    size_t i = 0;
    arb_piece_type type = ARB_PAWN;
    if (t[0] == 'N' || t[0] == 'B' || t[0] == 'R' || t[0] == 'Q' || t[0] == 'K') {
      type = (arb_piece_type)arb__promo_type(t[0]);
      if (t[0] == 'K') type = ARB_KING;
      i = 1;
    } else if (!strict && (t[0] == 'n' || t[0] == 'r' || t[0] == 'q' || t[0] == 'k')) {
      type = t[0] == 'k' ? ARB_KING : (arb_piece_type)arb__promo_type(t[0]);
      i = 1;
    } else if (!strict && t[0] == 'P') {
      i = 1;
    }
    /* Squares and separators: collect up to two file/rank pairs. */
    int files[3], ranks[3], nsq = 0, capture = 0;
    int cur_file = -1, cur_rank = -1;
    size_t dest_end = i;
    for (; i < n; i++) {
      char c = t[i];
      if (is_file(c)) {
        if (cur_file >= 0 || cur_rank >= 0) {
          if (nsq == 2) return san_fail(err, ARB_ERR_MOVE_SYNTAX, (int)(b + i), "too many squares");
          files[nsq] = cur_file;
          ranks[nsq] = cur_rank;
          nsq++;
          cur_rank = -1;
        }
        cur_file = c - 'a';
      } else if (is_rank(c)) {
        if (cur_rank >= 0)
          return san_fail(err, ARB_ERR_MOVE_SYNTAX, (int)(b + i), "unexpected rank digit");
        cur_rank = c - '1';
        dest_end = i + 1;
      } else if (c == 'x' || (!strict && (c == ':' || c == '-'))) {
        if (capture && strict)
          return san_fail(err, ARB_ERR_MOVE_SYNTAX, (int)(b + i), "repeated capture mark");
        if (cur_file >= 0 || cur_rank >= 0) {
          if (nsq == 2) return san_fail(err, ARB_ERR_MOVE_SYNTAX, (int)(b + i), "too many squares");
          files[nsq] = cur_file;
          ranks[nsq] = cur_rank;
          nsq++;
          cur_file = cur_rank = -1;
        }
        capture |= c != '-';
      } else {
        break;
      }
    }
    if (cur_file < 0 || cur_rank < 0) {
      /* The destination must end in a full square. */
      int col = (int)(b + (i < n ? i : n - 1));
      return san_fail(err, ARB_ERR_MOVE_SYNTAX, col, "no destination square");
    }
    (void)dest_end;
    int dest = ARB_SQUARE(cur_file, cur_rank);
    int from_file = nsq ? files[0] : -1, from_rank = nsq ? ranks[0] : -1;
    if (nsq > 1) return san_fail(err, ARB_ERR_MOVE_SYNTAX, (int)b, "too many squares");
    /* Promotion: "=Q", "Q", "/Q", "(Q)", or lower case when lenient. */
    int promo = 0;
    if (i < n) {
      char c = t[i];
      if (c == '=' || (!strict && (c == '/' || c == '('))) {
        if (i + 1 >= n || !(promo = arb__promo_type(t[i + 1])) || (strict && t[i + 1] >= 'a'))
          return san_fail(err, ARB_ERR_MOVE_SYNTAX, (int)(b + i), "bad promotion piece");
        i += 2;
        if (c == '(') {
          if (i >= n || t[i] != ')')
            return san_fail(err, ARB_ERR_MOVE_SYNTAX, (int)(b + i), "missing ')'");
          i++;
        }
      } else if (!strict && (promo = arb__promo_type(c))) {
        i++;
      }
      if (i < n) {
        char msg[64];
        snprintf(msg, sizeof msg, "unexpected character '%c'",
                 (unsigned char)t[i] >= 0x20 && (unsigned char)t[i] < 0x7f ? t[i] : '?');
        return san_fail(err, ARB_ERR_MOVE_SYNTAX, (int)(b + i), msg);
      }
    }
    if (promo && type != ARB_PAWN)
      return san_fail(err, ARB_ERR_MOVE_SYNTAX, (int)b, "only pawns promote");
    /* A pawn move without a file is a push: a capture always names the pawn's file. */
    if (type == ARB_PAWN && from_file < 0) from_file = cur_file;
    arb_move fits[8];
    int found = san_fits(pos, type, from_file, from_rank, dest, promo, fits);
    if (found == 1) *move = fits[0];
    if (err)
      for (int k = 0; k < found && k < 8; k++)
        err->candidates[k] = fits[k];
    if (found > 1) {
      *move = ARB_MOVE_NONE;
      if (err) err->candidates_count = found;
      char msg[128];
      size_t mlen = (size_t)snprintf(msg, sizeof msg, "ambiguous: %d moves fit (", found);
      for (int k = 0; k < found && k < 8 && err; k++) {
        char sq[4];
        arb__square_text(ARB_MOVE_FROM(err->candidates[k]), sq);
        sq[2] = '\0';
        mlen += (size_t)snprintf(msg + mlen, mlen < sizeof msg ? sizeof msg - mlen : 0, "%s%s",
                                 k ? ", from " : "from ", sq);
        if (mlen >= sizeof msg) break;
      }
      if (mlen < sizeof msg - 1) snprintf(msg + mlen, sizeof msg - mlen, ")");
      return san_fail(err, ARB_ERR_MOVE_AMBIGUOUS, (int)b, msg);
    }
    if (!found) {
      /* A pawn move to the last rank without a piece is a missing promotion. */
      nlegal = arb_generate_legal(pos, legal);
      for (int k = 0; k < nlegal; k++)
        if (ARB_MOVE_KIND(legal[k]) == ARB_MOVE_PROMOTION && ARB_MOVE_TO(legal[k]) == dest &&
            type == ARB_PAWN && !promo)
          return san_fail(err, ARB_ERR_MOVE_ILLEGAL, (int)b,
                          "a pawn reaching the last rank must promote (add =Q, =R, =B or =N)");
      return san_fail(err, ARB_ERR_MOVE_ILLEGAL, (int)b, "no legal move fits");
    }
    if (strict) {
      char want[16];
      size_t wn = san_core(pos, *move, want);
      if (wn != n || memcmp(want, t, n) != 0) {
        char msg[96];
        want[wn] = '\0';
        snprintf(msg, sizeof msg, "not strict SAN: expected \"%s\"", want);
        *move = ARB_MOVE_NONE;
        return san_fail(err, ARB_ERR_MOVE_SYNTAX, (int)b, msg);
      }
    }
  }

check_suffix:
  if (strict && check_mark) {
    char suf[2] = {0, 0};
    arb__check_suffix(pos, *move, suf);
    if (suf[0] != check_mark) {
      *move = ARB_MOVE_NONE;
      return san_fail(err, ARB_ERR_MOVE_SYNTAX, (int)e,
                      suf[0] ? "wrong check mark" : "the move gives no check");
    }
  }
  return ARB_OK;
}

arb_status arb_move_read(const arb_position *pos, const char *text, size_t len, unsigned flags,
                         arb_move *move, arb_san_error *err) {
  if (text && arb__looks_like_uci(text, len)) {
    arb_status st = arb_uci_read(pos, text, len, (flags & ARB_SAN_ALLOW_NULL) != 0, move);
    if (st == ARB_OK || st == ARB_ERR_NULL_MOVE) {
      if (err) {
        memset(err, 0, sizeof *err);
        err->code = st;
        err->column = st ? 0 : -1;
        if (st) snprintf(err->message, sizeof err->message, "null move not allowed");
      }
      return st;
    }
  }
  return arb_san_read(pos, text, len, flags, move, err);
}
