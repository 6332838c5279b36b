/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_analysis.c: libFuzzer target for the analysis board's API (server/analysis.c).  Byte 0
 * picks the route (/api/analysis, /position, /pgn, or an unknown one); the rest is the request
 * body, whatever a hostile page posts.  {"game": ID} loads a fixed game with a repetition.
 * Checks: the answer is a JSON object and its status one the module documents (never 500: the
 * fuzzer does not run out of memory); an error has a string code and message; a whole
 * analysis has at most SRV_ANALYSIS_MAX_PLIES + 1 nodes, each node's FEN reads, its children
 * point back to it, its laws have a turn, a repetition count of at least one with as many
 * places, and notes; the main line starts at the root and follows first children; an
 * exported PGN reads back with no error (results not checked: a result the position
 * contradicts is taken with a warning and written back as it was).
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "arbiter/arbiter.h"
#include "fuzz.h"

static int load(void *ctx, const char *id, char **pgn) {
  (void)ctx;
  (void)id;
  *pgn = strdup("[Event \"f\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n");
  return *pgn ? 200 : 500;
}

static void check_laws(json_t *laws) {
  FUZZ_CHECK(json_is_object(laws));
  const char *turn = json_string_value(json_object_get(laws, "turn"));
  FUZZ_CHECK(turn && (!strcmp(turn, "white") || !strcmp(turn, "black")));
  json_t *reps = json_object_get(laws, "repetitions");
  json_int_t count = json_integer_value(json_object_get(reps, "count"));
  FUZZ_CHECK(count >= 1);
  FUZZ_CHECK((json_int_t)json_array_size(json_object_get(reps, "at")) == count);
  FUZZ_CHECK(json_is_array(json_object_get(laws, "legal")));
  FUZZ_CHECK(json_array_size(json_object_get(laws, "notes")) > 0);
  FUZZ_CHECK(json_is_object(json_object_get(laws, "winnable")));
}

static void check_analysis(json_t *a) {
  json_t *nodes = json_object_get(a, "nodes");
  size_t n = json_array_size(nodes);
  FUZZ_CHECK(n >= 1 && n <= SRV_ANALYSIS_MAX_PLIES + 1);
  for (size_t i = 0; i < n; i++) {
    json_t *node = json_array_get(nodes, i);
    FUZZ_CHECK(json_integer_value(json_object_get(node, "id")) == (json_int_t)i);
    arb_position pos;
    const char *fen = json_string_value(json_object_get(node, "fen"));
    FUZZ_CHECK_CTX(fen && arb_fen_read(&pos, fen, ARB_FEN_PROBLEMS_ALL, NULL) == ARB_OK,
                   fen ? fen : "");
    json_t *parent = json_object_get(node, "parent");
    FUZZ_CHECK(i == 0 ? json_is_null(parent) : json_is_integer(parent));
    size_t k;
    json_t *c;
    json_array_foreach(json_object_get(node, "children"), k, c) {
      json_int_t ci = json_integer_value(c);
      FUZZ_CHECK(ci > 0 && (size_t)ci < n);
      FUZZ_CHECK(json_integer_value(json_object_get(json_array_get(nodes, (size_t)ci), "parent")) ==
                 (json_int_t)i);
    }
    check_laws(json_object_get(node, "laws"));
  }
  json_t *main = json_object_get(a, "mainline");
  FUZZ_CHECK(json_integer_value(json_array_get(main, 0)) == 0);
  for (size_t i = 1; i < json_array_size(main); i++) {
    json_t *prev = json_array_get(nodes, (size_t)json_integer_value(json_array_get(main, i - 1)));
    FUZZ_CHECK(json_integer_value(json_array_get(json_object_get(prev, "children"), 0)) ==
               json_integer_value(json_array_get(main, i)));
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size) return 0;
  static const char *const paths[] = {"/api/analysis", "/api/analysis/position",
                                      "/api/analysis/pgn", "/api/analysis/other"};
  int route = data[0] & 3;
  char *out = NULL;
  static int64_t now; /* a second between inputs: the shared search budget refills */
  now += 1000;
  int status =
      srv_analysis_http(paths[route], (const char *)data + 1, size - 1, now, load, NULL, &out);
  FUZZ_CHECK(out != NULL);
  FUZZ_CHECK(status == 200 || status == 400 || status == 404 || status == 413);
  json_t *j = json_loads(out, 0, NULL);
  FUZZ_CHECK_CTX(json_is_object(j), out);
  if (status != 200) {
    json_t *e = json_object_get(j, "error");
    FUZZ_CHECK(json_is_string(json_object_get(e, "code")));
    FUZZ_CHECK(json_is_string(json_object_get(e, "message")));
  } else if (route == 0) {
    check_analysis(j);
  } else if (route == 1) {
    json_t *node = json_object_get(j, "node");
    FUZZ_CHECK(json_is_string(json_object_get(node, "fen")));
    check_laws(json_object_get(node, "laws"));
  } else {
    const char *pgn = json_string_value(json_object_get(j, "pgn"));
    FUZZ_CHECK(pgn != NULL);
    arb_tree *t = NULL;
    int errors = -1;
    char msg[200];
    /* (a result the source's position contradicts was read with a warning, and is written
     * as it was) */
    arb_pgn_options opts = {ARB_PGN_NO_RESULT_CHECK, ARB_RULES_FIDE, 0, 0};
    FUZZ_CHECK(arb_tree_read(pgn, strlen(pgn), &opts, &t, &errors, msg, sizeof msg) == ARB_OK);
    FUZZ_CHECK_CTX(errors == 0, msg);
    arb_tree_free(t);
  }
  json_decref(j);
  free(out);
  return 0;
}
