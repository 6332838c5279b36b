/* Arbiter — MIT licence, see LICENSE.
 *
 * otb_internal.h (internal): the over-the-board referee's state (arbiter/otb.h) and the
 * functions its files share.  One concern per file: otb.c (events in, decisions out, moves
 * made and completed, claims, rulings, the record and its PGN), otb_touch.c (Article 4: what
 * a touch obliges), otb_board.c (e-boards: the physical board, candidate moves, snapshots),
 * otb_penalty.c (completed illegal moves, their penalties and when the referee acts).
 */
#ifndef ARB_OTB_INTERNAL_H
#define ARB_OTB_INTERNAL_H

#include <stddef.h>

#include "arbiter/arbiter.h"
#include "arbiter/otb.h"
#include "board/bitboard.h"

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
  int step;        /* the referee's step it made (arb_ref_event.ply of ARB_REF_REINSTATE); a book
                      move's is counted from the end of the book (arb_otb.book) */
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
  /* The one referee (referee.h) decides the game: moves once made and completed, offers,
   * claims, flags, the clock with its pauses and corrections, the endings.  This layer adds
   * what the board and the hands bring. */
  arb_referee *ref;
  int steps; /* the referee's steps (accepted moves and continue_froms after the book) */
  int book;  /* the record's first entries that are the referee's setup moves (their steps are
                1 - book .. 0) */
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
};

/* otb.c: rule-set facts, positions, the record, moves made and completed, decisions */
int arb__otb_is_uscf(const arb_otb *o) ARB_HIDDEN;
int arb__otb_is_casual(const arb_otb *o) ARB_HIDDEN;
int arb__otb_is_fide(const arb_otb *o) ARB_HIDDEN;
arb_otb_supervision arb__otb_supervision(const arb_otb *o) ARB_HIDDEN;
const arb_position *arb__otb_cur(const arb_otb *o) ARB_HIDDEN;
arb_color arb__otb_having_move(const arb_otb *o) ARB_HIDDEN;
void arb__otb_fen_of(const arb_position *p, char *buf) ARB_HIDDEN;
int arb__otb_legal_moves(const arb_position *p, arb_move *out) ARB_HIDDEN;
void arb__otb_after_move(const arb_position *p, arb_move m, arb_position *out) ARB_HIDDEN;
void arb__otb_castle_squares(const arb_position *p, arb_move m, arb_square *kto,
                             arb_square *rto) ARB_HIDDEN;
int arb__otb_same_placement(const arb_piece *a, const arb_piece *b) ARB_HIDDEN;
/* The referee: an event at the OTB's time, its decision in *rd; steps counted. */
arb_status arb__otb_ref(arb_otb *o, arb_ref_event *ev, arb_ref_decision *rd) ARB_HIDDEN;
int arb__otb_over(const arb_otb *o) ARB_HIDDEN;
int arb__otb_running(const arb_otb *o) ARB_HIDDEN;
/* Takes back the entries from idx on that still count (annulled; their names into d, may be
 * NULL): the referee reinstates the position before the first of them. */
arb_status arb__otb_take_back(arb_otb *o, int idx, arb_otb_decision *d) ARB_HIDDEN;
void arb__otb_reset_progress(arb_otb *o) ARB_HIDDEN;
arb_status arb__otb_refuse(arb_otb_decision *d, arb_otb_refusal r, arb_status st, const char *fmt,
                           const char *arg) ARB_HIDDEN;
void arb__otb_set_violation(arb_otb_decision *d, arb_otb_violation v,
                            const char *article) ARB_HIDDEN;
/* Ends the game by the referee's ADJUDICATE (the endings it takes as given) or FORFEIT. */
arb_status arb__otb_end_game(arb_otb *o, arb_result r, arb_termination t, int by) ARB_HIDDEN;
void arb__otb_forfeit(arb_otb *o, arb_color side, arb_termination t) ARB_HIDDEN;
arb_result arb__otb_win_for(arb_color c) ARB_HIDDEN;
void arb__otb_add_time(arb_otb *o, arb_color side, int seconds, arb_otb_decision *d) ARB_HIDDEN;
void arb__otb_touched_from_entry(arb_otb *o, const entry *e) ARB_HIDDEN;
void arb__otb_record_press(arb_otb *o, entry *e) ARB_HIDDEN;
arb_status arb__otb_make_move(arb_otb *o, arb_move m, arb_square from, arb_square to,
                              arb_piece_type promo, int hands, int64_t t,
                              arb_otb_decision *d) ARB_HIDDEN;
