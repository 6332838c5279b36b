/* Arbiter — MIT licence, see LICENSE.
 *
 * clock.c: the chess clock (RULES.md R24-R26) as a plain value driven by the caller's time.
 *
 * The side to move's clock is kept as "main time at the start of this move" plus "time on this
 * move"; its remaining time is main - charged(move time), where a delay makes the first
 * delay_ms of every move free.  Nothing is ever subtracted step by step, so there is no drift:
 * every value is one subtraction away from the times the caller passed in.  The flag falls
 * at the instant the remaining time (with the delay) reaches zero — a press at that very
 * millisecond is in time, one later is not (issue 5's acceptance).
 */
#include <string.h>

#include "clock/clock_internal.h"

static int64_t sat_add(int64_t a, int64_t b) {
  /* main times stay in 0 .. ARB_CLOCK_MS_MAX; b may be negative (arbiter adjustments) */
  int64_t r = a + b; /* |a|, |b| <= 2^62: cannot overflow */
  return r < 0 ? 0 : r > ARB_CLOCK_MS_MAX ? ARB_CLOCK_MS_MAX : r;
}

static int timed(const arb_clock *c) {
  return c->tc.kind == ARB_TC_PERIODS || c->tc.kind == ARB_TC_SANDCLOCK;
}
static int sandclock(const arb_clock *c) { return c->tc.kind == ARB_TC_SANDCLOCK; }
static int bad_side(arb_color s) { return (unsigned)s > 1; }
static int bad_time(int64_t t) { return t < 0 || t > ARB_CLOCK_TIME_MAX; }

static const arb_tc_period *cur_period(const arb_clock *c, int side) {
  return &c->tc.periods[c->period[side]];
}

/* The side to move's clock is running (not READY/PAUSED/STOPPED, not an untimed move). */
static int runs(const arb_clock *c) {
  return c->state == ARB_CLOCK_RUNNING && timed(c) && c->untimed == 0;
}
/* The side to move is in the middle of a timed move (running or paused). */
static int in_move(const arb_clock *c) {
  return (c->state == ARB_CLOCK_RUNNING || c->state == ARB_CLOCK_PAUSED) && timed(c) &&
         c->untimed == 0;
}

/* The delay the side to move has per move (0 without delay, or for Bronstein when the flag
 * falls on the main time alone: the delay is only given back after the move). */
static int64_t delay_of(const arb_clock *c) {
  if (sandclock(c)) return 0;
  return cur_period(c, c->turn)->delay_ms;
}
static int64_t delay_for_flag(const arb_clock *c) {
  if (sandclock(c)) return 0;
  const arb_tc_period *p = cur_period(c, c->turn);
  if (p->delay_kind == ARB_DELAY_BRONSTEIN && c->tc.bronstein_flag_at_main) return 0;
  return p->delay_ms;
}

/* Time on the current move at now (now >= last). */
static int64_t move_time(const arb_clock *c, int64_t now) {
  return c->move_ms + (c->state == ARB_CLOCK_RUNNING ? now - c->mark_ms : 0);
}
/* Main time a move of t ms costs when completed (the delay is free). */
static int64_t charged(const arb_clock *c, int64_t t) {
  int64_t d = delay_of(c);
  return t > d ? t - d : 0;
}
/* Main time shown during a move of t ms so far: as charged, except on a Bronstein clock that
 * flags on the main time, which runs down the whole time and gives the delay back afterwards. */
static int64_t shown_charge(const arb_clock *c, int64_t t) {
  return delay_for_flag(c) == delay_of(c) ? charged(c, t) : t;
}
/* The time allowed for the current move: past it the flag is down. */
static int64_t allowed(const arb_clock *c) { return c->main_ms[c->turn] + delay_for_flag(c); }
/* Clamps a query time to what the clock has seen. */
static int64_t clamp_now(const arb_clock *c, int64_t now) {
  if (now < c->last_ms) now = c->last_ms;
  if (now > ARB_CLOCK_TIME_MAX) now = ARB_CLOCK_TIME_MAX;
  return now < 0 ? 0 : now;
}

