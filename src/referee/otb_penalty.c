/* Arbiter — MIT licence, see LICENSE.
 *
 * otb_penalty.c: completed illegal moves (7.5, A.4/A.5, B.2/B.3, US Chess 11A-11D and blitz)
 * — when the referee acts by itself and when only a claim or the arbiter can, the reinstated
 * position with its touch-move obligation, the opponent's time, the second illegal move, the
 * unfinished promotion (7.5.2), an illegal move found later, one that stands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "referee/otb_internal.h"

/* The referee rules on a completed illegal move at the press (an arbiter watching this game). */
static int acts_at_press(const arb_otb *o) {
  if (arb__otb_is_casual(o)) return 1;
  if (arb__otb_is_uscf(o)) return 0;
  arb_otb_supervision s = arb__otb_supervision(o);
  return s == ARB_OTB_SUP_DEFAULT || s == ARB_OTB_SUP_B2;
}

/* Seconds added to the opponent for a completed illegal move (7.5.5, A.3, B.2/B.3, US 11D). */
static int illegal_penalty_s(const arb_otb *o) {
  if (arb__otb_is_casual(o)) return 0;
  if (arb__otb_is_uscf(o)) return 120;
  if (o->cfg.rules == ARB_OTB_FIDE_RAPID) return 60;
  if (o->cfg.rules == ARB_OTB_FIDE_BLITZ)
    return arb__otb_supervision(o) == ARB_OTB_SUP_B2 ? 120 : 60;
  return 120;
}

/* ---- positions ---- */

/* Reinstates the position before entry idx (annulling it and what followed): the referee's
 * ARB_REF_REINSTATE, its clock running for the player then having the move. */
arb_status arb__otb_reinstate(arb_otb *o, int idx, arb_otb_decision *d) {
  arb_status st = arb__otb_take_back(o, idx, d);
  if (st) return st;
  o->made_idx = -1;
  d->restored = 1;
  arb__otb_fen_of(arb__otb_cur(o), d->restore_fen);
  arb__otb_touched_from_entry(o, &o->rec[idx]);
  o->breach.active = 0;
  return ARB_OK;
}

/* US Chess blitz mating material (blitz 7c): a pawn, a rook, a queen or two minor pieces. */
static int us_mating_material(const arb_position *p, arb_color c) {
  arb_bitboard own = p->by_color[c];
  if (own & (p->by_type[ARB_PAWN] | p->by_type[ARB_ROOK] | p->by_type[ARB_QUEEN])) return 1;
  return __builtin_popcountll(own & (p->by_type[ARB_KNIGHT] | p->by_type[ARB_BISHOP])) >= 2;
}

/* Rapid and blitz without full arb__otb_supervision (A.5, B.3): an illegal move is ruled on only
 * when challenged before the opponent's next move; after it, the move stands. */
int arb__otb_challenge_only(const arb_otb *o) {
  arb_otb_supervision s = arb__otb_supervision(o);
  return arb__otb_is_fide(o) && (s == ARB_OTB_SUP_A5 || s == ARB_OTB_SUP_B3);
}

/* Whether entry e is a pawn moved to its last rank and left a pawn (7.5.2), and the promotion
 * to a queen it should have been (legal from the position before it). */
int arb__otb_unfinished_pawn(const entry *e, arb_move *queen) {
  const arb_position *p = &e->before;
  if (e->pub.legal || e->from == e->to || e->promo) return 0;
  arb_piece pc = p->board[e->from];
  if (!pc || ARB_PIECE_TYPE(pc) != ARB_PAWN) return 0;
  if (ARB_RANK_OF(e->to) != (ARB_PIECE_COLOR(pc) == ARB_WHITE ? 7 : 0)) return 0;
  arb_move q = ARB_MOVE_MAKE_SPECIAL(e->from, e->to, ARB_MOVE_PROMOTION, ARB_QUEEN);
  if (!arb_is_legal(p, q)) return 0;
  *queen = q;
  return 1;
}

/* 7.5.2: the pawn left on the last rank is replaced by a queen — the entry becomes that legal
 * promotion.  At the press (at_press, the entry is the made move): the referee takes the pawn's
 * board back and the queen's move is played, completed by this press.  Later (a challenge under
 * A.5/B.3, before the opponent's move): play goes on from the board with the queen, the arbiter's
 * (a continue_from without a mover). */
