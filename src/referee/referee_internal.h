/* Arbiter — MIT licence, see LICENSE.
 *
 * referee_internal.h (internal): the referee's state, shared by the event handling
 * (referee.c) and the record with its PGN (record.c).
 */
#ifndef ARB_REFEREE_INTERNAL_H
#define ARB_REFEREE_INTERNAL_H

#include "arbiter/referee.h"
#include "board/bitboard.h"

struct arb_referee {
  arb_ruleset default_rules; /* the rules of a game begun without a start event */
  arb_game *game;            /* NULL before the first game */
  uint8_t timed;
  arb_clock clock; /* timed games */
  int64_t now;     /* the latest event's time, -1 before any */
  int flag_side;   /* the side whose flag ended the game, or -1 */
  arb_flag_reason flag_reason;
  /* The start's PGN tags: one block holding the array and then the strings. */
  arb_ref_tag *tags;
  size_t ntags;
  /* The game's facts for one ply (they change only with a move or an ending): -1 none. */
  arb_game_facts facts;
  int facts_ply;
  uint8_t facts_over;
  /* The record of the present game. */
  arb_ref_entry *rec;
  uint32_t nrec, rec_cap;
};

/* Appends an entry to the record; 0 when memory ran out (the entry is then lost, the game is
 * not). */
int arb__ref_record(arb_referee *ref, const arb_ref_entry *e) ARB_HIDDEN;
/* Forgets the record (a new game begins). */
void arb__ref_record_clear(arb_referee *ref) ARB_HIDDEN;

#endif
