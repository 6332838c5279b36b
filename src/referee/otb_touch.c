/* Arbiter — MIT licence, see LICENSE.
 *
 * otb_touch.c: Article 4 over the board — what the player having the move is bound to by
 * what he touched (4.3 touch-move, 4.4 castling and promotion touches, 4.5, 4.7.2 the king
 * released on its castling square, 9.5.2 a wrong claim's move), whether a touch was seen by
 * the sensors, and what a deliberate touch makes lapse (4.8, 9.1.2.2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "referee/otb_internal.h"

int arb__otb_castle_side_of(arb_move m) {
  return ARB_FILE_OF(ARB_MOVE_TO(m)) > ARB_FILE_OF(ARB_MOVE_FROM(m));
}

static int is_castling_rook(const arb_position *p, arb_square sq) {
  return (p->castling_rooks >> sq) & 1u;
}

static void add_allowed(arb_otb_obligation *ob, arb_move m) {
  for (int i = 0; i < ob->allowed_count; i++)
    if (ob->allowed[i] == m) return;
  ob->allowed[ob->allowed_count++] = m;
}

/* Moves of the piece on sq (excluding castling on side `no_castle`, -1 none). */
static int piece_moves(const arb_move *legal, int n, arb_square sq, int no_castle,
                       arb_otb_obligation *ob) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (ARB_MOVE_FROM(legal[i]) != sq) continue;
    if (ARB_MOVE_KIND(legal[i]) == ARB_MOVE_CASTLING &&
        arb__otb_castle_side_of(legal[i]) == no_castle)
      continue;
    if (ob) add_allowed(ob, legal[i]);
    k++;
  }
  return k;
}

static int captures_of(const arb_position *p, const arb_move *legal, int n, arb_square sq,
                       arb_otb_obligation *ob) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    arb_move m = legal[i];
    if (ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING) continue;
    arb_square to = ARB_MOVE_TO(m);
    int hit = to == sq;
    if (ARB_MOVE_KIND(m) == ARB_MOVE_EN_PASSANT)
      hit = ARB_SQUARE(ARB_FILE_OF(to), ARB_RANK_OF(ARB_MOVE_FROM(m))) == sq;
    if (!hit || !p->board[sq]) continue;
    if (ob) add_allowed(ob, m);
    k++;
  }
  return k;
}

static void finish_obligation(arb_otb_obligation *ob) {
  ob->may_castle[0] = ob->may_castle[1] = 0;
  for (int i = 0; i < ob->allowed_count; i++)
    if (ARB_MOVE_KIND(ob->allowed[i]) == ARB_MOVE_CASTLING)
      ob->may_castle[arb__otb_castle_side_of(ob->allowed[i])] = 1;
}

static void any_move(arb_otb_obligation *ob, const arb_move *legal, int n) {
  ob->any = 1;
  for (int i = 0; i < n; i++)
    add_allowed(ob, legal[i]);
}

/* The obligation of the player having the move from the touches tl[0..nt) (in order, an
 * unknown order already put own pieces first). */
