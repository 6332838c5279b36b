/* Arbiter — MIT licence, see LICENSE.
 *
 * flag.c: what a fallen flag means under each rule set (RULES.md R22, R23) — the rule-set
 * table of the clock layer, the three "can the player with time still win" tests, and the
 * verdicts.
 */
#include <string.h>

#include "clock/clock_internal.h"

/* name, mate test, a pending offer by the player with time saves the flagger, flags seen by
 * the server itself, default clock model.
 * - FIDE 6.9 (standard, A.5 rapid, B blitz) and casual play: the flagger loses unless the
 *   opponent cannot checkmate by any series of legal moves; flags count once the arbiter sees
 *   them or a player claims (6.8, A.5.3); clocks credit increments before each move (DGT).
 * - US Chess 14E (insufficient material to win on time) with 14D4; 5F1 "added before each
 *   move".
 * - online (lichess, lila Finisher.outOfTime): the server ends the game the moment the flag
 *   falls; a draw offer pending from the player with time makes it a draw; then scalachess's
 *   InsufficientMatingMaterial(board, color). */
static const arb_clock_rules table[ARB_RULES_COUNT] = {
    [ARB_RULES_FIDE] = {"fide", ARB_MATE_TEST_FIDE, 0, 0, ARB_MODEL_BEFORE_MOVE},
    [ARB_RULES_FIDE_RAPID] = {"fide-rapid", ARB_MATE_TEST_FIDE, 0, 0, ARB_MODEL_BEFORE_MOVE},
    [ARB_RULES_FIDE_BLITZ] = {"fide-blitz", ARB_MATE_TEST_FIDE, 0, 0, ARB_MODEL_BEFORE_MOVE},
    [ARB_RULES_USCF] = {"uscf", ARB_MATE_TEST_USCF, 0, 0, ARB_MODEL_BEFORE_MOVE},
    [ARB_RULES_ONLINE] = {"online", ARB_MATE_TEST_ONLINE, 1, 1, ARB_MODEL_ONLINE},
    [ARB_RULES_CASUAL] = {"casual", ARB_MATE_TEST_FIDE, 0, 0, ARB_MODEL_BEFORE_MOVE},
};

const arb_clock_rules *arb_clock_rules_get(arb_ruleset rules) {
  return (unsigned)rules < ARB_RULES_COUNT ? &table[rules] : NULL;
}

static const char *const reason_names[ARB_FLAG_REASON_COUNT] = {
    "",           "loss",    "cannot_mate", "insufficient_material", "dead_position", "draw_offer",
    "both_flags", "play_on", "game_over"};

const char *arb_flag_reason_name(arb_flag_reason reason) {
  return (unsigned)reason < ARB_FLAG_REASON_COUNT ? reason_names[reason] : "";
}

/* ---- the material predicates ---- */

int arb_flag_online_insufficient(const arb_position *p, arb_color side) {
  if (!p || (unsigned)side > 1) return 0;
  const arb_bitboard mine = p->by_color[side], theirs = p->by_color[side ^ 1];
  const arb_bitboard kings = p->by_type[ARB_KING];
  const arb_bitboard knights = p->by_type[ARB_KNIGHT], bishops = p->by_type[ARB_BISHOP];
  if (!(mine & ~kings)) return 1; /* only king(s) */
  if (!(mine & ~(kings | knights)))
    return !arb__more_than_one(mine & knights) && !(theirs & ~(kings | p->by_type[ARB_QUEEN]));
  if (!(mine & ~(kings | bishops))) {
    /* every bishop on the board, of both colours, on one square colour */
    int one_colour = !(bishops & ARB_LIGHT_SQUARES) || !(bishops & ARB_DARK_SQUARES);
    return one_colour && !(theirs & (knights | p->by_type[ARB_PAWN]));
  }
  return 0;
}

/* 1 if `att` can force checkmate within `plies` plies from p (att to move or not).  A small
 * full-width search: at att's last ply only checking moves are tried. */
static int forced_mate(arb_position *p, arb_color att, int plies) {
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(p, moves);
  if (p->turn != att) {
    if (n == 0) return arb_in_check(p); /* mated already; stalemate is no win */
    if (plies < 2) return 0;
    for (int i = 0; i < n; i++) {
      arb_undo u;
      arb_make_move(p, moves[i], &u);
      int r = forced_mate(p, att, plies - 1);
      arb_unmake_move(p, moves[i], &u);
      if (!r) return 0;
    }
    return 1;
  }
  if (plies < 1) return 0;
  for (int i = 0; i < n; i++) {
    if (plies < 3 && !arb_gives_check(p, moves[i])) continue;
    arb_undo u;
    arb_make_move(p, moves[i], &u);
    int r = arb_is_checkmate(p) || (plies >= 3 && forced_mate(p, att, plies - 1));
    arb_unmake_move(p, moves[i], &u);
    if (r) return 1;
  }
  return 0;
}

#define USCF_FORCED_WIN_PLIES 4

