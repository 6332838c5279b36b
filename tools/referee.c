/* Arbiter — MIT licence, see LICENSE.
 *
 * referee.c: the event handler behind `arbiter referee` (also driven by the fuzz target).
 *
 * Each input line is one event; it is parsed into one struct (ref_event) and handed to the
 * handler found in one dispatch table (handlers[]).  Every answer carries the state of the game
 * after the event, so a client never has to keep its own copy.  Bad input never stops the stream.
 *
 * Time: a game started with a "control" is timed.  Its events carry "t", milliseconds that never
 * go back; White's clock starts at the start event's t (under the online model nothing runs
 * until each side has made a first move).  Moves press the clock; a "flag" event says a flag
 * fell and is checked against the clock; under rule sets whose server sees every flag (online)
 * any event after the fall ends the game on time first.  Wrong claims cost clock time.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "referee.h"

#include "arbiter/arbiter.h"

typedef struct ref_event {
  const char *type;
  int64_t t;        /* "t" in milliseconds, or -1 when absent */
  int side;         /* "side" (flag events): arb_color, or -1 */
  int by;           /* arb_color, or -1 when absent */
  const char *move; /* "move": SAN or UCI */
  size_t move_len;
  const char *reason; /* claim_draw: "threefold" | "fifty" */
  json_t *json;       /* the whole event, for handlers with fields of their own */
} ref_event;

struct ref_state {
  arb_game *game;
  arb_ruleset default_rules;
  json_t *players; /* {"white": name, "black": name} or NULL */
  int timed;       /* the game has a clock */
  arb_clock clock;
  int64_t last_t; /* the latest event time seen, -1 before any */
  int flag_side;  /* the side whose flag ended the game, or -1 */
  arb_flag_reason flag_reason;
  /* --pgn: every game is written there when the next one starts and at the end. */
  FILE *pgn;
  arb_time_control tc;
  int64_t *clk; /* time left on the mover's clock after each ply (index ply - 1), -1 unknown */
  int clk_cap;
};

ref_state *ref_state_new(arb_ruleset default_rules) {
  ref_state *st = calloc(1, sizeof *st);
  if (!st) return NULL;
  st->default_rules = default_rules;
  st->last_t = -1;
  st->flag_side = -1;
  return st;
}

static const char *color_name(int c) { return c == ARB_WHITE ? "white" : "black"; }

/* Writes the game so far in PGN export format, with TimeControl and a [%clk] per move. */
static void write_pgn(ref_state *st) {
  if (!st->pgn || !st->game) return;
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  if (!w) return;
  const arb_game *g = st->game;
  arb_outcome o = arb_game_outcome(g);
  const arb_position *start = arb_game_position_at(g, 0);
  arb_pgn_writer_begin_game(w);
  for (int c = 0; c < 2; c++) {
    json_t *name = json_object_get(st->players, color_name(c));
    if (json_is_string(name))
      arb_pgn_writer_tag(w, c ? "Black" : "White", 5, json_string_value(name),
                         json_string_length(name));
  }
  const char *res = arb_result_string(o.result);
  arb_pgn_writer_tag(w, "Result", 6, res, strlen(res));
  char buf[ARB_FEN_MAX + 16];
  if (st->timed) {
    int n = arb_tc_write(&st->tc, ARB_TC_PGN, buf, sizeof buf);
    if (n > 0 && (size_t)n < sizeof buf) arb_pgn_writer_tag(w, "TimeControl", 11, buf, (size_t)n);
  }
  const char *term = o.result == ARB_RESULT_NONE              ? "unterminated"
                     : o.termination == ARB_TERM_TIME_FORFEIT ? "time forfeit"
                                                              : "normal";
  arb_pgn_writer_tag(w, "Termination", 11, term, strlen(term));
  if (start->chess960) arb_pgn_writer_tag(w, "Variant", 7, "Chess960", 8);
  arb_fen_write(start, buf, sizeof buf, 0);
  if (start->chess960 || strcmp(buf, ARB_FEN_START) != 0) {
    arb_pgn_writer_tag(w, "SetUp", 5, "1", 1);
    arb_pgn_writer_tag(w, "FEN", 3, buf, strlen(buf));
  }
  for (int i = 1; i <= arb_game_ply_count(g); i++) {
    arb_pgn_writer_move(w, arb_game_position_at(g, i - 1), arb_game_move_at(g, i));
    if (st->timed && i <= st->clk_cap && st->clk[i - 1] >= 0) {
      memcpy(buf, "[%clk ", 6);
      int n = arb_pgn_clock_write(st->clk[i - 1], buf + 6, sizeof buf - 7);
      if (n > 0 && (size_t)n < sizeof buf - 7) {
        buf[6 + n] = ']';
        arb_pgn_writer_comment(w, buf, (size_t)n + 7);
      }
    }
  }
  arb_pgn_writer_end_game(w, o.result);
  size_t len;
  const char *text = arb_pgn_writer_data(w, &len);
  fwrite(text, 1, len, st->pgn);
  fflush(st->pgn);
  arb_pgn_writer_free(w);
}

