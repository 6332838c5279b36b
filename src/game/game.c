/* Arbiter — MIT licence, see LICENSE.
 *
 * game.c: history, repetitions, the move-count rules, endings in the order of RULES.md R21,
 * draw offers, claims and resignation.
 *
 * Repetition identity (FIDE 9.2.3): placement, side to move, castling rights, and the en passant
 * square only when the capture is legal.  Each ply stores a repetition key (the Polyglot key
 * without the en passant file when the capture is not legal) and how often its position has
 * occurred so far; a new ply looks back only over the plies since the last capture or pawn move
 * (no earlier position can recur) and stops at the most recent equal position, confirmed by
 * comparing the positions themselves, so a key collision can never produce a false draw.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/game.h"
#include "game/ending.h"
#include "game/game_internal.h"
#include "notation/text.h"
#include "rules/reach.h"

typedef struct ply_rec {
  arb_position pos; /* the position after this ply (ply 0: the start) */
  uint64_t rkey;    /* repetition key */
  arb_move move;    /* the move that led here (ply > 0) */
  uint32_t reps;    /* occurrences of this position up to and including this ply */
  char san[ARB_SAN_MAX];
} ply_rec;

struct arb_game {
  arb_ruleset ruleset;
  const arb_rules *rules;
  ply_rec *plies; /* plies[0 .. n] */
  int n, cap;
  arb_outcome outcome;
  int offer_by;       /* side with an open draw offer, or -1 */
  arb_move must_play; /* after a wrong claim with an intended move */
  unsigned no_draw_before;
  int null_moves;           /* arb_game_set_null_moves */
  int play_on;              /* arb_game_set_play_on */
  uint64_t search_budget;   /* arb_game_set_search_budget */
  arb__dead_memo dead_memo; /* between the dead-position tests after its moves */
};

const char *arb_result_string(arb_result r) {
  switch (r) {
  case ARB_RESULT_WHITE_WINS: return "1-0";
  case ARB_RESULT_BLACK_WINS: return "0-1";
  case ARB_RESULT_DRAW: return "1/2-1/2";
  default: return "*";
  }
}

/* The en passant square that counts for repetition: only when the capture is legal. */
static int effective_ep(const arb_position *p) {
  return p->ep_square != ARB_NO_SQUARE && arb_ep_legal(p) ? p->ep_square : ARB_NO_SQUARE;
}

static int same_position(const arb_position *a, const arb_position *b) {
  return a->turn == b->turn && a->castling_rooks == b->castling_rooks &&
         memcmp(a->board, b->board, sizeof a->board) == 0 && effective_ep(a) == effective_ep(b);
}

/* Occurrences of position p (with key k) if it stood at ply `at`, counting that time: look back
 * at the same side to move, no further than the last capture or pawn move. */
static int count_occurrences(const arb_game *g, const arb_position *p, uint64_t k, int at) {
  int oldest = at - (int)p->halfmove_clock;
  if (oldest < 0) oldest = 0;
  for (int j = at - 2; j >= oldest; j -= 2)
    if (g->plies[j].rkey == k && same_position(&g->plies[j].pos, p)) return g->plies[j].reps + 1;
  return 1;
}

static const arb_position *cur(const arb_game *g) { return &g->plies[g->n].pos; }

static void set_outcome(arb_game *g, arb_result r, arb_termination t, int automatic, int by) {
  g->outcome.result = r;
  g->outcome.termination = t;
  g->outcome.automatic = (uint8_t)automatic;
  g->outcome.by = (int8_t)by;
  g->offer_by = -1;
  g->must_play = ARB_MOVE_NONE;
}

/* The automatic endings, in the order of R21, for the current position, whose check and
 * mobility (has a legal move) the caller knows. */
static void evaluate(arb_game *g, int check, int mobile) {
  arb_result result;
  arb_termination t = arb__automatic_ending(g->rules, cur(g), check, mobile, g->plies[g->n].reps,
                                            &result, &g->dead_memo);
  if (t != ARB_TERM_NONE) set_outcome(g, result, t, 1, -1);
}

