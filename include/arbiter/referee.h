/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * referee.h: the procedure layer — one game under a rule set, with its clock, driven by typed
 * events, each answered by a typed decision.  Every front end (the `arbiter referee` JSON
 * codec, the play server, terminal play, engine matches) drives this one implementation and
 * decides no rule itself.
 *
 *   arb_referee *ref = arb_referee_new(ARB_RULES_FIDE);
 *   arb_ref_setup setup = ARB_REF_SETUP_INIT;          (standard start, FIDE, untimed)
 *   setup.control = &tc;                              (from arb_tc_parse: a timed game)
 *   arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_START, now);
 *   ev.setup = &setup;
 *   arb_ref_decision d;
 *   arb_referee_event(ref, &ev, &d);                  (d.status, d.refusal, d.state ...)
 *   ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_MOVE, now);
 *   ev.text = "e4";
 *   arb_referee_event(ref, &ev, &d);
 *
 * Time is an argument: every event carries its time `t` in milliseconds of a monotonic clock
 * (0 .. ARB_CLOCK_TIME_MAX), never going back; the referee never reads a system clock.  A timed
 * game needs `t` on every event but ARB_REF_STATE; an untimed one may leave it out
 * (ARB_REF_NO_TIME: the latest event's time).  Under a rule set whose server sees every flag
 * (arb_clock_rules.auto_flag: online), or with the setup's sees_flags, a flag that fell before
 * an event ends the game first;
 * arb_referee_next_deadline gives the millisecond a timer should fire for it and
 * arb_referee_tick applies it.  Elsewhere a flag counts only when claimed (ARB_REF_FLAG).
 *
 * Ownership: arb_referee is opaque; arb_referee_new allocates it, arb_referee_free releases it
 * (NULL is a no-op).  Events and setups are the caller's: the referee copies what it keeps
 * (texts, tags, the start position) before arb_referee_event returns.  A decision is a plain
 * value filled by the call.  Pointers returned by accessors (the game, the clock) point into the
 * referee and stay valid until the next call that changes it.  Strings returned by *_name are
 * static.
 * Memory: allocation only at a start (the game, its tags) and as the game's history and the
 * record grow (amortised, like the game's own history); none per event otherwise.
 * Thread-safety: a referee is used by one thread at a time; different referees are independent.
 * Errors: a refused event changes nothing but the referee's time (the event happened then) and
 * what a flag that fell before it did; the decision says why in three ways — an arb_status, an
 * arb_ref_refusal a program switches on, and a message for a person.
 */
#ifndef ARBITER_REFEREE_H
#define ARBITER_REFEREE_H

#include "arbiter/clock.h"
#include "arbiter/game.h"
#include "arbiter/pgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Events ---- */

typedef enum arb_ref_kind {
  ARB_REF_START = 0,       /* a new game from ev.setup (replaces the present one) */
  ARB_REF_MOVE,            /* a move by the side to move (ev.text or ev.move); presses its clock */
  ARB_REF_OFFER_DRAW,      /* ev.by offers a draw */
  ARB_REF_ACCEPT_DRAW,     /* ev.by accepts the opponent's open offer */
  ARB_REF_DECLINE_DRAW,    /* ev.by declines it */
  ARB_REF_CLAIM_DRAW,      /* ev.by claims ev.reason, with an optional intended move */
  ARB_REF_RESIGN,          /* ev.by resigns */
  ARB_REF_FLAG,            /* ev.side's flag is said to have fallen: checked against the clock;
                              in an untimed game (a clock the referee does not run), only with
                              ARB_REF_FLAG_SEEN: the arbiter saw the flag down */
  ARB_REF_STATE,           /* nothing happens: the state (and any flag due at t) */
  ARB_REF_PAUSE,           /* the arbiter stops the clocks (FIDE 6.11.2) */
  ARB_REF_RESUME,          /* and restarts them */
  ARB_REF_ADJUST_TIME,     /* the arbiter adds ev.ms to ev.side's clock, or sets it (ev.set) */
  ARB_REF_PREMOVE,         /* ev.by, not on move, stores one move (ev.text or ev.move) to be played
                              the instant the opponent's move is accepted, at no cost on the clock;
                              replaces an earlier one.  Checked when played: if it is not legal
                              then, it is dropped (the decision of the opponent's move says so) */
  ARB_REF_CANCEL_PREMOVE,  /* ev.by's stored premove is forgotten */
  ARB_REF_ABORT,           /* ev.by ends the game without a result, before each side has moved
                              (fewer than two plies played) */
  ARB_REF_AWAY,            /* ev.by has left: a server saw the player's last connection close
                              (rule sets with the abandonment claim only: online) */
  ARB_REF_BACK,            /* ev.by, away, has come back */
  ARB_REF_CLAIM_ABANDONED, /* ev.by claims the game because the opponent left (the online
                             rules' abandonment claim, lichess's "claim victory"): accepted when
                             the opponent has been away for the setup's abandon_ms without a
                             pause and each side has moved; a win for the claimant, or a draw
                             when the claimant could not win on time (arb_flag_fall with the
                             leaver as the flagged side: the rule set's winnability test) */
  ARB_REF_PRESS,           /* ev.by presses the clock, completing the move made with
                              ARB_REF_MADE_ONLY (FIDE 6.2.1); refused when no move of ev.by
                              waits for its press (a press without a move is the over-the-board
                              layer's 7.5.3) */
  ARB_REF_REINSTATE,       /* the arbiter reinstates the position before step ev.ply (1-based,
                              after the setup's moves: each accepted move is a step, and each
                              ARB_REF_CONTINUE_FROM; FIDE 7.5.1, 4.8; 0 down to 1 - move_count
                              reach into the setup's moves, 0 before its last one, and the moves
                              kept are then the setup's): the steps from it on are taken back
                              (their record entries marked ARB_REF_ANNULLED), the clock runs for
                              the side then to move, no time credited or taken, the clock's move
                              counts corrected (6.10.2) */
  ARB_REF_CONTINUE_FROM,   /* over the board, play goes on from ev.position: the board after a
                              completed illegal move nobody has ruled on yet, or one that stands
                              (FIDE A.4, A.5.2, B.3; US Chess 11B) — a position no legal game
                              may reach (a king left in check, a pawn on its last rank).  With
                              ev.by (the side to move), ev.by's illegal move: its press (ev.by's
                              clock pressed as for a move) — or, with ARB_REF_MADE_ONLY, only
                              made, completed by ARB_REF_PRESS or by the opponent's reply as a
                              legal made move is; a board an illegal move left ends nothing by
                              itself (no mate, stalemate or dead position: FIDE 5.1.1, 5.2.1,
                              5.2.2 speak of legal moves).  Without ev.by, the arbiter's board
                              (a pawn made a queen, 7.5.2): the clock runs for the side to move
                              in ev.position, nothing credited, and its endings count.  A new
                              segment of the game: the game's history (repetitions, offers)
                              starts there, and ARB_REF_REINSTATE can still return to a step
                              before it (this event counts as one step) */
  ARB_REF_FORFEIT,         /* ev.side loses for ev.termination, a failure the referee is told of:
                              ARB_TERM_ILLEGAL_MOVE (an illegal move that loses at once, an
                              engine's in a match) and ARB_TERM_SECOND_ILLEGAL_MOVE (FIDE 7.5.5):
                              a draw instead when the opponent cannot checkmate by any series
                              of legal moves; ARB_TERM_ELECTRONIC_DEVICE (11.3.2.2),
                              ARB_TERM_CRASH and ARB_TERM_STALL (the side's program died or
                              stopped answering): a loss */
  ARB_REF_ADJUDICATE,      /* the game ends with ev.result by ev.termination: ARB_TERM_ADJUDICATION
                              (a match's rule: a win for a side that cannot checkmate by any
                              series of legal moves is a draw); ARB_TERM_DEAD_POSITION (a claim
                              the arbiter upholds, 5.2.2: refused, not_allowed, unless the
                              position is dead; the result is a draw); as given, resting on
                              ev.by (or -1): ARB_TERM_ARBITER (the arbiter's decision),
                              ARB_TERM_AGREEMENT and ARB_TERM_RESIGNATION (a result the players
                              signed during play, 8.7: ev.by the loser), ARB_TERM_ILLEGAL_POSITION
                              (A.5.4: a draw), ARB_TERM_ILLEGAL_MOVE_CLAIMED and
                              ARB_TERM_ILLEGAL_MOVE_CLAIMANT_LACKS_MATERIAL (US Chess blitz 7c, 7d:
                              the over-the-board layer knows the claimant's material).  After the
                              end, the arbiter decides otherwise (8.7, 12.9): ARB_TERM_ARBITER
                              replaces result and termination, ARB_TERM_NONE changes the result
                              only (the signed result stands, 8.7); other terminations are
                              refused (game_over) */
  ARB_REF_TICK,            /* in the record only: time itself changed the game (a flag fell
                              under a rule set whose server sees flags) */
  ARB_REF_KIND_COUNT
} arb_ref_kind;

/* The event kind's name, as the JSON codec spells its "type": "start", "move", "offer_draw",
 * "accept_draw", "decline_draw", "claim_draw", "resign", "flag", "state", "pause", "resume",
 * "adjust_time", "premove", "cancel_premove", "abort", "away", "back", "claim_abandoned",
 * "press", "reinstate", "continue_from", "forfeit", "adjudicate", "tick"; "" out of range.  Parse
 * gives ARB_ERR_ARGUMENT for other names (and for "tick", which is not an event a caller sends). */
ARB_API const char *arb_ref_kind_name(arb_ref_kind kind);
ARB_API arb_status arb_ref_kind_parse(const char *name, size_t len, arb_ref_kind *out);

#define ARB_REF_NO_TIME INT64_C(-1)

/* A PGN tag to carry into the record (White, Black, Event, Site, Date, Round, ...). */
typedef struct arb_ref_tag {
  const char *name; /* a PGN symbol */
  const char *value;
} arb_ref_tag;

/* How a game starts.  ARB_REF_SETUP_INIT: the standard position, FIDE rules, untimed. */
typedef struct arb_ref_setup {
  const arb_position *start;       /* NULL: the initial position (copied) */
  arb_ruleset rules;               /* the rule set (game.h) */
  const arb_time_control *control; /* NULL: untimed, no clock; else copied (a timed game) */
  int clock_model;         /* arb_clock_model, or -1 for the rule set's own (control->model is not
                              read: parsers leave it at after_move) */
  unsigned no_draw_before; /* event rule (FIDE 9.1.1): no agreed draw before this move */
  /* move_count legal moves already played from start before the game's first event (an
   * opening book, a game taken over): they count for repetitions and the move counters, not
   * on the clock, which starts after them with the side then to move (copied). */
  const arb_move *moves;
  size_t move_count;
  const arb_ref_tag *tags; /* tag_count tags for the PGN (copied) */
  size_t tag_count;
  /* Online play: lichess's lag compensation (arb_lag_tracker) for each side — a move's lag_ms
   * is forgiven up to the side's quota, and a server declares a flag only after the quota's
   * grace (at most 2 s); 0: pure server time. */
  uint8_t lag_compensation;
  /* A side that has not made its first move within this many ms (pauses excluded; White from
   * the start, Black from White's first move) aborts the game by itself (lichess: 15-35 s by
   * speed); 0: no limit. */
  int64_t first_move_ms;
  /* Every flag counts the moment it falls, whatever the rule set (an online server, or an
   * arbiter watching the clocks): then a move after it is refused and the game ends on time,
   * and arb_referee_next_deadline gives the fall.  0: the rule set's own (only online sees
   * flags; elsewhere a flag counts when claimed, FIDE 6.8). */
  uint8_t sees_flags;
  /* The node budget of the searches the laws ask during the game (arb_game_set_search_budget):
   * 0 the library's default. */
  uint64_t search_budget;
  /* The abandonment claim (ARB_REF_CLAIM_ABANDONED; rule sets without it ignore this): how
   * long a player must have been away before the opponent may claim.  0: the referee's
   * default, ARB_REF_ABANDON_DEFAULT_MS (30 s), or ARB_REF_ABANDON_FAST_MS (15 s) for bullet
   * and faster controls (arb_tc_speed); -1: no abandonment claims in this game. */
  int64_t abandon_ms;
} arb_ref_setup;
#define ARB_REF_ABANDON_DEFAULT_MS INT64_C(30000)
#define ARB_REF_ABANDON_FAST_MS INT64_C(15000)
#define ARB_REF_SETUP_INIT                                                                         \
  { .start = NULL, .rules = ARB_RULES_FIDE, .control = NULL, .clock_model = -1 }

/* One event.  Fields an event kind does not use are ignored.  by and side are arb_color or -1
 * ("not given"); ARB_REF_EVENT_INIT sets them to -1, t as given and the rest to zero. */
typedef struct arb_ref_event {
  arb_ref_kind kind;
  int64_t t;   /* ms (0 .. ARB_CLOCK_TIME_MAX), or ARB_REF_NO_TIME */
  int8_t by;   /* the acting player: needed by offers, claims, resignation, premoves and aborts;
                  a move's by, when given, must be the side to move */
  int8_t side; /* ARB_REF_FLAG, ARB_REF_ADJUST_TIME: whose clock; ARB_REF_FORFEIT: who loses */
  uint8_t set; /* ARB_REF_ADJUST_TIME: 1 sets side's remaining time to ms, 0 adds ms */
  /* ARB_REF_MOVE, ARB_REF_PREMOVE: the move; ARB_REF_CLAIM_DRAW: the intended move (none: no
   * text and ARB_MOVE_NONE).  text (text_len bytes, SAN or UCI, read leniently) when not NULL,
   * else move (which must be legal). */
  const char *text;
  size_t text_len;
  arb_move move;
  arb_claim_reason reason;    /* ARB_REF_CLAIM_DRAW */
  int64_t ms;                 /* ARB_REF_ADJUST_TIME: ms added (may be negative) or set */
  const arb_ref_setup *setup; /* ARB_REF_START; NULL = ARB_REF_SETUP_INIT with the referee's
                                 rules */
  unsigned flags;             /* ARB_REF_MOVE, ARB_REF_PREMOVE: ARB_REF_AUTO_QUEEN */
  int64_t lag_ms; /* ARB_REF_MOVE: the network lag to forgive (the setup's lag_compensation) */
  int ply;        /* ARB_REF_REINSTATE: the first step taken back */
  const arb_position *position; /* ARB_REF_CONTINUE_FROM: the board play goes on from (copied) */
  arb_termination termination;  /* ARB_REF_FORFEIT, ARB_REF_ADJUDICATE: why (game.h) */
  arb_result result;            /* ARB_REF_ADJUDICATE: the result */
} arb_ref_event;
#define ARB_REF_EVENT_INIT(kind_, t_)                                                              \
  { .kind = (kind_), .t = (t_), .by = -1, .side = -1, .move = ARB_MOVE_NONE }

/* Event flags. */
#define ARB_REF_AUTO_QUEEN                                                                         \
  1u                            /* a promotion written without its piece (e7e8, e8) is a queen;    \
                                   without the flag it is refused (illegal_move, saying so) */
#define ARB_REF_FROM_PREMOVE 2u /* in record entries only: the move was a stored premove */
#define ARB_REF_MADE_ONLY                                                                          \
  4u /* ARB_REF_MOVE over the board: the move is made (released, FIDE 4.7) but not completed:      \
        the mover's clock runs on until ARB_REF_PRESS (6.2.1), or until the opponent's reply,      \
        which completes it at that moment; a move that ends the game needs no press (6.2.1.1) */
#define ARB_REF_FLAG_SEEN                                                                          \
  16u /* ARB_REF_FLAG of an untimed game: the arbiter (or both players) saw the flag down on a     \
         clock the referee does not run (FIDE 6.8); the rule set's verdict as for any flag */
#define ARB_REF_ANNULLED                                                                           \
  8u /* in record entries only: a move (or a continue_from) taken back by ARB_REF_REINSTATE */

/* ---- Decisions ---- */

/* Why an event was refused — also the JSON codec's error "code" (arb_ref_refusal_name). */
#define ARB_REF_REFUSAL_LIST(X)                                                                    \
  X(ARB_REF_ACCEPTED, "ok")                                                                        \
  X(ARB_REF_BAD_EVENT, "bad_event")             /* a field missing or out of range */              \
  X(ARB_REF_BAD_MOVE, "bad_move")               /* the text is not a move */                       \
  X(ARB_REF_ILLEGAL_MOVE, "illegal_move")       /* no legal move fits (or a bad intended move) */  \
  X(ARB_REF_AMBIGUOUS_MOVE, "ambiguous_move")   /* several legal moves fit */                      \
  X(ARB_REF_NOT_YOUR_TURN, "not_your_turn")     /* by is not the side to move (or may claim) */    \
  X(ARB_REF_GAME_OVER, "game_over")             /* the game has ended */                           \
  X(ARB_REF_NO_OFFER, "no_offer")               /* no open offer by the opponent */                \
  X(ARB_REF_NOT_ALLOWED, "not_allowed")         /* the rules in force do not allow it */           \
  X(ARB_REF_MUST_PLAY, "must_play")             /* the move named in a wrong claim comes first */  \
  X(ARB_REF_TIME_BACKWARDS, "time_backwards")   /* t before an earlier event's */                  \
  X(ARB_REF_CLOCK_STATE, "clock_state")         /* the clock cannot (paused, stopped, ...) */      \
  X(ARB_REF_FLAG_NOT_FALLEN, "flag_not_fallen") /* the flag claimed has not fallen */              \
  X(ARB_REF_NO_MEMORY, "no_memory")

typedef enum arb_ref_refusal {
#define ARB_REF_REFUSAL_ENUM_(name, text) name,
  ARB_REF_REFUSAL_LIST(ARB_REF_REFUSAL_ENUM_)
#undef ARB_REF_REFUSAL_ENUM_
      ARB_REF_REFUSAL_COUNT
} arb_ref_refusal;

/* "ok", "bad_event", "bad_move", ... as listed; "" out of range. */
ARB_API const char *arb_ref_refusal_name(arb_ref_refusal refusal);

/* Bits of arb_ref_state.claims: the draws the side to move may claim now (arb_claim_reason). */
#define ARB_REF_CAN_CLAIM(reason) (1u << (reason))

/* The referee's state after an event — what every answer of a front end shows. */
typedef struct arb_ref_state {
  uint8_t has_game;    /* 0 until a start or a first event made a game (then nothing else set) */
  uint8_t over;        /* the game has ended: a result (outcome.result), or aborted */
  uint8_t aborted;     /* ended without a result (ARB_REF_ABORT, or the first-move limit) */
  uint8_t timed;       /* the game has a clock */
  uint8_t claims;      /* ARB_REF_CAN_CLAIM bits, under rule sets with claims; 0 after the end */
  arb_color turn;      /* the side to move */
  int ply;             /* plies played */
  arb_outcome outcome; /* the termination names every ending (game.h), ARB_TERM_ABORTED too */
  int8_t draw_offer;   /* the side with an open draw offer, or -1 */
  int8_t unpressed;    /* the side whose move (ARB_REF_MADE_ONLY) waits for its press, or -1 */
  int8_t flag_side;    /* the game ended on this side's flag (arb_color), or -1 */
  arb_flag_reason flag_reason; /* and the verdict's reason (ARB_FLAG_NONE when no flag); after
                                  an abandonment claim, its verdict's (the leaver as flagged) */
  arb_move must_play;   /* the move named in a wrong claim, still to be played, or ARB_MOVE_NONE */
  arb_game_facts facts; /* repetitions, claimable draws, fivefold, 75 moves, ... (game.h) */
  int64_t now;          /* the referee's time: the latest event's (0 before any) */
  /* Timed games (else remaining ARB_CLOCK_NEVER, running -1, flag_at ARB_CLOCK_NEVER): */
  int64_t remaining_ms[2]; /* each side's time at now (arb_clock_remaining) */
  int8_t running;          /* whose clock runs (arb_color), or -1 */
  uint8_t paused;          /* the arbiter stopped the clocks */
  int64_t flag_at;         /* arb_clock_flag_time: the running side's flag falls after this ms */
  int64_t deadline;        /* arb_referee_next_deadline */
  char premove[2][8];      /* each side's stored premove in UCI, "" for none */
  /* The first-move limit (the setup's first_move_ms) while it runs: the last millisecond at
   * which the side to move may still make its first move; ARB_CLOCK_NEVER when no limit runs
   * (none set, both sides have moved, paused, over). */
  int64_t first_move_by;
  /* The abandonment claim (rule sets with it, online): since when each side has been away
   * (ARB_REF_AWAY; pauses not counted, so it moves on by them), -1 when present; and the
   * first millisecond the opponent of an away side may claim (ARB_CLOCK_NEVER: present, no
   * claim possible yet because fewer than two plies are played, or over). */
  int64_t away_since[2];
  int64_t abandon_claim_at[2];
  int8_t abandoned;          /* the game ended on an abandonment claim: the side that left, or -1 */
  arb_result abandon_result; /* while a side is away: what a claim would give (a win for the
                                claimant, or a draw), else ARB_RESULT_NONE */
} arb_ref_state;

typedef struct arb_ref_decision {
  arb_status status;       /* ARB_OK: accepted; else refused (see the header comment) */
  arb_ref_refusal refusal; /* ARB_REF_ACCEPTED, or why not */
  char message[192];       /* for a person: what was wrong ("" when accepted) */
  arb_ref_kind kind;       /* the event's kind */
  uint32_t seq;            /* the event's index in the record (a version for front ends) */
  /* ARB_REF_MOVE, accepted: */
  arb_move move;
  char san[ARB_SAN_MAX];
  char uci[8];
  uint8_t late; /* the flag had fallen when the move was made (an unclaimed flag does not stop
                   play, FIDE 6.8): the move stands, nothing was credited */
  /* ARB_REF_CLAIM_DRAW, accepted: */
  uint8_t claimed;
  arb_claim_verdict verdict; /* correct, penalty_s, became_offer, must_play and intended */
  char must_play_uci[8];     /* verdict.must_play: the intended move in UCI */
  /* Time put on a clock by this event (a wrong claim's penalty, an adjustment): */
  int8_t time_added_to; /* arb_color, or -1 */
  int64_t time_added_ms;
  /* ARB_REF_MOVE, accepted, with lag compensation: the ms forgiven */
  int64_t comp_ms;
  /* ARB_REF_MOVE, accepted, when the opponent had a premove: it was played (then it is the
   * record's next entry, seq + 1, and the state is after it) or dropped, and why. */
  struct {
    uint8_t played, dropped;
    arb_move move;
    char san[ARB_SAN_MAX];
    char uci[8];
    arb_ref_refusal refusal; /* dropped: why (illegal_move, ...) */
    char message[96];
  } premove;
  /* The game ended with this event, or with the flag (or first-move limit) that came before
   * it, or with the premove that answered it: */
  uint8_t ended;
  arb_ref_state state; /* after the event */
} arb_ref_decision;

/* ---- The referee ---- */

typedef struct arb_referee arb_referee;

/* A referee without a game.  Its first event, unless a start, begins a game from the initial
 * position under `rules`, untimed.  NULL when memory runs out or rules is out of range. */
ARB_API arb_referee *arb_referee_new(arb_ruleset rules);
ARB_API void arb_referee_free(arb_referee *ref);

/* Hands one event to the referee and fills *d (may not be NULL).  Returns d->status.
 * In order: the event's time is checked (ARB_REF_BAD_EVENT when a timed game has none,
 * ARB_REF_TIME_BACKWARDS; a start may go back: a new game begins a new timeline) and becomes
 * the referee's time; a flag due by then falls (auto-flag rule sets); then the event is
 * decided.  A start is checked whole before anything changes (a timed start needs t). */
ARB_API arb_status arb_referee_event(arb_referee *ref, const arb_ref_event *ev,
                                     arb_ref_decision *d);

/* The millisecond at which the game changes by itself if no event comes first — the first
 * millisecond the running side's flag is down (after its lag grace), under a rule set whose
 * server sees flags, or the first-move limit — or ARB_CLOCK_NEVER (no game, over, untimed,
 * paused, or flags only counted when claimed and no limit). */
ARB_API int64_t arb_referee_next_deadline(const arb_referee *ref);

/* Applies what is due at `now` (as an ARB_REF_STATE event would): a change is recorded as an
 * ARB_REF_TICK entry.  Fills *d (d->ended when the game ended); refused as events are
 * (ARB_REF_TIME_BACKWARDS).  Returns d->status. */
ARB_API arb_status arb_referee_tick(arb_referee *ref, int64_t now, arb_ref_decision *d);

/* The state now (as in a decision).  *out is always written. */
ARB_API void arb_referee_state_of(const arb_referee *ref, arb_ref_state *out);

/* The game (NULL before the first game) and its clock (NULL for an untimed game). */
ARB_API const arb_game *arb_referee_game(const arb_referee *ref);
ARB_API const arb_clock *arb_referee_clock(const arb_referee *ref);

/* ---- The record: every event of the present game, with its time and decision ---- */

typedef struct arb_ref_entry {
  int64_t t;         /* the event's time (the referee's time when it had none) */
  arb_ref_kind kind; /* ARB_REF_TICK for changes time made by itself */
  int8_t by, side;   /* as in the event; a tick's side: whose flag fell or first move lapsed */
  uint8_t set;       /* as in the event (adjust_time) */
  unsigned flags;    /* the event's, and ARB_REF_FROM_PREMOVE for a premove played */
  int64_t lag_ms;    /* moves: the lag claimed */
  int64_t comp_ms;   /* moves: the compensation granted */
  arb_status status; /* the decision */
  arb_ref_refusal refusal;
  arb_move move;           /* the move played, or a claim's intended move */
  arb_claim_reason reason; /* claims */
  int64_t ms;              /* adjust_time: as in the event */
  int ply;                 /* the game's plies after the event */
  /* accepted moves of timed games (else -1): the mover's remaining time after the press and
   * the time counted for the move (its clock's time less the compensation) */
  int64_t clock_ms, move_ms;
  uint8_t ended; /* the game ended here */
} arb_ref_entry;

/* Events in the record of the present game: the start (or first event) is entry 0. */
ARB_API uint32_t arb_referee_record_count(const arb_referee *ref);
/* Entry i (0-based); ARB_ERR_ARGUMENT out of range (then *out is untouched). */
ARB_API arb_status arb_referee_record_at(const arb_referee *ref, uint32_t i, arb_ref_entry *out);

/* The wait before an abandonment claim in this game (the setup's abandon_ms, or the
 * default for its control), or 0 when its rule set has no such claim (all but online) or the
 * setup turned it off.  0 without a game. */
ARB_API int64_t arb_referee_abandon_ms(const arb_referee *ref);

/* ---- The end in words ---- */

/* Why the game ended, for a person ("Checkmate: Black wins", "Draw: White ran out of time, but
 * Black cannot checkmate by any sequence of legal moves", "Game aborted by White", "Black left
 * the game: White wins by the abandonment claim (online rules)", ...);
 * "" while the game goes on.  snprintf convention. */
ARB_API int arb_referee_end_words(const arb_referee *ref, char *buf, size_t size);

/* ---- The game as PGN ---- */

#define ARB_REF_PGN_EMT 1u /* also [%emt] (time spent) after each move of a timed game */

/* Writes the present game into w as one PGN game in export format: the setup's tags, Result,
 * TimeControl (timed games), Termination (arb_termination_pgn: "normal", "time forfeit",
 * "abandoned" for an aborted game or one won by an abandonment claim, "rules infraction",
 * "adjudication", or "unterminated"),
 * Variant "Chess960" and SetUp/FEN when it did not start from the initial position; after each
 * move of a timed game [%clk] (the mover's time after the press) and with ARB_REF_PGN_EMT
 * [%emt].  After ARB_REF_CONTINUE_FROM, the present segment, from its board (SetUp/FEN; a
 * board no legal game reaches is written as it is, which readers refuse — the over-the-board
 * layer writes the game as played).  ARB_ERR_ARGUMENT without a game; the writer's errors
 * otherwise. */
ARB_API arb_status arb_referee_write_pgn(const arb_referee *ref, unsigned flags, arb_pgn_writer *w);

#ifdef __cplusplus
}
#endif
#endif
