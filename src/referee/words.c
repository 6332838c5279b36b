/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * words.c: why a game ended, in words a player understands (arb_referee_end_words) — the one
 * text the play server, its page and `arbiter play` show.
 */
#include <stdio.h>

#include "arbiter/referee.h"

static const char *Color(int c) { return c == ARB_WHITE ? "White" : "Black"; }

int arb_referee_end_words(const arb_referee *ref, char *buf, size_t size) {
  arb_ref_state s;
  arb_referee_state_of(ref, &s);
  if (!s.has_game || !s.over) return snprintf(buf, size, "%s", "");
  const arb_outcome o = s.outcome;
  int loser = o.result == ARB_RESULT_WHITE_WINS ? ARB_BLACK : ARB_WHITE;
  int winner = loser ^ 1;
  /* the side to move: the mated or stalemated one, the one whose flag ran at a first-move
   * abort */
  int mover = s.turn;
  if (s.aborted) {
    uint32_t n = arb_referee_record_count(ref);
    arb_ref_entry e;
    if (n && arb_referee_record_at(ref, n - 1, &e) == ARB_OK && e.kind == ARB_REF_TICK)
      return snprintf(buf, size, "Game aborted: %s did not make a first move in time",
                      Color(e.side));
    if (n && arb_referee_record_at(ref, n - 1, &e) == ARB_OK && e.kind == ARB_REF_ABORT)
      return snprintf(buf, size, "Game aborted by %s", Color(e.by));
    return snprintf(buf, size, "Game aborted");
  }
  if (s.abandoned >= 0) {
    /* the online rules' abandonment claim: the claimant wins unless it could not win on time */
    int left = s.abandoned;
    const char *rule = "by the abandonment claim (online rules)";
    switch (s.flag_reason) {
    case ARB_FLAG_CANNOT_MATE:
      return snprintf(buf, size,
                      "Draw %s: %s left the game, but %s cannot checkmate by any sequence of legal "
                      "moves",
                      rule, Color(left), Color(left ^ 1));
    case ARB_FLAG_INSUFFICIENT:
      return snprintf(buf, size, "Draw %s: %s left the game, but %s has too little material to win",
                      rule, Color(left), Color(left ^ 1));
    case ARB_FLAG_DEAD_POSITION:
      return snprintf(buf, size, "Draw %s: %s left the game in a dead position", rule, Color(left));
    default:
      return snprintf(buf, size, "%s left the game: %s wins %s", Color(left), Color(left ^ 1),
                      rule);
    }
  }
  const char *claimed = o.automatic         ? ""
                        : o.by == ARB_WHITE ? ", claimed by White"
                                            : ", claimed by Black";
  switch (o.termination) {
  case ARB_TERM_CHECKMATE: return snprintf(buf, size, "Checkmate: %s wins", Color(winner));
  case ARB_TERM_STALEMATE:
    return snprintf(buf, size, "Draw: stalemate (%s has no legal move and is not in check)",
                    Color(mover));
  case ARB_TERM_INSUFFICIENT_MATERIAL:
    return snprintf(buf, size, "Draw: neither side has the material to checkmate");
  case ARB_TERM_DEAD_POSITION:
    return snprintf(buf, size,
                    "Draw: dead position (neither side can checkmate by any sequence of legal "
                    "moves)");
  case ARB_TERM_FIVEFOLD_REPETITION:
    return snprintf(buf, size, "Draw: the same position occurred five times");
  case ARB_TERM_SEVENTYFIVE_MOVES:
    return snprintf(buf, size, "Draw: 75 moves by each side without a capture or a pawn move");
  case ARB_TERM_THREEFOLD_REPETITION:
    return snprintf(buf, size, "Draw: the same position occurred three times%s", claimed);
  case ARB_TERM_FIFTY_MOVES:
    return snprintf(buf, size, "Draw: 50 moves by each side without a capture or a pawn move%s",
                    claimed);
  case ARB_TERM_AGREEMENT: return snprintf(buf, size, "Draw by agreement");
  case ARB_TERM_RESIGNATION:
    if (o.result == ARB_RESULT_DRAW)
      return snprintf(buf, size,
                      "Draw: %s resigned, but %s cannot checkmate by any sequence of legal moves",
                      Color(o.by), Color(o.by ^ 1));
    return snprintf(buf, size, "%s resigned: %s wins", Color(loser), Color(winner));
  case ARB_TERM_TIME_FORFEIT: {
    int flagged = s.flag_side >= 0 ? s.flag_side : loser;
    switch (s.flag_reason) {
    case ARB_FLAG_CANNOT_MATE:
      return snprintf(buf, size,
                      "Draw: %s ran out of time, but %s cannot checkmate by any sequence of legal "
                      "moves",
                      Color(flagged), Color(flagged ^ 1));
    case ARB_FLAG_INSUFFICIENT:
      return snprintf(buf, size, "Draw: %s ran out of time, but %s has too little material to win",
                      Color(flagged), Color(flagged ^ 1));
    case ARB_FLAG_DEAD_POSITION:
      return snprintf(buf, size, "Draw: %s ran out of time in a dead position", Color(flagged));
    case ARB_FLAG_DRAW_OFFER:
      return snprintf(buf, size, "Draw: %s ran out of time while %s's draw offer stood",
                      Color(flagged), Color(flagged ^ 1));
    case ARB_FLAG_BOTH_FLAGS: return snprintf(buf, size, "Draw: both flags fell");
    default:
      return snprintf(buf, size, "%s ran out of time: %s wins", Color(flagged), Color(flagged ^ 1));
    }
  }
  case ARB_TERM_ILLEGAL_MOVE:
  case ARB_TERM_SECOND_ILLEGAL_MOVE: {
    const char *what =
        o.termination == ARB_TERM_ILLEGAL_MOVE ? "an illegal move" : "a second illegal move";
    if (o.result == ARB_RESULT_DRAW)
      return snprintf(buf, size,
                      "Draw: %s made %s, but %s cannot checkmate by any sequence of legal moves",
                      Color(o.by), what, Color(o.by ^ 1));
    return snprintf(buf, size, "%s made %s: %s wins", Color(loser), what, Color(winner));
  }
  case ARB_TERM_ILLEGAL_MOVE_CLAIMED:
    return snprintf(buf, size, "%s's illegal move was claimed: %s wins", Color(loser),
                    Color(winner));
  case ARB_TERM_ILLEGAL_MOVE_CLAIMANT_LACKS_MATERIAL:
    return snprintf(buf, size,
                    "Draw: an illegal move was claimed by a player without mating material");
  case ARB_TERM_ILLEGAL_POSITION:
    return snprintf(buf, size, "Draw: the illegal position was still on the board");
  case ARB_TERM_ELECTRONIC_DEVICE:
    return snprintf(buf, size, "%s had an electronic device: %s wins", Color(loser), Color(winner));
  case ARB_TERM_CRASH:
    return snprintf(buf, size, "%s's engine crashed: %s wins", Color(loser), Color(winner));
  case ARB_TERM_STALL:
    return snprintf(buf, size, "%s's engine stopped answering: %s wins", Color(loser),
                    Color(winner));
  case ARB_TERM_ADJUDICATION:
    if (o.result == ARB_RESULT_DRAW) return snprintf(buf, size, "Draw by adjudication");
    return snprintf(buf, size, "%s wins by adjudication", Color(winner));
  case ARB_TERM_ARBITER:
    if (o.result == ARB_RESULT_DRAW) return snprintf(buf, size, "Draw by the arbiter's decision");
    return snprintf(buf, size, "%s wins by the arbiter's decision", Color(winner));
  default: return snprintf(buf, size, "Game over");
  }
}
