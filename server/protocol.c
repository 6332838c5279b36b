/* Arbiter — MIT licence, see LICENSE.
 *
 * protocol.c: the play protocol's wire format — client messages parsed with hard limits (size,
 * nesting, an allow-list of types, each field's type and range), server messages written from
 * the referee's state.  Everything a page shows comes from here, so every front end reads the
 * same words for the same ending.
 */
#include "protocol.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const msg_names[SRV_MSG_COUNT] = {
#define SRV_MSG_NAME_(name, text) [name] = text,
    SRV_MSG_LIST(SRV_MSG_NAME_)
#undef SRV_MSG_NAME_
};

const char *srv_msg_name(srv_msg_type type) {
  return (unsigned)type < SRV_MSG_COUNT ? msg_names[type] : "";
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(srv_parse_error *err, const char *code, const char *fmt, ...) {
  err->code = code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return -1;
}

/* The deepest nesting of objects and arrays, outside strings; stops counting past limit. */
static int nesting(const char *s, size_t len, int limit) {
  int depth = 0, deepest = 0, in_string = 0;
  for (size_t i = 0; i < len && deepest <= limit; i++) {
    char c = s[i];
    if (in_string) {
      if (c == '\\') i++;
      else if (c == '"') in_string = 0;
    } else if (c == '"') {
      in_string = 1;
    } else if (c == '{' || c == '[') {
      if (++depth > deepest) deepest = depth;
    } else if (c == '}' || c == ']') {
      depth--;
    }
  }
  return deepest;
}

static int uci_syntax(const char *s, size_t n) {
  if (n != 4 && n != 5) return 0;
  if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' || s[2] < 'a' || s[2] > 'h' ||
      s[3] < '1' || s[3] > '8')
    return 0;
  return n == 4 || strchr("qrbn", s[4]) != NULL;
}

/* An optional non-negative integer field up to max; -1 when absent.  0 when of a bad type. */
static int opt_int(json_t *o, const char *key, int64_t max, int64_t *out) {
  json_t *v = json_object_get(o, key);
  *out = -1;
  if (!v) return 1;
  if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > max) return 0;
  *out = (int64_t)json_integer_value(v);
  return 1;
}

static int parse_fields(json_t *j, srv_msg *m, srv_parse_error *err) {
  const char *name = srv_msg_name(m->type);
  if (!opt_int(j, "id", (INT64_C(1) << 53), &m->id))
    return fail(err, "bad_message", "\"id\" must be a whole number, 0 or more");
  json_t *uci = json_object_get(j, "uci");
  if (uci) {
    if (!json_is_string(uci) || !uci_syntax(json_string_value(uci), json_string_length(uci)))
      return fail(err, "bad_message", "\"uci\" must be a move like e2e4 or e7e8q");
    memcpy(m->uci, json_string_value(uci), json_string_length(uci) + 1);
  }
  switch (m->type) {
  case SRV_MSG_HELLO: {
    json_t *game = json_object_get(j, "game"), *token = json_object_get(j, "token");
    if (!json_is_string(game) ||
        !srv_game_id_valid(json_string_value(game), json_string_length(game)))
      return fail(err, "bad_message", "\"hello\" needs \"game\": the game's id");
    memcpy(m->game, json_string_value(game), SRV_GAME_ID_LEN + 1);
    if (token && !json_is_null(token)) {
      if (!json_is_string(token) || json_string_length(token) != SRV_TOKEN_LEN)
        return fail(err, "bad_message", "\"token\" must be the seat's token from its link");
      memcpy(m->token, json_string_value(token), SRV_TOKEN_LEN + 1);
    }
    if (!opt_int(j, "v", INT64_MAX, &m->version))
      return fail(err, "bad_message", "\"v\" must be the last version seen");
    break;
  }
  case SRV_MSG_MOVE:
  case SRV_MSG_PREMOVE:
    if (!m->uci[0]) return fail(err, "bad_message", "\"%s\" needs \"uci\": a move like e2e4", name);
    if (!opt_int(j, "lag", 60000, &m->lag_ms))
      return fail(err, "bad_message", "\"lag\" must be milliseconds, 0 to 60000");
    break;
  case SRV_MSG_CLAIM_DRAW: {
    const char *r = json_string_value(json_object_get(j, "reason"));
    if (r && !strcmp(r, "threefold")) m->reason = ARB_CLAIM_THREEFOLD;
    else if (r && !strcmp(r, "fifty")) m->reason = ARB_CLAIM_FIFTY;
    else return fail(err, "bad_message", "\"claim_draw\" needs \"reason\": threefold or fifty");
    break;
  }
  case SRV_MSG_SETTINGS: {
    json_t *aq = json_object_get(j, "auto_queen");
    if (!json_is_boolean(aq))
      return fail(err, "bad_message", "\"settings\" needs \"auto_queen\": true or false");
    m->auto_queen = json_is_true(aq);
    break;
  }
  default: break;
  }
  return 0;
}

