/* Arbiter — MIT licence, see LICENSE.
 *
 * explain.c: why a move is illegal (explain.h).
 *
 * The move is judged the way the Laws build a move up: the piece and whose it is, the piece's
 * own way of moving (3.2-3.8), the squares it passes and lands on (3.1, 3.5, 3.7), promotion
 * (3.7.3.3) and last the king's safety (3.9.2).  The king's safety is decided as the move
 * generator decides it — the board after the move, asked which enemy pieces attack the king —
 * and castling repeats the generator's conditions one by one, so that "legal" here is exactly
 * "in arb_generate_legal" (the tests check this over random games and random boards).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arbiter/explain.h"
#include "board/board_internal.h"

const char *arb_illegal_name(arb_illegal reason) {
  switch (reason) {
#define ARB_ILLEGAL_NAME_(name, value, code)                                                       \
  case name: return code;
    ARB_ILLEGAL_LIST(ARB_ILLEGAL_NAME_)
#undef ARB_ILLEGAL_NAME_
  }
  return NULL;
}

/* ---- words ---- */

static const char *const type_names[7] = {"piece", "pawn",  "knight", "bishop",
                                          "rook",  "queen", "king"};
static const char *const colour_names[2] = {"White", "Black"};

/* Texts built in the caller's frame (no static buffers): C11 keeps these temporaries alive to
 * the end of the full expression, long enough for a printf argument. */
typedef struct sq_text {
  char s[3];
} sq_text;
static sq_text sq(arb_square s) {
  sq_text t = {{(char)('a' + ARB_FILE_OF(s)), (char)('1' + ARB_RANK_OF(s)), '\0'}};
  return t;
}

typedef struct piece_text {
  char s[24];
} piece_text;
/* "the bishop on b5" */
static piece_text the(const arb_position *p, arb_square s) {
  piece_text t;
  snprintf(t.s, sizeof t.s, "the %s on %s", type_names[ARB_PIECE_TYPE(p->board[s])], sq(s).s);
  return t;
}

/* The article of a piece's own way of moving. */
static const char *move_article(arb_piece_type type) {
  switch (type) {
  case ARB_BISHOP: return "3.2";
  case ARB_ROOK: return "3.3";
  case ARB_QUEEN: return "3.4";
  case ARB_KNIGHT: return "3.6";
  case ARB_PAWN: return "3.7";
  default: return "3.8";
  }
}

typedef struct ctx {
  const arb_position *p;
  arb_move_explanation *out;
  int us, them;
  arb_square from, to;
} ctx;

/* Records the verdict: reason, article, the deciding square (its piece comes from the board)
 * and the message. */