arb_status arb__otb_queen_in(arb_otb *o, entry *e, arb_move q, int at_press) {
  entry saved = *e;
  e->move = q;
  e->promo = ARB_QUEEN;
  e->pub.legal = 1;
  arb_uci_write(&e->before, q, e->pub.uci, sizeof e->pub.uci);
  arb_san_write(&e->before, q, e->pub.san, sizeof e->pub.san);
  arb__otb_after_move(&e->before, q, &e->after);
  arb__otb_fen_of(&e->after, e->pub.fen_after);
  arb_ref_decision rd;
  arb_status st;
  if (at_press) {
    arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_REINSTATE, 0);
    ev.ply = e->step;
    st = arb__otb_ref(o, &ev, &rd);
    if (st == ARB_OK) {
      arb_ref_event mv = ARB_REF_EVENT_INIT(ARB_REF_MOVE, 0);
      mv.move = q;
      mv.by = (int8_t)e->pub.by;
      st = arb__otb_ref(o, &mv, &rd);
      e->step = o->steps;
    }
  } else {
    arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_CONTINUE_FROM, 0);
    ev.position = &e->after;
    st = arb__otb_ref(o, &ev, &rd);
  }
  if (st) {
    *e = saved;
    return st;
  }
  memcpy(o->phys, arb__otb_cur(o)->board, sizeof o->phys);
  return ARB_OK;
}

/* The penalty for a completed illegal move (entry idx), on the press, a claim or the arbiter's
 * observation.  restore: reinstate the position before it; bonus: the opponent's time. */
static arb_status penalise(arb_otb *o, int idx, int restore, int bonus, arb_color claimant,
                           arb_otb_decision *d) {
  entry *e = &o->rec[idx];
  arb_color off = e->pub.by, opp = (arb_color)!off;
  e->pending = 0;
  arb_move q;
  if (!restore && arb__otb_unfinished_pawn(e, &q)) {
    arb_status st = arb__otb_queen_in(o, e, q, 0);
    if (st) return st;
  }
  if (arb__otb_is_casual(o)) return restore ? arb__otb_reinstate(o, idx, d) : ARB_OK;
  if (o->cfg.rules == ARB_OTB_USCF_BLITZ) { /* blitz 7c/7d/8d: the claimant wins, or draws */
    e->counted = 1;
    if (o->illegal_count[off] < 255) o->illegal_count[off]++;
    if (us_mating_material(&e->before, claimant))
      arb__otb_end_game(o, arb__otb_win_for(claimant), ARB_TERM_ILLEGAL_MOVE_CLAIMED, claimant);
    else
      arb__otb_end_game(o, ARB_RESULT_DRAW, ARB_TERM_ILLEGAL_MOVE_CLAIMANT_LACKS_MATERIAL,
                        claimant);
    return ARB_OK;
  }
  e->counted = 1;
  if (o->illegal_count[off] < 255) o->illegal_count[off]++;
  if (restore) {
    arb_status st = arb__otb_reinstate(o, idx, d);
    if (st) return st;
  }
  if (arb__otb_is_fide(o) && o->illegal_count[off] >= 2) {
    /* 7.5.5: the referee's forfeit — a loss, unless the opponent cannot mate */
    arb__otb_forfeit(o, off, ARB_TERM_SECOND_ILLEGAL_MOVE);
    return ARB_OK;
  }
  if (bonus) arb__otb_add_time(o, opp, illegal_penalty_s(o), d);
  return ARB_OK;
}

/* A completed illegal move (entry idx, just pressed). */
arb_status arb__otb_illegal_completed(arb_otb *o, int idx, arb_otb_decision *d) {
  entry *e = &o->rec[idx];
  e->pending = 1;
  if (!d->violation) arb__otb_set_violation(d, e->pub.violation, NULL);
  if (acts_at_press(o)) {
    /* an unfinished promotion stands as a queen (7.5.2); the rest is reinstated */
    int restore = e->pub.violation != ARB_OTB_V_PROMOTION_NOT_COMPLETED;
    return penalise(o, idx, restore, 1, (arb_color)!e->pub.by, d);
  }
  return ARB_OK;
}