arb_status arb__otb_make_legal(arb_otb *o, arb_move m, int hands, int64_t t, int eboard,
                               arb_otb_decision *d) ARB_HIDDEN;
arb_status arb__otb_complete_made(arb_otb *o, int other_hand, arb_otb_decision *d) ARB_HIDDEN;
int arb__otb_uci_squares(const char *t, size_t n, arb_square *from, arb_square *to) ARB_HIDDEN;

/* otb_touch.c: Article 4 — the obligation from what was touched */
int arb__otb_castle_side_of(arb_move m) ARB_HIDDEN;
void arb__otb_obligation_of(const arb_otb *o, const touch_rec *tl, int nt,
                            arb_otb_obligation *ob) ARB_HIDDEN;
int arb__otb_allowed_has(const arb_otb_obligation *ob, arb_move m) ARB_HIDDEN;
int arb__otb_touches_by_eboard(const arb_otb *o) ARB_HIDDEN;
int arb__otb_enemy_lift_only(const arb_otb *o) ARB_HIDDEN;
void arb__otb_add_touch(arb_otb *o, arb_square sq, int own, int eboard,
                        int unknown_order) ARB_HIDDEN;
void arb__otb_lapse_on_touch(arb_otb *o) ARB_HIDDEN;
arb_status arb__otb_ev_touch(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) ARB_HIDDEN;

/* otb_board.c: the e-board — the physical board, candidate moves, snapshots */
int arb__otb_successors_matching(const arb_otb *o, const arb_position *base,
                                 arb_move *out) ARB_HIDDEN;
int arb__otb_successors_displaced(const arb_otb *o, const arb_position *base,
                                  arb_move *out) ARB_HIDDEN;
arb_status arb__otb_commit_candidate(arb_otb *o, arb_otb_decision *d) ARB_HIDDEN;
void arb__otb_check_stable(arb_otb *o, int64_t t, arb_otb_decision *d) ARB_HIDDEN;
int arb__otb_pseudo_from_board(arb_otb *o, arb_square *from, arb_square *to,
                               arb_piece_type *promo) ARB_HIDDEN;
arb_status arb__otb_ev_lift(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) ARB_HIDDEN;
arb_status arb__otb_ev_place(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) ARB_HIDDEN;
arb_status arb__otb_ev_board(arb_otb *o, const arb_otb_event *ev, arb_otb_decision *d) ARB_HIDDEN;

/* otb_penalty.c: completed illegal moves and their penalties */
arb_status arb__otb_reinstate(arb_otb *o, int idx, arb_otb_decision *d) ARB_HIDDEN;
int arb__otb_challenge_only(const arb_otb *o) ARB_HIDDEN;
int arb__otb_unfinished_pawn(const entry *e, arb_move *queen) ARB_HIDDEN;
arb_status arb__otb_queen_in(arb_otb *o, entry *e, arb_move q, int at_press) ARB_HIDDEN;
arb_status arb__otb_illegal_completed(arb_otb *o, int idx, arb_otb_decision *d) ARB_HIDDEN;
arb_status arb__otb_unfinished_completed(arb_otb *o, int idx, arb_otb_decision *d) ARB_HIDDEN;
arb_status arb__otb_unfinished_promotion(arb_otb *o, const arb_otb_event *ev,
                                         arb_otb_decision *d) ARB_HIDDEN;
arb_status arb__otb_rule_illegal(arb_otb *o, int claimant, int arbiter, int ply,
                                 arb_otb_decision *d) ARB_HIDDEN;
arb_status arb__otb_found_later(arb_otb *o, const arb_otb_event *ev,
                                arb_otb_decision *d) ARB_HIDDEN;

#endif
