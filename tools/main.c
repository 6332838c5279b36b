/* Arbiter — MIT licence, see LICENSE.
 *
 * main.c: the `arbiter` command and its subcommands.
 */
#include <stdio.h>
#include <string.h>

#include "util.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: arbiter COMMAND [ARGS]\n"
          "\n"
          "The complete laws of chess.  Commands:\n"
          "  perft    count the leaves of the legal move tree (move-generator check)\n"
          "  query    JSON lines in, facts about each position out\n"
          "  referee  game events in (moves, offers, claims, resignation), decisions out\n"
          "  dead     positions in, dead-position and can-each-side-mate verdicts out\n"
          "  pgn      check, convert and filter PGN files, replaying every game\n"
          "  match    engines against each other, games ended by the laws, Elo and SPRT\n"
          "  readjudicate  re-derive game endings from PGN by the laws; list disagreements\n"
          "  stats    Elo, nElo, LOS and SPRT from counts, as Arbiter, fastchess and cutechess\n"
          "  play     a game in the terminal against an engine or a second person\n"
          "  book     the moves a Polyglot opening book has for positions\n"
          "  svg      a diagram of a position: SVG, or text (ASCII, Unicode)\n"
          "  serve    the online play server: games in the browser, clocks, SQLite\n"
          "  solve    mate or a forced draw in N: every key proven, a main line\n"
          "  puzzles  puzzles mined from real games and proven; re-prove a puzzle CSV\n"
          "  quiz     the rules quiz: items whose answers the laws compute; re-check them\n"
          "  endgame  exact win/draw/loss and mate distance for small endings\n"
          "  train    the trainer in the terminal: puzzles and the rules quiz, rated and reviewed\n"
          "  demo     a short demonstration of the library\n"
          "  version  print the version\n"
          "\n"
          "Run `arbiter COMMAND --help` for a command's options.\n");
}

static void demo_usage(FILE *out) {
  fprintf(out, "usage: arbiter demo\n"
               "\n"
               "A short demonstration of the library: a game replayed and checked move by move\n"
               "(SAN, FEN, check and mate), the threefold-repetition claim with an intended move,\n"
               "and perft 5 from the start with its speed.\n"
               "Exit status: 0, 2 bad usage.\n");
}

