/* Arbiter — MIT licence, see LICENSE.
 *
 * gen_magics.c: prints the magic multipliers found by the library's own search, in the form of
 * src/board/magics.inc.  Build (without -march=native, so the magic path is compiled):
 *   cmake -S . -B build/magics -DARB_NATIVE=OFF && cmake --build build/magics --target gen_magics
 *   build/magics/gen_magics > src/board/magics.inc
 */
#include <stdio.h>

#include "board/bitboard.h"

static arb__magic rook[64], bishop[64];
static arb_bitboard rook_table[ARB_ROOK_TABLE_SIZE], bishop_table[ARB_BISHOP_TABLE_SIZE];

int main(void) {
  arb__search_magics(rook, rook_table, bishop, bishop_table);
  printf(
      "/* Arbiter — MIT licence, see LICENSE.\n"
      " * Magic multipliers for rook (first 64) and bishop (next 64) attacks, found by\n"
      " * arb__search_magics and printed by scripts/gen_magics.c.  0 = search at start-up. */\n");
  for (int k = 0; k < 2; k++) {
    const arb__magic *m = k ? bishop : rook;
    printf("{\n");
    for (int sq = 0; sq < 64; sq++)
      printf("%s UINT64_C(0x%016llx),%s", sq % 3 == 0 ? "   " : "", (unsigned long long)m[sq].magic,
             sq % 3 == 2 || sq == 63 ? "\n" : "");
    printf("},\n");
  }
  return 0;
}
