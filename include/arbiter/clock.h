/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * clock.h: the clock layer — time controls (parse and print, PGN and a human grammar), the chess
 * clock as a plain value driven by the caller's time, flag-fall verdicts per rule set, and the
 * PGN clock comments [%clk] / [%emt] (RULES.md Part IV R22-R26, Part VII).
 *
 * Time is an argument: every clock function takes the current monotonic time in milliseconds
 * (`now`, an int64_t, e.g. clock_gettime(CLOCK_MONOTONIC) in ms); the library never reads a
 * system clock.  All arithmetic is in whole milliseconds, so nothing drifts.
 * Ownership: arb_time_control and arb_clock are plain values callers own and copy; nothing
 * allocates.  Output functions follow snprintf: they write at most `size` bytes including the
 * NUL and return the length the full text needs.  Strings returned by *_name are static.
 * Thread-safety: every function is reentrant; a clock value may be used by one thread at a time.
 * Errors: arb_status codes — ARB_ERR_TC_SYNTAX (a bad time-control string; the report says
 * where), ARB_ERR_TIME_BACKWARDS (`now` earlier than a time the clock has already seen),
 * ARB_ERR_CLOCK_STATE (not started, paused, stopped), ARB_ERR_NOT_YOUR_TURN,
 * ARB_ERR_FLAG_NOT_FALLEN, ARB_ERR_ARGUMENT.
 */
#ifndef ARBITER_CLOCK_H
#define ARBITER_CLOCK_H

#include "arbiter/game.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================================== */
/* Time controls                                                                             */
/* ======================================================================================== */

#define ARB_TC_MAX_PERIODS 8
/* Upper bounds accepted for one amount of time (about 31.7 years) and one period's moves. */
#define ARB_TC_MAX_MS INT64_C(1000000000000)
#define ARB_TC_MAX_MOVES 10000u

typedef enum arb_tc_kind {
  ARB_TC_UNKNOWN = 0,  /* "?": not known (a zeroed struct); a clock treats it as untimed */
  ARB_TC_NONE = 1,     /* "-": no time control, untimed */
  ARB_TC_PERIODS = 2,  /* one or more periods (sudden death, increment, delay, multi-period) */
  ARB_TC_SANDCLOCK = 3 /* hourglass: time one side uses is added to the other (PGN "*180");
                          periods[0].time_ms is each side's start time */
} arb_tc_kind;

typedef enum arb_delay_kind {
  ARB_DELAY_NONE = 0,
  ARB_DELAY_SIMPLE = 1,   /* US / simple delay: the main time waits delay_ms each move */
  ARB_DELAY_BRONSTEIN = 2 /* the time used is given back after the move, at most delay_ms */
} arb_delay_kind;

/* How increments are credited and when the clock starts (RULES.md R25). */
typedef enum arb_clock_model {
  /* Fischer increment credited when the move is completed (PGN spec wording, most software):
   * the clocks start at the base time. */
  ARB_MODEL_AFTER_MOVE = 0,
  /* DGT clocks in Fischer mode, US Chess 5F1 "added before each move": each side's increment
   * for its next move is credited in advance — at the start (base + increment) and on every
   * press (the increment of the period the next move belongs to). */
  ARB_MODEL_BEFORE_MOVE = 1,
  /* lichess (scalachess Game.applyClock): after-move increments, but the first move of each
   * side is untimed (no time used, no increment; White's clock first runs when Black's first
   * move is completed). */
  ARB_MODEL_ONLINE = 2,
  ARB_MODEL_COUNT
} arb_clock_model;

/* One period: `moves` moves (0 = all the rest of the game) in `time_ms`, which is added to the
 * clock when the period begins; the last period repeats when it has a move count (PGN:
 * "40/7200:20/3600" gives another 3600 s every 20 moves after move 60).  increment_ms (Fischer)
 * and delay_ms (of delay_kind) apply to each move of the period; both may be set. */
typedef struct arb_tc_period {
  int64_t time_ms;      /* 0 .. ARB_TC_MAX_MS */
  int64_t increment_ms; /* 0 .. ARB_TC_MAX_MS */
  int64_t delay_ms;     /* 0 .. ARB_TC_MAX_MS; 0 when delay_kind is ARB_DELAY_NONE */
  uint32_t moves;     /* 0 = rest of the game (only the last period); else 1 .. ARB_TC_MAX_MOVES */
  uint8_t delay_kind; /* arb_delay_kind */
  uint8_t reserved_[3];
} arb_tc_period;

