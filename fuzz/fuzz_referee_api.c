/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_referee_api.c: libFuzzer target for the referee layer's C API (arbiter/referee.h), with
 * the JSON codec of `arbiter referee` (tools/referee.c) fed the same events beside it.
 *
 * Input: byte 0 picks the rule set, lag compensation and a first-move limit, byte 1 the time
 * control and byte 2 the start position; then every 4 bytes are one event: kind (any value,
 * invalid ones too), player/side (-1, white, black) and the auto-queen flag, a time step
 * (forwards, sometimes backwards or absent) and an argument (which legal move, or a bad one; a
 * premove's squares; a claim's reason and intended move; an adjustment; a lag).  Checks, after
 * every event:
 *   - a decision is accepted exactly when its refusal is ARB_REF_ACCEPTED, and a refused one
 *     has a message and changes neither the board nor the outcome — unless a flag fell before
 *     it (then the game ended on time or was aborted by the first-move limit, and the decision
 *     says so);
 *   - a game that is over stays over, and every move then is refused as game_over;
 *   - the referee's time never goes back within a game; clocks are never negative; a deadline
 *     lies after the present time;
 *   - the record grows by one entry per event (two with a flag that fell first) and starts
 *     afresh with each start;
 *   - a forfeit or an adjudication ends the game, with the termination it named; after the
 *     end, only a state or the arbiter's amendment is accepted (its result, arbiter_decision
 *     or the termination as it was);
 *   - the JSON codec gives the same decision (ok, code, message) and state (ply, result,
 *     termination, clocks).
 * At the end the game's PGN (with [%clk] and [%emt]) must read back through the PGN reader
 * with no error, the same number of plies and the same result (unless it goes on over the
 * board from a position no legal game reaches, which a reader refuses).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"
#include "referee.h"

static const char *const controls[] = {NULL,  "1+0", "3+2",  "40/90+30,30+30", "90 d5",
                                       "5b3", "*1",  "10ms", "0.5s+1s",        "-"};