void ref_state_set_pgn(ref_state *st, FILE *out) { st->pgn = out; }

/* Remembers the time left on the mover's clock after ply `ply`. */
static void record_clock(ref_state *st, int ply, int64_t ms) {
  if (ply > st->clk_cap) {
    int cap = st->clk_cap ? st->clk_cap * 2 : 128;
    while (cap < ply)
      cap *= 2;
    int64_t *c = realloc(st->clk, (size_t)cap * sizeof *c);
    if (!c) return;
    for (int i = st->clk_cap; i < cap; i++)
      c[i] = -1;
    st->clk = c;
    st->clk_cap = cap;
  }
  st->clk[ply - 1] = ms;
}

void ref_state_free(ref_state *st) {
  if (!st) return;
  write_pgn(st);
  free(st->clk);
  arb_game_free(st->game);
  json_decref(st->players);
  free(st);
}

/* A handler fills `answer` with event-specific fields and returns ARB_OK, or returns an error
 * status with *code / *message set for the error object. */
typedef arb_status (*ref_handler)(ref_state *st, const ref_event *ev, json_t *answer,
                                  const char **code, char *message, size_t message_size);

static arb_status need_by(const ref_event *ev, const char **code, char *msg, size_t size) {
  if (ev->by >= 0) return ARB_OK;
  *code = "bad_event";
  snprintf(msg, size, "\"%s\" needs \"by\": \"white\" or \"black\"", ev->type);
  return ARB_ERR_ARGUMENT;
}