/* A whole time control: a value type, zero-initialised = unknown. */
typedef struct arb_time_control {
  uint8_t kind;     /* arb_tc_kind */
  uint8_t model;    /* arb_clock_model; parsers leave ARB_MODEL_AFTER_MOVE (see arb_clock_rules) */
  uint8_t nperiods; /* ARB_TC_PERIODS: 1 .. ARB_TC_MAX_PERIODS; ARB_TC_SANDCLOCK: 1; else 0 */
  /* Bronstein periods only: where the flag falls.  0 (default): after main time + delay, as on
   * DGT clocks (the delay is at the player's disposal during the move; the main time waits
   * for it, as with simple delay); 1: when the main time is gone, as on clocks that only
   * credit the delay after the move — the main time runs down from the first millisecond and
   * the time used, at most the delay, comes back at the press (RULES.md R25).  Either way a
   * completed move costs max(0, t - delay). */
  uint8_t bronstein_flag_at_main;
  uint8_t reserved_[4];
  arb_tc_period periods[ARB_TC_MAX_PERIODS];
} arb_time_control;

/* Which grammar a time-control string is in. */
typedef enum arb_tc_syntax {
  /* The PGN TimeControl tag (PGN standard 9.6.1; every number in seconds):
   *   "?" unknown, "-" none, "*180" sand clock, "300" sudden death, "300+2" increment,
   *   "40/7200:3600" periods separated by ':' (the last repeats when it has a move count),
   *   and leniently "40/5400+30:1800+30" (increment in an earlier period), fractions of a
   *   second ("0.5") and blanks around the text.  A period without a move count must be last. */
  ARB_TC_PGN = 0,
  /* The human grammar, as players write controls (also for `arbiter referee --help`):
   *   control  := "-" | "?" | "*" DURATION | period { "," period }
   *   period   := [ MOVES "/" | "G/" | "SD/" ] DURATION { bonus }
   *   bonus    := "+" DURATION                      Fischer increment
   *             | [ "+" | ";" ] "d" DURATION        simple (US) delay
   *             | [ "+" | ";" ] "b" DURATION        Bronstein delay
   *   DURATION := NUMBER [ UNIT { NUMBER UNIT } ]   UNIT := "h" | "m" | "min" | "s" | "ms"
   * A bare NUMBER means minutes for a period's time and a sand clock, seconds for an increment
   * or a delay — so "5+3" is 5 minutes plus 3 seconds a move.  NUMBER may have a fraction
   * ("2.5m"), which must come to whole milliseconds.  Letters are case-insensitive; blanks
   * between tokens are ignored.  Examples: "5+3", "90+30", "40/90+30,30+30" (FIDE standard),
   * "40/90m+30s, 30m+30s", "G/90;d5" = "90 d5" (US delay), "90b5" (Bronstein), "1h30m",
   * "40/2h,20/1h" (the last period repeats every 20 moves), "*3" (3-minute sand clock). */
  ARB_TC_HUMAN = 1,
  /* Either: the PGN grammar when the text contains ':' (the PGN period separator, which the
   * human grammar does not use), the human grammar otherwise — so a one-period PGN tag such as
   * "300+2" reads as 300 minutes here; pass ARB_TC_PGN for tag values. */
  ARB_TC_AUTO = 2
} arb_tc_syntax;

/* Where and why a time-control string failed. */
typedef struct arb_tc_report {
  int column;        /* 0-based byte offset of the fault in the input, -1 when none */
  char message[128]; /* what went wrong; "" when ok */
} arb_tc_report;

/* Parses a time control (text of len bytes, need not be NUL-terminated; NUL bytes are errors).
 * On ARB_OK *tc is written (model ARB_MODEL_AFTER_MOVE, bronstein_flag_at_main 0).
 * ARB_ERR_TC_SYNTAX: report->column/message say where and what (tc untouched); also for values
 * beyond ARB_TC_MAX_MS / ARB_TC_MAX_MOVES and more than ARB_TC_MAX_PERIODS periods.
 * ARB_ERR_ARGUMENT: NULL text (with len > 0) or tc, or a bad syntax value.  report may be NULL. */
ARB_API arb_status arb_tc_parse(const char *text, size_t len, arb_tc_syntax syntax,
                                arb_time_control *tc, arb_tc_report *report);