/* Checks a state-changing call's time. */
static arb_status check_time(const arb_clock *c, int64_t now) {
  if (bad_time(now)) return ARB_ERR_ARGUMENT;
  return now < c->last_ms ? ARB_ERR_TIME_BACKWARDS : ARB_OK;
}

/* The side to move's flag, if it fell during this move by now: records when. */
static void record_fall(arb_clock *c, int64_t now) {
  if (!in_move(c) || c->flag_ms[c->turn] != ARB_CLOCK_NEVER) return;
  int64_t a = allowed(c);
  if (move_time(c, now) > a) c->flag_ms[c->turn] = c->mark_ms + (a - c->move_ms);
}

/* Folds the running stretch into move_ms / elapsed_ms and moves the mark to now. */
static void fold(arb_clock *c, int64_t now) {
  if (c->state != ARB_CLOCK_RUNNING) return;
  c->move_ms += now - c->mark_ms;
  if (timed(c) && c->untimed == 0) c->elapsed_ms[c->turn] += now - c->mark_ms;
  c->mark_ms = now;
}

/* Charges the side to move for the move so far (at a press or a stop); returns the charge. */
static int64_t charge_move(arb_clock *c) {
  int s = c->turn, o = s ^ 1;
  int64_t t = c->move_ms, ch;
  if (sandclock(c)) {
    ch = t < c->main_ms[s] ? t : c->main_ms[s];
    c->main_ms[s] -= ch;
    c->main_ms[o] = sat_add(c->main_ms[o], ch);
  } else {
    ch = charged(c, t);
    if (ch > c->main_ms[s]) ch = c->main_ms[s];
    c->main_ms[s] -= ch;
  }
  return ch;
}

/* Counts a completed move of side s; returns 1 if it completed a period. */
static int count_move(arb_clock *c, int s) {
  c->moves[s]++;
  if (c->tc.kind != ARB_TC_PERIODS) return 0;
  const arb_tc_period *p = cur_period(c, s);
  if (p->moves == 0 || ++c->period_moves[s] < p->moves) return 0;
  c->period_moves[s] = 0;
  if (c->period[s] + 1 < c->tc.nperiods) c->period[s]++; /* else the last period repeats */
  return 1;
}

arb_status arb_clock_init(arb_clock *clock, const arb_time_control *tc) {
  if (!clock || arb_tc_validate(tc) != ARB_OK) return ARB_ERR_ARGUMENT;
  arb_clock c;
  memset(&c, 0, sizeof c);
  c.tc = *tc;
  c.last_ms = INT64_MIN;
  c.flag_ms[0] = c.flag_ms[1] = ARB_CLOCK_NEVER;
  c.state = ARB_CLOCK_READY;
  c.turn = ARB_WHITE;
  if (timed(&c)) {
    int64_t base = tc->periods[0].time_ms;
    if (tc->kind == ARB_TC_PERIODS && tc->model == ARB_MODEL_BEFORE_MOVE)
      base += tc->periods[0].increment_ms;
    c.main_ms[0] = c.main_ms[1] = base;
    c.untimed = tc->kind == ARB_TC_PERIODS && tc->model == ARB_MODEL_ONLINE ? 2 : 0;
  }
  *clock = c;
  return ARB_OK;
}

arb_status arb_clock_start(arb_clock *c, arb_color first, int64_t now) {
  if (!c || bad_side(first)) return ARB_ERR_ARGUMENT;
  arb_status st = check_time(c, now);
  if (st != ARB_OK) return st;
  if (c->state != ARB_CLOCK_READY) return ARB_ERR_CLOCK_STATE;
  c->state = ARB_CLOCK_RUNNING;
  c->turn = (uint8_t)first;
  c->mark_ms = c->last_ms = c->move_start_ms = now;
  c->move_ms = 0;
  return ARB_OK;
}

arb_status arb_clock_press(arb_clock *c, arb_color side, int64_t now, unsigned flags,
                           arb_press_info *info) {
  return arb_clock_press_lag(c, side, now, 0, flags, info);
}