int srv_parse_client(const char *text, size_t len, srv_msg *m, srv_parse_error *err) {
  memset(m, 0, sizeof *m);
  m->id = m->version = m->lag_ms = -1;
  m->auto_queen = -1;
  err->code = NULL;
  err->message[0] = 0;
  if (len > SRV_MAX_MESSAGE)
    return fail(err, "too_big", "a message may have at most %d bytes", SRV_MAX_MESSAGE);
  if (nesting(text, len, SRV_MAX_DEPTH) > SRV_MAX_DEPTH)
    return fail(err, "too_deep", "a message may nest at most %d levels", SRV_MAX_DEPTH);
  json_error_t jerr;
  json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  if (!j) return fail(err, "json", "%s (column %d)", jerr.text, jerr.column);
  int rc = -1;
  json_t *t = json_object_get(j, "t");
  if (!json_is_object(j)) {
    fail(err, "bad_message", "a message must be a JSON object");
  } else if (!json_is_string(t)) {
    fail(err, "bad_message", "a message needs \"t\": its type");
  } else {
    int type = -1;
    for (int k = 0; k < SRV_MSG_COUNT; k++)
      if (!strcmp(msg_names[k], json_string_value(t))) type = k;
    if (type < 0) {
      fail(err, "unknown_type", "unknown message type");
    } else {
      m->type = (srv_msg_type)type;
      rc = parse_fields(j, m, err);
    }
  }
  json_decref(j);
  return rc;
}

/* ---- writing ---- */

static const char *color_name(int c) { return c == ARB_WHITE ? "white" : "black"; }
static const char *Color(int c) { return c == ARB_WHITE ? "White" : "Black"; }

static char *dump(json_t *j) {
  char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
  json_decref(j);
  return text;
}

int srv_reason_words(const arb_referee *ref, char *buf, size_t size) {
  arb_ref_state s;
  arb_referee_state_of(ref, &s);
  if (!s.has_game || !s.over) return snprintf(buf, size, "%s", "");
  const arb_outcome o = s.outcome;
  int loser = o.result == ARB_RESULT_WHITE_WINS ? ARB_BLACK : ARB_WHITE;
  int winner = loser ^ 1;
  /* the side to move: the mated or stalemated one, the one whose flag ran at a first-move
   * abort */
  int mover = s.turn;
  if (s.aborted) {
    uint32_t n = arb_referee_record_count(ref);
    arb_ref_entry e;
    if (n && arb_referee_record_at(ref, n - 1, &e) == ARB_OK && e.kind == ARB_REF_TICK)
      return snprintf(buf, size, "Game aborted: %s did not make a first move in time",
                      Color(e.side));
    if (n && arb_referee_record_at(ref, n - 1, &e) == ARB_OK && e.kind == ARB_REF_ABORT)
      return snprintf(buf, size, "Game aborted by %s", Color(e.by));
    return snprintf(buf, size, "Game aborted");
  }
  const char *claimed = o.automatic ? "" : o.by == ARB_WHITE ? ", claimed by White" : ", claimed by Black";
  switch (o.termination) {
  case ARB_TERM_CHECKMATE:
    return snprintf(buf, size, "Checkmate: %s wins", Color(winner));
  case ARB_TERM_STALEMATE:
    return snprintf(buf, size, "Draw: stalemate (%s has no legal move and is not in check)",
                    Color(mover));
  case ARB_TERM_INSUFFICIENT_MATERIAL:
    return snprintf(buf, size, "Draw: neither side has the material to checkmate");
  case ARB_TERM_DEAD_POSITION:
    return snprintf(buf, size,
                    "Draw: dead position (neither side can checkmate by any sequence of legal "
                    "moves)");
  case ARB_TERM_FIVEFOLD_REPETITION:
    return snprintf(buf, size, "Draw: the same position occurred five times");
  case ARB_TERM_SEVENTYFIVE_MOVES:
    return snprintf(buf, size, "Draw: 75 moves by each side without a capture or a pawn move");
  case ARB_TERM_THREEFOLD_REPETITION:
    return snprintf(buf, size, "Draw: the same position occurred three times%s", claimed);
  case ARB_TERM_FIFTY_MOVES:
    return snprintf(buf, size, "Draw: 50 moves by each side without a capture or a pawn move%s",
                    claimed);
  case ARB_TERM_AGREEMENT: return snprintf(buf, size, "Draw by agreement");
  case ARB_TERM_RESIGNATION:
    if (o.result == ARB_RESULT_DRAW)
      return snprintf(buf, size,
                      "Draw: %s resigned, but %s cannot checkmate by any sequence of legal moves",
                      Color(o.by), Color(o.by ^ 1));
    return snprintf(buf, size, "%s resigned: %s wins", Color(loser), Color(winner));
  case ARB_TERM_TIME_FORFEIT: {
    int flagged = s.flag_side >= 0 ? s.flag_side : loser;
    switch (s.flag_reason) {
    case ARB_FLAG_CANNOT_MATE:
      return snprintf(buf, size,
                      "Draw: %s ran out of time, but %s cannot checkmate by any sequence of legal "
                      "moves",
                      Color(flagged), Color(flagged ^ 1));
    case ARB_FLAG_INSUFFICIENT:
      return snprintf(buf, size,
                      "Draw: %s ran out of time, but %s has too little material to win",
                      Color(flagged), Color(flagged ^ 1));
    case ARB_FLAG_DEAD_POSITION:
      return snprintf(buf, size, "Draw: %s ran out of time in a dead position", Color(flagged));
    case ARB_FLAG_DRAW_OFFER:
      return snprintf(buf, size, "Draw: %s ran out of time while %s's draw offer stood",
                      Color(flagged), Color(flagged ^ 1));
    case ARB_FLAG_BOTH_FLAGS:
      return snprintf(buf, size, "Draw: both flags fell");
    default:
      return snprintf(buf, size, "%s ran out of time: %s wins", Color(flagged),
                      Color(flagged ^ 1));
    }
  }
  default: return snprintf(buf, size, "Game over");
  }
}

