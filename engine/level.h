/* Arbiter — MIT licence, see LICENSE.
 *
 * level.h: the computer's strength levels 1-8, one table for `arbiter play --level` and the play
 * server's computer opponent.  They follow lichess's levels (fishnet): a Stockfish Skill Level,
 * a time and a depth per move; fishnet's negative skill levels need its own Stockfish build, so
 * they become 0, Debian Stockfish's weakest.
 *
 * Ownership: everything returned is static and constant.
 */
#ifndef ARB_ENGINE_LEVEL_H
#define ARB_ENGINE_LEVEL_H

#define ENG_LEVEL_MIN 1
#define ENG_LEVEL_MAX 8

typedef struct eng_level {
  int level;        /* 1-8 */
  int skill;        /* Stockfish's Skill Level (0-20) */
  int movetime_ms;  /* the most it thinks per move */
  int depth;        /* the deepest it searches */
  int elo;          /* a rough guide for people (an estimate, not a measured rating) */
  const char *what; /* in words: "a beginner who sees one move ahead" */
} eng_level;

/* The level, or NULL when level is not 1-8. */
const eng_level *eng_level_get(int level);

#endif