/* Writes a time control in a grammar (ARB_TC_AUTO writes the human form).  Human output is
 * canonical and always carries units ("40/90m+30s,30m+30s", "5m+3s", "90m d5s", "90m b5s",
 * "*3m"); PGN output is in seconds ("40/5400+30:1800+30", "300+2", "*180", "-", "?"), with a
 * fraction only for sub-second values.  PGN has no delay notation: delays are left out (see
 * arb_tc_pgn_exact).  The model and the Bronstein flag point are not written.  Human text read
 * back gives the same periods, PGN text too when arb_tc_pgn_exact.  snprintf convention;
 * ARB_ERR_ARGUMENT (negative, empty output) for an invalid control. */
ARB_API int arb_tc_write(const arb_time_control *tc, arb_tc_syntax syntax, char *buf, size_t size);

/* 1 if the PGN form carries all of tc's periods (no delays, whole seconds), else 0. */
ARB_API int arb_tc_pgn_exact(const arb_time_control *tc);

/* ARB_OK if tc is a consistent control (kinds, counts, ranges; only the last period may lack a
 * move count; delay_ms 0 exactly when delay_kind is ARB_DELAY_NONE), else ARB_ERR_ARGUMENT. */
ARB_API arb_status arb_tc_validate(const arb_time_control *tc);

/* The period (0-based index into tc->periods) that a side's move number `move` (1-based, counted
 * from the clock's start) belongs to, following the repetition of the last period; 0 for
 * controls without periods. */
ARB_API int arb_tc_period_of_move(const arb_time_control *tc, uint32_t move);

/* Model names: "after_move", "before_move", "online"; "" out of range.  Parse returns
 * ARB_ERR_ARGUMENT for other names. */
ARB_API const char *arb_clock_model_name(arb_clock_model model);
ARB_API arb_status arb_clock_model_parse(const char *name, arb_clock_model *out);

/* lichess lag compensation (scalachess LagTracker.init; RULES.md R25, case K13), in
 * centiseconds: gain = min(100, E * 2 / 5 + 15) with E = base + 40 * increment in whole seconds
 * (first period); the quota starts at 3 * gain and is capped at 7 * gain.  Per move the server
 * credits min(reported lag, quota) and adds gain - credited to the quota; the timeout grace is
 * min(quota, 2 s).  All zero for controls without periods. */
typedef struct arb_lag_quota {
  int32_t gain_cs, initial_cs, max_cs;
} arb_lag_quota;
ARB_API arb_lag_quota arb_tc_lag_quota(const arb_time_control *tc);

/* Speed categories by estimated game duration, as lichess classifies its games
 * (https://lichess.org/faq#time-controls; scalachess Speed.scala):
 *   E = initial time + 40 x increment, in whole seconds, of the first period
 *   E < 30 ultrabullet, < 180 bullet, < 480 blitz, < 1500 rapid, < 21600 classical, else
 *   correspondence.  So 3+2 is 180 + 80 = 260 s: blitz; 15+10 is 900 + 400 = 1300 s: rapid.
 * A delay (simple or Bronstein) counts as an increment, as US Chess counts it for its rating
 * categories; a sand clock counts its start time.  No clock at all (ARB_TC_NONE) is
 * correspondence (scalachess: a game without a clock); ARB_TC_UNKNOWN and invalid controls are
 * ARB_SPEED_UNKNOWN. */
typedef enum arb_speed {
  ARB_SPEED_UNKNOWN = 0,
  ARB_SPEED_ULTRABULLET,
  ARB_SPEED_BULLET,
  ARB_SPEED_BLITZ,
  ARB_SPEED_RAPID,
  ARB_SPEED_CLASSICAL,
  ARB_SPEED_CORRESPONDENCE,
  ARB_SPEED_COUNT
} arb_speed;

/* E above in seconds (milliseconds rounded down, each amount separately, as lichess's whole
 * seconds); -1 for controls without a clock or unknown, invalid ones. */
ARB_API int64_t arb_tc_estimated_seconds(const arb_time_control *tc);
/* The speed category of tc (see above). */
ARB_API arb_speed arb_tc_speed(const arb_time_control *tc);
/* "ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence", "unknown" (also for
 * values out of range).  Static strings. */
ARB_API const char *arb_speed_name(arb_speed speed);

