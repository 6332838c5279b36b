/* Arbiter — MIT licence, see LICENSE.
 *
 * otb_board.c: e-boards — the physical board the referee keeps from lift, place and snapshot
 * events, the candidate move a placement shows (released when stable, at the press, at the
 * opponent's first lift), pieces knocked over (7.4), two plies in one snapshot, the pseudo
 * move a press completes when no legal move explains the board, result gestures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "referee/otb_internal.h"

static int hand_take(arb_otb *o, arb_piece want, arb_color colour) {
  for (int i = o->nhand - 1; i >= 0; i--) {
    arb_piece p = o->hand[i].p;
    int ok = want ? p == want : ARB_PIECE_COLOR(p) == colour;
    if (!ok) continue;
    memmove(&o->hand[i], &o->hand[i + 1], (size_t)(o->nhand - i - 1) * sizeof o->hand[0]);
    o->nhand--;
    return p;
  }
  return -1;
}

/* Whether the physical board equals the placement after m (unknown promotion pieces match
 * any promotion when no choice was named). */
static int placement_matches(const arb_otb *o, const arb_position *after, arb_move m) {
  for (int sq = 0; sq < 64; sq++) {
    arb_piece ph = o->phys[sq], want = after->board[sq];
    if (ph == PIECE_UNKNOWN_PROMO) {
      if (!want || ARB_MOVE_KIND(m) != ARB_MOVE_PROMOTION || ARB_MOVE_TO(m) != sq) return 0;
      if (o->promo_choice && ARB_PIECE_TYPE(o->promo_choice) != ARB_MOVE_PROMO(m)) return 0;
      continue;
    }
    if (ph != want) return 0;
  }
  return 1;
}

/* Legal successors of the position the physical board now equals (0, 1 or several). */
static int successors_matching_(const arb_otb *o, const arb_position *base, arb_move *out,
                                int tolerant) {
  arb_move legal[ARB_MAX_MOVES];
  int n = arb__otb_legal_moves(base, legal), k = 0;
  for (int i = 0; i < n; i++) {
    arb_position a;
    arb__otb_after_move(base, legal[i], &a);
    if (tolerant) {
      /* a piece of the side not to move missing from a square the move does not touch */
      int miss = 0;
      arb_piece save = 0;
      arb_square at = 0;
      for (int sq = 0; sq < 64; sq++)
        if (!o->phys[sq] && a.board[sq] && ARB_PIECE_COLOR(a.board[sq]) != base->turn &&
            sq != ARB_MOVE_TO(legal[i]) && base->board[sq] == a.board[sq])
          miss++, at = (arb_square)sq, save = a.board[sq];
      if (miss != 1) continue;
      a.board[at] = ARB_NO_PIECE;
      int ok = placement_matches(o, &a, legal[i]);
      a.board[at] = save;
      if (!ok) continue;
    } else if (!placement_matches(o, &a, legal[i])) {
      continue;
    }
    if (o->cfg.sensing == ARB_OTB_BOARD_PRESENCE) {
      /* occupancy cannot tell two captures apart: the lifts and places can */
      arb_square from = ARB_MOVE_FROM(legal[i]), to = ARB_MOVE_TO(legal[i]);
      if (ARB_MOVE_KIND(legal[i]) == ARB_MOVE_CASTLING) {
        arb_square kto, rto;
        arb__otb_castle_squares(base, legal[i], &kto, &rto);
        to = kto;
      }
      if (!((o->lifted >> from) & 1u) || !((o->placed >> to) & 1u)) continue;
    }
    out[k++] = legal[i];
  }
  return k;
}

int arb__otb_successors_matching(const arb_otb *o, const arb_position *base, arb_move *out) {
  return successors_matching_(o, base, out, 0);
}

/* Whether the physical board shows the position after m but for one piece knocked over or
 * displaced while moving (7.4): a piece missing from its square, or pushed onto an empty
 * neighbouring square, which is not a piece m moved or took (only: that side's pieces only,
 * or -1). */
