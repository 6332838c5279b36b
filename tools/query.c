/* Arbiter — MIT licence, see LICENSE.
 *
 * query.c: one JSON request in, one JSON answer out (see `arbiter query --help`).
 */
#include "query.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"

/* A JSON string of a message that may hold invalid UTF-8 (jansson's own error texts can quote
 * half a character of the input): bytes outside ASCII become '?'. */
static json_t *message_string(const char *message) {
  json_t *s = json_string(message);
  if (s) return s;
  char clean[256];
  size_t i = 0;
  for (; message[i] && i < sizeof clean - 1; i++)
    clean[i] = (unsigned char)message[i] < 0x80 ? message[i] : '?';
  clean[i] = '\0';
  return json_string(clean);
}

static json_t *error_object(const char *code, const char *message, long line_number) {
  json_t *e = json_object();
  json_object_set_new(e, "code", json_string(code));
  json_object_set_new(e, "message", message_string(message));
  if (line_number > 0) json_object_set_new(e, "line", json_integer(line_number));
  return e;
}

static char *finish(json_t *answer) {
  char *s = json_dumps(answer, JSON_COMPACT);
  json_decref(answer);
  return s;
}

static char *error_answer(json_t *id, json_t *err) {
  json_t *a = json_object();
  if (id) json_object_set(a, "id", id);
  json_object_set_new(a, "error", err);
  return finish(a);
}

char *arb_query_too_long(long line_number, size_t limit) {
  char msg[96];
  snprintf(msg, sizeof msg, "request line longer than %zu bytes", limit);
  json_t *e = error_object("line_too_long", msg, line_number);
  json_object_set_new(e, "limit", json_integer((json_int_t)limit));
  return error_answer(NULL, e);
}

uint32_t arb_query_problem_bit(const char *name) {
  for (int i = 0; i < ARB_FEN_PROBLEM_COUNT; i++)
    if (!strcmp(name, arb_fen_problem_name(1u << i))) return 1u << i;
  return 0;
}

json_t *arb_query_problems(uint32_t problems) {
  json_t *arr = json_array();
  for (int i = 0; i < ARB_FEN_PROBLEM_COUNT; i++)
    if (problems & (1u << i)) {
      json_t *p = json_object();
      json_object_set_new(p, "problem", json_string(arb_fen_problem_name(1u << i)));
      json_object_set_new(p, "message", json_string(arb_fen_problem_message(1u << i)));
      json_array_append_new(arr, p);
    }
  return arr;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp((const char *)a, (const char *)b);
}

static const char *const square_names[64] = {
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
    "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8"};

static json_t *squares_array(arb_bitboard b) {
  json_t *arr = json_array();
  for (int sq = 0; sq < 64; sq++)
    if (b & (UINT64_C(1) << sq)) json_array_append_new(arr, json_string(square_names[sq]));
  return arr;
}

static int square_by_name(const char *s) {
  for (int sq = 0; sq < 64; sq++)
    if (!strcmp(s, square_names[sq])) return sq;
  return -1;
}

/* The facts about a position that the board and rules layers know.  fen_flags: arb_fen_write's
 * (ARB_FEN_OUT_EP_ALWAYS on request). */
static void describe(json_t *a, const arb_position *pos, unsigned fen_flags) {
  char fen[ARB_FEN_MAX];
  arb_fen_write(pos, fen, sizeof fen, fen_flags);
  json_object_set_new(a, "fen", json_string(fen));
  json_object_set_new(a, "turn", json_string(pos->turn == ARB_WHITE ? "white" : "black"));

  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(pos, moves);
  struct {
    char uci[8];
    char san[ARB_SAN_MAX];
  } rows[ARB_MAX_MOVES];
  for (int i = 0; i < n; i++) {
    arb_uci_write(pos, moves[i], rows[i].uci, sizeof rows[i].uci);
    arb_san_write(pos, moves[i], rows[i].san, sizeof rows[i].san);
  }
  qsort(rows, (size_t)n, sizeof rows[0], cmp_str);
  json_t *uci = json_array(), *san = json_array();
  for (int i = 0; i < n; i++) {
    json_array_append_new(uci, json_string(rows[i].uci));
    json_array_append_new(san, json_string(rows[i].san));
  }
  json_object_set_new(a, "legal_uci", uci);
  json_object_set_new(a, "legal_san", san);

  arb_bitboard checkers = arb_checkers(pos);
  json_object_set_new(a, "check", json_boolean(checkers != 0));
  json_object_set_new(a, "checkmate", json_boolean(checkers && n == 0));
  json_object_set_new(a, "stalemate", json_boolean(!checkers && n == 0));
  json_object_set_new(a, "insufficient_material", json_boolean(arb_is_insufficient_material(pos)));
  json_object_set_new(a, "checkers", squares_array(checkers));
  json_object_set_new(a, "material_class",
                      json_string(arb_material_class_name(arb_material_class_of(pos))));
  char key[17];
  snprintf(key, sizeof key, "%016llx", (unsigned long long)pos->key);
  json_object_set_new(a, "polyglot_key", json_string(key));
  json_object_set_new(a, "chess960", json_boolean(pos->chess960));
  json_object_set_new(a, "chess960_number", json_integer(arb_position_chess960_number(pos)));
}

