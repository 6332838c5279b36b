/* Arbiter — MIT licence, see LICENSE.
 *
 * endgame.h: exact endgame tables built in memory (placeholder; being written).
 */
#ifndef ARB_ENDGAME_H
#define ARB_ENDGAME_H

#include "arbiter/position.h"

#endif
