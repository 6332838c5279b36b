/* Arbiter — MIT licence, see LICENSE.
 *
 * readjudicate_cmd.c: `arbiter readjudicate FILE.pgn...` — re-derives every game's ending from
 * its moves (and the final position) under a rule set, and lists the games whose result
 * disagrees with the laws: a win scored after the game had already ended drawn (a dead
 * position, stalemate, insufficient material, fivefold, 75 moves), a win on time or by an
 * illegal move or a crash when the winner could not mate by any series of legal moves (6.9,
 * 7.5.5: a draw), a result the final position contradicts (mate scored the other way, a mate
 * scored as a draw).  Works on Arbiter's PGN and on fastchess/cutechess PGN: the Termination tag
 * and their final comments ("loses on time", "illegal move", "disconnects") say how a game was
 * decided when the moves alone do not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "util.h"

typedef struct game_info {
  char white[64], black[64], termination[64];
  int on_time, illegal, abandoned, adjudicated; /* how the game says it was decided */
  uint64_t games, disagree, checked;
  int quiet;
} game_info;

static int on_tag(void *ctx, const char *name, size_t nl, const char *value, size_t vl) {
  game_info *g = ctx;
  (void)nl;
  (void)vl;
  if (!strcmp(name, "White")) snprintf(g->white, sizeof g->white, "%s", value);
  if (!strcmp(name, "Black")) snprintf(g->black, sizeof g->black, "%s", value);
  if (!strcmp(name, "Termination")) {
    snprintf(g->termination, sizeof g->termination, "%s", value);
    g->on_time |= !strcmp(value, "time forfeit");
    g->illegal |= !strcmp(value, "rules infraction") || !strcmp(value, "illegal move");
    g->abandoned |= !strcmp(value, "abandoned") || !strcmp(value, "stalled connection");
    g->adjudicated |= !strcmp(value, "adjudication");
  }
  return 0;
}

static int on_comment(void *ctx, const char *text, size_t len, int depth) {
  game_info *g = ctx;
  if (depth) return 0;
  /* cutechess and fastchess say in the last comment how a game ended */
  char buf[256];
  snprintf(buf, sizeof buf, "%.*s", (int)(len < 255 ? len : 255), text);
  if (strstr(buf, "loses on time") || strstr(buf, "flag fell")) g->on_time = 1;
  if (strstr(buf, "illegal move")) g->illegal = 1;
  if (strstr(buf, "disconnects") || strstr(buf, "stalls") || strstr(buf, "crash")) g->abandoned = 1;
  if (strstr(buf, "adjudication")) g->adjudicated = 1;
  return 0;
}

static int on_begin(void *ctx, uint64_t game, uint64_t line) {
  game_info *g = ctx;
  (void)game;
  (void)line;
  g->white[0] = g->black[0] = g->termination[0] = 0;
  g->on_time = g->illegal = g->abandoned = g->adjudicated = 0;
  return 0;
}

static void on_end(void *ctx, const arb_pgn_game_end *end) {
  game_info *g = ctx;
  g->games++;
  if (end->skipped || !end->final_position) return;
  g->checked++;
  arb_result scored = end->has_tag_result ? end->tag_result : end->movetext_result;
  if (scored == ARB_RESULT_NONE) return;
  const arb_position *p = end->final_position;
  arb_result law = scored;
  char why[256] = "";
  if (end->final_outcome.result != ARB_RESULT_NONE) {
    law = end->final_outcome.result;
    snprintf(why, sizeof why, "the game ended by %s",
             arb_termination_name(end->final_outcome.termination));
  } else if (scored != ARB_RESULT_DRAW) {
    arb_color winner = scored == ARB_RESULT_WHITE_WINS ? ARB_WHITE : ARB_BLACK;
    if ((g->on_time || g->illegal || g->abandoned) && arb_cannot_mate(p, winner)) {
      law = ARB_RESULT_DRAW;
      snprintf(why, sizeof why, "%s by %s, but %s cannot mate by any series of legal moves (%s)",
               winner == ARB_WHITE ? "Black lost" : "White lost",
               g->on_time   ? "time"
               : g->illegal ? "an illegal move"
                            : "a crash or stall",
               winner == ARB_WHITE ? "White" : "Black",
               g->on_time   ? "FIDE 6.9"
               : g->illegal ? "FIDE 7.5.5"
                            : "as 6.9 for an abandoned game");
    } else if (!g->on_time && !g->illegal && !g->abandoned && !g->adjudicated &&
               arb_is_dead_position(p)) {
      law = ARB_RESULT_DRAW;
      snprintf(why, sizeof why, "the final position is dead (FIDE 5.2.2)");
    }
  }
  if (law == scored) return;
  g->disagree++;
  if (!g->quiet)
    printf("game %llu (%s - %s): scored %s, the laws give %s: %s\n", (unsigned long long)end->game,
           g->white[0] ? g->white : "?", g->black[0] ? g->black : "?", arb_result_string(scored),
           arb_result_string(law), why);
}

int arb_cmd_readjudicate(int argc, char **argv) {
  arb_ruleset rules = ARB_RULES_FIDE;
  game_info g;
  memset(&g, 0, sizeof g);
  int files = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: arbiter readjudicate [--rules fide|uscf|online|...] [--quiet] FILE.pgn...\n"
             "\n"
             "Re-derives every game's ending from its moves under the rule set and lists the\n"
             "games whose result disagrees with the laws: a win after the game had ended drawn\n"
             "(dead position, stalemate, fivefold, 75 moves), a win on time, by an illegal move\n"
             "or a crash when the winner could not mate by any series of legal moves (a draw),\n"
             "a result the final position contradicts.  Reads Arbiter's, fastchess's and\n"
             "cutechess's PGN.  Exit status: 0 all agree, 1 some disagree, 2 bad usage.\n");
      return 0;
    }
    if (!strcmp(argv[i], "--rules") && i + 1 < argc) {
      if (arb_rules_parse(argv[++i], &rules) != ARB_OK) {
        fprintf(stderr, "arbiter readjudicate: unknown rules '%s'\n", argv[i]);
        return 2;
      }
      continue;
    }
    if (!strcmp(argv[i], "--quiet")) {
      g.quiet = 1;
      continue;
    }
    FILE *f = !strcmp(argv[i], "-") ? stdin : fopen(argv[i], "rb");
    if (!f) {
      fprintf(stderr, "arbiter readjudicate: %s: cannot open\n", argv[i]);
      return 2;
    }
    files++;
    arb_pgn_options opts = {0, rules, 0, 0};
    opts.flags = ARB_PGN_NO_RESULT_CHECK; /* the results are what this command judges */
    arb_pgn_visitor v = {0};
    v.ctx = &g;
    v.begin_game = on_begin;
    v.tag = on_tag;
    v.comment = on_comment;
    v.end_game = on_end;
    arb_tool_pgn_read(f, &opts, &v);
    if (f != stdin) fclose(f);
  }
  if (!files) {
    fprintf(stderr, "usage: arbiter readjudicate [--rules R] FILE.pgn...\n");
    return 2;
  }
  printf("%llu games, %llu checked, %llu disagree with the %s rules\n", (unsigned long long)g.games,
         (unsigned long long)g.checked, (unsigned long long)g.disagree, arb_rules_get(rules)->name);
  return g.disagree ? 1 : 0;
}