arb_status arb_clock_press_lag(arb_clock *c, arb_color side, int64_t now, int64_t comp,
                               unsigned flags, arb_press_info *info) {
  if (!c || bad_side(side) || comp < 0) return ARB_ERR_ARGUMENT;
  arb_status st = check_time(c, now);
  if (st != ARB_OK) return st;
  if (c->state != ARB_CLOCK_RUNNING) return ARB_ERR_CLOCK_STATE;
  if ((int)side != c->turn) return ARB_ERR_NOT_YOUR_TURN;
  arb_press_info in;
  memset(&in, 0, sizeof in);
  int s = side, o = s ^ 1, ends = (flags & ARB_PRESS_ENDS_GAME) != 0;

  if (!in_move(c)) { /* untimed: online first moves, untimed controls */
    in.untimed = 1;
    in.move_ms = c->move_ms + (now - c->mark_ms);
    in.period_changed = (uint8_t)count_move(c, s);
    if (c->untimed) c->untimed--;
  } else {
    /* The lag granted comes off the move before the flag is judged: fold first, then take the
     * compensation out of the move and its elapsed time, then look for a fall. */
    fold(c, now);
    if (comp > c->move_ms) comp = c->move_ms;
    c->move_ms -= comp;
    c->elapsed_ms[s] -= comp;
    in.comp_ms = comp;
    record_fall(c, now);
    in.move_ms = c->move_ms;
    in.charged_ms = charge_move(c);
    int down = c->flag_ms[s] != ARB_CLOCK_NEVER;
    in.late = (uint8_t)(down && c->flag_ms[s] >= c->move_start_ms); /* fell during this move */
    in.flag_down = (uint8_t)down;
    if (down && !sandclock(c)) c->main_ms[s] = 0;
    /* Increments: after the move for the move's period; before the move for the period of the
     * next move (so a period change is applied first). */
    int64_t credit = 0;
    const arb_tc_period *p = sandclock(c) ? NULL : cur_period(c, s);
    if (p && c->tc.model != ARB_MODEL_BEFORE_MOVE) credit += p->increment_ms;
    in.period_changed = (uint8_t)count_move(c, s);
    if (p && in.period_changed) credit += cur_period(c, s)->time_ms;
    if (p && c->tc.model == ARB_MODEL_BEFORE_MOVE) credit += cur_period(c, s)->increment_ms;
    if (!down && !ends) {
      c->main_ms[s] = sat_add(c->main_ms[s], credit);
      in.credited_ms = credit;
    }
  }
  c->turn = (uint8_t)o;
  c->move_ms = 0;
  c->mark_ms = c->last_ms = c->move_start_ms = now;
  if (ends) c->state = ARB_CLOCK_STOPPED;
  if (info) *info = in;
  return ARB_OK;
}

arb_status arb_clock_pause(arb_clock *c, int64_t now) {
  if (!c) return ARB_ERR_ARGUMENT;
  arb_status st = check_time(c, now);
  if (st != ARB_OK) return st;
  if (c->state != ARB_CLOCK_RUNNING) return ARB_ERR_CLOCK_STATE;
  record_fall(c, now);
  fold(c, now);
  c->state = ARB_CLOCK_PAUSED;
  c->last_ms = now;
  return ARB_OK;
}

arb_status arb_clock_resume(arb_clock *c, int64_t now) {
  if (!c) return ARB_ERR_ARGUMENT;
  arb_status st = check_time(c, now);
  if (st != ARB_OK) return st;
  if (c->state != ARB_CLOCK_PAUSED) return ARB_ERR_CLOCK_STATE;
  c->state = ARB_CLOCK_RUNNING;
  c->mark_ms = c->last_ms = now;
  return ARB_OK;
}

arb_status arb_clock_stop(arb_clock *c, int64_t now) {
  if (!c) return ARB_ERR_ARGUMENT;
  arb_status st = check_time(c, now);
  if (st != ARB_OK) return st;
  if (c->state == ARB_CLOCK_STOPPED) return ARB_OK;
  if (in_move(c)) {
    record_fall(c, now);
    fold(c, now);
    charge_move(c);
    if (c->flag_ms[c->turn] != ARB_CLOCK_NEVER && !sandclock(c)) c->main_ms[c->turn] = 0;
  }
  c->move_ms = 0;
  c->state = ARB_CLOCK_STOPPED;
  c->mark_ms = c->last_ms = now;
  return ARB_OK;
}