static arb_status ev_start(ref_state *st, const ref_event *ev, json_t *answer, const char **code,
                           char *msg, size_t size) {
  (void)answer;
  arb_ruleset rules = st->default_rules;
  json_t *r = json_object_get(ev->json, "rules");
  if (r && (!json_is_string(r) || arb_rules_parse(json_string_value(r), &rules) != ARB_OK)) {
    *code = "bad_event";
    snprintf(msg, size,
             "\"rules\" must be one of fide, fide-rapid, fide-blitz, uscf, online, "
             "casual");
    return ARB_ERR_ARGUMENT;
  }
  arb_position pos;
  uint32_t mode = 0; /* "chess960": true / false, else inferred from the castling rights */
  json_t *c960 = json_object_get(ev->json, "chess960");
  if (c960 && !json_is_boolean(c960)) {
    *code = "bad_event";
    snprintf(msg, size, "\"chess960\" must be true or false");
    return ARB_ERR_ARGUMENT;
  }
  if (c960) mode = json_is_true(c960) ? ARB_FEN_READ_CHESS960 : ARB_FEN_READ_STANDARD;
  json_t *fen = json_object_get(ev->json, "fen");
  if (fen) {
    arb_fen_report rep;
    arb_status s = json_is_string(fen) ? arb_fen_read_n(&pos, json_string_value(fen),
                                                        json_string_length(fen), mode, &rep)
                                       : ARB_ERR_FEN_SYNTAX;
    if (s != ARB_OK) {
      *code = s == ARB_ERR_FEN_INVALID ? "fen_invalid" : "fen_syntax";
      snprintf(msg, size, "%s", json_is_string(fen) ? rep.message : "\"fen\" must be a string");
      return s;
    }
  } else {
    arb_fen_read(&pos, ARB_FEN_START, mode, NULL);
  }
  json_t *nd = json_object_get(ev->json, "no_draw_before");
  if (nd && (!json_is_integer(nd) || json_integer_value(nd) < 0)) {
    *code = "bad_event";
    snprintf(msg, size, "\"no_draw_before\" must be a move number");
    return ARB_ERR_ARGUMENT;
  }
  arb_game *g = arb_game_new(&pos, rules);
  if (!g) {
    *code = "no_memory";
    snprintf(msg, size, "out of memory");
    return ARB_ERR_NO_MEMORY;
  }
  if (nd) arb_game_set_no_draw_before(g, (unsigned)json_integer_value(nd));
  /* The clock: "control" in the PGN TimeControl or the human grammar, "clock" the model. */
  /* "control": the human grammar ("90+30" is 90 minutes and 30 s; PGN form when it has a ':');
   * "timecontrol": the PGN TimeControl tag ("300+2" is 300 s and 2 s). */
  json_t *control = json_object_get(ev->json, "control"),
         *model = json_object_get(ev->json, "clock");
  arb_tc_syntax syntax = ARB_TC_AUTO;
  if (!control && (control = json_object_get(ev->json, "timecontrol"))) syntax = ARB_TC_PGN;
  arb_clock clock;
  if (control) {
    arb_time_control tc;
    arb_tc_report rep;
    arb_status s = json_is_string(control)
                       ? arb_tc_parse(json_string_value(control), json_string_length(control),
                                      syntax, &tc, &rep)
                       : ARB_ERR_TC_SYNTAX;
    if (s != ARB_OK) {
      arb_game_free(g);
      *code = "tc_syntax";
      snprintf(msg, size, "\"control\": %s (column %d)",
               json_is_string(control) ? rep.message : "must be a string", rep.column + 1);
      return s;
    }
    arb_clock_model m = (arb_clock_model)arb_clock_rules_get(rules)->model;
    if (model &&
        (!json_is_string(model) || arb_clock_model_parse(json_string_value(model), &m) != ARB_OK)) {
      arb_game_free(g);
      *code = "bad_event";
      snprintf(msg, size, "\"clock\" must be after_move, before_move or online");
      return ARB_ERR_ARGUMENT;
    }
    tc.model = (uint8_t)m;
    if (ev->t < 0 || arb_clock_init(&clock, &tc) != ARB_OK ||
        arb_clock_start(&clock, (arb_color)pos.turn, ev->t) != ARB_OK) {
      arb_game_free(g);
      *code = "bad_event";
      snprintf(msg, size, "a timed game needs \"t\" (milliseconds) on its start event");
      return ARB_ERR_ARGUMENT;
    }
  }
  write_pgn(st); /* the game this start replaces */
  for (int i = 0; i < st->clk_cap; i++)
    st->clk[i] = -1;
  st->timed = control != NULL;
  if (control) {
    st->clock = clock;
    st->tc = clock.tc;
  }
  st->flag_side = -1;
  arb_game_free(st->game);
  st->game = g;
  json_decref(st->players);
  st->players = json_object();
  for (int c = 0; c < 2; c++) {
    json_t *name = json_object_get(ev->json, color_name(c));
    if (json_is_string(name)) json_object_set(st->players, color_name(c), name);
  }
  return ARB_OK;
}

