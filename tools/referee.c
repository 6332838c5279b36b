/* Arbiter — MIT licence, see LICENSE.
 *
 * referee.c: the JSON codec behind `arbiter referee` (also driven by the fuzz target) over the
 * library's referee (arbiter/referee.h), which decides everything.
 *
 * Each input line is one JSON event: it is parsed into an arb_ref_event (and, for a start, an
 * arb_ref_setup: FEN, time control, rules, names), handed to the referee, and its decision is
 * printed with the state of the game after it, so a client never keeps its own copy.  Input
 * the codec cannot turn into an event (bad JSON, unknown types, fields of the wrong type, a
 * FEN or time control that does not read) is answered here, without reaching the referee.
 * Bad input never stops the stream.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "referee.h"

#include "arbiter/arbiter.h"
#include "codec.h"

struct ref_state {
  arb_referee *ref;
  arb_ruleset default_rules; /* --rules: for starts that name none */
  FILE *pgn; /* --pgn: every game is written there when the next one starts and at the end */
};

ref_state *ref_state_new(arb_ruleset default_rules) {
  ref_state *st = calloc(1, sizeof *st);
  if (!st) return NULL;
  st->default_rules = default_rules;
  if (!(st->ref = arb_referee_new(default_rules))) {
    free(st);
    return NULL;
  }
  return st;
}

void ref_state_set_pgn(ref_state *st, FILE *out) { st->pgn = out; }

/* The present game as PGN text (malloc'd, NUL-terminated), or NULL (no game, no memory). */
static char *game_pgn(const ref_state *st) {
  if (!st->pgn || !arb_referee_game(st->ref)) return NULL;
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  char *text = NULL;
  size_t len;
  if (w && arb_referee_write_pgn(st->ref, 0, w) == ARB_OK) {
    const char *data = arb_pgn_writer_data(w, &len);
    if ((text = malloc(len + 1))) memcpy(text, data, len + 1);
  }
  arb_pgn_writer_free(w);
  return text;
}

static void put_pgn(ref_state *st, char *text) {
  if (!text) return;
  fputs(text, st->pgn);
  fflush(st->pgn);
  free(text);
}

void ref_state_free(ref_state *st) {
  if (!st) return;
  put_pgn(st, game_pgn(st));
  arb_referee_free(st->ref);
  free(st);
}

/* A start event's fields: the setup, with the position, time control and tags it points to. */
typedef struct start_fields {
  arb_ref_setup setup;
  arb_position pos;
  arb_time_control tc;
  arb_ref_tag tags[2];
  arb_move moves[CODEC_MOVES_MAX]; /* "moves": the setup's (a book's), from the start */
} start_fields;

/* A "fen" field into *out, accepting the problems in `accept`; 0 with *err set when it cannot. */
static int read_fen(json_t *fen, unsigned accept, arb_position *out, codec_error *err) {
  arb_fen_report rep;
  if (!json_is_string(fen)) return codec_fail(err, "fen_syntax", "\"fen\" must be a string");
  arb_status s = arb_fen_read_n(out, json_string_value(fen), json_string_length(fen), accept, &rep);
  if (s != ARB_OK)
    return codec_fail(err, s == ARB_ERR_FEN_INVALID ? "fen_invalid" : "fen_syntax", "%s",
                      rep.message);
  return 1;
}