arb_game *arb_game_new(const arb_position *start, arb_ruleset rules) {
  if (!arb_rules_get(rules)) return NULL;
  arb_game *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->cap = 64;
  g->plies = malloc((size_t)g->cap * sizeof *g->plies);
  if (!g->plies) {
    free(g);
    return NULL;
  }
  g->ruleset = rules;
  g->rules = arb_rules_get(rules);
  g->offer_by = -1;
  ply_rec *r = &g->plies[0];
  memset(r, 0, sizeof *r);
  if (start)
    r->pos = *start;
  else
    arb_position_startpos(&r->pos);
  r->rkey = arb__repetition_key(&r->pos);
  r->reps = 1;
  evaluate(g, arb_in_check(&r->pos), arb_has_legal_move(&r->pos));
  return g;
}

void arb_game_free(arb_game *g) {
  if (!g) return;
  free(g->plies);
  free(g);
}

arb_ruleset arb_game_rules(const arb_game *g) { return g->ruleset; }
void arb_game_set_null_moves(arb_game *g, int allow) { g->null_moves = allow != 0; }
void arb_game_set_play_on(arb_game *g, int on) { g->play_on = on != 0; }

/* Whether the game's outcome stops a move: any ending, except an automatic one in play-on. */
static int over(const arb_game *g) {
  return g->outcome.result != ARB_RESULT_NONE && !(g->play_on && g->outcome.automatic);
}

/* Forgets the ending (the game goes on). */
static void clear_outcome(arb_game *g) {
  memset(&g->outcome, 0, sizeof g->outcome);
  g->outcome.by = -1;
}

void arb_game_set_search_budget(arb_game *g, uint64_t nodes) { g->search_budget = nodes; }

uint64_t arb_game_search_budget(const arb_game *g) { return g ? g->search_budget : 0; }
void arb_game_set_no_draw_before(arb_game *g, unsigned move_number) {
  g->no_draw_before = move_number;
}
const arb_position *arb_game_position(const arb_game *g) { return cur(g); }
const arb_position *arb_game_position_at(const arb_game *g, int ply) {
  return ply >= 0 && ply <= g->n ? &g->plies[ply].pos : NULL;
}
int arb_game_ply_count(const arb_game *g) { return g->n; }
arb_move arb_game_move_at(const arb_game *g, int ply) {
  return ply >= 1 && ply <= g->n ? g->plies[ply].move : ARB_MOVE_NONE;
}
const char *arb_game_san_at(const arb_game *g, int ply) {
  return ply >= 1 && ply <= g->n ? g->plies[ply].san : "";
}
arb_outcome arb_game_outcome(const arb_game *g) { return g->outcome; }
int arb_game_draw_offer(const arb_game *g) { return g->offer_by; }
arb_move arb_game_must_play(const arb_game *g) { return g->must_play; }
int arb_game_repetitions(const arb_game *g) { return g->plies[g->n].reps; }

int arb_game_repetitions_after(const arb_game *g, arb_move move) {
  arb_position next = *cur(g);
  arb_undo u;
  arb_make_move(&next, move, &u);
  return count_occurrences(g, &next, arb__repetition_key(&next), g->n + 1);
}

arb_status arb_game_play(arb_game *g, arb_move move) {
  if (over(g)) return ARB_ERR_GAME_OVER;
  const arb_position *p = cur(g);
  if (move == ARB_MOVE_NULL) {
    if (!g->null_moves) return ARB_ERR_NULL_MOVE;
    if (arb_in_check(p)) return ARB_ERR_NULL_IN_CHECK;
  } else if (!arb_is_legal(p, move)) {
    return ARB_ERR_MOVE_ILLEGAL;
  }
  if (g->must_play != ARB_MOVE_NONE && move != g->must_play) return ARB_ERR_MUST_PLAY;
  if (g->n + 1 >= g->cap) {
    int ncap = g->cap * 2;
    ply_rec *np = realloc(g->plies, (size_t)ncap * sizeof *np);
    if (!np) return ARB_ERR_NO_MEMORY;
    g->plies = np;
    g->cap = ncap;
    p = cur(g);
  }
  ply_rec *r = &g->plies[g->n + 1];
  r->pos = *p;
  arb_undo u;
  arb_make_move(&r->pos, move, &u);
  /* Check and mobility of the new position serve both the SAN mark and the endings. */
  int check = arb_in_check(&r->pos), mobile = arb_has_legal_move(&r->pos);
  arb__san_format(p, move, check ? (mobile ? '+' : '#') : 0, r->san, sizeof r->san);
  r->move = move;
  r->rkey = arb__repetition_key(&r->pos);
  g->n++;
  r->reps = (uint32_t)count_occurrences(g, &r->pos, r->rkey, g->n);
  /* An offer lapses when its opponent moves; the offering side's own move keeps it open. */
  if (g->offer_by >= 0 && g->offer_by != (int)p->turn) g->offer_by = -1;
  g->must_play = ARB_MOVE_NONE;
  if (g->play_on) clear_outcome(g);
  evaluate(g, check, mobile);
  return ARB_OK;
}

