/* Arbiter — MIT licence, see LICENSE.
 *
 * referee.c: the procedure engine — one game under a rule set with its clock; typed events in,
 * typed decisions out (referee.h).
 *
 * Every event goes the same way (arb_referee_event): its time is checked and becomes the
 * referee's; a flag due by then falls (rule sets whose server sees flags); the game exists
 * (begun under the default rules if no start came); then one handler per kind (handlers[])
 * decides; any ending stops the clock; the event is recorded; the state is described.  A
 * handler changes nothing before it knows the event is accepted: a move is tried on a copy of
 * the clock before the board moves, a start is checked whole before it replaces the game.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/status.h"
#include "game/game_internal.h"
#include "referee/referee_internal.h"

static const char *const kind_names[ARB_REF_KIND_COUNT] = {
    [ARB_REF_START] = "start",
    [ARB_REF_MOVE] = "move",
    [ARB_REF_OFFER_DRAW] = "offer_draw",
    [ARB_REF_ACCEPT_DRAW] = "accept_draw",
    [ARB_REF_DECLINE_DRAW] = "decline_draw",
    [ARB_REF_CLAIM_DRAW] = "claim_draw",
    [ARB_REF_RESIGN] = "resign",
    [ARB_REF_FLAG] = "flag",
    [ARB_REF_STATE] = "state",
    [ARB_REF_PAUSE] = "pause",
    [ARB_REF_RESUME] = "resume",
    [ARB_REF_ADJUST_TIME] = "adjust_time",
    [ARB_REF_PREMOVE] = "premove",
    [ARB_REF_CANCEL_PREMOVE] = "cancel_premove",
    [ARB_REF_ABORT] = "abort",
    [ARB_REF_AWAY] = "away",
    [ARB_REF_BACK] = "back",
    [ARB_REF_CLAIM_ABANDONED] = "claim_abandoned",
    [ARB_REF_PRESS] = "press",
    [ARB_REF_REINSTATE] = "reinstate",
    [ARB_REF_CONTINUE_FROM] = "continue_from",
    [ARB_REF_FORFEIT] = "forfeit",
    [ARB_REF_ADJUDICATE] = "adjudicate",
    [ARB_REF_TICK] = "tick",
};

const char *arb_ref_kind_name(arb_ref_kind kind) {
  return (unsigned)kind < ARB_REF_KIND_COUNT ? kind_names[kind] : "";
}

arb_status arb_ref_kind_parse(const char *name, size_t len, arb_ref_kind *out) {
  if (!name || !out) return ARB_ERR_ARGUMENT;
  for (int k = 0; k < ARB_REF_TICK; k++)
    if (strlen(kind_names[k]) == len && memcmp(kind_names[k], name, len) == 0) {
      *out = (arb_ref_kind)k;
      return ARB_OK;
    }
  return ARB_ERR_ARGUMENT;
}

static const struct {
  const char *name;
  arb_status status;
} refusals[ARB_REF_REFUSAL_COUNT] = {
    [ARB_REF_ACCEPTED] = {"ok", ARB_OK},
    [ARB_REF_BAD_EVENT] = {"bad_event", ARB_ERR_ARGUMENT},
    [ARB_REF_BAD_MOVE] = {"bad_move", ARB_ERR_MOVE_SYNTAX},
    [ARB_REF_ILLEGAL_MOVE] = {"illegal_move", ARB_ERR_MOVE_ILLEGAL},
    [ARB_REF_AMBIGUOUS_MOVE] = {"ambiguous_move", ARB_ERR_MOVE_AMBIGUOUS},
    [ARB_REF_NOT_YOUR_TURN] = {"not_your_turn", ARB_ERR_NOT_YOUR_TURN},
    [ARB_REF_GAME_OVER] = {"game_over", ARB_ERR_GAME_OVER},
    [ARB_REF_NO_OFFER] = {"no_offer", ARB_ERR_NO_OFFER},
    [ARB_REF_NOT_ALLOWED] = {"not_allowed", ARB_ERR_NOT_ALLOWED},
    [ARB_REF_MUST_PLAY] = {"must_play", ARB_ERR_MUST_PLAY},
    [ARB_REF_TIME_BACKWARDS] = {"time_backwards", ARB_ERR_TIME_BACKWARDS},
    [ARB_REF_CLOCK_STATE] = {"clock_state", ARB_ERR_CLOCK_STATE},
    [ARB_REF_FLAG_NOT_FALLEN] = {"flag_not_fallen", ARB_ERR_FLAG_NOT_FALLEN},
    [ARB_REF_NO_MEMORY] = {"no_memory", ARB_ERR_NO_MEMORY},
};

const char *arb_ref_refusal_name(arb_ref_refusal refusal) {
  return (unsigned)refusal < ARB_REF_REFUSAL_COUNT ? refusals[refusal].name : "";
}

/* The refusal for a status from a lower layer (bad_event for statuses no refusal has). */
static arb_ref_refusal refusal_of(arb_status s) {
  for (int r = 1; r < ARB_REF_REFUSAL_COUNT; r++)
    if (refusals[r].status == s) return (arb_ref_refusal)r;
  return ARB_REF_BAD_EVENT;
}

/* Refuses the event: its status, reason and message (printf-style; NULL: the status's text).
 * Returns the status, for `return refuse(...)`. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static arb_status
refuse(arb_ref_decision *d, arb_ref_refusal why, const char *fmt, ...) {
  d->refusal = why;
  d->status = refusals[why].status;
  if (fmt) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->message, sizeof d->message, fmt, ap);
    va_end(ap);
  } else {
    snprintf(d->message, sizeof d->message, "%s", arb_strerror(d->status));
  }
  return d->status;
}

/* Refuses with the refusal and message of a lower layer's status. */
static arb_status refuse_status(arb_ref_decision *d, arb_status s) {
  return refuse(d, refusal_of(s), NULL);
}

/* A press the clock refused (tried on a copy): nothing changes. */
static arb_status refuse_clock(arb_ref_decision *d, arb_status s) {
  return refuse(d, s == ARB_ERR_TIME_BACKWARDS ? ARB_REF_TIME_BACKWARDS : ARB_REF_CLOCK_STATE,
                "the clock cannot take this move: %s", arb_strerror(s));
}

static const char *color_name(int c) { return c == ARB_WHITE ? "white" : "black"; }

static arb_status need_by(const arb_ref_event *ev, arb_ref_decision *d) {
  if (ev->by == ARB_WHITE || ev->by == ARB_BLACK) return ARB_OK;
  return refuse(d, ARB_REF_BAD_EVENT, "\"%s\" needs \"by\": \"white\" or \"black\"",
                arb_ref_kind_name(ev->kind));
}

static void decision_init(arb_ref_decision *d, arb_ref_kind kind) {
  memset(d, 0, sizeof *d);
  d->kind = kind;
  d->time_added_to = -1;
}

arb_referee *arb_referee_new(arb_ruleset rules) {
  if (!arb_rules_get(rules)) return NULL;
  arb_referee *ref = calloc(1, sizeof *ref);
  if (!ref) return NULL;
  ref->default_rules = rules;
  ref->now = -1;
  ref->flag_side = -1;
  ref->facts_ply = -1;
  ref->paused_at = -1;
  ref->away_from[0] = ref->away_from[1] = -1;
  ref->abandoned = -1;
  ref->unpressed = -1;
  return ref;
}

/* Forgets the segments before the present game (from the k-th on). */
static void segments_drop(arb_referee *ref, uint32_t k) {
  while (ref->nseg > k)
    arb_game_free(ref->seg[--ref->nseg].game);
}

void arb_referee_free(arb_referee *ref) {
  if (!ref) return;
  segments_drop(ref, 0);
  free(ref->seg);
  arb_game_free(ref->game);
  free(ref->tags);
  free(ref->rec);
  free(ref);
}

const arb_game *arb_referee_game(const arb_referee *ref) { return ref->game; }
const arb_clock *arb_referee_clock(const arb_referee *ref) {
  return ref->game && ref->timed ? &ref->clock : NULL;
}

static int game_over(const arb_referee *ref) {
  return ref->aborted || arb_game_outcome(ref->game).result != ARB_RESULT_NONE;
}

