/* Arbiter — MIT licence, see LICENSE.
 *
 * test_tree.c: game trees (arbiter/tree.h) and the PGN comment commands.  Every expected
 * movetext is written by hand from the PGN standard's export format (8.2: "N." before White's
 * moves, "N..." before a Black move that follows a comment or a variation or starts one, NAGs
 * as $n, comments in braces, variations in parentheses after the move they replace and its
 * annotations); command values from the PGN supplement's and lichess's notations.
 */
#include <stdlib.h>

#include "test_util.h"

/* The movetext of the tree's PGN: the text after the tag section, without the final blank
 * line, and with line breaks as blanks (the writer breaks lines under 80 columns). */
static char *movetext(const arb_tree *t) {
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  cr_assert_not_null(w);
  cr_assert_eq(arb_tree_write(t, w), ARB_OK);
  size_t n;
  const char *d = arb_pgn_writer_data(w, &n);
  const char *m = strstr(d, "\n\n");
  cr_assert_not_null(m, "%s", d);
  m += 2;
  char *s = malloc(strlen(m) + 1);
  cr_assert_not_null(s);
  strcpy(s, m);
  size_t k = strlen(s);
  while (k && s[k - 1] == '\n')
    s[--k] = '\0';
  /* (a break right after "(" joins its variation's first token without a blank) */
  size_t j = 0;
  for (size_t i = 0; i < k; i++)
    if (s[i] != '\n')
      s[j++] = s[i];
    else if (j && s[j - 1] != '(')
      s[j++] = ' ';
  s[j] = '\0';
  arb_pgn_writer_free(w);
  return s;
}

static void expect_movetext(const arb_tree *t, const char *want) {
  char *got = movetext(t);
  cr_expect_str_eq(got, want);
  free(got);
}

/* The whole PGN text of a tree. */
static char *pgn_of(const arb_tree *t) {
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  cr_assert_eq(arb_tree_write(t, w), ARB_OK);
  const char *d = arb_pgn_writer_data(w, NULL);
  char *s = malloc(strlen(d) + 1);
  strcpy(s, d);
  arb_pgn_writer_free(w);
  return s;
}

static arb_tree_node *line(arb_tree *t, arb_tree_node *from, const char *moves) {
  arb_tree_node *last;
  int bad;
  arb_status st = arb_tree_add_line(t, from, moves, strlen(moves), &last, &bad);
  cr_assert_eq(st, ARB_OK, "%s: move %d: %s", moves, bad, arb_strerror(st));
  return last;
}

static arb_tree *read_tree(const char *pgn) {
  arb_tree *t;
  int errors;
  char msg[256];
  cr_assert_eq(arb_tree_read(pgn, strlen(pgn), NULL, &t, &errors, msg, sizeof msg), ARB_OK);
  cr_assert_eq(errors, 0, "%s: %s", pgn, msg);
  return t;
}

Test(tree, from_scratch_main_line) {
  arb_tree *t = arb_tree_new(NULL);
  cr_assert_not_null(t);
  arb_tree_node *last = line(t, arb_tree_root(t), "e4 e5 2. Nf3 Nc6");
  cr_expect_str_eq(arb_tree_node_san(last), "Nc6");
  cr_expect_eq(arb_tree_node_ply(last), 4);
  cr_expect_eq(arb_tree_node_count(t), 5);
  cr_expect(arb_tree_node_is_mainline(last));
  expect_movetext(t, "1. e4 e5 2. Nf3 Nc6 *");
  arb_tree_set_result(t, ARB_RESULT_DRAW);
  expect_movetext(t, "1. e4 e5 2. Nf3 Nc6 1/2-1/2");
  char *pgn = pgn_of(t);
  cr_expect(strstr(pgn, "[Result \"1/2-1/2\"]\n") != NULL, "%s", pgn);
  free(pgn);
  arb_tree_free(t);
}

/* A small tree: 1. e4 e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 */
static arb_tree *sample(arb_tree_node **e4, arb_tree_node **c5, arb_tree_node **c3) {
  arb_tree *t = arb_tree_new(NULL);
  *e4 = line(t, arb_tree_root(t), "e4");
  line(t, *e4, "e5 Nf3");
  *c5 = line(t, *e4, "c5");
  line(t, *c5, "Nf3 d6");
  *c3 = line(t, *c5, "c3");
  return t;
}