static int displaced_after(const arb_otb *o, const arb_position *base, const arb_position *after,
                           arb_move m, int only) {
  int missing = -1, extra = -1, diffs = 0;
  for (int sq = 0; sq < 64; sq++) {
    arb_piece ph = o->phys[sq], want = after->board[sq];
    if (ph == want) continue;
    if (++diffs > 2) return 0;
    if (want && !ph)
      missing = sq;
    else if (ph && !want)
      extra = sq;
    else
      return 0;
  }
  /* the piece stood there before the move and the move left it (not the piece moved, not a
   * castling rook, not a capture) */
  if (missing < 0 || missing == ARB_MOVE_TO(m) || base->board[missing] != after->board[missing])
    return 0;
  if (only >= 0 && (int)ARB_PIECE_COLOR(after->board[missing]) != only) return 0;
  if (diffs == 1) return 1; /* knocked over */
  /* displaced: pushed onto a neighbouring empty square */
  return extra >= 0 && !base->board[extra] && o->phys[extra] == after->board[missing] &&
         abs(ARB_FILE_OF(extra) - ARB_FILE_OF(missing)) <= 1 &&
         abs(ARB_RANK_OF(extra) - ARB_RANK_OF(missing)) <= 1;
}

/* The legal moves of base the board shows with one piece knocked over or displaced. */
int arb__otb_successors_displaced(const arb_otb *o, const arb_position *base, arb_move *out) {
  arb_move legal[ARB_MAX_MOVES];
  int n = arb__otb_legal_moves(base, legal), k = 0;
  for (int i = 0; i < n; i++) {
    arb_position a;
    arb__otb_after_move(base, legal[i], &a);
    if (displaced_after(o, base, &a, legal[i], -1)) out[k++] = legal[i];
  }
  return k;
}

/* Pairs of legal moves (the player having the move, then the reply) whose placement the board
 * shows — two plies in one snapshot.  Returns how many (at most 2 are looked for); the first
 * pair in *a, *b. */
static int pairs_matching(const arb_otb *o, const arb_position *base, arb_move *a, arb_move *b) {
  arb_move first[ARB_MAX_MOVES], second[ARB_MAX_MOVES];
  int n = arb__otb_legal_moves(base, first), k = 0;
  for (int i = 0; i < n && k < 2; i++) {
    arb_position p1;
    arb__otb_after_move(base, first[i], &p1);
    int n2 = arb__otb_legal_moves(&p1, second);
    for (int j = 0; j < n2 && k < 2; j++) {
      arb_position p2;
      arb__otb_after_move(&p1, second[j], &p2);
      int same = 1;
      if (o->cfg.sensing == ARB_OTB_BOARD_PRESENCE) /* occupancy only */
        for (int sq = 0; sq < 64 && same; sq++)
          same = !o->phys[sq] == !p2.board[sq];
      else
        same = placement_matches(o, &p2, second[j]);
      if (!same) continue;
      if (!k) *a = first[i], *b = second[j];
      k++;
    }
  }
  return k;
}