int64_t arb_referee_abandon_ms(const arb_referee *ref) {
  return ref->game && !ref->aborted ? ref->abandon_ms : 0;
}

/* The first millisecond side's opponent may claim that side abandoned the game, or NEVER. */
static int64_t abandon_claim_at(const arb_referee *ref, int side) {
  if (!ref->abandon_ms || ref->away_from[side] < 0 || game_over(ref) ||
      arb_game_ply_count(ref->game) < 2 || ref->paused_at >= 0)
    return ARB_CLOCK_NEVER;
  return ref->away_from[side] + ref->abandon_ms;
}

/* What a claim that `leaver` abandoned the game gives: the claimant wins unless it could not
 * win on time — the rule set's flag test with the leaver as the flagged side (a pending draw
 * offer does not count: the leaver is not out of time). */
static arb_flag_verdict abandon_verdict(const arb_referee *ref, int leaver) {
  return arb_flag_fall(arb_game_position(ref->game), (arb_color)leaver, arb_game_rules(ref->game),
                       -1, arb_game_outcome(ref->game).result);
}

/* ---- what time does by itself: flags a server sees, the first-move limit ---- */

/* Flags count the moment they fall: a server, or an arbiter watching (setup), or a rule set
 * whose server sees them (online). */
static int sees_flags(const arb_referee *ref) {
  return ref->sees_flags || arb_clock_rules_get(arb_game_rules(ref->game))->auto_flag;
}

/* The grace the running side's flag gets (its lag quota's, with compensation). */
static int64_t grace_of(const arb_referee *ref, int side) {
  return ref->lag_comp && side >= 0 ? arb_lag_grace(&ref->lag[side]) : 0;
}

/* The first millisecond the running side's flag counts as down for a server, or NEVER.  The
 * grace is that side's even when the arbiter paused the clocks after its flag fell (the flag
 * stays down: a pause neither lifts it nor ends its grace early). */
static int64_t flag_deadline(const arb_referee *ref) {
  if (!ref->timed || !sees_flags(ref)) return ARB_CLOCK_NEVER;
  int64_t flag = arb_clock_flag_time(&ref->clock);
  return flag == ARB_CLOCK_NEVER ? flag : flag + grace_of(ref, arb_clock_turn(&ref->clock)) + 1;
}

/* The first millisecond at which the side to move has missed its first move, or NEVER. */
static int64_t first_move_deadline(const arb_referee *ref) {
  if (!ref->first_move_ms || arb_game_ply_count(ref->game) >= 2 || ref->nseg > 0 ||
      ref->paused_at >= 0)
    return ARB_CLOCK_NEVER; /* (a game going on from an illegal board is past its start) */
  return ref->first_move_from + ref->first_move_ms + 1;
}

int64_t arb_referee_next_deadline(const arb_referee *ref) {
  if (!ref->game || game_over(ref)) return ARB_CLOCK_NEVER;
  int64_t a = flag_deadline(ref), b = first_move_deadline(ref);
  return a < b ? a : b;
}

/* The facts of the present position: the cached ones when they are still those. */
static int facts_cached(const arb_referee *ref) {
  return ref->facts_ply == arb_game_ply_count(ref->game) && ref->facts_over == game_over(ref);
}

/* Fills the cache (the state of every decision reads it). */
static void refresh_facts(arb_referee *ref) {
  if (!ref->game || facts_cached(ref)) return;
  arb_game_facts_of(ref->game, &ref->facts);
  ref->facts_ply = arb_game_ply_count(ref->game);
  ref->facts_over = (uint8_t)game_over(ref);
}

void arb_referee_state_of(const arb_referee *ref, arb_ref_state *s) {
  memset(s, 0, sizeof *s);
  s->now = ref->now < 0 ? 0 : ref->now;
  s->draw_offer = s->flag_side = s->running = s->unpressed = -1;
  s->remaining_ms[0] = s->remaining_ms[1] = s->flag_at = s->deadline = ARB_CLOCK_NEVER;
  const arb_game *g = ref->game;
  if (!g) return;
  s->has_game = 1;
  s->outcome = arb_game_outcome(g);
  s->over = (uint8_t)game_over(ref);
  s->aborted = ref->aborted;
  if (ref->aborted) s->outcome.termination = ARB_TERM_ABORTED;
  for (int c = 0; c < 2; c++)
    if (ref->pre[c].set) {
      size_t n =
          ref->pre[c].len < sizeof s->premove[c] ? ref->pre[c].len : sizeof s->premove[c] - 1;
      memcpy(s->premove[c], ref->pre[c].text, n);
      s->premove[c][n] = 0;
    }
  s->turn = (arb_color)arb_game_position(g)->turn;
  s->ply = arb_game_ply_count(g);
  s->draw_offer = (int8_t)arb_game_draw_offer(g);
  s->unpressed = (int8_t)(game_over(ref) ? -1 : ref->unpressed);
  s->must_play = arb_game_must_play(g);
  if (facts_cached(ref))
    s->facts = ref->facts;
  else
    arb_game_facts_of(g, &s->facts);
  if (!s->over && arb_rules_get(arb_game_rules(g))->claims)
    s->claims =
        (uint8_t)((s->facts.can_claim_threefold ? ARB_REF_CAN_CLAIM(ARB_CLAIM_THREEFOLD) : 0) |
                  (s->facts.can_claim_fifty ? ARB_REF_CAN_CLAIM(ARB_CLAIM_FIFTY) : 0));
  if (ref->flag_side >= 0 && s->outcome.termination == ARB_TERM_TIME_FORFEIT) {
    s->flag_side = (int8_t)ref->flag_side;
    s->flag_reason = ref->flag_reason;
  }
  if (ref->abandoned >= 0) s->flag_reason = ref->abandon_reason;
  if (ref->timed) {
    s->timed = 1;
    for (int c = 0; c < 2; c++)
      s->remaining_ms[c] = arb_clock_remaining(&ref->clock, (arb_color)c, s->now);
    s->running = (int8_t)arb_clock_running(&ref->clock);
    s->paused = arb_clock_state_of(&ref->clock) == ARB_CLOCK_PAUSED;
    s->flag_at = arb_clock_flag_time(&ref->clock);
    s->deadline = arb_referee_next_deadline(ref);
  }
  int64_t first = game_over(ref) ? ARB_CLOCK_NEVER : first_move_deadline(ref);
  s->first_move_by = first == ARB_CLOCK_NEVER ? first : first - 1;
  s->abandoned = (int8_t)ref->abandoned;
  s->abandon_result = ARB_RESULT_NONE;
  for (int c = 0; c < 2; c++) {
    s->away_since[c] = s->over ? -1 : ref->away_from[c];
    s->abandon_claim_at[c] = abandon_claim_at(ref, c);
    if (s->abandon_claim_at[c] != ARB_CLOCK_NEVER)
      s->abandon_result = abandon_verdict(ref, c).result;
  }
}

/* ---- starting a game ---- */

/* Copies the setup's tags into one block (array, then the strings).  0 on a bad tag name
 * (message in d) or without memory. */
static int copy_tags(const arb_ref_setup *su, arb_ref_tag **out, arb_ref_decision *d) {
  *out = NULL;
  if (!su->tag_count) return 1;
  if (!su->tags) return refuse(d, ARB_REF_BAD_EVENT, "tag_count without tags"), 0;
  size_t bytes = su->tag_count * sizeof(arb_ref_tag);
  for (size_t i = 0; i < su->tag_count; i++) {
    const arb_ref_tag *t = &su->tags[i];
    if (!t->name || !arb_pgn_tag_name_valid(t->name, strlen(t->name)))
      return refuse(d, ARB_REF_BAD_EVENT, "tag %zu: the name is not a PGN symbol", i + 1), 0;
    bytes += strlen(t->name) + 1 + (t->value ? strlen(t->value) : 0) + 1;
  }
  arb_ref_tag *tags = malloc(bytes);
  if (!tags) return refuse(d, ARB_REF_NO_MEMORY, NULL), 0;
  char *p = (char *)(tags + su->tag_count);
  for (size_t i = 0; i < su->tag_count; i++) {
    const char *v = su->tags[i].value ? su->tags[i].value : "";
    size_t nl = strlen(su->tags[i].name) + 1, vl = strlen(v) + 1;
    memcpy(p, su->tags[i].name, nl);
    tags[i].name = p;
    p += nl;
    memcpy(p, v, vl);
    tags[i].value = p;
    p += vl;
  }
  *out = tags;
  return 1;
}