static int cmd_demo(int argc, char **argv) {
  if (argc > 1) {
    int help = !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h");
    if (!help) fprintf(stderr, "arbiter demo: unexpected argument '%s'\n", argv[1]);
    demo_usage(help ? stdout : stderr);
    return help ? 0 : 2;
  }
  arb_position pos;
  arb_position_startpos(&pos);
  static const char *const moves[] = {"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"};
  char fen[ARB_FEN_MAX], san[ARB_SAN_MAX], uci[8];
  printf("Scholar's mate, replayed and checked move by move:\n");
  for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
    arb_move m;
    arb_san_error err;
    if (arb_san_read(&pos, moves[i], strlen(moves[i]), ARB_SAN_STRICT, &m, &err) != ARB_OK) {
      fprintf(stderr, "arbiter: demo: %s: %s\n", moves[i], err.message);
      return 1;
    }
    arb_san_write(&pos, m, san, sizeof san);
    arb_uci_write(&pos, m, uci, sizeof uci);
    arb_undo u;
    arb_make_move(&pos, m, &u);
    printf("  %2zu. %-6s %-5s  %d legal replies\n", i / 2 + 1, san, uci, arb_count_legal(&pos));
  }
  arb_fen_write(&pos, fen, sizeof fen, 0);
  printf("Final position: %s\n", fen);
  /* The same game as PGN, written in export format and read back with every check. */
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  if (!w) return 1;
  arb_pgn_writer_begin_game(w);
  arb_pgn_writer_tag(w, "Event", 5, "Arbiter demo", 12);
  arb_position replay;
  arb_position_startpos(&replay);
  for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
    arb_move m;
    arb_san_read(&replay, moves[i], strlen(moves[i]), 0, &m, NULL);
    arb_pgn_writer_move(w, &replay, m);
    arb_undo u;
    arb_make_move(&replay, m, &u);
  }
  arb_pgn_writer_end_game(w, ARB_RESULT_WHITE_WINS);
  size_t pgn_len;
  const char *pgn = arb_pgn_writer_data(w, &pgn_len);
  printf("As PGN:\n%s", pgn);
  arb_pgn_reader *r = arb_pgn_reader_new(NULL, NULL);
  if (!r) {
    arb_pgn_writer_free(w);
    return 1;
  }
  arb_pgn_reader_feed(r, pgn, pgn_len);
  arb_pgn_reader_finish(r);
  arb_pgn_stats st;
  arb_pgn_reader_stats(r, &st);
  printf("Read back: %llu game, %llu plies, %llu errors\n", (unsigned long long)st.games,
         (unsigned long long)st.plies, (unsigned long long)st.errors);
  arb_pgn_reader_free(r);
  arb_pgn_writer_free(w);
  printf("Checkmate: %s   Polyglot key: %016llx\n", arb_is_checkmate(&pos) ? "yes" : "no",
         (unsigned long long)pos.key);
  /* The game layer: a knight shuffle, a claim by an intended move, an automatic fivefold. */
  arb_game *game = arb_game_new(NULL, ARB_RULES_FIDE);
  if (!game) return 1;
  static const char *const shuffle[] = {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"};
  for (size_t i = 0; i < sizeof shuffle / sizeof shuffle[0]; i++)
    arb_game_play_text(game, shuffle[i], strlen(shuffle[i]), NULL);
  arb_move intended;
  arb_san_read(arb_game_position(game), "Ng8", 3, 0, &intended, NULL);
  printf("After 1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1, Black writes 4...Ng8 (the start position\n"
         "for the 3rd time) and claims a draw without playing it (FIDE 9.2.1): %s\n",
         arb_game_claim_correct(game, ARB_CLAIM_THREEFOLD, intended) ? "correct" : "wrong");
  for (int i = 0; i < 9 && arb_game_outcome(game).result == ARB_RESULT_NONE; i++) {
    const char *m = i % 4 == 0 ? "Ng8" : i % 4 == 1 ? "Nf3" : i % 4 == 2 ? "Nf6" : "Ng1";
    arb_game_play_text(game, m, 3, NULL);
  }
  arb_outcome o = arb_game_outcome(game);
  printf("Played on without a claim: %s by %s after %d plies (%d occurrences)\n",
         arb_result_string(o.result), arb_termination_name(o.termination), arb_game_ply_count(game),
         arb_game_repetitions(game));
  arb_game_free(game);

  arb_position start;
  arb_position_startpos(&start);
  double t0 = arb_tool_now();
  uint64_t nodes = arb_perft(&start, 5);
  double t1 = arb_tool_now();
  printf("perft 5 from the start: %llu nodes in %.3f s (%.0f Mnodes/s)\n",
         (unsigned long long)nodes, t1 - t0, (double)nodes / (t1 - t0) / 1e6);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
    printf("arbiter %s\n", ARB_VERSION_STRING);
    return 0;
  }
  static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    int whole_argv; /* gets argv from "arbiter" on (pgn reads its subcommand itself) */
  } commands[] = {{"perft", arb_cmd_perft, 0},
                  {"query", arb_cmd_query, 0},
                  {"referee", arb_cmd_referee, 0},
                  {"dead", arb_cmd_dead, 0},
                  {"pgn", arb_cmd_pgn, 1},
                  {"match", arb_cmd_match, 0},
                  {"readjudicate", arb_cmd_readjudicate, 0},
                  {"stats", arb_cmd_stats, 0},
                  {"play", arb_cmd_play, 0},
                  {"serve", arb_cmd_serve, 0},
                  {"book", arb_cmd_book, 0},
                  {"svg", arb_cmd_svg, 0},
                  {"solve", arb_cmd_solve, 0},
                  {"puzzles", arb_cmd_puzzles, 0},
                  {"quiz", arb_cmd_quiz, 0},
                  {"endgame", arb_cmd_endgame, 0},
                  {"train", arb_cmd_train, 0},
                  {"demo", cmd_demo, 0}};
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    if (strcmp(cmd, commands[i].name)) continue;
    /* every command answers --version the same way */
    if (argc == 3 && !strcmp(argv[2], "--version")) {
      printf("arbiter %s %s\n", cmd, ARB_VERSION_STRING);
      return 0;
    }
    return commands[i].whole_argv ? commands[i].run(argc, argv)
                                  : commands[i].run(argc - 1, argv + 1);
  }
  fprintf(stderr, "arbiter: unknown command '%s'\n", cmd);
  usage(stderr);
  return 2;
}
