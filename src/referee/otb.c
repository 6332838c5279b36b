/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * otb.c: the over-the-board referee (arbiter/otb.h).  One game: the record of everything
 * played (legal, illegal, annulled), the game layer's game rebuilt from it (an illegal move
 * that is on the board starts a new segment from the real position), the move in progress of
 * the player having the move, the clock; events in, decisions out; claims and rulings
 * (Articles 6, 8, 9, 11, 12 and Appendix A/B/Guidelines III; US Chess where it differs); the
 * as-played record and its PGN.  Article 4 is otb_touch.c, the e-board otb_board.c, completed
 * illegal moves and their penalties otb_penalty.c (otb_internal.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "referee/otb_internal.h"

/* ---- names ---- */

static const char *const rules_names[ARB_OTB_RULES_COUNT] = {"fide", "fide-rapid", "fide-blitz",
                                                             "uscf", "uscf-blitz", "casual"};
static const char *const kind_names[ARB_OTB_KIND_COUNT] = {
    "start",         "touch",        "adjust_announce",
    "lift",          "place",        "board",
    "release",       "move",         "promote_choice",
    "press",         "clock_pause",  "clock_resume",
    "flag_shown",    "claim",        "arbiter_observes",
    "arbiter_rules", "record",       "offer_draw",
    "accept_draw",   "decline_draw", "resign",
    "device",        "note",         "sign"};
static const char *const matter_names[ARB_OTB_M_COUNT] = {"",
                                                          "illegal_move",
                                                          "touch_move",
                                                          "flag",
                                                          "threefold",
                                                          "fifty",
                                                          "dead_position",
                                                          "quickplay_increment",
                                                          "no_normal_means",
                                                          "pawn_on_last_rank",
                                                          "both_kings_in_check"};
static const char *const ruling_names[ARB_OTB_R_COUNT] = {"",
                                                          "accept",
                                                          "reject",
                                                          "agree_increment",
                                                          "supply_piece",
                                                          "no_valid_reason",
                                                          "time_adjust",
                                                          "result"};
static const char *const refusal_names[ARB_OTB_REFUSAL_COUNT] = {
    "ok",          "bad_event",      "bad_move", "game_over",
    "not_allowed", "time_backwards", "no_game",  "no_memory"};
static const char *const violation_names[ARB_OTB_V_COUNT] = {"",
                                                             "touch_move",
                                                             "rook_first_castling",
                                                             "released_move_changed",
                                                             "promotion_choice_changed",
                                                             "adjust_out_of_turn",
                                                             "illegal_move_completed",
                                                             "press_without_move",
                                                             "two_hands",
                                                             "promotion_not_completed",
                                                             "clock_other_hand",
                                                             "pause_without_reason",
                                                             "improper_clock_press",
                                                             "move_written_in_advance"};
static const char *const violation_articles[ARB_OTB_V_COUNT] = {
    "",      "4.3.1", "4.4.2", "4.7",   "4.4.4", "4.2.1", "7.5.1",
    "7.5.3", "7.5.4", "7.5.2", "6.2.3", "6.11",  "8F7",   "8.1.2"};
static const char *const phase_names[] = {"idle", "touched", "lifted", "castling_in_progress",
                                          "made", "over"};
static arb_status parse_name(const char *const *names, int count, const char *name, size_t len,
                             int *out) {
  if (!name) return ARB_ERR_ARGUMENT;
  for (int i = 0; i < count; i++)
    if (names[i][0] && strlen(names[i]) == len && !memcmp(names[i], name, len)) {
      *out = i;
      return ARB_OK;
    }
  return ARB_ERR_ARGUMENT;
}

const char *arb_otb_rules_name(arb_otb_rules r) {
  return (unsigned)r < ARB_OTB_RULES_COUNT ? rules_names[r] : "";
}

arb_status arb_otb_rules_parse(const char *name, size_t len, arb_otb_rules *out) {
  int v;
  if (parse_name(rules_names, ARB_OTB_RULES_COUNT, name, len, &v)) return ARB_ERR_ARGUMENT;
  *out = (arb_otb_rules)v;
  return ARB_OK;
}

const char *arb_otb_kind_name(arb_otb_kind k) {
  return (unsigned)k < ARB_OTB_KIND_COUNT ? kind_names[k] : "";
}

arb_status arb_otb_kind_parse(const char *name, size_t len, arb_otb_kind *out) {
  int v;
  if (parse_name(kind_names, ARB_OTB_KIND_COUNT, name, len, &v)) return ARB_ERR_ARGUMENT;
  *out = (arb_otb_kind)v;
  return ARB_OK;
}

const char *arb_otb_matter_name(arb_otb_matter m) {
  return (unsigned)m < ARB_OTB_M_COUNT ? matter_names[m] : "";
}

arb_status arb_otb_matter_parse(const char *name, size_t len, arb_otb_matter *out) {
  int v;
  if (parse_name(matter_names, ARB_OTB_M_COUNT, name, len, &v)) return ARB_ERR_ARGUMENT;
  *out = (arb_otb_matter)v;
  return ARB_OK;
}

const char *arb_otb_ruling_name(arb_otb_ruling r) {
  return (unsigned)r < ARB_OTB_R_COUNT ? ruling_names[r] : "";
}

arb_status arb_otb_ruling_parse(const char *name, size_t len, arb_otb_ruling *out) {
  int v;
  if (parse_name(ruling_names, ARB_OTB_R_COUNT, name, len, &v)) return ARB_ERR_ARGUMENT;
  *out = (arb_otb_ruling)v;
  return ARB_OK;
}

const char *arb_otb_refusal_name(arb_otb_refusal r) {
  return (unsigned)r < ARB_OTB_REFUSAL_COUNT ? refusal_names[r] : "";
}

const char *arb_otb_violation_name(arb_otb_violation v) {
  return (unsigned)v < ARB_OTB_V_COUNT ? violation_names[v] : "";
}

const char *arb_otb_phase_name(arb_otb_phase p) {
  return (unsigned)p <= ARB_OTB_OVER ? phase_names[p] : "";
}

/* ---- rule-set facts ---- */

int arb__otb_is_uscf(const arb_otb *o) {
  return o->cfg.rules == ARB_OTB_USCF || o->cfg.rules == ARB_OTB_USCF_BLITZ;
}

int arb__otb_is_casual(const arb_otb *o) { return o->cfg.rules == ARB_OTB_CASUAL; }
int arb__otb_is_fide(const arb_otb *o) { return !arb__otb_is_uscf(o) && !arb__otb_is_casual(o); }
arb_otb_supervision arb__otb_supervision(const arb_otb *o) {
  if (o->cfg.supervision != ARB_OTB_SUP_DEFAULT) return o->cfg.supervision;
  if (o->cfg.rules == ARB_OTB_FIDE_RAPID) return ARB_OTB_SUP_A5;
  if (o->cfg.rules == ARB_OTB_FIDE_BLITZ) return ARB_OTB_SUP_B3;
  return ARB_OTB_SUP_DEFAULT;
}

const arb_position *arb__otb_cur(const arb_otb *o) {
  return arb_game_position(arb_referee_game(o->ref));
}
arb_color arb__otb_having_move(const arb_otb *o) { return (arb_color)arb__otb_cur(o)->turn; }

void arb__otb_fen_of(const arb_position *p, char *buf) { arb_fen_write(p, buf, ARB_FEN_MAX, 0); }

/* Legal moves, without captures of a king (possible only after an illegal move stood). */
int arb__otb_legal_moves(const arb_position *p, arb_move *out) {
  int n = arb_generate_legal(p, out), k = 0;
  for (int i = 0; i < n; i++) {
    arb_piece cap = p->board[ARB_MOVE_TO(out[i])];
    if (ARB_MOVE_KIND(out[i]) != ARB_MOVE_CASTLING && cap && ARB_PIECE_TYPE(cap) == ARB_KING)
      continue;
    out[k++] = out[i];
  }
  return k;
}

/* The placement a legal move leaves. */
void arb__otb_after_move(const arb_position *p, arb_move m, arb_position *out) {
  arb_undo u;
  *out = *p;
  arb_make_move(out, m, &u);
}

/* Where the king and rook of a castling move end (standard and Chess960). */
void arb__otb_castle_squares(const arb_position *p, arb_move m, arb_square *kto, arb_square *rto) {
  arb_square k = ARB_MOVE_FROM(m), r = ARB_MOVE_TO(m);
  int rank = ARB_RANK_OF(k);
  int h = ARB_FILE_OF(r) > ARB_FILE_OF(k);
  (void)p;
  *kto = ARB_SQUARE(h ? 6 : 2, rank);
  *rto = ARB_SQUARE(h ? 5 : 3, rank);
}

/* A position from a board array (any placement; side to move, counters given). */
static int position_from_board(const arb_piece *board, arb_color turn, const arb_position *ref,
                               int keep_castling, arb_position *out) {
  char fen[128];
  size_t n = 0;
  static const char letters[] = " pnbrqk";
  for (int rank = 7; rank >= 0; rank--) {
    int empty = 0;
    for (int file = 0; file < 8; file++) {
      arb_piece pc = board[ARB_SQUARE(file, rank)];
      if (!pc) {
        empty++;
        continue;
      }
      if (empty) fen[n++] = (char)('0' + empty), empty = 0;
      char c = letters[ARB_PIECE_TYPE(pc)];
      fen[n++] = ARB_PIECE_COLOR(pc) == ARB_WHITE ? (char)(c - 32) : c;
    }
    if (empty) fen[n++] = (char)('0' + empty);
    if (rank) fen[n++] = '/';
  }
  char castling[8] = "-";
  if (keep_castling && ref) {
    char full[ARB_FEN_MAX];
    arb__otb_fen_of(ref, full);
    const char *sp = strchr(full, ' ');
    if (sp && sp[1] && sp[2] == ' ') {
      sscanf(sp + 3, "%7s", castling);
    }
  }
  snprintf(fen + n, sizeof fen - n, " %c %s - %u %u", turn == ARB_WHITE ? 'w' : 'b', castling,
           ref ? ref->halfmove_clock : 0u, ref ? ref->fullmove_number : 1u);
  return arb_fen_read(out, fen, ARB_FEN_PROBLEMS_ALL, NULL) == ARB_OK;
}

/* The real position after an illegal move from → to (promo: the new piece's type or 0). */
static int after_pseudo(const arb_position *p, arb_square from, arb_square to, arb_piece_type promo,
                        arb_square rook_from, arb_square rook_to, arb_position *out) {
  arb_piece board[64];
  memcpy(board, p->board, sizeof board);
  arb_piece pc = board[from];
  if (rook_from < 64 && rook_to < 64) { /* an illegal castling: the rook moved as well */
    board[rook_to] = board[rook_from];
    board[rook_from] = ARB_NO_PIECE;
  }
  if (from != to) {
    board[to] = promo ? ARB_MAKE_PIECE(ARB_PIECE_COLOR(pc), promo) : pc;
    board[from] = ARB_NO_PIECE;
  }
  arb_position tmp;
  if (!position_from_board(board, (arb_color)!p->turn, p, 1, &tmp)) return 0;
  /* counters: a capture or pawn move resets the 50-move count */
  char fen[ARB_FEN_MAX];
  arb__otb_fen_of(&tmp, fen);
  unsigned half = (p->board[to] || ARB_PIECE_TYPE(pc) == ARB_PAWN) ? 0u : p->halfmove_clock + 1u;
  unsigned full = p->fullmove_number + (p->turn == ARB_BLACK ? 1u : 0u);
  char *sp = strrchr(fen, ' ');
  if (!sp) return 0;
  *sp = 0;
  sp = strrchr(fen, ' ');
  if (!sp) return 0;
  snprintf(sp, sizeof fen - (size_t)(sp - fen), " %u %u", half, full);
  return arb_fen_read(out, fen, ARB_FEN_PROBLEMS_ALL, NULL) == ARB_OK;
}

int arb__otb_same_placement(const arb_piece *a, const arb_piece *b) {
  return !memcmp(a, b, 64 * sizeof *a);
}

/* ---- the record ---- */

static entry *add_entry(arb_otb *o) {
  if (o->nrec == o->caprec) {
    uint32_t cap = o->caprec ? o->caprec * 2 : 32;
    entry *n = realloc(o->rec, cap * sizeof *n);
    if (!n) return NULL;
    o->rec = n;
    o->caprec = cap;
  }
  entry *e = &o->rec[o->nrec++];
  memset(e, 0, sizeof *e);
  e->pub.t_made = e->pub.t_press = e->pub.clock_ms = -1;
  return e;
}

/* ---- the referee ---- */

arb_status arb__otb_ref(arb_otb *o, arb_ref_event *ev, arb_ref_decision *rd) {
  ev->t = o->now < 0 ? ARB_REF_NO_TIME : o->now;
  arb_status st = arb_referee_event(o->ref, ev, rd);
  if (st == ARB_OK) {
    if (ev->kind == ARB_REF_MOVE || ev->kind == ARB_REF_CONTINUE_FROM) o->steps++;
    if (ev->kind == ARB_REF_REINSTATE) o->steps = ev->ply > 0 ? ev->ply - 1 : 0;
  }
  return st;
}

int arb__otb_over(const arb_otb *o) {
  const arb_game *g = o->has_game ? arb_referee_game(o->ref) : NULL;
  return g && arb_game_outcome(g).result != ARB_RESULT_NONE;
}

/* Whose clock runs (untimed games too): a made move's, until its press; else the side to move. */
int arb__otb_running(const arb_otb *o) {
  arb_ref_state s;
  arb_referee_state_of(o->ref, &s);
  return s.unpressed >= 0 ? s.unpressed : (int)s.turn;
}

arb_status arb__otb_take_back(arb_otb *o, int idx, arb_otb_decision *d) {
  int step = 0, found = 0, first = 0;
  for (uint32_t i = (uint32_t)idx; i < o->nrec; i++) {
    entry *e = &o->rec[i];
    if (e->pub.annulled) continue;
    if (!found) { /* the first that counts: the referee takes back from its step on */
      found = 1;
      first = (int)i;
      step = first < o->book ? first + 1 - o->book : e->step;
    }
    e->pub.annulled = 1;
    e->pending = 0;
    if (d && d->annulled_count < 8) snprintf(d->annulled[d->annulled_count++], 8, "%s", e->pub.uci);
  }
  if (o->made_idx >= idx) o->made_idx = -1;
  if (!found || step > o->steps) return ARB_OK;
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_REINSTATE, 0);
  ev.ply = step;
  arb_ref_decision rd;
  arb_status st = arb__otb_ref(o, &ev, &rd);
  if (st == ARB_OK && first < o->book) o->book = first; /* the book kept */
  return st;
}

