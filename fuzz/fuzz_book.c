/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_book.c: libFuzzer target for the Polyglot book reader (arb_book_open, _find, _pick,
 * _decode).
 *
 * Input: the whole input is a book file.  Properties: arb_book_open answers ARB_OK or
 * ARB_ERR_BOOK_FORMAT, an error names an entry boundary inside the file and a message, and a
 * book it accepts has non-decreasing keys and a binary search that agrees with a linear one.
 * Then the input's first byte chooses a position (a few plies from the start) and every entry
 * is re-keyed to that position (same moves, weights, learn), so lookups always hit: every
 * entry is found, each decoded move is legal and encodes back to its field, and a pick is a
 * legal entry with a weight, the same for the same seed.
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"

#define MAX_ENTRIES 256

static void check_opened(const arb_book *book, const arb_position *pos) {
  size_t linear = 0;
  arb_book_entry e, prev;
  for (size_t i = 0; i < book->count; i++) {
    FUZZ_CHECK(arb_book_entry_at(book, i, &e) == ARB_OK);
    if (i) FUZZ_CHECK(prev.key <= e.key);
    if (e.key < pos->key) linear++;
    prev = e;
  }
  FUZZ_CHECK(arb_book_lower_bound(book, pos->key) == linear);
  if (book->count) {
    FUZZ_CHECK(arb_book_entry_at(book, book->count - 1, &e) == ARB_OK);
    size_t lb = arb_book_lower_bound(book, e.key);
    FUZZ_CHECK(lb < book->count);
    FUZZ_CHECK(arb_book_entry_at(book, lb, &prev) == ARB_OK && prev.key == e.key);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  arb_position pos;
  arb_position_startpos(&pos);
  for (int ply = 0; size && ply < data[0] % 8; ply++) {
    arb_move moves[ARB_MAX_MOVES];
    int n = arb_generate_legal(&pos, moves);
    arb_undo u;
    arb_make_move(&pos, moves[(size_t)(data[0] * 31u + (unsigned)ply) % (size_t)n], &u);
  }

  arb_book book;
  arb_book_report rep;
  arb_status st = arb_book_open(&book, data, size, &rep);
  FUZZ_CHECK(st == ARB_OK || st == ARB_ERR_BOOK_FORMAT);
  if (st == ARB_OK) {
    FUZZ_CHECK(book.count == size / 16 && rep.message[0] == '\0');
    check_opened(&book, &pos);
  } else {
    FUZZ_CHECK(rep.offset % 16 == 0 && rep.offset <= size && rep.message[0] != '\0');
    FUZZ_CHECK(memchr(rep.message, '\0', sizeof rep.message) != NULL);
  }

  /* every entry re-keyed to pos: a sorted book of one key */
  static uint8_t copy[MAX_ENTRIES * 16];
  size_t n = size / 16 < MAX_ENTRIES ? size / 16 : MAX_ENTRIES;
  memcpy(copy, data, n * 16);
  for (size_t i = 0; i < n; i++)
    for (int b = 0; b < 8; b++)
      copy[i * 16 + (size_t)b] = (uint8_t)(pos.key >> (56 - 8 * b));
  FUZZ_CHECK(arb_book_open(&book, n ? copy : NULL, n * 16, NULL) == ARB_OK);
  static arb_book_entry found[MAX_ENTRIES];
  FUZZ_CHECK(arb_book_find(&book, &pos, found, MAX_ENTRIES) == (int)n);
  int weighted = 0;
  for (size_t i = 0; i < n; i++) {
    FUZZ_CHECK(found[i].key == pos.key);
    FUZZ_CHECK(found[i].raw == (uint16_t)(data[i * 16 + 8] << 8 | data[i * 16 + 9]));
    if (found[i].move != ARB_MOVE_NONE) {
      FUZZ_CHECK(arb_is_legal(&pos, found[i].move));
      FUZZ_CHECK(arb_book_encode(&pos, found[i].move) == found[i].raw);
      weighted |= found[i].weight != 0;
    }
  }
  for (uint64_t seed = 0; seed < 4; seed++) {
    arb_book_entry e;
    arb_move m = arb_book_pick(&book, &pos, seed, &e);
    FUZZ_CHECK((m != ARB_MOVE_NONE) == weighted);
    if (m == ARB_MOVE_NONE) continue;
    FUZZ_CHECK(e.move == m && e.weight > 0 && arb_is_legal(&pos, m));
    FUZZ_CHECK(arb_book_pick(&book, &pos, seed, NULL) == m);
  }
  return 0;
}