static arb_status ev_move(ref_state *st, const ref_event *ev, json_t *answer, const char **code,
                          char *msg, size_t size) {
  const arb_position *p = arb_game_position(st->game);
  if (!ev->move) {
    *code = "bad_event";
    snprintf(msg, size, "\"move\" needs \"move\": a move in SAN or UCI");
    return ARB_ERR_ARGUMENT;
  }
  if (arb_game_outcome(st->game).result != ARB_RESULT_NONE) return ARB_ERR_GAME_OVER;
  if (ev->by >= 0 && ev->by != p->turn) return ARB_ERR_NOT_YOUR_TURN;
  arb_move m;
  arb_san_error err;
  arb_status s = arb_move_read(p, ev->move, ev->move_len, 0, &m, &err);
  if (s != ARB_OK) {
    *code = s == ARB_ERR_MOVE_SYNTAX      ? "bad_move"
            : s == ARB_ERR_MOVE_AMBIGUOUS ? "ambiguous_move"
                                          : "illegal_move";
    snprintf(msg, size, "%s", err.message);
    return s;
  }
  char san[ARB_SAN_MAX], uci[8];
  arb_san_write(p, m, san, sizeof san);
  arb_uci_write(p, m, uci, sizeof uci);
  arb_color mover = (arb_color)p->turn;
  if (st->timed) {
    /* The board and the clock move together or not at all: try the press on a copy first. */
    arb_clock trial = st->clock;
    s = arb_clock_press(&trial, mover, ev->t, 0, NULL);
    if (s != ARB_OK) {
      *code = s == ARB_ERR_TIME_BACKWARDS ? "time_backwards" : "clock_state";
      snprintf(msg, size, "the clock cannot take this move: %s", arb_strerror(s));
      return s;
    }
  }
  s = arb_game_play(st->game, m);
  if (s != ARB_OK) return s;
  json_object_set_new(answer, "san", json_string(san));
  json_object_set_new(answer, "uci", json_string(uci));
  if (st->timed) {
    /* A game-ending move is complete without a press (FIDE 6.2.1.1): time charged, no
     * increment, the clock stops. */
    arb_press_info info;
    unsigned flags = arb_game_outcome(st->game).result != ARB_RESULT_NONE ? ARB_PRESS_ENDS_GAME : 0;
    if (arb_clock_press(&st->clock, mover, ev->t, flags, &info) == ARB_OK && info.late)
      json_object_set_new(answer, "late", json_true()); /* the flag fell during the move */
    record_clock(st, arb_game_ply_count(st->game), arb_clock_remaining(&st->clock, mover, ev->t));
  }
  return ARB_OK;
}

/* Events that are one call by one player: offer, accept and decline a draw, resign. */
typedef arb_status (*player_action)(arb_game *game, arb_color by);

static arb_status player_event(ref_state *st, const ref_event *ev, player_action action,
                               const char **code, char *msg, size_t size) {
  arb_status s = need_by(ev, code, msg, size);
  if (s) return s;
  s = action(st->game, (arb_color)ev->by);
  if (s == ARB_ERR_NOT_ALLOWED && action == arb_game_accept_draw) {
    *code = "not_allowed";
    snprintf(msg, size,
             "no agreed draw yet: each player must have moved (FIDE 5.2.3) and the "
             "event's minimum move number must be reached");
  }
  return s;
}

#define PLAYER_EVENT(name, action)                                                                 \
  static arb_status name(ref_state *st, const ref_event *ev, json_t *answer, const char **code,    \
                         char *msg, size_t size) {                                                 \
    (void)answer;                                                                                  \
    return player_event(st, ev, action, code, msg, size);                                          \
  }