void arb__otb_reset_progress(arb_otb *o) {
  o->ntouched = 0;
  o->castle_intent = o->adjust_pending = 0;
  o->king_castle_side = -1;
  o->nhand = 0;
  o->lifted = o->placed = 0;
  o->cand_valid = 0;
  o->retract_pending = 0;
  o->press_pending = 0;
  o->unexplained = 0;
  o->promo_choice = ARB_NO_PIECE;
  o->promo_first = ARB_NO_PIECE;
  o->pseudo_rook_from = o->pseudo_rook_to = ARB_NO_SQUARE;
}

static int completed_plies(const arb_otb *o) {
  int n = 0;
  for (uint32_t i = 0; i < o->nrec; i++)
    if (!o->rec[i].pub.annulled && o->rec[i].pub.completed) n++;
  return n;
}

/* ---- the obligation (Article 4) ---- */

static void fill_state(const arb_otb *o, arb_otb_decision *d) {
  if (!o->has_game) return;
  const arb_position *p = arb__otb_cur(o);
  arb_ref_state s;
  arb_referee_state_of(o->ref, &s);
  arb__otb_fen_of(p, d->fen);
  d->having_move = (arb_color)p->turn;
  d->over = s.over;
  if (s.over) d->outcome = s.outcome;
  d->illegal_count[0] = o->illegal_count[0];
  d->illegal_count[1] = o->illegal_count[1];
  d->repetitions = arb_game_repetitions(arb_referee_game(o->ref));
  d->timed = o->timed;
  d->running = s.over ? -1 : s.unpressed >= 0 ? s.unpressed : (int8_t)s.turn;
  d->draw_offer = s.draw_offer;
  /* the clock at this event's time: events of the board and the hands (a touch, a note) do
   * not go to the referee, whose state is at its last event */
  for (int c = 0; c < 2; c++)
    d->remaining_ms[c] =
        o->timed ? arb_clock_remaining(arb_referee_clock(o->ref), (arb_color)c, o->now) : -1;
  if (s.over)
    d->phase = ARB_OTB_OVER;
  else if (o->made_idx >= 0 && !o->ntouched)
    d->phase = ARB_OTB_MADE;
  else if (o->king_castle_side >= 0)
    d->phase = ARB_OTB_CASTLING_IN_PROGRESS;
  else if (o->lifted)
    d->phase = ARB_OTB_LIFTED;
  else if (o->ntouched)
    d->phase = ARB_OTB_TOUCHED;
  else
    d->phase = ARB_OTB_IDLE;
  arb__otb_obligation_of(o, o->touched, o->ntouched, &d->obligation);
}

arb_status arb__otb_refuse(arb_otb_decision *d, arb_otb_refusal r, arb_status st, const char *fmt,
                           const char *arg) {
  d->status = st;
  d->refusal = r;
  snprintf(d->message, sizeof d->message, fmt, arg ? arg : "");
  return st;
}

void arb__otb_set_violation(arb_otb_decision *d, arb_otb_violation v, const char *article) {
  d->violation = v;
  snprintf(d->article, sizeof d->article, "%s", article ? article : violation_articles[v]);
}