static json_t *ms_json(int64_t ms) { return ms == ARB_CLOCK_NEVER ? json_null() : json_integer(ms); }

/* {"e2":"e3e4", ...}: the legal destinations of each piece of the side to move; castling also
 * onto the rook (chessground's rookCastle), as lichess sends it. */
static json_t *dests_of(const arb_position *p) {
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(p, moves);
  char to[64][2 * 9 * 4 + 1]; /* per origin, at most 27 + 2 destinations of 2 chars */
  int len[64] = {0};
  for (int i = 0; i < n; i++) {
    char uci[8];
    arb_uci_write(p, moves[i], uci, sizeof uci);
    int from = (uci[0] - 'a') + 8 * (uci[1] - '1');
    /* a promotion appears four times: one destination */
    if (len[from] >= 2 && !memcmp(to[from] + len[from] - 2, uci + 2, 2)) continue;
    memcpy(to[from] + len[from], uci + 2, 2);
    len[from] += 2;
    if (ARB_MOVE_KIND(moves[i]) == ARB_MOVE_CASTLING && !p->chess960) {
      arb_square r = ARB_MOVE_TO(moves[i]); /* king-takes-rook inside */
      to[from][len[from]++] = (char)('a' + r % 8);
      to[from][len[from]++] = (char)('1' + r / 8);
    }
  }
  json_t *d = json_object();
  for (int sq = 0; sq < 64; sq++)
    if (len[sq]) {
      char key[3] = {(char)('a' + sq % 8), (char)('1' + sq / 8), 0};
      json_object_set_new(d, key, json_stringn(to[sq], (size_t)len[sq]));
    }
  return d;
}