PLAYER_EVENT(ev_offer, arb_game_offer_draw)
PLAYER_EVENT(ev_accept, arb_game_accept_draw)
PLAYER_EVENT(ev_decline, arb_game_decline_draw)
PLAYER_EVENT(ev_resign, arb_game_resign)
#undef PLAYER_EVENT

static arb_status ev_claim(ref_state *st, const ref_event *ev, json_t *answer, const char **code,
                           char *msg, size_t size) {
  arb_status s = need_by(ev, code, msg, size);
  if (s) return s;
  arb_claim_reason reason;
  if (ev->reason && !strcmp(ev->reason, "threefold")) {
    reason = ARB_CLAIM_THREEFOLD;
  } else if (ev->reason && !strcmp(ev->reason, "fifty")) {
    reason = ARB_CLAIM_FIFTY;
  } else {
    *code = "bad_event";
    snprintf(msg, size, "\"claim_draw\" needs \"reason\": \"threefold\" or \"fifty\"");
    return ARB_ERR_ARGUMENT;
  }
  arb_move intended = ARB_MOVE_NONE;
  const arb_position *p = arb_game_position(st->game);
  if (ev->move) {
    arb_san_error err;
    s = arb_move_read(p, ev->move, ev->move_len, 0, &intended, &err);
    if (s != ARB_OK) {
      *code = "illegal_move";
      snprintf(msg, size, "intended move: %s", err.message);
      return s;
    }
  }
  arb_claim_verdict v;
  s = arb_game_claim(st->game, (arb_color)ev->by, reason, intended, &v);
  if (s != ARB_OK) return s;
  json_t *c = json_object();
  json_object_set_new(c, "reason", json_string(ev->reason));
  json_object_set_new(c, "correct", json_boolean(v.correct));
  if (!v.correct) {
    /* The penalty is time for the opponent — unless the opponent's flag is already down: time
     * added then must not lift it (the claimant may still call it). */
    arb_color opp = (arb_color)(ev->by ^ 1);
    if (st->timed && v.penalty_s && !arb_clock_flag_fallen(&st->clock, opp, ev->t))
      arb_clock_adjust(&st->clock, opp, (int64_t)v.penalty_s * 1000, ev->t);
    json_object_set_new(c, "penalty_s", json_integer(v.penalty_s));
    json_object_set_new(c, "time_added_to", json_string(color_name(ev->by ^ 1)));
    json_object_set_new(c, "stands_as_offer", json_boolean(v.became_offer));
  }
  if (v.must_play) {
    char uci[8];
    arb_uci_write(p, intended, uci, sizeof uci);
    json_object_set_new(c, "must_play", json_string(uci));
  }
  json_object_set_new(answer, "claim", c);
  return ARB_OK;
}

/* Ends the game on `side`'s flag with the clock layer's verdict for the rule set. */
static void flag_falls(ref_state *st, arb_color side, int64_t t) {
  arb_flag_verdict v = arb_game_flag_fall(st->game, side);
  if (v.result != ARB_RESULT_NONE && v.reason != ARB_FLAG_GAME_OVER &&
      arb_game_time_forfeit(st->game, side, v.result) == ARB_OK) {
    st->flag_side = side;
    st->flag_reason = v.reason;
  }
  arb_clock_stop(&st->clock, t);
}

