/* Arbiter — MIT licence, see LICENSE.
 *
 * referee_internal.h (internal): the referee's state, shared by the event handling
 * (referee.c) and the record with its PGN (record.c).
 */
#ifndef ARB_REFEREE_INTERNAL_H
#define ARB_REFEREE_INTERNAL_H

#include "arbiter/referee.h"
#include "board/bitboard.h"

/* A stored premove: its text as given (or a move), played when its turn comes. */
typedef struct arb__ref_premove {
  uint8_t set, len;
  unsigned flags;
  char text[16];
  arb_move move;
} arb__ref_premove;

struct arb_referee {
  arb_ruleset default_rules; /* the rules of a game begun without a start event */
  arb_game *game;            /* NULL before the first game */
  uint8_t timed;
  arb_clock clock; /* timed games */
  int64_t now;     /* the latest event's time, -1 before any */
  int flag_side;   /* the side whose flag ended the game, or -1 */
  arb_flag_reason flag_reason;
  uint8_t aborted; /* ended without a result */
  int book;        /* plies played before the first event (the setup's moves) */
  int unpressed;   /* the side whose made move waits for its press (ARB_REF_MADE_ONLY), or -1 */
  /* Over the board, the segments before the present game (ARB_REF_CONTINUE_FROM), oldest
   * first, each with the steps played in it (its start counts one, but the first's). */
  struct arb__ref_segment {
    arb_game *game;
    int steps;
  } * seg;
  uint32_t nseg, seg_cap;
  uint32_t unpressed_rec; /* and its record entry */
  /* Online play (the setup's): lag compensation per side, and the first-move limit, counted
   * from first_move_from (moved on by pauses) while fewer than two plies are played. */
  uint8_t lag_comp;
  uint8_t sees_flags; /* the setup's */
  arb_lag_tracker lag[2];
  int64_t first_move_ms, first_move_from, paused_at;
  /* The abandonment claim (online): the wait (0: none in this game), since when each side is
   * away (-1 present; moved on by pauses), and the ending it made (the leaver, or -1). */
  int64_t abandon_ms;
  int64_t away_from[2];
  int abandoned;
  arb_flag_reason abandon_reason;
  arb__ref_premove pre[2]; /* one per side */
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