arb_status arb_game_play_text(arb_game *g, const char *text, size_t len, arb_san_error *err) {
  if (over(g)) return ARB_ERR_GAME_OVER;
  arb_move m;
  arb_status st = arb_move_read(cur(g), text, len, g->null_moves ? ARB_SAN_ALLOW_NULL : 0, &m, err);
  if (st != ARB_OK) return st;
  st = arb_game_play(g, m);
  if (st != ARB_OK && err) { /* what the parse could not know: in check, game rules */
    err->code = st;
    err->column = -1;
    err->candidates_count = 0;
    snprintf(err->message, sizeof err->message, "%s", arb_strerror(st));
  }
  return st;
}

arb_status arb_game_undo(arb_game *g) {
  if (g->n == 0) return ARB_ERR_ARGUMENT;
  g->n--;
  clear_outcome(g);
  g->offer_by = -1;
  g->must_play = ARB_MOVE_NONE;
  if (g->play_on) evaluate(g, arb_in_check(cur(g)), arb_has_legal_move(cur(g)));
  return ARB_OK;
}

/* A legal move that would make the 50 moves complete: no capture, no pawn move. */
static int quiet_move(const arb_position *p, arb_move m) {
  return ARB_PIECE_TYPE(p->board[ARB_MOVE_FROM(m)]) != ARB_PAWN &&
         ARB_MOVE_KIND(m) != ARB_MOVE_EN_PASSANT &&
         (ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING || p->board[ARB_MOVE_TO(m)] == ARB_NO_PIECE);
}

void arb_game_facts_of(const arb_game *g, arb_game_facts *f) {
  const arb_position *p = cur(g);
  memset(f, 0, sizeof *f);
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(p, moves);
  int check = arb_in_check(p);
  f->checkmate = check && n == 0;
  f->stalemate = !check && n == 0;
  f->insufficient_material = (uint8_t)arb_is_insufficient_material(p);
  f->dead_position = (uint8_t)arb_is_dead_position(p);
  f->repetitions = g->plies[g->n].reps;
  f->threefold = f->repetitions >= 3;
  f->fivefold = f->repetitions >= 5;
  f->fifty = p->halfmove_clock >= 100 && !f->checkmate;
  f->seventyfive = p->halfmove_clock >= 150 && !f->checkmate;
  int over = g->outcome.result != ARB_RESULT_NONE;
  f->can_claim_threefold = f->threefold && n > 0 && !over;
  for (int i = 0; i < n && !f->can_claim_threefold && !over; i++)
    if (arb_game_repetitions_after(g, moves[i]) >= 3) f->can_claim_threefold = 1;
  f->can_claim_fifty = f->fifty && n > 0 && !over;
  if (!f->can_claim_fifty && p->halfmove_clock >= 99 && !over)
    for (int i = 0; i < n && !f->can_claim_fifty; i++)
      if (quiet_move(p, moves[i])) f->can_claim_fifty = 1;
}