static int parse_start(json_t *ev, arb_ruleset default_rules, start_fields *sf, codec_error *err) {
  arb_ref_setup *su = &sf->setup;
  *su = (arb_ref_setup)ARB_REF_SETUP_INIT;
  su->rules = default_rules;
  json_t *r = json_object_get(ev, "rules");
  if (r && (!json_is_string(r) || arb_rules_parse(json_string_value(r), &su->rules) != ARB_OK))
    return codec_fail(
        err, "bad_event",
        "\"rules\" must be one of fide, fide-rapid, fide-blitz, uscf, online, casual");
  uint32_t mode = 0; /* "chess960": true / false, else inferred from the castling rights */
  json_t *c960 = json_object_get(ev, "chess960");
  if (c960 && !json_is_boolean(c960))
    return codec_fail(err, "bad_event", "\"chess960\" must be true or false");
  if (c960) mode = json_is_true(c960) ? ARB_FEN_READ_CHESS960 : ARB_FEN_READ_STANDARD;
  json_t *fen = json_object_get(ev, "fen");
  if (fen) {
    if (!read_fen(fen, mode, &sf->pos, err)) return 0;
    su->start = &sf->pos;
  } else if (mode) {
    arb_fen_read(&sf->pos, ARB_FEN_START, mode, NULL);
    su->start = &sf->pos;
  }
  /* "moves": the setup's moves (SAN or UCI) from that position: they count for repetitions,
   * not on the clock, and a reinstatement may reach back into them */
  json_t *mvs = json_object_get(ev, "moves");
  if (mvs) {
    arb_position p;
    if (su->start)
      p = *su->start;
    else
      arb_position_startpos(&p);
    if (!codec_read_moves(mvs, &p, sf->moves, &su->move_count, err)) return 0;
    su->moves = sf->moves;
  }
  json_t *nd = json_object_get(ev, "no_draw_before");
  if (nd && (!json_is_integer(nd) || json_integer_value(nd) < 0 ||
             json_integer_value(nd) > (json_int_t)ARB_TC_MAX_MOVES * 100))
    return codec_fail(err, "bad_event", "\"no_draw_before\" must be a move number");
  if (nd) su->no_draw_before = (unsigned)json_integer_value(nd);
  /* "control": the human grammar ("90+30" is 90 minutes and 30 s; PGN form when it has a ':');
   * "timecontrol": the PGN TimeControl tag ("300+2" is 300 s and 2 s); "clock": the model. */
  json_t *control = json_object_get(ev, "control");
  arb_tc_syntax syntax = ARB_TC_AUTO;
  if (!control && (control = json_object_get(ev, "timecontrol"))) syntax = ARB_TC_PGN;
  if (control) {
    arb_tc_report rep = {0, ""};
    if (!json_is_string(control) ||
        arb_tc_parse(json_string_value(control), json_string_length(control), syntax, &sf->tc,
                     &rep) != ARB_OK)
      return codec_fail(err, "tc_syntax", "\"control\": %s (column %d)",
                        json_is_string(control) ? rep.message : "must be a string", rep.column + 1);
    su->control = &sf->tc;
    json_t *model = json_object_get(ev, "clock");
    arb_clock_model m;
    if (model &&
        (!json_is_string(model) || arb_clock_model_parse(json_string_value(model), &m) != ARB_OK))
      return codec_fail(err, "bad_event", "\"clock\" must be after_move, before_move or online");
    if (model) su->clock_model = (int)m;
  }
  /* online play: "lag_compensation": true, "first_move_ms": N */
  json_t *lc = json_object_get(ev, "lag_compensation"), *fm = json_object_get(ev, "first_move_ms");
  if (lc && !json_is_boolean(lc))
    return codec_fail(err, "bad_event", "\"lag_compensation\" must be true or false");
  su->lag_compensation = json_is_true(lc);
  json_t *seen = json_object_get(ev, "sees_flags");
  if (seen && !json_is_boolean(seen))
    return codec_fail(err, "bad_event", "\"sees_flags\" must be true or false");
  su->sees_flags = json_is_true(seen);
  if (fm && (!json_is_integer(fm) || json_integer_value(fm) < 0 ||
             json_integer_value(fm) > ARB_CLOCK_MS_MAX))
    return codec_fail(err, "bad_event", "\"first_move_ms\" must be a number of milliseconds");
  if (fm) su->first_move_ms = (int64_t)json_integer_value(fm);
  for (int c = 0; c < 2; c++) {
    json_t *name = json_object_get(ev, codec_color_name(c));
    if (json_is_string(name))
      sf->tags[su->tag_count++] = (arb_ref_tag){c ? "Black" : "White", json_string_value(name)};
  }
  su->tags = sf->tags;
  return 1;
}

