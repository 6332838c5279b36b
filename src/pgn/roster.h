/* Arbiter — MIT licence, see LICENSE.
 *
 * roster.h (internal): the Seven Tag Roster, shared by the reader and the writer.
 */
#ifndef ARB_PGN_ROSTER_H
#define ARB_PGN_ROSTER_H

#include <stddef.h>
#include <string.h>

/* The Seven Tag Roster, in the order export format writes it. */
static const char *const arb__pgn_roster[7] = {"Event", "Site",  "Date",  "Round",
                                               "White", "Black", "Result"};

/* The roster index (0 to 6) of the tag named name[0, len), or -1. */
static inline int arb__pgn_roster_index(const char *name, size_t len) {
  for (int s = 0; s < 7; s++)
    if (strlen(arb__pgn_roster[s]) == len && memcmp(arb__pgn_roster[s], name, len) == 0) return s;
  return -1;
}

#endif