/* The "game" object of every state and update message. */
static json_t *game_object(const srv_view *v, int for_seat) {
  json_t *g = json_object();
  arb_ref_state s;
  arb_referee_state_of(v->ref, &s);
  const arb_game *game = arb_referee_game(v->ref);
  arb_position start;
  if (v->setup->start) start = *v->setup->start;
  else arb_fen_read(&start, ARB_FEN_START, 0, NULL);
  const arb_position *p = game && v->started ? arb_game_position(game) : &start;
  char fen[ARB_FEN_MAX];
  json_object_set_new(g, "id", json_string(v->id));
  json_object_set_new(g, "rules", json_string(arb_rules_get(v->setup->rules)->name));
  json_object_set_new(g, "control", json_string(v->control));
  json_object_set_new(g, "chess960", json_boolean(start.chess960));
  arb_fen_write(&start, fen, sizeof fen, 0);
  json_object_set_new(g, "initial_fen", json_string(fen));
  int over = v->started && s.over;
  json_object_set_new(g, "status",
                      json_string(!v->started ? "waiting" : over ? "over" : "ongoing"));
  json_object_set_new(g, "result", json_string(arb_result_string(v->started ? s.outcome.result
                                                                            : ARB_RESULT_NONE)));
  const char *term = !over         ? ""
                     : s.aborted   ? "aborted"
                                   : arb_termination_name(s.outcome.termination);
  json_object_set_new(g, "termination", json_string(term));
  char words[192] = "";
  if (over) srv_reason_words(v->ref, words, sizeof words);
  json_object_set_new(g, "reason", json_string(words));
  if (over && s.flag_side >= 0) json_object_set_new(g, "flag", json_string(color_name(s.flag_side)));
  arb_fen_write(p, fen, sizeof fen, 0);
  json_object_set_new(g, "fen", json_string(fen));
  json_object_set_new(g, "turn", json_string(color_name(p->turn)));
  int plies = v->started ? s.ply : 0;
  json_object_set_new(g, "ply", json_integer(plies));
  json_object_set_new(g, "check", json_boolean(arb_in_check(p)));
  json_t *sans = json_array();
  json_t *last = json_null();
  for (int i = 1; i <= plies; i++) {
    json_array_append_new(sans, json_string(arb_game_san_at(game, i)));
    if (i == plies) {
      char uci[8];
      arb_uci_write(arb_game_position_at(game, i - 1), arb_game_move_at(game, i), uci, sizeof uci);
      last = json_stringn(uci, 4);
    }
  }
  json_object_set_new(g, "moves", sans);
  json_object_set_new(g, "last_move", last);
  /* the clocks: the referee's, or the control's starting times while waiting */
  if (v->setup->control) {
    json_t *c = json_object();
    /* the clocks as they stand at the view's time (a state sent after the last event) */
    int64_t at = v->server_ms > s.now ? v->server_ms : s.now;
    const arb_clock *clock = arb_referee_clock(v->ref);
    int64_t w = clock ? arb_clock_remaining(clock, ARB_WHITE, at) : s.remaining_ms[ARB_WHITE];
    int64_t b = clock ? arb_clock_remaining(clock, ARB_BLACK, at) : s.remaining_ms[ARB_BLACK];
    if (!v->started) {
      arb_clock fresh;
      arb_time_control tc = *v->setup->control;
      tc.model = v->setup->clock_model >= 0 ? (uint8_t)v->setup->clock_model
                                            : arb_clock_rules_get(v->setup->rules)->model;
      arb_clock_init(&fresh, &tc);
      w = arb_clock_remaining(&fresh, ARB_WHITE, 0);
      b = arb_clock_remaining(&fresh, ARB_BLACK, 0);
    }
    json_object_set_new(c, "white_ms", ms_json(w));
    json_object_set_new(c, "black_ms", ms_json(b));
    json_object_set_new(c, "running",
                        v->started && s.running >= 0 ? json_string(color_name(s.running))
                                                     : json_null());
    json_object_set_new(c, "flag_at", ms_json(v->started ? s.flag_at : ARB_CLOCK_NEVER));
    json_object_set_new(c, "server_ms", json_integer(v->started ? at : v->server_ms));
    json_object_set_new(g, "clock", c);
  } else {
    json_object_set_new(g, "clock", json_null());
  }
  json_object_set_new(g, "draw_offer", v->started && s.draw_offer >= 0
                                           ? json_string(color_name(s.draw_offer))
                                           : json_null());
  json_t *claims = json_array();
  if (v->started && (s.claims & ARB_REF_CAN_CLAIM(ARB_CLAIM_THREEFOLD)))
    json_array_append_new(claims, json_string("threefold"));
  if (v->started && (s.claims & ARB_REF_CAN_CLAIM(ARB_CLAIM_FIFTY)))
    json_array_append_new(claims, json_string("fifty"));
  json_object_set_new(g, "claims", claims);
  json_object_set_new(g, "abortable", json_boolean(v->started && !over && plies < 2));
  if (v->started && s.must_play != ARB_MOVE_NONE) {
    char uci[8];
    arb_uci_write(p, s.must_play, uci, sizeof uci);
    json_object_set_new(g, "must_play", json_string(uci));
  }
  json_object_set_new(g, "seat", json_string(v->viewer >= 0 ? color_name(v->viewer) : "spectator"));
  if (for_seat && v->viewer >= 0) {
    json_object_set_new(g, "auto_queen", json_boolean(v->auto_queen));
    if (s.premove[v->viewer][0])
      json_object_set_new(g, "premove", json_string(s.premove[v->viewer]));
    if (v->started && !over && v->viewer == (int)p->turn)
      json_object_set_new(g, "dests", dests_of(p));
  }
  json_t *players = json_object();
  for (int c = 0; c < 2; c++) {
    json_t *pl = json_object();
    json_object_set_new(pl, "connected", json_boolean(v->connected[c]));
    json_object_set_new(players, color_name(c), pl);
  }
  json_object_set_new(g, "players", players);
  json_t *rm = json_object();
  json_object_set_new(rm, "offer",
                      v->rematch_offer >= 0 ? json_string(color_name(v->rematch_offer)) : json_null());
  json_object_set_new(rm, "game", v->rematch_id ? json_string(v->rematch_id) : json_null());
  json_object_set_new(g, "rematch", rm);
  return g;
}

