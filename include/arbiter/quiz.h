/* Arbiter — MIT licence, see LICENSE.
 *
 * quiz.h: the rules quiz (placeholder; being written).
 */
#ifndef ARB_QUIZ_H
#define ARB_QUIZ_H

#include "arbiter/position.h"

#endif
