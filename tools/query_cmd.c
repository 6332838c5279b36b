/* Arbiter — MIT licence, see LICENSE.
 *
 * query_cmd.c: `arbiter query` — JSON lines in, one JSON answer per request out, in order.
 */
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "util.h"

static void query_usage(FILE *out) {
  fprintf(
      out,
      "usage: arbiter query [--max-line BYTES]\n"
      "\n"
      "Reads JSON requests, one per line, from stdin and answers each with one JSON line on\n"
      "stdout, in order.  Blank lines are skipped; a bad request gets an error answer and\n"
      "the stream goes on.\n"
      "\n"
      "Request:  {\"fen\": FEN, \"moves\": [MOVE, ...], \"accept\": [PROBLEM, ...] | \"all\",\n"
      "           \"rules\": R, \"intended\": MOVE, \"chess960\": BOOL, \"history\": BOOL,\n"
      "           \"id\": ANY}\n"
      "  fen     optional, default the initial position; six-field FEN (four-field EPD too)\n"
      "  moves   optional, played from fen, each in UCI (e2e4, e7e8q) or SAN (e4, O-O, exd6);\n"
      "          null moves --, 0000, Z0 too (not while in check)\n"
      "  epd     instead of fen: an EPD record (bm, am, pv, id, c0-c9, ce, acd, hmvc, fmvn,\n"
      "          ...); its moves are checked and the answer's \"epd\" lists its operations\n"
      "  edit    {\"clear\": BOOL, \"put\": {\"e4\": \"Q\", \"e2\": null}, \"turn\": \"w\"|\"b\",\n"
      "          \"castling\": [ROOK SQUARE, ...], \"en_passant\": SQUARE|null,\n"
      "          \"halfmove_clock\": N, \"fullmove_number\": N}: applied to the position, which "
      "is\n"
      "          then validated as a FEN is (accept applies)\n"
      "  pseudo_legal true: also pseudo_legal_uci (sorted); pins true: also pins (square,\n"
      "          color, ray); attackers SQUARE: also attackers {white, black}; move_info\n"
      "          [MOVE, ...]: also move_info (uci, san, capture, en_passant, castling,\n"
      "          promotion, zeroing, irreversible, gives_check)\n"
      "  en_passant \"always\": the fen field writes the en passant square after every double\n"
      "          step (default \"legal\": only when the capture is legal)\n"
      "  accept  FEN validity problems to accept deliberately (see the error's \"problems\")\n"
      "  rules   fide (default), fide-rapid, fide-blitz, uscf, online, casual\n"
      "  intended  a move for a claim made by writing it (FIDE 9.2.1, 9.3.1): the answer's\n"
      "          intended_claim says whether a threefold or fifty-move claim would be correct\n"
      "  chess960  true: Chess960 (UCI castling king-takes-rook); false: standard; absent:\n"
      "          inferred from the castling rights\n"
      "  history false: position facts only (no game fields, no moves_* arrays)\n"
      "  winnability true: also \"winnability\": {white, black: {verdict, proof, line, nodes}}\n"
      "          (can each side ever mate; \"budget\": search nodes, default 500000)\n"
      "  time_control  a PGN TimeControl value (\"180+2\"): the answer's speed (ultrabullet,\n"
      "          bullet, blitz, rapid, classical, correspondence, unknown) and\n"
      "          estimated_seconds, lichess's initial + 40 x increment\n"
      "  id      echoed in the answer\n"
      "Answer:   fen, turn, legal_uci (sorted), legal_san (same order), check, checkmate,\n"
      "          stalemate, insufficient_material, checkers, material_class, polyglot_key,\n"
      "          chess960, chess960_number (-1 unless a start position), moves_uci and\n"
      "          moves_san (the moves as played), and the game's:\n"
      "          rules, repetitions, can_claim_threefold, fivefold, halfmove_clock,\n"
      "          fullmove_number, can_claim_fifty, seventyfive, dead_position, result (1-0,\n"
      "          0-1, 1/2-1/2 or *: automatic endings only), termination, intended_claim,\n"
      "          speed, estimated_seconds\n"
      "Error:    {\"error\": {\"code\", \"message\", \"line\", ...}} with codes json, request,\n"
      "          line_too_long, fen_syntax (field, column), fen_invalid (problems),\n"
      "          move_syntax / move_illegal / move_ambiguous / null_in_check (move_index, move,\n"
      "          fen, candidates), game_over (move_index, result, termination), tc_syntax\n"
      "          (field, column), epd_syntax and the others for an epd (column, op_index)\n"
      "  --max-line BYTES  longest request line accepted (default 1048576)\n"
      "Exit status: 0 (bad requests are answered, not fatal), 2 bad usage.\n");
}

static char *query_line(void *ctx, const char *line, size_t len, long lineno, int too_long) {
  size_t max_line = *(const size_t *)ctx;
  return too_long ? arb_query_too_long(lineno, max_line) : arb_query_answer(line, len, lineno);
}

int arb_cmd_query(int argc, char **argv) {
  size_t max_line = 1u << 20;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      query_usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--max-line") && i + 1 < argc) {
      char *end;
      unsigned long v = strtoul(argv[++i], &end, 10);
      if (*end || v == 0) {
        fprintf(stderr, "arbiter query: --max-line wants a positive number\n");
        return 2;
      }
      max_line = v;
    } else {
      fprintf(stderr, "arbiter query: unexpected argument '%s'\n", argv[i]);
      query_usage(stderr);
      return 2;
    }
  }
  return arb_tool_answer_lines(max_line, 0, query_line, &max_line);
}