void arb__otb_obligation_of(const arb_otb *o, const touch_rec *tl, int nt, arb_otb_obligation *ob) {
  memset(ob, 0, offsetof(arb_otb_obligation, allowed));
  if (arb__otb_over(o) || arb__otb_is_casual(o)) return;
  const arb_position *p = arb__otb_cur(o);
  arb_move legal[ARB_MAX_MOVES];
  int n = arb__otb_legal_moves(p, legal);
  if (o->must_play != ARB_MOVE_NONE) {
    ob->active = 1;
    ob->must_move = (arb_bitboard)1 << ARB_MOVE_FROM(o->must_play);
    add_allowed(ob, o->must_play);
    finish_obligation(ob);
    return;
  }
  arb_square ksq = arb_king_square(p, (arb_color)p->turn);
  if (o->king_castle_side >= 0) { /* 4.7.2: the king released on its castling square */
    ob->active = 1;
    ob->must_move = (arb_bitboard)1 << ksq;
    for (int i = 0; i < n; i++)
      if (ARB_MOVE_KIND(legal[i]) == ARB_MOVE_CASTLING &&
          arb__otb_castle_side_of(legal[i]) == o->king_castle_side)
        add_allowed(ob, legal[i]);
    if (!ob->allowed_count) piece_moves(legal, n, ksq, o->king_castle_side, ob);
    if (!ob->allowed_count) any_move(ob, legal, n);
    finish_obligation(ob);
    return;
  }
  if (!nt && !o->castle_intent) return;
  ob->active = 1;
  /* castling touches: the king and a castling rook, in which order */
  int ki = -1, ri = -1;
  for (int i = 0; i < nt; i++) {
    if (!tl[i].own) continue;
    if (tl[i].sq == ksq && ki < 0)
      ki = i;
    else if (ri < 0 && is_castling_rook(p, tl[i].sq) &&
             ARB_PIECE_TYPE(p->board[tl[i].sq]) == ARB_ROOK)
      ri = i;
  }
  int rook_side = ri >= 0 ? ARB_FILE_OF(tl[ri].sq) > ARB_FILE_OF(ksq) : -1;
  if (ki >= 0 && (ri > ki || (ri < 0 && o->castle_intent && ki == 0))) {
    /* 4.4.1 king then rook (or the king with the declared intent to castle) */
    ob->must_move = (arb_bitboard)1 << ksq;
    for (int i = 0; i < n; i++)
      if (ARB_MOVE_KIND(legal[i]) == ARB_MOVE_CASTLING &&
          (rook_side < 0 || arb__otb_castle_side_of(legal[i]) == rook_side))
        add_allowed(ob, legal[i]);
    if (!ob->allowed_count) { /* 4.4.3: another king move, castling on the other side too */
      piece_moves(legal, n, ksq, rook_side, ob);
      if (!ob->allowed_count) any_move(ob, legal, n), ob->must_move = 0;
    }
    finish_obligation(ob);
    return;
  }
  int no_castle = -1;
  if (ri >= 0 && ki > ri) { /* 4.4.2 rook then king: no castling on that side */
    if ((arb__otb_is_uscf(o) && (o->cfg.variations & ARB_OTB_US_10I2))) {
      ob->must_move = (arb_bitboard)1 << tl[ri].sq;
      piece_moves(legal, n, tl[ri].sq, -1, ob);
      for (int i = 0; i < n; i++)
        if (ARB_MOVE_KIND(legal[i]) == ARB_MOVE_CASTLING &&
            arb__otb_castle_side_of(legal[i]) == rook_side)
          add_allowed(ob, legal[i]);
      finish_obligation(ob);
      return;
    }
    no_castle = rook_side;
  }
  /* 4.3.3: a piece of each colour — that capture if legal */
  int oi = -1, ei = -1;
  for (int i = 0; i < nt; i++) {
    if (tl[i].own && oi < 0) oi = i;
    if (!tl[i].own && ei < 0) ei = i;
  }
  if (oi >= 0 && ei >= 0) {
    for (int i = 0; i < n; i++) {
      arb_move m = legal[i];
      if (ARB_MOVE_FROM(m) != tl[oi].sq || ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING) continue;
      arb_square to = ARB_MOVE_TO(m);
      if (ARB_MOVE_KIND(m) == ARB_MOVE_EN_PASSANT)
        to = ARB_SQUARE(ARB_FILE_OF(to), ARB_RANK_OF(ARB_MOVE_FROM(m)));
      if (to == tl[ei].sq) add_allowed(ob, m);
    }
    if (ob->allowed_count) {
      ob->must_move = (arb_bitboard)1 << tl[oi].sq;
      ob->must_capture = (arb_bitboard)1 << tl[ei].sq;
      finish_obligation(ob);
      return;
    }
  }
  /* 4.3.1 / 4.3.2: the first touched piece that can be moved or captured */
  for (int i = 0; i < nt; i++) {
    if (tl[i].own) {
      if (piece_moves(legal, n, tl[i].sq, no_castle, NULL)) {
        piece_moves(legal, n, tl[i].sq, no_castle, ob);
        ob->must_move = (arb_bitboard)1 << tl[i].sq;
        finish_obligation(ob);
        return;
      }
    } else if (captures_of(p, legal, n, tl[i].sq, NULL)) {
      captures_of(p, legal, n, tl[i].sq, ob);
      ob->must_capture = (arb_bitboard)1 << tl[i].sq;
      finish_obligation(ob);
      return;
    }
  }
  any_move(ob, legal, n); /* 4.5 */
  if (no_castle >= 0) {   /* castling on the rook's side stays barred */
    int k = 0;
    for (int i = 0; i < ob->allowed_count; i++)
      if (!(ARB_MOVE_KIND(ob->allowed[i]) == ARB_MOVE_CASTLING &&
            arb__otb_castle_side_of(ob->allowed[i]) == no_castle))
        ob->allowed[k++] = ob->allowed[i];
    ob->allowed_count = k;
  }
  finish_obligation(ob);
}

