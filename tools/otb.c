/* Arbiter — MIT licence, see LICENSE.
 *
 * otb.c: the JSON codec behind `arbiter referee --otb` over the library's over-the-board
 * referee (arbiter/otb.h), which decides everything.  Each input line is one event in the
 * vocabulary of docs/otb.md; it is parsed into an arb_otb_event and the decision is printed
 * with the state after it.  Input that does not parse is answered here and never stops the
 * stream.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otb.h"

#include "arbiter/arbiter.h"
#include "codec.h"

struct otb_state {
  arb_otb *otb;
  arb_otb_rules default_rules;
  FILE *pgn;
  int legal_only;
  char move_hand[16]; /* the hand of the last move entered ("left"/"right"), for the press */
};

otb_state *otb_state_new(arb_otb_rules default_rules) {
  otb_state *st = calloc(1, sizeof *st);
  if (!st) return NULL;
  st->default_rules = default_rules;
  if (!(st->otb = arb_otb_new())) {
    free(st);
    return NULL;
  }
  return st;
}

void otb_state_set_pgn(otb_state *st, FILE *out, int legal_only) {
  st->pgn = out;
  st->legal_only = legal_only;
}

static void write_pgn(otb_state *st) {
  if (!st->pgn || !arb_otb_record_count(st->otb)) return;
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  size_t len;
  if (w && arb_otb_write_pgn(st->otb, st->legal_only ? ARB_OTB_PGN_LEGAL_ONLY : 0, w) == ARB_OK) {
    const char *data = arb_pgn_writer_data(w, &len);
    fwrite(data, 1, len, st->pgn);
    fflush(st->pgn);
  }
  arb_pgn_writer_free(w);
}

void otb_state_free(otb_state *st) {
  if (!st) return;
  write_pgn(st);
  arb_otb_free(st->otb);
  free(st);
}