static arb_status ev_start(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d) {
  arb_ref_setup su = ARB_REF_SETUP_INIT;
  su.rules = ref->default_rules;
  if (ev->setup) su = *ev->setup;
  if (!arb_rules_get(su.rules))
    return refuse(d, ARB_REF_BAD_EVENT,
                  "\"rules\" must be one of fide, fide-rapid, fide-blitz, uscf, online, casual");
  uint32_t fatal = su.start ? arb_position_problems(su.start) & ARB_FEN_FATAL : 0;
  if (fatal)
    return refuse(d, ARB_REF_BAD_EVENT, "the start position cannot be played: %s",
                  arb_fen_problem_message(fatal & (0u - fatal))); /* the first problem */
  if (su.first_move_ms < 0 || su.first_move_ms > ARB_CLOCK_MS_MAX)
    return refuse(d, ARB_REF_BAD_EVENT, "\"first_move_ms\" is out of range");
  if (su.abandon_ms < -1 || su.abandon_ms > ARB_CLOCK_MS_MAX)
    return refuse(d, ARB_REF_BAD_EVENT, "\"abandon_ms\" is out of range");
  arb_clock clock;
  if (su.control) {
    arb_time_control tc = *su.control;
    if (su.clock_model >= 0) {
      if (su.clock_model >= ARB_MODEL_COUNT)
        return refuse(d, ARB_REF_BAD_EVENT, "\"clock\" must be after_move, before_move or online");
      tc.model = (uint8_t)su.clock_model;
    } else {
      tc.model = arb_clock_rules_get(su.rules)->model;
    }
    /* the clock starts with the side to move after the setup's moves */
    arb_color first = (arb_color)((su.start ? su.start->turn : ARB_WHITE) ^ (su.move_count & 1));
    if (arb_clock_init(&clock, &tc) != ARB_OK)
      return refuse(d, ARB_REF_BAD_EVENT, "\"control\" is not a valid time control");
    if (ev->t < 0 || arb_clock_start(&clock, first, ev->t) != ARB_OK)
      return refuse(d, ARB_REF_BAD_EVENT,
                    "a timed game needs \"t\" (milliseconds) on its start event");
  }
  arb_ref_tag *tags;
  if (!copy_tags(&su, &tags, d)) return d->status;
  arb_game *g = arb_game_new(su.start, su.rules);
  if (!g) {
    free(tags);
    return refuse(d, ARB_REF_NO_MEMORY, NULL);
  }
  if (su.move_count && !su.moves) {
    arb_game_free(g);
    free(tags);
    return refuse(d, ARB_REF_BAD_EVENT, "move_count without moves");
  }
  for (size_t i = 0; i < su.move_count; i++)
    if (arb_game_outcome(g).result != ARB_RESULT_NONE || arb_game_play(g, su.moves[i]) != ARB_OK) {
      arb_game_free(g);
      free(tags);
      return refuse(d, ARB_REF_BAD_EVENT, "the setup's move %zu is not legal there", i + 1);
    }
  if (su.no_draw_before) arb_game_set_no_draw_before(g, su.no_draw_before);
  arb_game_set_search_budget(g, su.search_budget);
  segments_drop(ref, 0);
  arb_game_free(ref->game);
  ref->game = g;
  free(ref->tags);
  ref->tags = tags;
  ref->ntags = su.tag_count;
  ref->timed = su.control != NULL;
  if (ref->timed) ref->clock = clock;
  ref->book = (int)su.move_count;
  ref->unpressed = -1;
  ref->flag_side = -1;
  ref->flag_reason = ARB_FLAG_NONE;
  ref->facts_ply = -1;
  ref->aborted = 0;
  ref->lag_comp = su.lag_compensation && ref->timed;
  ref->sees_flags = su.sees_flags;
  for (int c = 0; c < 2; c++)
    ref->lag[c] = arb_lag_tracker_init(ref->timed ? &ref->clock.tc : NULL);
  ref->first_move_ms = su.first_move_ms > 0 ? su.first_move_ms : 0;
  ref->first_move_from = ev->t;
  ref->paused_at = -1;
  /* the abandonment claim: online only, after a wait by the speed of the control */
  ref->abandon_ms = 0;
  if (su.rules == ARB_RULES_ONLINE && su.abandon_ms >= 0)
    ref->abandon_ms = su.abandon_ms > 0 ? su.abandon_ms
                      : su.control && arb_tc_speed(su.control) <= ARB_SPEED_BULLET &&
                              arb_tc_speed(su.control) != ARB_SPEED_UNKNOWN
                          ? ARB_REF_ABANDON_FAST_MS
                          : ARB_REF_ABANDON_DEFAULT_MS;
  ref->away_from[0] = ref->away_from[1] = -1;
  ref->abandoned = -1;
  ref->abandon_reason = ARB_FLAG_NONE;
  memset(ref->pre, 0, sizeof ref->pre);
  arb__ref_record_clear(ref);
  return ARB_OK;
}

/* ---- moves ---- */

/* The move an event names: its text read leniently, else its arb_move, which must be legal.
 * With ARB_REF_AUTO_QUEEN a promotion written without its piece is a queen. */
static arb_status read_move(const arb_position *p, const arb_ref_event *ev, arb_move *m,
                            arb_ref_decision *d, const char *what) {
  if (!ev->text) {
    *m = ev->move;
    if (arb_is_legal(p, ev->move)) return ARB_OK;
    return refuse(d, ARB_REF_ILLEGAL_MOVE, "%s%s", what, "not a legal move in this position");
  }
  arb_san_error err;
  arb_status s = arb_move_read(p, ev->text, ev->text_len, 0, m, &err);
  if (s == ARB_OK) return ARB_OK;
  if (s == ARB_ERR_MOVE_ILLEGAL && (ev->flags & ARB_REF_AUTO_QUEEN) && ev->text_len < 12) {
    /* "e7e8" reads as UCI with a q, "e8" / "dxe8" as SAN with =Q */
    char q[16];
    int uci = ev->text_len == 4 && ev->text[1] >= '1' && ev->text[1] <= '8';
    const char *suffix = uci ? "q" : "=Q";
    memcpy(q, ev->text, ev->text_len);
    memcpy(q + ev->text_len, suffix, strlen(suffix) + 1);
    arb_move mq;
    if (arb_move_read(p, q, strlen(q), 0, &mq, NULL) == ARB_OK &&
        ARB_MOVE_KIND(mq) == ARB_MOVE_PROMOTION && ARB_MOVE_PROMO(mq) == ARB_QUEEN) {
      *m = mq;
      return ARB_OK;
    }
  }
  arb_ref_refusal why = *what                         ? ARB_REF_ILLEGAL_MOVE
                        : s == ARB_ERR_MOVE_SYNTAX    ? ARB_REF_BAD_MOVE
                        : s == ARB_ERR_MOVE_AMBIGUOUS ? ARB_REF_AMBIGUOUS_MOVE
                                                      : ARB_REF_ILLEGAL_MOVE;
  return refuse(d, why, "%s%s", what, err.message);
}

static void flag_falls(arb_referee *ref, arb_color side, int64_t t);

/* The press that completes the made move waiting for it (ref->unpressed), at t: its clock is
 * pressed and its record entry gets the times; *d (may be NULL) says whether it was late. */
static void complete_press(arb_referee *ref, int64_t t, arb_ref_decision *d) {
  int side = ref->unpressed;
  ref->unpressed = -1;
  arb_press_info info;
  if (!ref->timed || side < 0 || arb_clock_press(&ref->clock, (arb_color)side, t, 0, &info))
    return; /* a clock that cannot take it (the callers tried it on a copy) */
  if (d) d->late = info.late;
  if (ref->unpressed_rec < ref->nrec) {
    ref->rec[ref->unpressed_rec].move_ms = info.move_ms;
    ref->rec[ref->unpressed_rec].clock_ms = arb_clock_remaining(&ref->clock, (arb_color)side, t);
  }
}