static void say(const ctx *c, arb_illegal reason, const char *article, arb_square square,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void say(const ctx *c, arb_illegal reason, const char *article, arb_square square,
                const char *fmt, ...) {
  arb_move_explanation *o = c->out;
  o->reason = reason;
  o->article = article;
  o->square = square;
  o->piece = square < 64 ? c->p->board[square] : ARB_NO_PIECE;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(o->message, sizeof o->message, fmt, ap);
  va_end(ap);
}

/* The attacker to name among several: the lowest square, so that answers are reproducible. */
static arb_square pick(arb_bitboard b) { return arb__lsb(b); }

/* The first occupied square of `between` seen from `from` towards `to`. */
static arb_square nearest(arb_bitboard b, arb_square from, arb_square to) {
  return to > from ? arb__lsb(b) : (arb_square)(63 - __builtin_clzll(b));
}

static void legal(const ctx *c, arb_move m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void legal(const ctx *c, arb_move m, const char *fmt, ...) {
  arb_move_explanation *o = c->out;
  o->reason = ARB_MOVE_LEGAL;
  o->article = "3.10.1";
  o->square = c->from;
  o->piece = c->p->board[c->from];
  o->move = m;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(o->message, sizeof o->message, fmt, ap);
  va_end(ap);
}

/* ---- castling ---- */

static const char *side_name(arb_square king, arb_square rook) {
  return rook > king ? "kingside" : "queenside";
}

/* The generator's castling conditions for the rook on r, in the order the Laws give them: not
 * in check, nothing between (nor on the destinations, Chess960), the king crossing no attacked
 * square and not landing on one.  Fills in the verdict either way; returns 1 when legal. */
static int castle(const ctx *c, arb_square r) {
  const arb_position *p = c->p;
  const arb_square k = c->from;
  const arb_bitboard occ = p->by_type[0];
  const char *side = side_name(k, r), *who = colour_names[c->us];
  const arb_square kto = arb__castle_king_to(c->us, k, r), rto = arb__castle_rook_to(c->us, k, r);
  arb_bitboard checkers = arb__attackers_by(p, k, c->them, occ);
  if (checkers) {
    arb_square a = pick(checkers);
    say(c, ARB_ILLEGAL_CASTLING_OUT_OF_CHECK, "3.8.2.2", a,
        "%s may not castle while in check, and the king is in check from %s", who, the(p, a).s);
    return 0;
  }
  const arb_bitboard need_empty =
      (arb__tab.between[k][kto] | ARB_BB(kto) | arb__tab.between[r][rto] | ARB_BB(rto)) &
      ~(ARB_BB(k) | ARB_BB(r));
  if (need_empty & occ) {
    arb_bitboard between = arb__tab.between[k][r] & occ;
    if (between) {
      arb_square b = nearest(between, k, r);
      say(c, ARB_ILLEGAL_CASTLING_PATH_OCCUPIED, "3.8.2.2", b,
          "%s may not castle %s: %s stands between the king and the rook on %s", who, side,
          the(p, b).s, sq(r).s);
    } else {
      arb_square b = pick(need_empty & occ);
      say(c, ARB_ILLEGAL_CASTLING_PATH_OCCUPIED, "3.8.2.2", b,
          "%s may not castle %s: %s stands on a square the king or the rook must move to", who,
          side, the(p, b).s);
    }
    return 0;
  }
  /* The squares the king crosses, from the king outwards. */
  arb_bitboard path = arb__tab.between[k][kto];
  while (path) {
    arb_square s = nearest(path, k, kto);
    path &= ~ARB_BB(s);
    arb_bitboard att = arb__attackers_by(p, s, c->them, occ);
    if (att) {
      arb_square a = pick(att);
      say(c, ARB_ILLEGAL_CASTLING_THROUGH_CHECK, "3.8.2.2", a,
          "%s may not castle %s: the king would pass through %s, which %s attacks", who, side,
          sq(s).s, the(p, a).s);
      c->out->attacked = s;
      return 0;
    }
  }
  /* The destination once the rook has left its square (Chess960: the rook may have shielded
   * it). */
  arb_bitboard att = arb__attackers_by(p, kto, c->them, occ ^ ARB_BB(r));
  if (att) {
    arb_square a = pick(att);
    if (kto == k)
      say(c, ARB_ILLEGAL_CASTLING_INTO_CHECK, "3.8.2.2", a,
          "%s may not castle %s: the king would stay on %s, which %s attacks once the rook has "
          "moved",
          who, side, sq(kto).s, the(p, a).s);
    else
      say(c, ARB_ILLEGAL_CASTLING_INTO_CHECK, "3.8.2.2", a,
          "%s may not castle %s: the king would land on %s, which %s attacks", who, side, sq(kto).s,
          the(p, a).s);
    c->out->attacked = kto;
    return 0;
  }
  legal(c, ARB_MOVE_MAKE_SPECIAL(k, r, ARB_MOVE_CASTLING, ARB_KNIGHT),
        "%s may castle %s: the king goes to %s and the rook from %s to %s", who, side, sq(kto).s,
        sq(r).s, sq(rto).s);
  return 1;
}

/* A single step of the king from -> to by its own rules is legal. */
static int king_step_legal(const ctx *c) {
  const arb_position *p = c->p;
  const arb_bitboard to_bb = ARB_BB(c->to);
  if (!(arb__tab.king[c->from] & to_bb) || (p->by_color[c->us] & to_bb) ||
      (p->by_type[ARB_KING] & to_bb))
    return 0;
  return arb__attackers_by(p, c->to, c->them, p->by_type[0] ^ ARB_BB(c->from)) == 0;
}

/* A king's move that may be castling: onto its own rook (king takes rook) or to a castling
 * destination.  Returns 1 when it has explained the move, 0 when the move is to be judged as
 * an ordinary king move. */
static int explain_castling(const ctx *c) {
  const arb_position *p = c->p;
  const arb_square k = c->from, to = c->to;
  const int back = c->us == ARB_WHITE ? 0 : 7;
  if (ARB_RANK_OF(k) != back || ARB_RANK_OF(to) != back) return 0;
  const char *who = colour_names[c->us];
  const int rook_at_to = p->board[to] == ARB_MAKE_PIECE(c->us, ARB_ROOK);
  const arb_bitboard rights = p->castling_rooks & p->by_color[c->us] & ARB_RANK_BB(back);

  /* The rights this text can name: as arb_uci_read, king takes rook or the king's
   * destination. */
  arb_bitboard candidates = 0;
  for (arb_bitboard b = rights; b;) {
    arb_square r = arb__pop_lsb(&b);
    if (to == r || to == arb__castle_king_to(c->us, k, r)) candidates |= ARB_BB(r);
  }
  int shaped;
  if (p->chess960)
    shaped = rook_at_to || ARB_FILE_OF(to) == 6 || ARB_FILE_OF(to) == 2;
  else
    shaped =
        ARB_FILE_OF(k) == 4 && (ARB_FILE_OF(to) == 6 || ARB_FILE_OF(to) == 2 ||
                                (rook_at_to && (ARB_FILE_OF(to) == 0 || ARB_FILE_OF(to) == 7)));
  if (!candidates && !shaped) return 0;

  /* A one-square step is also an ordinary king move (Chess960: f1g1 with the rook on h1);
   * that reading comes first, as in arb_uci_read. */
  const int step = (to == k + 1 || to == k - 1) && !rook_at_to;
  if (step && king_step_legal(c)) return 0;
  for (arb_bitboard b = candidates; b;) {
    arb_move_explanation saved = *c->out;
    if (castle(c, arb__pop_lsb(&b))) return 1;
    *c->out = saved;
  }
  /* Both readings illegal: a capture, or a step with no right to castle that way, is a king
   * move. */
  if (step && (p->board[to] || !candidates)) return 0;
  if (candidates) {
    castle(c, arb__lsb(candidates));
    return 1;
  }
  /* No right that fits: lost by a king or rook move (3.8.2.1); the FEN's rights tell which. */
  const int kingside = rook_at_to ? to > k : ARB_FILE_OF(to) == 6;
  const char *side = kingside ? "kingside" : "queenside";
  if (!rights) {
    say(c, ARB_ILLEGAL_CASTLING_KING_MOVED, "3.8.2.1", k,
        "%s may no longer castle: the king has already moved (no castling right is left)", who);
    return 1;
  }
  arb_bitboard same_side = 0;
  for (arb_bitboard b = rights; b;) {
    arb_square r = arb__pop_lsb(&b);
    if ((r > k) == kingside) same_side |= ARB_BB(r);
  }
  if (rook_at_to && same_side) {
    say(c, ARB_ILLEGAL_CASTLING_ROOK_MOVED, "3.8.2.1", to,
        "%s has moved, so %s may not castle with it; %s castles %s only with the rook on %s",
        the(p, to).s, who, who, side, sq(arb__lsb(same_side)).s);
  } else if (rook_at_to || p->chess960) {
    say(c, ARB_ILLEGAL_CASTLING_ROOK_MOVED, "3.8.2.1", rook_at_to ? to : ARB_NO_SQUARE,
        "%s's %s rook has already moved, so %s may no longer castle %s", who, side, who, side);
  } else {
    const arb_square home = (arb_square)(8 * back + (kingside ? 7 : 0));
    say(c, ARB_ILLEGAL_CASTLING_ROOK_MOVED, "3.8.2.1", p->board[home] ? home : ARB_NO_SQUARE,
        "%s's rook from %s has moved or been captured, so %s may no longer castle %s", who,
        sq(home).s, who, side);
  }
  return 1;
}

/* ---- ordinary moves ---- */

/* The king's safety after a move that the piece's own rules allow (3.9.2).  captured: the
 * square of the piece taken (en passant: beside the pawn), or ARB_NO_SQUARE. */
static void judge_safety(const ctx *c, arb_square captured, arb_move m) {
  const arb_position *p = c->p;
  const arb_square from = c->from, to = c->to;
  const arb_piece_type type = ARB_PIECE_TYPE(p->board[from]);
  const arb_bitboard cap = captured < 64 ? ARB_BB(captured) : 0;
  const arb_bitboard occ = p->by_type[0], after = (occ & ~ARB_BB(from) & ~cap) | ARB_BB(to);
  const arb_square own_king = arb__king_sq(p, c->us);
  const arb_square ksq = type == ARB_KING ? to : own_king;
  const arb_bitboard att = arb__attackers_by(p, ksq, c->them, after) & ~cap;
  const arb_bitboard checkers = arb__attackers_by(p, own_king, c->them, occ);

  if (!att) {
    const arb_piece_type promo = ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION ? ARB_MOVE_PROMO(m) : 0;
    const char *tn = type_names[type];
    if (ARB_MOVE_KIND(m) == ARB_MOVE_EN_PASSANT)
      legal(c, m, "the pawn on %s may take %s en passant, landing on %s", sq(from).s,
            the(p, captured).s, sq(to).s);
    else if (captured < 64 && promo)
      legal(c, m, "the pawn on %s may take %s and become a %s", sq(from).s, the(p, to).s,
            type_names[promo]);
    else if (captured < 64)
      legal(c, m, "the %s on %s may take %s", tn, sq(from).s, the(p, to).s);
    else if (promo)
      legal(c, m, "the pawn on %s may advance to %s and become a %s", sq(from).s, sq(to).s,
            type_names[promo]);
    else
      legal(c, m, "the %s on %s may move to %s", tn, sq(from).s, sq(to).s);
    return;
  }

  if (type == ARB_KING) {
    const arb_bitboard kings = att & p->by_type[ARB_KING];
    if (kings) {
      arb_square a = pick(kings);
      say(c, ARB_ILLEGAL_KING_NEXT_TO_KING, "3.9.2", a,
          "the king may not stand next to the other king: on %s it would be in check from %s",
          sq(to).s, the(p, a).s);
    } else if (att & checkers) {
      arb_square a = pick(att & checkers);
      say(c, ARB_ILLEGAL_KING_INTO_CHECK, "3.9.2", a,
          "the king would still be in check on %s, from %s", sq(to).s, the(p, a).s);
    } else {
      arb_square a = pick(att);
      say(c, ARB_ILLEGAL_KING_INTO_CHECK, "3.9.2", a, "the king would be in check on %s from %s",
          sq(to).s, the(p, a).s);
    }
    return;
  }

  const arb_bitboard still = att & checkers;
  if (checkers && still) {
    arb_square a = pick(still);
    if (arb__more_than_one(checkers)) {
      arb_bitboard rest = checkers & ~ARB_BB(a);
      say(c, ARB_ILLEGAL_LEAVES_KING_IN_CHECK, "3.9.2", a,
          "the king is in double check, from %s and %s, and only a king move can answer it",
          the(p, a).s, the(p, pick(rest)).s);
    } else {
      say(c, ARB_ILLEGAL_LEAVES_KING_IN_CHECK, "3.9.2", a,
          "the king is in check from %s and this move does not stop it", the(p, a).s);
    }
    return;
  }
  const arb_square a = pick(att);
  if (arb_pinned(p, (arb_color)c->us) & ARB_BB(from)) {
    say(c, ARB_ILLEGAL_PINNED, "3.9.2", a,
        "%s is pinned: moving it would expose the king to check from %s", the(p, from).s,
        the(p, a).s);
  } else if (ARB_MOVE_KIND(m) == ARB_MOVE_EN_PASSANT) {
    say(c, ARB_ILLEGAL_EXPOSES_KING, "3.9.2", a,
        "taking en passant removes the pawn on %s as well and would expose the king to check "
        "from %s",
        sq(captured).s, the(p, a).s);
  } else {
    say(c, ARB_ILLEGAL_EXPOSES_KING, "3.9.2", a, "the move would expose the king to check from %s",
        the(p, a).s);
  }
}

/* After the piece's own rules: the enemy king on the target, promotion, the king's safety. */
static void judge_rest(const ctx *c, arb_piece_type promotion, int en_passant) {
  const arb_position *p = c->p;
  const arb_square from = c->from, to = c->to;
  const arb_piece_type type = ARB_PIECE_TYPE(p->board[from]);
  if (p->board[to] == ARB_MAKE_PIECE(c->them, ARB_KING)) {
    say(c, ARB_ILLEGAL_KING_CAPTURE, "1.4.1", to, "the king on %s may not be captured", sq(to).s);
    return;
  }
  arb_move m = ARB_MOVE_MAKE(from, to);
  if (type == ARB_PAWN) {
    const int last = ARB_RANK_OF(to) == (c->us == ARB_WHITE ? 7 : 0);
    if (last && !promotion) {
      say(c, ARB_ILLEGAL_PROMOTION_NEEDS_PIECE, "3.7.3.3", from,
          "the pawn reaching %s must become a queen, rook, bishop or knight as part of the move: "
          "name the piece (%s%sq)",
          sq(to).s, sq(from).s, sq(to).s);
      return;
    }
    if (!last && promotion) {
      say(c, ARB_ILLEGAL_PROMOTION_NOT_ALLOWED, "3.7.3.3", from,
          "a pawn is promoted only on reaching the last rank, and %s is not on it", sq(to).s);
      return;
    }
    if (promotion == ARB_PAWN || promotion == ARB_KING) {
      say(c, ARB_ILLEGAL_PROMOTION_WRONG_PIECE, "3.7.3.3", from,
          "a pawn reaching the last rank becomes a queen, rook, bishop or knight, %s",
          promotion == ARB_KING ? "never a king" : "and may not stay a pawn");
      return;
    }
    if (promotion) m = ARB_MOVE_MAKE_SPECIAL(from, to, ARB_MOVE_PROMOTION, promotion);
    if (en_passant) m = ARB_MOVE_MAKE_SPECIAL(from, to, ARB_MOVE_EN_PASSANT, ARB_KNIGHT);
  }
  arb_square captured = p->board[to] ? to : ARB_NO_SQUARE;
  if (en_passant) captured = (arb_square)(to ^ 8);
  judge_safety(c, captured, m);
}

/* A pawn's move (3.7). */
static void explain_pawn(const ctx *c, arb_piece_type promotion) {
  const arb_position *p = c->p;
  const arb_square from = c->from, to = c->to;
  const int white = c->us == ARB_WHITE;
  const int fwd = white ? 8 : -8;
  const int df = ARB_FILE_OF(to) - ARB_FILE_OF(from);
  const int dr = (ARB_RANK_OF(to) - ARB_RANK_OF(from)) * (white ? 1 : -1);
  const int start = ARB_RANK_OF(from) == (white ? 1 : 6);
  enum { PUSH, DOUBLE, DIAGONAL } shape;
  if (df == 0 && dr == 1) {
    shape = PUSH;
  } else if (df == 0 && dr == 2 && start) {
    shape = DOUBLE;
  } else if ((df == 1 || df == -1) && dr == 1) {
    shape = DIAGONAL;
  } else if (df == 0 && dr == 2) {
    say(c, ARB_ILLEGAL_PIECE_DOES_NOT_MOVE_SO, "3.7.2", from,
        "the pawn on %s may not advance two squares: a pawn does so only on its first move, "
        "from its starting rank",
        sq(from).s);
    return;
  } else if (dr <= 0) {
    say(c, ARB_ILLEGAL_PIECE_DOES_NOT_MOVE_SO, "3.7", from,
        "the pawn on %s cannot move to %s: a pawn moves only forward, never back or sideways",
        sq(from).s, sq(to).s);
    return;
  } else {
    say(c, ARB_ILLEGAL_PIECE_DOES_NOT_MOVE_SO, "3.7", from,
        "the pawn on %s cannot move to %s: a pawn advances one square (two from its starting "
        "rank) and captures one square diagonally forward",
        sq(from).s, sq(to).s);
    return;
  }
  if (p->by_color[c->us] & ARB_BB(to)) {
    say(c, ARB_ILLEGAL_OWN_PIECE_ON_TARGET, "3.1", to,
        "%s's own %s stands on %s, and no piece may move to a square occupied by a piece of its "
        "own colour",
        colour_names[c->us], type_names[ARB_PIECE_TYPE(p->board[to])], sq(to).s);
    return;
  }
  int en_passant = 0;
  if (shape == PUSH && p->board[to]) {
    say(c, ARB_ILLEGAL_PAWN_BLOCKED, "3.7.1", to,
        "%s stands in front of the pawn on %s: a pawn advances only onto an empty square and "
        "captures diagonally",
        the(p, to).s, sq(from).s);
    return;
  }
  if (shape == DOUBLE) {
    const arb_square mid = (arb_square)(from + fwd);
    if (p->board[mid]) {
      say(c, ARB_ILLEGAL_PATH_BLOCKED, "3.7.2", mid,
          "%s stands in the way: a pawn advances two squares only when both are empty",
          the(p, mid).s);
      return;
    }
    if (p->board[to]) {
      say(c, ARB_ILLEGAL_PAWN_BLOCKED, "3.7.2", to,
          "%s stands on %s: a pawn advances two squares only when both are empty", the(p, to).s,
          sq(to).s);
      return;
    }
  }
  if (shape == DIAGONAL && !p->board[to]) {
    const arb_square beside = (arb_square)(to ^ 8), origin = (arb_square)(to + fwd);
    if (to == p->ep_square) {
      en_passant = 1;
    } else if (ARB_RANK_OF(to) == (white ? 5 : 2) &&
               p->board[beside] == ARB_MAKE_PIECE(c->them, ARB_PAWN) && !p->board[origin]) {
      if (p->ep_square < 64)
        say(c, ARB_ILLEGAL_EN_PASSANT_EXPIRED, "3.7.3.2", beside,
            "the pawn on %s could be taken en passant only on the move right after its "
            "two-square advance; only the pawn on %s has just made one",
            sq(beside).s, sq((arb_square)(p->ep_square ^ 8)).s);
      else
        say(c, ARB_ILLEGAL_EN_PASSANT_EXPIRED, "3.7.3.2", beside,
            "the pawn on %s could be taken en passant only on the move right after its "
            "two-square advance, and that was not the last move",
            sq(beside).s);
      return;
    } else {
      say(c, ARB_ILLEGAL_PIECE_DOES_NOT_MOVE_SO, "3.7.3", from,
          "the pawn on %s moves diagonally only to capture, and %s is empty", sq(from).s, sq(to).s);
      return;
    }
  }
  judge_rest(c, promotion, en_passant);
}

/* A knight, bishop, rook, queen or king (not castling). */
static void explain_piece(const ctx *c) {
  const arb_position *p = c->p;
  const arb_square from = c->from, to = c->to;
  const arb_piece_type type = ARB_PIECE_TYPE(p->board[from]);
  const arb_bitboard to_bb = ARB_BB(to);
  static const char *const how[7] = {
      "",
      "",
      "a knight jumps two squares along a rank or file and then one square to the side",
      "a bishop moves along a diagonal",
      "a rook moves along a file or a rank",
      "a queen moves along a file, a rank or a diagonal",
      "the king moves one square in any direction (castling apart)"};
  if (!(arb__piece_attacks(type, from, 0) & to_bb)) {
    say(c, ARB_ILLEGAL_PIECE_DOES_NOT_MOVE_SO, type == ARB_KING ? "3.8.1" : move_article(type),
        from, "the %s on %s cannot move to %s: %s", type_names[type], sq(from).s, sq(to).s,
        how[type]);
    return;
  }
  if (p->by_color[c->us] & to_bb) {
    say(c, ARB_ILLEGAL_OWN_PIECE_ON_TARGET, "3.1", to,
        "%s's own %s stands on %s, and no piece may move to a square occupied by a piece of its "
        "own colour",
        colour_names[c->us], type_names[ARB_PIECE_TYPE(p->board[to])], sq(to).s);
    return;
  }
  const arb_bitboard blockers = arb__tab.between[from][to] & p->by_type[0];
  if (type != ARB_KNIGHT && type != ARB_KING && blockers) {
    arb_square b = nearest(blockers, from, to);
    say(c, ARB_ILLEGAL_PATH_BLOCKED, "3.5", b,
        "%s stands between the %s on %s and %s: a bishop, rook or queen may not move over "
        "another piece",
        the(p, b).s, type_names[type], sq(from).s, sq(to).s);
    return;
  }
  judge_rest(c, ARB_NO_TYPE, 0);
}

static arb_status explain(const arb_position *pos, int player, arb_square from, arb_square to,
                          arb_piece_type promotion, arb_move_explanation *out) {
  if (out) {
    memset(out, 0, sizeof *out);
    out->reason = ARB_ILLEGAL_NO_PIECE;
    out->article = "";
    out->square = out->attacked = ARB_NO_SQUARE;
  }
  if (!pos || !out || from > 63 || to > 63 || (unsigned)promotion > ARB_KING ||
      (player >= 0 && player != ARB_WHITE && player != ARB_BLACK))
    return ARB_ERR_ARGUMENT;
  const ctx c = {pos, out, pos->turn, pos->turn ^ 1, from, to};
  const arb_piece pc = pos->board[from];
  if (player >= 0 && player != pos->turn) {
    say(&c, ARB_ILLEGAL_NOT_YOUR_TURN, "1.2", ARB_NO_SQUARE,
        "it is %s's turn to move, not %s's: the players move alternately", colour_names[pos->turn],
        colour_names[player]);
    return ARB_OK;
  }
  if (!pc) {
    say(&c, ARB_ILLEGAL_NO_PIECE, "", from, "there is no piece on %s", sq(from).s);
    return ARB_OK;
  }
  if ((int)ARB_PIECE_COLOR(pc) != c.us) {
    say(&c, ARB_ILLEGAL_NOT_YOUR_PIECE, "1.1", from, "%s is %s's, and %s is to move",
        the(pos, from).s, colour_names[c.them], colour_names[c.us]);
    return ARB_OK;
  }
  const arb_piece_type type = ARB_PIECE_TYPE(pc);
  if (promotion && type != ARB_PAWN) {
    say(&c, ARB_ILLEGAL_PROMOTION_NOT_ALLOWED, "3.7.3.3", from,
        "only a pawn reaching the last rank is promoted, and %s is not a pawn", the(pos, from).s);
    return ARB_OK;
  }
  if (type == ARB_KING && explain_castling(&c)) return ARB_OK;
  if (from == to) {
    say(&c, ARB_ILLEGAL_SAME_SQUARE, move_article(type), from,
        "%s would stay where it is: a move takes a piece to another square", the(pos, from).s);
    return ARB_OK;
  }
  if (type == ARB_PAWN)
    explain_pawn(&c, promotion);
  else
    explain_piece(&c);
  return ARB_OK;
}

arb_status arb_move_explain(const arb_position *pos, arb_square from, arb_square to,
                            arb_piece_type promotion, arb_move_explanation *out) {
  return explain(pos, -1, from, to, promotion, out);
}

arb_status arb_move_explain_for(const arb_position *pos, arb_color player, arb_square from,
                                arb_square to, arb_piece_type promotion,
                                arb_move_explanation *out) {
  if ((int)player != ARB_WHITE && (int)player != ARB_BLACK) {
    explain(NULL, -1, 0, 0, ARB_NO_TYPE, out);
    return ARB_ERR_ARGUMENT;
  }
  return explain(pos, (int)player, from, to, promotion, out);
}

static int read_square(const char *s, arb_square *out) {
  char f = s[0] >= 'A' && s[0] <= 'H' ? (char)(s[0] - 'A' + 'a') : s[0];
  if (f < 'a' || f > 'h' || s[1] < '1' || s[1] > '8') return 0;
  *out = ARB_SQUARE(f - 'a', s[1] - '1');
  return 1;
}

arb_status arb_uci_read_squares(const char *text, size_t len, arb_square *from, arb_square *to,
                                arb_piece_type *promotion) {
  if (!text || !from || !to || !promotion) return ARB_ERR_ARGUMENT;
  arb_square a, b;
  if ((len != 4 && len != 5) || !read_square(text, &a) || !read_square(text + 2, &b))
    return ARB_ERR_MOVE_SYNTAX;
  arb_piece_type promo = ARB_NO_TYPE;
  if (len == 5) {
    const char *letters = "pnbrqk", *at;
    char l = text[4] >= 'A' && text[4] <= 'Z' ? (char)(text[4] - 'A' + 'a') : text[4];
    if (!l || !(at = strchr(letters, l))) return ARB_ERR_MOVE_SYNTAX;
    promo = (arb_piece_type)(at - letters + 1);
  }
  *from = a;
  *to = b;
  *promotion = promo;
  return ARB_OK;
}

arb_status arb_move_explain_uci(const arb_position *pos, const char *text, size_t len,
                                arb_move_explanation *out) {
  arb_square from, to;
  arb_piece_type promo;
  arb_status st = arb_uci_read_squares(text, len, &from, &to, &promo);
  if (st != ARB_OK) {
    explain(NULL, -1, 0, 0, ARB_NO_TYPE, out);
    return st;
  }
  return explain(pos, -1, from, to, promo, out);
}