/* The physical board changed at t: look for a candidate move. */
static void board_changed(arb_otb *o, int64_t t, arb_otb_decision *d) {
  o->change_t = t;
  /* both kings on the centre squares: a result signal (DGT), never a move (lila #11783) */
  static const arb_square centre[4] = {27, 28, 35, 36}; /* d4 e4 d5 e5 */
  int kings = 0, light = 0;
  for (int i = 0; i < 4; i++)
    if (o->phys[centre[i]] && ARB_PIECE_TYPE(o->phys[centre[i]]) == ARB_KING)
      kings++, light += (ARB_FILE_OF(centre[i]) + ARB_RANK_OF(centre[i])) & 1;
  if (kings == 2 && o->cfg.sensing != ARB_OTB_BOARD_PRESENCE) {
    d->warnings |= ARB_OTB_WARN_RESULT_GESTURE;
    d->signal = light == 2   ? ARB_RESULT_WHITE_WINS
                : light == 0 ? ARB_RESULT_BLACK_WINS
                             : ARB_RESULT_DRAW;
    o->cand_valid = 0;
    return;
  }
  o->cand_valid = 0;
  o->retract_pending = 0;
  const arb_position *p = arb__otb_cur(o);
  if (arb__otb_same_placement(o->phys, p->board)) return;
  if (o->made_idx >= 0 && arb__otb_same_placement(o->phys, o->rec[o->made_idx].before.board)) {
    o->retract_pending = 1; /* the board shows the position before the released move */
    return;
  }
  if (o->made_idx >= 0 && o->rec[o->made_idx].pub.legal &&
      displaced_after(o, &o->rec[o->made_idx].before, arb__otb_cur(o), o->rec[o->made_idx].move,
                      o->rec[o->made_idx].pub.by)) {
    d->warnings |= ARB_OTB_WARN_DISPLACED; /* 7.4: the move stands, the piece is put back */
    return;
  }
  if (o->made_idx >= 0 && o->rec[o->made_idx].pub.legal) {
    /* the mover put his released piece elsewhere: another move from the same position */
    entry *e = &o->rec[o->made_idx];
    arb_move c[ARB_MAX_MOVES];
    if (arb__otb_successors_matching(o, &e->before, c) == 1 && c[0] != e->move) {
      if (arb__otb_is_casual(o)) { /* friendly play: the new move replaces it */
        if (arb__otb_take_back(o, o->made_idx, NULL) == ARB_OK) {
          o->cand_valid = 1;
          o->cand = c[0];
          o->cand_t = t;
          d->takeback = 1;
        }
        return;
      }
      int promo = ARB_MOVE_KIND(c[0]) == ARB_MOVE_PROMOTION &&
                  ARB_MOVE_KIND(e->move) == ARB_MOVE_PROMOTION &&
                  ARB_MOVE_FROM(c[0]) == ARB_MOVE_FROM(e->move) &&
                  ARB_MOVE_TO(c[0]) == ARB_MOVE_TO(e->move);
      /* 4.7 (4.4.4 for the promotion piece): the released move stands; US Chess 9D fixes a
       * promotion only on release, which this was */
      arb__otb_set_violation(
          d, promo ? ARB_OTB_V_PROMOTION_CHOICE_CHANGED : ARB_OTB_V_RELEASED_MOVE_CHANGED,
          arb__otb_is_uscf(o) ? (promo ? "9D" : "9") : NULL);
      d->needs_confirmation = !e->release_logged;
      return;
    }
  }
  arb_move c[ARB_MAX_MOVES];
  int k = arb__otb_successors_matching(o, p, c);
  if (k == 0 && (k = successors_matching_(o, p, c, 1)) == 1) /* the move, and a piece the board */
    d->warnings |= ARB_OTB_WARN_SENSOR_MISREAD | ARB_OTB_WARN_DISPLACED; /* lost, or knocked over */
  if (k == 1) {
    o->cand_valid = 1;
    o->cand = c[0];
    o->cand_t = t;
  } else if (k > 1) {
    d->needs |= ARB_OTB_NEEDS_PROMOTION_PIECE;
  } else {
    /* a king on its castling square, the rook still home: castling in progress */
    arb_square ksq = arb_king_square(p, (arb_color)p->turn);
    if (!o->phys[ksq]) {
      for (int side = 0; side < 2; side++) {
        arb_square kto = ARB_SQUARE(side ? 6 : 2, ARB_RANK_OF(ksq));
        if (o->phys[kto] == p->board[ksq] && !p->board[kto]) o->castle_intent = 1;
      }
    }
  }
}

/* A stable candidate becomes the made move (a release the board infers). */
arb_status arb__otb_commit_candidate(arb_otb *o, arb_otb_decision *d) {
  if (!o->cand_valid) return ARB_OK;
  o->cand_valid = 0;
  arb_move m = o->cand;
  if (ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION && o->promo_first && arb__otb_is_fide(o) &&
      ARB_PIECE_TYPE(o->promo_first) != ARB_MOVE_PROMO(m)) {
    /* 4.4.4: once the new piece touched the square the choice is final (US Chess 9D decides
     * on release, casual play lets it be changed) */
    arb_move first = ARB_MOVE_MAKE_SPECIAL(ARB_MOVE_FROM(m), ARB_MOVE_TO(m), ARB_MOVE_PROMOTION,
                                           ARB_PIECE_TYPE(o->promo_first));
    if (arb_is_legal(arb__otb_cur(o), first)) {
      arb__otb_set_violation(d, ARB_OTB_V_PROMOTION_CHOICE_CHANGED, NULL);
      d->needs_confirmation = 1;
      m = first;
    }
  }
  arb_status st = arb__otb_make_legal(o, m, 1, o->cand_t, 1, d);
  /* the board now shows the move: what a presence board could not tell is known */
  if (!st && !d->restored) memcpy(o->phys, arb__otb_cur(o)->board, sizeof o->phys);
  return st;
}

void arb__otb_check_stable(arb_otb *o, int64_t t, arb_otb_decision *d) {
  int64_t db = o->cfg.debounce_ms > 0 ? o->cfg.debounce_ms : 250;
  if (o->cand_valid && o->change_t == o->cand_t && t - o->cand_t >= db)
    arb__otb_commit_candidate(o, d);
}

