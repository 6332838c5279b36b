/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_tree.c: libFuzzer target for game trees (arbiter/tree.h).
 *
 * Input: byte 0 = n, then n edit bytes, then a PGN text.  The PGN's first game is read into a
 * tree; the edit bytes, two at a time (operation, argument), add legal moves, promote, demote,
 * promote to the main line, delete, and set comments, NAGs and comment commands on nodes chosen
 * by the argument.  Properties after every edit: the walk visits arb_tree_node_count nodes;
 * every node's move is legal in its parent's position and gives its position, its ply is its
 * parent's plus one.  Then, for a game read without errors, the tree is written and read back:
 * no error, and the same moves in the same places and the same NAGs; the same comment texts and
 * commands as multisets (PGN keeps a comment before a move apart only at the start of a
 * variation, and a command left in a comment's text may become its node's), and when no text
 * holds a command, each node's commands.
 */
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"

#define MAX_NODES 4096

static int collect(arb_tree *t, arb_tree_node **v) {
  int n = 0;
  for (arb_tree_node *x = arb_tree_root(t); x && n < MAX_NODES; x = arb_tree_node_walk(x))
    v[n++] = x;
  return n;
}

static int starts_illegal(const arb_tree_node *n) {
  for (int i = 0; i < arb_tree_node_comment_count(n, ARB_TREE_AFTER); i++)
    if (strstr(arb_tree_node_comment(n, ARB_TREE_AFTER, i, NULL), "[%illegal")) return 1;
  return 0;
}

static void check_tree(arb_tree *t) {
  size_t count = 0;
  for (arb_tree_node *x = arb_tree_root(t); x; x = arb_tree_node_walk(x)) {
    count++;
    FUZZ_CHECK(count <= arb_tree_node_count(t));
    const arb_tree_node *p = arb_tree_node_parent(x);
    for (int i = 0; i < arb_tree_node_child_count(x); i++) {
      FUZZ_CHECK(arb_tree_node_parent(arb_tree_node_child(x, i)) == x);
      FUZZ_CHECK(arb_tree_node_index(arb_tree_node_child(x, i)) == i);
    }
    if (!p) continue;
    FUZZ_CHECK(arb_tree_node_ply(x) == arb_tree_node_ply(p) + 1);
    arb_move m = arb_tree_node_move(x);
    if (m == ARB_MOVE_NULL || starts_illegal(p)) continue;
    arb_move legal[ARB_MAX_MOVES];
    int k = arb_generate_legal(arb_tree_node_position(p), legal);
    FUZZ_CHECK(fuzz_in_list(legal, k, m));
    arb_position after = *arb_tree_node_position(p);
    arb_undo u;
    arb_make_move(&after, m, &u);
    FUZZ_CHECK(fuzz_same_position(&after, arb_tree_node_position(x)));
  }
  FUZZ_CHECK(count == arb_tree_node_count(t));
}