/* ======================================================================================== */
/* The clock                                                                                 */
/* ======================================================================================== */

/* "No time": the flag time when no flag can fall, the remaining time of an untimed side. */
#define ARB_CLOCK_NEVER INT64_MAX
/* `now` must lie in 0 .. ARB_CLOCK_TIME_MAX; remaining times saturate at ARB_CLOCK_MS_MAX. */
#define ARB_CLOCK_TIME_MAX (INT64_C(1) << 62)
#define ARB_CLOCK_MS_MAX (INT64_C(1) << 53)

typedef enum arb_clock_state {
  ARB_CLOCK_READY = 0, /* set up, not started */
  ARB_CLOCK_RUNNING,   /* one side's clock runs (or an untimed online first move is awaited) */
  ARB_CLOCK_PAUSED,    /* the arbiter stopped both clocks (FIDE 6.11); arb_clock_resume */
  ARB_CLOCK_STOPPED    /* for good: the game is over */
} arb_clock_state;

/* A chess clock.  A plain value: copy it freely (e.g. to answer "what if").  Read it through
 * the functions below; the fields are documented for debugging and may change.
 *
 *   main_ms[s]   side s's main time at the start of its current move (its move in progress,
 *                if s is to move), increments and period times already credited
 *   move_ms      the side to move's time on this move before `mark_ms` (a pause splits a move)
 *   mark_ms      when the side to move's clock last started (start, press or resume)
 *   main_ms of the side not to move may dip below 0 in a sand clock after an arbiter's
 *                correction (its remaining time adds the sand now running over to it)
 *   remaining now (side to move, running) = main - charged(move_ms + now - mark_ms), where
 *   charged(t) = max(0, t - delay) with a delay, t without; the flag falls when that passes 0.
 */
typedef struct arb_clock {
  arb_time_control tc;
  int64_t main_ms[2];
  int64_t move_ms;
  int64_t mark_ms;
  int64_t move_start_ms;    /* when the current move began (start or the previous press) */
  int64_t last_ms;          /* the latest time a state-changing call was given; INT64_MIN at init */
  int64_t elapsed_ms[2];    /* time each side's clock has run in completed stretches (no pauses) */
  int64_t flag_ms[2];       /* when each side's flag fell (recorded), ARB_CLOCK_NEVER if not */
  uint32_t moves[2];        /* moves completed by each side since the start */
  uint32_t period_moves[2]; /* moves completed in the current period */
  uint8_t period[2];        /* current period (index into tc.periods) */
  uint8_t state;            /* arb_clock_state */
  uint8_t turn;             /* the side to move (whose clock runs when RUNNING) */
  uint8_t untimed;          /* online model: untimed first moves still to come (2, 1, 0) */
  uint8_t reserved_[3];
} arb_clock;

/* Sets up a clock for tc (copied; tc->model and bronstein_flag_at_main apply).  Both sides get
 * the first period's time (plus its increment under ARB_MODEL_BEFORE_MOVE); state READY.
 * ARB_TC_NONE and ARB_TC_UNKNOWN give an untimed clock: it counts moves, no flag ever falls and
 * remaining times are ARB_CLOCK_NEVER.  ARB_ERR_ARGUMENT for NULL or an invalid tc
 * (arb_tc_validate); *clock is written only on ARB_OK. */
ARB_API arb_status arb_clock_init(arb_clock *clock, const arb_time_control *tc);

/* Starts the clock of `first` (the side to move; normally White) at `now`.  Under
 * ARB_MODEL_ONLINE nothing runs until both sides have made their first move.
 * ARB_ERR_CLOCK_STATE unless READY; ARB_ERR_TIME_BACKWARDS (before an adjustment made while
 * READY); ARB_ERR_ARGUMENT for a bad side or `now`. */
ARB_API arb_status arb_clock_start(arb_clock *clock, arb_color first, int64_t now);

/* What a press did (any field may be ignored; pass NULL for none). */
typedef struct arb_press_info {
  int64_t move_ms;        /* time the side's clock ran for this move (pauses excluded) */
  int64_t charged_ms;     /* main time taken for it (after delay; capped at the time there was) */
  int64_t credited_ms;    /* time added: increment, next period's time */
  uint8_t late;           /* 1: the flag fell during this move (the press came after flag_ms):
                             nothing was credited, the time is 0, the fall is recorded */
  uint8_t flag_down;      /* 1: this side's flag is down (now, or earlier and not reset) */
  uint8_t period_changed; /* 1: the move completed a period; the next one began */
  uint8_t untimed;        /* 1: an untimed move (online first moves, untimed controls) */
  int64_t comp_ms;        /* arb_clock_press_lag: the lag compensation granted (not charged) */
} arb_press_info;