static arb_status ev_flag(ref_state *st, const ref_event *ev, json_t *answer, const char **code,
                          char *msg, size_t size) {
  (void)answer;
  if (ev->side < 0) {
    *code = "bad_event";
    snprintf(msg, size, "\"flag\" needs \"side\": \"white\" or \"black\" (whose flag fell)");
    return ARB_ERR_ARGUMENT;
  }
  if (!st->timed) {
    *code = "not_allowed";
    snprintf(msg, size, "the game has no clock (start it with a \"control\")");
    return ARB_ERR_NOT_ALLOWED;
  }
  if (arb_game_outcome(st->game).result != ARB_RESULT_NONE) return ARB_ERR_GAME_OVER;
  if (arb_clock_check_flag(&st->clock, (arb_color)ev->side, ev->t) != ARB_OK) {
    *code = "flag_not_fallen";
    snprintf(msg, size, "%s still has %lld ms", ev->side == ARB_WHITE ? "white" : "black",
             (long long)arb_clock_remaining(&st->clock, (arb_color)ev->side, ev->t));
    return ARB_ERR_FLAG_NOT_FALLEN;
  }
  /* Both flags down: the one that fell first decides (a clock always knows the order). */
  arb_color side = (arb_color)ev->side, other = (arb_color)(ev->side ^ 1);
  if (arb_clock_flag_fallen(&st->clock, other, ev->t) &&
      arb_clock_flag_fell_at(&st->clock, other, ev->t) <
          arb_clock_flag_fell_at(&st->clock, side, ev->t))
    side = other;
  flag_falls(st, side, ev->t);
  return ARB_OK;
}

static arb_status ev_state(ref_state *st, const ref_event *ev, json_t *answer, const char **code,
                           char *msg, size_t size) {
  (void)st, (void)ev, (void)answer, (void)code, (void)msg, (void)size;
  return ARB_OK;
}

static const struct {
  const char *type;
  ref_handler fn;
} handlers[] = {
    {"start", ev_start},
    {"move", ev_move},
    {"offer_draw", ev_offer},
    {"accept_draw", ev_accept},
    {"decline_draw", ev_decline},
    {"claim_draw", ev_claim},
    {"resign", ev_resign},
    {"state", ev_state},
    {"flag", ev_flag},
};

/* The state after every event. */
static void describe_state(const ref_state *st, json_t *a) {
  const arb_game *g = st->game;
  const arb_position *p = arb_game_position(g);
  char fen[ARB_FEN_MAX];
  arb_fen_write(p, fen, sizeof fen, 0);
  arb_outcome o = arb_game_outcome(g);
  json_object_set_new(a, "fen", json_string(fen));
  json_object_set_new(a, "turn", json_string(color_name(p->turn)));
  json_object_set_new(a, "ply", json_integer(arb_game_ply_count(g)));
  json_object_set_new(a, "status", json_string(o.result == ARB_RESULT_NONE ? "ongoing" : "over"));
  json_object_set_new(a, "result", json_string(arb_result_string(o.result)));
  json_object_set_new(a, "termination", json_string(arb_termination_name(o.termination)));
  if (o.result != ARB_RESULT_NONE)
    json_object_set_new(a, "ended_by",
                        o.automatic ? json_string("rules") : json_string(color_name(o.by)));
  int offer = arb_game_draw_offer(g);
  json_object_set_new(a, "draw_offer", offer >= 0 ? json_string(color_name(offer)) : json_null());
  json_t *claims = json_array();
  if (o.result == ARB_RESULT_NONE && arb_rules_get(arb_game_rules(g))->claims) {
    arb_game_facts f;
    arb_game_facts_of(g, &f);
    if (f.can_claim_threefold) json_array_append_new(claims, json_string("threefold"));
    if (f.can_claim_fifty) json_array_append_new(claims, json_string("fifty"));
    json_object_set_new(a, "repetitions", json_integer(f.repetitions));
    json_object_set_new(a, "fivefold", json_boolean(f.fivefold));
    json_object_set_new(a, "seventyfive", json_boolean(f.seventyfive));
  }
  json_object_set_new(a, "claims", claims);
  if (st->flag_side >= 0 && o.termination == ARB_TERM_TIME_FORFEIT) {
    json_t *f = json_object();
    json_object_set_new(f, "side", json_string(color_name(st->flag_side)));
    json_object_set_new(f, "reason", json_string(arb_flag_reason_name(st->flag_reason)));
    json_object_set_new(a, "flag", f);
  }
  if (st->timed) {
    int64_t now = st->last_t < 0 ? 0 : st->last_t;
    json_t *c = json_object();
    for (int side = 0; side < 2; side++) {
      int64_t ms = arb_clock_remaining(&st->clock, (arb_color)side, now);
      json_object_set_new(c, side == ARB_WHITE ? "white_ms" : "black_ms",
                          ms == ARB_CLOCK_NEVER ? json_null() : json_integer(ms));
    }
    int running = arb_clock_running(&st->clock);
    json_object_set_new(c, "running",
                        running >= 0 ? json_string(color_name(running)) : json_null());
    int64_t flag_at = arb_clock_flag_time(&st->clock);
    json_object_set_new(c, "flag_at",
                        flag_at == ARB_CLOCK_NEVER ? json_null() : json_integer(flag_at));
    json_object_set_new(a, "clock", c);
  }
  json_object_set_new(a, "rules", json_string(arb_rules_get(arb_game_rules(g))->name));
}

