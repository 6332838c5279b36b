/* Arbiter — MIT licence, see LICENSE.
 *
 * test_query.c: the `arbiter query` request handler: answers for good requests and one error
 * object (never a crash) for every kind of bad one.
 */
#include <jansson.h>
#include <stdlib.h>

#include "query.h"
#include "test_util.h"

static json_t *ask(const char *req) {
  char *s = arb_query_answer(req, strlen(req), 7);
  cr_assert_not_null(s);
  json_error_t e;
  json_t *a = json_loads(s, 0, &e);
  cr_assert_not_null(a, "answer is not JSON: %s", s);
  free(s);
  return a;
}

static const char *error_code(json_t *a) {
  return json_string_value(json_object_get(json_object_get(a, "error"), "code"));
}

Test(query, start_position_answer) {
  json_t *a = ask("{}");
  cr_assert_str_eq(json_string_value(json_object_get(a, "fen")), ARB_FEN_START);
  cr_assert_str_eq(json_string_value(json_object_get(a, "turn")), "white");
  json_t *uci = json_object_get(a, "legal_uci"), *san = json_object_get(a, "legal_san");
  cr_assert_eq(json_array_size(uci), 20);
  cr_assert_eq(json_array_size(san), 20);
  for (size_t i = 1; i < json_array_size(uci); i++)
    cr_assert(strcmp(json_string_value(json_array_get(uci, i - 1)),
                     json_string_value(json_array_get(uci, i))) < 0,
              "legal_uci sorted");
  /* legal_san is in the same order as legal_uci */
  cr_assert_str_eq(json_string_value(json_array_get(uci, 2)), "b1a3");
  cr_assert_str_eq(json_string_value(json_array_get(san, 2)), "Na3");
  cr_assert(json_is_false(json_object_get(a, "check")));
  json_decref(a);
}

Test(query, moves_in_san_and_uci) {
  json_t *a = ask("{\"id\": 3, \"moves\": [\"f3\", \"e7e5\", \"g4\", \"Qh4#\"]}");
  cr_assert_eq(json_integer_value(json_object_get(a, "id")), 3);
  cr_assert(json_is_true(json_object_get(a, "checkmate")));
  cr_assert(json_is_true(json_object_get(a, "check")));
  cr_assert_eq(json_array_size(json_object_get(a, "legal_uci")), 0);
  json_decref(a);
}

Test(query, every_bad_request_gets_one_error) {
  static const struct {
    const char *req, *code;
  } cases[] = {
      {"not json", "json"},
      {"[1, 2]", "request"},
      {"{\"fen\": 5}", "request"},
      {"{\"moves\": \"e4\"}", "request"},
      {"{\"moves\": [1]}", "request"},
      {"{\"fen\": \"8/8/8 w - - 0 1\"}", "fen_syntax"},
      {"{\"fen\": \"4k3/8/8/8/8/8/8/K3K3 w - - 0 1\"}", "fen_invalid"},
      {"{\"moves\": [\"e5\"]}", "move_illegal"},
      {"{\"moves\": [\"Zz\"]}", "move_syntax"},
      {"{\"fen\": \"4k3/8/8/8/8/8/8/4K2r w - - 0 1\", \"moves\": [\"--\"]}", "null_in_check"},
      {"{\"fen\": \"k7/8/8/8/8/8/8/1N1N3K w - - 0 1\", \"moves\": [\"Nc3\"]}", "move_ambiguous"},
      {"{\"accept\": 5}", "request"},
      {"{\"accept\": [\"nonsense\"]}", "request"},
      {"{\"a\": 1, \"a\": 2}", "json"},
      {"\"\xff\xfe\"", "json"},
      {"{\"fen\":\"\\\xc8\x89ulbbH- 01\",\"moves\":[\"O-O\"]}", "json"}, /* fuzz find */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    json_t *a = ask(cases[i].req);
    const char *code = error_code(a);
    cr_expect(code && !strcmp(code, cases[i].code), "%s: code %s", cases[i].req,
              code ? code : "(none)");
    cr_expect(json_is_string(json_object_get(json_object_get(a, "error"), "message")),
              "%s: every error has a message", cases[i].req);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(a, "error"), "line")), 7);
    json_decref(a);
  }
}