/* Press flags. */
#define ARB_PRESS_ENDS_GAME                                                                        \
  1u /* the move ended the game (mate, stalemate, ...): the clock is                               \
        stopped instead of pressed — time is charged, nothing credited                           \
        (FIDE 6.2.1.1; lichess gives no increment), state STOPPED */

/* `side` completes a move at `now` (R24-R26): the time since its clock started is charged
 * (less the delay), then — if the move was in time — the increment is credited (model), and on
 * completing a period's last move the next period's time is added (R24); the opponent's clock
 * starts.  A press at exactly arb_clock_flag_time() is in time; one millisecond later is late:
 * the press is still recorded (an unclaimed flag does not stop play, FIDE 6.8) but credits
 * nothing and info->late says so.  A side whose flag is already down gets nothing credited.
 * ARB_ERR_CLOCK_STATE unless RUNNING; ARB_ERR_NOT_YOUR_TURN when side is not to move;
 * ARB_ERR_TIME_BACKWARDS; ARB_ERR_ARGUMENT.  Nothing changes on an error. */
ARB_API arb_status arb_clock_press(arb_clock *clock, arb_color side, int64_t now, unsigned flags,
                                   arb_press_info *info);

/* The same, for a server that compensates network lag (lichess): comp_ms (0 or more; capped at
 * the move's time) of the time since the side's clock started is not charged, and the flag is
 * judged on what remains — a move that arrived late only by its lag is in time.  The opponent's
 * clock starts at now all the same.  info->move_ms is the time counted for the move (the clock's
 * time less the compensation), info->comp_ms the compensation granted.  Errors as
 * arb_clock_press, and ARB_ERR_ARGUMENT for a negative comp_ms. */
ARB_API arb_status arb_clock_press_lag(arb_clock *clock, arb_color side, int64_t now,
                                       int64_t comp_ms, unsigned flags, arb_press_info *info);

/* lichess's lag compensation for one side (scalachess LagTracker): a quota of compensation in
 * milliseconds that each move draws on and refills.  A plain value. */
typedef struct arb_lag_tracker {
  int64_t quota_ms; /* compensation available to the next move */
  int64_t gain_ms;  /* refilled per move */
  int64_t max_ms;   /* the quota's cap */
} arb_lag_tracker;

/* A tracker for a control (arb_tc_lag_quota in milliseconds: quota 3 gains, cap 7); all zero
 * (no compensation) for controls without periods. */
ARB_API arb_lag_tracker arb_lag_tracker_init(const arb_time_control *tc);
/* One move whose lag is lag_ms (negative counts as 0): returns the compensation granted,
 * min(lag, quota), and updates the quota to min(quota + gain - granted, cap). */
ARB_API int64_t arb_lag_credit(arb_lag_tracker *tracker, int64_t lag_ms);
/* The grace a flag gets before a server declares it (lichess: min(quota, 2 s)). */
ARB_API int64_t arb_lag_grace(const arb_lag_tracker *tracker);

/* The arbiter stops both clocks (FIDE 6.11.2) / restarts the one that was running.  A flag
 * that fell before the pause stays fallen.  ARB_ERR_CLOCK_STATE unless RUNNING / PAUSED;
 * ARB_ERR_TIME_BACKWARDS; ARB_ERR_ARGUMENT. */
ARB_API arb_status arb_clock_pause(arb_clock *clock, int64_t now);
ARB_API arb_status arb_clock_resume(arb_clock *clock, int64_t now);

/* Stops the clock for good (the game ended by resignation, agreement, a claim, a flag...): the
 * running side is charged up to now.  ARB_OK also when already STOPPED; ARB_ERR_TIME_BACKWARDS;
 * ARB_ERR_ARGUMENT. */
ARB_API arb_status arb_clock_stop(arb_clock *clock, int64_t now);

