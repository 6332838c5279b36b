/* Arbiter — MIT licence, see LICENSE.
 *
 * protocol.c: the play protocol's wire format — client messages parsed with hard limits (size,
 * nesting, an allow-list of types, each field's type and range), server messages written from
 * the referee's state.  Everything a page shows comes from here, so every front end reads the
 * same words for the same ending.
 */
#include "protocol.h"

#include "jsonw.h"

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
static int
fail(srv_parse_error *err, const char *code, const char *fmt, ...) {
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
      if (c == '\\')
        i++;
      else if (c == '"')
        in_string = 0;
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
  return n == 4 || (s[4] && strchr("qrbn", s[4]) != NULL); /* strchr finds a NUL too */
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
    json_t *nm = json_object_get(j, "name");
    if (nm && !json_is_null(nm)) {
      /* jansson gives valid UTF-8: count characters, refuse control ones (C0, DEL, C1) */
      const unsigned char *t = (const unsigned char *)json_string_value(nm);
      size_t n = json_is_string(nm) ? json_string_length(nm) : 0, chars = 0;
      int bad = !json_is_string(nm) || strlen((const char *)t) != n;
      for (size_t i = 0; !bad && i < n; i++) {
        if ((t[i] & 0xC0) != 0x80) chars++;
        if (t[i] < 0x20 || t[i] == 0x7F || (t[i] == 0xC2 && i + 1 < n && t[i + 1] < 0xA0)) bad = 1;
      }
      if (bad || chars > SRV_HELLO_NAME_CHARS || n >= sizeof m->name)
        return fail(err, "bad_message",
                    "\"name\" must be text of at most %d characters, without control characters",
                    SRV_HELLO_NAME_CHARS);
      memcpy(m->name, t, n + 1);
    }
    break;
  }
  case SRV_MSG_MOVE:
  case SRV_MSG_PREMOVE: {
    json_t *san = json_object_get(j, "san");
    if (san && m->type == SRV_MSG_MOVE) {
      /* typed by a person: any short text, read by the referee (SAN or UCI, leniently) */
      if (!json_is_string(san) || !json_string_length(san) ||
          json_string_length(san) >= sizeof m->san ||
          strlen(json_string_value(san)) != json_string_length(san))
        return fail(err, "bad_message", "\"san\" must be a move like Nf3 (at most 15 bytes)");
      memcpy(m->san, json_string_value(san), json_string_length(san) + 1);
    }
    if (!m->uci[0] && !m->san[0])
      return fail(err, "bad_message", "\"%s\" needs \"uci\": a move like e2e4", name);
    if (!opt_int(j, "lag", 60000, &m->lag_ms))
      return fail(err, "bad_message", "\"lag\" must be milliseconds, 0 to 60000");
    break;
  }
  case SRV_MSG_CLAIM_DRAW: {
    const char *r = json_string_value(json_object_get(j, "reason"));
    if (r && !strcmp(r, "threefold"))
      m->reason = ARB_CLAIM_THREEFOLD;
    else if (r && !strcmp(r, "fifty"))
      m->reason = ARB_CLAIM_FIFTY;
    else
      return fail(err, "bad_message", "\"claim_draw\" needs \"reason\": threefold or fifty");
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

/* A whole number of at most `max` as JSON writes it (digits, no sign, no leading zero, no
 * fraction): its value, or -1. */
static int64_t plain_uint(const char **p, const char *end, int64_t max) {
  const char *s = *p;
  int64_t v = 0;
  if (s == end || *s < '0' || *s > '9' || (*s == '0' && s + 1 < end && s[1] >= '0' && s[1] <= '9'))
    return -1;
  for (; s < end && *s >= '0' && *s <= '9'; s++) {
    v = v * 10 + (*s - '0');
    if (v > max) return -1;
  }
  *p = s;
  return v;
}

/* The message sent with every move, as a page or a bot writes it — {"t":"move" or "premove",
 * "uci":..., "id":..., "lag":...}: those keys only, in any order, each once, no blanks, no
 * escapes, the move and the numbers as parse_fields would take them — read without building
 * a JSON tree.  1 when read so; 0 for any other text, which the full path then reads (and
 * refuses with the reason when it must), with the same result as this one for what this one
 * reads. */
static int parse_move_fast(const char *s, size_t len, srv_msg *m) {
  const char *p = s, *end = s + len;
  int seen_t = 0, seen_id = 0, seen_lag = 0;
  if (p == end || *p++ != '{') return 0;
  for (;;) {
    if (end - p < 4 || *p++ != '"') return 0;
    const char *key = p;
    while (p < end && *p >= 'a' && *p <= 'z')
      p++;
    size_t klen = (size_t)(p - key);
    if (end - p < 3 || p[0] != '"' || p[1] != ':') return 0;
    p += 2;
    if (klen == 1 && key[0] == 't' && !seen_t) {
      seen_t = 1;
      if (end - p >= 6 && !memcmp(p, "\"move\"", 6)) {
        m->type = SRV_MSG_MOVE;
        p += 6;
      } else if (end - p >= 9 && !memcmp(p, "\"premove\"", 9)) {
        m->type = SRV_MSG_PREMOVE;
        p += 9;
      } else {
        return 0;
      }
    } else if (klen == 3 && !memcmp(key, "uci", 3) && !m->uci[0]) {
      if (*p++ != '"') return 0;
      const char *u = p;
      while (p < end && *p != '"' && p - u < 6)
        p++;
      if (p == end || *p != '"' || !uci_syntax(u, (size_t)(p - u))) return 0;
      memcpy(m->uci, u, (size_t)(p - u));
      m->uci[p - u] = 0;
      p++;
    } else if (klen == 2 && !memcmp(key, "id", 2) && !seen_id) {
      seen_id = 1;
      if ((m->id = plain_uint(&p, end, INT64_C(1) << 53)) < 0) return 0;
    } else if (klen == 3 && !memcmp(key, "lag", 3) && !seen_lag) {
      seen_lag = 1;
      if ((m->lag_ms = plain_uint(&p, end, 60000)) < 0) return 0;
    } else {
      return 0;
    }
    if (p == end) return 0;
    if (*p == '}') return p + 1 == end && seen_t && m->uci[0];
    if (*p++ != ',') return 0;
  }
}

static void parse_init(srv_msg *m, srv_parse_error *err) {
  memset(m, 0, sizeof *m);
  m->id = m->version = m->lag_ms = -1;
  m->auto_queen = -1;
  err->code = NULL;
  err->message[0] = 0;
}

/* The bounds every message is held to first: 0, or -1 with *err. */
static int parse_bounds(const char *text, size_t len, srv_parse_error *err) {
  if (len > SRV_MAX_MESSAGE)
    return fail(err, "too_big", "a message may have at most %d bytes", SRV_MAX_MESSAGE);
  if (nesting(text, len, SRV_MAX_DEPTH) > SRV_MAX_DEPTH)
    return fail(err, "too_deep", "a message may nest at most %d levels", SRV_MAX_DEPTH);
  return 0;
}

/* Any message, through the JSON library. */
static int parse_json(const char *text, size_t len, srv_msg *m, srv_parse_error *err) {
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

int srv_parse_client(const char *text, size_t len, srv_msg *m, srv_parse_error *err) {
  parse_init(m, err);
  if (parse_bounds(text, len, err)) return -1;
  if (parse_move_fast(text, len, m)) return 0;
  parse_init(m, err); /* anything else: read whole from the start */
  return parse_json(text, len, m, err);
}

int srv_parse_client_json(const char *text, size_t len, srv_msg *m, srv_parse_error *err) {
  parse_init(m, err);
  if (parse_bounds(text, len, err)) return -1;
  return parse_json(text, len, m, err);
}

/* ---- writing ---- */

static const char *color_name(int c) { return c == ARB_WHITE ? "white" : "black"; }

static char *dump(json_t *j) {
  char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
  json_decref(j);
  return text;
}

int srv_reason_words(const arb_referee *ref, char *buf, size_t size) {
  return arb_referee_end_words(ref, buf, size);
}

/* The move from -> to (promotion, ARB_NO_TYPE none) as a player would write it: SAN without
 * disambiguation or check marks (an illegal move has no SAN). */
static void pseudo_san(const arb_position *p, arb_square from, arb_square to, arb_piece_type promo,
                       char *out, size_t size) {
  static const char letters[] = "?PNBRQK"; /* by arb_piece_type */
  arb_piece pc = p->board[from];
  char dest[3] = {(char)('a' + to % 8), (char)('1' + to / 8), 0};
  if (pc == ARB_NO_PIECE) {
    snprintf(out, size, "%c%c%s", 'a' + from % 8, '1' + from / 8, dest);
    return;
  }
  arb_piece_type t = ARB_PIECE_TYPE(pc);
  int capture =
      p->board[to] != ARB_NO_PIECE && ARB_PIECE_COLOR(p->board[to]) != ARB_PIECE_COLOR(pc);
  if (t == ARB_KING && (from % 8 == 4) && (to % 8 == 6 || to % 8 == 2) && from / 8 == to / 8) {
    snprintf(out, size, "%s", to % 8 == 6 ? "O-O" : "O-O-O");
    return;
  }
  if (t == ARB_PAWN) {
    capture = capture || from % 8 != to % 8;
    char promo_text[4] = "";
    if (promo > ARB_PAWN && promo < ARB_KING)
      snprintf(promo_text, sizeof promo_text, "=%c", letters[promo]);
    if (capture)
      snprintf(out, size, "%cx%s%s", 'a' + from % 8, dest, promo_text);
    else
      snprintf(out, size, "%s%s", dest, promo_text);
    return;
  }
  snprintf(out, size, "%c%s%s", letters[t], capture ? "x" : "", dest);
}

/* A typed SAN move's piece and destination, read leniently ("Bxe5+", "exd5", "e8=Q", "Nbd2"):
 * 1 and the from-square of the first piece of that kind that could go there by its way of
 * moving (the one the player most likely meant), else 0. */
static int san_squares(const arb_position *p, const char *text, size_t len, arb_square *from,
                       arb_square *to, arb_piece_type *promo) {
  char t[16];
  size_t n = 0;
  for (size_t i = 0; i < len && n + 1 < sizeof t; i++)
    if (!strchr("x+#!?:-", text[i])) t[n++] = text[i];
  t[n] = 0;
  *promo = ARB_NO_TYPE;
  char *eq = strchr(t, '=');
  if (eq) {
    const char *q = strchr("NBRQ", eq[1] ? eq[1] : ' ');
    if (!q || !eq[1]) return 0;
    *promo = (arb_piece_type)(ARB_KNIGHT + (q - "NBRQ"));
    *eq = 0;
    n = strlen(t);
  }
  if (n < 2) return 0;
  char f = t[n - 2], r = t[n - 1];
  if (f < 'a' || f > 'h' || r < '1' || r > '8') return 0;
  *to = (arb_square)((f - 'a') + 8 * (r - '1'));
  arb_piece_type type = ARB_PAWN;
  const char *k = strchr("NBRQK", t[0]);
  if (k && t[0]) type = (arb_piece_type)(ARB_KNIGHT + (k - "NBRQK"));
  const char *hint = t + (type == ARB_PAWN ? 0 : 1); /* a file or rank that says which piece */
  size_t hint_len = n - 2 - (size_t)(hint - t);
  int found = 0;
  for (int sq = 0; sq < 64; sq++) {
    arb_piece pc = p->board[sq];
    if (pc == ARB_NO_PIECE || ARB_PIECE_TYPE(pc) != type || ARB_PIECE_COLOR(pc) != p->turn)
      continue;
    int fits = 1;
    for (size_t i = 0; i < hint_len; i++)
      if ((hint[i] >= 'a' && hint[i] <= 'h' && sq % 8 != hint[i] - 'a') ||
          (hint[i] >= '1' && hint[i] <= '8' && sq / 8 != hint[i] - '1'))
        fits = 0;
    if (!fits) continue;
    arb_move_explanation e;
    if (arb_move_explain(p, (arb_square)sq, *to, *promo, &e) != ARB_OK) continue;
    if (e.reason == ARB_ILLEGAL_PIECE_DOES_NOT_MOVE_SO || e.reason == ARB_ILLEGAL_SAME_SQUARE) {
      if (!found) *from = (arb_square)sq, found = 1; /* a fallback */
      continue;
    }
    *from = (arb_square)sq;
    return 1;
  }
  return found;
}

int srv_refusal_words(const arb_position *p, arb_ref_refusal refusal, const char *text, size_t len,
                      const char *message, char *buf, size_t size) {
  if (refusal != ARB_REF_ILLEGAL_MOVE && refusal != ARB_REF_BAD_MOVE)
    return snprintf(buf, size, "%s", message);
  arb_square from, to;
  arb_piece_type promo;
  int read = arb_uci_read_squares(text, len, &from, &to, &promo) == ARB_OK ||
             san_squares(p, text, len, &from, &to, &promo);
  arb_move_explanation e;
  if (!read || arb_move_explain(p, from, to, promo, &e) != ARB_OK || e.reason == ARB_MOVE_LEGAL) {
    if (len > 32) len = 32;
    return snprintf(buf, size, "%.*s is not a move here: %s", (int)len, text, message);
  }
  char mv[16];
  pseudo_san(p, from, to, promo, mv, sizeof mv);
  /* a promotion without its piece: the referee says how to name it (or to turn on queens) */
  if (e.reason == ARB_ILLEGAL_PROMOTION_NEEDS_PIECE)
    return snprintf(buf, size, "%s: %s", mv, message);
  /* the explanation speaks of "the king": the player's own */
  const char *why = e.message;
  if (!strncmp(why, "the king ", 9))
    return snprintf(buf, size, "%s is illegal: your king %s", mv, why + 9);
  return snprintf(buf, size, "%s is illegal: %s", mv, why);
}

/* key and a value that needs no escaping */
static void kplain(srv_jw *w, const char *key, const char *s) {
  srv_jw_key(w, key);
  srv_jw_plain(w, s, strlen(s));
}

static void kms(srv_jw *w, const char *key, int64_t ms) {
  srv_jw_key(w, key);
  if (ms == ARB_CLOCK_NEVER)
    srv_jw_null(w);
  else
    srv_jw_int(w, ms);
}

/* The legal moves of the side to move, with their UCI. */
typedef struct legal_list {
  arb_move moves[ARB_MAX_MOVES];
  char uci[ARB_MAX_MOVES][8];
  int n;
} legal_list;

static void legal_of(const arb_position *p, legal_list *l) {
  l->n = arb_generate_legal(p, l->moves);
  for (int i = 0; i < l->n; i++)
    arb_uci_write(p, l->moves[i], l->uci[i], sizeof l->uci[i]);
}

/* "dests":{"e2":"e3e4", ...}: the legal destinations of each piece of the side to move;
 * castling also onto the rook (chessground's rookCastle), as lichess sends it. */
static void write_dests(srv_jw *w, const arb_position *p, const legal_list *l) {
  const arb_move *moves = l->moves;
  int n = l->n;
  char to[64][64]; /* per origin: at most 27 destinations + castling onto two rooks */
  int len[64] = {0};
  for (int i = 0; i < n; i++) {
    const char *uci = l->uci[i];
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
  srv_jw_key(w, "dests");
  srv_jw_open(w, '{');
  for (int sq = 0; sq < 64; sq++)
    if (len[sq]) {
      char key[3] = {(char)('a' + sq % 8), (char)('1' + sq / 8), 0};
      srv_jw_key(w, key);
      srv_jw_plain(w, to[sq], (size_t)len[sq]);
    }
  srv_jw_close(w, '}');
}

/* What every recipient's "game" object holds: "{" and the shared fields, no closing brace
 * (the seat's own fields follow: write_seat). */
static void write_common(srv_jw *w, const srv_view *v, const arb_ref_state *s,
                         const arb_position *p) {
  const arb_game *game = arb_referee_game(v->ref);
  char fen[ARB_FEN_MAX];
  srv_jw_open(w, '{');
  kplain(w, "id", v->id);
  kplain(w, "rules", arb_rules_get(v->setup->rules)->name);
  srv_jw_kstr(w, "control", v->control);
  if (v->initial_fen) { /* the game's: a Chess960 start says so in its castling rights too */
    srv_jw_kbool(w, "chess960", v->setup->start && v->setup->start->chess960);
    kplain(w, "initial_fen", v->initial_fen);
  } else {
    arb_position start;
    if (v->setup->start)
      start = *v->setup->start;
    else
      arb_fen_read(&start, ARB_FEN_START, 0, NULL);
    srv_jw_kbool(w, "chess960", start.chess960);
    arb_fen_write(&start, fen, sizeof fen, 0);
    kplain(w, "initial_fen", fen);
  }
  int over = v->started && s->over;
  kplain(w, "status", !v->started ? "waiting" : over ? "over" : "ongoing");
  kplain(w, "result", arb_result_string(v->started ? s->outcome.result : ARB_RESULT_NONE));
  srv_jw_kstr(w, "termination", over ? arb_termination_name(s->outcome.termination) : "");
  char words[192] = "";
  if (over) srv_reason_words(v->ref, words, sizeof words);
  srv_jw_kstr(w, "reason", words);
  if (over && s->flag_side >= 0) srv_jw_kstr(w, "flag", color_name(s->flag_side));
  arb_fen_write(p, fen, sizeof fen, 0);
  kplain(w, "fen", fen);
  kplain(w, "turn", color_name(p->turn));
  int plies = v->started ? s->ply : 0;
  srv_jw_kint(w, "ply", plies);
  srv_jw_kbool(w, "check", arb_in_check(p));
  srv_jw_key(w, "moves");
  if (v->moves_json && v->moves_ply == plies) {
    srv_jw_raw(w, v->moves_json, v->moves_len);
    w->first = 0;
  } else {
    srv_jw_open(w, '[');
    for (int i = 1; i <= plies; i++)
      srv_jw_plain(w, arb_game_san_at(game, i), strlen(arb_game_san_at(game, i)));
    srv_jw_close(w, ']');
  }
  srv_jw_key(w, "last_move");
  if (plies) {
    char uci[8];
    arb_uci_write(arb_game_position_at(game, plies - 1), arb_game_move_at(game, plies), uci,
                  sizeof uci);
    srv_jw_plain(w, uci, 4);
  } else {
    srv_jw_null(w);
  }
  /* the clocks as they stand at the view's time (a state sent after the last event), or the
   * control's starting times while waiting */
  srv_jw_key(w, "clock");
  if (v->setup->control) {
    int64_t at = v->server_ms > s->now ? v->server_ms : s->now;
    const arb_clock *clock = arb_referee_clock(v->ref);
    int64_t wt = clock ? arb_clock_remaining(clock, ARB_WHITE, at) : s->remaining_ms[ARB_WHITE];
    int64_t bt = clock ? arb_clock_remaining(clock, ARB_BLACK, at) : s->remaining_ms[ARB_BLACK];
    if (!v->started) {
      arb_clock fresh;
      arb_time_control tc = *v->setup->control;
      tc.model = v->setup->clock_model >= 0 ? (uint8_t)v->setup->clock_model
                                            : arb_clock_rules_get(v->setup->rules)->model;
      arb_clock_init(&fresh, &tc);
      wt = arb_clock_remaining(&fresh, ARB_WHITE, 0);
      bt = arb_clock_remaining(&fresh, ARB_BLACK, 0);
    }
    srv_jw_open(w, '{');
    kms(w, "white_ms", wt);
    kms(w, "black_ms", bt);
    srv_jw_kstr_or_null(w, "running",
                        v->started && s->running >= 0 ? color_name(s->running) : NULL);
    kms(w, "flag_at", v->started ? s->flag_at : ARB_CLOCK_NEVER);
    srv_jw_kint(w, "server_ms", v->started ? at : v->server_ms);
    srv_jw_close(w, '}');
  } else {
    srv_jw_null(w);
  }
  srv_jw_kstr_or_null(w, "draw_offer",
                      v->started && s->draw_offer >= 0 ? color_name(s->draw_offer) : NULL);
  srv_jw_key(w, "claims");
  srv_jw_open(w, '[');
  if (v->started && (s->claims & ARB_REF_CAN_CLAIM(ARB_CLAIM_THREEFOLD)))
    srv_jw_str(w, "threefold");
  if (v->started && (s->claims & ARB_REF_CAN_CLAIM(ARB_CLAIM_FIFTY))) srv_jw_str(w, "fifty");
  srv_jw_close(w, ']');
  /* the claims as buttons: on the present position, or naming the move that makes it */
  if (v->started && s->claims) {
    srv_jw_key(w, "claim_options");
    srv_jw_open(w, '[');
    arb_move legal[ARB_MAX_MOVES];
    int n = arb_generate_legal(p, legal);
    for (arb_claim_reason r = ARB_CLAIM_THREEFOLD; r <= ARB_CLAIM_FIFTY; r++) {
      if (!(s->claims & ARB_REF_CAN_CLAIM(r))) continue;
      const char *name = r == ARB_CLAIM_THREEFOLD ? "threefold" : "fifty";
      if (arb_game_claim_correct(game, r, ARB_MOVE_NONE)) {
        srv_jw_open(w, '{');
        kplain(w, "reason", name);
        srv_jw_key(w, "uci");
        srv_jw_null(w);
        srv_jw_close(w, '}');
        continue;
      }
      for (int i = 0; i < n; i++) {
        if (!arb_game_claim_correct(game, r, legal[i])) continue;
        char uci[8], san[ARB_SAN_MAX];
        arb_uci_write(p, legal[i], uci, sizeof uci);
        arb_san_write(p, legal[i], san, sizeof san);
        srv_jw_open(w, '{');
        kplain(w, "reason", name);
        kplain(w, "uci", uci);
        kplain(w, "san", san);
        srv_jw_close(w, '}');
      }
    }
    srv_jw_close(w, ']');
  }
  srv_jw_kbool(w, "abortable", v->started && !over && plies < 2);
  /* the first-move limit while it runs: the side to move must move by this server time */
  if (v->started && !over && s->first_move_by != ARB_CLOCK_NEVER) {
    srv_jw_key(w, "first_move");
    srv_jw_open(w, '{');
    kplain(w, "side", color_name(p->turn));
    srv_jw_kint(w, "by", s->first_move_by);
    srv_jw_close(w, '}');
  }
  /* a player who left (online rules): since when, and from when the other may claim */
  for (int c = 0; v->started && !over && c < 2; c++) {
    if (s->away_since[c] < 0) continue;
    srv_jw_key(w, "away");
    srv_jw_open(w, '{');
    kplain(w, "side", color_name(c));
    srv_jw_kint(w, "since", s->away_since[c]);
    kms(w, "claim_at", s->abandon_claim_at[c]);
    srv_jw_kstr_or_null(
        w, "claim_result",
        s->abandon_claim_at[c] != ARB_CLOCK_NEVER ? arb_result_string(s->abandon_result) : NULL);
    srv_jw_close(w, '}');
    break;
  }
  srv_jw_kint(w, "spectators", v->spectators);
  /* the server's time the message was written at, for the deadlines above (and untimed games) */
  srv_jw_kint(w, "server_ms", v->server_ms > s->now ? v->server_ms : s->now);
  if (v->started && s->must_play != ARB_MOVE_NONE) {
    char uci[8];
    arb_uci_write(p, s->must_play, uci, sizeof uci);
    kplain(w, "must_play", uci);
  }
  srv_jw_key(w, "players");
  srv_jw_open(w, '{');
  for (int c = 0; c < 2; c++) {
    srv_jw_key(w, color_name(c));
    srv_jw_open(w, '{');
    srv_jw_kbool(w, "connected", v->connected[c]);
    if (v->names[c] && v->names[c][0]) srv_jw_kstr(w, "name", v->names[c]);
    if (v->computer == c + 1) {
      srv_jw_kbool(w, "computer", 1);
      srv_jw_kint(w, "level", v->level);
    }
    srv_jw_close(w, '}');
  }
  srv_jw_close(w, '}');
  srv_jw_key(w, "rematch");
  srv_jw_open(w, '{');
  srv_jw_kstr_or_null(w, "offer", v->rematch_offer >= 0 ? color_name(v->rematch_offer) : NULL);
  srv_jw_kstr_or_null(w, "game", v->rematch_id);
  srv_jw_close(w, '}');
}

/* The recipient's own fields, and the game object's closing brace. */
static void write_seat(srv_jw *w, const srv_view *v, const arb_ref_state *s, const arb_position *p,
                       int viewer, int auto_queen) {
  kplain(w, "seat", viewer >= 0 ? color_name(viewer) : "spectator");
  if (viewer >= 0) {
    srv_jw_kbool(w, "auto_queen", auto_queen);
    if (s->premove[viewer][0]) srv_jw_kstr(w, "premove", s->premove[viewer]);
    if (v->started && !s->over && viewer == (int)p->turn) {
      legal_list l;
      legal_of(p, &l);
      write_dests(w, p, &l);
      /* each legal move's SAN, for a page that asks "Play Nf3?" before sending it */
      srv_jw_key(w, "san");
      srv_jw_open(w, '{');
      for (int i = 0; i < l.n; i++) {
        char san[ARB_SAN_MAX];
        int sn = arb_san_write(p, l.moves[i], san, sizeof san);
        srv_jw_key(w, l.uci[i]);
        srv_jw_plain(w, san, sn > 0 && (size_t)sn < sizeof san ? (size_t)sn : strlen(san));
      }
      srv_jw_close(w, '}');
    }
  }
  srv_jw_close(w, '}');
}

/* The position the view shows: the game's, or the start while waiting. */
static const arb_position *shown(const srv_view *v, arb_position *start) {
  const arb_game *game = arb_referee_game(v->ref);
  if (game && v->started) return arb_game_position(game);
  if (v->setup->start)
    *start = *v->setup->start;
  else
    arb_fen_read(start, ARB_FEN_START, 0, NULL);
  return start;
}

char *srv_write_state(const srv_view *v) {
  arb_ref_state s;
  arb_referee_state_of(v->ref, &s);
  arb_position start;
  const arb_position *p = shown(v, &start);
  srv_jw w;
  srv_jw_init(&w);
  srv_jw_open(&w, '{');
  kplain(&w, "t", "state");
  srv_jw_kint(&w, "v", (int64_t)v->version);
  srv_jw_key(&w, "game");
  write_common(&w, v, &s, p);
  write_seat(&w, v, &s, p, v->viewer, v->auto_queen);
  srv_jw_close(&w, '}');
  return srv_jw_take(&w);
}

char *srv_write_game_json(const srv_view *v) {
  arb_ref_state s;
  arb_referee_state_of(v->ref, &s);
  arb_position start;
  const arb_position *p = shown(v, &start);
  srv_jw w;
  srv_jw_init(&w);
  write_common(&w, v, &s, p);
  write_seat(&w, v, &s, p, -1, 0);
  return srv_jw_take(&w);
}

static void write_event(srv_jw *w, const srv_event_info *ev) {
  srv_jw_key(w, "event");
  srv_jw_open(w, '{');
  srv_jw_kstr(w, "kind", ev->kind == ARB_REF_TICK ? "time" : arb_ref_kind_name(ev->kind));
  if (ev->by >= 0) srv_jw_kstr(w, "by", color_name(ev->by));
  if (ev->side >= 0) srv_jw_kstr(w, "side", color_name(ev->side));
  const arb_ref_decision *d = ev->d;
  if (ev->kind == ARB_REF_MOVE && d) {
    kplain(w, "uci", ev->premove ? d->premove.uci : d->uci);
    kplain(w, "san", ev->premove ? d->premove.san : d->san);
    if (ev->premove) srv_jw_kbool(w, "premove", 1);
  }
  if (ev->kind == ARB_REF_CLAIM_DRAW && d && d->claimed) {
    srv_jw_kstr(w, "reason", ev->reason == ARB_CLAIM_THREEFOLD ? "threefold" : "fifty");
    srv_jw_kbool(w, "correct", d->verdict.correct);
    if (!d->verdict.correct) srv_jw_kint(w, "penalty_s", d->verdict.penalty_s);
  }
  srv_jw_close(w, '}');
}

int srv_write_updates(const srv_view *v, const srv_event_info *ev, int ack_seat, int64_t ack_id,
                      srv_buf *out[4]) {
  arb_ref_state s;
  arb_referee_state_of(v->ref, &s);
  arb_position start;
  const arb_position *p = shown(v, &start);
  /* everything but the recipients' own fields, once ("t" and the rest apart: the ack goes
   * between them) */
  static const char update[] = "{\"t\":\"update\",", state[] = "{\"t\":\"state\",";
  const char *t = ev ? update : state;
  size_t tlen = ev ? sizeof update - 1 : sizeof state - 1;
  srv_jw head;
  srv_jw_init_front(&head, 0, v->size_hint ? v->size_hint : 2048);
  srv_jw_kint(&head, "v", (int64_t)v->version);
  if (ev) write_event(&head, ev);
  srv_jw_key(&head, "game");
  write_common(&head, v, &s, p);
  int ok = !head.failed;
  for (int k = 0; k < 4; k++) {
    out[k] = NULL;
    int viewer = k == 3 ? ack_seat : k < 2 ? k : -1;
    if (k == 3 && (ack_seat < 0 || ack_seat > 1)) break;
    srv_jw w;
    /* room for the seat's own fields: its legal moves when on move */
    size_t own = viewer >= 0 && viewer == (int)p->turn ? 1536 : 128;
    srv_jw_init_front(&w, SRV_BUF_FRONT, tlen + 40 + head.len + own);
    srv_jw_raw(&w, t, tlen);
    if (k == 3) {
      srv_jw_kint(&w, "ack", ack_id);
      srv_jw_raw(&w, ",", 1);
    }
    srv_jw_raw(&w, head.buf ? head.buf : "", head.len);
    w.first = 0;
    write_seat(&w, v, &s, p, viewer, viewer >= 0 ? v->seat_auto_queen[viewer] : 0);
    srv_jw_close(&w, '}');
    out[k] = srv_buf_of_jw(&w);
    ok = ok && out[k];
  }
  srv_jw_free(&head);
  return ok ? 0 : -1;
}

srv_buf *srv_write_missed(const srv_view *v, const srv_event_info *ev) {
  srv_jw w;
  srv_jw_init_front(&w, SRV_BUF_FRONT, 256);
  srv_jw_open(&w, '{');
  kplain(&w, "t", "update");
  srv_jw_kint(&w, "v", (int64_t)v->version);
  write_event(&w, ev);
  srv_jw_kbool(&w, "missed", 1);
  srv_jw_close(&w, '}');
  return srv_buf_of_jw(&w);
}

char *srv_write_ack(int64_t id, int duplicate) {
  srv_jw w;
  srv_jw_init(&w);
  srv_jw_open(&w, '{');
  srv_jw_kstr(&w, "t", "ack");
  srv_jw_kint(&w, "id", id);
  if (duplicate) srv_jw_kbool(&w, "duplicate", 1);
  srv_jw_close(&w, '}');
  return srv_jw_take(&w);
}

char *srv_write_error(const char *code, const char *message, int64_t id) {
  /* the message may quote what a client sent: jansson checks and escapes it */
  json_t *j = json_object();
  json_object_set_new(j, "t", json_string("error"));
  json_object_set_new(j, "code", json_string(code));
  json_t *m = json_string(message);
  json_object_set_new(j, "message", m ? m : json_string("(not valid UTF-8)"));
  if (id >= 0) json_object_set_new(j, "id", json_integer(id));
  return dump(j);
}

char *srv_write_dests(const arb_position *p) {
  legal_list l;
  legal_of(p, &l);
  srv_jw w;
  srv_jw_init(&w);
  srv_jw_open(&w, '{');
  write_dests(&w, p, &l);
  srv_jw_close(&w, '}');
  return srv_jw_take(&w);
}

char *srv_write_http_error(const char *code, const char *message) {
  json_t *m = json_string(message);
  json_t *j = json_pack("{s:{s:s,s:o}}", "error", "code", code, "message",
                        m ? m : json_string("(not valid UTF-8)"));
  return dump(j);
}

char *srv_write_premove(const char *uci, const char *dropped) {
  srv_jw w;
  srv_jw_init(&w);
  srv_jw_open(&w, '{');
  srv_jw_kstr(&w, "t", "premove");
  srv_jw_kstr(&w, "uci", uci);
  if (dropped) srv_jw_kstr(&w, "dropped", dropped);
  srv_jw_close(&w, '}');
  return srv_jw_take(&w);
}

char *srv_write_rematch(const char *id, const char *token) {
  char url[64];
  snprintf(url, sizeof url, "/game/%s#%s", id, token);
  srv_jw w;
  srv_jw_init(&w);
  srv_jw_open(&w, '{');
  srv_jw_kstr(&w, "t", "rematch");
  srv_jw_kstr(&w, "game", id);
  srv_jw_kstr(&w, "url", url);
  srv_jw_close(&w, '}');
  return srv_jw_take(&w);
}

char *srv_write_pong(int64_t server_ms) {
  srv_jw w;
  srv_jw_init(&w);
  srv_jw_open(&w, '{');
  srv_jw_kstr(&w, "t", "pong");
  srv_jw_kint(&w, "server_ms", server_ms);
  srv_jw_close(&w, '}');
  return srv_jw_take(&w);
}