/* ARB_REF_PRESS: the press completing ev.by's made move. */
static arb_status ev_press(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                           arb_ref_entry *e) {
  if (need_by(ev, d)) return d->status;
  if (game_over(ref)) return refuse_status(d, ARB_ERR_GAME_OVER);
  if (ref->unpressed != ev->by)
    return refuse(d, ARB_REF_NOT_ALLOWED, "no move of %s waits for its press", color_name(ev->by));
  if (ref->timed) {
    arb_clock trial = ref->clock;
    arb_press_info info;
    arb_status s = arb_clock_press(&trial, (arb_color)ev->by, ev->t, 0, &info);
    if (s != ARB_OK)
      return refuse(d, s == ARB_ERR_TIME_BACKWARDS ? ARB_REF_TIME_BACKWARDS : ARB_REF_CLOCK_STATE,
                    "the clock cannot take this press: %s", arb_strerror(s));
  }
  complete_press(ref, ev->t, d);
  if (ref->timed) {
    e->clock_ms = arb_clock_remaining(&ref->clock, (arb_color)ev->by, ev->t);
    e->move_ms = ref->rec[ref->unpressed_rec].move_ms;
  }
  return ARB_OK;
}

/* Steps played in a segment: its accepted moves (after the setup's, in the first) and, but for
 * the first, the continue_from that began it. */
static int segment_steps(const arb_referee *ref, const arb_game *g, int first) {
  return arb_game_ply_count(g) - (first ? ref->book : -1);
}

/* The clock runs for the side to move, nothing credited (the arbiter's reset, 6.10.2), and
 * each side's count of completed moves is that of the present segment's plies and the
 * earlier ones'. */
static void clock_to_turn(arb_referee *ref, int64_t t) {
  if (!ref->timed) return;
  arb_clock_hand_over(&ref->clock, (arb_color)arb_game_position(ref->game)->turn, t);
  uint32_t moves[2] = {0, 0};
  for (uint32_t k = 0; k <= ref->nseg; k++) {
    const arb_game *g = k < ref->nseg ? ref->seg[k].game : ref->game;
    for (int ply = k == 0 ? ref->book + 1 : 1; ply <= arb_game_ply_count(g); ply++)
      moves[arb_game_position_at(g, ply - 1)->turn]++;
  }
  for (int c = 0; c < 2; c++)
    arb_clock_set_moves(&ref->clock, (arb_color)c, moves[c]);
}

/* Marks the latest n accepted moves and continue_froms of the record annulled. */
static void annul_latest(arb_referee *ref, int n) {
  for (uint32_t i = ref->nrec; i-- > 0 && n > 0;) {
    arb_ref_entry *r = &ref->rec[i];
    if ((r->kind != ARB_REF_MOVE && r->kind != ARB_REF_CONTINUE_FROM) || r->status != ARB_OK ||
        (r->flags & ARB_REF_ANNULLED))
      continue;
    r->flags |= ARB_REF_ANNULLED;
    n--;
  }
}

/* ARB_REF_REINSTATE: the position before step ev.ply, the steps since taken back. */
static arb_status ev_reinstate(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                               arb_ref_entry *e) {
  (void)e;
  if (game_over(ref)) return refuse_status(d, ARB_ERR_GAME_OVER);
  int before = 0; /* steps of the segments before the present game */
  for (uint32_t k = 0; k < ref->nseg; k++)
    before += ref->seg[k].steps;
  int n = before + segment_steps(ref, ref->game, ref->nseg == 0);
  if (ev->ply < 1 - ref->book || ev->ply > n)
    return refuse(d, ARB_REF_BAD_EVENT,
                  "\"reinstate\" needs \"ply\": a step played in this game (%d to %d)",
                  1 - ref->book, n);
  annul_latest(ref, n - (ev->ply > 1 ? ev->ply : 1) + 1);
  /* the segment the position before that step is in: drop the later ones */
  int keep = ev->ply - 1; /* steps that stay */
  while (ref->nseg && keep <= before) {
    struct arb__ref_segment sg = ref->seg[--ref->nseg];
    arb_game_free(ref->game);
    ref->game = sg.game;
    before -= sg.steps;
  }
  int target = keep - before; /* steps to keep in the present game (its start counts one) */
  int plies = ref->nseg == 0 ? ref->book + target : target - 1;
  if (ref->nseg == 0 && target < 0) ref->book = plies; /* back into the setup's moves */
  while (arb_game_ply_count(ref->game) > plies)
    if (arb_game_undo(ref->game) != ARB_OK) break;
  ref->unpressed = -1;
  memset(ref->pre, 0, sizeof ref->pre);
  clock_to_turn(ref, ev->t);
  /* back before the second ply: the first-move limit runs again, from the reinstatement (or
   * from the resumption, when the clocks are paused: a resumption moves it on by the pause) */
  if (arb_game_ply_count(ref->game) < 2)
    ref->first_move_from = ref->paused_at >= 0 ? ref->paused_at : ev->t;
  return ARB_OK;
}

/* ARB_REF_CONTINUE_FROM: a new segment from the board as it is — ev.by's illegal move pressed
 * (or, made only, waiting for its press), or the arbiter's board. */
static arb_status ev_continue_from(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                                   arb_ref_entry *e) {
  (void)e;
  if (!ev->position)
    return refuse(d, ARB_REF_BAD_EVENT, "\"continue_from\" needs \"fen\": the board as it is");
  if (game_over(ref)) return refuse_status(d, ARB_ERR_GAME_OVER);
  if (arb_position_problems(ev->position) & ARB_FEN_FATAL)
    return refuse(d, ARB_REF_BAD_EVENT, "the position cannot be played on from");
  int by = ev->by, made_only = by >= 0 && (ev->flags & ARB_REF_MADE_ONLY);
  if (by >= 0 && by != arb_game_position(ref->game)->turn)
    return refuse(d, ARB_REF_NOT_YOUR_TURN, "%s does not have the move", color_name(by));
  if (by >= 0 && ref->timed) {
    /* the opponent's made move is completed by this one; the press tried on a copy */
    arb_clock trial = ref->clock;
    arb_press_info info;
    arb_status s = ARB_OK;
    if (ref->unpressed >= 0)
      s = arb_clock_press(&trial, (arb_color)ref->unpressed, ev->t, 0, &info);
    if (s == ARB_OK && arb_clock_running(&trial) != by) s = ARB_ERR_NOT_YOUR_TURN;
    if (s == ARB_OK && !made_only) s = arb_clock_press(&trial, (arb_color)by, ev->t, 0, &info);
    if (s != ARB_OK) return refuse_clock(d, s);
  }
  if (ref->nseg == ref->seg_cap) {
    uint32_t cap = ref->seg_cap ? 2 * ref->seg_cap : 4;
    struct arb__ref_segment *n = realloc(ref->seg, cap * sizeof *n);
    if (!n) return refuse(d, ARB_REF_NO_MEMORY, NULL);
    ref->seg = n;
    ref->seg_cap = cap;
  }
  arb_game *g = arb_game_new(ev->position, arb_game_rules(ref->game));
  if (!g) return refuse(d, ARB_REF_NO_MEMORY, NULL);
  arb_game_set_search_budget(g, arb_game_search_budget(ref->game));
  if (by >= 0) arb__game_forget_start_ending(g); /* an illegal move ends nothing by itself */
  if (ref->unpressed >= 0) complete_press(ref, ev->t, NULL);
  if (by >= 0 && ref->timed && !made_only) {
    arb_press_info info;
    arb_clock_press(&ref->clock, (arb_color)by, ev->t, 0, &info);
  }
  ref->seg[ref->nseg].steps = segment_steps(ref, ref->game, ref->nseg == 0);
  ref->seg[ref->nseg++].game = ref->game;
  ref->game = g;
  memset(ref->pre, 0, sizeof ref->pre);
  if (made_only) {
    ref->unpressed = by; /* its clock runs on until the press */
    ref->unpressed_rec = ref->nrec;
  } else {
    clock_to_turn(ref, ev->t);
  }
  return ARB_OK;
}