arb_status arb__otb_end_game(arb_otb *o, arb_result r, arb_termination t, int by) {
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_ADJUDICATE, 0);
  ev.result = r;
  ev.termination = t;
  ev.by = (int8_t)by;
  arb_ref_decision rd;
  return arb__otb_ref(o, &ev, &rd);
}

void arb__otb_forfeit(arb_otb *o, arb_color side, arb_termination t) {
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_FORFEIT, 0);
  ev.side = (int8_t)side;
  ev.termination = t;
  arb_ref_decision rd;
  arb__otb_ref(o, &ev, &rd);
}

arb_result arb__otb_win_for(arb_color c) {
  return c == ARB_WHITE ? ARB_RESULT_WHITE_WINS : ARB_RESULT_BLACK_WINS;
}

/* Time for `side` (a penalty, III.4): reported always, put on the clock of a timed game. */
void arb__otb_add_time(arb_otb *o, arb_color side, int seconds, arb_otb_decision *d) {
  if (seconds <= 0) return;
  d->time_added_s[side] += seconds;
  if (!o->timed) return;
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_ADJUST_TIME, 0);
  ev.side = (int8_t)side;
  ev.ms = (int64_t)seconds * 1000;
  arb_ref_decision rd;
  arb__otb_ref(o, &ev, &rd);
}

/* ---- making and completing moves ---- */

void arb__otb_touched_from_entry(arb_otb *o, const entry *e) {
  arb__otb_reset_progress(o);
  if (e->from == e->to) return;
  const arb_position *p = &e->before;
  arb__otb_add_touch(o, e->from, 1, 0, 0);
  if (p->board[e->to] && ARB_PIECE_COLOR(p->board[e->to]) != p->turn)
    arb__otb_add_touch(o, e->to, 0, 0, 0);
  /* 4.7.2: a king released on its castling square (castling itself: king and rook touched) */
  if (e->pub.legal && ARB_MOVE_KIND(e->move) == ARB_MOVE_CASTLING) {
    arb__otb_add_touch(o, e->to, 1, 0, 0);
    o->king_castle_side = (int8_t)arb__otb_castle_side_of(e->move);
  } else if (ARB_PIECE_TYPE(p->board[e->from]) == ARB_KING &&
             ARB_RANK_OF(e->from) == ARB_RANK_OF(e->to) &&
             abs(ARB_FILE_OF(e->from) - ARB_FILE_OF(e->to)) == 2) {
    o->king_castle_side = ARB_FILE_OF(e->to) > ARB_FILE_OF(e->from);
  }
}

void arb__otb_record_press(arb_otb *o, entry *e) {
  e->pub.completed = 1;
  e->pub.t_press = o->now;
  const arb_clock *c = arb_referee_clock(o->ref);
  if (c) e->pub.clock_ms = arb_clock_remaining(c, e->pub.by, o->now);
}

/* A legal move's entry: its names and the position it leaves. */
static void legal_entry(entry *e, const arb_position *p, arb_move m) {
  e->move = m;
  e->from = ARB_MOVE_FROM(m);
  e->to = ARB_MOVE_TO(m);
  e->promo = ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION ? ARB_MOVE_PROMO(m) : ARB_NO_TYPE;
  e->pub.legal = 1;
  arb_uci_write(p, m, e->pub.uci, sizeof e->pub.uci);
  arb_san_write(p, m, e->pub.san, sizeof e->pub.san);
  arb__otb_after_move(p, m, &e->after);
  arb__otb_fen_of(&e->after, e->pub.fen_after);
}

/* Adds a made move to the record and hands it to the referee, made but not completed (its
 * press to come).  legal: m; else from/to/promo as played, a new segment from the board. */
arb_status arb__otb_make_move(arb_otb *o, arb_move m, arb_square from, arb_square to,
                              arb_piece_type promo, int hands, int64_t t, arb_otb_decision *d) {
  const arb_position before = *arb__otb_cur(o); /* the referee's game changes below */
  const arb_position *p = &before;
  arb_color by = (arb_color)p->turn;
  entry *e = add_entry(o);
  if (!e) return ARB_ERR_NO_MEMORY;
  e->pub.by = by;
  e->pub.t_made = t;
  e->before = *p;
  e->hands = (uint8_t)hands;
  arb_ref_decision rd;
  if (m != ARB_MOVE_NONE) {
    legal_entry(e, p, m);
    arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_MOVE, 0);
    ev.move = m;
    ev.by = (int8_t)by;
    ev.flags = ARB_REF_MADE_ONLY;
    if (arb__otb_ref(o, &ev, &rd) != ARB_OK) {
      o->nrec--;
      return rd.status == ARB_ERR_NO_MEMORY ? ARB_ERR_NO_MEMORY : ARB_ERR_ARGUMENT;
    }
  } else {
    e->from = from;
    e->to = to;
    e->promo = promo;
    e->pub.violation = ARB_OTB_V_ILLEGAL_MOVE_COMPLETED;
    static const char files[] = "abcdefgh", promos[] = "  nbrq ";
    if (from == to)
      snprintf(e->pub.uci, sizeof e->pub.uci, "0000");
    else
      snprintf(e->pub.uci, sizeof e->pub.uci, "%c%c%c%c%s", files[ARB_FILE_OF(from)],
               (char)('1' + ARB_RANK_OF(from)), files[ARB_FILE_OF(to)],
               (char)('1' + ARB_RANK_OF(to)), promo ? (char[]){promos[promo], 0} : "");
    static const char letters[] = "  NBRQK";
    arb_piece pc = p->board[from];
    char san[32];
    if (from == to)
      snprintf(san, sizeof san, "--");
    else
      snprintf(san, sizeof san, "%s%c%c%c%c%c%s",
               pc && ARB_PIECE_TYPE(pc) != ARB_PAWN ? (char[]){letters[ARB_PIECE_TYPE(pc)], 0} : "",
               files[ARB_FILE_OF(from)], (char)('1' + ARB_RANK_OF(from)), p->board[to] ? 'x' : '-',
               files[ARB_FILE_OF(to)], (char)('1' + ARB_RANK_OF(to)),
               promo ? (char[]){'=', (char)(letters[promo]), 0} : "");
    size_t sl = strlen(san) < sizeof e->pub.san - 1 ? strlen(san) : sizeof e->pub.san - 1;
    memcpy(e->pub.san, san, sl);
    e->pub.san[sl] = 0;
    if (!after_pseudo(p, from, to, promo, o->pseudo_rook_from, o->pseudo_rook_to, &e->after)) {
      o->nrec--;
      return ARB_ERR_ARGUMENT;
    }
    /* play goes on from the board the illegal move left, a new segment of the referee's game */
    arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_CONTINUE_FROM, 0);
    ev.position = &e->after;
    ev.by = (int8_t)by;
    ev.flags = ARB_REF_MADE_ONLY;
    if (arb__otb_ref(o, &ev, &rd) != ARB_OK) {
      o->nrec--;
      return rd.status == ARB_ERR_NO_MEMORY ? ARB_ERR_NO_MEMORY : ARB_ERR_ARGUMENT;
    }
  }
  e->step = o->steps;
  arb__otb_fen_of(&e->after, e->pub.fen_after);
  /* the move is made (nothing above refused it): a pending illegal move of the opponent now
   * stands (A.5.2, B.3) */
  arb_otb_supervision sup = arb__otb_supervision(o);
  if (arb__otb_is_fide(o) && (sup == ARB_OTB_SUP_A5 || sup == ARB_OTB_SUP_B3))
    for (uint32_t i = 0; i + 1 < o->nrec; i++) {
      entry *x = &o->rec[i];
      if (x->pending && !x->pub.annulled && x->pub.by != by) {
        x->pending = 0;
        x->pub.stood = 1;
        d->stands = 1;
      }
    }
  o->made_idx = (int)(e - o->rec);
  o->must_play = ARB_MOVE_NONE;
  d->made = 1;
  snprintf(d->made_uci, sizeof d->made_uci, "%s", e->pub.uci);
  d->made_legal = e->pub.legal;
  /* the opponent now has the move (1.3): a fresh move in progress */
  arb__otb_reset_progress(o);
  if (e->pub.legal && arb__otb_over(o)) {
    /* 6.2.1.1: a move that ends the game is completed without a press (the referee's) */
    arb__otb_record_press(o, e);
    d->completed = 1;
    o->made_idx = -1;
  }
  return ARB_OK; /* A.5.4 (the illegal position still there) is judged once the move is completed */
}