/* Sets side's remaining time at now to target (0 .. ARB_CLOCK_MS_MAX).  The side to move's
 * remaining time is main - charge(move time), so main absorbs the charge so far; in a sand clock
 * the other side's remaining time also depends on the running side's main time, so it is kept. */
static void set_remaining(arb_clock *c, int side, int64_t target, int64_t now) {
  if (!in_move(c)) {
    c->main_ms[side] = target;
  } else {
    int turn = c->turn, other = turn ^ 1;
    int64_t t = move_time(c, now), keep = arb_clock_remaining(c, (arb_color)other, now);
    if (side == turn) {
      c->main_ms[turn] = target + (sandclock(c) ? t : shown_charge(c, t));
      if (sandclock(c)) side = other, target = keep; /* then restore the other side below */
    }
    if (side == other) {
      if (sandclock(c)) {
        /* remaining(other) = main + min(t, main[turn]); main may go below 0 here. */
        int64_t m = c->main_ms[turn];
        c->main_ms[other] = target - (t < m ? t : m);
      } else {
        c->main_ms[other] = target;
      }
    }
  }
}

static arb_status adjust_common(arb_clock *c, arb_color side, int64_t now) {
  if (!c || bad_side(side)) return ARB_ERR_ARGUMENT;
  arb_status st = check_time(c, now);
  if (st != ARB_OK) return st;
  if (c->state == ARB_CLOCK_STOPPED) return ARB_ERR_CLOCK_STATE;
  record_fall(c, now);
  c->last_ms = now;
  return ARB_OK;
}

static void lift_flag(arb_clock *c, arb_color side, int64_t now) {
  if (arb_clock_remaining(c, side, now) > 0) c->flag_ms[side] = ARB_CLOCK_NEVER;
}

arb_status arb_clock_adjust(arb_clock *c, arb_color side, int64_t delta_ms, int64_t now) {
  if (delta_ms < -ARB_CLOCK_MS_MAX || delta_ms > ARB_CLOCK_MS_MAX) return ARB_ERR_ARGUMENT;
  arb_status st = adjust_common(c, side, now);
  if (st != ARB_OK || !timed(c)) return st;
  set_remaining(c, side, sat_add(arb_clock_remaining(c, side, now), delta_ms), now);
  lift_flag(c, side, now);
  return ARB_OK;
}

arb_status arb_clock_set(arb_clock *c, arb_color side, int64_t ms, int64_t now) {
  if (ms < 0 || ms > ARB_CLOCK_MS_MAX) return ARB_ERR_ARGUMENT;
  arb_status st = adjust_common(c, side, now);
  if (st != ARB_OK || !timed(c)) return st;
  set_remaining(c, side, ms, now);
  lift_flag(c, side, now);
  return ARB_OK;
}

arb_status arb_clock_hand_over(arb_clock *c, arb_color side, int64_t now) {
  if (!c || bad_side(side)) return ARB_ERR_ARGUMENT;
  int running = arb_clock_running(c);
  if (running < 0 || running == (int)side) return ARB_OK;
  /* a press, undone in what it credits and counts */
  uint32_t moves = c->moves[running];
  arb_press_info info;
  arb_status s = arb_clock_press(c, (arb_color)running, now, 0, &info);
  if (s != ARB_OK) return s;
  if (info.credited_ms) arb_clock_adjust(c, (arb_color)running, -info.credited_ms, now);
  return arb_clock_set_moves(c, (arb_color)running, moves);
}

arb_status arb_clock_set_moves(arb_clock *c, arb_color side, uint32_t moves) {
  if (!c || bad_side(side) || moves > 1000000000u) return ARB_ERR_ARGUMENT;
  c->moves[side] = moves;
  c->period[side] = 0;
  c->period_moves[side] = 0;
  if (c->tc.kind != ARB_TC_PERIODS) return ARB_OK;
  /* Walk the periods: the next move is move `moves + 1`. */
  int p = arb_tc_period_of_move(&c->tc, moves + 1);
  uint64_t first = 1;
  for (int i = 0; i < p; i++)
    first += c->tc.periods[i].moves;
  uint64_t into = moves + 1 - first;
  uint32_t m = c->tc.periods[p].moves;
  c->period[side] = (uint8_t)p;
  c->period_moves[side] = m ? (uint32_t)(into % m) : (uint32_t)into;
  return ARB_OK;
}

