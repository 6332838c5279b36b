/* Arbiter — MIT licence, see LICENSE.
 *
 * consumer.c: a tiny program built against the *installed* library (pkg-config), to prove the
 * headers, the shared library and arbiter.pc work outside the source tree: a few board calls,
 * then a whole timed game through arbiter/referee.h — moves, an offer, a wrong claim and its
 * penalty, a flag claimed too early and then at the right millisecond; and a game tree loaded,
 * given a variation with a comment, promoted and written (arbiter/tree.h).
 */
#include <arbiter/arbiter.h>
#include <stdio.h>
#include <string.h>

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "consumer: line %d: %s\n", __LINE__, #cond);                                 \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

static arb_ref_decision send(arb_referee *ref, arb_ref_kind kind, int64_t t, int by,
                             const char *move) {
  arb_ref_event ev = ARB_REF_EVENT_INIT(kind, t);
  ev.by = ev.side = (int8_t)by;
  ev.text = move;
  ev.text_len = move ? strlen(move) : 0;
  ev.reason = ARB_CLAIM_FIFTY;
  arb_ref_decision d;
  arb_referee_event(ref, &ev, &d);
  return d;
}

static int referee_game(void) {
  arb_time_control tc;
  CHECK(arb_tc_parse("1+0", 3, ARB_TC_HUMAN, &tc, NULL) == ARB_OK);
  arb_ref_tag names[2] = {{"White", "Consumer"}, {"Black", "Library"}};
  arb_ref_setup setup = ARB_REF_SETUP_INIT;
  setup.control = &tc;
  setup.tags = names;
  setup.tag_count = 2;
  arb_referee *ref = arb_referee_new(ARB_RULES_FIDE);
  CHECK(ref != NULL);
  arb_ref_event start = ARB_REF_EVENT_INIT(ARB_REF_START, 0);
  start.setup = &setup;
  arb_ref_decision d;
  CHECK(arb_referee_event(ref, &start, &d) == ARB_OK);
  CHECK(send(ref, ARB_REF_MOVE, 1000, -1, "e4").state.remaining_ms[ARB_WHITE] == 59000);
  CHECK(send(ref, ARB_REF_MOVE, 3000, -1, "e5").state.remaining_ms[ARB_BLACK] == 58000);
  CHECK(send(ref, ARB_REF_OFFER_DRAW, 3500, ARB_WHITE, NULL).state.draw_offer == ARB_WHITE);
  CHECK(send(ref, ARB_REF_DECLINE_DRAW, 4000, ARB_BLACK, NULL).state.draw_offer == -1);
  CHECK(send(ref, ARB_REF_MOVE, 10000, ARB_BLACK, "Nf3").refusal == ARB_REF_NOT_YOUR_TURN);
  CHECK(send(ref, ARB_REF_MOVE, 10000, -1, "Nf3").state.remaining_ms[ARB_WHITE] == 52000);
  /* a wrong 50-move claim: two minutes for White (FIDE 9.5.3) */
  d = send(ref, ARB_REF_CLAIM_DRAW, 11000, ARB_BLACK, NULL);
  CHECK(d.status == ARB_OK && d.claimed && !d.verdict.correct && d.verdict.penalty_s == 120);
  CHECK(d.time_added_to == ARB_WHITE && d.state.remaining_ms[ARB_WHITE] == 172000);
  CHECK(send(ref, ARB_REF_MOVE, 20000, -1, "Nc6").state.remaining_ms[ARB_BLACK] == 48000);
  /* White's clock runs from 20 s with 172 s: the flag is down from 192.001 s */
  d = send(ref, ARB_REF_FLAG, 192000, ARB_WHITE, NULL);
  CHECK(d.refusal == ARB_REF_FLAG_NOT_FALLEN && d.state.remaining_ms[ARB_WHITE] == 0);
  d = send(ref, ARB_REF_FLAG, 192001, ARB_WHITE, NULL);
  CHECK(d.status == ARB_OK && d.ended);
  CHECK(d.state.outcome.result == ARB_RESULT_BLACK_WINS);
  CHECK(d.state.outcome.termination == ARB_TERM_TIME_FORFEIT);
  CHECK(d.state.flag_side == ARB_WHITE && d.state.flag_reason == ARB_FLAG_LOSS);
  CHECK(arb_referee_record_count(ref) == 11);
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  CHECK(w && arb_referee_write_pgn(ref, 0, w) == ARB_OK);
  size_t len;
  const char *pgn = arb_pgn_writer_data(w, &len);
  CHECK(strstr(pgn, "[Termination \"time forfeit\"]") != NULL);
  CHECK(strstr(pgn, "1. e4 { [%clk 0:00:59] }") != NULL);
  CHECK(strstr(pgn, "2... Nc6 { [%clk 0:00:48] } 0-1") != NULL);
  arb_pgn_writer_free(w);
  arb_referee_free(ref);
  return 0;
}

/* A game tree (arbiter/tree.h): load a game, add a variation with a comment, promote it to the
 * main line, write the PGN. */
static int tree_game(void) {
  const char *game = "[Event \"Casual\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";
  arb_tree *tree;
  int errors;
  CHECK(arb_tree_read(game, strlen(game), NULL, &tree, &errors, NULL, 0) == ARB_OK);
  CHECK(errors == 0);
  arb_tree_node *n = arb_tree_root(tree);
  for (int i = 0; i < 4; i++) /* to 2... Nc6 */
    n = arb_tree_node_next(n);
  arb_tree_node *bc4;
  CHECK(arb_tree_add_san(tree, n, "Bc4", 3, &bc4, NULL) == ARB_OK);
  CHECK(arb_tree_node_set_comment(bc4, ARB_TREE_AFTER, "the Italian", 11) == ARB_OK);
  CHECK(arb_tree_promote_to_main(bc4) == ARB_OK);
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  CHECK(w != NULL);
  CHECK(arb_tree_write(tree, w) == ARB_OK);
  const char *pgn = arb_pgn_writer_data(w, NULL);
  CHECK(strstr(pgn, "\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 { the Italian } (3. Bb5 a6) *\n") != NULL);
  arb_pgn_writer_free(w);
  arb_tree_free(tree);
  return 0;
}

int main(void) {
  arb_position pos;
  arb_fen_report rep;
  if (arb_fen_read(&pos, ARB_FEN_START, 0, &rep) != ARB_OK) return 1;
  arb_move m;
  if (arb_san_read(&pos, "e4", 2, 0, &m, NULL) != ARB_OK) return 1;
  arb_undo u;
  arb_make_move(&pos, m, &u);
  char fen[ARB_FEN_MAX];
  arb_fen_write(&pos, fen, sizeof fen, 0);
  /* published values: perft(3) from the start, Polyglot key after 1.e4 */
  if (arb_perft(&pos, 2) != 600 || pos.key != UINT64_C(0x823c9b50fd114196)) return 1;
  if (strcmp(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1") != 0) return 1;
  if (referee_game() != 0) return 1;
  if (tree_game() != 0) return 1;
  printf("consumer ok: %s; a timed game refereed to a flag fall; a game tree edited\n", fen);
  return 0;
}