/* A legal move the player having the move makes (from the log or the board). */
arb_status arb__otb_make_legal(arb_otb *o, arb_move m, int hands, int64_t t, int eboard,
                               arb_otb_decision *d) {
  arb_otb_obligation ob;
  arb__otb_obligation_of(o, o->touched, o->ntouched, &ob);
  if (ob.active && !arb__otb_allowed_has(&ob, m) && !arb__otb_is_casual(o)) {
    const arb_position *p = arb__otb_cur(o);
    int rook_first = ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING && ob.must_move &&
                     !((ob.must_move >> ARB_MOVE_FROM(m)) & 1u);
    arb_otb_violation v = rook_first ? ARB_OTB_V_ROOK_FIRST_CASTLING : ARB_OTB_V_TOUCH_MOVE;
    const char *art = rook_first                         ? "4.4.2"
                      : ob.must_capture && !ob.must_move ? "4.3.2"
                      : ob.must_capture                  ? "4.3.3"
                                                         : "4.3.1";
    if (o->king_castle_side >= 0) art = "4.7.2", v = ARB_OTB_V_RELEASED_MOVE_CHANGED;
    arb__otb_set_violation(d, v, art);
    if (arb__otb_enemy_lift_only(o)) {
      /* only an opponent's piece left its square: a misread or a displacement, not a move */
      d->violation = ARB_OTB_V_NONE;
      d->article[0] = 0;
      d->warnings |= ARB_OTB_WARN_SENSOR_MISREAD;
      d->needs_confirmation = 1;
      return arb__otb_make_move(o, m, 0, 0, 0, hands, t, d);
    }
    if (arb__otb_is_fide(o) && (arb__otb_touches_by_eboard(o) || (eboard && !o->ntouched))) {
      /* the sensors proved the touch: the referee enforces it (the move is not made) */
      d->needs_confirmation = 1;
      d->restored = 1;
      arb__otb_fen_of(p, d->restore_fen);
      o->cand_valid = 0;
      memcpy(o->phys, p->board, sizeof o->phys);
      o->nhand = 0;
      o->lifted = o->placed = 0;
      return ARB_OK;
    }
    /* a contact in the log: ruled on a claim (4.8) or when the arbiter observes it */
    touch_rec saved[MAX_TOUCH];
    int ns = o->ntouched;
    memcpy(saved, o->touched, sizeof saved);
    arb_status st = arb__otb_make_move(o, m, 0, 0, 0, hands, t, d);
    if (st) return st;
    o->breach.active = 1;
    o->breach.offender = (int8_t)o->rec[o->made_idx >= 0 ? o->made_idx : (int)o->nrec - 1].pub.by;
    o->breach.idx = (int)o->nrec - 1;
    memcpy(o->breach.touched, saved, sizeof saved);
    o->breach.ntouched = ns;
    o->breach.lapsed = 0;
    return ARB_OK;
  }
  return arb__otb_make_move(o, m, 0, 0, 0, hands, t, d);
}

/* Completes the made move with a press by its mover. */
arb_status arb__otb_complete_made(arb_otb *o, int other_hand, arb_otb_decision *d) {
  int idx = o->made_idx;
  entry *e = &o->rec[idx];
  o->made_idx = -1;
  arb_move q;
  if (!e->pub.legal && arb__otb_unfinished_pawn(e, &q) && !arb__otb_is_uscf(o)) {
    /* 7.5.2: the pawn left on the last rank — made a queen by this press but where it stands
     * until challenged (A.5, B.3) */
    if (!arb__otb_challenge_only(o)) {
      arb_status st = arb__otb_queen_in(o, e, q, 1);
      if (st) return st;
      arb__otb_record_press(o, e);
      d->completed = 1;
      return arb__otb_unfinished_completed(o, idx, d);
    }
  }
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_PRESS, 0);
  ev.by = (int8_t)e->pub.by;
  arb_ref_decision rd;
  arb__otb_ref(o, &ev, &rd); /* refused only when the opponent's reply completed it already */
  arb__otb_record_press(o, e);
  d->completed = 1;
  if (e->pub.legal && e->hands >= 2 && arb__otb_is_fide(o)) { /* 7.5.4 */
    e->pub.violation = ARB_OTB_V_TWO_HANDS;
    arb__otb_set_violation(d, ARB_OTB_V_TWO_HANDS, NULL);
    return arb__otb_illegal_completed(o, idx, d);
  }
  if (!e->pub.legal && arb__otb_unfinished_pawn(e, &q) && !arb__otb_is_uscf(o))
    return arb__otb_unfinished_completed(o, idx, d); /* 7.5.2 under A.5, B.3 */
  if (!e->pub.legal) return arb__otb_illegal_completed(o, idx, d);
  if (other_hand && !arb__otb_is_casual(o)) {
    arb__otb_set_violation(d, ARB_OTB_V_CLOCK_OTHER_HAND, arb__otb_is_uscf(o) ? "16C1" : "6.2.3");
    d->penalty_warning = 1;
  }
  return ARB_OK;
}

/* ---- the e-board ---- */

static arb_status ev_start(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  arb_otb_setup s = ev->setup ? *ev->setup : (arb_otb_setup)ARB_OTB_SETUP_INIT;
  if ((unsigned)s.rules >= ARB_OTB_RULES_COUNT || (unsigned)s.supervision > ARB_OTB_SUP_B3 ||
      (unsigned)s.sensing > ARB_OTB_BOARD_PRESENCE)
    return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT,
                           "start: a setting is out of range%s", NULL);
  arb_position start;
  if (s.start)
    start = *s.start;
  else
    arb_position_startpos(&start);
  arb_ruleset gr = s.rules == ARB_OTB_FIDE_RAPID              ? ARB_RULES_FIDE_RAPID
                   : s.rules == ARB_OTB_FIDE_BLITZ            ? ARB_RULES_FIDE_BLITZ
                   : arb__otb_is_casual(&(arb_otb){.cfg = s}) ? ARB_RULES_CASUAL
                   : (s.rules == ARB_OTB_USCF || s.rules == ARB_OTB_USCF_BLITZ) ? ARB_RULES_USCF
                                                                                : ARB_RULES_FIDE;
  /* the referee first: a start it refuses changes nothing */
  if (!o->ref && !(o->ref = arb_referee_new(gr)))
    return arb__otb_refuse(d, ARB_OTB_NO_MEMORY, ARB_ERR_NO_MEMORY, "out of memory%s", NULL);
  arb_ref_setup su = ARB_REF_SETUP_INIT;
  su.start = &start;
  su.rules = gr;
  su.control = s.control;
  if (s.control) su.clock_model = s.control->model; /* the control's own model */
  su.moves = s.moves;
  su.move_count = s.moves ? s.move_count : 0;
  arb_position q = start;
  for (size_t i = 0; i < su.move_count; i++) { /* the game so far: legal moves from the start */
    if (!arb_is_legal(&q, s.moves[i]))
      return arb__otb_refuse(d, ARB_OTB_BAD_MOVE, ARB_ERR_MOVE_ILLEGAL,
                             "start: a move of the game so far is not legal%s", NULL);
    arb_position next;
    arb__otb_after_move(&q, s.moves[i], &next);
    q = next;
  }
  arb_ref_event rev = ARB_REF_EVENT_INIT(ARB_REF_START, ev->t < 0 ? ARB_REF_NO_TIME : ev->t);
  rev.setup = &su;
  arb_ref_decision rd;
  if (arb_referee_event(o->ref, &rev, &rd) != ARB_OK)
    return arb__otb_refuse(d,
                           rd.refusal == ARB_REF_NO_MEMORY ? ARB_OTB_NO_MEMORY : ARB_OTB_BAD_EVENT,
                           rd.status, "start: %.150s", rd.message);
  arb_referee *ref = o->ref;
  free(o->rec);
  memset(o, 0, sizeof *o);
  o->ref = ref;
  o->has_game = 1;
  o->cfg = s;
  o->cfg.start = NULL;
  o->cfg.moves = NULL;
  o->cfg.control = NULL;
  o->grules = gr;
  o->start = start;
  o->made_idx = -1;
  o->king_castle_side = -1;
  o->pseudo_rook_from = o->pseudo_rook_to = ARB_NO_SQUARE;
  o->now = ev->t;
  o->illegal_count[0] = s.illegal_count[0];
  o->illegal_count[1] = s.illegal_count[1];
  arb_position p = start;
  o->book = (int)su.move_count;
  for (size_t i = 0; i < su.move_count; i++) { /* the book in the record, completed, no times */
    entry *e = add_entry(o);
    if (!e)
      return arb__otb_refuse(d, ARB_OTB_NO_MEMORY, ARB_ERR_NO_MEMORY, "out of memory%s", NULL);
    e->pub.by = (arb_color)p.turn;
    e->before = p;
    e->hands = 1;
    legal_entry(e, &p, s.moves[i]);
    e->pub.completed = 1;
    p = e->after;
  }
  if (s.control) {
    o->tc = *s.control;
    o->timed = 1;
  }
  memcpy(o->phys, arb__otb_cur(o)->board, sizeof o->phys);
  return ARB_OK;
}

/* Whether t (n bytes) is a move in UCI squares ("e2e4", "b7b8q": the piece is read by the
 * caller), and its squares. */
int arb__otb_uci_squares(const char *t, size_t n, arb_square *from, arb_square *to) {
  if (n < 4 || n > 5 || t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8' || t[2] < 'a' ||
      t[2] > 'h' || t[3] < '1' || t[3] > '8')
    return 0;
  *from = ARB_SQUARE(t[0] - 'a', t[1] - '1');
  *to = ARB_SQUARE(t[2] - 'a', t[3] - '1');
  return 1;
}