static arb_status ev_move(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                          arb_ref_entry *e) {
  if (!ev->text && ev->move == ARB_MOVE_NONE)
    return refuse(d, ARB_REF_BAD_EVENT, "\"move\" needs \"move\": a move in SAN or UCI");
  if (game_over(ref)) return refuse_status(d, ARB_ERR_GAME_OVER);
  const arb_position *p = arb_game_position(ref->game);
  if (ev->by >= 0 && ev->by != p->turn) return refuse_status(d, ARB_ERR_NOT_YOUR_TURN);
  arb_move m;
  if (read_move(p, ev, &m, d, "") != ARB_OK) return d->status;
  arb_color mover = (arb_color)p->turn;
  char san[ARB_SAN_MAX], uci[8];
  arb_san_write(p, m, san, sizeof san);
  arb_uci_write(p, m, uci, sizeof uci);
  /* Lag compensation is drawn from the mover's quota only if the move stands: on a copy. */
  arb_lag_tracker lag = ref->lag[mover];
  int64_t comp = 0;
  e->lag_ms = ev->lag_ms > 0 ? ev->lag_ms : 0;
  /* over the board: a move made, its press to come; the opponent's made move still unpressed
   * is completed by this reply, now */
  int made_only = (ev->flags & ARB_REF_MADE_ONLY) != 0;
  int pending = ref->unpressed;
  if (ref->timed) {
    /* The board and the clock move together or not at all: try the press on a copy first. */
    arb_clock trial = ref->clock;
    arb_press_info info;
    arb_status s = ARB_OK;
    if (pending >= 0) s = arb_clock_press(&trial, (arb_color)pending, ev->t, 0, &info);
    int timed_move = arb_clock_running(&trial) == (int)mover;
    if (ref->lag_comp && timed_move) comp = arb_lag_credit(&lag, e->lag_ms);
    if (s == ARB_OK) s = arb_clock_press_lag(&trial, mover, ev->t, comp, 0, &info);
    if (s != ARB_OK) return refuse_clock(d, s);
    if (info.late && sees_flags(ref) && !made_only) {
      /* A server sees the flag: the move came after it fell, lag forgiven, so it is refused
       * and the game ends on time. */
      flag_falls(ref, mover, ev->t);
      return refuse(d, ARB_REF_GAME_OVER, "the move came after %s's flag fell", color_name(mover));
    }
  }
  arb_status s = arb_game_play(ref->game, m);
  if (s != ARB_OK) return refuse_status(d, s);
  d->move = e->move = m;
  memcpy(d->san, san, sizeof san);
  memcpy(d->uci, uci, sizeof uci);
  if (pending >= 0) complete_press(ref, ev->t, NULL);
  if (ref->timed && (!made_only || game_over(ref))) {
    /* A game-ending move is complete without a press (FIDE 6.2.1.1): time charged, no
     * increment, the clock stops. */
    arb_press_info info;
    unsigned flags = game_over(ref) ? ARB_PRESS_ENDS_GAME : 0;
    if (arb_clock_press_lag(&ref->clock, mover, ev->t, comp, flags, &info) == ARB_OK) {
      d->late = info.late; /* the flag fell during the move */
      d->comp_ms = e->comp_ms = info.comp_ms;
      e->move_ms = info.move_ms;
    }
    e->clock_ms = arb_clock_remaining(&ref->clock, mover, ev->t);
    ref->lag[mover] = lag;
  }
  if (made_only && !game_over(ref)) {
    ref->unpressed = mover;
    ref->unpressed_rec = ref->nrec; /* this event's entry, recorded next */
  }
  /* The first-move limit: Black's counts from White's first move. */
  if (arb_game_ply_count(ref->game) == 1) ref->first_move_from = ev->t;
  return ARB_OK;
}

/* ARB_REF_PREMOVE: stored for the player not on move, checked when played. */
static arb_status ev_premove(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                             arb_ref_entry *e) {
  if (need_by(ev, d)) return d->status;
  if (game_over(ref)) return refuse_status(d, ARB_ERR_GAME_OVER);
  const arb_position *p = arb_game_position(ref->game);
  if (ev->by == p->turn)
    return refuse(d, ARB_REF_NOT_ALLOWED, "it is %s's move: a premove is for the opponent's turn",
                  color_name(ev->by));
  if (ev->kind == ARB_REF_CANCEL_PREMOVE) {
    ref->pre[ev->by].set = 0;
    return ARB_OK;
  }
  if (ev->text ? ev->text_len == 0 || ev->text_len >= sizeof ref->pre[0].text
               : ev->move == ARB_MOVE_NONE)
    return refuse(d, ARB_REF_BAD_EVENT, "\"premove\" needs \"move\": a move in SAN or UCI");
  if (ev->text &&
      arb_move_read(p, ev->text, ev->text_len, 0, &(arb_move){0}, NULL) == ARB_ERR_MOVE_SYNTAX &&
      !(ev->flags & ARB_REF_AUTO_QUEEN))
    return refuse(d, ARB_REF_BAD_MOVE, "the premove is not a move");
  arb__ref_premove *pm = &ref->pre[ev->by];
  memset(pm, 0, sizeof *pm);
  pm->set = 1;
  pm->flags = ev->flags & ARB_REF_AUTO_QUEEN;
  if (ev->text) {
    memcpy(pm->text, ev->text, ev->text_len);
    pm->len = (uint8_t)ev->text_len;
  } else {
    pm->move = ev->move;
    pm->len = (uint8_t)arb_uci_write(p, ev->move, pm->text, sizeof pm->text);
  }
  e->move = ev->move;
  return ARB_OK;
}

/* ARB_REF_ABORT: before each side has moved. */
static arb_status ev_abort(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                           arb_ref_entry *e) {
  (void)e;
  if (need_by(ev, d)) return d->status;
  if (game_over(ref)) return refuse_status(d, ARB_ERR_GAME_OVER);
  if (arb_game_ply_count(ref->game) >= 2)
    return refuse(d, ARB_REF_NOT_ALLOWED, "a game can be aborted only before each side has moved");
  ref->aborted = 1;
  return ARB_OK;
}

/* ---- offers, claims, resignation ---- */

static arb_status ev_player(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                            arb_ref_entry *e) {
  (void)e;
  if (need_by(ev, d)) return d->status;
  arb_color by = (arb_color)ev->by;
  arb_status s = ev->kind == ARB_REF_OFFER_DRAW     ? arb_game_offer_draw(ref->game, by)
                 : ev->kind == ARB_REF_ACCEPT_DRAW  ? arb_game_accept_draw(ref->game, by)
                 : ev->kind == ARB_REF_DECLINE_DRAW ? arb_game_decline_draw(ref->game, by)
                                                    : arb_game_resign(ref->game, by);
  if (s == ARB_ERR_NOT_ALLOWED && ev->kind == ARB_REF_ACCEPT_DRAW)
    return refuse(d, ARB_REF_NOT_ALLOWED,
                  "no agreed draw yet: each player must have moved (FIDE 5.2.3) and the "
                  "event's minimum move number must be reached");
  return s == ARB_OK ? ARB_OK : refuse_status(d, s);
}

static arb_status ev_claim(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                           arb_ref_entry *e) {
  if (need_by(ev, d)) return d->status;
  if (ev->reason != ARB_CLAIM_THREEFOLD && ev->reason != ARB_CLAIM_FIFTY)
    return refuse(d, ARB_REF_BAD_EVENT,
                  "\"claim_draw\" needs \"reason\": \"threefold\" or \"fifty\"");
  const arb_position *p = arb_game_position(ref->game);
  arb_move intended = ARB_MOVE_NONE;
  if ((ev->text || ev->move != ARB_MOVE_NONE) &&
      read_move(p, ev, &intended, d, "intended move: ") != ARB_OK)
    return d->status;
  e->move = intended;
  /* The intended move's UCI, written before the claim (p is the position it is legal in). */
  char uci[8] = "";
  if (intended != ARB_MOVE_NONE) arb_uci_write(p, intended, uci, sizeof uci);
  arb_claim_verdict v;
  arb_status s = arb_game_claim(ref->game, (arb_color)ev->by, ev->reason, intended, &v);
  if (s != ARB_OK) return refuse_status(d, s);
  d->claimed = 1;
  d->verdict = v;
  if (v.must_play) memcpy(d->must_play_uci, uci, sizeof uci);
  if (!v.correct) {
    /* The penalty is time for the opponent — unless the opponent's flag is already down: time
     * added then must not lift it (the claimant may still call it). */
    arb_color opp = (arb_color)(ev->by ^ 1);
    if (ref->timed && v.penalty_s && !arb_clock_flag_fallen(&ref->clock, opp, ev->t) &&
        arb_clock_adjust(&ref->clock, opp, (int64_t)v.penalty_s * 1000, ev->t) == ARB_OK) {
      d->time_added_to = (int8_t)opp;
      d->time_added_ms = (int64_t)v.penalty_s * 1000;
    }
  }
  return ARB_OK;
}