Test(query, error_details) {
  json_t *a = ask("{\"moves\": [\"e4\", \"e5\", \"Ke3\"]}");
  json_t *e = json_object_get(a, "error");
  cr_assert_eq(json_integer_value(json_object_get(e, "move_index")), 2);
  cr_assert_str_eq(json_string_value(json_object_get(e, "move")), "Ke3");
  json_decref(a);
  a = ask("{\"fen\": \"k7/8/8/8/8/8/8/1N1N3K w - - 0 1\", \"moves\": [\"Nc3\"]}");
  e = json_object_get(a, "error");
  cr_assert_eq(json_array_size(json_object_get(e, "candidates")), 2);
  json_decref(a);
  a = ask("{\"fen\": \"6rk/8/6K1/4N3/8/8/8/8 b - - 0 1\"}");
  e = json_object_get(a, "error");
  cr_assert_str_eq(json_string_value(json_object_get(
                       json_array_get(json_object_get(e, "problems"), 0), "problem")),
                   "opponent_in_check");
  json_decref(a);
  /* the same position, accepted deliberately */
  a = ask("{\"fen\": \"6rk/8/6K1/4N3/8/8/8/8 b - - 0 1\", \"accept\": [\"opponent_in_check\"]}");
  cr_assert_null(json_object_get(a, "error"));
  json_decref(a);
}

Test(query, huge_and_binary_input) {
  size_t n = 1 << 20;
  char *big = malloc(n + 1);
  cr_assert_not_null(big);
  memset(big, '[', n);
  big[n] = '\0';
  char *s = arb_query_answer(big, n, 1);
  cr_assert_not_null(s);
  cr_assert(strstr(s, "\"error\""));
  free(s);
  for (size_t i = 0; i < n; i++)
    big[i] = (char)(i * 131 + 7);
  s = arb_query_answer(big, n, 1);
  cr_assert_not_null(s);
  cr_assert(strstr(s, "\"error\""));
  free(s);
  free(big);
  s = arb_query_too_long(4, 100);
  cr_assert(strstr(s, "line_too_long"));
  free(s);
}

/* "time_control": lichess's speed category, initial + 40 x increment (3+2 = 260 s: blitz). */
Test(query, time_control_speed) {
  json_t *a = ask("{\"time_control\": \"180+2\"}");
  cr_assert_str_eq(json_string_value(json_object_get(a, "speed")), "blitz");
  cr_assert_eq(json_integer_value(json_object_get(a, "estimated_seconds")), 260);
  json_decref(a);
  a = ask("{\"time_control\": \"900+10\", \"history\": false}");
  cr_assert_str_eq(json_string_value(json_object_get(a, "speed")), "rapid");
  cr_assert_eq(json_integer_value(json_object_get(a, "estimated_seconds")), 1300);
  json_decref(a);
  a = ask("{\"moves\": [\"e4\"]}");
  cr_assert_null(json_object_get(a, "speed"), "no speed without a time control");
  json_decref(a);
  a = ask("{\"time_control\": \"180+x\"}");
  cr_assert_str_eq(error_code(a), "tc_syntax");
  json_t *e = json_object_get(a, "error");
  cr_assert_str_eq(json_string_value(json_object_get(e, "field")), "time_control");
  cr_assert_eq(json_integer_value(json_object_get(e, "column")), 5);
  json_decref(a);
  a = ask("{\"time_control\": 180}");
  cr_assert_str_eq(error_code(a), "tc_syntax");
  json_decref(a);
}

static int has_string(json_t *arr, const char *s) {
  size_t i;
  json_t *v;
  json_array_foreach(arr, i, v) if (!strcmp(json_string_value(v), s)) return 1;
  return 0;
}

/* The request gets an error answer with this code. */
static void expect_error(const char *req, const char *code) {
  json_t *a = ask(req);
  cr_assert_str_eq(error_code(a), code, "%s", req);
  json_decref(a);
}

Test(query, null_moves) {
  json_t *a = ask("{\"moves\": [\"e4\", \"--\", \"0000\", \"Z0\"]}");
  json_t *san = json_object_get(a, "moves_san"), *uci = json_object_get(a, "moves_uci");
  cr_assert_eq(json_array_size(san), 4);
  cr_assert_str_eq(json_string_value(json_array_get(san, 1)), "--");
  cr_assert_str_eq(json_string_value(json_array_get(uci, 3)), "0000");
  cr_assert_str_eq(json_string_value(json_object_get(a, "turn")), "white");
  cr_assert_eq(json_integer_value(json_object_get(a, "halfmove_clock")), 3);
  json_decref(a);
  expect_error("{\"fen\": \"4k3/8/8/8/8/8/8/4K2r w - - 0 1\", \"moves\": [\"--\"]}",
               "null_in_check");
  expect_error(
      "{\"fen\": \"4k3/8/8/8/8/8/8/4K2r w - - 0 1\", \"moves\": [\"--\"], \"history\": false}",
      "null_in_check");
}