/* 7.5.2 / US 8F7: a press with a pawn left on its last rank. */
arb_status arb__otb_unfinished_promotion(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  arb_square from, to;
  arb_piece_type promo;
  if ((o->cfg.sensing == ARB_OTB_BOARD_NONE && !o->eboard_seen) ||
      !arb__otb_pseudo_from_board(o, &from, &to, &promo))
    return 1;
  const arb_position *p = arb__otb_cur(o);
  int last = ARB_RANK_OF(to) == (p->turn == ARB_WHITE ? 7 : 0);
  if (!(ARB_PIECE_TYPE(p->board[from]) == ARB_PAWN && last && !promo &&
        o->phys[to] != PIECE_UNKNOWN_PROMO))
    return 1;
  if (arb__otb_is_uscf(o)) { /* improper, not illegal: the promoter still chooses */
    arb__otb_set_violation(d, ARB_OTB_V_IMPROPER_CLOCK_PRESS, "8F7");
    d->needs |= ARB_OTB_NEEDS_PROMOTION_PIECE;
    return 0;
  }
  arb_move legal[ARB_MAX_MOVES];
  int n = arb__otb_legal_moves(p, legal);
  int queen = 0;
  for (int i = 0; i < n; i++)
    queen |= ARB_MOVE_FROM(legal[i]) == from && ARB_MOVE_TO(legal[i]) == to &&
             ARB_MOVE_KIND(legal[i]) == ARB_MOVE_PROMOTION && ARB_MOVE_PROMO(legal[i]) == ARB_QUEEN;
  if (!queen) return 1;
  /* the pawn on the last rank as the board shows it, completed by this press (7.5.2 is ruled
   * in arb__otb_unfinished_completed, as for the log's move) */
  if (arb__otb_make_move(o, ARB_MOVE_NONE, from, to, ARB_NO_TYPE, 1, ev->t, d)) return 1;
  d->made = 0;
  arb__otb_complete_made(o, ev->other_hand, d);
  return 0;
}

/* 7.5.2: entry idx, just completed, left its pawn on the last rank (made a queen by the press,
 * arb__otb_queen_in, unless it stands until challenged).  Casual play: the queen, no penalty.
 * A.5/B.3: the pawn stands until challenged (a pending illegal move, A.5.4 once the arbiter has
 * seen it).  Elsewhere the queen now, and the ruling on the illegal move — unless the queen ended
 * the game (a stalemate): then it only counts. */
arb_status arb__otb_unfinished_completed(arb_otb *o, int idx, arb_otb_decision *d) {
  entry *e = &o->rec[idx];
  if (arb__otb_is_casual(o)) return ARB_OK; /* the queen, made at the press */
  e->pub.violation = ARB_OTB_V_PROMOTION_NOT_COMPLETED;
  arb__otb_set_violation(d, ARB_OTB_V_PROMOTION_NOT_COMPLETED, NULL);
  if (arb__otb_challenge_only(o)) return arb__otb_illegal_completed(o, idx, d);
  if (arb__otb_over(o)) { /* the queen ended the game (a stalemate): it only counts */
    if (arb__otb_is_fide(o)) {
      e->counted = 1;
      if (o->illegal_count[e->pub.by] < 255) o->illegal_count[e->pub.by]++;
    }
    return ARB_OK;
  }
  return arb__otb_illegal_completed(o, idx, d);
}

/* The latest completed illegal move of `offender` still on the record, or -1. */
static int last_illegal(const arb_otb *o, arb_color offender, int ply) {
  for (int i = (int)o->nrec - 1; i >= 0; i--) {
    const entry *e = &o->rec[i];
    if (e->pub.annulled || e->pub.by != offender || !e->pub.completed) continue;
    if (ply > 0 && i + 1 != ply) continue;
    if (!e->pub.legal || e->pub.violation) {
      if (e->counted) continue;
      return i;
    }
  }
  return -1;
}