Test(tree, variations_are_written_after_the_move_they_replace) {
  arb_tree_node *e4, *c5, *c3;
  arb_tree *t = sample(&e4, &c5, &c3);
  expect_movetext(t, "1. e4 e5 (1... c5 2. Nf3 (2. c3) 2... d6) 2. Nf3 *");
  cr_expect_eq(arb_tree_node_child_count(e4), 2);
  cr_expect_eq(arb_tree_node_index(c5), 1);
  cr_expect(!arb_tree_node_is_mainline(c5));
  cr_expect_eq(arb_tree_node_count(t), 8);
  arb_tree_free(t);
}

Test(tree, add_move_returns_the_existing_child) {
  arb_tree_node *e4, *c5, *c3;
  arb_tree *t = sample(&e4, &c5, &c3);
  arb_tree_node *again;
  cr_expect_eq(arb_tree_add_san(t, e4, "c5", 2, &again, NULL), ARB_OK);
  cr_expect_eq(again, c5);
  cr_expect_eq(arb_tree_node_count(t), 8);
  arb_position p = test_fen(ARB_FEN_START);
  cr_expect_eq(arb_tree_add_move(t, arb_tree_root(t), test_uci(&p, "e2e4"), &again), ARB_OK);
  cr_expect_eq(again, e4);
  arb_tree_free(t);
}

Test(tree, illegal_moves_and_lines_change_nothing) {
  arb_tree_node *e4, *c5, *c3;
  arb_tree *t = sample(&e4, &c5, &c3);
  char *before = movetext(t);
  arb_position p = test_fen(ARB_FEN_START);
  cr_expect_eq(arb_tree_add_move(t, e4, test_uci(&p, "d2d4"), NULL), ARB_ERR_MOVE_ILLEGAL);
  cr_expect_eq(arb_tree_add_move(t, e4, ARB_MOVE_NULL, NULL), ARB_ERR_NULL_MOVE);
  arb_tree_node *last = (arb_tree_node *)1;
  int bad;
  /* The third move of the line cannot be played: Ke2 after 1... d5 2. Nf3 is Black's move. */
  cr_expect_eq(arb_tree_add_line(t, e4, "d5 2. Nf3 Ke2", 13, &last, &bad), ARB_ERR_MOVE_ILLEGAL);
  cr_expect_eq(bad, 2);
  cr_expect_null(last);
  cr_expect_eq(arb_tree_node_count(t), 8);
  char *after = movetext(t);
  cr_expect_str_eq(after, before);
  free(before);
  free(after);
  arb_tree_free(t);
}

Test(tree, promote_and_demote) {
  arb_tree_node *e4, *c5, *c3;
  arb_tree *t = sample(&e4, &c5, &c3);
  cr_expect_eq(arb_tree_promote(c5), ARB_OK);
  expect_movetext(t, "1. e4 c5 (1... e5 2. Nf3) 2. Nf3 (2. c3) 2... d6 *");
  cr_expect(arb_tree_node_is_mainline(c5));
  cr_expect_eq(arb_tree_promote(c5), ARB_OK); /* first already: no change */
  expect_movetext(t, "1. e4 c5 (1... e5 2. Nf3) 2. Nf3 (2. c3) 2... d6 *");
  cr_expect_eq(arb_tree_demote(c5), ARB_OK);
  expect_movetext(t, "1. e4 e5 (1... c5 2. Nf3 (2. c3) 2... d6) 2. Nf3 *");
  cr_expect_eq(arb_tree_demote(c5), ARB_OK); /* last already */
  expect_movetext(t, "1. e4 e5 (1... c5 2. Nf3 (2. c3) 2... d6) 2. Nf3 *");
  cr_expect_eq(arb_tree_promote(arb_tree_root(t)), ARB_ERR_ARGUMENT);
  arb_tree_free(t);
}

Test(tree, promote_to_main_line) {
  arb_tree_node *e4, *c5, *c3;
  arb_tree *t = sample(&e4, &c5, &c3);
  /* A second variation at the first level, so that the order of the others is seen kept. */
  line(t, e4, "e6");
  expect_movetext(t, "1. e4 e5 (1... c5 2. Nf3 (2. c3) 2... d6) (1... e6) 2. Nf3 *");
  cr_expect_eq(arb_tree_promote_to_main(c3), ARB_OK);
  cr_expect(arb_tree_node_is_mainline(c3));
  expect_movetext(t, "1. e4 c5 (1... e5 2. Nf3) (1... e6) 2. c3 (2. Nf3 d6) *");
  arb_tree_free(t);
}