/* ---- time ---- */

/* Ends the game on `side`'s flag with the clock layer's verdict for the rule set. */
static void flag_falls(arb_referee *ref, arb_color side, int64_t t) {
  arb_flag_verdict v = arb_game_flag_fall(ref->game, side);
  if (v.result != ARB_RESULT_NONE && v.reason != ARB_FLAG_GAME_OVER &&
      arb_game_time_forfeit(ref->game, side, v.result) == ARB_OK) {
    ref->flag_side = side;
    ref->flag_reason = v.reason;
  }
  if (ref->timed) arb_clock_stop(&ref->clock, t);
}

static arb_status need_clock(const arb_referee *ref, arb_ref_decision *d) {
  if (ref->timed) return ARB_OK;
  return refuse(d, ARB_REF_NOT_ALLOWED, "the game has no clock (start it with a \"control\")");
}

static arb_status need_side(const arb_ref_event *ev, arb_ref_decision *d, const char *whose) {
  if (ev->side == ARB_WHITE || ev->side == ARB_BLACK) return ARB_OK;
  return refuse(d, ARB_REF_BAD_EVENT, "\"%s\" needs \"side\": \"white\" or \"black\" (%s)",
                arb_ref_kind_name(ev->kind), whose);
}

static arb_status ev_flag(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                          arb_ref_entry *e) {
  (void)e;
  if (need_side(ev, d, "whose flag fell")) return d->status;
  if (!ref->timed && !(ev->flags & ARB_REF_FLAG_SEEN) && need_clock(ref, d)) return d->status;
  if (game_over(ref)) return refuse_status(d, ARB_ERR_GAME_OVER);
  arb_color side = (arb_color)ev->side, other = (arb_color)(ev->side ^ 1);
  if (!ref->timed) { /* a flag the arbiter saw down on a clock the referee does not run */
    flag_falls(ref, side, ev->t);
    return ARB_OK;
  }
  if (arb_clock_check_flag(&ref->clock, side, ev->t) != ARB_OK)
    return refuse(d, ARB_REF_FLAG_NOT_FALLEN, "%s still has %lld ms", color_name(side),
                  (long long)arb_clock_remaining(&ref->clock, side, ev->t));
  /* Both flags down: the one that fell first decides (a clock always knows the order). */
  if (arb_clock_flag_fallen(&ref->clock, other, ev->t) &&
      arb_clock_flag_fell_at(&ref->clock, other, ev->t) <
          arb_clock_flag_fell_at(&ref->clock, side, ev->t))
    side = other;
  flag_falls(ref, side, ev->t);
  return ARB_OK;
}

static arb_status ev_state(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                           arb_ref_entry *e) {
  (void)ref, (void)ev, (void)d, (void)e;
  return ARB_OK;
}

static arb_status ev_pause(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                           arb_ref_entry *e) {
  (void)e;
  if (need_clock(ref, d)) return d->status;
  if (game_over(ref)) return refuse_status(d, ARB_ERR_GAME_OVER);
  int pause = ev->kind == ARB_REF_PAUSE;
  arb_status s = pause ? arb_clock_pause(&ref->clock, ev->t) : arb_clock_resume(&ref->clock, ev->t);
  if (s == ARB_ERR_CLOCK_STATE)
    return refuse(d, ARB_REF_CLOCK_STATE,
                  pause ? "the clock is not running" : "the clock is not paused");
  if (s != ARB_OK) return refuse_status(d, s);
  /* The first-move limit and a player's time away stand still with the clocks. */
  if (pause)
    ref->paused_at = ev->t;
  else if (ref->paused_at >= 0) {
    ref->first_move_from += ev->t - ref->paused_at;
    for (int c = 0; c < 2; c++)
      if (ref->away_from[c] >= 0) ref->away_from[c] += ev->t - ref->paused_at;
    ref->paused_at = -1;
  }
  return ARB_OK;
}

static arb_status ev_adjust(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                            arb_ref_entry *e) {
  (void)e;
  if (need_side(ev, d, "whose clock") || need_clock(ref, d)) return d->status;
  if (game_over(ref)) return refuse_status(d, ARB_ERR_GAME_OVER);
  if (ev->set ? ev->ms < 0 || ev->ms > ARB_CLOCK_MS_MAX
              : ev->ms < -ARB_CLOCK_MS_MAX || ev->ms > ARB_CLOCK_MS_MAX)
    return refuse(d, ARB_REF_BAD_EVENT, "\"ms\" is out of range");
  arb_color side = (arb_color)ev->side;
  int64_t before = arb_clock_remaining(&ref->clock, side, ev->t);
  arb_status s = ev->set ? arb_clock_set(&ref->clock, side, ev->ms, ev->t)
                         : arb_clock_adjust(&ref->clock, side, ev->ms, ev->t);
  if (s != ARB_OK) return refuse_status(d, s);
  int64_t after = arb_clock_remaining(&ref->clock, side, ev->t);
  if (before != ARB_CLOCK_NEVER && after != ARB_CLOCK_NEVER) {
    d->time_added_to = (int8_t)side;
    d->time_added_ms = after - before;
  }
  return ARB_OK;
}

/* ---- a player who left (online) ---- */

static arb_status need_abandon_rule(const arb_referee *ref, arb_ref_decision *d) {
  if (ref->abandon_ms) return ARB_OK;
  return refuse(d, ARB_REF_NOT_ALLOWED,
                "only the online rules let a player claim a game the opponent left (under "
                "these rules it is the arbiter's decision)");
}

/* ARB_REF_AWAY, ARB_REF_BACK: the server's word that a player's connection went or came. */
static arb_status ev_away(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                          arb_ref_entry *e) {
  (void)e;
  if (need_by(ev, d) || need_abandon_rule(ref, d)) return d->status;
  if (game_over(ref)) return refuse_status(d, ARB_ERR_GAME_OVER);
  int away = ev->kind == ARB_REF_AWAY;
  if (away == (ref->away_from[ev->by] >= 0))
    return refuse(d, ARB_REF_NOT_ALLOWED, away ? "%s is away already" : "%s is not away",
                  color_name(ev->by));
  /* away during a pause: counted from the resumption */
  ref->away_from[ev->by] = !away ? -1 : ref->paused_at >= 0 ? ref->paused_at : ev->t;
  return ARB_OK;
}

static const char *Color_name(int c) { return c == ARB_WHITE ? "White" : "Black"; }