int arb_game_claim_correct(const arb_game *g, arb_claim_reason reason, arb_move intended) {
  const arb_position *p = cur(g);
  if (intended != ARB_MOVE_NONE && !arb_is_legal(p, intended)) return 0;
  /* Correct when the condition holds now (9.2.1 b, 9.3.2), or when the written move would
   * complete it (9.2.1 a, 9.3.1). */
  if (reason == ARB_CLAIM_THREEFOLD)
    return g->plies[g->n].reps >= 3 ||
           (intended != ARB_MOVE_NONE && arb_game_repetitions_after(g, intended) >= 3);
  if (reason == ARB_CLAIM_FIFTY)
    return (p->halfmove_clock >= 100 && arb_has_legal_move(p)) ||
           (intended != ARB_MOVE_NONE && p->halfmove_clock >= 99 && quiet_move(p, intended));
  return 0;
}

arb_status arb_game_claim(arb_game *g, arb_color by, arb_claim_reason reason, arb_move intended,
                          arb_claim_verdict *v) {
  arb_claim_verdict local;
  if (!v) v = &local;
  memset(v, 0, sizeof *v);
  v->intended = intended;
  if (g->outcome.result != ARB_RESULT_NONE) return ARB_ERR_GAME_OVER;
  if ((by != ARB_WHITE && by != ARB_BLACK) ||
      (reason != ARB_CLAIM_THREEFOLD && reason != ARB_CLAIM_FIFTY))
    return ARB_ERR_ARGUMENT;
  if (!g->rules->claims) return ARB_ERR_NOT_ALLOWED;
  /* After a wrong claim the written move must be played first (9.5.3). */
  if (g->must_play != ARB_MOVE_NONE) return ARB_ERR_MUST_PLAY;
  const arb_position *p = cur(g);
  if (by != p->turn && !g->rules->claim_by_either) return ARB_ERR_NOT_YOUR_TURN;
  if (intended != ARB_MOVE_NONE) {
    if (!g->rules->intended_move_claims || by != p->turn) return ARB_ERR_NOT_ALLOWED;
    if (!arb_is_legal(p, intended)) return ARB_ERR_MOVE_ILLEGAL;
  }
  int correct = arb_game_claim_correct(g, reason, intended);
  if (correct) {
    v->correct = 1;
    set_outcome(g, ARB_RESULT_DRAW,
                reason == ARB_CLAIM_THREEFOLD ? ARB_TERM_THREEFOLD_REPETITION
                                              : ARB_TERM_FIFTY_MOVES,
                0, by);
    return ARB_OK;
  }
  /* Wrong: the opponent gets time (9.5.3), the written move must be played, and the claim
   * stands as a draw offer (9.1.2.3). */
  v->penalty_s = g->rules->wrong_claim_penalty_s;
  if (intended != ARB_MOVE_NONE) {
    v->must_play = 1;
    g->must_play = intended;
  }
  /* As an offer it meets an open offer of the opponent's: agreement, when the rules allow it
   * (arb_game_offer_draw decides); the opponent's offer is never lost. */
  v->became_offer = 1;
  if (arb_game_offer_draw(g, by) != ARB_OK) v->became_offer = 0;
  if (g->outcome.result != ARB_RESULT_NONE) v->must_play = 0;
  return ARB_OK;
}

arb_status arb_game_offer_draw(arb_game *g, arb_color by) {
  if (by != ARB_WHITE && by != ARB_BLACK) return ARB_ERR_ARGUMENT;
  if (g->outcome.result != ARB_RESULT_NONE) return ARB_ERR_GAME_OVER;
  /* Offering when the opponent's offer is open agrees to it. */
  if (g->offer_by == (int)(by ^ 1)) return arb_game_accept_draw(g, by);
  g->offer_by = by;
  return ARB_OK;
}

arb_status arb_game_accept_draw(arb_game *g, arb_color by) {
  if (by != ARB_WHITE && by != ARB_BLACK) return ARB_ERR_ARGUMENT;
  if (g->outcome.result != ARB_RESULT_NONE) return ARB_ERR_GAME_OVER;
  if (g->offer_by != (int)(by ^ 1)) return ARB_ERR_NO_OFFER;
  const arb_position *p = cur(g);
  /* Moves made by each player so far, from the move counter (also right for FEN starts). */
  unsigned long black_moves = p->fullmove_number - 1;
  unsigned long white_moves = black_moves + (p->turn == ARB_BLACK);
  if (g->rules->agreement_needs_moves && (white_moves == 0 || black_moves == 0))
    return ARB_ERR_NOT_ALLOWED;
  if (g->no_draw_before && p->fullmove_number < g->no_draw_before) return ARB_ERR_NOT_ALLOWED;
  set_outcome(g, ARB_RESULT_DRAW, ARB_TERM_AGREEMENT, 0, by);
  return ARB_OK;
}