static void edit(arb_tree *t, uint8_t op, uint8_t arg, arb_tree_node **v) {
  int n = collect(t, v);
  arb_tree_node *x = v[arg % n];
  static const char *const words[4] = {"good", "a long comment with words", "?!", "x"};
  switch (op % 9) {
  case 0: { /* add a legal move */
    arb_move legal[ARB_MAX_MOVES];
    int k = arb_generate_legal(arb_tree_node_position(x), legal);
    if (k) FUZZ_CHECK(arb_tree_add_move(t, x, legal[(arg >> 3) % k], NULL) == ARB_OK);
    break;
  }
  case 1:
    FUZZ_CHECK(arb_tree_promote(x) == (arb_tree_node_parent(x) ? ARB_OK : ARB_ERR_ARGUMENT));
    break;
  case 2:
    FUZZ_CHECK(arb_tree_demote(x) == (arb_tree_node_parent(x) ? ARB_OK : ARB_ERR_ARGUMENT));
    break;
  case 3:
    FUZZ_CHECK(arb_tree_promote_to_main(x) == ARB_OK);
    FUZZ_CHECK(arb_tree_node_is_mainline(x));
    break;
  case 4: {
    arb_status want = arb_tree_node_parent(x) ? ARB_OK : ARB_ERR_ARGUMENT; /* (x is freed) */
    FUZZ_CHECK(arb_tree_delete(t, x) == want);
    break;
  }
  case 5: {
    if (starts_illegal(x)) break; /* (the comment says where play went on: kept) */
    const char *w = words[arg & 3];
    arb_tree_side side = arb_tree_node_parent(x) && (arg & 4) ? ARB_TREE_BEFORE : ARB_TREE_AFTER;
    FUZZ_CHECK(arb_tree_node_set_comment(x, side, w, strlen(w)) == ARB_OK);
    break;
  }
  case 6:
    if (arb_tree_node_parent(x)) FUZZ_CHECK(arb_tree_node_add_nag(x, arg) == ARB_OK);
    break;
  case 7: {
    if (!arb_tree_node_parent(x)) break;
    arb_pgn_commands c;
    arb_pgn_commands_clear(&c);
    c.clk_ms = arg & 1 ? (int64_t)arg * 1234567 : -1;
    c.emt_ms = arg & 2 ? (int64_t)arg * 10 : -1;
    c.has_eval = (arg & 4) != 0;
    c.eval_mate = (arg & 8) != 0;
    c.eval = (int32_t)arg * 37 - 4000;
    c.eval_depth = arg & 16 ? arg : -1;
    c.nshapes = arg % 5;
    for (int i = 0; i < c.nshapes; i++)
      c.shapes[i] = (arb_pgn_shape){(arb_square)((arg * 7 + i) & 63),
                                    (arb_square)((arg + i * 9) & 63), "RGYB"[i & 3]};
    FUZZ_CHECK(arb_tree_node_set_commands(x, &c) == ARB_OK);
    break;
  }
  default: { /* a line of SAN: its moves are legal or nothing is added */
    size_t before = arb_tree_node_count(t);
    int bad;
    arb_status st = arb_tree_add_line(t, x, "e4 e5 Nf3 d5", 12, NULL, &bad);
    FUZZ_CHECK(st == ARB_OK || arb_tree_node_count(t) == before);
    break;
  }
  }
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct strs {
  char **v;
  int n, cap;
} strs;

static void push(strs *l, const char *s, size_t n) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
    FUZZ_CHECK(l->v != NULL);
  }
  char *p = malloc(n + 1);
  FUZZ_CHECK(p != NULL);
  memcpy(p, s, n);
  p[n] = '\0';
  l->v[l->n++] = p;
}

/* Each command of c as one string. */
static void push_commands(strs *l, const arb_pgn_commands *c) {
  arb_pgn_commands one;
  char buf[64];
  for (int k = 0; k < 3 + c->nshapes; k++) {
    arb_pgn_commands_clear(&one);
    if (k == 0) one.clk_ms = c->clk_ms;
    if (k == 1) one.emt_ms = c->emt_ms;
    if (k == 2 && c->has_eval)
      one.has_eval = 1, one.eval_mate = c->eval_mate, one.eval = c->eval,
      one.eval_depth = c->eval_depth;
    if (k >= 3) one.nshapes = 1, one.shapes[0] = c->shapes[k - 3];
    int n = arb_pgn_commands_write(&one, buf, sizeof buf);
    if (n > 0 && n < (int)sizeof buf) push(l, buf, (size_t)n);
  }
}

/* What a tree says, wherever it stands: every command (a node's, or one left in a comment's
 * text: read out of it until none is left) and every text without its commands, sorted. */
static void summary(arb_tree *t, strs *texts, strs *cmds, int *has_command_text) {
  for (arb_tree_node *x = arb_tree_root(t); x; x = arb_tree_node_walk(x)) {
    push_commands(cmds, arb_tree_node_commands(x));
    for (int s = 0; s < 2; s++)
      for (int i = 0; i < arb_tree_node_comment_count(x, (arb_tree_side)s); i++) {
        size_t len;
        const char *c = arb_tree_node_comment(x, (arb_tree_side)s, i, &len);
        if (strstr(c, "[%")) *has_command_text = 1;
        char *a = malloc(len + 1), *b = malloc(len + 1);
        FUZZ_CHECK(a && b);
        memcpy(a, c, len + 1);
        size_t n = len, m;
        for (;;) {
          arb_pgn_commands k;
          arb_pgn_commands_clear(&k);
          arb_pgn_commands_read(a, n, &k, b, n + 1, &m);
          push_commands(cmds, &k);
          char *tmp = a;
          a = b, b = tmp;
          if (m == n) break;
          n = m;
        }
        if (n || len == 0) push(texts, a, n);
        free(a);
        free(b);
      }
  }
  if (texts->n) qsort(texts->v, (size_t)texts->n, sizeof *texts->v, cmp_str);
  if (cmds->n) qsort(cmds->v, (size_t)cmds->n, sizeof *cmds->v, cmp_str);
}