Test(tree, delete_a_variation_and_the_rest_of_a_line) {
  arb_tree_node *e4, *c5, *c3;
  arb_tree *t = sample(&e4, &c5, &c3);
  cr_expect_eq(arb_tree_delete(t, c3), ARB_OK);
  expect_movetext(t, "1. e4 e5 (1... c5 2. Nf3 d6) 2. Nf3 *");
  cr_expect_eq(arb_tree_node_count(t), 7);
  cr_expect_eq(arb_tree_delete(t, c5), ARB_OK);
  expect_movetext(t, "1. e4 e5 2. Nf3 *");
  cr_expect_eq(arb_tree_node_count(t), 4);
  cr_expect_eq(arb_tree_delete(t, e4), ARB_OK);
  expect_movetext(t, "*");
  cr_expect_eq(arb_tree_node_count(t), 1);
  cr_expect_eq(arb_tree_delete(t, arb_tree_root(t)), ARB_ERR_ARGUMENT);
  arb_tree_free(t);
}

Test(tree, comments_and_nags) {
  arb_tree_node *e4, *c5, *c3;
  arb_tree *t = sample(&e4, &c5, &c3);
  arb_tree_node *root = arb_tree_root(t);
  cr_expect_eq(arb_tree_node_set_comment(root, ARB_TREE_AFTER, "Start", 5), ARB_OK);
  cr_expect_eq(arb_tree_node_set_comment(e4, ARB_TREE_AFTER, "best by test", 12), ARB_OK);
  cr_expect_eq(arb_tree_node_add_nag(e4, 1), ARB_OK);
  cr_expect_eq(arb_tree_node_set_comment(c5, ARB_TREE_BEFORE, "Sicilian", 8), ARB_OK);
  int nags[2] = {3, 14};
  cr_expect_eq(arb_tree_node_set_nags(c5, nags, 2), ARB_OK);
  cr_expect_eq(arb_tree_node_add_nag(c5, 256), ARB_ERR_ARGUMENT);
  expect_movetext(t, "{ Start } 1. e4 $1 { best by test } 1... e5 ({ Sicilian } 1... c5 $3 $14 "
                     "2. Nf3 (2. c3) 2... d6) 2. Nf3 *");
  cr_expect_eq(arb_tree_node_add_comment(e4, ARB_TREE_AFTER, "really", 6), ARB_OK);
  cr_expect_eq(arb_tree_node_comment_count(e4, ARB_TREE_AFTER), 2);
  size_t len;
  cr_expect_str_eq(arb_tree_node_comment(e4, ARB_TREE_AFTER, 1, &len), "really");
  cr_expect_eq(len, 6);
  cr_expect_eq(arb_tree_node_set_comment(e4, ARB_TREE_AFTER, NULL, 0), ARB_OK);
  cr_expect_eq(arb_tree_node_set_nags(e4, NULL, 0), ARB_OK);
  cr_expect_eq(arb_tree_node_comment_count(e4, ARB_TREE_AFTER), 0);
  cr_expect_eq(arb_tree_node_nag_count(c5), 2);
  cr_expect_eq(arb_tree_node_nag(c5, 1), 14);
  /* '}' cannot be written inside a PGN comment (8.2.5): it is dropped. */
  cr_expect_eq(arb_tree_node_set_comment(c3, ARB_TREE_AFTER, "a } b", 5), ARB_OK);
  expect_movetext(t, "{ Start } 1. e4 e5 ({ Sicilian } 1... c5 $3 $14 2. Nf3 (2. c3 { a b }) "
                     "2... d6) 2. Nf3 *");
  arb_tree_free(t);
}

