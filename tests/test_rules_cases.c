/* Arbiter — MIT licence, see LICENSE.
 *
 * test_rules_cases.c: the positional cases of the rules catalogue (tests/data/rules/cases.jsonl,
 * a copy of ../shared/data/rules/cases.jsonl) whose expected keys belong to the board, notation
 * and rules layers: legal_count, legal_moves, legal_includes, legal_excludes, in_check,
 * checkmate, stalemate, insufficient_material, fen_valid.  Other keys belong to later layers.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_util.h"

#ifndef ARB_TEST_DATA
#define ARB_TEST_DATA "tests/data"
#endif

static int has_uci(const arb_position *p, const char *uci) {
  arb_move m;
  return arb_uci_read(p, uci, strlen(uci), 0, &m) == ARB_OK;
}

static int cmp_cstr(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

Test(rules, catalogue_cases) {
  FILE *f = fopen(ARB_TEST_DATA "/rules/cases.jsonl", "r");
  cr_assert_not_null(f, "cannot open %s", ARB_TEST_DATA "/rules/cases.jsonl");
  char line[8192];
  int cases = 0, checks = 0;
  while (fgets(line, sizeof line, f)) {
    json_error_t jerr;
    json_t *c = json_loads(line, 0, &jerr);
    if (!c) continue;
    json_t *expect = json_object_get(c, "expect");
    const char *id = json_string_value(json_object_get(c, "id"));
    const char *fen = json_string_value(json_object_get(c, "fen"));
    if (!fen || json_object_get(c, "kind")) {
      json_decref(c);
      continue;
    }
    json_t *v;
    if ((v = json_object_get(expect, "fen_valid"))) {
      arb_position p;
      arb_fen_report rep;
      arb_status st = arb_fen_read(&p, fen, 0, &rep);
      cr_expect_eq(st == ARB_OK, json_is_true(v), "%s: fen_valid (%s)", id, rep.message);
      checks++;
      json_decref(c);
      cases++;
      continue;
    }
    arb_position p = test_fen(fen);
    size_t i;
    json_t *mv;
    json_array_foreach(json_object_get(c, "moves"), i, mv) {
      arb_undo u;
      arb_make_move(&p, test_uci(&p, json_string_value(mv)), &u);
    }
    const char *final_fen = json_string_value(json_object_get(c, "final_fen"));
    if (final_fen) {
      char out[ARB_FEN_MAX];
      arb_fen_write(&p, out, sizeof out, 0);
      cr_expect_str_eq(out, final_fen, "%s: final FEN", id);
      checks++;
    }
    arb_move moves[ARB_MAX_MOVES];
    int n = arb_generate_legal(&p, moves);
    if ((v = json_object_get(expect, "legal_count"))) {
      cr_expect_eq(n, (int)json_integer_value(v), "%s: legal_count %d", id, n);
      checks++;
    }
    if ((v = json_object_get(expect, "legal_moves"))) {
      const char *got[ARB_MAX_MOVES];
      char text[ARB_MAX_MOVES][8];
      for (int k = 0; k < n; k++) {
        arb_uci_write(&p, moves[k], text[k], sizeof text[k]);
        got[k] = text[k];
      }
      qsort(got, (size_t)n, sizeof got[0], cmp_cstr);
      cr_expect_eq((size_t)n, json_array_size(v), "%s: legal_moves size", id);
      for (size_t k = 0; k < json_array_size(v) && k < (size_t)n; k++)
        cr_expect_str_eq(got[k], json_string_value(json_array_get(v, k)), "%s: legal_moves", id);
      checks++;
    }
    if ((v = json_object_get(expect, "legal_includes"))) {
      json_array_foreach(v, i, mv) {
        cr_expect(has_uci(&p, json_string_value(mv)), "%s: %s must be legal", id,
                  json_string_value(mv));
        checks++;
      }
    }
    if ((v = json_object_get(expect, "legal_excludes"))) {
      json_array_foreach(v, i, mv) {
        cr_expect(!has_uci(&p, json_string_value(mv)), "%s: %s must be illegal", id,
                  json_string_value(mv));
        checks++;
      }
    }
    if ((v = json_object_get(expect, "in_check"))) {
      cr_expect_eq(arb_in_check(&p), json_is_true(v), "%s: in_check", id);
      checks++;
    }
    if ((v = json_object_get(expect, "checkmate"))) {
      cr_expect_eq(arb_is_checkmate(&p), json_is_true(v), "%s: checkmate", id);
      checks++;
    }
    if ((v = json_object_get(expect, "stalemate"))) {
      cr_expect_eq(arb_is_stalemate(&p), json_is_true(v), "%s: stalemate", id);
      checks++;
    }
    if ((v = json_object_get(expect, "insufficient_material"))) {
      cr_expect_eq(arb_is_insufficient_material(&p), json_is_true(v), "%s: insufficient", id);
      checks++;
    }
    cases++;
    json_decref(c);
  }
  fclose(f);
  cr_assert_geq(cases, 90, "only %d positional cases read", cases);
  cr_assert_geq(checks, 150, "only %d checks made", checks);
}