/* {"white": [...], "black": [...]}: squares of each colour from f(pos, colour). */
static json_t *by_colour(const arb_position *pos, arb_bitboard (*f)(const arb_position *, int, int),
                         int arg) {
  json_t *o = json_object();
  json_object_set_new(o, "white", squares_array(f(pos, ARB_WHITE, arg)));
  json_object_set_new(o, "black", squares_array(f(pos, ARB_BLACK, arg)));
  return o;
}
static arb_bitboard attackers_of(const arb_position *pos, int c, int sq) {
  return arb_attackers(pos, (arb_square)sq, (arb_color)c, pos->by_type[0]);
}

/* "pins": every pinned piece with its colour and ray. */
static json_t *pins_array(const arb_position *pos) {
  json_t *arr = json_array();
  for (int c = 0; c < 2; c++) {
    arb_bitboard pinned = arb_pinned(pos, (arb_color)c);
    for (int sq = 0; sq < 64; sq++)
      if (pinned & (UINT64_C(1) << sq)) {
        json_t *o = json_object();
        json_object_set_new(o, "square", json_string(square_names[sq]));
        json_object_set_new(o, "color", json_string(c == ARB_WHITE ? "white" : "black"));
        json_object_set_new(o, "ray",
                            squares_array(arb_pin_ray(pos, (arb_color)c, (arb_square)sq)));
        json_array_append_new(arr, o);
      }
  }
  return arr;
}

/* "move_info" for one legal move. */
static json_t *move_info_object(const arb_position *pos, arb_move m) {
  static const struct {
    unsigned bit;
    const char *name;
  } flags[] = {{ARB_MOVE_IS_CAPTURE, "capture"},     {ARB_MOVE_IS_EN_PASSANT, "en_passant"},
               {ARB_MOVE_IS_CASTLING, "castling"},   {ARB_MOVE_IS_PROMOTION, "promotion"},
               {ARB_MOVE_IS_ZEROING, "zeroing"},     {ARB_MOVE_IS_IRREVERSIBLE, "irreversible"},
               {ARB_MOVE_GIVES_CHECK, "gives_check"}};
  char uci[8], san[ARB_SAN_MAX];
  arb_uci_write(pos, m, uci, sizeof uci);
  arb_san_write(pos, m, san, sizeof san);
  unsigned info = arb_move_info(pos, m);
  json_t *o = json_object();
  json_object_set_new(o, "uci", json_string(uci));
  json_object_set_new(o, "san", json_string(san));
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
    json_object_set_new(o, flags[i].name, json_boolean(info & flags[i].bit));
  return o;
}

/* "explain": [UCI, ...] — for each move, in order, whether it is legal and if not why
 * (explain.h): {"move", "legal", "reason", "article", "message", "square", "piece", and
 * "attacked" for castling through or into check; "uci" and "san" when legal}.
 * "explain_by": "white" | "black" names the player sending the moves (a move out of turn is
 * "not_your_turn").  Sets a->"explain", or returns an error object. */
