/* Arbiter — MIT licence, see LICENSE.
 *
 * polyglot.c: Polyglot opening books read in place (format in book.h): validation with the
 * offset of the fault, binary search by key, moves decoded against the legal moves, and a
 * weighted choice from a caller's seed.
 */
#include <stdio.h>
#include <string.h>

#include "arbiter/book.h"

static uint64_t get_be(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++)
    v = v << 8 | p[i];
  return v;
}

static uint64_t key_at(const arb_book *book, size_t i) {
  return get_be(book->data + i * ARB_BOOK_ENTRY_SIZE, 8);
}

static void report_fault(arb_book_report *report, size_t offset, const char *what) {
  if (!report) return;
  report->offset = offset;
  snprintf(report->message, sizeof report->message, "%s at byte offset %zu", what, offset);
}

arb_status arb_book_open(arb_book *book, const void *data, size_t size, arb_book_report *report) {
  if (report) {
    report->offset = 0;
    report->message[0] = '\0';
  }
  if (!book || (!data && size)) return ARB_ERR_ARGUMENT;
  arb_book b = {(const uint8_t *)data, size / ARB_BOOK_ENTRY_SIZE};
  if (size % ARB_BOOK_ENTRY_SIZE) {
    report_fault(report, b.count * ARB_BOOK_ENTRY_SIZE, "truncated book: a partial 16-byte entry");
    return ARB_ERR_BOOK_FORMAT;
  }
  for (size_t i = 1; i < b.count; i++)
    if (key_at(&b, i) < key_at(&b, i - 1)) {
      report_fault(report, i * ARB_BOOK_ENTRY_SIZE,
                   "unsorted book: an entry's key is lower than the one before it");
      return ARB_ERR_BOOK_FORMAT;
    }
  *book = b;
  return ARB_OK;
}

arb_status arb_book_entry_at(const arb_book *book, size_t index, arb_book_entry *entry) {
  if (!book || !entry || index >= book->count) return ARB_ERR_ARGUMENT;
  const uint8_t *p = book->data + index * ARB_BOOK_ENTRY_SIZE;
  entry->key = get_be(p, 8);
  entry->raw = (uint16_t)get_be(p + 8, 2);
  entry->weight = (uint16_t)get_be(p + 10, 2);
  entry->learn = (uint32_t)get_be(p + 12, 4);
  entry->move = ARB_MOVE_NONE;
  return ARB_OK;
}

size_t arb_book_lower_bound(const arb_book *book, uint64_t key) {
  if (!book) return 0;
  size_t lo = 0, hi = book->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (key_at(book, mid) < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

uint16_t arb_book_encode(const arb_position *pos, arb_move move) {
  (void)pos; /* castling is king-takes-rook in both encodings */
  if (move == ARB_MOVE_NONE || move == ARB_MOVE_NULL) return 0;
  unsigned from = ARB_MOVE_FROM(move), to = ARB_MOVE_TO(move);
  unsigned promo = ARB_MOVE_KIND(move) == ARB_MOVE_PROMOTION
                       ? (unsigned)(ARB_MOVE_PROMO(move) - ARB_KNIGHT + 1)
                       : 0u;
  /* squares are rank * 8 + file in both: the 6-bit fields line up */
  return (uint16_t)(promo << 12 | from << 6 | to);
}

arb_move arb_book_decode(const arb_position *pos, uint16_t raw) {
  if (!pos || (raw & 0x7fffu) == 0 || ((raw >> 12) & 7u) > 4 || (raw & 0x8000u))
    return ARB_MOVE_NONE;
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(pos, moves);
  for (int i = 0; i < n; i++)
    if (arb_book_encode(pos, moves[i]) == raw) return moves[i];
  return ARB_MOVE_NONE;
}

int arb_book_find(const arb_book *book, const arb_position *pos, arb_book_entry *out, int max) {
  if (!book || !pos) return 0;
  int found = 0;
  for (size_t i = arb_book_lower_bound(book, pos->key);
       i < book->count && key_at(book, i) == pos->key; i++, found++) {
    if (found >= max || !out) continue;
    arb_book_entry_at(book, i, &out[found]);
    out[found].move = arb_book_decode(pos, out[found].raw);
  }
  return found;
}

/* splitmix64 (Steele, Lea, Flood 2014): one well-mixed 64-bit value from the seed. */
static uint64_t mix64(uint64_t z) {
  z += UINT64_C(0x9E3779B97F4A7C15);
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

arb_move arb_book_pick(const arb_book *book, const arb_position *pos, uint64_t seed,
                       arb_book_entry *entry) {
  if (!book || !pos) return ARB_MOVE_NONE;
  size_t first = arb_book_lower_bound(book, pos->key), end = first;
  uint64_t total = 0;
  arb_book_entry e;
  for (; end < book->count && key_at(book, end) == pos->key; end++) {
    arb_book_entry_at(book, end, &e);
    if (e.weight && arb_book_decode(pos, e.raw) != ARB_MOVE_NONE) total += e.weight;
  }
  if (!total) return ARB_MOVE_NONE;
  uint64_t r = mix64(seed ^ pos->key) % total;
  for (size_t i = first; i < end; i++) {
    arb_book_entry_at(book, i, &e);
    if (!e.weight) continue;
    e.move = arb_book_decode(pos, e.raw);
    if (e.move == ARB_MOVE_NONE) continue;
    if (r < e.weight) {
      if (entry) *entry = e;
      return e.move;
    }
    r -= e.weight;
  }
  return ARB_MOVE_NONE; /* not reached: r < total */
}