/* Turns a JSON event into a referee event.  0 with *err set when it cannot. */
static int parse_event(json_t *j, const ref_state *st, arb_ref_event *ev, start_fields *sf,
                       codec_error *err) {
  json_t *type = json_object_get(j, "type"), *by = json_object_get(j, "by"),
         *mv = json_object_get(j, "move"), *t = json_object_get(j, "t");
  if (!json_is_string(type)) return codec_fail(err, "bad_event", "an event needs \"type\"");
  arb_ref_kind kind;
  if (arb_ref_kind_parse(json_string_value(type), json_string_length(type), &kind) != ARB_OK)
    return codec_fail(err, "unknown_event", "unknown event type");
  *ev = (arb_ref_event)ARB_REF_EVENT_INIT(kind, ARB_REF_NO_TIME);
  ev->by = (int8_t)codec_color_of(by);
  ev->side = (int8_t)codec_color_of(json_object_get(j, "side"));
  if (by && ev->by < 0)
    return codec_fail(err, "bad_event", "\"by\" must be \"white\" or \"black\"");
  if (mv && !json_is_string(mv)) return codec_fail(err, "bad_event", "\"move\" must be a string");
  if (mv) {
    ev->text = json_string_value(mv);
    ev->text_len = json_string_length(mv);
  }
  if (t) {
    if (!json_is_integer(t) || json_integer_value(t) < 0 ||
        json_integer_value(t) > ARB_CLOCK_TIME_MAX)
      return codec_fail(err, "bad_event",
                        "\"t\" must be a whole number of milliseconds, 0 or more");
    ev->t = (int64_t)json_integer_value(t);
  }
  /* moves and premoves: "auto_queen": true; moves: "lag": ms to forgive */
  json_t *aq = json_object_get(j, "auto_queen"), *lag = json_object_get(j, "lag");
  if (aq && !json_is_boolean(aq))
    return codec_fail(err, "bad_event", "\"auto_queen\" must be true or false");
  if (json_is_true(aq)) ev->flags |= ARB_REF_AUTO_QUEEN;
  /* over the board: "made_only": true, the press to come ("press"); "reinstate": "ply" */
  json_t *mo = json_object_get(j, "made_only"), *ply = json_object_get(j, "ply");
  if (mo && !json_is_boolean(mo))
    return codec_fail(err, "bad_event", "\"made_only\" must be true or false");
  if (json_is_true(mo)) ev->flags |= ARB_REF_MADE_ONLY;
  /* an untimed game's flag: "seen": true, the arbiter saw it down (6.8) */
  json_t *seen = json_object_get(j, "seen");
  if (seen && !json_is_boolean(seen))
    return codec_fail(err, "bad_event", "\"seen\" must be true or false");
  if (json_is_true(seen)) ev->flags |= ARB_REF_FLAG_SEEN;
  if (ply && (!json_is_integer(ply) || json_integer_value(ply) < -100000 ||
              json_integer_value(ply) > 100000))
    return codec_fail(err, "bad_event",
                      "\"ply\" must be a step number (1 or more; 0 or less: the setup's moves)");
  if (ply) ev->ply = (int)json_integer_value(ply);
  if (lag && (!json_is_integer(lag) || json_integer_value(lag) < 0 ||
              json_integer_value(lag) > ARB_CLOCK_MS_MAX))
    return codec_fail(err, "bad_event", "\"lag\" must be a number of milliseconds, 0 or more");
  if (lag) ev->lag_ms = (int64_t)json_integer_value(lag);
  const char *reason = json_string_value(json_object_get(j, "reason"));
  if (reason && !strcmp(reason, "threefold")) ev->reason = ARB_CLAIM_THREEFOLD;
  if (reason && !strcmp(reason, "fifty")) ev->reason = ARB_CLAIM_FIFTY;
  if (kind == ARB_REF_ADJUST_TIME) {
    /* {"type":"adjust_time","side":C,"add_ms":N} or {..., "set_ms":N} */
    json_t *add = json_object_get(j, "add_ms"), *set = json_object_get(j, "set_ms");
    if (!add == !set || !json_is_integer(add ? add : set))
      return codec_fail(err, "bad_event",
                        "\"adjust_time\" needs \"add_ms\" or \"set_ms\": milliseconds");
    ev->set = set != NULL;
    ev->ms = (int64_t)json_integer_value(add ? add : set);
  }
  if (kind == ARB_REF_FORFEIT || kind == ARB_REF_ADJUDICATE) {
    /* {"type":"forfeit","side":C,"termination":"crash"},
     * {"type":"adjudicate","result":"1-0","termination":"adjudication"} */
    json_t *term = json_object_get(j, "termination"), *res = json_object_get(j, "result");
    if (term && (!json_is_string(term) ||
                 arb_termination_parse(json_string_value(term), json_string_length(term),
                                       &ev->termination) != ARB_OK))
      return codec_fail(err, "bad_event", "\"termination\" must name an ending (docs/endings.md)");
    if (res) {
      if (!json_is_string(res) ||
          arb_pgn_result_parse(json_string_value(res), json_string_length(res), &ev->result) ||
          ev->result == ARB_RESULT_NONE)
        return codec_fail(err, "bad_event", "\"result\" must be \"1-0\", \"0-1\" or \"1/2-1/2\"");
    }
  }
  if (kind == ARB_REF_CONTINUE_FROM) {
    /* {"type":"continue_from","fen":F[,"by":C]}: any placement the board shows (a king left
     * in check, a pawn on its last rank) */
    json_t *fen = json_object_get(j, "fen");
    if (fen) {
      if (!read_fen(fen, ARB_FEN_PROBLEMS_ALL, &sf->pos, err)) return 0;
      ev->position = &sf->pos;
    }
  }
  if (kind == ARB_REF_START) {
    if (!parse_start(j, st->default_rules, sf, err)) return 0;
    ev->setup = &sf->setup;
  }
  return 1;
}