static json_t *explain_array(json_t *a, json_t *req, const arb_position *pos, long line_number) {
  json_t *list = json_object_get(req, "explain"), *by = json_object_get(req, "explain_by");
  if (!json_is_array(list))
    return error_object("request", "\"explain\" must be an array of UCI moves", line_number);
  int player = -1;
  if (by) {
    const char *b = json_is_string(by) ? json_string_value(by) : "";
    if (strcmp(b, "white") && strcmp(b, "black"))
      return error_object("request", "\"explain_by\" must be \"white\" or \"black\"", line_number);
    player = b[0] == 'w' ? ARB_WHITE : ARB_BLACK;
  }
  json_t *arr = json_array();
  size_t i;
  json_t *mv;
  json_array_foreach(list, i, mv) {
    arb_square from = 0, to = 0;
    arb_piece_type promo = ARB_NO_TYPE;
    arb_move_explanation e;
    arb_status st = json_is_string(mv)
                        ? arb_uci_read_squares(json_string_value(mv), json_string_length(mv), &from,
                                               &to, &promo)
                        : ARB_ERR_MOVE_SYNTAX;
    if (st == ARB_OK)
      st = player < 0 ? arb_move_explain(pos, from, to, promo, &e)
                      : arb_move_explain_for(pos, (arb_color)player, from, to, promo, &e);
    if (st != ARB_OK) {
      json_decref(arr);
      json_t *err = error_object(arb_status_name(st),
                                 "\"explain\" takes moves in UCI: two squares and an optional "
                                 "promotion letter (e2e4, e7e8q, e1g1, e1h1)",
                                 line_number);
      json_object_set_new(err, "field", json_string("explain"));
      json_object_set_new(err, "index", json_integer((json_int_t)i));
      return err;
    }
    json_t *o = json_object();
    json_object_set(o, "move", mv);
    json_object_set_new(o, "legal", json_boolean(e.reason == ARB_MOVE_LEGAL));
    json_object_set_new(o, "reason", json_string(arb_illegal_name(e.reason)));
    json_object_set_new(o, "article", e.article[0] ? json_string(e.article) : json_null());
    json_object_set_new(o, "message", json_string(e.message));
    json_object_set_new(o, "square",
                        e.square < 64 ? json_string(square_names[e.square]) : json_null());
    char letter[2] = {e.piece ? " PNBRQK"[ARB_PIECE_TYPE(e.piece)] : 0, 0};
    if (e.piece && ARB_PIECE_COLOR(e.piece) == ARB_BLACK) letter[0] = (char)(letter[0] + 32);
    json_object_set_new(o, "piece", e.piece ? json_string(letter) : json_null());
    if (e.attacked < 64) json_object_set_new(o, "attacked", json_string(square_names[e.attacked]));
    if (e.reason == ARB_MOVE_LEGAL) {
      char uci[8], san[ARB_SAN_MAX];
      arb_uci_write(pos, e.move, uci, sizeof uci);
      arb_san_write(pos, e.move, san, sizeof san);
      json_object_set_new(o, "uci", json_string(uci));
      json_object_set_new(o, "san", json_string(san));
    }
    json_array_append_new(arr, o);
  }
  json_object_set_new(a, "explain", arr);
  return NULL;
}

/* The fields a request asks for by name: "pseudo_legal", "pins", "attackers" (a square),
 * "move_info" (moves), "explain" (moves).  Returns an error object, or NULL. */
static json_t *describe_requested(json_t *a, json_t *req, const arb_position *pos,
                                  long line_number);

struct json_t *arb_query_winnability(const arb_position *pos, unsigned long long budget) {
  json_t *w = json_object();
  for (int side = 0; side < 2; side++) {
    arb_winnability r;
    arb_winnability_of(pos, (arb_color)side, budget, &r);
    json_t *v = json_object();
    json_object_set_new(v, "verdict", json_string(arb_win_verdict_name(r.verdict)));
    json_object_set_new(v, "proof", json_string(arb_win_proof_name(r.proof)));
    if (r.verdict == ARB_WIN_WINNABLE) {
      json_t *line = json_array();
      arb_position p = *pos;
      for (int k = 0; k < r.line_len; k++) {
        char u[8];
        arb_uci_write(&p, r.line[k], u, sizeof u);
        json_array_append_new(line, json_string(u));
        arb_undo undo;
        arb_make_move(&p, r.line[k], &undo);
      }
      json_object_set_new(v, "line", line);
    }
    json_object_set_new(v, "nodes", json_integer((json_int_t)r.nodes));
    json_object_set_new(w, side == ARB_WHITE ? "white" : "black", v);
  }
  return w;
}

