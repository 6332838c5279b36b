/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * otb.c: the over-the-board referee (arbiter/otb.h).  One game: the record of everything
 * played (legal, illegal, annulled), the game layer's game rebuilt from it (an illegal move
 * that is on the board starts a new segment from the real position), the move in progress of
 * the player having the move (touches, the physical board of an e-board), the clock, and the
 * rulings of Articles 4, 6, 7 and Appendices A/B (US Chess where it differs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "arbiter/otb.h"

#define MAX_TOUCH 16
#define MAX_HAND 8
#define PIECE_UNKNOWN_PROMO ((arb_piece)0x80) /* presence board: a piece of unknown type */

typedef struct touch_rec {
  arb_square sq;
  uint8_t own;    /* a piece of the toucher's colour */
  uint8_t eboard; /* seen by the board's sensors */
} touch_rec;

typedef struct entry {
  arb_otb_record_entry pub;
  arb_move move;       /* the legal move (pub.legal), else ARB_MOVE_NONE */
  arb_square from, to; /* as played */
  arb_piece_type promo;
  arb_position before, after;
  uint8_t pending; /* a completed illegal move nobody ruled on yet */
  uint8_t counted; /* penalised (counted in illegal_count) */
  uint8_t hands;
  uint8_t eboard_breach;  /* a touch-move breach proven by the sensors */
  uint8_t release_logged; /* the log said the hand left the piece (not inferred) */
} entry;

struct arb_otb {
  uint8_t has_game;
  arb_otb_setup cfg;
  arb_time_control tc;
  uint8_t timed;
  arb_ruleset grules;
  arb_position start;
  arb_game *game;
  arb_clock clock;
  int8_t clock_side; /* whose clock runs (untimed games too) */
  uint8_t clock_paused;
  int64_t now;
  entry *rec;
  uint32_t nrec, caprec;
  int made_idx; /* the made, not yet completed move, or -1 */
  /* the move in progress of the player having the move */
  touch_rec touched[MAX_TOUCH];
  int ntouched;
  uint8_t castle_intent, adjust_pending;
  int8_t king_castle_side; /* the king was released on its castling square: 0 a-side, 1 h-side */
  arb_move must_play;      /* a wrong claim's intended move */
  /* the physical board (e-boards) */
  arb_piece phys[64];
  struct {
    arb_square sq;
    arb_piece p;
  } hand[MAX_HAND];
  int nhand;
  arb_bitboard lifted, placed; /* squares lifted from / placed on during this move */
  uint8_t cand_valid;
  arb_move cand;
  int64_t cand_t, change_t;
  uint8_t retract_pending; /* the board shows the position before the made move */
  uint8_t press_pending;   /* a press waits for the promotion piece (presence boards) */
  uint8_t unexplained;     /* the last snapshot fits several pairs of moves (the arbiter's) */
  arb_square pseudo_rook_from, pseudo_rook_to; /* an illegal castling on the board: its rook */
  uint8_t eboard_seen; /* board events arrived (an identity board unless set up otherwise) */
  arb_piece promo_choice;
  arb_piece promo_first; /* the first new piece put on the promotion square (4.4.4) */
  /* procedure */
  uint8_t illegal_count[2];
  uint8_t flag_shown[2];
  struct {
    uint8_t active;
    int8_t offender;
    int idx;
    touch_rec touched[MAX_TOUCH];
    int ntouched;
    uint8_t lapsed; /* the claimant touched a piece (4.8) */
  } breach;
  struct {
    uint8_t active;
    int8_t by;
    arb_otb_matter matter;
  } judgement; /* a claim the arbiter must judge (III.4, III.5) */
  struct {
    uint8_t active;
    arb_otb_matter what;
    int plies; /* completed plies when seen */
  } watch;     /* A.5.4 */
  uint8_t over;
  arb_outcome outcome;
};

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

static int is_uscf(const arb_otb *o) {
  return o->cfg.rules == ARB_OTB_USCF || o->cfg.rules == ARB_OTB_USCF_BLITZ;
}
static int is_casual(const arb_otb *o) { return o->cfg.rules == ARB_OTB_CASUAL; }
static int is_fide(const arb_otb *o) { return !is_uscf(o) && !is_casual(o); }
static arb_otb_supervision supervision(const arb_otb *o) {
  if (o->cfg.supervision != ARB_OTB_SUP_DEFAULT) return o->cfg.supervision;
  if (o->cfg.rules == ARB_OTB_FIDE_RAPID) return ARB_OTB_SUP_A5;
  if (o->cfg.rules == ARB_OTB_FIDE_BLITZ) return ARB_OTB_SUP_B3;
  return ARB_OTB_SUP_DEFAULT;
}
/* The referee rules on a completed illegal move at the press (an arbiter watching this game). */
static int acts_at_press(const arb_otb *o) {
  if (is_casual(o)) return 1;
  if (is_uscf(o)) return 0;
  arb_otb_supervision s = supervision(o);
  return s == ARB_OTB_SUP_DEFAULT || s == ARB_OTB_SUP_B2;
}
/* Seconds added to the opponent for a completed illegal move (7.5.5, A.3, B.2/B.3, US 11D). */
static int illegal_penalty_s(const arb_otb *o) {
  if (is_casual(o)) return 0;
  if (is_uscf(o)) return 120;
  if (o->cfg.rules == ARB_OTB_FIDE_RAPID) return 60;
  if (o->cfg.rules == ARB_OTB_FIDE_BLITZ) return supervision(o) == ARB_OTB_SUP_B2 ? 120 : 60;
  return 120;
}

/* ---- positions ---- */

static const arb_position *cur(const arb_otb *o) { return arb_game_position(o->game); }
static arb_color having_move(const arb_otb *o) { return (arb_color)cur(o)->turn; }

static void fen_of(const arb_position *p, char *buf) { arb_fen_write(p, buf, ARB_FEN_MAX, 0); }

/* Legal moves, without captures of a king (possible only after an illegal move stood). */
static int legal_moves(const arb_position *p, arb_move *out) {
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
static void after_move(const arb_position *p, arb_move m, arb_position *out) {
  arb_undo u;
  *out = *p;
  arb_make_move(out, m, &u);
}

/* Where the king and rook of a castling move end (standard and Chess960). */
static void castle_squares(const arb_position *p, arb_move m, arb_square *kto, arb_square *rto) {
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
    fen_of(ref, full);
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
  fen_of(&tmp, fen);
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

static int same_placement(const arb_piece *a, const arb_piece *b) {
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

/* Rebuilds the game from the record: legal entries are played, an illegal one on the board
 * starts a new segment from its real position. */
static arb_status rebuild(arb_otb *o) {
  arb_game *g = arb_game_new(&o->start, o->grules);
  if (!g) return ARB_ERR_NO_MEMORY;
  for (uint32_t i = 0; i < o->nrec; i++) {
    entry *e = &o->rec[i];
    if (e->pub.annulled) continue;
    if (e->pub.legal) {
      if (arb_game_play(g, e->move) != ARB_OK) {
        arb_game_free(g);
        return ARB_ERR_ARGUMENT;
      }
    } else {
      arb_game *n = arb_game_new(&e->after, o->grules);
      if (!n) {
        arb_game_free(g);
        return ARB_ERR_NO_MEMORY;
      }
      arb_game_free(g);
      g = n;
    }
  }
  arb_game_free(o->game);
  o->game = g;
  return ARB_OK;
}

static void reset_progress(arb_otb *o) {
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

static int castle_side_of(arb_move m) {
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
    if (ARB_MOVE_KIND(legal[i]) == ARB_MOVE_CASTLING && castle_side_of(legal[i]) == no_castle)
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
      ob->may_castle[castle_side_of(ob->allowed[i])] = 1;
}

static void any_move(arb_otb_obligation *ob, const arb_move *legal, int n) {
  ob->any = 1;
  for (int i = 0; i < n; i++)
    add_allowed(ob, legal[i]);
}

/* The obligation of the player having the move from the touches tl[0..nt) (in order, an
 * unknown order already put own pieces first). */
static void obligation_of(const arb_otb *o, const touch_rec *tl, int nt, arb_otb_obligation *ob) {
  memset(ob, 0, offsetof(arb_otb_obligation, allowed));
  if (o->over || is_casual(o)) return;
  const arb_position *p = cur(o);
  arb_move legal[ARB_MAX_MOVES];
  int n = legal_moves(p, legal);
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
          castle_side_of(legal[i]) == o->king_castle_side)
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
          (rook_side < 0 || castle_side_of(legal[i]) == rook_side))
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
    if ((is_uscf(o) && (o->cfg.variations & ARB_OTB_US_10I2))) {
      ob->must_move = (arb_bitboard)1 << tl[ri].sq;
      piece_moves(legal, n, tl[ri].sq, -1, ob);
      for (int i = 0; i < n; i++)
        if (ARB_MOVE_KIND(legal[i]) == ARB_MOVE_CASTLING && castle_side_of(legal[i]) == rook_side)
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
            castle_side_of(ob->allowed[i]) == no_castle))
        ob->allowed[k++] = ob->allowed[i];
    ob->allowed_count = k;
  }
  finish_obligation(ob);
}

static int allowed_has(const arb_otb_obligation *ob, arb_move m) {
  for (int i = 0; i < ob->allowed_count; i++)
    if (ob->allowed[i] == m) return 1;
  return 0;
}

/* A touch of an own piece the sensors saw (a lift).  An opponent's piece that vanished may be
 * a sensor misread or a displaced piece (7.4): it binds, but the referee does not enforce it
 * by itself. */
static int touches_by_eboard(const arb_otb *o) {
  for (int i = 0; i < o->ntouched; i++)
    if (o->touched[i].eboard && o->touched[i].own) return 1;
  return 0;
}

static int enemy_lift_only(const arb_otb *o) {
  int enemy = 0;
  for (int i = 0; i < o->ntouched; i++) {
    if (o->touched[i].own) return 0;
    enemy |= o->touched[i].eboard;
  }
  return enemy;
}

static void add_touch(arb_otb *o, arb_square sq, int own, int eboard, int unknown_order) {
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

static void fill_state(const arb_otb *o, arb_otb_decision *d) {
  if (!o->has_game) return;
  const arb_position *p = cur(o);
  fen_of(p, d->fen);
  d->having_move = (arb_color)p->turn;
  d->over = o->over;
  d->outcome = o->outcome;
  d->illegal_count[0] = o->illegal_count[0];
  d->illegal_count[1] = o->illegal_count[1];
  d->repetitions = arb_game_repetitions(o->game);
  d->timed = o->timed;
  d->running = o->over ? -1 : o->clock_side;
  d->draw_offer = (int8_t)arb_game_draw_offer(o->game);
  for (int c = 0; c < 2; c++)
    d->remaining_ms[c] = o->timed ? arb_clock_remaining(&o->clock, (arb_color)c, o->now) : -1;
  if (o->over)
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
  obligation_of(o, o->touched, o->ntouched, &d->obligation);
}

static arb_status refuse(arb_otb_decision *d, arb_otb_refusal r, arb_status st, const char *fmt,
                         const char *arg) {
  d->status = st;
  d->refusal = r;
  snprintf(d->message, sizeof d->message, fmt, arg ? arg : "");
  return st;
}

static void set_violation(arb_otb_decision *d, arb_otb_violation v, const char *article) {
  d->violation = v;
  snprintf(d->article, sizeof d->article, "%s", article ? article : violation_articles[v]);
}

static void end_game(arb_otb *o, arb_result r, arb_termination t, arb_otb_decision *d) {
  if (o->over) return;
  o->over = 1;
  o->outcome.result = r;
  o->outcome.termination = t;
  o->outcome.automatic = t <= ARB_TERM_SEVENTYFIVE_MOVES || t == ARB_TERM_TIME_FORFEIT;
  o->outcome.by = -1;
  if (o->timed) arb_clock_stop(&o->clock, o->now);
  d->ended = 1;
}

static arb_result win_for(arb_color c) {
  return c == ARB_WHITE ? ARB_RESULT_WHITE_WINS : ARB_RESULT_BLACK_WINS;
}

/* The game layer ended the game (mate, stalemate, dead position, fivefold, 75 moves). */
static void check_game_end(arb_otb *o, arb_otb_decision *d) {
  arb_outcome oc = arb_game_outcome(o->game);
  if (oc.result != ARB_RESULT_NONE && !o->over) {
    end_game(o, oc.result, oc.termination, d);
    o->outcome = oc;
  }
}

/* Switches the running clock to `side` without crediting anything (the arbiter's reset, 7.1). */
static void clock_to(arb_otb *o, arb_color side) {
  if (o->clock_side == (int8_t)side) return;
  if (o->timed && (arb_clock_running(&o->clock) >= 0)) {
    arb_color other = (arb_color)!side;
    arb_press_info info;
    if (arb_clock_press(&o->clock, other, o->now, 0, &info) == ARB_OK && info.credited_ms)
      arb_clock_adjust(&o->clock, other, -info.credited_ms, o->now);
  }
  o->clock_side = (int8_t)side;
}

static void add_time(arb_otb *o, arb_color side, int seconds, arb_otb_decision *d) {
  if (seconds <= 0) return;
  d->time_added_s[side] += seconds;
  if (o->timed) arb_clock_adjust(&o->clock, side, (int64_t)seconds * 1000, o->now);
}

/* ---- making and completing moves ---- */

static void touched_from_entry(arb_otb *o, const entry *e) {
  reset_progress(o);
  if (e->from == e->to) return;
  const arb_position *p = &e->before;
  add_touch(o, e->from, 1, 0, 0);
  if (p->board[e->to] && ARB_PIECE_COLOR(p->board[e->to]) != p->turn) add_touch(o, e->to, 0, 0, 0);
  /* 4.7.2: a king released on its castling square (castling itself: king and rook touched) */
  if (e->pub.legal && ARB_MOVE_KIND(e->move) == ARB_MOVE_CASTLING) {
    add_touch(o, e->to, 1, 0, 0);
    o->king_castle_side = (int8_t)castle_side_of(e->move);
  } else if (ARB_PIECE_TYPE(p->board[e->from]) == ARB_KING &&
             ARB_RANK_OF(e->from) == ARB_RANK_OF(e->to) &&
             abs(ARB_FILE_OF(e->from) - ARB_FILE_OF(e->to)) == 2) {
    o->king_castle_side = ARB_FILE_OF(e->to) > ARB_FILE_OF(e->from);
  }
}

/* Reinstates the position before entry idx (annulling it and what followed). */
static arb_status reinstate(arb_otb *o, int idx, arb_otb_decision *d) {
  for (uint32_t i = (uint32_t)idx; i < o->nrec; i++) {
    entry *e = &o->rec[i];
    if (e->pub.annulled) continue;
    e->pub.annulled = 1;
    e->pending = 0;
    if (d->annulled_count < 8) snprintf(d->annulled[d->annulled_count++], 8, "%s", e->pub.uci);
  }
  o->made_idx = -1;
  arb_status st = rebuild(o);
  if (st) return st;
  d->restored = 1;
  fen_of(cur(o), d->restore_fen);
  touched_from_entry(o, &o->rec[idx]);
  o->breach.active = 0;
  clock_to(o, having_move(o));
  return ARB_OK;
}

/* US Chess blitz mating material (blitz 7c): a pawn, a rook, a queen or two minor pieces. */
static int us_mating_material(const arb_position *p, arb_color c) {
  arb_bitboard own = p->by_color[c];
  if (own & (p->by_type[ARB_PAWN] | p->by_type[ARB_ROOK] | p->by_type[ARB_QUEEN])) return 1;
  return __builtin_popcountll(own & (p->by_type[ARB_KNIGHT] | p->by_type[ARB_BISHOP])) >= 2;
}

/* Rapid and blitz without full supervision (A.5, B.3): an illegal move is ruled on only when
 * challenged before the opponent's next move; after it, the move stands. */
static int challenge_only(const arb_otb *o) {
  arb_otb_supervision s = supervision(o);
  return is_fide(o) && (s == ARB_OTB_SUP_A5 || s == ARB_OTB_SUP_B3);
}

/* Whether entry e is a pawn moved to its last rank and left a pawn (7.5.2), and the promotion
 * to a queen it should have been (legal from the position before it). */
static int unfinished_pawn(const entry *e, arb_move *queen) {
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
 * promotion and the game is rebuilt from the record (the entry is the latest one that counts,
 * or the moves after it are still legal from the queen). */
static arb_status queen_in(arb_otb *o, entry *e, arb_move q) {
  entry saved = *e;
  e->move = q;
  e->promo = ARB_QUEEN;
  e->pub.legal = 1;
  arb_uci_write(&e->before, q, e->pub.uci, sizeof e->pub.uci);
  arb_san_write(&e->before, q, e->pub.san, sizeof e->pub.san);
  after_move(&e->before, q, &e->after);
  fen_of(&e->after, e->pub.fen_after);
  arb_status st = rebuild(o);
  if (st) {
    *e = saved;
    rebuild(o);
    return st;
  }
  memcpy(o->phys, cur(o)->board, sizeof o->phys);
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
  if (!restore && unfinished_pawn(e, &q)) {
    arb_status st = queen_in(o, e, q);
    if (st) return st;
  }
  if (is_casual(o)) return restore ? reinstate(o, idx, d) : ARB_OK;
  if (o->cfg.rules == ARB_OTB_USCF_BLITZ) { /* blitz 7c/7d/8d: the claimant wins, or draws */
    e->counted = 1;
    if (o->illegal_count[off] < 255) o->illegal_count[off]++;
    if (us_mating_material(&e->before, claimant))
      end_game(o, win_for(claimant), ARB_TERM_ILLEGAL_MOVE_CLAIMED, d);
    else
      end_game(o, ARB_RESULT_DRAW, ARB_TERM_ILLEGAL_MOVE_CLAIMANT_LACKS_MATERIAL, d);
    return ARB_OK;
  }
  e->counted = 1;
  if (o->illegal_count[off] < 255) o->illegal_count[off]++;
  if (restore) {
    arb_status st = reinstate(o, idx, d);
    if (st) return st;
  }
  if (is_fide(o) &&
      o->illegal_count[off] >= 2) { /* 7.5.5: loses, unless the opponent cannot mate */
    const arb_position *p = restore ? cur(o) : &e->before;
    if (arb_cannot_mate(p, opp))
      end_game(o, ARB_RESULT_DRAW, ARB_TERM_SECOND_ILLEGAL_MOVE, d);
    else
      end_game(o, win_for(opp), ARB_TERM_SECOND_ILLEGAL_MOVE, d);
    return ARB_OK;
  }
  if (bonus) add_time(o, opp, illegal_penalty_s(o), d);
  return ARB_OK;
}

/* A completed illegal move (entry idx, just pressed). */
static arb_status illegal_completed(arb_otb *o, int idx, arb_otb_decision *d) {
  entry *e = &o->rec[idx];
  e->pending = 1;
  if (!d->violation) set_violation(d, e->pub.violation, NULL);
  if (acts_at_press(o)) {
    /* an unfinished promotion stands as a queen (7.5.2); the rest is reinstated */
    int restore = e->pub.violation != ARB_OTB_V_PROMOTION_NOT_COMPLETED;
    return penalise(o, idx, restore, 1, (arb_color)!e->pub.by, d);
  }
  return ARB_OK;
}

static void record_press(arb_otb *o, entry *e) {
  e->pub.completed = 1;
  e->pub.t_press = o->now;
  if (o->timed) e->pub.clock_ms = arb_clock_remaining(&o->clock, e->pub.by, o->now);
}

static void press_clock(arb_otb *o, arb_color by, unsigned flags) {
  if (o->timed && (arb_clock_running(&o->clock) >= 0) && arb_clock_turn(&o->clock) == by) {
    arb_press_info info;
    arb_clock_press(&o->clock, by, o->now, flags, &info);
  }
  o->clock_side = (int8_t)!by;
}

/* Adds a made move to the record and to the game.  legal: m; else from/to/promo as played. */
static arb_status make_move(arb_otb *o, arb_move m, arb_square from, arb_square to,
                            arb_piece_type promo, int hands, int64_t t, arb_otb_decision *d) {
  const arb_position *p = cur(o);
  arb_color by = (arb_color)p->turn;
  entry *e = add_entry(o);
  if (!e) return ARB_ERR_NO_MEMORY;
  e->pub.by = by;
  e->pub.t_made = t;
  e->before = *p;
  e->hands = (uint8_t)hands;
  if (m != ARB_MOVE_NONE) {
    e->move = m;
    e->from = ARB_MOVE_FROM(m);
    e->to = ARB_MOVE_TO(m);
    e->promo = ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION ? ARB_MOVE_PROMO(m) : ARB_NO_TYPE;
    e->pub.legal = 1;
    arb_uci_write(p, m, e->pub.uci, sizeof e->pub.uci);
    arb_san_write(p, m, e->pub.san, sizeof e->pub.san);
    after_move(p, m, &e->after);
    if (arb_game_play(o->game, m) != ARB_OK) {
      o->nrec--;
      return ARB_ERR_ARGUMENT;
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
    arb_game *n = arb_game_new(&e->after, o->grules);
    if (!n) {
      o->nrec--;
      return ARB_ERR_NO_MEMORY;
    }
    arb_game_free(o->game);
    o->game = n;
  }
  fen_of(&e->after, e->pub.fen_after);
  /* the move is made (nothing above refused it): a pending illegal move of the opponent now
   * stands (A.5.2, B.3) */
  arb_otb_supervision sup = supervision(o);
  if (is_fide(o) && (sup == ARB_OTB_SUP_A5 || sup == ARB_OTB_SUP_B3))
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
  reset_progress(o);
  if (e->pub.legal) {
    check_game_end(o, d);
    if (o->over) { /* 6.2.1.1: a move that ends the game is completed without a press */
      record_press(o, e);
      d->completed = 1;
      o->made_idx = -1;
    }
  }
  return ARB_OK; /* A.5.4 (the illegal position still there) is judged once the move is completed */
}

/* A legal move the player having the move makes (from the log or the board). */
static arb_status make_legal(arb_otb *o, arb_move m, int hands, int64_t t, int eboard,
                             arb_otb_decision *d) {
  arb_otb_obligation ob;
  obligation_of(o, o->touched, o->ntouched, &ob);
  if (ob.active && !allowed_has(&ob, m) && !is_casual(o)) {
    const arb_position *p = cur(o);
    int rook_first = ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING && ob.must_move &&
                     !((ob.must_move >> ARB_MOVE_FROM(m)) & 1u);
    arb_otb_violation v = rook_first ? ARB_OTB_V_ROOK_FIRST_CASTLING : ARB_OTB_V_TOUCH_MOVE;
    const char *art = rook_first                         ? "4.4.2"
                      : ob.must_capture && !ob.must_move ? "4.3.2"
                      : ob.must_capture                  ? "4.3.3"
                                                         : "4.3.1";
    if (o->king_castle_side >= 0) art = "4.7.2", v = ARB_OTB_V_RELEASED_MOVE_CHANGED;
    set_violation(d, v, art);
    if (enemy_lift_only(o)) {
      /* only an opponent's piece left its square: a misread or a displacement, not a move */
      d->violation = ARB_OTB_V_NONE;
      d->article[0] = 0;
      d->warnings |= ARB_OTB_WARN_SENSOR_MISREAD;
      d->needs_confirmation = 1;
      return make_move(o, m, 0, 0, 0, hands, t, d);
    }
    if (is_fide(o) && (touches_by_eboard(o) || (eboard && !o->ntouched))) {
      /* the sensors proved the touch: the referee enforces it (the move is not made) */
      d->needs_confirmation = 1;
      d->restored = 1;
      fen_of(p, d->restore_fen);
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
    arb_status st = make_move(o, m, 0, 0, 0, hands, t, d);
    if (st) return st;
    o->breach.active = 1;
    o->breach.offender = (int8_t)o->rec[o->made_idx >= 0 ? o->made_idx : (int)o->nrec - 1].pub.by;
    o->breach.idx = (int)o->nrec - 1;
    memcpy(o->breach.touched, saved, sizeof saved);
    o->breach.ntouched = ns;
    o->breach.lapsed = 0;
    return ARB_OK;
  }
  return make_move(o, m, 0, 0, 0, hands, t, d);
}

/* Completes the made move with a press by `by`. */
static arb_status complete_made(arb_otb *o, int other_hand, arb_otb_decision *d) {
  entry *e = &o->rec[o->made_idx];
  arb_color by = e->pub.by;
  o->made_idx = -1;
  press_clock(o, by, 0);
  record_press(o, e);
  d->completed = 1;
  if (e->pub.legal && e->hands >= 2 && is_fide(o)) { /* 7.5.4 */
    e->pub.violation = ARB_OTB_V_TWO_HANDS;
    set_violation(d, ARB_OTB_V_TWO_HANDS, NULL);
    return illegal_completed(o, (int)(e - o->rec), d);
  }
  arb_move q;
  if (!e->pub.legal && unfinished_pawn(e, &q) && !is_uscf(o)) {
    /* 7.5.2: a promotion left unfinished; where the referee rules at once (or casual play) the
     * queen is put in now, under A.5/B.3 the pawn stands until challenged */
    e->pub.violation = ARB_OTB_V_PROMOTION_NOT_COMPLETED;
    set_violation(d, ARB_OTB_V_PROMOTION_NOT_COMPLETED, NULL);
    if (!challenge_only(o)) {
      arb_status st = queen_in(o, e, q);
      if (st) return st;
      if (is_casual(o)) return ARB_OK;
    }
  }
  if (!e->pub.legal || e->pub.violation == ARB_OTB_V_PROMOTION_NOT_COMPLETED)
    return illegal_completed(o, (int)(e - o->rec), d);
  if (other_hand && !is_casual(o)) {
    set_violation(d, ARB_OTB_V_CLOCK_OTHER_HAND, is_uscf(o) ? "16C1" : "6.2.3");
    d->penalty_warning = 1;
  }
  return ARB_OK;
}

/* ---- the e-board ---- */

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
  int n = legal_moves(base, legal), k = 0;
  for (int i = 0; i < n; i++) {
    arb_position a;
    after_move(base, legal[i], &a);
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
        castle_squares(base, legal[i], &kto, &rto);
        to = kto;
      }
      if (!((o->lifted >> from) & 1u) || !((o->placed >> to) & 1u)) continue;
    }
    out[k++] = legal[i];
  }
  return k;
}

static int successors_matching(const arb_otb *o, const arb_position *base, arb_move *out) {
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
static int successors_displaced(const arb_otb *o, const arb_position *base, arb_move *out) {
  arb_move legal[ARB_MAX_MOVES];
  int n = legal_moves(base, legal), k = 0;
  for (int i = 0; i < n; i++) {
    arb_position a;
    after_move(base, legal[i], &a);
    if (displaced_after(o, base, &a, legal[i], -1)) out[k++] = legal[i];
  }
  return k;
}

/* Pairs of legal moves (the player having the move, then the reply) whose placement the board
 * shows — two plies in one snapshot.  Returns how many (at most 2 are looked for); the first
 * pair in *a, *b. */
static int pairs_matching(const arb_otb *o, const arb_position *base, arb_move *a, arb_move *b) {
  arb_move first[ARB_MAX_MOVES], second[ARB_MAX_MOVES];
  int n = legal_moves(base, first), k = 0;
  for (int i = 0; i < n && k < 2; i++) {
    arb_position p1;
    after_move(base, first[i], &p1);
    int n2 = legal_moves(&p1, second);
    for (int j = 0; j < n2 && k < 2; j++) {
      arb_position p2;
      after_move(&p1, second[j], &p2);
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
  const arb_position *p = cur(o);
  if (same_placement(o->phys, p->board)) return;
  if (o->made_idx >= 0 && same_placement(o->phys, o->rec[o->made_idx].before.board)) {
    o->retract_pending = 1; /* the board shows the position before the released move */
    return;
  }
  if (o->made_idx >= 0 && o->rec[o->made_idx].pub.legal &&
      displaced_after(o, &o->rec[o->made_idx].before, cur(o), o->rec[o->made_idx].move,
                      o->rec[o->made_idx].pub.by)) {
    d->warnings |= ARB_OTB_WARN_DISPLACED; /* 7.4: the move stands, the piece is put back */
    return;
  }
  if (o->made_idx >= 0 && o->rec[o->made_idx].pub.legal) {
    /* the mover put his released piece elsewhere: another move from the same position */
    entry *e = &o->rec[o->made_idx];
    arb_move c[ARB_MAX_MOVES];
    if (successors_matching(o, &e->before, c) == 1 && c[0] != e->move) {
      if (is_casual(o)) { /* friendly play: the new move replaces it */
        e->pub.annulled = 1;
        o->made_idx = -1;
        if (rebuild(o) == ARB_OK) {
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
      set_violation(d, promo ? ARB_OTB_V_PROMOTION_CHOICE_CHANGED : ARB_OTB_V_RELEASED_MOVE_CHANGED,
                    is_uscf(o) ? (promo ? "9D" : "9") : NULL);
      d->needs_confirmation = !e->release_logged;
      return;
    }
  }
  arb_move c[ARB_MAX_MOVES];
  int k = successors_matching(o, p, c);
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
static arb_status commit_candidate(arb_otb *o, arb_otb_decision *d) {
  if (!o->cand_valid) return ARB_OK;
  o->cand_valid = 0;
  arb_move m = o->cand;
  if (ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION && o->promo_first && is_fide(o) &&
      ARB_PIECE_TYPE(o->promo_first) != ARB_MOVE_PROMO(m)) {
    /* 4.4.4: once the new piece touched the square the choice is final (US Chess 9D decides
     * on release, casual play lets it be changed) */
    arb_move first = ARB_MOVE_MAKE_SPECIAL(ARB_MOVE_FROM(m), ARB_MOVE_TO(m), ARB_MOVE_PROMOTION,
                                           ARB_PIECE_TYPE(o->promo_first));
    if (arb_is_legal(cur(o), first)) {
      set_violation(d, ARB_OTB_V_PROMOTION_CHOICE_CHANGED, NULL);
      d->needs_confirmation = 1;
      m = first;
    }
  }
  arb_status st = make_legal(o, m, 1, o->cand_t, 1, d);
  /* the board now shows the move: what a presence board could not tell is known */
  if (!st && !d->restored) memcpy(o->phys, cur(o)->board, sizeof o->phys);
  return st;
}

static void check_stable(arb_otb *o, int64_t t, arb_otb_decision *d) {
  int64_t db = o->cfg.debounce_ms > 0 ? o->cfg.debounce_ms : 250;
  if (o->cand_valid && o->change_t == o->cand_t && t - o->cand_t >= db) commit_candidate(o, d);
}

/* The pseudo move a press completes when the board shows no legal successor: one piece of the
 * mover moved from a square to another (capturing or not), or none. */
static int pseudo_from_board(arb_otb *o, arb_square *from, arb_square *to, arb_piece_type *promo) {
  const arb_position *p = cur(o);
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

static arb_status ev_start(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  arb_otb_setup s = ev->setup ? *ev->setup : (arb_otb_setup)ARB_OTB_SETUP_INIT;
  if ((unsigned)s.rules >= ARB_OTB_RULES_COUNT || (unsigned)s.supervision > ARB_OTB_SUP_B3 ||
      (unsigned)s.sensing > ARB_OTB_BOARD_PRESENCE)
    return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "start: a setting is out of range%s",
                  NULL);
  arb_position start;
  if (s.start)
    start = *s.start;
  else
    arb_position_startpos(&start);
  arb_ruleset gr = s.rules == ARB_OTB_FIDE_RAPID     ? ARB_RULES_FIDE_RAPID
                   : s.rules == ARB_OTB_FIDE_BLITZ   ? ARB_RULES_FIDE_BLITZ
                   : is_casual(&(arb_otb){.cfg = s}) ? ARB_RULES_CASUAL
                   : (s.rules == ARB_OTB_USCF || s.rules == ARB_OTB_USCF_BLITZ) ? ARB_RULES_USCF
                                                                                : ARB_RULES_FIDE;
  arb_game *g = arb_game_new(&start, gr);
  if (!g) return refuse(d, ARB_OTB_NO_MEMORY, ARB_ERR_NO_MEMORY, "out of memory%s", NULL);
  arb_clock clock;
  if (s.control) {
    if (arb_clock_init(&clock, s.control) != ARB_OK) {
      arb_game_free(g);
      return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT,
                    "start: the time control is not valid%s", NULL);
    }
  }
  arb_game_free(o->game);
  free(o->rec);
  entry *keep_rec = NULL;
  (void)keep_rec;
  memset(o, 0, sizeof *o);
  o->has_game = 1;
  o->cfg = s;
  o->cfg.start = NULL;
  o->cfg.moves = NULL;
  o->cfg.control = NULL;
  o->grules = gr;
  o->start = start;
  o->game = g;
  o->made_idx = -1;
  o->king_castle_side = -1;
  o->pseudo_rook_from = o->pseudo_rook_to = ARB_NO_SQUARE;
  o->now = ev->t;
  o->illegal_count[0] = s.illegal_count[0];
  o->illegal_count[1] = s.illegal_count[1];
  for (size_t i = 0; i < s.move_count; i++) {
    if (!arb_is_legal(cur(o), s.moves[i]))
      return refuse(d, ARB_OTB_BAD_MOVE, ARB_ERR_MOVE_ILLEGAL,
                    "start: a move of the game so far is not legal%s", NULL);
    arb_status st = make_move(o, s.moves[i], 0, 0, 0, 1, -1, d);
    if (st) return refuse(d, ARB_OTB_NO_MEMORY, st, "start: cannot play the moves%s", NULL);
    record_press(o, &o->rec[o->nrec - 1]);
    o->rec[o->nrec - 1].pub.t_press = -1;
    o->made_idx = -1;
  }
  d->made = 0;
  d->completed = 0;
  d->made_uci[0] = 0;
  if (s.control) {
    o->tc = *s.control;
    o->timed = 1;
    o->clock = clock;
    arb_clock_start(&o->clock, having_move(o), ev->t);
  }
  o->clock_side = (int8_t)having_move(o);
  memcpy(o->phys, cur(o)->board, sizeof o->phys);
  check_game_end(o, d);
  return ARB_OK;
}

static int mover_of_piece(const arb_otb *o, arb_piece pc) {
  /* after a made move (not pressed) the mover's own pieces are his; the rest the other's */
  if (o->made_idx >= 0 && pc && ARB_PIECE_COLOR(pc) == o->rec[o->made_idx].pub.by)
    return o->rec[o->made_idx].pub.by;
  return having_move(o);
}

/* A deliberate touch by the player having the move, whether the log or the board's sensors saw
 * it: the opponent's claim of a touch-move breach lapses (4.8) and so does the opponent's draw
 * offer (9.1.2.2: rejected by touching a piece with the intention of moving or capturing it). */
static void lapse_on_touch(arb_otb *o) {
  arb_color h = having_move(o);
  if (o->breach.active && o->breach.offender != (int8_t)h) o->breach.lapsed = 1;
  if (arb_game_draw_offer(o->game) == (int)!h) arb_game_decline_draw(o->game, h);
}

static arb_status ev_touch(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  if (ev->square_count == 0)
    return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "touch: no square%s", NULL);
  arb_color h = having_move(o);
  int by = ev->by >= 0 ? ev->by : (int)h;
  if (ev->intent == ARB_OTB_INTENT_ACCIDENTAL) return ARB_OK; /* 4.2.2: not deliberate */
  if (by != (int)h) {
    if (ev->intent == ARB_OTB_INTENT_ADJUST && !is_casual(o)) {
      set_violation(d, ARB_OTB_V_ADJUST_OUT_OF_TURN, NULL);
      d->penalty_warning = 1;
    }
    d->warnings |= ARB_OTB_WARN_OUT_OF_TURN;
    return ARB_OK;
  }
  if (o->adjust_pending && ev->intent != ARB_OTB_INTENT_CASTLE) { /* 4.2.1: announced first */
    o->adjust_pending = 0;
    return ARB_OK;
  }
  const arb_position *p = cur(o);
  for (int i = 0; i < ev->square_count && i < 8; i++) {
    arb_square sq = ev->squares[i];
    if (sq >= 64 || !p->board[sq]) continue;
    add_touch(o, sq, ARB_PIECE_COLOR(p->board[sq]) == h, ev->source == ARB_OTB_SRC_EBOARD,
              ev->order == ARB_OTB_ORDER_UNKNOWN || ev->order == ARB_OTB_ORDER_SIMULTANEOUS);
  }
  if (ev->intent == ARB_OTB_INTENT_CASTLE) o->castle_intent = 1;
  o->adjust_pending = 0;
  lapse_on_touch(o);
  return ARB_OK;
}

static arb_status ev_lift(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  arb_square sq = ev->squares[0];
  if (ev->square_count == 0 || sq >= 64)
    return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "lift: no square%s", NULL);
  arb_piece pc = o->phys[sq];
  if (!pc) {
    d->warnings |= ARB_OTB_WARN_SENSOR_MISREAD;
    return ARB_OK;
  }
  if (o->cand_valid && ARB_PIECE_COLOR(pc) != having_move(o) && o->made_idx < 0) {
    /* the opponent starts moving: the mover's placement was his move */
    arb_status st = commit_candidate(o, d);
    if (st) return st;
  }
  int actor = mover_of_piece(o, pc);
  o->phys[sq] = ARB_NO_PIECE;
  if (o->nhand < MAX_HAND) o->hand[o->nhand].sq = sq, o->hand[o->nhand++].p = pc;
  int again = (o->placed >> sq) & 1u; /* the piece of this move, lifted again (a slide) */
  o->lifted |= (arb_bitboard)1 << sq;
  if (actor == (int)having_move(o) && !again && pc != PIECE_UNKNOWN_PROMO) {
    if (o->adjust_pending) {
      o->adjust_pending = 0; /* an announced adjustment: no obligation (4.2.1) */
    } else {
      add_touch(o, sq, ARB_PIECE_COLOR(pc) == having_move(o), 1, 0);
      d->needs_confirmation = 1; /* a lift without an announcement counts as deliberate (4.2.2) */
      lapse_on_touch(o);
    }
  }
  board_changed(o, ev->t, d);
  return ARB_OK;
}

static arb_status ev_place(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  arb_square sq = ev->squares[0];
  if (ev->square_count == 0 || sq >= 64)
    return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "place: no square%s", NULL);
  arb_piece pc = ev->piece;
  arb_color mover = having_move(o);
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
      (o->lifted & cur(o)->by_type[ARB_PAWN] & cur(o)->by_color[ARB_PIECE_COLOR(pc)] &
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

static arb_status ev_board(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  if (!ev->text)
    return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "board: no placement%s", NULL);
  arb_piece next[64];
  int col = 0;
  if (!read_placement(ev->text, ev->text_len, next, &col)) {
    char where[48];
    snprintf(where, sizeof where, "%d", col);
    return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_FEN_SYNTAX,
                  "board: not a placement (FEN field 1), at column %s", where);
  }
  /* the differences, as lifts then places */
  arb_color h = having_move(o);
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
      ev_lift(o, &l, d);
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
      ev_lift(o, &l, d);
    }
    ev_place(o, &pl, d);
  }
  /* two plies in one snapshot (no press seen between them): one pair of legal moves explains
   * the board — the first completed, the reply made; several — the arbiter's */
  arb_move c[ARB_MAX_MOVES], m1 = ARB_MOVE_NONE, m2 = ARB_MOVE_NONE;
  int64_t db = o->cfg.debounce_ms > 0 ? o->cfg.debounce_ms : 250;
  o->unexplained = 0;
  if (!o->over && ev->stable_ms >= db && !o->cand_valid && o->made_idx < 0 &&
      !same_placement(o->phys, cur(o)->board) && !successors_matching(o, cur(o), c)) {
    int pairs = pairs_matching(o, cur(o), &m1, &m2);
    if (pairs == 1) {
      o->ntouched = 0; /* the reply's lifts are not the first mover's touches */
      d->warnings &= ~ARB_OTB_WARN_SENSOR_MISREAD; /* what the snapshot's steps looked like */
      arb_status st = make_legal(o, m1, 1, ev->t, 1, d);
      if (st) return st;
      if (!d->restored && o->made_idx >= 0) {
        st = complete_made(o, 0, d);
        if (st) return st;
        if (!o->over) {
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
      arb_status st = commit_candidate(o, d);
      if (st) return st;
    }
    if (o->retract_pending) {
      if (is_casual(o)) {
        entry *e = &o->rec[o->made_idx];
        e->pub.annulled = 1;
        o->made_idx = -1;
        arb_status st = rebuild(o);
        if (st) return st;
        reset_progress(o);
        d->takeback = 1;
      } else {
        set_violation(d, ARB_OTB_V_RELEASED_MOVE_CHANGED, is_uscf(o) ? "9" : "4.7");
        d->needs_confirmation = 1;
      }
    }
  }
  return ARB_OK;
}

/* Whether t (n bytes) is a move in UCI squares ("e2e4", "b7b8q": the piece is read by the
 * caller), and its squares. */
static int uci_squares(const char *t, size_t n, arb_square *from, arb_square *to) {
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
    return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "move: no move%s", NULL);
  arb_color h = having_move(o);
  int hands = ev->hands ? ev->hands : 1;
  if (o->made_idx >= 0 && ev->by == (int8_t)o->rec[o->made_idx].pub.by) {
    /* the mover enters a move again before pressing: the same move, or a changed one (4.7) */
    entry *e = &o->rec[o->made_idx];
    arb_move m;
    if (arb_move_read(&e->before, ev->text, ev->text_len, 0, &m, NULL) == ARB_OK && m == e->move) {
      e->hands = (uint8_t)hands;
      o->retract_pending = 0;
      memcpy(o->phys, cur(o)->board, sizeof o->phys);
      d->made = 1;
      snprintf(d->made_uci, sizeof d->made_uci, "%s", e->pub.uci);
      d->made_legal = e->pub.legal;
      return ARB_OK;
    }
    if (!is_casual(o)) {
      set_violation(d, ARB_OTB_V_RELEASED_MOVE_CHANGED, "4.7");
      return ARB_OK; /* the released move stands */
    }
    e->pub.annulled = 1;
    o->made_idx = -1;
    arb_status st = rebuild(o);
    if (st) return st;
    h = having_move(o);
  } else if (ev->by >= 0 && ev->by != (int8_t)h) {
    d->warnings |= ARB_OTB_WARN_OUT_OF_TURN;
    return refuse(d, ARB_OTB_NOT_ALLOWED, ARB_ERR_NOT_YOUR_TURN, "move: %s does not have the move",
                  h == ARB_WHITE ? "Black" : "White");
  }
  const arb_position *p = cur(o);
  arb_move m;
  arb_status st = arb_move_read(p, ev->text, ev->text_len, 0, &m, NULL);
  arb_status res;
  if (st == ARB_OK && p->board[ARB_MOVE_TO(m)] && ARB_MOVE_KIND(m) != ARB_MOVE_CASTLING &&
      ARB_PIECE_TYPE(p->board[ARB_MOVE_TO(m)]) == ARB_KING)
    st = ARB_ERR_MOVE_ILLEGAL;
  if (st == ARB_OK) {
    res = make_legal(o, m, hands, ev->t, 0, d);
  } else {
    /* an illegal move as played: squares in UCI form */
    const char *s = ev->text;
    size_t n = ev->text_len;
    arb_square from, to;
    if (!uci_squares(s, n, &from, &to))
      return refuse(d, ARB_OTB_BAD_MOVE, ARB_ERR_MOVE_SYNTAX,
                    "move: '%s' is no legal move and not a move in UCI squares", NULL);
    arb_piece_type promo = ARB_NO_TYPE;
    if (n == 5) {
      const char *q = strchr("nbrq", s[4] | 32);
      if (!q || !s[4])
        return refuse(d, ARB_OTB_BAD_MOVE, ARB_ERR_MOVE_SYNTAX, "move: bad promotion piece%s",
                      NULL);
      promo = (arb_piece_type)(ARB_KNIGHT + (q - "nbrq"));
    }
    arb_piece pc = p->board[from];
    if (!pc || ARB_PIECE_COLOR(pc) != h || from == to ||
        (p->board[to] && ARB_PIECE_COLOR(p->board[to]) == h))
      return refuse(d, ARB_OTB_BAD_MOVE, ARB_ERR_MOVE_ILLEGAL,
                    "move: no piece of the player having the move can go so%s", NULL);
    res = make_move(o, ARB_MOVE_NONE, from, to, promo, hands, ev->t, d);
  }
  if (res == ARB_OK) memcpy(o->phys, cur(o)->board, sizeof o->phys);
  return res;
}

static arb_status ev_press(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  int by = ev->by >= 0 ? ev->by : o->clock_side;
  if (by != o->clock_side) { /* the lever was already down on that side */
    d->warnings |= ARB_OTB_WARN_OUT_OF_TURN;
    return ARB_OK;
  }
  if (o->clock_paused) {
    o->clock_paused = 0;
    if (o->timed) arb_clock_resume(&o->clock, o->now);
  }
  arb_status st = ARB_OK;
  if ((arb_color)by == having_move(o)) st = commit_candidate(o, d); /* the presser's move */
  if (st) return st;
  if (d->restored) return ARB_OK; /* the press belonged to a move the referee did not accept */
  if (o->made_idx >= 0 && o->rec[o->made_idx].pub.by == (arb_color)by)
    return complete_made(o, ev->other_hand, d);
  if ((arb_color)by != having_move(o)) { /* pressed after the opponent already replied (6.2.2) */
    press_clock(o, (arb_color)by, 0);
    return ARB_OK;
  }
  /* no made move: what does the board show? */
  arb_square from, to;
  arb_piece_type promo;
  if ((o->cfg.sensing != ARB_OTB_BOARD_NONE || o->eboard_seen) &&
      !same_placement(o->phys, cur(o)->board)) {
    arb_move c[ARB_MAX_MOVES];
    if (successors_matching(o, cur(o), c) > 1) { /* a promotion piece the board cannot tell */
      d->needs |= ARB_OTB_NEEDS_PROMOTION_PIECE;
      o->press_pending = 1;
      return ARB_OK;
    }
    if (successors_displaced(o, cur(o), c) == 1) {
      /* 7.4: a piece knocked over or displaced while moving — not a press without a move: the
       * move stands and the piece is put back (on the player's own time) */
      d->warnings |= ARB_OTB_WARN_DISPLACED;
      d->needs_confirmation = 1;
      st = make_legal(o, c[0], 1, ev->t, 1, d);
      if (st || d->restored || o->made_idx < 0) return st;
      return complete_made(o, ev->other_hand, d);
    }
    if (o->unexplained) {
      /* the board shows what several pairs of moves explain: the arbiter says which */
      d->needs |= ARB_OTB_NEEDS_ARBITER;
      d->warnings |= ARB_OTB_WARN_BOARD_MISMATCH;
      return ARB_OK;
    }
    if (pseudo_from_board(o, &from, &to, &promo)) {
      const arb_position *p = cur(o);
      int last = ARB_RANK_OF(to) == (p->turn == ARB_WHITE ? 7 : 0);
      if (ARB_PIECE_TYPE(p->board[from]) == ARB_PAWN && last && !promo &&
          o->phys[to] == PIECE_UNKNOWN_PROMO) {
        d->needs |= ARB_OTB_NEEDS_PROMOTION_PIECE;
        o->press_pending = 1;
        return ARB_OK;
      }
      st = make_move(o, ARB_MOVE_NONE, from, to, promo, 1, ev->t, d);
      if (st) return st;
      d->made = 0; /* not a made move: completed by the press as it stands */
      return complete_made(o, ev->other_hand, d);
    }
    d->warnings |= ARB_OTB_WARN_BOARD_MISMATCH;
  }
  /* 7.5.3: a press without a move */
  entry *e;
  st = make_move(o, ARB_MOVE_NONE, 0, 0, 0, 1, ev->t, d);
  if (st) return st;
  e = &o->rec[o->nrec - 1];
  e->pub.violation = ARB_OTB_V_PRESS_WITHOUT_MOVE;
  d->made = 0;
  d->made_uci[0] = 0;
  o->made_idx = (int)(e - o->rec);
  set_violation(d, ARB_OTB_V_PRESS_WITHOUT_MOVE, NULL);
  if (is_casual(o)) {
    e->pub.annulled = 1;
    o->made_idx = -1;
    return rebuild(o);
  }
  return complete_made(o, 0, d);
}

/* 7.5.2 / US 8F7: a press with a pawn left on its last rank. */
static arb_status unfinished_promotion(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  arb_square from, to;
  arb_piece_type promo;
  if ((o->cfg.sensing == ARB_OTB_BOARD_NONE && !o->eboard_seen) ||
      !pseudo_from_board(o, &from, &to, &promo))
    return 1;
  const arb_position *p = cur(o);
  int last = ARB_RANK_OF(to) == (p->turn == ARB_WHITE ? 7 : 0);
  if (!(ARB_PIECE_TYPE(p->board[from]) == ARB_PAWN && last && !promo &&
        o->phys[to] != PIECE_UNKNOWN_PROMO))
    return 1;
  if (is_uscf(o)) { /* improper, not illegal: the promoter still chooses */
    set_violation(d, ARB_OTB_V_IMPROPER_CLOCK_PRESS, "8F7");
    d->needs |= ARB_OTB_NEEDS_PROMOTION_PIECE;
    return 0;
  }
  arb_move legal[ARB_MAX_MOVES];
  int n = legal_moves(p, legal);
  arb_move q = ARB_MOVE_NONE;
  for (int i = 0; i < n; i++)
    if (ARB_MOVE_FROM(legal[i]) == from && ARB_MOVE_TO(legal[i]) == to &&
        ARB_MOVE_KIND(legal[i]) == ARB_MOVE_PROMOTION && ARB_MOVE_PROMO(legal[i]) == ARB_QUEEN)
      q = legal[i];
  if (q == ARB_MOVE_NONE) return 1;
  if (challenge_only(o)) {
    /* A.5.2 / B.3: nobody has challenged it yet — the pawn stands on the last rank, a
     * completed illegal move (made here, completed by the press as it stands) */
    if (make_move(o, ARB_MOVE_NONE, from, to, ARB_NO_TYPE, 1, ev->t, d)) return 1;
    d->made = 0;
    complete_made(o, ev->other_hand, d);
    return 0;
  }
  if (make_move(o, q, 0, 0, 0, 1, ev->t, d)) return 1;
  entry *e = &o->rec[o->nrec - 1];
  memcpy(o->phys, cur(o)->board, sizeof o->phys);
  if (is_casual(o)) { /* a queen, no penalty */
    if (o->made_idx >= 0) complete_made(o, 0, d);
    return 0;
  }
  e->pub.violation = ARB_OTB_V_PROMOTION_NOT_COMPLETED;
  set_violation(d, ARB_OTB_V_PROMOTION_NOT_COMPLETED, NULL);
  if (o->made_idx >= 0) {
    o->made_idx = -1;
    press_clock(o, e->pub.by, 0);
    record_press(o, e);
  }
  d->completed = 1;
  e->pending = 1;
  if (!o->over && acts_at_press(o))
    penalise(o, (int)(e - o->rec), 0, 1, (arb_color)!e->pub.by, d);
  else if (o->over && is_fide(o)) { /* the game ended with the queen (a stalemate, P05) */
    e->counted = 1;
    e->pending = 0;
    if (o->illegal_count[e->pub.by] < 255) o->illegal_count[e->pub.by]++;
  }
  return 0;
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
static arb_status rule_illegal(arb_otb *o, int claimant, int arbiter, int ply,
                               arb_otb_decision *d) {
  arb_color off = claimant >= 0 ? (arb_color)!claimant : (arb_color)!having_move(o);
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
  if (is_uscf(o)) {
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
  arb_otb_supervision s = supervision(o);
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
static arb_status found_later(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  uint32_t idx = (uint32_t)ev->ply - 1;
  if (idx >= o->nrec || o->rec[idx].pub.annulled || !o->rec[idx].pub.completed)
    return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT,
                  "arbiter_observes: no completed move at that ply%s", NULL);
  entry *e = &o->rec[idx];
  if (!e->pub.legal || e->pub.violation) return rule_illegal(o, -1, 1, ev->ply, d);
  const char *t = ev->text;
  size_t n = ev->text_len;
  arb_square from, to;
  if (!uci_squares(t, n, &from, &to))
    return refuse(d, ARB_OTB_BAD_MOVE, ARB_ERR_MOVE_SYNTAX,
                  "arbiter_observes: the move as played must be in UCI squares%s", NULL);
  arb_piece pc = e->before.board[from];
  arb_move m;
  if (!pc || ARB_PIECE_COLOR(pc) != e->pub.by || from == to ||
      arb_move_read(&e->before, t, n, 0, &m, NULL) == ARB_OK)
    return refuse(d, ARB_OTB_BAD_MOVE, ARB_ERR_MOVE_ILLEGAL,
                  "arbiter_observes: that is not an illegal move of the player who had the move "
                  "there%s",
                  NULL);
  arb_color opp = (arb_color)!e->pub.by;
  int opp_moved = 0, plies_after = 0;
  for (uint32_t i = idx + 1; i < o->nrec; i++)
    if (!o->rec[i].pub.annulled) plies_after++, opp_moved |= o->rec[i].pub.by == opp;
  d->claim_valid = 0;
  if ((challenge_only(o) && opp_moved) || (is_uscf(o) && plies_after > 20)) {
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
  set_violation(d, ARB_OTB_V_ILLEGAL_MOVE_COMPLETED, NULL);
  return penalise(o, (int)idx, 1, 1, opp, d);
}

static arb_status rule_flag(arb_otb *o, int flagged, arb_otb_decision *d) {
  d->claim_valid = 0;
  if (o->over) return ARB_OK;
  int fallen = o->flag_shown[flagged];
  if (o->timed) fallen = arb_clock_flag_fallen(&o->clock, (arb_color)flagged, o->now);
  if (!fallen) return ARB_OK;
  d->claim_valid = 1;
  arb_flag_verdict v = arb_flag_fall(cur(o), (arb_color)flagged, o->grules,
                                     arb_game_draw_offer(o->game), ARB_RESULT_NONE);
  end_game(o, v.result, ARB_TERM_TIME_FORFEIT, d);
  o->outcome.termination = ARB_TERM_TIME_FORFEIT;
  return ARB_OK;
}

static arb_status ev_claim(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d, int arbiter) {
  int by = ev->by;
  if (!arbiter && by < 0)
    return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "claim: no claimant (by)%s", NULL);
  d->claim_valid = 0;
  if (o->over) {
    if (ev->matter == ARB_OTB_M_FLAG) return ARB_OK; /* the game had ended first (M07) */
    return refuse(d, ARB_OTB_GAME_OVER, ARB_ERR_GAME_OVER, "the game is over%s", NULL);
  }
  switch (ev->matter) {
  case ARB_OTB_M_ILLEGAL_MOVE:
    if (arbiter && ev->ply > 0 && ev->text) return found_later(o, ev, d);
    return rule_illegal(o, arbiter ? -1 : by, arbiter, ev->ply, d);
  case ARB_OTB_M_TOUCH_MOVE: {
    if (!o->breach.active || (!arbiter && o->breach.offender == (int8_t)by)) return ARB_OK;
    if (!arbiter && o->breach.lapsed) return ARB_OK; /* 4.8 */
    if (is_uscf(o) && arbiter) return ARB_OK;        /* the director acts on a claim only */
    d->claim_valid = 1;
    int idx = o->breach.idx;
    touch_rec t[MAX_TOUCH];
    int nt = o->breach.ntouched;
    memcpy(t, o->breach.touched, sizeof t);
    arb_status st = reinstate(o, idx, d);
    if (st) return st;
    memcpy(o->touched, t, sizeof t);
    o->ntouched = nt;
    o->king_castle_side = -1;
    set_violation(d, ARB_OTB_V_TOUCH_MOVE, NULL);
    return ARB_OK;
  }
  case ARB_OTB_M_FLAG: {
    if (arbiter && is_uscf(o))
      return refuse(d, ARB_OTB_NOT_ALLOWED, ARB_ERR_NOT_ALLOWED,
                    "under US Chess only a player may call a flag%s", NULL);
    int flagged = arbiter ? (ev->side >= 0      ? ev->side
                             : o->flag_shown[0] ? 0
                             : o->flag_shown[1] ? 1
                                                : o->clock_side)
                          : !by;
    return rule_flag(o, flagged, d);
  }
  case ARB_OTB_M_THREEFOLD:
  case ARB_OTB_M_FIFTY: {
    arb_move intended = ARB_MOVE_NONE;
    if (ev->text && ev->text_len &&
        arb_move_read(cur(o), ev->text, ev->text_len, 0, &intended, NULL) != ARB_OK)
      return refuse(d, ARB_OTB_BAD_MOVE, ARB_ERR_MOVE_ILLEGAL,
                    "claim: the intended move is not legal%s", NULL);
    arb_claim_verdict v;
    arb_status st = arb_game_claim(
        o->game, (arb_color)by,
        ev->matter == ARB_OTB_M_THREEFOLD ? ARB_CLAIM_THREEFOLD : ARB_CLAIM_FIFTY, intended, &v);
    if (st == ARB_ERR_NOT_YOUR_TURN)
      return refuse(d, ARB_OTB_NOT_ALLOWED, st, "claim: only the player having the move claims%s",
                    NULL);
    if (st) return refuse(d, ARB_OTB_NOT_ALLOWED, st, "claim: %s", arb_strerror(st));
    d->claim_valid = v.correct;
    if (v.correct) {
      arb_outcome oc = arb_game_outcome(o->game);
      end_game(o, oc.result, oc.termination, d);
      o->outcome = oc;
    } else {
      add_time(o, (arb_color)!by, v.penalty_s, d);
      if (v.must_play) o->must_play = v.intended;
    }
    return ARB_OK;
  }
  case ARB_OTB_M_DEAD_POSITION:
    if (arb_is_dead_position(cur(o))) {
      d->claim_valid = 1;
      end_game(o, ARB_RESULT_DRAW, ARB_TERM_DEAD_POSITION, d);
    }
    return ARB_OK;
  case ARB_OTB_M_QUICKPLAY_INCREMENT:
  case ARB_OTB_M_NO_NORMAL_MEANS: {
    if (!o->cfg.guidelines_iii || o->cfg.rules == ARB_OTB_FIDE_BLITZ)
      return refuse(d, ARB_OTB_NOT_ALLOWED, ARB_ERR_NOT_ALLOWED,
                    "claim: the Guidelines III were not announced for this event%s", NULL);
    if (o->timed && arb_clock_remaining(&o->clock, (arb_color)by, o->now) >= 120000)
      return refuse(d, ARB_OTB_NOT_ALLOWED, ARB_ERR_NOT_ALLOWED,
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
    const arb_position *p = cur(o);
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
  default: return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "claim: what is claimed?%s", NULL);
  }
}

static arb_status ev_ruling(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) {
  switch (ev->ruling) {
  case ARB_OTB_R_ACCEPT:
  case ARB_OTB_R_REJECT:
  case ARB_OTB_R_AGREE_INCREMENT:
    if (!o->judgement.active)
      return refuse(d, ARB_OTB_NOT_ALLOWED, ARB_ERR_NOT_ALLOWED, "no claim awaits a ruling%s",
                    NULL);
    o->judgement.active = 0;
    if (ev->ruling == ARB_OTB_R_REJECT) {
      add_time(o, (arb_color)!o->judgement.by, 120, d); /* III.4, III.5.3 */
    } else if (o->judgement.matter == ARB_OTB_M_NO_NORMAL_MEANS) {
      end_game(o, ARB_RESULT_DRAW, ARB_TERM_ARBITER, d);
    }
    return ARB_OK;
  case ARB_OTB_R_TIME_ADJUST:
    if (ev->side < 0)
      return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "time_adjust: whose clock (side)?%s",
                    NULL);
    if (o->timed) arb_clock_adjust(&o->clock, (arb_color)ev->side, ev->ms, o->now);
    d->time_added_s[ev->side] += (int)(ev->ms / 1000);
    return ARB_OK;
  case ARB_OTB_R_RESULT:
    if (ev->result == ARB_RESULT_NONE)
      return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "result: which result?%s", NULL);
    if (o->over) { /* after the end (a signed result, 8.7): the arbiter decides otherwise */
      o->outcome.result = ev->result;
      o->outcome.termination = ARB_TERM_ARBITER;
      o->outcome.automatic = 0;
      o->outcome.by = -1;
      return ARB_OK;
    }
    end_game(o, ev->result, ARB_TERM_ARBITER, d);
    return ARB_OK;
  case ARB_OTB_R_NO_VALID_REASON:
    set_violation(d, ARB_OTB_V_PAUSE_WITHOUT_REASON, NULL);
    d->penalty_warning = 1;
    if (o->clock_paused && o->timed) arb_clock_resume(&o->clock, o->now);
    o->clock_paused = 0;
    return ARB_OK;
  case ARB_OTB_R_SUPPLY_PIECE:
    if (o->clock_paused && o->timed) arb_clock_resume(&o->clock, o->now);
    o->clock_paused = 0;
    return ARB_OK;
  default:
    return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "arbiter_rules: which decision?%s", NULL);
  }
}

arb_otb *arb_otb_new(void) {
  arb_otb *o = calloc(1, sizeof *o);
  if (o) o->made_idx = -1;
  return o;
}

void arb_otb_free(arb_otb *o) {
  if (!o) return;
  arb_game_free(o->game);
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
    return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "not an event%s", NULL);
  arb_status st = ARB_OK;
  if (ev->kind == ARB_OTB_START) {
    st = ev_start(o, ev, d);
    fill_state(o, d);
    return st;
  }
  if (!o->has_game)
    return refuse(d, ARB_OTB_NO_GAME, ARB_ERR_ARGUMENT, "no game: start first%s", NULL);
  if (ev->t < o->now)
    return refuse(d, ARB_OTB_TIME_BACKWARDS, ARB_ERR_TIME_BACKWARDS,
                  "the event's time is before the last one's%s", NULL);
  o->now = ev->t;
  int ruling_on_result = ev->kind == ARB_OTB_ARBITER_RULES && ev->ruling == ARB_OTB_R_RESULT;
  if (o->over && !ruling_on_result && ev->kind != ARB_OTB_NOTE && ev->kind != ARB_OTB_RECORD &&
      ev->kind != ARB_OTB_SIGN && ev->kind != ARB_OTB_CLAIM && ev->kind != ARB_OTB_FLAG_SHOWN &&
      ev->kind != ARB_OTB_BOARD && ev->kind != ARB_OTB_PRESS) {
    fill_state(o, d);
    return refuse(d, ARB_OTB_GAME_OVER, ARB_ERR_GAME_OVER, "the game is over%s", NULL);
  }
  if (o->over && (ev->kind == ARB_OTB_BOARD || ev->kind == ARB_OTB_PRESS)) {
    fill_state(o, d);
    return ARB_OK;
  }
  if (ev->kind == ARB_OTB_LIFT || ev->kind == ARB_OTB_PLACE || ev->kind == ARB_OTB_BOARD)
    o->eboard_seen = 1;
  /* the board has been quiet long enough: the candidate move is released; a claim, an offer,
   * a resignation or an arbiter's act refers to the board as it stands */
  if (!o->over && ev->kind != ARB_OTB_PRESS) check_stable(o, ev->t, d);
  if (!o->over && (ev->kind == ARB_OTB_CLAIM || ev->kind == ARB_OTB_ARBITER_OBSERVES ||
                   ev->kind == ARB_OTB_ARBITER_RULES || ev->kind == ARB_OTB_OFFER_DRAW ||
                   ev->kind == ARB_OTB_ACCEPT_DRAW || ev->kind == ARB_OTB_RESIGN ||
                   ev->kind == ARB_OTB_RECORD)) {
    st = commit_candidate(o, d);
    if (st) return refuse(d, ARB_OTB_NO_MEMORY, st, "%s", arb_strerror(st));
  }
  switch (ev->kind) {
  case ARB_OTB_TOUCH: st = ev_touch(o, ev, d); break;
  case ARB_OTB_ADJUST_ANNOUNCE:
    if (ev->by >= 0 && ev->by != (int8_t)having_move(o) && !is_casual(o)) {
      set_violation(d, ARB_OTB_V_ADJUST_OUT_OF_TURN, NULL);
      d->penalty_warning = 1;
    } else
      o->adjust_pending = 1;
    break;
  case ARB_OTB_LIFT: st = ev_lift(o, ev, d); break;
  case ARB_OTB_PLACE: st = ev_place(o, ev, d); break;
  case ARB_OTB_BOARD: st = ev_board(o, ev, d); break;
  case ARB_OTB_RELEASE: {
    st = commit_candidate(o, d);
    if (!st && o->made_idx >= 0) o->rec[o->made_idx].release_logged = 1;
    if (!st && o->castle_intent && o->made_idx < 0) { /* the king released on g1/c1 (4.7.2) */
      const arb_position *p = cur(o);
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
      return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "promote_choice: which piece?%s", NULL);
    o->promo_choice = ev->piece;
    arb_move c[ARB_MAX_MOVES];
    if (successors_matching(o, cur(o), c) == 1) {
      o->cand_valid = 1;
      o->cand = c[0];
      o->cand_t = ev->t;
      if (o->press_pending) {
        o->press_pending = 0;
        arb_otb_event pr = ARB_OTB_EVENT_INIT(ARB_OTB_PRESS, ev->t);
        pr.by = (int8_t)having_move(o);
        st = ev_press(o, &pr, d);
      }
    }
    break;
  }
  case ARB_OTB_PRESS:
    if (unfinished_promotion(o, ev, d) == 0) break;
    st = ev_press(o, ev, d);
    break;
  case ARB_OTB_CLOCK_PAUSE:
    if (o->timed && (arb_clock_running(&o->clock) >= 0)) arb_clock_pause(&o->clock, o->now);
    o->clock_paused = 1;
    break;
  case ARB_OTB_CLOCK_RESUME:
    if (o->timed && o->clock_paused) arb_clock_resume(&o->clock, o->now);
    o->clock_paused = 0;
    break;
  case ARB_OTB_FLAG_SHOWN:
    if (ev->side < 0)
      return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "flag_shown: whose flag (side)?%s",
                    NULL);
    o->flag_shown[ev->side] = 1;
    d->warnings |= ARB_OTB_WARN_FLAG_SHOWN;
    break;
  case ARB_OTB_CLAIM: st = ev_claim(o, ev, d, 0); break;
  case ARB_OTB_ARBITER_OBSERVES: st = ev_claim(o, ev, d, 1); break;
  case ARB_OTB_ARBITER_RULES: st = ev_ruling(o, ev, d); break;
  case ARB_OTB_OFFER_DRAW:
    if (ev->by < 0)
      return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "offer_draw: by whom?%s", NULL);
    st = arb_game_offer_draw(o->game, (arb_color)ev->by);
    if (st) return refuse(d, ARB_OTB_NOT_ALLOWED, st, "offer_draw: %s", arb_strerror(st));
    break;
  case ARB_OTB_ACCEPT_DRAW:
    if (ev->by < 0)
      return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "accept_draw: by whom?%s", NULL);
    st = arb_game_accept_draw(o->game, (arb_color)ev->by);
    if (st) return refuse(d, ARB_OTB_NOT_ALLOWED, st, "accept_draw: %s", arb_strerror(st));
    end_game(o, ARB_RESULT_DRAW, ARB_TERM_AGREEMENT, d);
    o->outcome = arb_game_outcome(o->game);
    break;
  case ARB_OTB_DECLINE_DRAW:
    if (ev->by < 0)
      return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "decline_draw: by whom?%s", NULL);
    st = arb_game_decline_draw(o->game, (arb_color)ev->by);
    if (st) return refuse(d, ARB_OTB_NOT_ALLOWED, st, "decline_draw: %s", arb_strerror(st));
    break;
  case ARB_OTB_RESIGN:
    if (ev->by < 0)
      return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "resign: by whom?%s", NULL);
    /* the game layer's resignation: a draw when the opponent cannot mate (5.1.2) */
    st = arb_game_resign(o->game, (arb_color)ev->by);
    if (st) return refuse(d, ARB_OTB_NOT_ALLOWED, st, "resign: %s", arb_strerror(st));
    end_game(o, arb_game_outcome(o->game).result, ARB_TERM_RESIGNATION, d);
    o->outcome = arb_game_outcome(o->game);
    break;
  case ARB_OTB_DEVICE:
    if (ev->by < 0)
      return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "device: on whom?%s", NULL);
    if (ev->evident && !is_casual(o)) {
      if (is_uscf(o)) {
        d->needs |= ARB_OTB_NEEDS_ARBITER; /* 20N: the director's discretion */
      } else {
        end_game(o, win_for((arb_color)!ev->by), ARB_TERM_ELECTRONIC_DEVICE, d);
      }
    }
    break;
  case ARB_OTB_RECORD: {
    /* 8.1.2: no move written in advance — the player having the move writes a move he has not
     * made (a legal move of his in the position now) */
    arb_move m;
    if (!o->over && ev->by >= 0 && ev->by == (int8_t)having_move(o) && o->made_idx < 0 &&
        ev->text && arb_move_read(cur(o), ev->text, ev->text_len, 0, &m, NULL) == ARB_OK &&
        !is_casual(o)) {
      set_violation(d, ARB_OTB_V_MOVE_WRITTEN_IN_ADVANCE, is_uscf(o) ? "15A" : NULL);
      d->penalty_warning = 1;
    }
    break;
  }
  case ARB_OTB_SIGN:
    /* 8.7: the result both players signed stands, even if incorrect, unless the arbiter decides
     * otherwise; signed during play, it ends the game (an agreed draw, or the loser's
     * resignation) */
    if (ev->result == ARB_RESULT_NONE || (unsigned)ev->result > ARB_RESULT_DRAW)
      return refuse(d, ARB_OTB_BAD_EVENT, ARB_ERR_ARGUMENT, "sign: which result?%s", NULL);
    if (!o->over) {
      if (ev->result == ARB_RESULT_DRAW) {
        end_game(o, ARB_RESULT_DRAW, ARB_TERM_AGREEMENT, d);
      } else {
        end_game(o, ev->result, ARB_TERM_RESIGNATION, d);
        o->outcome.by = ev->result == ARB_RESULT_WHITE_WINS ? ARB_BLACK : ARB_WHITE;
      }
    } else if (ev->result != o->outcome.result) {
      o->outcome.result = ev->result;
      d->warnings |= ARB_OTB_WARN_SIGNED_RESULT;
      d->needs |= ARB_OTB_NEEDS_ARBITER;
    }
    break;
  case ARB_OTB_NOTE:
  default: break;
  }
  /* A.5.4: after a completed move the illegal position the arbiter saw is still there */
  if (!st && o->watch.active && !o->over && completed_plies(o) > o->watch.plies) {
    const arb_position *p = cur(o);
    int holds;
    if (o->watch.what == ARB_OTB_M_PAWN_ON_LAST_RANK)
      holds = (p->by_type[ARB_PAWN] & 0xff000000000000ffULL) != 0;
    else {
      arb_position q;
      position_from_board(p->board, (arb_color)!p->turn, p, 0, &q);
      holds = arb_in_check(p) && arb_in_check(&q);
    }
    o->watch.active = 0;
    if (holds) end_game(o, ARB_RESULT_DRAW, ARB_TERM_ILLEGAL_POSITION, d);
  }
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
  arb_result result = o->over && !cut ? o->outcome.result : ARB_RESULT_NONE;
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
    fen_of(start, fen);
    if ((st = arb_pgn_writer_tag(w, "SetUp", 5, "1", 1))) return st;
    if ((st = arb_pgn_writer_tag(w, "FEN", 3, fen, strlen(fen)))) return st;
  }
  if (o->timed) {
    char tc[64];
    if (arb_tc_write(&o->tc, ARB_TC_PGN, tc, sizeof tc) > 0 &&
        (st = arb_pgn_writer_tag(w, "TimeControl", 11, tc, strlen(tc))))
      return st;
  }
  const char *term = arb_termination_pgn(o->over ? o->outcome.termination : ARB_TERM_NONE);
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