/* The pseudo move a press completes when the board shows no legal successor: one piece of the
 * mover moved from a square to another (capturing or not), or none. */
int arb__otb_pseudo_from_board(arb_otb *o, arb_square *from, arb_square *to,
                               arb_piece_type *promo) {
  const arb_position *p = arb__otb_cur(o);
  arb_color c = (arb_color)p->turn;
  int nfrom = 0, nto = 0;
  arb_square f = 0, tt = 0;
  for (int sq = 0; sq < 64; sq++) {
    arb_piece was = p->board[sq], now = o->phys[sq];
    if (was == now) continue;
    if (was && ARB_PIECE_COLOR(was) == c && !now)
      f = (arb_square)sq, nfrom++;
    else if (now && (now == PIECE_UNKNOWN_PROMO || ARB_PIECE_COLOR(now) == c))
      tt = (arb_square)sq, nto++;
    else if (!(was && !now))
      return 0;
  }
  if (nfrom == 2 && nto == 2) {
    /* a castling placement no legal castling gives (through or out of check): king and rook */
    arb_square ksq = arb_king_square(p, c);
    for (int side = 0; side < 2; side++) {
      arb_square kto = ARB_SQUARE(side ? 6 : 2, ARB_RANK_OF(ksq)),
                 rto = ARB_SQUARE(side ? 5 : 3, ARB_RANK_OF(ksq));
      arb_square rfrom = ARB_NO_SQUARE;
      for (int sq = 0; sq < 64; sq++)
        if (((p->castling_rooks >> sq) & 1u) && ARB_PIECE_COLOR(p->board[sq]) == c &&
            (ARB_FILE_OF(sq) > ARB_FILE_OF(ksq)) == side)
          rfrom = (arb_square)sq;
      if (rfrom == ARB_NO_SQUARE || o->phys[ksq] || o->phys[rfrom] ||
          o->phys[kto] != p->board[ksq] || o->phys[rto] != p->board[rfrom])
        continue;
      *from = ksq;
      *to = kto;
      *promo = ARB_NO_TYPE;
      o->pseudo_rook_from = rfrom;
      o->pseudo_rook_to = rto;
      return 1;
    }
    return 0;
  }
  if (nfrom != 1 || nto != 1) return 0;
  *from = f;
  *to = tt;
  arb_piece moved = p->board[f], placed = o->phys[tt];
  *promo = placed != PIECE_UNKNOWN_PROMO && ARB_PIECE_TYPE(placed) != ARB_PIECE_TYPE(moved)
               ? ARB_PIECE_TYPE(placed)
               : ARB_NO_TYPE;
  return 1;
}

/* ---- events ---- */

static int mover_of_piece(const arb_otb *o, arb_piece pc) {
  /* after a made move (not pressed) the mover's own pieces are his; the rest the other's */
  if (o->made_idx >= 0 && pc && ARB_PIECE_COLOR(pc) == o->rec[o->made_idx].pub.by)
    return o->rec[o->made_idx].pub.by;
  return arb__otb_having_move(o);
}

arb_status arb__otb_ev_lift(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  arb_square sq = ev->squares[0];
  if (ev->square_count == 0 || sq >= 64)
    return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "lift: no square%s", NULL);
  arb_piece pc = o->phys[sq];
  if (!pc) {
    d->warnings |= ARB_OTB_WARN_SENSOR_MISREAD;
    return ARB_OK;
  }
  if (o->cand_valid && ARB_PIECE_COLOR(pc) != arb__otb_having_move(o) && o->made_idx < 0) {
    /* the opponent starts moving: the mover's placement was his move */
    arb_status st = arb__otb_commit_candidate(o, d);
    if (st) return st;
  }
  int actor = mover_of_piece(o, pc);
  o->phys[sq] = ARB_NO_PIECE;
  if (o->nhand < MAX_HAND) o->hand[o->nhand].sq = sq, o->hand[o->nhand++].p = pc;
  int again = (o->placed >> sq) & 1u; /* the piece of this move, lifted again (a slide) */
  o->lifted |= (arb_bitboard)1 << sq;
  if (actor == (int)arb__otb_having_move(o) && !again && pc != PIECE_UNKNOWN_PROMO) {
    if (o->adjust_pending) {
      o->adjust_pending = 0; /* an announced adjustment: no obligation (4.2.1) */
    } else {
      arb__otb_add_touch(o, sq, ARB_PIECE_COLOR(pc) == arb__otb_having_move(o), 1, 0);
      d->needs_confirmation = 1; /* a lift without an announcement counts as deliberate (4.2.2) */
      arb__otb_lapse_on_touch(o);
    }
  }
  board_changed(o, ev->t, d);
  return ARB_OK;
}