/* The game layer's facts: repetitions, claims, automatic endings, result. */
static void describe_game(json_t *a, const arb_game *game) {
  arb_game_facts f;
  arb_game_facts_of(game, &f);
  arb_outcome o = arb_game_outcome(game);
  const arb_position *p = arb_game_position(game);
  json_object_set_new(a, "rules", json_string(arb_rules_get(arb_game_rules(game))->name));
  json_object_set_new(a, "repetitions", json_integer(f.repetitions));
  json_object_set_new(a, "can_claim_threefold", json_boolean(f.can_claim_threefold));
  json_object_set_new(a, "fivefold", json_boolean(f.fivefold));
  json_object_set_new(a, "halfmove_clock", json_integer(p->halfmove_clock));
  json_object_set_new(a, "fullmove_number", json_integer(p->fullmove_number));
  json_object_set_new(a, "can_claim_fifty", json_boolean(f.can_claim_fifty));
  json_object_set_new(a, "seventyfive", json_boolean(f.seventyfive));
  json_object_set_new(a, "dead_position", json_boolean(f.dead_position));
  json_object_set_new(a, "result", json_string(arb_result_string(o.result)));
  json_object_set_new(a, "termination", json_string(arb_termination_name(o.termination)));
}

/* The speed category of a time control (clock.h: lichess's initial + 40 x increment). */
static void describe_speed(json_t *a, const arb_time_control *tc) {
  json_object_set_new(a, "speed", json_string(arb_speed_name(arb_tc_speed(tc))));
  json_object_set_new(a, "estimated_seconds", json_integer(arb_tc_estimated_seconds(tc)));
}

/* "epd" in the answer: the record's operations, moves in SAN and UCI. */
static json_t *epd_array(const arb_epd *epd) {
  static const char *const kinds[] = {"none", "string", "integer", "moves", "text"};
  json_t *arr = json_array();
  for (int k = 0; k < epd->op_count; k++) {
    const arb_epd_op *op = &epd->ops[k];
    json_t *o = json_object();
    json_object_set_new(o, "opcode", json_stringn(op->opcode, op->opcode_len));
    json_object_set_new(o, "kind", json_string(kinds[op->kind]));
    if (op->kind == ARB_EPD_INTEGER) json_object_set_new(o, "integer", json_integer(op->integer));
    if (op->kind == ARB_EPD_STRING || op->kind == ARB_EPD_TEXT) {
      char buf[1024];
      arb_epd_string(op, buf, sizeof buf);
      json_object_set_new(o, op->kind == ARB_EPD_STRING ? "string" : "text", message_string(buf));
    }
    if (op->kind == ARB_EPD_MOVES) {
      json_t *san = json_array(), *uci = json_array();
      arb_position p = epd->position;
      int line = op->opcode_len == 2 && !memcmp(op->opcode, "pv", 2);
      for (int i = 0; i < op->move_count; i++) {
        arb_move m = epd->moves[op->first_move + i];
        char u[8], sn[ARB_SAN_MAX];
        arb_uci_write(&p, m, u, sizeof u);
        arb_san_write(&p, m, sn, sizeof sn);
        json_array_append_new(uci, json_string(u));
        json_array_append_new(san, json_string(sn));
        if (line) {
          arb_undo undo;
          arb_make_move(&p, m, &undo);
        }
      }
      json_object_set_new(o, "san", san);
      json_object_set_new(o, "uci", uci);
    }
    json_array_append_new(arr, o);
  }
  return arr;
}

/* "edit": {"clear", "put": {square: piece letter or null}, "turn", "castling": [rook squares],
 * "en_passant": square or null, "halfmove_clock", "fullmove_number"} applied to *pos, then the
 * FEN reader's validation.  Returns an error object, or NULL. */