Test(tree, commands_are_written_after_the_text) {
  arb_tree *t = arb_tree_new(NULL);
  arb_tree_node *e4 = line(t, arb_tree_root(t), "e4");
  arb_tree_node *e5 = line(t, e4, "e5");
  arb_pgn_commands c;
  arb_pgn_commands_clear(&c);
  c.clk_ms = 180000;
  c.has_eval = 1;
  c.eval = 17;
  c.eval_depth = 22;
  cr_expect_eq(arb_tree_node_set_commands(e4, &c), ARB_OK);
  arb_pgn_commands_clear(&c);
  c.emt_ms = 1500;
  c.has_eval = 1;
  c.eval_mate = 1;
  c.eval = -3;
  c.nshapes = 2;
  c.shapes[0] = (arb_pgn_shape){ARB_SQUARE(3, 3), ARB_SQUARE(3, 3), 'G'};
  c.shapes[1] = (arb_pgn_shape){ARB_SQUARE(6, 0), ARB_SQUARE(5, 2), 'R'};
  cr_expect_eq(arb_tree_node_set_commands(e5, &c), ARB_OK);
  arb_tree_node_set_comment(e5, ARB_TREE_AFTER, "sharp", 5);
  expect_movetext(t, "1. e4 { [%eval 0.17,22] [%clk 0:03:00] } 1... e5 { sharp [%csl Gd4] "
                     "[%cal Rg1f3] [%eval #-3] [%emt 0:00:01.5] } *");
  /* and back: the commands in structured form, the text without them */
  char *pgn = pgn_of(t);
  arb_tree *u = read_tree(pgn);
  arb_tree_node *r4 = arb_tree_node_next(arb_tree_root(u)), *r5 = arb_tree_node_next(r4);
  const arb_pgn_commands *a = arb_tree_node_commands(r4), *b = arb_tree_node_commands(r5);
  cr_expect_eq(a->clk_ms, 180000);
  cr_expect_eq(a->eval, 17);
  cr_expect_eq(a->eval_depth, 22);
  cr_expect_eq(arb_tree_node_comment_count(r4, ARB_TREE_AFTER), 0);
  cr_expect_eq(b->emt_ms, 1500);
  cr_expect(b->has_eval && b->eval_mate && b->eval == -3 && b->eval_depth == -1);
  cr_expect_eq(b->nshapes, 2);
  cr_expect_eq(b->shapes[1].to, ARB_SQUARE(5, 2));
  cr_expect_str_eq(arb_tree_node_comment(r5, ARB_TREE_AFTER, 0, NULL), "sharp");
  free(pgn);
  arb_tree_free(u);
  arb_tree_free(t);
}

Test(tree, read_keeps_starting_comments_and_variations) {
  const char *pgn = "[Event \"x\"]\n\n{ Start } 1. e4 (1. d4 { queen's } 1... d5) ({ or } 1. c4) "
                    "1... e5 $2 { hm } (1... c5 $1) 2. Nf3 1-0\n";
  arb_tree *t = read_tree(pgn);
  arb_tree_node *root = arb_tree_root(t);
  cr_expect_str_eq(arb_tree_tag(t, "Event"), "x");
  cr_expect_eq(arb_tree_result(t), ARB_RESULT_WHITE_WINS);
  cr_expect_eq(arb_tree_node_comment_count(root, ARB_TREE_AFTER), 1);
  cr_expect_str_eq(arb_tree_node_comment(root, ARB_TREE_AFTER, 0, NULL), "Start");
  cr_expect_eq(arb_tree_node_child_count(root), 3);
  arb_tree_node *c4 = arb_tree_node_child(root, 2);
  cr_expect_str_eq(arb_tree_node_san(c4), "c4");
  cr_expect_str_eq(arb_tree_node_comment(c4, ARB_TREE_BEFORE, 0, NULL), "or");
  arb_tree_node *e5 = arb_tree_node_next(arb_tree_node_next(root));
  cr_expect_eq(arb_tree_node_nag(e5, 0), 2);
  cr_expect_eq(arb_tree_node_count(t), 8);
  /* the walk visits every node once */
  size_t seen = 0;
  for (arb_tree_node *n = root; n; n = arb_tree_node_walk(n))
    seen++;
  cr_expect_eq(seen, 8);
  expect_movetext(t, "{ Start } 1. e4 (1. d4 { queen's } 1... d5) ({ or } 1. c4) 1... e5 $2 "
                     "{ hm } (1... c5 $1) 2. Nf3 1-0");
  arb_tree_free(t);
}