arb_status arb_game_decline_draw(arb_game *g, arb_color by) {
  if (by != ARB_WHITE && by != ARB_BLACK) return ARB_ERR_ARGUMENT;
  if (g->outcome.result != ARB_RESULT_NONE) return ARB_ERR_GAME_OVER;
  if (g->offer_by != (int)(by ^ 1)) return ARB_ERR_NO_OFFER;
  g->offer_by = -1;
  return ARB_OK;
}

arb_status arb_game_time_forfeit(arb_game *g, arb_color flagged, arb_result result) {
  if ((flagged != ARB_WHITE && flagged != ARB_BLACK) || result == ARB_RESULT_NONE ||
      (unsigned)result > ARB_RESULT_DRAW)
    return ARB_ERR_ARGUMENT;
  if (g->outcome.result != ARB_RESULT_NONE) return ARB_ERR_GAME_OVER;
  set_outcome(g, result, ARB_TERM_TIME_FORFEIT, 1, -1);
  return ARB_OK;
}

arb_status arb_game_end(arb_game *g, arb_result result, arb_termination t, int by) {
  if (t <= ARB_TERM_ABORTED || t >= ARB_TERM_COUNT || result == ARB_RESULT_NONE ||
      (unsigned)result > ARB_RESULT_DRAW || by < -1 || by > ARB_BLACK)
    return ARB_ERR_ARGUMENT;
  if (g->outcome.result != ARB_RESULT_NONE) return ARB_ERR_GAME_OVER;
  set_outcome(g, result, t, 0, by);
  return ARB_OK;
}

arb_status arb__game_forget_start_ending(arb_game *g) {
  if (g->n != 0) return ARB_ERR_ARGUMENT;
  memset(&g->outcome, 0, sizeof g->outcome);
  g->outcome.by = -1;
  return ARB_OK;
}

arb_status arb__game_rule_end(arb_game *g, arb_result result, arb_termination t, int by) {
  if (t == ARB_TERM_NONE || t == ARB_TERM_ABORTED || (unsigned)t >= ARB_TERM_COUNT ||
      result == ARB_RESULT_NONE || (unsigned)result > ARB_RESULT_DRAW || by < -1 || by > ARB_BLACK)
    return ARB_ERR_ARGUMENT;
  if (g->outcome.result != ARB_RESULT_NONE) return ARB_ERR_GAME_OVER;
  set_outcome(g, result, t, 0, by);
  return ARB_OK;
}

arb_status arb__game_amend_outcome(arb_game *g, arb_result result, arb_termination t, int by) {
  if (g->outcome.result == ARB_RESULT_NONE || result == ARB_RESULT_NONE ||
      (unsigned)result > ARB_RESULT_DRAW || (unsigned)t >= ARB_TERM_COUNT || by < -1 ||
      by > ARB_BLACK)
    return ARB_ERR_ARGUMENT;
  g->outcome.result = result;
  if (t != ARB_TERM_NONE) {
    g->outcome.termination = t;
    g->outcome.automatic = 0;
    g->outcome.by = (int8_t)by;
  }
  return ARB_OK;
}

arb_status arb_game_resign(arb_game *g, arb_color by) {
  if (by != ARB_WHITE && by != ARB_BLACK) return ARB_ERR_ARGUMENT;
  if (g->outcome.result != ARB_RESULT_NONE) return ARB_ERR_GAME_OVER;
  arb_color winner = (arb_color)(by ^ 1);
  if (g->rules->resign_draw_if_cannot_mate &&
      arb_cannot_mate_within(cur(g), winner, g->search_budget))
    set_outcome(g, ARB_RESULT_DRAW, ARB_TERM_RESIGNATION, 0, by);
  else
    set_outcome(g, winner == ARB_WHITE ? ARB_RESULT_WHITE_WINS : ARB_RESULT_BLACK_WINS,
                ARB_TERM_RESIGNATION, 0, by);
  return ARB_OK;
}