/* Arbiter adjustments (penalties 7.5.5 / 9.5.3 / A.3, corrections 6.10.2): add delta_ms
 * (negative subtracts; the result is kept within 0 .. ARB_CLOCK_MS_MAX) to side's main time,
 * or set side's remaining time to ms exactly.  Any flag fall up to now is recorded first; a
 * result above zero then lifts that side's recorded flag (a correction gives the time back).
 * Works in every state but STOPPED (ARB_ERR_CLOCK_STATE) and on untimed clocks does nothing.
 * ARB_ERR_TIME_BACKWARDS; ARB_ERR_ARGUMENT. */
ARB_API arb_status arb_clock_adjust(arb_clock *clock, arb_color side, int64_t delta_ms,
                                    int64_t now);
ARB_API arb_status arb_clock_set(arb_clock *clock, arb_color side, int64_t ms, int64_t now);

/* The arbiter's hand-over (7.5.1, 6.10.2, a reinstated position): side's clock runs from now;
 * the other one, if it ran, stops with the time it shows — nothing credited, its count of
 * completed moves unchanged.  Nothing to do when side's clock runs already or none runs.
 * ARB_ERR_TIME_BACKWARDS; ARB_ERR_ARGUMENT for a bad side. */
ARB_API arb_status arb_clock_hand_over(arb_clock *clock, arb_color side, int64_t now);

/* Corrects a side's count of completed moves (FIDE 6.10.2, 8.6): the period and the moves
 * made in it follow from the count; no time is added or taken.  ARB_ERR_ARGUMENT for a bad
 * side or a count above 10^9. */
ARB_API arb_status arb_clock_set_moves(arb_clock *clock, arb_color side, uint32_t moves);

/* ---- Queries: pure; a `now` before the clock's last time counts as that time ---- */

/* Side's remaining main time at now, never below 0 (excluding the delay allowance, see
 * arb_clock_delay_left) — what the clock shows; ARB_CLOCK_NEVER for untimed clocks. */
ARB_API int64_t arb_clock_remaining(const arb_clock *clock, arb_color side, int64_t now);
/* The delay the side to move still has for its current move (0 for no delay or when no clock
 * runs). */
ARB_API int64_t arb_clock_delay_left(const arb_clock *clock, int64_t now);
/* The instant the running side's remaining time reaches zero: a press at this millisecond is in
 * time, the flag is down at any later one (a server arms its timer for flag_time + 1).  If that
 * side's flag is already recorded as fallen, when it fell.  ARB_CLOCK_NEVER when no clock runs
 * (READY, PAUSED, STOPPED, untimed moves and controls). */
ARB_API int64_t arb_clock_flag_time(const arb_clock *clock);
/* 1 if side's flag is down at now (recorded, or the running side past its flag time). */
ARB_API int arb_clock_flag_fallen(const arb_clock *clock, arb_color side, int64_t now);
/* When side's flag fell, if it is down at now; ARB_CLOCK_NEVER otherwise.  With both flags
 * down, comparing the two gives the order (a clock always knows it; R23 is for clocks that do
 * not show it). */
ARB_API int64_t arb_clock_flag_fell_at(const arb_clock *clock, arb_color side, int64_t now);
/* ARB_OK if side's flag is down at now, else ARB_ERR_FLAG_NOT_FALLEN (for checking a claim or
 * an arbiter's call, R22); ARB_ERR_ARGUMENT for a NULL clock or bad side. */
ARB_API arb_status arb_clock_check_flag(const arb_clock *clock, arb_color side, int64_t now);

/* The side whose clock is running now (arb_color), or -1 (not started, paused, stopped,
 * untimed). */
ARB_API int arb_clock_running(const arb_clock *clock);
/* The side to move as the clock sees it (the side whose press comes next). */
ARB_API arb_color arb_clock_turn(const arb_clock *clock);
ARB_API arb_clock_state arb_clock_state_of(const arb_clock *clock);
/* Moves completed by side since the start; its current period (0-based). */
ARB_API uint32_t arb_clock_moves(const arb_clock *clock, arb_color side);
ARB_API int arb_clock_period(const arb_clock *clock, arb_color side);
/* 1 if side is in a period in which all remaining moves must be made (sudden death; FIDE
 * Guidelines III "the last period") — 0 in a repeating period and on untimed clocks. */
ARB_API int arb_clock_sudden_death(const arb_clock *clock, arb_color side);
/* Total time side's clock has run up to now (pauses and untimed moves excluded). */
ARB_API int64_t arb_clock_elapsed(const arb_clock *clock, arb_color side, int64_t now);