/* An illegal-move claim by `claimant` (or the arbiter: claimant -1 → the offender's opponent). */
arb_status arb__otb_rule_illegal(arb_otb *o, int claimant, int arbiter, int ply,
                                 arb_otb_decision *d) {
  arb_color off = claimant >= 0 ? (arb_color)!claimant : (arb_color)!arb__otb_having_move(o);
  int idx = last_illegal(o, off, ply);
  if (idx < 0 && claimant < 0) idx = last_illegal(o, (arb_color)!off, ply), off = (arb_color)!off;
  d->claim_valid = 0;
  if (idx < 0) return ARB_OK;
  entry *e = &o->rec[idx];
  arb_color opp = (arb_color)!off;
  /* moves the opponent made after it */
  int opp_made = 0, opp_completed = 0, plies_after = 0;
  for (uint32_t i = (uint32_t)idx + 1; i < o->nrec; i++) {
    if (o->rec[i].pub.annulled) continue;
    plies_after++;
    if (o->rec[i].pub.by == opp) opp_made++, opp_completed += o->rec[i].pub.completed;
  }
  (void)arbiter;
  if (arb__otb_is_uscf(o)) {
    if (plies_after > 20 || (arbiter && (o->cfg.variations & ARB_OTB_US_11H1))) {
      d->stands = 1;
      return ARB_OK;
    }
    d->claim_valid = 1;
    if (o->cfg.rules == ARB_OTB_USCF_BLITZ) {
      if (opp_completed) {
        d->claim_valid = 0;
        d->stands = 1;
        return ARB_OK;
      }
      return penalise(o, idx, 0, 0, opp, d);
    }
    int bonus = !arbiter && !opp_completed;
    e->pending = 0;
    return penalise(o, idx, 1, bonus, opp, d);
  }
  arb_otb_supervision s = arb__otb_supervision(o);
  if ((s == ARB_OTB_SUP_A5 || s == ARB_OTB_SUP_B3) && (opp_made || e->pub.stood)) {
    d->stands = 1;
    return ARB_OK;
  }
  d->claim_valid = 1;
  int restore = e->pub.violation != ARB_OTB_V_PROMOTION_NOT_COMPLETED;
  return penalise(o, idx, restore, 1, opp, d);
}

/* The arbiter finds that the move recorded at ply ev->ply was in fact ev->text, an illegal move
 * nobody noticed then (7.5.1): the position before it is reinstated, the moves since annulled,
 * the penalty given (and 4.3/4.7 apply to the move replacing it) — unless the rules let an
 * illegal move stand once the opponent has moved (A.5.2, B.3). */
arb_status arb__otb_found_later(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  uint32_t idx = (uint32_t)ev->ply - 1;
  if (idx >= o->nrec || o->rec[idx].pub.annulled || !o->rec[idx].pub.completed)
    return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT,
                           "arbiter_observes: no completed move at that ply%s", NULL);
  entry *e = &o->rec[idx];
  if (!e->pub.legal || e->pub.violation) return arb__otb_rule_illegal(o, -1, 1, ev->ply, d);
  const char *t = ev->text;
  size_t n = ev->text_len;
  arb_square from, to;
  if (!arb__otb_uci_squares(t, n, &from, &to))
    return arb__otb_refuse(d, ARB_OTB_BAD_MOVE, ARB_ERR_MOVE_SYNTAX,
                           "arbiter_observes: the move as played must be in UCI squares%s", NULL);
  arb_piece pc = e->before.board[from];
  arb_move m;
  if (!pc || ARB_PIECE_COLOR(pc) != e->pub.by || from == to ||
      arb_move_read(&e->before, t, n, 0, &m, NULL) == ARB_OK)
    return arb__otb_refuse(
        d, ARB_OTB_BAD_MOVE, ARB_ERR_MOVE_ILLEGAL,
        "arbiter_observes: that is not an illegal move of the player who had the move "
        "there%s",
        NULL);
  arb_color opp = (arb_color)!e->pub.by;
  int opp_moved = 0, plies_after = 0;
  for (uint32_t i = idx + 1; i < o->nrec; i++)
    if (!o->rec[i].pub.annulled) plies_after++, opp_moved |= o->rec[i].pub.by == opp;
  d->claim_valid = 0;
  if ((arb__otb_challenge_only(o) && opp_moved) || (arb__otb_is_uscf(o) && plies_after > 20)) {
    d->stands = 1; /* too late: the illegal move stands, play goes on from the board */
    return ARB_OK;
  }
  d->claim_valid = 1;
  /* the entry is what was played: the illegal move */
  e->move = ARB_MOVE_NONE;
  e->from = from;
  e->to = to;
  e->promo = ARB_NO_TYPE;
  e->pub.legal = 0;
  e->pub.violation = ARB_OTB_V_ILLEGAL_MOVE_COMPLETED;
  memcpy(e->pub.uci, t, n);
  e->pub.uci[n] = 0;
  snprintf(e->pub.san, sizeof e->pub.san, "%.*s", (int)n, t);
  arb__otb_set_violation(d, ARB_OTB_V_ILLEGAL_MOVE_COMPLETED, NULL);
  return penalise(o, (int)idx, 1, 1, opp, d);
}