/* The decision's own fields (san, uci, late, claim, time_added). */
static void describe_decision(const arb_ref_event *ev, const arb_ref_decision *d, json_t *a) {
  if (d->status != ARB_OK) return;
  if (d->kind == ARB_REF_MOVE) {
    json_object_set_new(a, "san", json_string(d->san));
    json_object_set_new(a, "uci", json_string(d->uci));
    if (d->late) json_object_set_new(a, "late", json_true()); /* the flag fell during the move */
    if (d->comp_ms) json_object_set_new(a, "comp_ms", json_integer(d->comp_ms));
    if (d->premove.played || d->premove.dropped) {
      json_t *p = json_object();
      json_object_set_new(p, "played", json_boolean(d->premove.played));
      if (d->premove.played) {
        json_object_set_new(p, "san", json_string(d->premove.san));
        json_object_set_new(p, "uci", json_string(d->premove.uci));
      } else {
        json_object_set_new(p, "code", json_string(arb_ref_refusal_name(d->premove.refusal)));
        json_t *m = json_string(d->premove.message);
        json_object_set_new(p, "message", m ? m : json_string("invalid text in the premove"));
      }
      json_object_set_new(a, "premove", p);
    }
  }
  if (d->claimed) {
    json_t *c = json_object();
    json_object_set_new(c, "reason",
                        json_string(ev->reason == ARB_CLAIM_THREEFOLD ? "threefold" : "fifty"));
    json_object_set_new(c, "correct", json_boolean(d->verdict.correct));
    if (!d->verdict.correct) {
      json_object_set_new(c, "penalty_s", json_integer(d->verdict.penalty_s));
      json_object_set_new(c, "time_added_to", json_string(codec_color_name(ev->by ^ 1)));
      json_object_set_new(c, "stands_as_offer", json_boolean(d->verdict.became_offer));
    }
    if (d->verdict.must_play) json_object_set_new(c, "must_play", json_string(d->must_play_uci));
    json_object_set_new(a, "claim", c);
  }
  if (d->kind == ARB_REF_ADJUST_TIME && d->time_added_to >= 0) {
    json_t *c = json_object();
    json_object_set_new(c, "side", json_string(codec_color_name(d->time_added_to)));
    json_object_set_new(c, "ms", json_integer(d->time_added_ms));
    json_object_set_new(a, "time_added", c);
  }
}

static json_t *ms_or_null(int64_t ms) {
  return ms == ARB_CLOCK_NEVER ? json_null() : json_integer(ms);
}