Test(tree, tags_and_start_positions) {
  arb_position p = test_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40");
  arb_tree *t = arb_tree_new(&p);
  cr_expect_str_eq(arb_tree_tag(t, "SetUp"), "1");
  cr_expect_str_eq(arb_tree_tag(t, "FEN"), "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40");
  line(t, arb_tree_root(t), "Kd7 e4");
  expect_movetext(t, "40... Kd7 41. e4 *");
  cr_expect_eq(arb_tree_set_tag(t, "White", "Anna"), ARB_OK);
  cr_expect_eq(arb_tree_set_tag(t, "White", "Bea"), ARB_OK);
  cr_expect_eq(arb_tree_set_tag(t, "bad name", "x"), ARB_ERR_ARGUMENT);
  cr_expect_str_eq(arb_tree_tag(t, "White"), "Bea");
  cr_expect_eq(arb_tree_tag_count(t), 3);
  cr_expect_eq(arb_tree_set_tag(t, "White", NULL), ARB_OK);
  cr_expect_null(arb_tree_tag(t, "White"));
  const char *name, *value;
  cr_expect_eq(arb_tree_tag_at(t, 1, &name, &value), ARB_OK);
  cr_expect_str_eq(name, "FEN");
  arb_tree_free(t);

  /* A Chess960 start says so (chessops and lichess read Variant to know the castling rules). */
  arb_position_chess960(&p, 0); /* BBQNNRKR */
  t = arb_tree_new(&p);
  char *pgn = pgn_of(t);
  cr_expect(strstr(pgn, "[Variant \"Chess960\"]\n") != NULL, "%s", pgn);
  cr_expect(strstr(pgn, "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w") != NULL, "%s", pgn);
  free(pgn);
  arb_tree_free(t);
}

Test(tree, round_trip_text_is_stable) {
  const char *pgn = "[Event \"r\"]\n[Site \"?\"]\n\n{ A } 1. e4 { [%clk 0:05:00] } 1... c5 $1 "
                    "(1... e5 { [%eval 0.3,18] } 2. Nf3 (2. f4 exf4 $6) 2... Nc6) 2. Nf3 d6 "
                    "{ [%csl Ge5,Rd4] [%cal Gd7d6] } 3. d4 *\n";
  arb_tree *t = read_tree(pgn);
  char *a = pgn_of(t);
  arb_tree *u = read_tree(a);
  char *b = pgn_of(u);
  cr_expect_str_eq(a, b);
  cr_expect_eq(arb_tree_node_count(t), arb_tree_node_count(u));
  expect_movetext(u, "{ A } 1. e4 { [%clk 0:05:00] } 1... c5 $1 (1... e5 { [%eval 0.30,18] } "
                     "2. Nf3 (2. f4 exf4 $6) 2... Nc6) 2. Nf3 d6 { [%csl Ge5,Rd4] [%cal Gd7d6] } "
                     "3. d4 *");
  free(a);
  free(b);
  arb_tree_free(t);
  arb_tree_free(u);
}

Test(tree, read_errors_and_empty_input) {
  arb_tree *t = (arb_tree *)1;
  int errors;
  char msg[128];
  cr_expect_eq(arb_tree_read("", 0, NULL, &t, &errors, msg, sizeof msg), ARB_ERR_ARGUMENT);
  cr_expect_null(t);
  const char *bad = "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n";
  cr_expect_eq(arb_tree_read(bad, strlen(bad), NULL, &t, &errors, msg, sizeof msg), ARB_OK);
  cr_expect_eq(errors, 1);
  cr_expect(strstr(msg, "line 3") == msg && strstr(msg, "Ke3"), "%s", msg);
  cr_expect_eq(arb_tree_node_count(t), 3); /* what could be read */
  arb_tree_free(t);
  arb_tree_free(NULL);
}

/* The acceptance example: load a game, add a variation with a comment, promote it, write. */
Test(tree, load_add_variation_promote_write) {
  const char *game = "[Event \"Casual\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n"
                     "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";
  arb_tree *t = read_tree(game);
  arb_tree_node *nc6 = arb_tree_root(t);
  for (int i = 0; i < 4; i++)
    nc6 = arb_tree_node_next(nc6);
  arb_tree_node *bc4;
  cr_assert_eq(arb_tree_add_san(t, nc6, "Bc4", 3, &bc4, NULL), ARB_OK);
  cr_assert_eq(arb_tree_node_set_comment(bc4, ARB_TREE_AFTER, "the Italian", 11), ARB_OK);
  line(t, bc4, "Bc5");
  expect_movetext(t, "1. e4 e5 2. Nf3 Nc6 3. Bb5 (3. Bc4 { the Italian } 3... Bc5) 3... a6 *");
  cr_assert_eq(arb_tree_promote_to_main(bc4), ARB_OK);
  expect_movetext(t, "1. e4 e5 2. Nf3 Nc6 3. Bc4 { the Italian } (3. Bb5 a6) 3... Bc5 *");
  char *pgn = pgn_of(t);
  cr_expect(strncmp(pgn, "[Event \"Casual\"]\n[Site \"?\"]\n", 28) == 0, "%s", pgn);
  free(pgn);
  arb_tree_free(t);
}