/* ======================================================================================== */
/* Flag-fall verdicts                                                                        */
/* ======================================================================================== */

/* How a rule set judges a flag; the whole table is in src/clock/flag.c. */
typedef enum arb_flag_mate_test {
  /* FIDE 6.9: draw if the opponent cannot checkmate by any series of legal moves —
   * arb_cannot_mate(), the one function flag fall and resignation share (status.h). */
  ARB_MATE_TEST_FIDE = 0,
  /* US Chess 14E/14D4 (arb_flag_uscf_insufficient). */
  ARB_MATE_TEST_USCF = 1,
  /* lichess's material predicate (arb_flag_online_insufficient). */
  ARB_MATE_TEST_ONLINE = 2
} arb_flag_mate_test;

typedef struct arb_clock_rules {
  const char *name;    /* the rule set's name, as arb_rules */
  uint8_t mate_test;   /* arb_flag_mate_test */
  uint8_t offer_saves; /* a pending draw offer by the player with time makes it a draw */
  uint8_t auto_flag;   /* the server sees every flag at once (no claim, no arbiter call) */
  uint8_t model;       /* the default arb_clock_model for this rule set */
} arb_clock_rules;

/* The clock-layer row of a rule set (NULL for an out-of-range value). */
ARB_API const arb_clock_rules *arb_clock_rules_get(arb_ruleset rules);

typedef enum arb_flag_reason {
  ARB_FLAG_NONE = 0,      /* not a verdict (invalid arguments) */
  ARB_FLAG_LOSS,          /* the flagged player loses on time */
  ARB_FLAG_CANNOT_MATE,   /* draw: the opponent cannot checkmate (FIDE 6.9) */
  ARB_FLAG_INSUFFICIENT,  /* draw: the opponent's material cannot win on time (US 14E, online) */
  ARB_FLAG_DEAD_POSITION, /* draw: the position is dead (US 14D4) */
  ARB_FLAG_DRAW_OFFER,    /* draw: the player with time had offered a draw (online) */
  ARB_FLAG_BOTH_FLAGS,    /* draw: both flags down, order unknown, sudden-death period */
  ARB_FLAG_PLAY_ON,       /* both flags down in an earlier period: the game goes on */
  ARB_FLAG_GAME_OVER,     /* the game had already ended: its result stands */
  ARB_FLAG_REASON_COUNT
} arb_flag_reason;

typedef struct arb_flag_verdict {
  arb_result result; /* 1-0 / 0-1 / draw; ARB_RESULT_NONE for PLAY_ON (and NONE reason) */
  arb_flag_reason reason;
} arb_flag_verdict;

/* "loss", "cannot_mate", "insufficient_material", "dead_position", "draw_offer", "both_flags",
 * "play_on", "game_over"; "" for none. */
ARB_API const char *arb_flag_reason_name(arb_flag_reason reason);

/* The verdict when `flagged`'s flag is considered fallen (R22) in position pos, under rules.
 * current: the game's result so far — anything but ARB_RESULT_NONE stands (a mate or any other
 * end that came first, reason GAME_OVER).  draw_offer_by: the side with a pending draw offer,
 * or -1 (only rule sets with offer_saves use it).  {NONE, NONE} for bad arguments. */
ARB_API arb_flag_verdict arb_flag_fall(const arb_position *pos, arb_color flagged,
                                       arb_ruleset rules, int draw_offer_by, arb_result current);

/* The same for a game: its position, rule set, pending draw offer and outcome.  The game is
 * not changed (ending it with the verdict is the caller's: referee or server). */
ARB_API arb_flag_verdict arb_game_flag_fall(const arb_game *game, arb_color flagged);

/* Both flags down and which fell first cannot be established (R23): a draw when it happened in
 * a sudden-death period (last_period != 0), play on otherwise; current stands as above.  (A
 * clock from this library always knows the order: use arb_clock_flag_fell_at.) */
ARB_API arb_flag_verdict arb_flag_both(arb_ruleset rules, int last_period, arb_result current);

/* ---- Keeping score ---- */