/* ARB_REF_CLAIM_ABANDONED: the opponent left and stayed away for the wait. */
static arb_status ev_claim_abandoned(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                                     arb_ref_entry *e) {
  (void)e;
  if (need_by(ev, d) || need_abandon_rule(ref, d)) return d->status;
  if (game_over(ref)) return refuse_status(d, ARB_ERR_GAME_OVER);
  int leaver = ev->by ^ 1;
  if (ref->away_from[ev->by] >= 0)
    return refuse(d, ARB_REF_NOT_ALLOWED, "%s is away: a player who left cannot claim",
                  Color_name(ev->by));
  if (ref->away_from[leaver] < 0)
    return refuse(d, ARB_REF_NOT_ALLOWED, "%s has not left the game", Color_name(leaver));
  if (arb_game_ply_count(ref->game) < 2)
    return refuse(d, ARB_REF_NOT_ALLOWED,
                  "before each side has moved a game is aborted, not won: abort it instead");
  if (ref->paused_at >= 0)
    return refuse(d, ARB_REF_CLOCK_STATE, "the game is paused: time away does not count now");
  int64_t at = abandon_claim_at(ref, leaver);
  if (ev->t < at)
    return refuse(d, ARB_REF_NOT_ALLOWED,
                  "%s left %lld s ago: the game can be claimed once %s has been away for %lld "
                  "s (%lld s more)",
                  Color_name(leaver), (long long)((ev->t - ref->away_from[leaver]) / 1000),
                  Color_name(leaver), (long long)(ref->abandon_ms / 1000),
                  (long long)((at - ev->t + 999) / 1000));
  arb_flag_verdict v = abandon_verdict(ref, leaver);
  if (v.result == ARB_RESULT_NONE || v.reason == ARB_FLAG_GAME_OVER)
    return refuse_status(d, ARB_ERR_GAME_OVER);
  arb_status s = arb_game_end(ref->game, v.result, ARB_TERM_ABANDONMENT, ev->by);
  if (s != ARB_OK) return refuse_status(d, s);
  ref->abandoned = leaver;
  ref->abandon_reason = v.reason;
  return ARB_OK;
}

/* ---- endings the referee is told of: failures and adjudications ---- */

static arb_result win_for(int side) {
  return side == ARB_WHITE ? ARB_RESULT_WHITE_WINS : ARB_RESULT_BLACK_WINS;
}

/* ARB_REF_FORFEIT: ev.side loses for ev.termination (illegal moves: a draw when the opponent
 * cannot mate, FIDE 7.5.5). */
static arb_status ev_forfeit(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                             arb_ref_entry *e) {
  (void)e;
  if (need_side(ev, d, "who forfeits")) return d->status;
  arb_termination t = ev->termination;
  int illegal = t == ARB_TERM_ILLEGAL_MOVE || t == ARB_TERM_SECOND_ILLEGAL_MOVE;
  if (!illegal && t != ARB_TERM_ELECTRONIC_DEVICE && t != ARB_TERM_CRASH && t != ARB_TERM_STALL)
    return refuse(d, ARB_REF_BAD_EVENT,
                  "\"forfeit\" needs \"termination\": illegal_move, second_illegal_move, "
                  "electronic_device, crash or stall");
  if (game_over(ref)) return refuse_status(d, ARB_ERR_GAME_OVER);
  int winner = ev->side ^ 1;
  arb_result r = illegal && arb_cannot_mate(arb_game_position(ref->game), (arb_color)winner)
                     ? ARB_RESULT_DRAW
                     : win_for(winner);
  arb_status s = arb_game_end(ref->game, r, t, ev->side);
  return s == ARB_OK ? ARB_OK : refuse_status(d, s);
}

/* ARB_REF_ADJUDICATE: the game ends with ev.result (a match's adjudication never gives a win
 * the laws could not; a dead position is checked); after the end, the arbiter amends it. */
static arb_status ev_adjudicate(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                                arb_ref_entry *e) {
  (void)e;
  arb_termination t = ev->termination;
  int after_end = game_over(ref) && !ref->aborted;
  if (t != ARB_TERM_ADJUDICATION && t != ARB_TERM_ARBITER && t != ARB_TERM_DEAD_POSITION &&
      t != ARB_TERM_AGREEMENT && t != ARB_TERM_RESIGNATION && t != ARB_TERM_ILLEGAL_POSITION &&
      t != ARB_TERM_ILLEGAL_MOVE_CLAIMED && t != ARB_TERM_ILLEGAL_MOVE_CLAIMANT_LACKS_MATERIAL &&
      !(t == ARB_TERM_NONE && after_end))
    return refuse(d, ARB_REF_BAD_EVENT,
                  "\"adjudicate\" needs \"termination\": adjudication, arbiter_decision, "
                  "dead_position, agreement, resignation, illegal_position, illegal_move_claimed "
                  "or illegal_move_claimant_lacks_mating_material");
  if (t == ARB_TERM_DEAD_POSITION && ev->result == ARB_RESULT_NONE) {
    /* the result of a dead position is a draw: it need not be given */
  } else if (ev->result == ARB_RESULT_NONE || (unsigned)ev->result > ARB_RESULT_DRAW) {
    return refuse(d, ARB_REF_BAD_EVENT, "\"adjudicate\" needs \"result\": 1-0, 0-1 or 1/2-1/2");
  }
  if (ev->by < -1 || ev->by > ARB_BLACK) return refuse(d, ARB_REF_BAD_EVENT, "bad \"by\"");
  if (after_end && (t == ARB_TERM_ARBITER || t == ARB_TERM_NONE)) {
    arb_status s = arb__game_amend_outcome(ref->game, ev->result, t, ev->by);
    return s == ARB_OK ? ARB_OK : refuse_status(d, s);
  }
  if (game_over(ref)) return refuse_status(d, ARB_ERR_GAME_OVER);
  arb_result r = ev->result;
  int by = ev->by;
  if (t == ARB_TERM_ADJUDICATION && r != ARB_RESULT_DRAW &&
      arb_cannot_mate(arb_game_position(ref->game),
                      r == ARB_RESULT_WHITE_WINS ? ARB_WHITE : ARB_BLACK))
    r = ARB_RESULT_DRAW;
  if (t == ARB_TERM_DEAD_POSITION) {
    if (!arb_is_dead_position(arb_game_position(ref->game)))
      return refuse(d, ARB_REF_NOT_ALLOWED,
                    "the position is not dead: checkmate is still possible (FIDE 5.2.2)");
    r = ARB_RESULT_DRAW;
  }
  if ((t == ARB_TERM_ILLEGAL_POSITION || t == ARB_TERM_ILLEGAL_MOVE_CLAIMANT_LACKS_MATERIAL ||
       t == ARB_TERM_AGREEMENT) &&
      r != ARB_RESULT_DRAW)
    return refuse(d, ARB_REF_BAD_EVENT, "\"%s\" is a draw", arb_termination_name(t));
  if ((t == ARB_TERM_RESIGNATION || t == ARB_TERM_ILLEGAL_MOVE_CLAIMED) && r == ARB_RESULT_DRAW)
    return refuse(d, ARB_REF_BAD_EVENT, "\"%s\" is a win", arb_termination_name(t));
  arb_status s = arb__game_rule_end(ref->game, r, t, by);
  return s == ARB_OK ? ARB_OK : refuse_status(d, s);
}

typedef arb_status (*handler)(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d,
                              arb_ref_entry *e);

static const handler handlers[ARB_REF_TICK] = {
    [ARB_REF_MOVE] = ev_move,
    [ARB_REF_OFFER_DRAW] = ev_player,
    [ARB_REF_ACCEPT_DRAW] = ev_player,
    [ARB_REF_DECLINE_DRAW] = ev_player,
    [ARB_REF_CLAIM_DRAW] = ev_claim,
    [ARB_REF_RESIGN] = ev_player,
    [ARB_REF_FLAG] = ev_flag,
    [ARB_REF_STATE] = ev_state,
    [ARB_REF_PAUSE] = ev_pause,
    [ARB_REF_RESUME] = ev_pause,
    [ARB_REF_ADJUST_TIME] = ev_adjust,
    [ARB_REF_PREMOVE] = ev_premove,
    [ARB_REF_CANCEL_PREMOVE] = ev_premove,
    [ARB_REF_ABORT] = ev_abort,
    [ARB_REF_AWAY] = ev_away,
    [ARB_REF_BACK] = ev_away,
    [ARB_REF_CLAIM_ABANDONED] = ev_claim_abandoned,
    [ARB_REF_PRESS] = ev_press,
    [ARB_REF_REINSTATE] = ev_reinstate,
    [ARB_REF_CONTINUE_FROM] = ev_continue_from,
    [ARB_REF_FORFEIT] = ev_forfeit,
    [ARB_REF_ADJUDICATE] = ev_adjudicate,
};

/* ---- the event loop ---- */

