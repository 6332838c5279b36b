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

/* The facts about a position that the board and rules layers know. */
static void describe(json_t *a, const arb_position *pos) {
  char fen[ARB_FEN_MAX];
  arb_fen_write(pos, fen, sizeof fen, 0);
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
  json_t *chk = json_array();
  for (int sq = 0; sq < 64; sq++)
    if (checkers & (UINT64_C(1) << sq)) json_array_append_new(chk, json_string(square_names[sq]));
  json_object_set_new(a, "checkers", chk);
  json_object_set_new(a, "material_class",
                      json_string(arb_material_class_name(arb_material_class_of(pos))));
  char key[17];
  snprintf(key, sizeof key, "%016llx", (unsigned long long)pos->key);
  json_object_set_new(a, "polyglot_key", json_string(key));
  json_object_set_new(a, "chess960", json_boolean(pos->chess960));
}

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
  json_t *err = NULL;
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

  json_t *fen = json_object_get(req, "fen");
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
  } else {
    arb_fen_read(&pos, ARB_FEN_START, accept, NULL);
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
      arb_status st = json_is_string(mv) ? arb_move_read(&pos, json_string_value(mv),
                                                         json_string_length(mv), 0, &m, &serr)
                                         : ARB_ERR_MOVE_SYNTAX;
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
    describe(a, &pos);
    out = finish(a);
    goto done;
  }
  game = arb_game_new(&pos, rules);
  if (!game) {
    err = error_object("no_memory", "out of memory", line_number);
    goto done;
  }
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
      arb_status st =
          arb_move_read(now, json_string_value(mv), json_string_length(mv), 0, &m, &serr);
      if (st == ARB_OK) st = arb_game_play(game, m);
      if (st != ARB_OK) {
        char fenbuf[ARB_FEN_MAX];
        const char *msg = serr.message;
        if (st == ARB_ERR_GAME_OVER) msg = "the game is already over";
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
    describe(a, now);
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
  arb_game_free(game);
  json_decref(req);
  return out;
}