char *srv_write_state(const srv_view *v) {
  json_t *j = json_object();
  json_object_set_new(j, "t", json_string("state"));
  json_object_set_new(j, "v", json_integer((json_int_t)v->version));
  json_object_set_new(j, "game", game_object(v, 1));
  return dump(j);
}

char *srv_write_game_json(const srv_view *v) { return dump(game_object(v, 0)); }

char *srv_write_update(const srv_view *v, const srv_event_info *ev) {
  json_t *j = json_object(), *e = json_object();
  json_object_set_new(j, "t", json_string("update"));
  json_object_set_new(j, "v", json_integer((json_int_t)v->version));
  const char *kind = ev->kind == ARB_REF_TICK ? "time" : arb_ref_kind_name(ev->kind);
  json_object_set_new(e, "kind", json_string(kind));
  if (ev->by >= 0) json_object_set_new(e, "by", json_string(color_name(ev->by)));
  if (ev->side >= 0) json_object_set_new(e, "side", json_string(color_name(ev->side)));
  const arb_ref_decision *d = ev->d;
  if (ev->kind == ARB_REF_MOVE && d) {
    json_object_set_new(e, "uci", json_string(ev->premove ? d->premove.uci : d->uci));
    json_object_set_new(e, "san", json_string(ev->premove ? d->premove.san : d->san));
    if (ev->premove) json_object_set_new(e, "premove", json_true());
  }
  if (ev->kind == ARB_REF_CLAIM_DRAW && d && d->claimed) {
    json_object_set_new(
        e, "reason", json_string(ev->reason == ARB_CLAIM_THREEFOLD ? "threefold" : "fifty"));
    json_object_set_new(e, "correct", json_boolean(d->verdict.correct));
    if (!d->verdict.correct) json_object_set_new(e, "penalty_s", json_integer(d->verdict.penalty_s));
  }
  json_object_set_new(j, "event", e);
  json_object_set_new(j, "game", game_object(v, 1));
  return dump(j);
}

char *srv_write_ack(int64_t id, int duplicate) {
  json_t *j = json_object();
  json_object_set_new(j, "t", json_string("ack"));
  json_object_set_new(j, "id", json_integer(id));
  if (duplicate) json_object_set_new(j, "duplicate", json_true());
  return dump(j);
}

char *srv_write_error(const char *code, const char *message, int64_t id) {
  json_t *j = json_object();
  json_object_set_new(j, "t", json_string("error"));
  json_object_set_new(j, "code", json_string(code));
  json_t *m = json_string(message);
  json_object_set_new(j, "message", m ? m : json_string("(not valid UTF-8)"));
  if (id >= 0) json_object_set_new(j, "id", json_integer(id));
  return dump(j);
}

char *srv_write_premove(const char *uci, const char *dropped) {
  json_t *j = json_object();
  json_object_set_new(j, "t", json_string("premove"));
  json_object_set_new(j, "uci", json_string(uci));
  if (dropped) json_object_set_new(j, "dropped", json_string(dropped));
  return dump(j);
}

char *srv_write_rematch(const char *id, const char *token) {
  char url[64];
  snprintf(url, sizeof url, "/game/%s#%s", id, token);
  json_t *j = json_object();
  json_object_set_new(j, "t", json_string("rematch"));
  json_object_set_new(j, "game", json_string(id));
  json_object_set_new(j, "url", json_string(url));
  return dump(j);
}

char *srv_write_pong(int64_t server_ms) {
  json_t *j = json_object();
  json_object_set_new(j, "t", json_string("pong"));
  json_object_set_new(j, "server_ms", json_integer(server_ms));
  return dump(j);
}