arb_status arb__otb_ev_place(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  arb_square sq = ev->squares[0];
  if (ev->square_count == 0 || sq >= 64)
    return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "place: no square%s", NULL);
  arb_piece pc = ev->piece;
  arb_color mover = arb__otb_having_move(o);
  if (o->made_idx >= 0 && o->lifted == 0) mover = o->rec[o->made_idx].pub.by;
  if (o->cfg.sensing == ARB_OTB_BOARD_PRESENCE || !pc) {
    int got = hand_take(o, 0, mover);
    if (got < 0) got = hand_take(o, 0, (arb_color)!mover);
    pc = got < 0 ? ARB_NO_PIECE : (arb_piece)got;
    int last = ARB_RANK_OF(sq) == (ARB_PIECE_COLOR(pc) == ARB_WHITE ? 7 : 0);
    if (pc && ARB_PIECE_TYPE(pc) == ARB_PAWN && last) pc = PIECE_UNKNOWN_PROMO;
    if (!pc) {
      d->warnings |= ARB_OTB_WARN_SENSOR_MISREAD;
      return ARB_OK;
    }
  } else {
    hand_take(o, pc, mover);
    if (ARB_PIECE_TYPE(pc) != ARB_PAWN) { /* a promotion piece: the pawn stays off the board */
      int last = ARB_RANK_OF(sq) == (ARB_PIECE_COLOR(pc) == ARB_WHITE ? 7 : 0);
      if (last) {
        for (int i = o->nhand - 1; i >= 0; i--)
          if (o->hand[i].p == ARB_MAKE_PIECE(ARB_PIECE_COLOR(pc), ARB_PAWN)) {
            memmove(&o->hand[i], &o->hand[i + 1], (size_t)(o->nhand - i - 1) * sizeof o->hand[0]);
            o->nhand--;
            break;
          }
      }
    }
  }
  o->phys[sq] = pc;
  o->placed |= (arb_bitboard)1 << sq;
  if (pc != PIECE_UNKNOWN_PROMO && ARB_PIECE_TYPE(pc) != ARB_PAWN &&
      ARB_PIECE_TYPE(pc) != ARB_KING && !o->promo_first &&
      ARB_RANK_OF(sq) == (ARB_PIECE_COLOR(pc) == ARB_WHITE ? 7 : 0) &&
      (o->lifted & arb__otb_cur(o)->by_type[ARB_PAWN] &
       arb__otb_cur(o)->by_color[ARB_PIECE_COLOR(pc)] &
       (ARB_PIECE_COLOR(pc) == ARB_WHITE ? 0x00ff000000000000ULL : 0x000000000000ff00ULL)))
    o->promo_first = pc; /* a new piece on the promotion square: the choice is made (4.4.4) */
  board_changed(o, ev->t, d);
  return ARB_OK;
}

/* FEN field 1 into a board (kings may be missing: a snapshot mid-move).  0 on bad text, with
 * the column in *col. */
static int read_placement(const char *t, size_t len, arb_piece *out, int *col) {
  memset(out, 0, 64 * sizeof *out);
  int rank = 7, file = 0;
  for (size_t i = 0; i < len; i++) {
    char c = t[i];
    *col = (int)i + 1;
    if (c == ' ') break;
    if (c == '/') {
      if (file != 8 || rank == 0) return 0;
      rank--, file = 0;
      continue;
    }
    if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) return 0;
      continue;
    }
    const char *p = strchr("pnbrqk", c | 32);
    if (!p || !c || file > 7) return 0;
    int white = c >= 'A' && c <= 'Z';
    out[ARB_SQUARE(file, rank)] =
        ARB_MAKE_PIECE(white ? ARB_WHITE : ARB_BLACK, (arb_piece_type)(ARB_PAWN + (p - "pnbrqk")));
    file++;
  }
  return rank == 0 && file == 8;
}