int arb__otb_allowed_has(const arb_otb_obligation *ob, arb_move m) {
  for (int i = 0; i < ob->allowed_count; i++)
    if (ob->allowed[i] == m) return 1;
  return 0;
}

/* A touch of an own piece the sensors saw (a lift).  An opponent's piece that vanished may be
 * a sensor misread or a displaced piece (7.4): it binds, but the referee does not enforce it
 * by itself. */
int arb__otb_touches_by_eboard(const arb_otb *o) {
  for (int i = 0; i < o->ntouched; i++)
    if (o->touched[i].eboard && o->touched[i].own) return 1;
  return 0;
}

int arb__otb_enemy_lift_only(const arb_otb *o) {
  int enemy = 0;
  for (int i = 0; i < o->ntouched; i++) {
    if (o->touched[i].own) return 0;
    enemy |= o->touched[i].eboard;
  }
  return enemy;
}

void arb__otb_add_touch(arb_otb *o, arb_square sq, int own, int eboard, int unknown_order) {
  for (int i = 0; i < o->ntouched; i++)
    if (o->touched[i].sq == sq) {
      o->touched[i].eboard |= (uint8_t)eboard;
      return;
    }
  if (o->ntouched == MAX_TOUCH) return;
  touch_rec t = {sq, (uint8_t)own, (uint8_t)eboard};
  int at = o->ntouched;
  if (unknown_order && own) { /* 4.3.3: order unclear — own pieces count as touched first */
    at = 0;
    while (at < o->ntouched && o->touched[at].own)
      at++;
    memmove(&o->touched[at + 1], &o->touched[at], (size_t)(o->ntouched - at) * sizeof t);
  }
  o->touched[at] = t;
  o->ntouched++;
}

/* ---- decisions ---- */

/* A deliberate touch by the player having the move, whether the log or the board's sensors saw
 * it: the opponent's claim of a touch-move breach lapses (4.8) and so does the opponent's draw
 * offer (9.1.2.2: rejected by touching a piece with the intention of moving or capturing it). */
void arb__otb_lapse_on_touch(arb_otb *o) {
  arb_color h = arb__otb_having_move(o);
  if (o->breach.active && o->breach.offender != (int8_t)h) o->breach.lapsed = 1;
  if (arb_game_draw_offer(arb_referee_game(o->ref)) == (int)!h) {
    arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_DECLINE_DRAW, 0);
    ev.by = (int8_t)h;
    arb_ref_decision rd;
    arb__otb_ref(o, &ev, &rd);
  }
}

arb_status arb__otb_ev_touch(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  if (ev->square_count == 0)
    return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "touch: no square%s", NULL);
  arb_color h = arb__otb_having_move(o);
  int by = ev->by >= 0 ? ev->by : (int)h;
  if (ev->intent == ARB_OTB_INTENT_ACCIDENTAL) return ARB_OK; /* 4.2.2: not deliberate */
  if (by != (int)h) {
    if (ev->intent == ARB_OTB_INTENT_ADJUST && !arb__otb_is_casual(o)) {
      arb__otb_set_violation(d, ARB_OTB_V_ADJUST_OUT_OF_TURN, NULL);
      d->penalty_warning = 1;
    }
    d->warnings |= ARB_OTB_WARN_OUT_OF_TURN;
    return ARB_OK;
  }
  if (o->adjust_pending && ev->intent != ARB_OTB_INTENT_CASTLE) { /* 4.2.1: announced first */
    o->adjust_pending = 0;
    return ARB_OK;
  }
  const arb_position *p = arb__otb_cur(o);
  for (int i = 0; i < ev->square_count && i < 8; i++) {
    arb_square sq = ev->squares[i];
    if (sq >= 64 || !p->board[sq]) continue;
    arb__otb_add_touch(o, sq, ARB_PIECE_COLOR(p->board[sq]) == h, ev->source == ARB_OTB_SRC_EBOARD,
                       ev->order == ARB_OTB_ORDER_UNKNOWN ||
                           ev->order == ARB_OTB_ORDER_SIMULTANEOUS);
  }
  if (ev->intent == ARB_OTB_INTENT_CASTLE) o->castle_intent = 1;
  o->adjust_pending = 0;
  arb__otb_lapse_on_touch(o);
  return ARB_OK;
}