/* ---- queries ---- */

int64_t arb_clock_remaining(const arb_clock *c, arb_color side, int64_t now) {
  if (!c || bad_side(side)) return 0;
  if (!timed(c)) return ARB_CLOCK_NEVER;
  now = clamp_now(c, now);
  if (!in_move(c)) return c->main_ms[side];
  int64_t t = move_time(c, now), m = c->main_ms[c->turn];
  if (sandclock(c)) {
    int64_t used = t < m ? t : m;
    return side == c->turn ? m - used : sat_add(c->main_ms[side], used); /* main may be < 0 */
  }
  if ((int)side != c->turn) return c->main_ms[side];
  int64_t r = m - shown_charge(c, t);
  return r < 0 ? 0 : r;
}

int64_t arb_clock_delay_left(const arb_clock *c, int64_t now) {
  if (!c || !in_move(c)) return 0;
  int64_t d = delay_of(c), t = move_time(c, clamp_now(c, now));
  return t < d ? d - t : 0;
}

int64_t arb_clock_flag_time(const arb_clock *c) {
  if (!c || !in_move(c)) return ARB_CLOCK_NEVER;
  if (c->flag_ms[c->turn] != ARB_CLOCK_NEVER) return c->flag_ms[c->turn];
  if (c->state != ARB_CLOCK_RUNNING) return ARB_CLOCK_NEVER;
  return c->mark_ms + (allowed(c) - c->move_ms);
}

int64_t arb_clock_flag_fell_at(const arb_clock *c, arb_color side, int64_t now) {
  if (!c || bad_side(side)) return ARB_CLOCK_NEVER;
  now = clamp_now(c, now);
  if (c->flag_ms[side] != ARB_CLOCK_NEVER) return c->flag_ms[side];
  if (in_move(c) && (int)side == c->turn) {
    int64_t a = allowed(c);
    if (move_time(c, now) > a) return c->mark_ms + (a - c->move_ms);
  }
  return ARB_CLOCK_NEVER;
}

int arb_clock_flag_fallen(const arb_clock *c, arb_color side, int64_t now) {
  return arb_clock_flag_fell_at(c, side, now) != ARB_CLOCK_NEVER;
}

arb_status arb_clock_check_flag(const arb_clock *c, arb_color side, int64_t now) {
  if (!c || bad_side(side)) return ARB_ERR_ARGUMENT;
  return arb_clock_flag_fallen(c, side, now) ? ARB_OK : ARB_ERR_FLAG_NOT_FALLEN;
}

int arb_clock_running(const arb_clock *c) { return c && runs(c) ? c->turn : -1; }
arb_color arb_clock_turn(const arb_clock *c) { return c ? (arb_color)c->turn : ARB_WHITE; }
arb_clock_state arb_clock_state_of(const arb_clock *c) {
  return c ? (arb_clock_state)c->state : ARB_CLOCK_READY;
}
uint32_t arb_clock_moves(const arb_clock *c, arb_color side) {
  return c && !bad_side(side) ? c->moves[side] : 0;
}
int arb_clock_period(const arb_clock *c, arb_color side) {
  return c && !bad_side(side) ? c->period[side] : 0;
}
int arb_clock_sudden_death(const arb_clock *c, arb_color side) {
  if (!c || bad_side(side) || !timed(c)) return 0;
  return sandclock(c) || cur_period(c, side)->moves == 0;
}
int64_t arb_clock_elapsed(const arb_clock *c, arb_color side, int64_t now) {
  if (!c || bad_side(side)) return 0;
  int64_t e = c->elapsed_ms[side];
  if (runs(c) && (int)side == c->turn) e += clamp_now(c, now) - c->mark_ms;
  return e;
}
