/* Arbiter — MIT licence, see LICENSE.
 *
 * referee_cmd.c: `arbiter referee` — a JSON-lines event stream in, one decision per event out.
 */
#include <stdlib.h>
#include <string.h>

#include "referee.h"
#include "util.h"

static void referee_usage(FILE *out) {
  fprintf(out,
          "usage: arbiter referee [--rules fide|fide-rapid|fide-blitz|uscf|online|casual]\n"
          "\n"
          "Reads game events, one JSON object per line, and answers each with one JSON line:\n"
          "the decision and the state of the game after it.  Bad events are answered with an\n"
          "error and the stream goes on.\n"
          "\n"
          "Events (\"by\" is \"white\" or \"black\"; \"id\" is echoed):\n"
          "  {\"type\":\"start\", \"rules\":R, \"fen\":FEN, \"white\":NAME, \"black\":NAME,\n"
          "   \"no_draw_before\":N, \"chess960\":BOOL}  a new game (without it: standard start,\n"
          "                                  --rules; chess960 inferred from the castling rights)\n"
          "  {\"type\":\"move\", \"by\":C, \"move\":\"e4\"|\"e2e4\"}\n"
          "  {\"type\":\"offer_draw\"|\"accept_draw\"|\"decline_draw\", \"by\":C}\n"
          "  {\"type\":\"claim_draw\", \"by\":C, \"reason\":\"threefold\"|\"fifty\", \"move\":M}\n"
          "                                  M: optional intended move (FIDE 9.2.1, 9.3.1)\n"
          "  {\"type\":\"resign\", \"by\":C}\n"
          "  {\"type\":\"state\"}                the state, nothing changes\n"
          "Answers: ok, type, error {code, message, line} when not ok, fen, turn, ply, san and\n"
          "uci (moves), status (ongoing|over), result, termination, ended_by, draw_offer,\n"
          "claims (available to the side to move), repetitions, fivefold, seventyfive, rules,\n"
          "claim {reason, correct, penalty_s, time_added_to, stands_as_offer, must_play}.\n"
          "Error codes: json, bad_event, unknown_event, illegal_move, bad_move, ambiguous_move,\n"
          "not_your_turn, game_over, no_offer, not_allowed, must_play, fen_syntax, fen_invalid.\n"
          "Exit status: 0 (bad events are answered, not fatal), 2 bad usage.\n");
}

int arb_cmd_referee(int argc, char **argv) {
  arb_ruleset rules = ARB_RULES_FIDE;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      referee_usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--rules") && i + 1 < argc) {
      if (arb_rules_parse(argv[++i], &rules) != ARB_OK) {
        fprintf(stderr, "arbiter referee: unknown rules '%s'\n", argv[i]);
        return 2;
      }
    } else {
      fprintf(stderr, "arbiter referee: unexpected argument '%s'\n", argv[i]);
      referee_usage(stderr);
      return 2;
    }
  }
  ref_state *st = ref_state_new(rules);
  if (!st) {
    fprintf(stderr, "arbiter referee: out of memory\n");
    return 1;
  }
  char *line = NULL;
  size_t cap = 0, max_line = 1u << 20;
  long len, lineno = 0;
  int too_long;
  while ((len = arb_tool_read_line(stdin, &line, &cap, max_line, &too_long)) >= 0) {
    lineno++;
    long b = 0;
    while (b < len && (line[b] == ' ' || line[b] == '\t'))
      b++;
    if (b == len && !too_long) continue;
    char *answer = too_long ? NULL : referee_answer(st, line, (size_t)len, lineno);
    if (answer) {
      fputs(answer, stdout);
      free(answer);
    } else {
      printf("{\"ok\":false,\"error\":{\"code\":\"%s\",\"message\":\"%s\",\"line\":%ld}}",
             too_long ? "line_too_long" : "no_memory",
             too_long ? "event line longer than 1048576 bytes" : "out of memory", lineno);
    }
    fputc('\n', stdout);
    fflush(stdout);
  }
  free(line);
  ref_state_free(st);
  return 0;
}