typedef enum arb_record_duty {
  ARB_RECORD_REQUIRED = 0, /* every move must be written down (FIDE 8.1.1, US Chess 15A) */
  ARB_RECORD_LOW_TIME,     /* not for the rest of the period: under five minutes and less than
                              30 s added per move (FIDE 8.4, US Chess 15C) */
  ARB_RECORD_RAPID_BLITZ,  /* not at all: rapid and blitz (FIDE A.2; Appendix B applies it) */
  ARB_RECORD_SERVER,       /* not at all: the server or the players' friendliness keeps the
                              record (online, casual) */
  ARB_RECORD_DUTY_COUNT
} arb_record_duty;

/* Whether a player with remaining_ms on the clock in the current period, increment_ms (or
 * delay) added per move, must keep writing the moves under rules.  A pure function of its
 * arguments; ARB_RECORD_DUTY_COUNT for an out-of-range rule set. */
ARB_API arb_record_duty arb_record_duty_of(arb_ruleset rules, int64_t remaining_ms,
                                           int64_t increment_ms);
/* The article the duty rests on: "FIDE 8.1.1", "FIDE 8.4", "US Chess 15C", ...; "" out of range. */
ARB_API const char *arb_record_duty_article(arb_ruleset rules, arb_record_duty duty);

/* lichess's predicate (scalachess InsufficientMatingMaterial(board, color)): 1 if `side` is
 * declared unable to win on time — a lone king; king + exactly one knight while the other side
 * has only king and queens; king + bishops while all bishops on the board stand on one square
 * colour and the other side has no knight and no pawn — the same classes as
 * arb_cannot_mate_by_material. */
ARB_API int arb_flag_online_insufficient(const arb_position *pos, arb_color side);

/* US Chess 14E, with 14D4 (the whole position dead, arb_is_dead_position): 1 if `side` cannot
 * win on time — a lone king (14E1); king + one bishop or one knight (14E2) or two knights when
 * the opponent has no pawns (14E3), unless `side` has a forced win.  Forced wins are
 * APPROXIMATED: only forced mates within 4 plies of pos are found; a longer forced win (e.g. a
 * K+N+N v K+P mate) is missed and judged a draw where a TD might award the win. */
ARB_API int arb_flag_uscf_insufficient(const arb_position *pos, arb_color side);

/* ======================================================================================== */
/* PGN clock data                                                                            */
/* ======================================================================================== */

/* Reads "h:mm:ss" with an optional fraction ".f" of 0-3 digits (hours 1-5 digits, minutes and
 * seconds 1-2 digits, as chessops) into milliseconds, at most ARB_PGN_CLOCK_MAX_MS.
 * ARB_ERR_ARGUMENT for anything else. */
#define ARB_PGN_CLOCK_MAX_MS INT64_C(359999999999) /* 99999:59:59.999 */
ARB_API arb_status arb_pgn_clock_read(const char *text, size_t len, int64_t *ms);
/* Writes ms (negative counts as 0) as "h:mm:ss", with the shortest fraction that is exact
 * ("0:00:07.3", "1:55:21.05").  snprintf convention. */
ARB_API int arb_pgn_clock_write(int64_t ms, char *buf, size_t size);

/* The clock commands of one PGN comment (PGN supplement 2001); -1 = absent. */
typedef struct arb_pgn_clock_data {
  int64_t clk_ms; /* [%clk]: time left on the mover's clock after the move */
  int64_t emt_ms; /* [%emt]: time spent on the move */
  int64_t egt_ms; /* [%egt]: time used so far in the game */
  int64_t mct_ms; /* [%mct]: reading of a mechanical clock */
} arb_pgn_clock_data;

/* Reads the [%clk], [%emt], [%egt] and [%mct] commands of a comment (its text without or with
 * the surrounding braces).  The last of each kind wins; a command whose value does not read is
 * left in the text.  rest (may be NULL with rest_size 0) receives the comment without those
 * commands — other text and unknown commands untouched, the blanks around each removed command
 * merged, leading and trailing blanks dropped (snprintf convention; *rest_len, if not NULL, gets
 * the full length).  ARB_ERR_ARGUMENT only for NULL comment (with len > 0) or data. */
ARB_API arb_status arb_pgn_comment_clock(const char *comment, size_t len, arb_pgn_clock_data *data,
                                         char *rest, size_t rest_size, size_t *rest_len);

/* Writes the present commands as "[%clk h:mm:ss] [%emt h:mm:ss] [%egt ...] [%mct ...]"
 * (in that order, separated by one blank; "" when none).  snprintf convention. */
ARB_API int arb_pgn_comment_clock_write(const arb_pgn_clock_data *data, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
