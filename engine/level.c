/* Arbiter — MIT licence, see LICENSE.
 *
 * level.c: the levels table (level.h).
 */
#include "level.h"

#include <stddef.h>

static const eng_level levels[ENG_LEVEL_MAX] = {
    {1, 0, 50, 5, 800, "a beginner: it sees a move or two ahead and blunders often"},
    {2, 0, 100, 5, 1100, "a casual player: it misses simple tactics"},
    {3, 0, 150, 5, 1400, "a club beginner: it plays sensible moves and some mistakes"},
    {4, 3, 200, 5, 1700, "a club player"},
    {5, 7, 300, 5, 2000, "a strong club player"},
    {6, 11, 400, 8, 2300, "an expert"},
    {7, 16, 500, 13, 2700, "a master"},
    {8, 20, 1000, 22, 3000, "full strength: Stockfish with a second a move"},
};

const eng_level *eng_level_get(int level) {
  return level >= ENG_LEVEL_MIN && level <= ENG_LEVEL_MAX ? &levels[level - 1] : NULL;
}