/* The query fields of the move and board queries, on python-chess's test positions. */
Test(query, board_queries) {
  json_t *a = ask("{\"fen\": \"rnb1k1nr/2pppppp/3P4/8/1b5q/8/PPPNPBPP/RNBQKB1R w KQkq - 0 1\","
                  " \"pins\": true, \"attackers\": \"e1\"}");
  json_t *pins = json_object_get(a, "pins");
  cr_assert_eq(json_array_size(pins), 2);
  json_t *pin = json_array_get(pins, 1); /* a1 first: d2, then f2 */
  cr_assert_str_eq(json_string_value(json_object_get(pin, "square")), "f2");
  cr_assert_str_eq(json_string_value(json_object_get(pin, "color")), "white");
  json_t *ray = json_object_get(pin, "ray");
  cr_assert_eq(json_array_size(ray), 4);
  cr_assert(has_string(ray, "e1") && has_string(ray, "h4"));
  json_t *att = json_object_get(a, "attackers");
  cr_assert_eq(json_array_size(json_object_get(att, "black")), 0, "nothing checks e1");
  cr_assert(has_string(json_object_get(att, "white"), "d1"));
  json_decref(a);
  a = ask("{\"fen\": \"r1bqkb1r/p3np2/2n1p2p/1p4pP/2pP4/4PQ1N/1P2BPP1/RNB1K2R w KQkq g6 0 11\","
          " \"move_info\": [\"hxg6\", \"O-O\", \"Qxf7+\"], \"pseudo_legal\": true}");
  json_t *mi = json_object_get(a, "move_info");
  cr_assert_eq(json_array_size(mi), 3);
  cr_assert(json_is_true(json_object_get(json_array_get(mi, 0), "en_passant")));
  cr_assert(json_is_true(json_object_get(json_array_get(mi, 0), "capture")));
  cr_assert(json_is_true(json_object_get(json_array_get(mi, 1), "castling")));
  cr_assert(json_is_false(json_object_get(json_array_get(mi, 1), "capture")));
  cr_assert(json_is_true(json_object_get(json_array_get(mi, 2), "gives_check")));
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(mi, 1), "uci")), "e1g1");
  cr_assert(json_array_size(json_object_get(a, "pseudo_legal_uci")) >=
            json_array_size(json_object_get(a, "legal_uci")));
  cr_assert_eq(json_integer_value(json_object_get(a, "chess960_number")), -1);
  json_decref(a);
  a = ask("{\"moves\": [\"e4\"], \"en_passant\": \"always\"}");
  cr_assert_str_eq(json_string_value(json_object_get(a, "fen")),
                   "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  json_decref(a);
  a = ask("{}");
  cr_assert_eq(json_integer_value(json_object_get(a, "chess960_number")), 518);
  json_decref(a);
  expect_error("{\"attackers\": \"z9\"}", "request");
  expect_error("{\"move_info\": [\"Ke2\"]}", "move_illegal");
}

Test(query, epd_and_edit) {
  /* Bratko-Kopec 1: its published best move and id, hmvc as the clock. */
  json_t *a = ask("{\"epd\": \"1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id "
                  "\\\"BK.01\\\"; hmvc 5;\"}");
  json_t *ops = json_object_get(a, "epd");
  cr_assert_eq(json_array_size(ops), 3);
  json_t *bm = json_array_get(ops, 0);
  cr_assert_str_eq(json_string_value(json_object_get(bm, "opcode")), "bm");
  cr_assert_str_eq(json_string_value(json_array_get(json_object_get(bm, "uci"), 0)), "d6d1");
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ops, 1), "string")), "BK.01");
  cr_assert_eq(json_integer_value(json_object_get(a, "halfmove_clock")), 5);
  json_decref(a);
  a = ask("{\"epd\": \"4k3/8/8/8/8/8/8/4K3 w - - bm Kd9;\"}");
  cr_assert_str_eq(error_code(a), "move_syntax");
  cr_assert_eq(json_integer_value(json_object_get(json_object_get(a, "error"), "op_index")), 0);
  json_decref(a);
  a = ask("{\"epd\": \"4k3/8/8/8/8/8/8/4K3 w - -\", \"fen\": \"" ARB_FEN_START "\"}");
  cr_assert_str_eq(error_code(a), "request");
  json_decref(a);
  /* Editing: a bare board set up square by square, then validated as a FEN is. */
  a = ask("{\"edit\": {\"clear\": true, \"put\": {\"e1\": \"K\", \"e8\": \"k\", \"h1\": \"R\"},"
          " \"castling\": [\"h1\"], \"turn\": \"b\"}}");
  cr_assert_str_eq(json_string_value(json_object_get(a, "fen")), "4k3/8/8/8/8/8/8/4K2R b K - 0 1");
  json_decref(a);
  a = ask("{\"edit\": {\"put\": {\"e1\": null}}}");
  cr_assert_str_eq(error_code(a), "fen_invalid");
  json_t *probs = json_object_get(json_object_get(a, "error"), "problems");
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(probs, 0), "problem")),
                   "no_white_king");
  json_decref(a);
  expect_error("{\"edit\": {\"put\": {\"e9\": \"Q\"}}}", "request");
  expect_error("{\"edit\": {\"en_passant\": \"e4\"}}", "request");
}
