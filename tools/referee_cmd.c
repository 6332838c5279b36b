/* Arbiter — MIT licence, see LICENSE.
 *
 * referee_cmd.c: `arbiter referee` — a JSON-lines event stream in, one decision per event out
 * (the codec in referee.c; the decisions are the library's, arbiter/referee.h).
 */
#include <stdlib.h>
#include <string.h>

#include "otb.h"
#include "referee.h"
#include "util.h"

static void referee_usage(FILE *out) {
  fprintf(
      out,
      "usage: arbiter referee [--rules fide|fide-rapid|fide-blitz|uscf|online|casual]\n"
      "                       [--pgn FILE]\n"
      "       arbiter referee --otb [--rules fide|fide-rapid|fide-blitz|uscf|uscf-blitz|casual]\n"
      "                       [--pgn FILE [--legal-only]]\n"
      "\n"
      "Reads game events, one JSON object per line, and answers each with one JSON line:\n"
      "the decision and the state of the game after it.  Bad events are answered with an\n"
      "error and the stream goes on.\n"
      "\n"
      "Events (\"by\"/\"side\" are \"white\" or \"black\"; \"id\" is echoed; \"t\" is the\n"
      "event's time in milliseconds, never going back, required in timed games):\n"
      "  {\"type\":\"start\", \"rules\":R, \"fen\":FEN, \"white\":NAME, \"black\":NAME,\n"
      "   \"no_draw_before\":N, \"chess960\":BOOL, \"control\":TC | \"timecontrol\":PGN_TC,\n"
      "   \"clock\":\"after_move\"|\"before_move\"|\"online\", \"moves\":[M,...], \"t\":MS}\n"
      "                a new game (without one: standard start, --rules, no clock)\n"
      "  {\"type\":\"move\", \"by\":C, \"move\":\"e4\"|\"e2e4\"}   presses the mover's clock\n"
      "  {\"type\":\"offer_draw\"|\"accept_draw\"|\"decline_draw\", \"by\":C}\n"
      "  {\"type\":\"claim_draw\", \"by\":C, \"reason\":\"threefold\"|\"fifty\", \"move\":M}\n"
      "                M: optional intended move (FIDE 9.2.1, 9.3.1); a wrong claim adds the\n"
      "                penalty to the opponent's clock\n"
      "  {\"type\":\"resign\", \"by\":C}\n"
      "  {\"type\":\"flag\", \"side\":C}   C's flag fell: checked against the clock, then the\n"
      "                rule set's verdict (a loss, or a draw when the opponent cannot win)\n"
      "  {\"type\":\"state\"}               the state, nothing changes\n"
      "  {\"type\":\"pause\"} / {\"type\":\"resume\"}   the arbiter stops / restarts the clocks\n"
      "  {\"type\":\"adjust_time\", \"side\":C, \"add_ms\":N | \"set_ms\":N}\n"
      "                the arbiter adds N ms (may be negative) to C's clock, or sets it\n"
      "  {\"type\":\"premove\", \"by\":C, \"move\":M}  C, not on move, stores M: played the\n"
      "                instant the opponent's move is accepted (at no cost), or dropped\n"
      "  {\"type\":\"cancel_premove\", \"by\":C}\n"
      "  {\"type\":\"abort\", \"by\":C}   ends the game without a result, before each side\n"
      "                has moved\n");
  fprintf(
      out,
      "Over the board and for directors: a move with \"made_only\": true (its press to come),\n"
      "  {\"type\":\"press\", \"by\":C}, {\"type\":\"reinstate\", \"ply\":N} (the position before\n"
      "  step N; 0 or less: the start's \"moves\"), {\"type\":\"continue_from\", \"fen\":FEN,\n"
      "  \"by\":C} (play goes on from an illegal board), a flag with \"seen\": true (no clock\n"
      "  kept), {\"type\":\"forfeit\", \"side\":C, \"termination\":T} and\n"
      "  {\"type\":\"adjudicate\", \"result\":R, \"termination\":T, \"by\":C} (docs/commands.md).\n"
      "Moves and premoves may say \"auto_queen\": true (e7e8 is a queen); moves \"lag\": MS\n"
      "(forgiven with \"lag_compensation\": true on the start, lichess's quota); a start may\n"
      "give \"first_move_ms\": N (a first move not made in time aborts the game) and\n"
      "\"sees_flags\": true (every flag counts the moment it falls, as on a server).\n"
      "Time controls (TC): 5+3 (minutes + seconds a move), 90m+30s, 40/90m+30s,30m+30s\n"
      "(periods), 90 d5 (US delay), 90b5 (Bronstein), *3 (sand clock); PGN_TC: the PGN tag,\n"
      "e.g. 300+2, 40/7200:3600, *60.  Online rule set: the first move of each side is untimed\n"
      "and the server sees a flag with the next event.\n"
      "Answers: ok, type, error {code, message, line} when not ok, fen, turn, ply, san and\n"
      "uci (moves), late (a move made after the flag fell), comp_ms (lag forgiven),\n"
      "premove {played, san, uci | code, message} (the opponent's premove, after a move),\n"
      "status (ongoing|over), result, termination (\"aborted\" too), ended_by, draw_offer,\n"
      "premoves {white, black}, claims (available to the side to move),\n"
      "repetitions, fivefold, seventyfive, rules, claim {reason, correct, penalty_s,\n"
      "time_added_to, stands_as_offer, must_play}, time_added {side, ms} (adjust_time),\n"
      "flag {side, reason}, clock {white_ms, black_ms, running, flag_at, paused (when\n"
      "paused)}.\n"
      "Error codes: json, bad_event, unknown_event, illegal_move, bad_move, ambiguous_move,\n"
      "not_your_turn, game_over, no_offer, not_allowed, must_play, fen_syntax, fen_invalid,\n"
      "tc_syntax, time_backwards, flag_not_fallen, clock_state.\n"
      "--pgn FILE: every game is also written to FILE (appended) in PGN export format, with\n"
      "its TimeControl tag and a [%%clk] comment after each move of a timed game; a game is\n"
      "written when the next start event replaces it and at the end of the input.\n");
  fprintf(
      out,
      "--otb: an over-the-board game from an arbiter's log, a clock and an e-board: touch,\n"
      "adjust_announce, lift, place, board, release, move, promote_choice, press,\n"
      "clock_pause, clock_resume, flag_shown, claim, arbiter_observes, arbiter_rules, record,\n"
      "offer_draw, accept_draw, decline_draw, resign, device, note; every answer has state,\n"
      "obligation, made, completed, violation, time_added, illegal_count, restore_fen, stands,\n"
      "record, claim_valid, needs, needs_confirmation, warnings and the game (docs/otb.md).\n"
      "With --pgn the game is written as played (--legal-only: the corrected legal game).\n"
      "Exit status: 0 (bad events are answered, not fatal), 2 bad usage.\n");
}