static arb_ref_entry entry_of(const arb_ref_event *ev, int64_t t) {
  arb_ref_entry e;
  memset(&e, 0, sizeof e);
  e.t = t;
  e.kind = ev->kind;
  e.by = ev->by;
  e.side = ev->side;
  e.set = ev->set;
  e.reason = ev->reason;
  e.ms = ev->ms;
  e.flags = ev->flags & (ARB_REF_AUTO_QUEEN | ARB_REF_MADE_ONLY | ARB_REF_FLAG_SEEN);
  e.clock_ms = e.move_ms = -1;
  return e;
}

/* Completes the decision and records the event (when there is a game to record it in).
 * was_over: the game had ended before the event's handler ran. */
static arb_status finish(arb_referee *ref, arb_ref_entry *e, arb_ref_decision *d, int was_over) {
  if (ref->game) {
    if (ref->timed && game_over(ref)) arb_clock_stop(&ref->clock, ref->now < 0 ? 0 : ref->now);
    e->ended = !was_over && game_over(ref);
    if (e->ended) d->ended = 1;
    e->status = d->status;
    e->refusal = d->refusal;
    e->ply = arb_game_ply_count(ref->game);
    d->seq = ref->nrec;
    arb__ref_record(ref, e);
  }
  refresh_facts(ref);
  arb_referee_state_of(ref, &d->state);
  return d->status;
}

/* What time does by itself by t: under rule sets whose server sees flags, the running side's
 * flag falls (after its lag grace); a first move not made in time aborts the game.  The change
 * is recorded as a tick at the moment it happened.  Returns 1 if the game ended. */
static int time_due(arb_referee *ref, int64_t t) {
  if (!ref->game || game_over(ref)) return 0;
  int64_t flag = flag_deadline(ref), first = first_move_deadline(ref);
  if (t < flag && t < first) return 0;
  arb_ref_event tick = ARB_REF_EVENT_INIT(ARB_REF_TICK, t);
  arb_ref_entry e;
  if (first <= flag) {
    e = entry_of(&tick, first - 1);
    e.side = (int8_t)arb_game_position(ref->game)->turn;
    ref->aborted = 1;
    if (ref->timed) arb_clock_stop(&ref->clock, t);
  } else {
    int running = (int)arb_clock_turn(&ref->clock); /* its clock, even paused since */
    /* the flag fell when the time ran out, not when it was noticed */
    e = entry_of(&tick, arb_clock_flag_time(&ref->clock));
    e.side = (int8_t)running;
    flag_falls(ref, (arb_color)running, t);
  }
  memset(ref->pre, 0, sizeof ref->pre);
  e.ply = arb_game_ply_count(ref->game);
  e.ended = 1;
  arb__ref_record(ref, &e);
  return 1;
}

/* After a move: the opponent's stored premove is played at once, at the same time (no time on
 * its clock), or dropped when it is not legal now.  Recorded as its own move entry. */
static void play_premove(arb_referee *ref, int64_t t, arb_ref_decision *d) {
  arb_color side = (arb_color)arb_game_position(ref->game)->turn;
  arb__ref_premove pm = ref->pre[side];
  ref->pre[side].set = 0;
  if (!pm.set || game_over(ref)) return;
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_MOVE, t);
  ev.by = (int8_t)side;
  ev.flags = pm.flags;
  if (pm.move != ARB_MOVE_NONE) {
    ev.move = pm.move;
  } else {
    ev.text = pm.text;
    ev.text_len = pm.len;
  }
  arb_ref_decision pd;
  decision_init(&pd, ARB_REF_MOVE);
  arb_ref_entry e = entry_of(&ev, t);
  e.flags |= ARB_REF_FROM_PREMOVE;
  ev_move(ref, &ev, &pd, &e);
  if (pd.status != ARB_OK) {
    d->premove.dropped = 1;
    d->premove.refusal = pd.refusal;
    snprintf(d->premove.message, sizeof d->premove.message, "%.95s", pd.message);
    return; /* a dropped premove is not an event of the game: nothing recorded */
  }
  d->premove.played = 1;
  d->premove.move = pd.move;
  memcpy(d->premove.san, pd.san, sizeof pd.san);
  memcpy(d->premove.uci, pd.uci, sizeof pd.uci);
  if (ref->timed && game_over(ref)) arb_clock_stop(&ref->clock, t);
  e.status = ARB_OK;
  e.ply = arb_game_ply_count(ref->game);
  e.ended = (uint8_t)game_over(ref);
  if (e.ended) d->ended = 1;
  arb__ref_record(ref, &e);
}

arb_status arb_referee_event(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d) {
  decision_init(d, ev->kind);
  if ((unsigned)ev->kind >= ARB_REF_TICK) { /* not an event: nothing to record */
    refuse(d, ARB_REF_BAD_EVENT, "unknown event kind %d", (int)ev->kind);
    arb_referee_state_of(ref, &d->state);
    return d->status;
  }
  int64_t t = ev->t;
  arb_ref_entry e = entry_of(ev, ref->now < 0 ? 0 : ref->now);
  int was_over = ref->game && game_over(ref);
  int starting = ev->kind == ARB_REF_START;
  int timed = starting ? ev->setup && ev->setup->control : ref->timed;
  if (t != ARB_REF_NO_TIME && (t < 0 || t > ARB_CLOCK_TIME_MAX)) {
    refuse(d, ARB_REF_BAD_EVENT, "\"t\" must be a whole number of milliseconds, 0 or more");
  } else if (timed && t == ARB_REF_NO_TIME && ev->kind != ARB_REF_STATE) {
    refuse(d, ARB_REF_BAD_EVENT, "a timed game needs \"t\" (milliseconds) on every event");
  } else if (t != ARB_REF_NO_TIME && t < ref->now && !starting) {
    refuse(d, ARB_REF_TIME_BACKWARDS, "\"t\" %lld is before the previous event's %lld",
           (long long)t, (long long)ref->now);
  }
  if (d->status != ARB_OK) return finish(ref, &e, d, was_over);
  if (t == ARB_REF_NO_TIME) t = ref->now < 0 ? 0 : ref->now;
  int64_t before = ref->now;
  ref->now = e.t = t; /* the event happened then, whatever it is answered */
  if (!starting && time_due(ref, t)) d->ended = 1;
  was_over = ref->game && game_over(ref);
  if (!ref->game && !starting && !(ref->game = arb_game_new(NULL, ref->default_rules))) {
    refuse(d, ARB_REF_NO_MEMORY, NULL);
    return finish(ref, &e, d, was_over);
  }
  arb_ref_event local = *ev;
  local.t = t;
  if (!starting && ref->aborted && ev->kind != ARB_REF_STATE) {
    refuse_status(d, ARB_ERR_GAME_OVER); /* the game layer does not know of aborts */
  } else if (!starting) {
    handlers[ev->kind](ref, &local, d, &e);
  } else if (ev_start(ref, &local, d) == ARB_OK) {
    was_over = 0;
  } else {
    ref->now = before; /* a start that failed leaves the game under way, and its time */
    e.t = before < 0 ? 0 : before;
  }
  if (ref->game && game_over(ref)) memset(ref->pre, 0, sizeof ref->pre);
  int moved = ev->kind == ARB_REF_MOVE && d->status == ARB_OK && !(ev->flags & ARB_REF_MADE_ONLY);
  finish(ref, &e, d, was_over);
  if (moved && !game_over(ref)) {
    play_premove(ref, t, d);
    refresh_facts(ref);
    arb_referee_state_of(ref, &d->state);
  }
  return d->status;
}

arb_status arb_referee_tick(arb_referee *ref, int64_t now, arb_ref_decision *d) {
  decision_init(d, ARB_REF_TICK);
  if (now < 0 || now > ARB_CLOCK_TIME_MAX) {
    refuse(d, ARB_REF_BAD_EVENT, "\"t\" must be a whole number of milliseconds, 0 or more");
  } else if (now < ref->now) {
    refuse(d, ARB_REF_TIME_BACKWARDS, "\"t\" %lld is before the previous event's %lld",
           (long long)now, (long long)ref->now);
  } else {
    ref->now = now;
    d->ended = (uint8_t)time_due(ref, now);
    d->seq = d->ended ? ref->nrec - 1 : ref->nrec; /* the tick's entry, or none */
  }
  refresh_facts(ref);
  arb_referee_state_of(ref, &d->state);
  return d->status;
}