arb_status arb__otb_ev_board(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  if (!ev->text)
    return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "board: no placement%s", NULL);
  arb_piece next[64];
  int col = 0;
  if (!read_placement(ev->text, ev->text_len, next, &col)) {
    char where[48];
    snprintf(where, sizeof where, "%d", col);
    return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_FEN_SYNTAX,
                           "board: not a placement (FEN field 1), at column %s", where);
  }
  /* the differences, as lifts then places */
  arb_color h = arb__otb_having_move(o);
  int presence = o->cfg.sensing == ARB_OTB_BOARD_PRESENCE;
  for (int pass = 0; pass < 2; pass++)
    for (int sq = 0; sq < 64; sq++) {
      arb_piece was = o->phys[sq], now = next[sq];
      if (presence ? (!was == !now) : was == now) continue;
      if (!was) continue;
      /* own pieces first: the order of a snapshot is unknown (4.3.3) */
      int own = ARB_PIECE_COLOR(was) == h;
      if ((pass == 0) != own) continue;
      arb_otb_event l = ARB_OTB_EVENT_INIT(ARB_OTB_LIFT, ev->t);
      l.squares[0] = (arb_square)sq;
      l.square_count = 1;
      l.source = ARB_OTB_SRC_EBOARD;
      arb__otb_ev_lift(o, &l, d);
    }
  for (int sq = 0; sq < 64; sq++) {
    arb_piece was = o->phys[sq], now = next[sq];
    if (presence ? (!was == !now) : was == now) continue;
    if (!now) continue;
    arb_otb_event pl = ARB_OTB_EVENT_INIT(ARB_OTB_PLACE, ev->t);
    pl.squares[0] = (arb_square)sq;
    pl.square_count = 1;
    pl.piece = presence ? ARB_NO_PIECE : now;
    pl.source = ARB_OTB_SRC_EBOARD;
    if (was) { /* replaced in one snapshot: lift first */
      arb_otb_event l = ARB_OTB_EVENT_INIT(ARB_OTB_LIFT, ev->t);
      l.squares[0] = (arb_square)sq;
      l.square_count = 1;
      l.source = ARB_OTB_SRC_EBOARD;
      arb__otb_ev_lift(o, &l, d);
    }
    arb__otb_ev_place(o, &pl, d);
  }
  /* two plies in one snapshot (no press seen between them): one pair of legal moves explains
   * the board — the first completed, the reply made; several — the arbiter's */
  arb_move c[ARB_MAX_MOVES], m1 = ARB_MOVE_NONE, m2 = ARB_MOVE_NONE;
  int64_t db = o->cfg.debounce_ms > 0 ? o->cfg.debounce_ms : 250;
  o->unexplained = 0;
  if (!arb__otb_over(o) && ev->stable_ms >= db && !o->cand_valid && o->made_idx < 0 &&
      !arb__otb_same_placement(o->phys, arb__otb_cur(o)->board) &&
      !arb__otb_successors_matching(o, arb__otb_cur(o), c)) {
    int pairs = pairs_matching(o, arb__otb_cur(o), &m1, &m2);
    if (pairs == 1) {
      o->ntouched = 0; /* the reply's lifts are not the first mover's touches */
      d->warnings &= ~ARB_OTB_WARN_SENSOR_MISREAD; /* what the snapshot's steps looked like */
      arb_status st = arb__otb_make_legal(o, m1, 1, ev->t, 1, d);
      if (st) return st;
      if (!d->restored && o->made_idx >= 0) {
        st = arb__otb_complete_made(o, 0, d);
        if (st) return st;
        if (!arb__otb_over(o)) {
          o->cand_valid = 1;
          o->cand = m2;
          o->cand_t = o->change_t = ev->t;
        }
      }
    } else if (pairs > 1) {
      o->unexplained = 1;
      d->needs |= ARB_OTB_NEEDS_ARBITER;
      d->warnings |= ARB_OTB_WARN_BOARD_MISMATCH;
    }
  }
  if (ev->stable_ms >= db) {
    o->change_t = ev->t - ev->stable_ms;
    if (o->cand_valid) {
      o->cand_t = o->change_t;
      arb_status st = arb__otb_commit_candidate(o, d);
      if (st) return st;
    }
    if (o->retract_pending) {
      if (arb__otb_is_casual(o)) {
        arb_status st = arb__otb_take_back(o, o->made_idx, NULL);
        if (st) return st;
        arb__otb_reset_progress(o);
        d->takeback = 1;
      } else {
        arb__otb_set_violation(d, ARB_OTB_V_RELEASED_MOVE_CHANGED,
                               arb__otb_is_uscf(o) ? "9" : "4.7");
        d->needs_confirmation = 1;
      }
    }
  }
  return ARB_OK;
}