static int square_of(json_t *v, arb_square *out) {
  const char *s = json_string_value(v);
  if (!s || strlen(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') return 0;
  *out = ARB_SQUARE(s[0] - 'a', s[1] - '1');
  return 1;
}

/* "N", "n", "q", "queen", ... → a piece (colour from the letter's case; words: `colour`). */
static arb_piece piece_of(json_t *v, int colour) {
  const char *s = json_string_value(v);
  if (!s || !*s) return ARB_NO_PIECE;
  static const char *const words[] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};
  for (int t = 1; t <= 6; t++)
    if (!strcmp(s, words[t])) return ARB_MAKE_PIECE(colour < 0 ? ARB_WHITE : colour, t);
  if (s[1]) return ARB_NO_PIECE;
  const char *p = strchr("pnbrqk", s[0] | 32);
  if (!p || !s[0]) return ARB_NO_PIECE;
  int white = s[0] >= 'A' && s[0] <= 'Z';
  int c = colour >= 0 && !white ? colour : white ? ARB_WHITE : ARB_BLACK;
  return ARB_MAKE_PIECE(c, (arb_piece_type)(ARB_PAWN + (p - "pnbrqk")));
}

typedef struct start_fields {
  arb_otb_setup setup;
  arb_position pos;
  arb_time_control tc;
  arb_move moves[CODEC_MOVES_MAX];
} start_fields;

static int parse_start(json_t *j, const otb_state *st, start_fields *sf, codec_error *err) {
  arb_otb_setup *su = &sf->setup;
  *su = (arb_otb_setup)ARB_OTB_SETUP_INIT;
  su->rules = st->default_rules;
  json_t *r = json_object_get(j, "rules");
  if (r && (!json_is_string(r) ||
            arb_otb_rules_parse(json_string_value(r), json_string_length(r), &su->rules)))
    return codec_fail(
        err, "bad_event",
        "\"rules\" must be one of fide, fide-rapid, fide-blitz, uscf, uscf-blitz, casual");
  const char *sup = json_string_value(json_object_get(j, "supervision"));
  if (json_object_get(j, "supervision")) {
    static const char *const names[] = {"", "A.4", "A.5", "B.2", "B.3"};
    int found = 0;
    for (int i = 1; i < 5 && sup; i++)
      if (!strcmp(sup, names[i])) su->supervision = (arb_otb_supervision)i, found = 1;
    if (!found) return codec_fail(err, "bad_event", "\"supervision\" must be A.4, A.5, B.2 or B.3");
  }
  arb_position_startpos(&sf->pos);
  json_t *fen = json_object_get(j, "fen");
  if (fen) {
    arb_fen_report rep;
    if (!json_is_string(fen)) return codec_fail(err, "fen_syntax", "\"fen\" must be a string");
    arb_status s =
        arb_fen_read_n(&sf->pos, json_string_value(fen), json_string_length(fen), 0, &rep);
    if (s != ARB_OK)
      return codec_fail(err, s == ARB_ERR_FEN_INVALID ? "fen_invalid" : "fen_syntax", "%s",
                        rep.message);
  }
  su->start = &sf->pos;
  json_t *moves = json_object_get(j, "moves");
  if (moves) {
    if (!codec_read_moves(moves, &sf->pos, sf->moves, &su->move_count, err)) return 0;
    su->moves = sf->moves;
  }
  /* "control" and "timecontrol": the PGN TimeControl grammar (seconds), as docs/otb.md */
  json_t *control = json_object_get(j, "control");
  if (!control) control = json_object_get(j, "timecontrol");
  if (control) {
    arb_tc_report rep = {0, ""};
    if (!json_is_string(control) ||
        arb_tc_parse(json_string_value(control), json_string_length(control), ARB_TC_PGN, &sf->tc,
                     &rep) != ARB_OK)
      return codec_fail(err, "tc_syntax", "\"control\": %s",
                        json_is_string(control) ? rep.message : "must be a string");
    su->control = &sf->tc;
  }
  json_t *eb = json_object_get(j, "eboard");
  if (eb) {
    if (!json_is_object(eb)) return codec_fail(err, "bad_event", "\"eboard\" must be an object");
    const char *id = json_string_value(json_object_get(eb, "identity"));
    su->sensing = ARB_OTB_BOARD_IDENTITY;
    if (id && !strcmp(id, "presence"))
      su->sensing = ARB_OTB_BOARD_PRESENCE;
    else if (id && strcmp(id, "type") && strcmp(id, "rfid"))
      return codec_fail(err, "bad_event", "\"eboard\".\"identity\" must be type, rfid or presence");
    json_t *db = json_object_get(eb, "debounce_ms");
    if (db &&
        (!json_is_integer(db) || json_integer_value(db) < 0 || json_integer_value(db) > 60000))
      return codec_fail(err, "bad_event", "\"debounce_ms\" must be milliseconds (0-60000)");
    if (db) su->debounce_ms = (int64_t)json_integer_value(db);
  }
  json_t *var = json_object_get(j, "variations");
  if (var) {
    if (!json_is_array(var)) return codec_fail(err, "bad_event", "\"variations\" must be a list");
    for (size_t i = 0; i < json_array_size(var); i++) {
      const char *v = json_string_value(json_array_get(var, i));
      if (v && !strcmp(v, "10I2"))
        su->variations |= ARB_OTB_US_10I2;
      else if (v && !strcmp(v, "11H1"))
        su->variations |= ARB_OTB_US_11H1;
      else
        return codec_fail(err, "bad_event", "unknown variation (known: 10I2, 11H1)");
    }
  }
  su->guidelines_iii = json_is_true(json_object_get(j, "guidelines_III"));
  json_t *ic = json_object_get(j, "illegal_count");
  if (ic) {
    if (!json_is_object(ic))
      return codec_fail(err, "bad_event", "\"illegal_count\" must be {white, black}");
    for (int c = 0; c < 2; c++) {
      json_t *n = json_object_get(ic, codec_color_name(c));
      if (n && (!json_is_integer(n) || json_integer_value(n) < 0 || json_integer_value(n) > 9))
        return codec_fail(err, "bad_event", "\"illegal_count\" counts must be 0-9");
      if (n) su->illegal_count[c] = (uint8_t)json_integer_value(n);
    }
  }
  return 1;
}

static int parse_event(json_t *j, otb_state *st, arb_otb_event *ev, start_fields *sf,
                       codec_error *err) {
  json_t *type = json_object_get(j, "type"), *t = json_object_get(j, "t");
  if (!json_is_string(type)) return codec_fail(err, "bad_event", "an event needs \"type\"");
  arb_otb_kind kind;
  if (arb_otb_kind_parse(json_string_value(type), json_string_length(type), &kind) != ARB_OK)
    return codec_fail(err, "unknown_event", "unknown event type");
  *ev = (arb_otb_event)ARB_OTB_EVENT_INIT(kind, 0);
  if (t) {
    if (!json_is_integer(t) || json_integer_value(t) < 0 ||
        json_integer_value(t) > ARB_CLOCK_TIME_MAX)
      return codec_fail(err, "bad_event",
                        "\"t\" must be a whole number of milliseconds, 0 or more");
    ev->t = (int64_t)json_integer_value(t);
  } else if (kind != ARB_OTB_START) {
    return codec_fail(err, "bad_event", "an event needs \"t\" (milliseconds)");
  }
  json_t *by = json_object_get(j, "by"), *side = json_object_get(j, "side");
  ev->by = (int8_t)codec_color_of(by);
  ev->side = (int8_t)codec_color_of(side);
  if (by && ev->by < 0)
    return codec_fail(err, "bad_event", "\"by\" must be \"white\" or \"black\"");
  if (side && ev->side < 0)
    return codec_fail(err, "bad_event", "\"side\" must be \"white\" or \"black\"");
  const char *src = json_string_value(json_object_get(j, "source"));
  ev->source = kind == ARB_OTB_LIFT || kind == ARB_OTB_PLACE || kind == ARB_OTB_BOARD
                   ? ARB_OTB_SRC_EBOARD
               : kind == ARB_OTB_PRESS || kind == ARB_OTB_FLAG_SHOWN ? ARB_OTB_SRC_CLOCK
                                                                     : ARB_OTB_SRC_LOG;
  if (src && !strcmp(src, "log")) ev->source = ARB_OTB_SRC_LOG;
  if (src && !strcmp(src, "eboard")) ev->source = ARB_OTB_SRC_EBOARD;
  if (src && !strcmp(src, "clock")) ev->source = ARB_OTB_SRC_CLOCK;
  /* squares: "square" or "squares" */
  json_t *sq = json_object_get(j, "square"), *sqs = json_object_get(j, "squares");
  if (sq) {
    if (!square_of(sq, &ev->squares[0]))
      return codec_fail(err, "bad_event", "\"square\" must be like \"e4\"");
    ev->square_count = 1;
  } else if (sqs) {
    if (!json_is_array(sqs) || json_array_size(sqs) == 0 || json_array_size(sqs) > 8)
      return codec_fail(err, "bad_event", "\"squares\" must be a list of 1-8 squares");
    for (size_t i = 0; i < json_array_size(sqs); i++)
      if (!square_of(json_array_get(sqs, i), &ev->squares[i]))
        return codec_fail(err, "bad_event", "\"squares\"[%zu] must be like \"e4\"", i);
    ev->square_count = (uint8_t)json_array_size(sqs);
  }
  const char *order = json_string_value(json_object_get(j, "order"));
  if (order && !strcmp(order, "simultaneous")) ev->order = ARB_OTB_ORDER_SIMULTANEOUS;
  if (order && !strcmp(order, "unknown")) ev->order = ARB_OTB_ORDER_UNKNOWN;
  const char *intent = json_string_value(json_object_get(j, "intent"));
  if (intent) {
    if (!strcmp(intent, "castle"))
      ev->intent = ARB_OTB_INTENT_CASTLE;
    else if (!strcmp(intent, "adjust"))
      ev->intent = ARB_OTB_INTENT_ADJUST;
    else if (!strcmp(intent, "accidental"))
      ev->intent = ARB_OTB_INTENT_ACCIDENTAL;
    else if (strcmp(intent, "move"))
      return codec_fail(err, "bad_event", "\"intent\" must be move, castle, adjust or accidental");
  }
  json_t *piece = json_object_get(j, "piece");
  if (piece) {
    int colour = ev->by;
    if (colour < 0 && kind == ARB_OTB_PROMOTE_CHOICE) colour = -1;
    ev->piece = piece_of(piece, colour);
    if (!ev->piece)
      return codec_fail(err, "bad_event", "\"piece\" must be a piece letter (KQRBNP/kqrbnp)");
  }
  json_t *hands = json_object_get(j, "hands");
  if (hands) {
    if (!json_is_integer(hands) || json_integer_value(hands) < 1 || json_integer_value(hands) > 2)
      return codec_fail(err, "bad_event", "\"hands\" must be 1 or 2");
    ev->hands = (uint8_t)json_integer_value(hands);
  }
  const char *hand = json_string_value(json_object_get(j, "hand"));
  if (kind == ARB_OTB_MOVE) snprintf(st->move_hand, sizeof st->move_hand, "%s", hand ? hand : "");
  if (kind == ARB_OTB_PRESS && hand)
    ev->other_hand = !strcmp(hand, "other") ||
                     (strcmp(hand, "same") && st->move_hand[0] && strcmp(hand, st->move_hand));
  /* move texts: "uci" (or "move"); claims: "intended"; board: "placement"; record: "san" */
  json_t *text = kind == ARB_OTB_BOARD    ? json_object_get(j, "placement")
                 : kind == ARB_OTB_CLAIM  ? json_object_get(j, "intended")
                 : kind == ARB_OTB_RECORD ? json_object_get(j, "san")
                                          : json_object_get(j, "uci");
  if (!text && kind == ARB_OTB_MOVE) text = json_object_get(j, "move");
  if (text) {
    if (!json_is_string(text))
      return codec_fail(err, "bad_event", "a move or placement must be a string");
    ev->text = json_string_value(text);
    ev->text_len = json_string_length(text);
  }
  json_t *stable = json_object_get(j, "stable_ms");
  if (stable) {
    if (!json_is_integer(stable) || json_integer_value(stable) < 0 ||
        json_integer_value(stable) > ARB_CLOCK_TIME_MAX || json_integer_value(stable) > ev->t)
      return codec_fail(err, "bad_event", "\"stable_ms\" must be milliseconds, at most t");
    ev->stable_ms = (int64_t)json_integer_value(stable);
  }
  json_t *matter = json_object_get(j, kind == ARB_OTB_CLAIM ? "kind" : "what");
  if (kind == ARB_OTB_CLAIM || kind == ARB_OTB_ARBITER_OBSERVES) {
    if (!json_is_string(matter) ||
        arb_otb_matter_parse(json_string_value(matter), json_string_length(matter), &ev->matter))
      return codec_fail(err, "bad_event",
                        "\"%s\" must be illegal_move, touch_move, flag, threefold, fifty, "
                        "dead_position, quickplay_increment, no_normal_means, pawn_on_last_rank or "
                        "both_kings_in_check",
                        kind == ARB_OTB_CLAIM ? "kind" : "what");
  }
  json_t *ply = json_object_get(j, "ply");
  if (ply) {
    if (!json_is_integer(ply) || json_integer_value(ply) < 1 || json_integer_value(ply) > 100000)
      return codec_fail(err, "bad_event", "\"ply\" must be a ply number (1 or more)");
    ev->ply = (int)json_integer_value(ply);
  }
  if (kind == ARB_OTB_SIGN) {
    json_t *res = json_object_get(j, "result");
    if (!json_is_string(res) ||
        arb_pgn_result_parse(json_string_value(res), json_string_length(res), &ev->result) ||
        ev->result == ARB_RESULT_NONE)
      return codec_fail(err, "bad_event", "\"sign\" needs \"result\": 1-0, 0-1 or 1/2-1/2");
  }
  if (kind == ARB_OTB_ARBITER_RULES) {
    json_t *dec = json_object_get(j, "decision");
    if (!json_is_string(dec) ||
        arb_otb_ruling_parse(json_string_value(dec), json_string_length(dec), &ev->ruling))
      return codec_fail(err, "bad_event",
                        "\"decision\" must be accept, reject, agree_increment, supply_piece, "
                        "no_valid_reason, time_adjust or result");
    json_t *ms = json_object_get(j, "ms");
    if (ms && (!json_is_integer(ms) || json_integer_value(ms) < -ARB_CLOCK_MS_MAX ||
               json_integer_value(ms) > ARB_CLOCK_MS_MAX))
      return codec_fail(err, "bad_event", "\"ms\" must be milliseconds");
    if (ms) ev->ms = (int64_t)json_integer_value(ms);
    json_t *res = json_object_get(j, "result");
    if (res &&
        (!json_is_string(res) ||
         arb_pgn_result_parse(json_string_value(res), json_string_length(res), &ev->result) ||
         ev->result == ARB_RESULT_NONE))
      return codec_fail(err, "bad_event", "\"result\" must be 1-0, 0-1 or 1/2-1/2");
  }
  ev->evident = kind == ARB_OTB_DEVICE && !json_is_false(json_object_get(j, "evident"));
  if (kind == ARB_OTB_START) {
    if (!parse_start(j, st, sf, err)) return 0;
    ev->setup = &sf->setup;
  }
  return 1;
}

static json_t *squares_json(arb_bitboard b) {
  json_t *a = json_array();
  static const char files[] = "abcdefgh";
  for (int sq = 0; sq < 64; sq++)
    if ((b >> sq) & 1u) {
      char s[3] = {files[sq & 7], (char)('1' + (sq >> 3)), 0};
      json_array_append_new(a, json_string(s));
    }
  return a;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp((const char *)a, (const char *)b);
}

static json_t *obligation_json(const arb_otb *otb, const arb_otb_obligation *ob, const char *fen) {
  if (!ob->active) return json_null();
  (void)otb;
  arb_position p;
  arb_fen_read(&p, fen, ARB_FEN_PROBLEMS_ALL, NULL);
  json_t *o = json_object();
  json_object_set_new(o, "must_move", squares_json(ob->must_move));
  json_object_set_new(o, "must_capture", squares_json(ob->must_capture));
  char(*list)[8] = malloc((size_t)(ob->allowed_count ? ob->allowed_count : 1) * sizeof *list);
  json_t *al = json_array();
  if (list) {
    for (int i = 0; i < ob->allowed_count; i++)
      arb_uci_write(&p, ob->allowed[i], list[i], 8);
    qsort(list, (size_t)ob->allowed_count, sizeof *list, cmp_str);
    for (int i = 0; i < ob->allowed_count; i++)
      json_array_append_new(al, json_string(list[i]));
    free(list);
  }
  json_object_set_new(o, "allowed", al);
  json_object_set_new(o, "any", json_boolean(ob->any));
  json_t *mc = json_object();
  json_object_set_new(mc, "a", json_boolean(ob->may_castle[0]));
  json_object_set_new(mc, "h", json_boolean(ob->may_castle[1]));
  json_object_set_new(o, "may_castle", mc);
  return o;
}

static int is_illegal_kind(arb_otb_violation v) {
  return v == ARB_OTB_V_ILLEGAL_MOVE_COMPLETED || v == ARB_OTB_V_PRESS_WITHOUT_MOVE ||
         v == ARB_OTB_V_TWO_HANDS || v == ARB_OTB_V_PROMOTION_NOT_COMPLETED;
}

static void describe(const otb_state *st, const arb_otb_decision *d, json_t *a) {
  json_object_set_new(a, "state", json_string(arb_otb_phase_name(d->phase)));
  json_object_set_new(a, "having_move", json_string(codec_color_name(d->having_move)));
  json_object_set_new(a, "obligation", obligation_json(st->otb, &d->obligation, d->fen));
  json_object_set_new(a, "made", d->made ? json_string(d->made_uci) : json_null());
  if (d->made) json_object_set_new(a, "made_legal", json_boolean(d->made_legal));
  json_object_set_new(a, "completed", json_boolean(d->completed));
  if (d->violation) {
    json_t *v = json_object();
    json_object_set_new(v, "code", json_string(arb_otb_violation_name(d->violation)));
    json_object_set_new(v, "article", json_string(d->article));
    json_object_set_new(a, "violation", v);
  } else {
    json_object_set_new(a, "violation", json_null());
  }
  json_object_set_new(a, "illegal", json_boolean(is_illegal_kind(d->violation)));
  if (d->penalty_warning) json_object_set_new(a, "penalty", json_string("warning"));
  if (d->time_added_s[0] || d->time_added_s[1]) {
    json_t *t = json_object();
    for (int c = 0; c < 2; c++)
      if (d->time_added_s[c])
        json_object_set_new(t, codec_color_name(c), json_integer(d->time_added_s[c]));
    json_object_set_new(a, "time_added", t);
  } else {
    json_object_set_new(a, "time_added", json_null());
  }
  json_t *ic = json_object();
  for (int c = 0; c < 2; c++)
    json_object_set_new(ic, codec_color_name(c), json_integer(d->illegal_count[c]));
  json_object_set_new(a, "illegal_count", ic);
  json_object_set_new(a, "restore_fen", d->restored ? json_string(d->restore_fen) : json_null());
  if (d->annulled_count) {
    json_t *an = json_array();
    for (int i = 0; i < d->annulled_count; i++)
      json_array_append_new(an, json_string(d->annulled[i]));
    json_object_set_new(a, "annulled", an);
  }
  json_object_set_new(a, "stands", json_boolean(d->stands));
  json_object_set_new(a, "claim_valid",
                      d->claim_valid < 0 ? json_null() : json_boolean(d->claim_valid));
  json_t *needs = json_array();
  if (d->needs & ARB_OTB_NEEDS_PROMOTION_PIECE)
    json_array_append_new(needs, json_string("promotion_piece"));
  if (d->needs & ARB_OTB_NEEDS_ARBITER)
    json_array_append_new(needs, json_string("arbiter_judgement"));
  if (d->needs & ARB_OTB_NEEDS_TOUCH_ORDER)
    json_array_append_new(needs, json_string("touch_order"));
  json_object_set_new(a, "needs", needs);
  json_object_set_new(a, "needs_confirmation", json_boolean(d->needs_confirmation));
  json_t *w = json_array();
  static const char *const wn[] = {"board_mismatch",       "sensor_misread", "result_gesture",
                                   "flag_shown",           "out_of_turn",    "piece_displaced",
                                   "signed_result_differs"};
  for (int i = 0; i < (int)(sizeof wn / sizeof *wn); i++)
    if (d->warnings & (1u << i)) json_array_append_new(w, json_string(wn[i]));
  json_object_set_new(a, "warnings", w);
  if (d->takeback) json_object_set_new(a, "takeback", json_true());
  if (d->signal) json_object_set_new(a, "signal", json_string(arb_result_string(d->signal)));
  /* the record, as played */
  json_t *rec = json_array();
  uint32_t n = arb_otb_record_count(st->otb);
  for (uint32_t i = 0; i < n; i++) {
    arb_otb_record_entry e;
    if (arb_otb_record_at(st->otb, i, &e)) break;
    json_t *r = json_object();
    json_object_set_new(r, "uci", json_string(e.uci));
    json_object_set_new(r, "san", json_string(e.san));
    json_object_set_new(r, "legal", json_boolean(e.legal));
    if (e.annulled) json_object_set_new(r, "annulled", json_true());
    if (e.stood) json_object_set_new(r, "stood", json_true());
    if (e.violation)
      json_object_set_new(r, "violation", json_string(arb_otb_violation_name(e.violation)));
    if (e.t_press >= 0) json_object_set_new(r, "t_press", json_integer(e.t_press));
    json_array_append_new(rec, r);
  }
  json_object_set_new(a, "record", rec);
  json_object_set_new(a, "fen", json_string(d->fen));
  json_object_set_new(a, "turn", json_string(codec_color_name(d->having_move)));
  json_object_set_new(a, "status", json_string(d->over ? "over" : "ongoing"));
  json_object_set_new(
      a, "result", json_string(arb_result_string(d->over ? d->outcome.result : ARB_RESULT_NONE)));
  json_object_set_new(a, "termination",
                      json_string(d->over ? arb_termination_name(d->outcome.termination) : ""));
  json_object_set_new(a, "repetitions", json_integer(d->repetitions));
  json_object_set_new(a, "draw_offer",
                      d->draw_offer >= 0 ? json_string(codec_color_name(d->draw_offer))
                                         : json_null());
  if (d->timed) {
    json_t *c = json_object();
    json_object_set_new(c, "white_ms", json_integer(d->remaining_ms[0]));
    json_object_set_new(c, "black_ms", json_integer(d->remaining_ms[1]));
    json_object_set_new(c, "running",
                        d->running >= 0 ? json_string(codec_color_name(d->running)) : json_null());
    json_object_set_new(a, "clock", c);
  }
}

char *otb_answer(otb_state *st, const char *line, size_t len, long lineno) {
  json_error_t jerr;
  json_t *answer = json_object();
  json_object_set_new(answer, "type", json_string(""));
  json_object_set_new(answer, "ok", json_false());
  codec_error err = {NULL, ""};
  arb_otb_decision *d = malloc(sizeof *d);
  int ok = 0, decided = 0;
  json_t *j = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
  start_fields *sf = malloc(sizeof *sf);
  if (!d || !sf) {
    codec_fail(&err, "no_memory", "out of memory");
  } else if (!j || !json_is_object(j)) {
    codec_fail(&err, "json", "%s", j ? "an event must be a JSON object" : jerr.text);
  } else {
    arb_otb_event ev;
    if (parse_event(j, st, &ev, sf, &err)) {
      if (ev.kind == ARB_OTB_START) write_pgn(st);
      ok = arb_otb_event_apply(st->otb, &ev, d) == ARB_OK;
      decided = 1;
      if (!ok) {
        err.code = arb_otb_refusal_name(d->refusal);
        snprintf(err.message, sizeof err.message, "%s", d->message);
      }
    }
    codec_echo(answer, j);
  }
  codec_status(answer, ok, &err, lineno);
  if (decided && d->fen[0]) describe(st, d, answer);
  json_decref(j);
  free(sf);
  free(d);
  char *text = json_dumps(answer, JSON_COMPACT);
  json_decref(answer);
  return text;
}