static const char *const starts[] = {
    ARB_FEN_START,
    "8/8/8/4k3/8/8/q7/1N2K3 b - - 0 1",
    "k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1",
    "8/P7/8/8/8/8/8/k6K w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "7k/8/8/8/8/8/8/K5R1 w - - 99 80",
    "bbq1nrkr/1pp2ppp/3pn3/4p3/pP2P3/3N1P2/P1PP2PP/BBQNR1KR w Kkq - 0 6",
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *color_name(int c) { return c == ARB_WHITE ? "white" : "black"; }

/* The same event as a JSON line for the codec (malloc'd). */
static char *as_json(const arb_ref_event *ev, const char *fen, const char *control,
                     const arb_ref_setup *su) {
  json_t *j = json_object();
  json_object_set_new(j, "type", json_string(arb_ref_kind_name(ev->kind)));
  if (ev->t >= 0) json_object_set_new(j, "t", json_integer(ev->t));
  if (ev->by >= 0) json_object_set_new(j, "by", json_string(color_name(ev->by)));
  if (ev->side >= 0) json_object_set_new(j, "side", json_string(color_name(ev->side)));
  if (ev->text) json_object_set_new(j, "move", json_stringn(ev->text, ev->text_len));
  if (ev->reason == ARB_CLAIM_THREEFOLD) json_object_set_new(j, "reason", json_string("threefold"));
  if (ev->reason == ARB_CLAIM_FIFTY) json_object_set_new(j, "reason", json_string("fifty"));
  if (ev->flags & ARB_REF_MADE_ONLY) json_object_set_new(j, "made_only", json_true());
  if (ev->position) {
    char pf[ARB_FEN_MAX];
    arb_fen_write(ev->position, pf, sizeof pf, 0);
    json_object_set_new(j, "fen", json_string(pf));
  }
  if (ev->ply) json_object_set_new(j, "ply", json_integer(ev->ply));
  if (ev->termination)
    json_object_set_new(j, "termination", json_string(arb_termination_name(ev->termination)));
  if (ev->result) json_object_set_new(j, "result", json_string(arb_result_string(ev->result)));
  if (ev->kind == ARB_REF_ADJUST_TIME)
    json_object_set_new(j, ev->set ? "set_ms" : "add_ms", json_integer(ev->ms));
  if (ev->flags & ARB_REF_AUTO_QUEEN) json_object_set_new(j, "auto_queen", json_true());
  if (ev->lag_ms) json_object_set_new(j, "lag", json_integer(ev->lag_ms));
  if (ev->kind == ARB_REF_START) {
    json_object_set_new(j, "rules", json_string(arb_rules_get(su->rules)->name));
    json_object_set_new(j, "lag_compensation", json_boolean(su->lag_compensation));
    json_object_set_new(j, "first_move_ms", json_integer(su->first_move_ms));
    json_object_set_new(j, "fen", json_string(fen));
    if (control) json_object_set_new(j, "control", json_string(control));
  }
  char *text = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  return text;
}

typedef struct pgn_check {
  int games, plies, errors;
  arb_result result;
} pgn_check;

static void pgn_end(void *ctx, const arb_pgn_game_end *end) {
  pgn_check *c = ctx;
  c->games++;
  c->plies = end->plies;
  c->errors += end->errors;
  c->result = end->tag_result;
}

static int64_t json_ms(json_t *clock, const char *key) {
  json_t *v = json_object_get(clock, key);
  return json_is_integer(v) ? (int64_t)json_integer_value(v) : ARB_CLOCK_NEVER;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 3) return 0;
  arb_ruleset rules = (arb_ruleset)(data[0] % ARB_RULES_COUNT);
  const char *control = controls[data[1] % COUNT(controls)];
  const char *fen = starts[data[2] % COUNT(starts)];
  arb_position pos;
  FUZZ_CHECK(arb_fen_read(&pos, fen, 0, NULL) == ARB_OK);
  arb_time_control tc;
  if (control) FUZZ_CHECK(arb_tc_parse(control, strlen(control), ARB_TC_AUTO, &tc, NULL) == ARB_OK);
  arb_ref_setup setup = ARB_REF_SETUP_INIT;
  setup.rules = rules;
  setup.start = &pos;
  setup.control = control ? &tc : NULL;
  setup.lag_compensation = (data[0] / ARB_RULES_COUNT) & 1;
  setup.first_move_ms = (data[0] / ARB_RULES_COUNT) & 2 ? 15000 : 0;

  arb_referee *ref = arb_referee_new(rules);
  ref_state *codec = ref_state_new(rules);
  FUZZ_CHECK(ref && codec);
  int64_t t = 0;
  char ctx[320];
  for (size_t i = 3; i + 4 <= size && i < 3 + 4 * 200; i += 4) {
    const uint8_t *b = data + i;
    arb_ref_event ev = ARB_REF_EVENT_INIT((arb_ref_kind)(b[0] % (ARB_REF_KIND_COUNT + 2)), t);
    int who = b[1] % 3 - 1;
    ev.by = ev.side = (int8_t)who;
    if (b[1] & 0x80) ev.flags = ARB_REF_AUTO_QUEEN;
    /* time: mostly forwards by 0 .. 8 s, sometimes absent, sometimes back a little */
    if ((b[2] & 0xf0) == 0xf0) {
      ev.t = ARB_REF_NO_TIME;
    } else if ((b[2] & 0xf0) == 0xe0) {
      ev.t = t > 100 ? t - 100 : 0;
    } else {
      t += (int64_t)(b[2] & 0x3f) * 128 + (b[2] >> 6) * 30000;
      ev.t = t;
    }
    char text[16] = "";
    const arb_position *p = arb_referee_game(ref) ? arb_game_position(arb_referee_game(ref)) : &pos;
    arb_move legal[ARB_MAX_MOVES];
    int n = arb_generate_legal(p, legal);
    if (ev.kind == ARB_REF_MOVE || (ev.kind == ARB_REF_CLAIM_DRAW && (b[3] & 0x80))) {
      if (n && (b[3] & 0x7f) < 0x70) {
        arb_uci_write(p, legal[(b[3] & 0x7f) % n], text, sizeof text);
      } else {
        static const char *const junk[] = {"", "e9", "Qxx", "e2e5", "O-O-O", "a1a1", "0000"};
        snprintf(text, sizeof text, "%s", junk[b[3] % COUNT(junk)]);
      }
      ev.text = text;
      ev.text_len = strlen(text);
    }
    if (ev.kind == ARB_REF_MOVE) ev.lag_ms = (int64_t)((b[1] >> 3) & 7) * 400;
    if (ev.kind == ARB_REF_PREMOVE) {
      /* any squares: often legal when its turn comes, often not */
      int from = b[3] & 63, to = (b[3] * 7 + (b[1] >> 2)) & 63;
      snprintf(text, sizeof text, "%c%c%c%c", 'a' + from % 8, '1' + from / 8, 'a' + to % 8,
               '1' + to / 8);
      ev.text = text;
      ev.text_len = 4;
    }
    if (ev.kind == ARB_REF_CLAIM_DRAW) ev.reason = (arb_claim_reason)(b[3] % 3);
    if (ev.kind == ARB_REF_MOVE && (b[0] / (ARB_REF_KIND_COUNT + 2)) % 2) /* over the board */
      ev.flags |= ARB_REF_MADE_ONLY;
    if (ev.kind == ARB_REF_REINSTATE) ev.ply = b[3] % 12; /* 0 and too far too */
    /* over the board, play going on from the board: a start position, or one no legal game
     * reaches (the side not to move in check) */
    static const char *const boards[] = {"4k3/8/8/8/8/8/4r3/4K3 b - - 0 1",
                                         "1P5k/7p/8/8/8/8/8/K7 b - - 0 1"};
    arb_position cpos;
    if (ev.kind == ARB_REF_CONTINUE_FROM && (b[3] & 3) != 3) {
      const char *cf = b[3] & 4 ? boards[b[3] & 1] : starts[(b[3] >> 3) % COUNT(starts)];
      if (arb_fen_read(&cpos, cf, ARB_FEN_PROBLEMS_ALL, NULL) == ARB_OK) ev.position = &cpos;
    }
    if (ev.kind == ARB_REF_FORFEIT || ev.kind == ARB_REF_ADJUDICATE) {
      /* any termination (those the event does not take too), sometimes none; a result */
      ev.termination = (arb_termination)(b[3] % ARB_TERM_COUNT);
      ev.result = (arb_result)((b[3] >> 5) & 3);
    }
    if (ev.kind == ARB_REF_ADJUST_TIME) {
      ev.set = b[3] & 1;
      ev.ms = ((int64_t)(b[3] >> 1) - (ev.set ? 0 : 40)) * 1000;
    }
    if (ev.kind == ARB_REF_START) ev.setup = &setup;

    /* what the referee showed before */
    arb_ref_state before;
    arb_referee_state_of(ref, &before);
    char fen_before[ARB_FEN_MAX] = "";
    if (before.has_game)
      arb_fen_write(arb_game_position(arb_referee_game(ref)), fen_before, sizeof fen_before, 0);
    uint32_t nrec = arb_referee_record_count(ref);

    arb_ref_decision d;
    arb_status s = arb_referee_event(ref, &ev, &d);
    snprintf(ctx, sizeof ctx, "event %zu kind %d by %d t %lld text '%s': %s", (i - 3) / 4,
             (int)ev.kind, who, (long long)ev.t, text, d.message);
    FUZZ_CHECK_CTX(s == d.status, ctx);
    FUZZ_CHECK_CTX((s == ARB_OK) == (d.refusal == ARB_REF_ACCEPTED), ctx);
    FUZZ_CHECK_CTX((s == ARB_OK) == (d.message[0] == 0), ctx);
    const arb_ref_state *st = &d.state;
    int valid_kind = (unsigned)ev.kind < ARB_REF_TICK;
    if (st->has_game) {
      char fen_after[ARB_FEN_MAX];
      arb_fen_write(arb_game_position(arb_referee_game(ref)), fen_after, sizeof fen_after, 0);
      int restarted = ev.kind == ARB_REF_START && s == ARB_OK;
      if (s != ARB_OK && before.has_game) {
        FUZZ_CHECK_CTX(!strcmp(fen_before, fen_after), ctx);
        FUZZ_CHECK_CTX(st->ply == before.ply, ctx);
        if (!d.ended)
          FUZZ_CHECK_CTX(st->outcome.result == before.outcome.result, ctx);
        else
          FUZZ_CHECK_CTX(st->aborted || st->outcome.termination == ARB_TERM_TIME_FORFEIT, ctx);
      }
      if (before.over && !restarted) {
        FUZZ_CHECK_CTX(st->over, ctx);
        if (!(ev.kind == ARB_REF_ADJUDICATE && s == ARB_OK)) /* the arbiter's amendment */
          FUZZ_CHECK_CTX(st->outcome.result == before.outcome.result, ctx);
        if (ev.kind == ARB_REF_MOVE && (ev.text || ev.move))
          FUZZ_CHECK_CTX(d.refusal == ARB_REF_GAME_OVER || d.refusal == ARB_REF_BAD_EVENT ||
                             d.refusal == ARB_REF_TIME_BACKWARDS,
                         ctx);
      }
      if (!restarted && before.has_game) FUZZ_CHECK_CTX(st->now >= before.now, ctx);
      FUZZ_CHECK_CTX(st->over == (st->aborted || st->outcome.result != ARB_RESULT_NONE), ctx);
      if (st->aborted) FUZZ_CHECK_CTX(st->outcome.result == ARB_RESULT_NONE, ctx);
      for (int c = 0; c < 2; c++)
        FUZZ_CHECK_CTX(st->remaining_ms[c] >= 0, ctx);
      if (st->deadline != ARB_CLOCK_NEVER) FUZZ_CHECK_CTX(st->deadline > st->now, ctx);
      if (st->over) FUZZ_CHECK_CTX(st->deadline == ARB_CLOCK_NEVER && st->claims == 0, ctx);
      uint32_t grown = arb_referee_record_count(ref);
      if (restarted)
        FUZZ_CHECK_CTX(grown == 1, ctx);
      else if (valid_kind && before.has_game) {
        /* [a tick,] the event, [the premove it let through] */
        uint32_t at = nrec;
        arb_ref_entry en;
        FUZZ_CHECK_CTX(arb_referee_record_at(ref, at, &en) == ARB_OK, ctx);
        if (en.kind == ARB_REF_TICK && ev.kind != ARB_REF_TICK) {
          FUZZ_CHECK_CTX(d.ended && en.ended, ctx);
          FUZZ_CHECK_CTX(arb_referee_record_at(ref, ++at, &en) == ARB_OK, ctx);
        }
        FUZZ_CHECK_CTX(en.kind == ev.kind && en.status == s && d.seq == at, ctx);
        FUZZ_CHECK_CTX(grown == at + 1 + d.premove.played, ctx);
      }
      /* over before the event: already, or by a flag that fell first (a tick recorded) */
      arb_ref_entry first;
      int over_first = before.over || (!restarted && before.has_game && ev.kind != ARB_REF_TICK &&
                                       arb_referee_record_at(ref, nrec, &first) == ARB_OK &&
                                       first.kind == ARB_REF_TICK && first.ended);
      if ((ev.kind == ARB_REF_FORFEIT || ev.kind == ARB_REF_ADJUDICATE) && s == ARB_OK &&
          !over_first)
        FUZZ_CHECK_CTX(d.ended && st->over && st->outcome.termination == ev.termination &&
                           (ev.kind == ARB_REF_ADJUDICATE || st->outcome.by == ev.side),
                       ctx);
      /* after the end, only the arbiter's amendment: the result, and arbiter_decision or the
       * termination as it was */
      if (s == ARB_OK && over_first && !restarted)
        FUZZ_CHECK_CTX(
            ev.kind == ARB_REF_STATE || ev.kind == ARB_REF_TICK ||
                (ev.kind == ARB_REF_ADJUDICATE && st->over && st->outcome.result == ev.result &&
                 st->outcome.termination ==
                     (ev.termination == ARB_TERM_NONE
                          ? (before.over ? before.outcome.termination : ARB_TERM_TIME_FORFEIT)
                          : ARB_TERM_ARBITER)),
            ctx);
      /* a premove is played only after an accepted move, by the other side, at no cost */
      if (d.premove.played) {
        FUZZ_CHECK_CTX(ev.kind == ARB_REF_MOVE && s == ARB_OK, ctx);
        arb_ref_entry pe;
        FUZZ_CHECK(arb_referee_record_at(ref, grown - 1, &pe) == ARB_OK);
        FUZZ_CHECK_CTX(pe.flags & ARB_REF_FROM_PREMOVE, ctx);
        FUZZ_CHECK_CTX(!st->timed || pe.move_ms <= 0, ctx);
      }
    }

    /* the codec: same decision, same state */
    if (valid_kind && ev.kind != ARB_REF_TICK) {
      char *line = as_json(&ev, fen, control, &setup);
      char *answer = referee_answer(codec, line, strlen(line), 1);
      FUZZ_CHECK(line && answer);
      json_t *a = json_loads(answer, 0, NULL);
      FUZZ_CHECK_CTX(a != NULL, answer);
      FUZZ_CHECK_CTX(json_is_true(json_object_get(a, "ok")) == (s == ARB_OK), answer);
      if (s != ARB_OK) {
        json_t *e = json_object_get(a, "error");
        FUZZ_CHECK_CTX(
            !strcmp(json_string_value(json_object_get(e, "code")), arb_ref_refusal_name(d.refusal)),
            answer);
        FUZZ_CHECK_CTX(!strcmp(json_string_value(json_object_get(e, "message")), d.message),
                       answer);
      }
      if (st->has_game) {
        FUZZ_CHECK_CTX(json_integer_value(json_object_get(a, "ply")) == st->ply, answer);
        FUZZ_CHECK_CTX(!strcmp(json_string_value(json_object_get(a, "result")),
                               arb_result_string(st->outcome.result)),
                       answer);
        json_t *clock = json_object_get(a, "clock");
        FUZZ_CHECK_CTX((clock != NULL) == st->timed, answer);
        if (clock) {
          FUZZ_CHECK_CTX(json_ms(clock, "white_ms") == st->remaining_ms[ARB_WHITE], answer);
          FUZZ_CHECK_CTX(json_ms(clock, "black_ms") == st->remaining_ms[ARB_BLACK], answer);
        }
      } else {
        FUZZ_CHECK_CTX(json_object_get(a, "fen") == NULL, answer);
      }
      json_decref(a);
      free(answer);
      free(line);
    }
    if (st->has_game && !st->over && (b[3] & 0x0f) == 0x0f) {
      /* now and then, time passes on its own */
      arb_ref_decision td;
      int64_t at = st->deadline != ARB_CLOCK_NEVER ? st->deadline : st->now + 1;
      FUZZ_CHECK(arb_referee_tick(ref, at, &td) == ARB_OK);
      if (st->deadline != ARB_CLOCK_NEVER) FUZZ_CHECK_CTX(td.ended && td.state.over, ctx);
      if (t < at) t = at;
      /* the codec sees the same moment as a state event */
      char line[64];
      snprintf(line, sizeof line, "{\"type\":\"state\",\"t\":%lld}", (long long)at);
      free(referee_answer(codec, line, strlen(line), 1));
    }
  }

  /* the PGN reads back */
  if (arb_referee_game(ref)) {
    arb_pgn_writer *w = arb_pgn_writer_new(0);
    FUZZ_CHECK(w && arb_referee_write_pgn(ref, ARB_REF_PGN_EMT, w) == ARB_OK);
    size_t len;
    const char *text = arb_pgn_writer_data(w, &len);
    pgn_check c = {0, 0, 0, ARB_RESULT_NONE};
    arb_pgn_visitor v = {.ctx = &c, .end_game = pgn_end};
    arb_pgn_options o = {ARB_PGN_NO_RESULT_CHECK, rules, 0, 0};
    arb_pgn_reader *rd = arb_pgn_reader_new(&o, &v);
    FUZZ_CHECK(rd);
    arb_pgn_reader_feed(rd, text, len);
    arb_pgn_reader_finish(rd);
    arb_pgn_reader_free(rd);
    arb_ref_state st;
    arb_referee_state_of(ref, &st);
    /* (but a game continued over the board from a position no legal game reaches, written
     * from that board as it is: a reader refuses its FEN) */
    const arb_position *from = arb_game_position_at(arb_referee_game(ref), 0);
    if (!arb_position_problems(from)) {
      FUZZ_CHECK_CTX(c.games == 1 && c.errors == 0 && c.plies == st.ply, text);
      FUZZ_CHECK_CTX(c.result == st.outcome.result, text);
    }
    arb_pgn_writer_free(w);
  }
  ref_state_free(codec);
  arb_referee_free(ref);
  return 0;
}