/* A move entered in the log: SAN or UCI when legal, else UCI squares as played. */
static arb_status ev_move(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  if (!ev->text || !ev->text_len)
    return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "move: no move%s", NULL);
  arb_color h = arb__otb_having_move(o);
  int hands = ev->hands ? ev->hands : 1;
  if (o->made_idx >= 0 && ev->by == (int8_t)o->rec[o->made_idx].pub.by) {
    /* the mover enters a move again before pressing: the same move, or a changed one (4.7) */
    entry *e = &o->rec[o->made_idx];
    arb_move m;
    if (arb_move_read(&e->before, ev->text, ev->text_len, 0, &m, NULL) == ARB_OK && m == e->move) {
      e->hands = (uint8_t)hands;
      o->retract_pending = 0;
      memcpy(o->phys, arb__otb_cur(o)->board, sizeof o->phys);
      d->made = 1;
      snprintf(d->made_uci, sizeof d->made_uci, "%s", e->pub.uci);
      d->made_legal = e->pub.legal;
      return ARB_OK;
    }
    if (!arb__otb_is_casual(o)) {
      arb__otb_set_violation(d, ARB_OTB_V_RELEASED_MOVE_CHANGED, "4.7");
      return ARB_OK; /* the released move stands */
    }
    arb_status st = arb__otb_take_back(o, o->made_idx, NULL);
    if (st) return st;
    h = arb__otb_having_move(o);
  } else if (ev->by >= 0 && ev->by != (int8_t)h) {
    d->warnings |= ARB_OTB_WARN_OUT_OF_TURN;
    return arb__otb_refuse(d, ARB_OTB_NOT_ALLOWED, ARB_ERR_NOT_YOUR_TURN,
                           "move: %s does not have the move", h == ARB_WHITE ? "Black" : "White");
  }
  const arb_position *p = arb__otb_cur(o);
  arb_move m;
  arb_status st = arb_move_read(p, ev->text, ev->text_len, 0, &m, NULL);
  arb_status res;
  if (st == ARB_OK && p->board[ARB_MOVE_TO(m)] && ARB_MOVE_KIND(m) != ARB_MOVE_CASTLING &&
      ARB_PIECE_TYPE(p->board[ARB_MOVE_TO(m)]) == ARB_KING)
    st = ARB_ERR_MOVE_ILLEGAL;
  if (st == ARB_OK) {
    res = arb__otb_make_legal(o, m, hands, ev->t, 0, d);
  } else {
    /* an illegal move as played: squares in UCI form */
    const char *s = ev->text;
    size_t n = ev->text_len;
    arb_square from, to;
    if (!arb__otb_uci_squares(s, n, &from, &to))
      return arb__otb_refuse(d, ARB_OTB_BAD_MOVE, ARB_ERR_MOVE_SYNTAX,
                             "move: '%s' is no legal move and not a move in UCI squares", NULL);
    arb_piece_type promo = ARB_NO_TYPE;
    if (n == 5) {
      const char *q = strchr("nbrq", s[4] | 32);
      if (!q || !s[4])
        return arb__otb_refuse(d, ARB_OTB_BAD_MOVE, ARB_ERR_MOVE_SYNTAX,
                               "move: bad promotion piece%s", NULL);
      promo = (arb_piece_type)(ARB_KNIGHT + (q - "nbrq"));
    }
    arb_piece pc = p->board[from];
    if (!pc || ARB_PIECE_COLOR(pc) != h || from == to ||
        (p->board[to] && ARB_PIECE_COLOR(p->board[to]) == h))
      return arb__otb_refuse(d, ARB_OTB_BAD_MOVE, ARB_ERR_MOVE_ILLEGAL,
                             "move: no piece of the player having the move can go so%s", NULL);
    res = arb__otb_make_move(o, ARB_MOVE_NONE, from, to, promo, hands, ev->t, d);
  }
  if (res == ARB_OK) memcpy(o->phys, arb__otb_cur(o)->board, sizeof o->phys);
  return res;
}

static arb_status ev_press(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  int running = arb__otb_running(o);
  int by = ev->by >= 0 ? ev->by : running;
  if (by != running) { /* the lever was already down on that side */
    d->warnings |= ARB_OTB_WARN_OUT_OF_TURN;
    return ARB_OK;
  }
  arb_ref_state rs;
  arb_referee_state_of(o->ref, &rs);
  if (rs.paused) { /* a press restarts the clocks the arbiter stopped */
    arb_ref_event re = ARB_REF_EVENT_INIT(ARB_REF_RESUME, 0);
    arb_ref_decision rd;
    arb__otb_ref(o, &re, &rd);
  }
  arb_status st = ARB_OK;
  if ((arb_color)by == arb__otb_having_move(o))
    st = arb__otb_commit_candidate(o, d); /* the presser's move */
  if (st) return st;
  if (d->restored) return ARB_OK; /* the press belonged to a move the referee did not accept */
  if (o->made_idx >= 0 && o->rec[o->made_idx].pub.by == (arb_color)by)
    return arb__otb_complete_made(o, ev->other_hand, d);
  if ((arb_color)by != arb__otb_having_move(o)) return ARB_OK; /* completed by the reply */
  /* no made move: what does the board show? */
  arb_square from, to;
  arb_piece_type promo;
  if ((o->cfg.sensing != ARB_OTB_BOARD_NONE || o->eboard_seen) &&
      !arb__otb_same_placement(o->phys, arb__otb_cur(o)->board)) {
    arb_move c[ARB_MAX_MOVES];
    if (arb__otb_successors_matching(o, arb__otb_cur(o), c) >
        1) { /* a promotion piece the board cannot tell */
      d->needs |= ARB_OTB_NEEDS_PROMOTION_PIECE;
      o->press_pending = 1;
      return ARB_OK;
    }
    if (arb__otb_successors_displaced(o, arb__otb_cur(o), c) == 1) {
      /* 7.4: a piece knocked over or displaced while moving — not a press without a move: the
       * move stands and the piece is put back (on the player's own time) */
      d->warnings |= ARB_OTB_WARN_DISPLACED;
      d->needs_confirmation = 1;
      st = arb__otb_make_legal(o, c[0], 1, ev->t, 1, d);
      if (st || d->restored || o->made_idx < 0) return st;
      return arb__otb_complete_made(o, ev->other_hand, d);
    }
    if (o->unexplained) {
      /* the board shows what several pairs of moves explain: the arbiter says which */
      d->needs |= ARB_OTB_NEEDS_ARBITER;
      d->warnings |= ARB_OTB_WARN_BOARD_MISMATCH;
      return ARB_OK;
    }
    if (arb__otb_pseudo_from_board(o, &from, &to, &promo)) {
      const arb_position *p = arb__otb_cur(o);
      int last = ARB_RANK_OF(to) == (p->turn == ARB_WHITE ? 7 : 0);
      if (ARB_PIECE_TYPE(p->board[from]) == ARB_PAWN && last && !promo &&
          o->phys[to] == PIECE_UNKNOWN_PROMO) {
        d->needs |= ARB_OTB_NEEDS_PROMOTION_PIECE;
        o->press_pending = 1;
        return ARB_OK;
      }
      st = arb__otb_make_move(o, ARB_MOVE_NONE, from, to, promo, 1, ev->t, d);
      if (st) return st;
      d->made = 0; /* not a made move: completed by the press as it stands */
      return arb__otb_complete_made(o, ev->other_hand, d);
    }
    d->warnings |= ARB_OTB_WARN_BOARD_MISMATCH;
  }
  /* 7.5.3: a press without a move */
  entry *e;
  st = arb__otb_make_move(o, ARB_MOVE_NONE, 0, 0, 0, 1, ev->t, d);
  if (st) return st;
  e = &o->rec[o->nrec - 1];
  e->pub.violation = ARB_OTB_V_PRESS_WITHOUT_MOVE;
  d->made = 0;
  d->made_uci[0] = 0;
  o->made_idx = (int)(e - o->rec);
  arb__otb_set_violation(d, ARB_OTB_V_PRESS_WITHOUT_MOVE, NULL);
  if (arb__otb_is_casual(o)) return arb__otb_take_back(o, o->made_idx, NULL);
  return arb__otb_complete_made(o, 0, d);
}

/* A flag claimed or seen: the referee checks it against its clock, or, untimed, against the
 * flag shown (a clock it does not run), and gives the rule set's verdict. */
static arb_status rule_flag(arb_otb *o, int flagged, arb_otb_decision *d) {
  d->claim_valid = 0;
  if (arb__otb_over(o)) return ARB_OK;
  if (!o->timed && !o->flag_shown[flagged]) return ARB_OK;
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_FLAG, 0);
  ev.side = (int8_t)flagged;
  if (!o->timed) ev.flags = ARB_REF_FLAG_SEEN;
  arb_ref_decision rd;
  if (arb__otb_ref(o, &ev, &rd) == ARB_OK) d->claim_valid = 1;
  return ARB_OK;
}