/* ---- comment commands ---- */

static arb_pgn_commands cmds_of(const char *text, char *rest, size_t size) {
  arb_pgn_commands c;
  arb_pgn_commands_clear(&c);
  cr_assert_eq(arb_pgn_commands_read(text, strlen(text), &c, rest, size, NULL), ARB_OK);
  return c;
}

Test(commands, eval_values_and_depth) {
  char rest[128];
  static const struct {
    const char *text;
    int mate, value, depth;
  } cases[] = {
      {"[%eval 0.17]", 0, 17, -1},    {"[%eval -1.5]", 0, -150, -1}, {"[%eval +3]", 0, 300, -1},
      {"[%eval .5]", 0, 50, -1},      {"[%eval #3]", 1, 3, -1},      {"[%eval #-12]", 1, -12, -1},
      {"[%eval 0.25,23]", 0, 25, 23}, {"[%eval #+1,40]", 1, 1, 40},  {"[%eval -0.01]", 0, -1, -1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    arb_pgn_commands c = cmds_of(cases[i].text, rest, sizeof rest);
    cr_expect(c.has_eval, "%s", cases[i].text);
    cr_expect_eq(c.eval_mate, cases[i].mate, "%s", cases[i].text);
    cr_expect_eq(c.eval, cases[i].value, "%s", cases[i].text);
    cr_expect_eq(c.eval_depth, cases[i].depth, "%s", cases[i].text);
    cr_expect_str_eq(rest, "", "%s", cases[i].text);
  }
  /* Not read exactly: left in the text, whole. */
  static const char *const kept[] = {"[%eval 0.175]", "[%eval x]", "[%eval 1.5,]", "[%eval]",
                                     "[%eval #]"};
  for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
    arb_pgn_commands c = cmds_of(kept[i], rest, sizeof rest);
    cr_expect(!c.has_eval, "%s", kept[i]);
    cr_expect_str_eq(rest, kept[i]);
  }
}

Test(commands, clocks_shapes_and_text) {
  char rest[128];
  arb_pgn_commands c = cmds_of("Nice [%clk 1:02:03.4] move [%emt 0:00:07] [%csl Ra1,Gh8] "
                               "[%cal Ye2e4,Bb1c3] [%evp 1,2] [%clk 0:00:01]",
                               rest, sizeof rest);
  cr_expect_eq(c.clk_ms, ((1 * 60 + 2) * 60 + 3) * 1000 + 400);
  cr_expect_eq(c.emt_ms, 7000);
  cr_expect_eq(c.nshapes, 4);
  cr_expect_eq(c.shapes[0].color, 'R');
  cr_expect_eq(c.shapes[0].from, 0);
  cr_expect_eq(c.shapes[0].to, 0);
  cr_expect_eq(c.shapes[1].from, 63);
  cr_expect_eq(c.shapes[2].color, 'Y');
  cr_expect_eq(c.shapes[2].from, ARB_SQUARE(4, 1));
  cr_expect_eq(c.shapes[2].to, ARB_SQUARE(4, 3));
  /* other commands and a second clock stay text */
  cr_expect_str_eq(rest, "Nice move [%evp 1,2] [%clk 0:00:01]");
  char out[160];
  int n = arb_pgn_commands_write(&c, out, sizeof out);
  cr_expect_str_eq(out, "[%csl Ra1,Gh8] [%cal Ye2e4,Bb1c3] [%emt 0:00:07] [%clk 1:02:03.4]");
  cr_expect_eq(n, (int)strlen(out));
  cr_expect_eq(arb_pgn_commands_write(&c, out, 4), n); /* snprintf convention */
  c = cmds_of("[%csl Ra1,Xb2] [%cal Ga1]", rest, sizeof rest);
  cr_expect_eq(c.nshapes, 1); /* a bad list is text; a one-square arrow is a square */
  cr_expect_str_eq(rest, "[%csl Ra1,Xb2]");
  arb_pgn_commands_clear(&c);
  cr_expect_eq(arb_pgn_commands_write(&c, out, sizeof out), 0);
}