static json_t *apply_edit(arb_position *pos, json_t *edit, uint32_t accept, long line_number) {
  if (!json_is_object(edit))
    return error_object("request", "\"edit\" must be an object", line_number);
  const char *bad = NULL;
  if (json_is_true(json_object_get(edit, "clear"))) arb_position_clear(pos);
  json_t *put = json_object_get(edit, "put");
  const char *key;
  json_t *v;
  if (put && !json_is_object(put)) bad = "\"put\" must map squares to pieces";
  if (put && !bad) json_object_foreach(put, key, v) {
      int sq = square_by_name(key);
      const char *letter = json_is_string(v) ? json_string_value(v) : NULL;
      const char *at = letter && strlen(letter) == 1 ? strchr("PNBRQKpnbrqk", letter[0]) : NULL;
      if (sq < 0 || (!json_is_null(v) && !at)) {
        bad = "\"put\" maps squares (\"e4\") to piece letters (\"Q\", \"p\") or null";
        break;
      }
      int i = at ? (int)(at - "PNBRQKpnbrqk") : 0;
      arb_position_put(pos, (arb_square)sq, at ? ARB_MAKE_PIECE(i / 6, i % 6 + 1) : ARB_NO_PIECE);
    }
  json_t *turn = json_object_get(edit, "turn");
  if (turn && !bad) {
    const char *t = json_is_string(turn) ? json_string_value(turn) : "";
    if (strcmp(t, "w") && strcmp(t, "b"))
      bad = "\"turn\" must be \"w\" or \"b\"";
    else
      arb_position_set_turn(pos, t[0] == 'w' ? ARB_WHITE : ARB_BLACK);
  }
  json_t *castling = json_object_get(edit, "castling");
  if (castling && !bad) {
    arb_bitboard rooks = 0;
    size_t i;
    if (!json_is_array(castling)) bad = "\"castling\" must list rook squares";
    json_array_foreach(castling, i, v) {
      int sq = json_is_string(v) ? square_by_name(json_string_value(v)) : -1;
      if (sq < 0) bad = "\"castling\" must list rook squares";
      if (sq >= 0) rooks |= UINT64_C(1) << sq;
    }
    if (!bad && arb_position_set_castling(pos, rooks) != ARB_OK)
      bad = "castling rights are on the first or last rank";
  }
  json_t *ep = json_object_get(edit, "en_passant");
  if (ep && !bad) {
    int sq = json_is_string(ep) ? square_by_name(json_string_value(ep)) : -1;
    if ((!json_is_null(ep) && sq < 0) ||
        arb_position_set_ep(pos, json_is_null(ep) ? ARB_NO_SQUARE : (arb_square)sq) != ARB_OK)
      bad = "\"en_passant\" must be a square of the third or sixth rank, or null";
  }
  json_t *hm = json_object_get(edit, "halfmove_clock"),
         *fm = json_object_get(edit, "fullmove_number");
  if ((hm || fm) && !bad) {
    json_int_t h = hm ? json_integer_value(hm) : pos->halfmove_clock;
    json_int_t f = fm ? json_integer_value(fm) : (json_int_t)pos->fullmove_number;
    if ((hm && !json_is_integer(hm)) || (fm && !json_is_integer(fm)) || h < 0 || f < 1 ||
        h > 65535 || f > 100000000 ||
        arb_position_set_counters(pos, (unsigned)h, (unsigned long)f) != ARB_OK)
      bad = "counters: halfmove_clock 0..65535, fullmove_number 1..100000000";
  }
  if (bad) return error_object("request", bad, line_number);
  arb_fen_report rep;
  arb_status st = arb_position_validate(pos, accept, &rep);
  if (st == ARB_OK) return NULL;
  json_t *e = error_object(arb_status_name(st), rep.message, line_number);
  json_object_set_new(e, "field", json_string("edit"));
  json_object_set_new(e, "problems", arb_query_problems(rep.problems));
  return e;
}