static arb_status ev_claim(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d, int arbiter) {
  int by = ev->by;
  if (!arbiter && by < 0)
    return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "claim: no claimant (by)%s",
                           NULL);
  d->claim_valid = 0;
  if (arb__otb_over(o)) {
    if (ev->matter == ARB_OTB_M_FLAG) return ARB_OK; /* the game had ended first (M07) */
    return arb__otb_refuse(d, ARB_OTB_GAME_OVER, ARB_ERR_GAME_OVER, "the game is over%s", NULL);
  }
  switch (ev->matter) {
  case ARB_OTB_M_ILLEGAL_MOVE:
    if (arbiter && ev->ply > 0 && ev->text) return arb__otb_found_later(o, ev, d);
    return arb__otb_rule_illegal(o, arbiter ? -1 : by, arbiter, ev->ply, d);
  case ARB_OTB_M_TOUCH_MOVE: {
    if (!o->breach.active || (!arbiter && o->breach.offender == (int8_t)by)) return ARB_OK;
    if (!arbiter && o->breach.lapsed) return ARB_OK;   /* 4.8 */
    if (arb__otb_is_uscf(o) && arbiter) return ARB_OK; /* the director acts on a claim only */
    d->claim_valid = 1;
    int idx = o->breach.idx;
    touch_rec t[MAX_TOUCH];
    int nt = o->breach.ntouched;
    memcpy(t, o->breach.touched, sizeof t);
    arb_status st = arb__otb_reinstate(o, idx, d);
    if (st) return st;
    memcpy(o->touched, t, sizeof t);
    o->ntouched = nt;
    o->king_castle_side = -1;
    arb__otb_set_violation(d, ARB_OTB_V_TOUCH_MOVE, NULL);
    return ARB_OK;
  }
  case ARB_OTB_M_FLAG: {
    if (arbiter && arb__otb_is_uscf(o))
      return arb__otb_refuse(d, ARB_OTB_NOT_ALLOWED, ARB_ERR_NOT_ALLOWED,
                             "under US Chess only a player may call a flag%s", NULL);
    int flagged = arbiter ? (ev->side >= 0      ? ev->side
                             : o->flag_shown[0] ? 0
                             : o->flag_shown[1] ? 1
                                                : arb__otb_running(o))
                          : !by;
    return rule_flag(o, flagged, d);
  }
  case ARB_OTB_M_THREEFOLD:
  case ARB_OTB_M_FIFTY: {
    arb_move intended = ARB_MOVE_NONE;
    if (ev->text && ev->text_len &&
        arb_move_read(arb__otb_cur(o), ev->text, ev->text_len, 0, &intended, NULL) != ARB_OK)
      return arb__otb_refuse(d, ARB_OTB_BAD_MOVE, ARB_ERR_MOVE_ILLEGAL,
                             "claim: the intended move is not legal%s", NULL);
    arb_ref_event ce = ARB_REF_EVENT_INIT(ARB_REF_CLAIM_DRAW, 0);
    ce.by = (int8_t)by;
    ce.reason = ev->matter == ARB_OTB_M_THREEFOLD ? ARB_CLAIM_THREEFOLD : ARB_CLAIM_FIFTY;
    ce.move = intended;
    arb_ref_decision rd;
    arb_status st = arb__otb_ref(o, &ce, &rd);
    if (st == ARB_ERR_NOT_YOUR_TURN)
      return arb__otb_refuse(d, ARB_OTB_NOT_ALLOWED, st,
                             "claim: only the player having the move claims%s", NULL);
    if (st) return arb__otb_refuse(d, ARB_OTB_NOT_ALLOWED, st, "claim: %.150s", rd.message);
    d->claim_valid = rd.verdict.correct;
    if (!rd.verdict.correct) {
      /* the opponent's time (9.5.2), as the referee gave it (none on a fallen flag) */
      int penalty = (int)rd.verdict.penalty_s;
      if (o->timed) penalty = rd.time_added_to == (int8_t)!by ? (int)(rd.time_added_ms / 1000) : 0;
      if (penalty > 0) d->time_added_s[!by] += penalty;
      if (rd.verdict.must_play) o->must_play = rd.verdict.intended;
    }
    return ARB_OK;
  }
  case ARB_OTB_M_DEAD_POSITION: /* upheld only when the referee finds the position dead */
    d->claim_valid = arb__otb_end_game(o, ARB_RESULT_NONE, ARB_TERM_DEAD_POSITION, by) == ARB_OK;
    return ARB_OK;
  case ARB_OTB_M_QUICKPLAY_INCREMENT:
  case ARB_OTB_M_NO_NORMAL_MEANS: {
    if (!o->cfg.guidelines_iii || o->cfg.rules == ARB_OTB_FIDE_BLITZ)
      return arb__otb_refuse(d, ARB_OTB_NOT_ALLOWED, ARB_ERR_NOT_ALLOWED,
                             "claim: the Guidelines III were not announced for this event%s", NULL);
    if (o->timed && arb_clock_remaining(arb_referee_clock(o->ref), (arb_color)by, o->now) >= 120000)
      return arb__otb_refuse(d, ARB_OTB_NOT_ALLOWED, ARB_ERR_NOT_ALLOWED,
                             "claim: only with less than two minutes left (III.4, III.5)%s", NULL);
    o->judgement.active = 1;
    o->judgement.by = (int8_t)by;
    o->judgement.matter = ev->matter;
    d->needs |= ARB_OTB_NEEDS_ARBITER;
    d->claim_valid = -1;
    return ARB_OK;
  }
  case ARB_OTB_M_PAWN_ON_LAST_RANK:
  case ARB_OTB_M_BOTH_KINGS_IN_CHECK: {
    const arb_position *p = arb__otb_cur(o);
    int holds;
    if (ev->matter == ARB_OTB_M_PAWN_ON_LAST_RANK)
      holds = (p->by_type[ARB_PAWN] & 0xff000000000000ffULL) != 0;
    else {
      arb_position q;
      position_from_board(p->board, (arb_color)!p->turn, p, 0, &q);
      holds = arb_in_check(p) && arb_in_check(&q);
    }
    d->claim_valid = (int8_t)holds;
    if (holds) {
      o->watch.active = 1;
      o->watch.what = ev->matter;
      o->watch.plies = completed_plies(o);
    }
    return ARB_OK;
  }
  default:
    return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "claim: what is claimed?%s",
                           NULL);
  }
}

/* The arbiter stops or restarts the clocks (6.11): the referee's pause, of a timed game. */
static void pause_clock(arb_otb *o, int pause) {
  if (!o->timed) return;
  arb_ref_event ev = ARB_REF_EVENT_INIT(pause ? ARB_REF_PAUSE : ARB_REF_RESUME, 0);
  arb_ref_decision rd;
  arb__otb_ref(o, &ev, &rd); /* refused: they were stopped (or running) already */
}
static void resume(arb_otb *o) { pause_clock(o, 0); }

static arb_status ev_ruling(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  switch (ev->ruling) {
  case ARB_OTB_R_ACCEPT:
  case ARB_OTB_R_REJECT:
  case ARB_OTB_R_AGREE_INCREMENT:
    if (!o->judgement.active)
      return arb__otb_refuse(d, ARB_OTB_NOT_ALLOWED, ARB_ERR_NOT_ALLOWED,
                             "no claim awaits a ruling%s", NULL);
    o->judgement.active = 0;
    if (ev->ruling == ARB_OTB_R_REJECT) {
      arb__otb_add_time(o, (arb_color)!o->judgement.by, 120, d); /* III.4, III.5.3 */
    } else if (o->judgement.matter == ARB_OTB_M_NO_NORMAL_MEANS) {
      arb__otb_end_game(o, ARB_RESULT_DRAW, ARB_TERM_ARBITER, -1);
    }
    return ARB_OK;
  case ARB_OTB_R_TIME_ADJUST:
    if (ev->side < 0)
      return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT,
                             "time_adjust: whose clock (side)?%s", NULL);
    if (o->timed) {
      arb_ref_event ae = ARB_REF_EVENT_INIT(ARB_REF_ADJUST_TIME, 0);
      ae.side = ev->side;
      ae.ms = ev->ms;
      arb_ref_decision rd;
      if (arb__otb_ref(o, &ae, &rd))
        return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, rd.status, "time_adjust: %.150s", rd.message);
    }
    d->time_added_s[ev->side] += (int)(ev->ms / 1000);
    return ARB_OK;
  case ARB_OTB_R_RESULT:
    if (ev->result == ARB_RESULT_NONE)
      return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "result: which result?%s",
                             NULL);
    /* after the end too (a signed result, 8.7): the arbiter decides otherwise */
    arb__otb_end_game(o, ev->result, ARB_TERM_ARBITER, -1);
    return ARB_OK;
  case ARB_OTB_R_NO_VALID_REASON:
    arb__otb_set_violation(d, ARB_OTB_V_PAUSE_WITHOUT_REASON, NULL);
    d->penalty_warning = 1;
    resume(o);
    return ARB_OK;
  case ARB_OTB_R_SUPPLY_PIECE: resume(o); return ARB_OK;
  default:
    return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT,
                           "arbiter_rules: which decision?%s", NULL);
  }
}