static char *referee_line(void *ctx, const char *line, size_t len, long lineno, int too_long) {
  if (!too_long) return referee_answer(ctx, line, len, lineno);
  char *text = malloc(160);
  if (text)
    snprintf(text, 160,
             "{\"ok\":false,\"error\":{\"code\":\"line_too_long\",\"message\":\"event line "
             "longer than 1048576 bytes\",\"line\":%ld}}",
             lineno);
  return text;
}

static char *otb_line(void *ctx, const char *line, size_t len, long lineno, int too_long) {
  if (!too_long) return otb_answer(ctx, line, len, lineno);
  return referee_line(NULL, line, len, lineno, 1);
}

int arb_cmd_referee(int argc, char **argv) {
  int otb = 0, legal_only = 0;
  const char *rules_name = NULL, *pgn_path = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      referee_usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--otb")) {
      otb = 1;
    } else if (!strcmp(argv[i], "--legal-only")) {
      legal_only = 1;
    } else if (!strcmp(argv[i], "--rules") && i + 1 < argc) {
      rules_name = argv[++i];
    } else if (!strcmp(argv[i], "--pgn") && i + 1 < argc) {
      pgn_path = argv[++i];
    } else {
      fprintf(stderr, "arbiter referee: unexpected argument '%s'\n", argv[i]);
      referee_usage(stderr);
      return 2;
    }
  }
  /* the rules: the game layer's sets, or over the board its own (uscf-blitz too) */
  arb_ruleset rules = ARB_RULES_FIDE;
  arb_otb_rules otb_rules = ARB_OTB_FIDE;
  if (rules_name && (otb ? arb_otb_rules_parse(rules_name, strlen(rules_name), &otb_rules)
                         : arb_rules_parse(rules_name, &rules)) != ARB_OK) {
    fprintf(stderr, "arbiter referee: unknown rules '%s'\n", rules_name);
    return 2;
  }
  if (legal_only && !otb) {
    fprintf(stderr, "arbiter referee: --legal-only goes with --otb\n");
    return 2;
  }
  FILE *pgn = NULL;
  if (pgn_path && !(pgn = fopen(pgn_path, "a"))) {
    fprintf(stderr, "arbiter referee: %s: cannot open for writing\n", pgn_path);
    return 2;
  }
  ref_state *st = otb ? NULL : ref_state_new(rules);
  otb_state *ot = otb ? otb_state_new(otb_rules) : NULL;
  if (!st && !ot) {
    fprintf(stderr, "arbiter referee: out of memory\n");
    if (pgn) fclose(pgn);
    return 1;
  }
  if (pgn && st) ref_state_set_pgn(st, pgn);
  if (pgn && ot) otb_state_set_pgn(ot, pgn, legal_only);
  if (ot)
    arb_tool_answer_lines(1u << 20, 0, otb_line, ot);
  else
    arb_tool_answer_lines(1u << 20, 0, referee_line, st);
  ref_state_free(st);
  otb_state_free(ot);
  if (pgn && fclose(pgn) != 0) {
    fprintf(stderr, "arbiter referee: %s: write error\n", pgn_path);
    return 2;
  }
  return 0;
}