static void same_strs(const strs *a, const strs *b) {
  FUZZ_CHECK(a->n == b->n);
  for (int i = 0; i < a->n; i++)
    FUZZ_CHECK_CTX(strcmp(a->v[i], b->v[i]) == 0, a->v[i]);
}

static void free_strs(strs *l) {
  for (int i = 0; i < l->n; i++)
    free(l->v[i]);
  free(l->v);
}

static void check_same(arb_tree *a, arb_tree *b) {
  FUZZ_CHECK(arb_tree_node_count(a) == arb_tree_node_count(b));
  strs ta = {0}, tb = {0}, ca = {0}, cb = {0};
  int loose = 0;
  summary(a, &ta, &ca, &loose);
  summary(b, &tb, &cb, &loose);
  same_strs(&ta, &tb);
  same_strs(&ca, &cb);
  free_strs(&ta), free_strs(&tb), free_strs(&ca), free_strs(&cb);
  arb_tree_node *x = arb_tree_root(a), *y = arb_tree_root(b);
  for (; x && y; x = arb_tree_node_walk(x), y = arb_tree_node_walk(y)) {
    FUZZ_CHECK(arb_tree_node_move(x) == arb_tree_node_move(y));
    FUZZ_CHECK(arb_tree_node_child_count(x) == arb_tree_node_child_count(y));
    FUZZ_CHECK(arb_tree_node_nag_count(x) == arb_tree_node_nag_count(y));
    for (int i = 0; i < arb_tree_node_nag_count(x); i++)
      FUZZ_CHECK(arb_tree_node_nag(x, i) == arb_tree_node_nag(y, i));
    if (loose) continue; /* a command left in a text may become its node's when read back */
    const arb_pgn_commands *c = arb_tree_node_commands(x), *d = arb_tree_node_commands(y);
    FUZZ_CHECK(c->clk_ms == d->clk_ms && c->emt_ms == d->emt_ms && c->has_eval == d->has_eval);
    if (c->has_eval)
      FUZZ_CHECK(c->eval == d->eval && c->eval_mate == d->eval_mate &&
                 c->eval_depth == d->eval_depth);
    FUZZ_CHECK(c->nshapes == d->nshapes);
  }
  FUZZ_CHECK(!x && !y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  size_t nedit = data[0];
  if (nedit > size - 1) nedit = size - 1;
  const uint8_t *ed = data + 1;
  const char *pgn = (const char *)data + 1 + nedit;
  size_t len = size - 1 - nedit;
  arb_pgn_options o;
  memset(&o, 0, sizeof o);
  o.flags = ARB_PGN_ALLOW_NULL | ARB_PGN_NO_RESULT_CHECK;
  arb_tree *t = NULL;
  int errors = 0;
  char msg[256];
  arb_status st = arb_tree_read(pgn, len, &o, &t, &errors, msg, sizeof msg);
  FUZZ_CHECK(st == ARB_OK || st == ARB_ERR_ARGUMENT);
  FUZZ_CHECK((st == ARB_OK) == (t != NULL));
  if (!t) t = arb_tree_new(NULL);
  FUZZ_CHECK(t != NULL);
  check_tree(t);
  arb_tree_node **v = malloc(MAX_NODES * sizeof *v);
  FUZZ_CHECK(v != NULL);
  for (size_t i = 0; i + 1 < nedit; i += 2) {
    edit(t, ed[i], ed[i + 1], v);
    check_tree(t);
  }
  free(v);
  if (errors == 0) {
    arb_pgn_writer *w = arb_pgn_writer_new(0);
    FUZZ_CHECK(w != NULL);
    FUZZ_CHECK(arb_tree_write(t, w) == ARB_OK);
    size_t n;
    const char *text = arb_pgn_writer_data(w, &n);
    arb_tree *u = NULL;
    int errors2 = 0;
    FUZZ_CHECK(arb_tree_read(text, n, &o, &u, &errors2, msg, sizeof msg) == ARB_OK);
    FUZZ_CHECK_CTX(errors2 == 0, msg);
    check_same(t, u);
    arb_tree_free(u);
    arb_pgn_writer_free(w);
  }
  arb_tree_free(t);
  return 0;
}