arb_otb *arb_otb_new(void) {
  arb_otb *o = calloc(1, sizeof *o);
  if (o) o->made_idx = -1;
  return o;
}

void arb_otb_free(arb_otb *o) {
  if (!o) return;
  arb_referee_free(o->ref);
  free(o->rec);
  free(o);
}

static arb_status apply_event(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  memset(d, 0, offsetof(arb_otb_decision, obligation));
  memset(&d->made, 0, sizeof *d - offsetof(arb_otb_decision, made));
  d->claim_valid = -1;
  d->running = -1;
  d->draw_offer = -1;
  if (!o || !ev || (unsigned)ev->kind >= ARB_OTB_KIND_COUNT)
    return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "not an event%s", NULL);
  arb_status st = ARB_OK;
  if (ev->kind == ARB_OTB_START) {
    st = ev_start(o, ev, d);
    if (st == ARB_OK && arb__otb_over(o)) d->ended = 1;
    fill_state(o, d);
    return st;
  }
  if (!o->has_game)
    return arb__otb_refuse(d, ARB_OTB_NO_GAME, ARB_ERR_ARGUMENT, "no game: start first%s", NULL);
  if (ev->t < o->now)
    return arb__otb_refuse(d, ARB_OTB_TIME_BACKWARDS, ARB_ERR_TIME_BACKWARDS,
                           "the event's time is before the last one's%s", NULL);
  o->now = ev->t;
  int over = arb__otb_over(o);
  int ruling_on_result = ev->kind == ARB_OTB_ARBITER_RULES && ev->ruling == ARB_OTB_R_RESULT;
  if (over && !ruling_on_result && ev->kind != ARB_OTB_NOTE && ev->kind != ARB_OTB_RECORD &&
      ev->kind != ARB_OTB_SIGN && ev->kind != ARB_OTB_CLAIM && ev->kind != ARB_OTB_FLAG_SHOWN &&
      ev->kind != ARB_OTB_BOARD && ev->kind != ARB_OTB_PRESS) {
    fill_state(o, d);
    return arb__otb_refuse(d, ARB_OTB_GAME_OVER, ARB_ERR_GAME_OVER, "the game is over%s", NULL);
  }
  if (over && (ev->kind == ARB_OTB_BOARD || ev->kind == ARB_OTB_PRESS)) {
    fill_state(o, d);
    return ARB_OK;
  }
  if (ev->kind == ARB_OTB_LIFT || ev->kind == ARB_OTB_PLACE || ev->kind == ARB_OTB_BOARD)
    o->eboard_seen = 1;
  /* the board has been quiet long enough: the candidate move is released; a claim, an offer,
   * a resignation or an arbiter's act refers to the board as it stands */
  if (!over && ev->kind != ARB_OTB_PRESS) arb__otb_check_stable(o, ev->t, d);
  if (!arb__otb_over(o) && (ev->kind == ARB_OTB_CLAIM || ev->kind == ARB_OTB_ARBITER_OBSERVES ||
                            ev->kind == ARB_OTB_ARBITER_RULES || ev->kind == ARB_OTB_OFFER_DRAW ||
                            ev->kind == ARB_OTB_ACCEPT_DRAW || ev->kind == ARB_OTB_RESIGN ||
                            ev->kind == ARB_OTB_RECORD)) {
    st = arb__otb_commit_candidate(o, d);
    if (st) return arb__otb_refuse(d, ARB_OTB_NO_MEMORY, st, "%s", arb_strerror(st));
  }
  switch (ev->kind) {
  case ARB_OTB_TOUCH: st = arb__otb_ev_touch(o, ev, d); break;
  case ARB_OTB_ADJUST_ANNOUNCE:
    if (ev->by >= 0 && ev->by != (int8_t)arb__otb_having_move(o) && !arb__otb_is_casual(o)) {
      arb__otb_set_violation(d, ARB_OTB_V_ADJUST_OUT_OF_TURN, NULL);
      d->penalty_warning = 1;
    } else
      o->adjust_pending = 1;
    break;
  case ARB_OTB_LIFT: st = arb__otb_ev_lift(o, ev, d); break;
  case ARB_OTB_PLACE: st = arb__otb_ev_place(o, ev, d); break;
  case ARB_OTB_BOARD: st = arb__otb_ev_board(o, ev, d); break;
  case ARB_OTB_RELEASE: {
    st = arb__otb_commit_candidate(o, d);
    if (!st && o->made_idx >= 0) o->rec[o->made_idx].release_logged = 1;
    if (!st && o->castle_intent && o->made_idx < 0) { /* the king released on g1/c1 (4.7.2) */
      const arb_position *p = arb__otb_cur(o);
      arb_square ksq = arb_king_square(p, (arb_color)p->turn);
      for (int side = 0; side < 2; side++) {
        arb_square kto = ARB_SQUARE(side ? 6 : 2, ARB_RANK_OF(ksq));
        if (!o->phys[ksq] && o->phys[kto] == p->board[ksq]) o->king_castle_side = (int8_t)side;
      }
    }
    break;
  }
  case ARB_OTB_MOVE: st = ev_move(o, ev, d); break;
  case ARB_OTB_PROMOTE_CHOICE: {
    if (!ev->piece || ARB_PIECE_TYPE(ev->piece) < ARB_KNIGHT ||
        ARB_PIECE_TYPE(ev->piece) > ARB_QUEEN)
      return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT,
                             "promote_choice: which piece?%s", NULL);
    o->promo_choice = ev->piece;
    arb_move c[ARB_MAX_MOVES];
    if (arb__otb_successors_matching(o, arb__otb_cur(o), c) == 1) {
      o->cand_valid = 1;
      o->cand = c[0];
      o->cand_t = ev->t;
      if (o->press_pending) {
        o->press_pending = 0;
        arb_otb_event pr = ARB_OTB_EVENT_INIT(ARB_OTB_PRESS, ev->t);
        pr.by = (int8_t)arb__otb_having_move(o);
        st = ev_press(o, &pr, d);
      }
    }
    break;
  }
  case ARB_OTB_PRESS:
    if (arb__otb_unfinished_promotion(o, ev, d) == 0) break;
    st = ev_press(o, ev, d);
    break;
  case ARB_OTB_CLOCK_PAUSE: pause_clock(o, 1); break;
  case ARB_OTB_CLOCK_RESUME: pause_clock(o, 0); break;
  case ARB_OTB_FLAG_SHOWN:
    if (ev->side < 0)
      return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT,
                             "flag_shown: whose flag (side)?%s", NULL);
    o->flag_shown[ev->side] = 1;
    d->warnings |= ARB_OTB_WARN_FLAG_SHOWN;
    break;
  case ARB_OTB_CLAIM: st = ev_claim(o, ev, d, 0); break;
  case ARB_OTB_ARBITER_OBSERVES: st = ev_claim(o, ev, d, 1); break;
  case ARB_OTB_ARBITER_RULES: st = ev_ruling(o, ev, d); break;
  case ARB_OTB_OFFER_DRAW:
  case ARB_OTB_ACCEPT_DRAW:
  case ARB_OTB_DECLINE_DRAW:
  case ARB_OTB_RESIGN: {
    static const char *const what[] = {"offer_draw", "accept_draw", "decline_draw", "resign"};
    int k = ev->kind == ARB_OTB_OFFER_DRAW     ? 0
            : ev->kind == ARB_OTB_ACCEPT_DRAW  ? 1
            : ev->kind == ARB_OTB_DECLINE_DRAW ? 2
                                               : 3;
    if (ev->by < 0) {
      char m[64];
      snprintf(m, sizeof m, "%s: by whom?", what[k]);
      return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "%s", m);
    }
    /* the referee's offers (9.1), agreement (5.2.3) and resignation (5.1.2: a draw when the
     * opponent cannot mate) */
    static const arb_ref_kind kinds[] = {ARB_REF_OFFER_DRAW, ARB_REF_ACCEPT_DRAW,
                                         ARB_REF_DECLINE_DRAW, ARB_REF_RESIGN};
    arb_ref_event re = ARB_REF_EVENT_INIT(kinds[k], 0);
    re.by = ev->by;
    arb_ref_decision rd;
    st = arb__otb_ref(o, &re, &rd);
    if (st) {
      char m[160];
      snprintf(m, sizeof m, "%s: %.120s", what[k], arb_strerror(st));
      return arb__otb_refuse(d, ARB_OTB_NOT_ALLOWED, st, "%.150s", m);
    }
    break;
  }
  case ARB_OTB_DEVICE:
    if (ev->by < 0)
      return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "device: on whom?%s", NULL);
    if (ev->evident && !arb__otb_is_casual(o)) {
      if (arb__otb_is_uscf(o))
        d->needs |= ARB_OTB_NEEDS_ARBITER; /* 20N: the director's discretion */
      else
        arb__otb_forfeit(o, (arb_color)ev->by, ARB_TERM_ELECTRONIC_DEVICE);
    }
    break;
  case ARB_OTB_RECORD: {
    /* 8.1.2: no move written in advance — the player having the move writes a move he has not
     * made (a legal move of his in the position now) */
    arb_move m;
    if (!arb__otb_over(o) && ev->by >= 0 && ev->by == (int8_t)arb__otb_having_move(o) &&
        o->made_idx < 0 && ev->text &&
        arb_move_read(arb__otb_cur(o), ev->text, ev->text_len, 0, &m, NULL) == ARB_OK &&
        !arb__otb_is_casual(o)) {
      arb__otb_set_violation(d, ARB_OTB_V_MOVE_WRITTEN_IN_ADVANCE,
                             arb__otb_is_uscf(o) ? "15A" : NULL);
      d->penalty_warning = 1;
    }
    break;
  }
  case ARB_OTB_SIGN:
    /* 8.7: the result both players signed stands, even if incorrect, unless the arbiter decides
     * otherwise; signed during play, it ends the game (an agreed draw, or the loser's
     * resignation) */
    if (ev->result == ARB_RESULT_NONE || (unsigned)ev->result > ARB_RESULT_DRAW)
      return arb__otb_refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "sign: which result?%s", NULL);
    if (!arb__otb_over(o)) {
      if (ev->result == ARB_RESULT_DRAW)
        arb__otb_end_game(o, ARB_RESULT_DRAW, ARB_TERM_AGREEMENT, -1);
      else
        arb__otb_end_game(o, ev->result, ARB_TERM_RESIGNATION,
                          ev->result == ARB_RESULT_WHITE_WINS ? ARB_BLACK : ARB_WHITE);
    } else if (ev->result != arb_game_outcome(arb_referee_game(o->ref)).result) {
      arb__otb_end_game(o, ev->result, ARB_TERM_NONE, -1); /* the signed result stands */
      d->warnings |= ARB_OTB_WARN_SIGNED_RESULT;
      d->needs |= ARB_OTB_NEEDS_ARBITER;
    }
    break;
  case ARB_OTB_NOTE:
  default: break;
  }
  /* A.5.4: after a completed move the illegal position the arbiter saw is still there */
  if (!st && o->watch.active && !arb__otb_over(o) && completed_plies(o) > o->watch.plies) {
    const arb_position *p = arb__otb_cur(o);
    int holds;
    if (o->watch.what == ARB_OTB_M_PAWN_ON_LAST_RANK)
      holds = (p->by_type[ARB_PAWN] & 0xff000000000000ffULL) != 0;
    else {
      arb_position q;
      position_from_board(p->board, (arb_color)!p->turn, p, 0, &q);
      holds = arb_in_check(p) && arb_in_check(&q);
    }
    o->watch.active = 0;
    if (holds) arb__otb_end_game(o, ARB_RESULT_DRAW, ARB_TERM_ILLEGAL_POSITION, -1);
  }
  if (!over && arb__otb_over(o)) d->ended = 1;
  fill_state(o, d);
  if (st && !d->status) {
    d->status = st;
    d->refusal = st == ARB_ERR_NO_MEMORY ? ARB_OTB_NO_MEMORY : ARB_OTB_BAD_EVENT;
    snprintf(d->message, sizeof d->message, "%s", arb_strerror(st));
  }
  return d->status;
}