/* The US Chess reason `side` cannot win on time: ARB_FLAG_INSUFFICIENT (14E),
 * ARB_FLAG_DEAD_POSITION (14D4), or ARB_FLAG_NONE when it can. */
static arb_flag_reason uscf_reason(const arb_position *pos, arb_color side) {
  const arb_bitboard mine = pos->by_color[side] & ~pos->by_type[ARB_KING];
  const arb_bitboard theirs = pos->by_color[side ^ 1];
  const arb_bitboard knights = mine & pos->by_type[ARB_KNIGHT];
  const arb_bitboard bishops = mine & pos->by_type[ARB_BISHOP];
  if (!mine) return ARB_FLAG_INSUFFICIENT; /* 14E1: a lone king */
  int one_minor = !(mine & ~(knights | bishops)) && !arb__more_than_one(mine);
  int two_knights =
      mine == knights && arb__popcount(knights) == 2 && !(theirs & pos->by_type[ARB_PAWN]);
  if (one_minor || two_knights) { /* 14E2, 14E3: a draw unless a forced win */
    arb_position p = *pos;
    if (!forced_mate(&p, side, USCF_FORCED_WIN_PLIES)) return ARB_FLAG_INSUFFICIENT;
  }
  return arb_is_dead_position(pos) ? ARB_FLAG_DEAD_POSITION : ARB_FLAG_NONE;
}

int arb_flag_uscf_insufficient(const arb_position *pos, arb_color side) {
  if (!pos || (unsigned)side > 1) return 0;
  return uscf_reason(pos, side) != ARB_FLAG_NONE;
}

/* ---- verdicts ---- */

static arb_flag_verdict verdict(arb_result r, arb_flag_reason why) {
  arb_flag_verdict v = {r, why};
  return v;
}

static arb_flag_verdict flag_fall(const arb_position *pos, arb_color flagged, arb_ruleset rules,
                                  int draw_offer_by, arb_result current, uint64_t budget) {
  const arb_clock_rules *cr = arb_clock_rules_get(rules);
  if (!pos || !cr || (unsigned)flagged > 1 || (unsigned)current > ARB_RESULT_DRAW)
    return verdict(ARB_RESULT_NONE, ARB_FLAG_NONE);
  if (current != ARB_RESULT_NONE) return verdict(current, ARB_FLAG_GAME_OVER);
  arb_color with_time = (arb_color)(flagged ^ 1);
  if (cr->offer_saves && draw_offer_by == (int)with_time)
    return verdict(ARB_RESULT_DRAW, ARB_FLAG_DRAW_OFFER);
  switch ((arb_flag_mate_test)cr->mate_test) {
  case ARB_MATE_TEST_FIDE:
    /* The one "can this side ever mate" function of the rules layer; the exact test will
     * answer inside it. */
    if (arb_cannot_mate_within(pos, with_time, budget))
      return verdict(ARB_RESULT_DRAW, ARB_FLAG_CANNOT_MATE);
    break;
  case ARB_MATE_TEST_USCF: {
    arb_flag_reason why = uscf_reason(pos, with_time);
    if (why != ARB_FLAG_NONE) return verdict(ARB_RESULT_DRAW, why);
    break;
  }
  case ARB_MATE_TEST_ONLINE:
    if (arb_flag_online_insufficient(pos, with_time))
      return verdict(ARB_RESULT_DRAW, ARB_FLAG_INSUFFICIENT);
    break;
  }
  return verdict(with_time == ARB_WHITE ? ARB_RESULT_WHITE_WINS : ARB_RESULT_BLACK_WINS,
                 ARB_FLAG_LOSS);
}

arb_flag_verdict arb_flag_fall(const arb_position *pos, arb_color flagged, arb_ruleset rules,
                               int draw_offer_by, arb_result current) {
  return flag_fall(pos, flagged, rules, draw_offer_by, current, 0);
}

arb_flag_verdict arb_game_flag_fall(const arb_game *game, arb_color flagged) {
  if (!game) return verdict(ARB_RESULT_NONE, ARB_FLAG_NONE);
  return flag_fall(arb_game_position(game), flagged, arb_game_rules(game),
                   arb_game_draw_offer(game), arb_game_outcome(game).result,
                   arb_game_search_budget(game));
}

arb_flag_verdict arb_flag_both(arb_ruleset rules, int last_period, arb_result current) {
  if (!arb_clock_rules_get(rules) || (unsigned)current > ARB_RESULT_DRAW)
    return verdict(ARB_RESULT_NONE, ARB_FLAG_NONE);
  if (current != ARB_RESULT_NONE) return verdict(current, ARB_FLAG_GAME_OVER);
  /* FIDE Guidelines III.3.1 and US 14G2 agree; online only one clock runs at a time. */
  return last_period ? verdict(ARB_RESULT_DRAW, ARB_FLAG_BOTH_FLAGS)
                     : verdict(ARB_RESULT_NONE, ARB_FLAG_PLAY_ON);
}