/* The state after every event. */
static void describe_state(const ref_state *st, const arb_ref_state *s, json_t *a) {
  const arb_game *g = arb_referee_game(st->ref);
  char fen[ARB_FEN_MAX];
  arb_fen_write(arb_game_position(g), fen, sizeof fen, 0);
  const arb_outcome o = s->outcome;
  json_object_set_new(a, "fen", json_string(fen));
  json_object_set_new(a, "turn", json_string(codec_color_name(s->turn)));
  json_object_set_new(a, "ply", json_integer(s->ply));
  json_object_set_new(a, "status", json_string(s->over ? "over" : "ongoing"));
  json_object_set_new(a, "result", json_string(arb_result_string(o.result)));
  json_object_set_new(a, "termination", json_string(arb_termination_name(o.termination)));
  if (s->over && !s->aborted)
    json_object_set_new(a, "ended_by", json_string(o.automatic ? "rules" : codec_color_name(o.by)));
  json_object_set_new(a, "draw_offer",
                      s->draw_offer >= 0 ? json_string(codec_color_name(s->draw_offer))
                                         : json_null());
  if (s->unpressed >= 0)
    json_object_set_new(a, "unpressed", json_string(codec_color_name(s->unpressed)));
  json_t *claims = json_array();
  if (s->claims & ARB_REF_CAN_CLAIM(ARB_CLAIM_THREEFOLD))
    json_array_append_new(claims, json_string("threefold"));
  if (s->claims & ARB_REF_CAN_CLAIM(ARB_CLAIM_FIFTY))
    json_array_append_new(claims, json_string("fifty"));
  if (!s->over && arb_rules_get(arb_game_rules(g))->claims) {
    json_object_set_new(a, "repetitions", json_integer(s->facts.repetitions));
    json_object_set_new(a, "fivefold", json_boolean(s->facts.fivefold));
    json_object_set_new(a, "seventyfive", json_boolean(s->facts.seventyfive));
  }
  json_object_set_new(a, "claims", claims);
  for (int c = 0; c < 2; c++)
    if (s->premove[c][0]) {
      json_t *p = json_object_get(a, "premoves");
      if (!p) json_object_set_new(a, "premoves", p = json_object());
      json_object_set_new(p, codec_color_name(c), json_string(s->premove[c]));
    }
  if (s->flag_side >= 0) {
    json_t *f = json_object();
    json_object_set_new(f, "side", json_string(codec_color_name(s->flag_side)));
    json_object_set_new(f, "reason", json_string(arb_flag_reason_name(s->flag_reason)));
    json_object_set_new(a, "flag", f);
  }
  if (s->timed) {
    json_t *c = json_object();
    json_object_set_new(c, "white_ms", ms_or_null(s->remaining_ms[ARB_WHITE]));
    json_object_set_new(c, "black_ms", ms_or_null(s->remaining_ms[ARB_BLACK]));
    json_object_set_new(c, "running",
                        s->running >= 0 ? json_string(codec_color_name(s->running)) : json_null());
    json_object_set_new(c, "flag_at", ms_or_null(s->flag_at));
    if (s->paused) json_object_set_new(c, "paused", json_true());
    json_object_set_new(a, "clock", c);
  }
  json_object_set_new(a, "rules", json_string(arb_rules_get(arb_game_rules(g))->name));
}

char *referee_answer(ref_state *st, const char *line, size_t len, long lineno) {
  json_error_t jerr;
  json_t *answer = json_object();
  /* type and ok first in every answer (jansson keeps insertion order; values set later) */
  json_object_set_new(answer, "type", json_string(""));
  json_object_set_new(answer, "ok", json_false());
  codec_error err = {NULL, ""};
  arb_ref_decision d;
  int ok = 0, decided = 0;
  json_t *ev_json = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
  if (!ev_json || !json_is_object(ev_json)) {
    codec_fail(&err, "json", "%s", ev_json ? "an event must be a JSON object" : jerr.text);
  } else {
    arb_ref_event ev;
    start_fields sf;
    if (parse_event(ev_json, st, &ev, &sf, &err)) {
      /* --pgn: the game a start replaces is written once the start is accepted */
      char *replaced = ev.kind == ARB_REF_START ? game_pgn(st) : NULL;
      ok = arb_referee_event(st->ref, &ev, &d) == ARB_OK;
      decided = 1;
      if (ok)
        put_pgn(st, replaced);
      else
        free(replaced);
      describe_decision(&ev, &d, answer);
      if (!ok) {
        err.code = arb_ref_refusal_name(d.refusal);
        snprintf(err.message, sizeof err.message, "%s", d.message);
      }
    }
    codec_echo(answer, ev_json);
  }
  codec_status(answer, ok, &err, lineno);
  if (!decided) arb_referee_state_of(st->ref, &d.state);
  if (d.state.has_game) describe_state(st, &d.state, answer);
  json_decref(ev_json);
  char *text = json_dumps(answer, JSON_COMPACT);
  json_decref(answer);
  return text;
}