arb_status arb_otb_event_apply(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  arb_status st = apply_event(o, ev, d);
  if (o && o->has_game && !d->fen[0]) fill_state(o, d); /* a refusal: the state as it stands */
  return st;
}

uint32_t arb_otb_record_count(const arb_otb *o) { return o ? o->nrec : 0; }

arb_status arb_otb_record_at(const arb_otb *o, uint32_t i, arb_otb_record_entry *out) {
  if (!o || i >= o->nrec || !out) return ARB_ERR_ARGUMENT;
  *out = o->rec[i].pub;
  return ARB_OK;
}

/* ---- PGN ---- */

static arb_status comment(arb_pgn_writer *w, const char *text) {
  return arb_pgn_writer_comment(w, text, strlen(text));
}

arb_status arb_otb_write_pgn(const arb_otb *o, unsigned flags, arb_pgn_writer *w) {
  if (!o || !o->has_game || !w) return ARB_ERR_ARGUMENT;
  int legal_only = (flags & ARB_OTB_PGN_LEGAL_ONLY) != 0;
  /* the legal game: up to the first illegal move that stood (what follows it is no legal
   * continuation, and the position it left may be one no reader accepts) */
  const arb_position *start = &o->start;
  uint32_t end = o->nrec;
  if (legal_only)
    for (uint32_t i = 0; i < o->nrec; i++)
      if (!o->rec[i].pub.annulled && !o->rec[i].pub.legal) {
        end = i;
        break;
      }
  int cut = end < o->nrec;
  arb_pgn_writer_begin_game(w);
  arb_status st;
  arb_outcome oc = arb_game_outcome(arb_referee_game(o->ref));
  int over = arb__otb_over(o);
  arb_result result = over && !cut ? oc.result : ARB_RESULT_NONE;
  const char *res = arb_result_string(result);
  struct {
    const char *n, *v;
  } tags[] = {{"Event", "?"}, {"Site", "?"},  {"Date", "????.??.??"}, {"Round", "?"},
              {"White", "?"}, {"Black", "?"}, {"Result", res}};
  for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
    if ((st = arb_pgn_writer_tag(w, tags[i].n, strlen(tags[i].n), tags[i].v, strlen(tags[i].v))))
      return st;
  arb_position init;
  arb_position_startpos(&init);
  char fen[ARB_FEN_MAX];
  if (memcmp(init.board, start->board, sizeof init.board) || start->turn != init.turn ||
      start->castling_rooks != init.castling_rooks) {
    arb__otb_fen_of(start, fen);
    if ((st = arb_pgn_writer_tag(w, "SetUp", 5, "1", 1))) return st;
    if ((st = arb_pgn_writer_tag(w, "FEN", 3, fen, strlen(fen)))) return st;
  }
  if (o->timed) {
    char tc[64];
    if (arb_tc_write(&o->tc, ARB_TC_PGN, tc, sizeof tc) > 0 &&
        (st = arb_pgn_writer_tag(w, "TimeControl", 11, tc, strlen(tc))))
      return st;
  }
  const char *term = arb_termination_pgn(over ? oc.termination : ARB_TERM_NONE);
  if ((st = arb_pgn_writer_tag(w, "Termination", 11, term, strlen(term)))) return st;
  const char *rules = arb_otb_rules_name(o->cfg.rules);
  if ((st = arb_pgn_writer_tag(w, "Rules", 5, rules, strlen(rules)))) return st;
  if ((st = arb_pgn_writer_begin_moves(w))) return st;
  for (uint32_t i = 0; i < end; i++) {
    const entry *e = &o->rec[i];
    char buf[320];
    if (e->pub.annulled) {
      if (legal_only) continue;
      snprintf(buf, sizeof buf, "%s %s%s: %s", e->pub.by == ARB_WHITE ? "White" : "Black",
               e->pub.legal ? "played " : "played the illegal ", e->pub.san,
               e->counted ? "penalised and taken back (FIDE 7.5)" : "taken back");
      if ((st = comment(w, buf))) return st;
      continue;
    }
    if (e->pub.legal) {
      if ((st = arb_pgn_writer_move(w, &e->before, e->move))) return st;
    } else {
      /* an illegal move on the board: a comment the reader continues from */
      snprintf(buf, sizeof buf,
               "[%%illegal %s %s] %s's illegal %s stood; play went on from the board", e->pub.uci,
               e->pub.fen_after, e->pub.by == ARB_WHITE ? "White" : "Black", e->pub.san);
      if ((st = comment(w, buf))) return st;
    }
    if (o->timed && e->pub.clock_ms >= 0) {
      char clk[32], c2[48];
      arb_pgn_clock_write(e->pub.clock_ms, clk, sizeof clk);
      snprintf(c2, sizeof c2, "[%%clk %s]", clk);
      if ((st = comment(w, c2))) return st;
    }
    if (e->counted && e->pub.violation == ARB_OTB_V_PROMOTION_NOT_COMPLETED) {
      if ((st = comment(w, "the promotion was not completed: the pawn became a queen (7.5.2)")))
        return st;
    }
  }
  if (cut) {
    char buf[160];
    snprintf(buf, sizeof buf,
             "%s's illegal %s stood here and the game went on from it: the "
             "record as played has the rest",
             o->rec[end].pub.by == ARB_WHITE ? "White" : "Black", o->rec[end].pub.san);
    if ((st = comment(w, buf))) return st;
  }
  return arb_pgn_writer_end_game(w, result);
}
