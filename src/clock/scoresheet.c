/* Arbiter — MIT licence, see LICENSE.
 *
 * scoresheet.c: who must keep writing the moves (clock.h, arb_record_duty_of).
 *   FIDE 8.1.1: in standard play each player must record his own and his opponent's moves;
 *   FIDE 8.4:   a player with less than five minutes on his clock during a period, who does
 *               not have 30 seconds or more added with each move, is not obliged to meet 8.1.1
 *               for the remainder of the period;
 *   FIDE A.2:   in rapid play players do not need to record the moves (blitz: Appendix B
 *               applies the rapid rules where it does not say otherwise);
 *   US Chess 15A: each player records the moves; 15C: with less than five minutes left in a
 *               time control and no delay or increment of 30 seconds or more, a player need
 *               not keep score.
 * Online servers record every move themselves; casual play has no duty.
 */
#include "arbiter/clock.h"

#define FIVE_MINUTES_MS (5 * 60 * 1000)
#define THIRTY_SECONDS_MS (30 * 1000)

arb_record_duty arb_record_duty_of(arb_ruleset rules, int64_t remaining_ms, int64_t increment_ms) {
  switch (rules) {
  case ARB_RULES_FIDE:
  case ARB_RULES_USCF:
    return remaining_ms < FIVE_MINUTES_MS && increment_ms < THIRTY_SECONDS_MS ? ARB_RECORD_LOW_TIME
                                                                              : ARB_RECORD_REQUIRED;
  case ARB_RULES_FIDE_RAPID:
  case ARB_RULES_FIDE_BLITZ: return ARB_RECORD_RAPID_BLITZ;
  case ARB_RULES_ONLINE:
  case ARB_RULES_CASUAL: return ARB_RECORD_SERVER;
  default: return ARB_RECORD_DUTY_COUNT;
  }
}

const char *arb_record_duty_article(arb_ruleset rules, arb_record_duty duty) {
  int us = rules == ARB_RULES_USCF;
  switch (duty) {
  case ARB_RECORD_REQUIRED: return us ? "US Chess 15A" : "FIDE 8.1.1";
  case ARB_RECORD_LOW_TIME: return us ? "US Chess 15C" : "FIDE 8.4";
  case ARB_RECORD_RAPID_BLITZ: return "FIDE A.2";
  case ARB_RECORD_SERVER: return "";
  default: return "";
  }
}