char *arb_query_answer(const char *line, size_t len, long line_number) {
  json_error_t jerr;
  json_t *req = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
  if (!req) {
    json_t *e = error_object("json", jerr.text, line_number);
    json_object_set_new(e, "column", json_integer(jerr.column));
    return error_answer(NULL, e);
  }
  json_t *id = json_object_get(req, "id");
  if (!json_is_object(req)) {
    char *s =
        error_answer(NULL, error_object("request", "a request must be a JSON object", line_number));
    json_decref(req);
    return s;
  }
  char *out = NULL;
  json_t *err = NULL, *epd_ops = NULL;
  arb_position pos;
  arb_game *game = NULL;

  /* Which FEN problems the caller accepts deliberately: "accept": ["opponent_in_check", ...]
   * or "accept": "all". */
  uint32_t accept = 0;
  json_t *acc = json_object_get(req, "accept");
  if (json_is_string(acc) && !strcmp(json_string_value(acc), "all")) {
    accept = ARB_FEN_PROBLEMS_ALL;
  } else if (json_is_array(acc)) {
    size_t i;
    json_t *v;
    json_array_foreach(acc, i, v) {
      uint32_t bit = json_is_string(v) ? arb_query_problem_bit(json_string_value(v)) : 0;
      if (!bit) {
        err = error_object("request", "\"accept\" lists an unknown problem name", line_number);
        json_object_set_new(err, "index", json_integer((json_int_t)i));
        goto done;
      }
      accept |= bit;
    }
  } else if (acc) {
    err = error_object("request", "\"accept\" must be \"all\" or an array of problem names",
                       line_number);
    goto done;
  }

  /* "chess960": true reads the FEN as Chess960 (king-takes-rook UCI), false as standard chess;
   * absent: inferred from the castling rights. */
  json_t *c960 = json_object_get(req, "chess960");
  if (c960 && !json_is_boolean(c960)) {
    err = error_object("request", "\"chess960\" must be true or false", line_number);
    goto done;
  }
  if (c960) accept |= json_is_true(c960) ? ARB_FEN_READ_CHESS960 : ARB_FEN_READ_STANDARD;

  /* "en_passant": "always" writes the FEN's en passant square after every double step. */
  unsigned fen_flags = 0;
  json_t *epj = json_object_get(req, "en_passant");
  if (epj && !(json_is_string(epj) && (!strcmp(json_string_value(epj), "always") ||
                                       !strcmp(json_string_value(epj), "legal")))) {
    err = error_object("request", "\"en_passant\" must be \"legal\" or \"always\"", line_number);
    goto done;
  }
  if (epj && !strcmp(json_string_value(epj), "always")) fen_flags = ARB_FEN_OUT_EP_ALWAYS;

  json_t *fen = json_object_get(req, "fen"), *epd_line = json_object_get(req, "epd");
  arb_epd epd;
  if (fen && !json_is_string(fen)) {
    err = error_object("request", "\"fen\" must be a string", line_number);
    goto done;
  }
  if (fen) {
    arb_fen_report rep;
    arb_status st =
        arb_fen_read_n(&pos, json_string_value(fen), json_string_length(fen), accept, &rep);
    if (st != ARB_OK) {
      err = error_object(arb_status_name(st), rep.message, line_number);
      if (st == ARB_ERR_FEN_SYNTAX) {
        json_object_set_new(err, "field", json_integer(rep.field));
        json_object_set_new(err, "column", json_integer(rep.column + 1));
      } else {
        json_object_set_new(err, "problems", arb_query_problems(rep.problems));
      }
      goto done;
    }
  } else if (!epd_line) {
    arb_fen_read(&pos, ARB_FEN_START, accept, NULL);
  }
  /* "epd": a record instead of "fen": its position (with hmvc/fmvn) and its operations. */
  if (epd_line) {
    if (fen || !json_is_string(epd_line)) {
      err = error_object("request", "\"epd\" must be a string, and not given with \"fen\"",
                         line_number);
      goto done;
    }
    arb_epd_error eerr;
    arb_status st = arb_epd_read(json_string_value(epd_line), json_string_length(epd_line), accept,
                                 &epd, &eerr);
    if (st != ARB_OK) {
      err = error_object(arb_status_name(st), eerr.message, line_number);
      json_object_set_new(err, "column", json_integer(eerr.column + 1));
      if (eerr.op_index >= 0) json_object_set_new(err, "op_index", json_integer(eerr.op_index));
      if (st == ARB_ERR_FEN_INVALID)
        json_object_set_new(err, "problems", arb_query_problems(eerr.fen.problems));
      goto done;
    }
    pos = epd.position;
    epd_ops = epd_array(&epd);
  }
  json_t *edit = json_object_get(req, "edit");
  if (edit) {
    err = apply_edit(&pos, edit, accept, line_number);
    if (err) goto done;
  }

  arb_ruleset rules = ARB_RULES_FIDE;
  json_t *rj = json_object_get(req, "rules");
  if (rj && (!json_is_string(rj) || arb_rules_parse(json_string_value(rj), &rules) != ARB_OK)) {
    err = error_object(
        "request", "\"rules\" must be one of fide, fide-rapid, fide-blitz, uscf, online, casual",
        line_number);
    goto done;
  }
  json_t *moves = json_object_get(req, "moves");
  if (moves && !json_is_array(moves)) {
    err = error_object("request", "\"moves\" must be an array of strings", line_number);
    goto done;
  }
  json_t *intended = json_object_get(req, "intended");
  if (intended && !json_is_string(intended)) {
    err = error_object("request", "\"intended\" must be a move (string)", line_number);
    goto done;
  }
  /* "time_control": a PGN TimeControl tag value; the answer gets its lichess speed category. */
  json_t *tcj = json_object_get(req, "time_control");
  arb_time_control tc;
  if (tcj) {
    arb_tc_report trep;
    arb_status st =
        json_is_string(tcj)
            ? arb_tc_parse(json_string_value(tcj), json_string_length(tcj), ARB_TC_PGN, &tc, &trep)
            : ARB_ERR_TC_SYNTAX;
    if (st != ARB_OK) {
      err = error_object(arb_status_name(st),
                         json_is_string(tcj) ? trep.message : "\"time_control\" must be a string",
                         line_number);
      json_object_set_new(err, "field", json_string("time_control"));
      if (json_is_string(tcj)) json_object_set_new(err, "column", json_integer(trep.column + 1));
      goto done;
    }
  }
  json_t *hist = json_object_get(req, "history");
  if (hist && !json_is_boolean(hist)) {
    err = error_object("request", "\"history\" must be true or false", line_number);
    goto done;
  }
  if (json_is_false(hist)) {
    /* Position facts only: the moves are played on the bare position, no game is kept. */
    size_t i;
    json_t *mv;
    json_array_foreach(moves, i, mv) {
      arb_move m;
      arb_san_error serr;
      arb_status st = json_is_string(mv)
                          ? arb_move_read(&pos, json_string_value(mv), json_string_length(mv),
                                          ARB_SAN_ALLOW_NULL, &m, &serr)
                          : ARB_ERR_MOVE_SYNTAX;
      if (st == ARB_OK && m == ARB_MOVE_NULL && arb_in_check(&pos)) {
        st = ARB_ERR_NULL_IN_CHECK;
        snprintf(serr.message, sizeof serr.message, "%s", arb_strerror(st));
      }
      if (st != ARB_OK) {
        err = error_object(arb_status_name(st), json_is_string(mv) ? serr.message : "not a string",
                           line_number);
        json_object_set_new(err, "move_index", json_integer((json_int_t)i));
        goto done;
      }
      arb_undo u;
      arb_make_move(&pos, m, &u);
    }
    json_t *a = json_object();
    if (id) json_object_set(a, "id", id);
    describe(a, &pos, fen_flags);
    if (tcj) describe_speed(a, &tc);
    if (epd_ops) json_object_set(a, "epd", epd_ops);
    err = describe_requested(a, req, &pos, line_number);
    if (err)
      json_decref(a);
    else
      out = finish(a);
    goto done;
  }
  game = arb_game_new(&pos, rules);
  if (!game) {
    err = error_object("no_memory", "out of memory", line_number);
    goto done;
  }
  arb_game_set_null_moves(game, 1); /* "--", "0000", "Z0": see arb_game_set_null_moves */
  {
    size_t i;
    json_t *mv;
    json_array_foreach(moves, i, mv) {
      if (!json_is_string(mv)) {
        err = error_object("request", "each move must be a string", line_number);
        json_object_set_new(err, "move_index", json_integer((json_int_t)i));
        break;
      }
      const arb_position *now = arb_game_position(game);
      arb_move m;
      arb_san_error serr;
      arb_status st = arb_move_read(now, json_string_value(mv), json_string_length(mv),
                                    ARB_SAN_ALLOW_NULL, &m, &serr);
      if (st == ARB_OK) st = arb_game_play(game, m);
      if (st != ARB_OK) {
        char fenbuf[ARB_FEN_MAX];
        const char *msg = serr.message;
        if (st == ARB_ERR_GAME_OVER) msg = "the game is already over";
        if (st == ARB_ERR_NULL_IN_CHECK) msg = arb_strerror(st);
        err = error_object(arb_status_name(st), msg, line_number);
        json_object_set_new(err, "move_index", json_integer((json_int_t)i));
        json_object_set(err, "move", mv);
        arb_fen_write(now, fenbuf, sizeof fenbuf, 0);
        json_object_set_new(err, "fen", json_string(fenbuf));
        if (st == ARB_ERR_GAME_OVER) {
          arb_outcome o = arb_game_outcome(game);
          json_object_set_new(err, "result", json_string(arb_result_string(o.result)));
          json_object_set_new(err, "termination", json_string(arb_termination_name(o.termination)));
        }
        if (st == ARB_ERR_MOVE_AMBIGUOUS) {
          json_t *c = json_array();
          for (int k = 0; k < serr.candidates_count && k < 8; k++) {
            char u[8];
            arb_uci_write(now, serr.candidates[k], u, sizeof u);
            json_array_append_new(c, json_string(u));
          }
          json_object_set_new(err, "candidates", c);
        }
        break;
      }
    }
  }
  if (err) goto done;
  {
    const arb_position *now = arb_game_position(game);
    arb_move im = ARB_MOVE_NONE;
    if (intended) {
      arb_san_error serr;
      arb_status st = arb_move_read(now, json_string_value(intended), json_string_length(intended),
                                    0, &im, &serr);
      if (st != ARB_OK) {
        err = error_object(arb_status_name(st), serr.message, line_number);
        json_object_set_new(err, "field", json_string("intended"));
        goto done;
      }
    }
    json_t *a = json_object();
    if (id) json_object_set(a, "id", id);
    describe(a, now, fen_flags);
    if (epd_ops) json_object_set(a, "epd", epd_ops);
    err = describe_requested(a, req, now, line_number);
    if (err) {
      json_decref(a);
      goto done;
    }
    json_t *played_uci = json_array(), *played_san = json_array();
    int plies = arb_game_ply_count(game);
    for (int k = 1; k <= plies; k++) {
      char u[8];
      arb_uci_write(arb_game_position_at(game, k - 1), arb_game_move_at(game, k), u, sizeof u);
      json_array_append_new(played_uci, json_string(u));
      json_array_append_new(played_san, json_string(arb_game_san_at(game, k)));
    }
    json_object_set_new(a, "moves_uci", played_uci);
    json_object_set_new(a, "moves_san", played_san);
    describe_game(a, game);
    if (tcj) describe_speed(a, &tc);
    json_t *win = json_object_get(req, "winnability");
    if (json_is_true(win)) {
      json_t *budget = json_object_get(req, "budget");
      unsigned long long b = json_is_integer(budget) && json_integer_value(budget) > 0
                                 ? (unsigned long long)json_integer_value(budget)
                                 : 0;
      if (b > 5000000ULL) b = 5000000ULL; /* a request cannot ask for minutes of search */
      json_object_set_new(a, "winnability", arb_query_winnability(now, b));
    }
    if (intended) {
      json_t *ic = json_object();
      json_object_set_new(ic, "threefold",
                          json_boolean(arb_game_claim_correct(game, ARB_CLAIM_THREEFOLD, im)));
      json_object_set_new(ic, "fifty",
                          json_boolean(arb_game_claim_correct(game, ARB_CLAIM_FIFTY, im)));
      json_object_set_new(a, "intended_claim", ic);
    }
    out = finish(a);
  }

done:
  if (err) out = error_answer(id, err);
  json_decref(epd_ops);
  arb_game_free(game);
  json_decref(req);
  return out;
}