static const char *status_code(arb_status s) {
  switch (s) {
  case ARB_ERR_GAME_OVER: return "game_over";
  case ARB_ERR_NOT_YOUR_TURN: return "not_your_turn";
  case ARB_ERR_NO_OFFER: return "no_offer";
  case ARB_ERR_NOT_ALLOWED: return "not_allowed";
  case ARB_ERR_MUST_PLAY: return "must_play";
  case ARB_ERR_MOVE_ILLEGAL: return "illegal_move";
  default: return arb_status_name(s);
  }
}

char *referee_answer(ref_state *st, const char *line, size_t len, long lineno) {
  json_error_t jerr;
  json_t *answer = json_object();
  /* type and ok first in every answer (jansson keeps insertion order; values set later) */
  json_object_set_new(answer, "type", json_string(""));
  json_object_set_new(answer, "ok", json_false());
  const char *code = NULL;
  char msg[256] = "";
  arb_status s = ARB_OK;
  json_t *ev_json = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
  ref_event ev = {NULL, -1, -1, -1, NULL, 0, NULL, ev_json};
  if (!ev_json || !json_is_object(ev_json)) {
    code = "json";
    snprintf(msg, sizeof msg, "%s", ev_json ? "an event must be a JSON object" : jerr.text);
    s = ARB_ERR_ARGUMENT;
  } else {
    json_t *type = json_object_get(ev_json, "type");
    json_t *by = json_object_get(ev_json, "by");
    json_t *mv = json_object_get(ev_json, "move");
    json_t *reason = json_object_get(ev_json, "reason");
    ev.type = json_string_value(type);
    if (json_is_string(by)) {
      if (!strcmp(json_string_value(by), "white")) ev.by = ARB_WHITE;
      if (!strcmp(json_string_value(by), "black")) ev.by = ARB_BLACK;
    }
    if (json_is_string(mv)) {
      ev.move = json_string_value(mv);
      ev.move_len = json_string_length(mv);
    }
    ev.reason = json_string_value(reason);
    json_t *t = json_object_get(ev_json, "t"), *side = json_object_get(ev_json, "side");
    if (json_is_integer(t) && json_integer_value(t) >= 0 &&
        json_integer_value(t) <= ARB_CLOCK_TIME_MAX)
      ev.t = (int64_t)json_integer_value(t);
    if (json_is_string(side)) {
      if (!strcmp(json_string_value(side), "white")) ev.side = ARB_WHITE;
      if (!strcmp(json_string_value(side), "black")) ev.side = ARB_BLACK;
    }
    int starting = ev.type && !strcmp(ev.type, "start");
    int timed = starting ? json_object_get(ev_json, "control") != NULL ||
                               json_object_get(ev_json, "timecontrol") != NULL
                         : st->timed;
    ref_handler fn = NULL;
    for (size_t i = 0; ev.type && i < sizeof handlers / sizeof handlers[0]; i++)
      if (!strcmp(ev.type, handlers[i].type)) fn = handlers[i].fn;
    if (!ev.type) {
      code = "bad_event";
      snprintf(msg, sizeof msg, "an event needs \"type\"");
      s = ARB_ERR_ARGUMENT;
    } else if (!fn) {
      code = "unknown_event";
      snprintf(msg, sizeof msg, "unknown event type");
      s = ARB_ERR_ARGUMENT;
    } else if (by && ev.by < 0) {
      code = "bad_event";
      snprintf(msg, sizeof msg, "\"by\" must be \"white\" or \"black\"");
      s = ARB_ERR_ARGUMENT;
    } else if (mv && !ev.move) {
      code = "bad_event";
      snprintf(msg, sizeof msg, "\"move\" must be a string");
      s = ARB_ERR_ARGUMENT;
    } else if (t && ev.t < 0) {
      code = "bad_event";
      snprintf(msg, sizeof msg, "\"t\" must be a whole number of milliseconds, 0 or more");
      s = ARB_ERR_ARGUMENT;
    } else if (timed && ev.t < 0 && strcmp(ev.type, "state") != 0) {
      code = "bad_event";
      snprintf(msg, sizeof msg, "a timed game needs \"t\" (milliseconds) on every event");
      s = ARB_ERR_ARGUMENT;
    } else if (ev.t >= 0 && ev.t < st->last_t && !starting) {
      code = "time_backwards";
      snprintf(msg, sizeof msg, "\"t\" %lld is before the previous event's %lld", (long long)ev.t,
               (long long)st->last_t);
      s = ARB_ERR_TIME_BACKWARDS;
    } else {
      if (ev.t < 0) ev.t = st->last_t < 0 ? 0 : st->last_t;
      int64_t before = st->last_t;
      st->last_t = ev.t; /* the event happened then, whatever it is answered */
      /* A server sees every flag at once: time ran out before this event arrived. */
      if (st->timed && st->game && !starting &&
          arb_game_outcome(st->game).result == ARB_RESULT_NONE &&
          arb_clock_rules_get(arb_game_rules(st->game))->auto_flag) {
        int running = arb_clock_running(&st->clock);
        if (running >= 0 && arb_clock_flag_fallen(&st->clock, (arb_color)running, ev.t))
          flag_falls(st, (arb_color)running, ev.t);
      }
      if (!st->game && strcmp(ev.type, "start") != 0) {
        /* no start event: a standard game under the command line's rules */
        st->game = arb_game_new(NULL, st->default_rules);
      }
      s = st->game || !strcmp(ev.type, "start") ? fn(st, &ev, answer, &code, msg, sizeof msg)
                                                : ARB_ERR_NO_MEMORY;
      /* A start that failed leaves the game under way, and its time with it. */
      if (starting && s != ARB_OK) st->last_t = before;
      /* Any ending (resignation, agreement, claim, mate...) stops the clock. */
      if (st->timed && st->game && arb_game_outcome(st->game).result != ARB_RESULT_NONE)
        arb_clock_stop(&st->clock, ev.t);
    }
    json_object_set_new(answer, "type", json_string(ev.type ? ev.type : ""));
    json_t *id = json_object_get(ev_json, "id");
    if (id) json_object_set(answer, "id", id);
  }
  json_object_set_new(answer, "ok", json_boolean(s == ARB_OK));
  if (s != ARB_OK) {
    json_t *e = json_object();
    json_object_set_new(e, "code", json_string(code ? code : status_code(s)));
    json_t *m = json_string(msg[0] ? msg : arb_strerror(s));
    json_object_set_new(e, "message", m ? m : json_string("invalid text in the event"));
    json_object_set_new(e, "line", json_integer(lineno));
    json_object_set_new(answer, "error", e);
  }
  if (st->game) describe_state(st, answer);
  json_decref(ev_json);
  char *text = json_dumps(answer, JSON_COMPACT);
  json_decref(answer);
  return text;
}