static json_t *describe_requested(json_t *a, json_t *req, const arb_position *pos,
                                  long line_number) {
  json_t *ps = json_object_get(req, "pseudo_legal");
  if (json_is_true(ps)) {
    arb_move moves[ARB_MAX_MOVES];
    int n = arb_generate_pseudo_legal(pos, moves);
    char rows[ARB_MAX_MOVES][8];
    for (int i = 0; i < n; i++)
      arb_uci_write(pos, moves[i], rows[i], sizeof rows[i]);
    qsort(rows, (size_t)n, sizeof rows[0], cmp_str);
    json_t *arr = json_array();
    for (int i = 0; i < n; i++)
      json_array_append_new(arr, json_string(rows[i]));
    json_object_set_new(a, "pseudo_legal_uci", arr);
  }
  if (json_is_true(json_object_get(req, "pins"))) json_object_set_new(a, "pins", pins_array(pos));
  json_t *at = json_object_get(req, "attackers");
  if (at) {
    int sq = json_is_string(at) ? square_by_name(json_string_value(at)) : -1;
    if (sq < 0)
      return error_object("request", "\"attackers\" must be a square like \"e4\"", line_number);
    json_object_set_new(a, "attackers", by_colour(pos, attackers_of, sq));
  }
  json_t *mi = json_object_get(req, "move_info");
  if (mi) {
    if (!json_is_array(mi))
      return error_object("request", "\"move_info\" must be an array of moves", line_number);
    json_t *arr = json_array();
    size_t i;
    json_t *mv;
    json_array_foreach(mi, i, mv) {
      arb_move m;
      arb_san_error serr;
      arb_status st = json_is_string(mv) ? arb_move_read(pos, json_string_value(mv),
                                                         json_string_length(mv), 0, &m, &serr)
                                         : ARB_ERR_MOVE_SYNTAX;
      if (st != ARB_OK) {
        json_decref(arr);
        json_t *e = error_object(arb_status_name(st),
                                 json_is_string(mv) ? serr.message : "not a string", line_number);
        json_object_set_new(e, "field", json_string("move_info"));
        json_object_set_new(e, "index", json_integer((json_int_t)i));
        return e;
      }
      json_array_append_new(arr, move_info_object(pos, m));
    }
    json_object_set_new(a, "move_info", arr);
  }
  if (json_object_get(req, "explain")) return explain_array(a, req, pos, line_number);
  return NULL;
}
