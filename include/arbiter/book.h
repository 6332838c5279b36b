/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * book.h: Polyglot opening books (.bin), read in place.  A book is a series of 16-byte entries
 * sorted by key, every integer big-endian:
 *
 *   bytes 0-7  key     the position's Polyglot Zobrist key (arb_position.key)
 *   bytes 8-9  move    bits 0-2 to file, 3-5 to rank, 6-8 from file, 9-11 from rank,
 *                      12-14 promotion (0 none, 1 N, 2 B, 3 R, 4 Q); castling is king-takes-rook
 *                      (e1h1, e1a1, e8h8, e8a8), as arb_move has it
 *   10-11      weight  how good the move is (polyglot make-book: 2 x wins + draws, scaled)
 *   12-15      learn   learning data (0 from make-book), passed through
 *
 * The book layer sits on the board layer: it needs keys and legal moves, nothing above.
 * Ownership: an arb_book is a view of bytes the caller owns (a buffer or an mmap'd file) and
 * must keep alive and unchanged while the book is used; nothing here allocates or copies them.
 * Thread-safety: every function is reentrant; a book may be read by many threads at once.
 * Errors: ARB_ERR_BOOK_FORMAT (arb_book_open; the report names the byte offset),
 * ARB_ERR_ARGUMENT.
 */
#ifndef ARBITER_BOOK_H
#define ARBITER_BOOK_H

#include "arbiter/position.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_BOOK_ENTRY_SIZE 16

/* A book: the caller's bytes and the number of whole entries in them. */
typedef struct arb_book {
  const uint8_t *data;
  size_t count;
} arb_book;

/* One entry, decoded against a position where that is asked for (arb_book_find). */
typedef struct arb_book_entry {
  uint64_t key;
  uint16_t raw;    /* the move field as stored */
  uint16_t weight; /* as stored */
  uint32_t learn;  /* as stored */
  arb_move move;   /* arb_book_find: the legal move raw stands for; ARB_MOVE_NONE when raw is no
                      legal move of the position (a key collision, a broken book, or a1a1) */
} arb_book_entry;

/* Where and why arb_book_open refused the bytes. */
typedef struct arb_book_report {
  size_t offset;     /* byte offset of the fault: a truncated last entry, the first entry whose
                        key is lower than the one before it */
  char message[128]; /* what went wrong; "" when ok */
} arb_book_report;

/* Opens a book on size bytes at data (data may be NULL when size is 0: an empty book).  Checks
 * that the size is a whole number of entries and that keys never decrease (one pass over the
 * file); lookups rely on the order.  ARB_ERR_BOOK_FORMAT with report->offset/message for a
 * truncated file or an unsorted one, ARB_ERR_ARGUMENT for NULL book or data.  *book is written
 * only on ARB_OK.  report may be NULL. */
ARB_API arb_status arb_book_open(arb_book *book, const void *data, size_t size,
                                 arb_book_report *report);

/* Entry number index (0-based) as stored, without a move decoded (move = ARB_MOVE_NONE).
 * ARB_ERR_ARGUMENT when index >= book->count. */
ARB_API arb_status arb_book_entry_at(const arb_book *book, size_t index, arb_book_entry *entry);

/* The index of the first entry whose key is >= key (binary search; book->count if none). */
ARB_API size_t arb_book_lower_bound(const arb_book *book, uint64_t key);

/* Every entry of pos (key pos->key), in the book's order, with the moves decoded against pos:
 * writes the first max of them to out[] and returns how many there are (more than max means
 * out was too small; call again with a bigger array).  0 for a position not in the book. */
ARB_API int arb_book_find(const arb_book *book, const arb_position *pos, arb_book_entry *out,
                          int max);

/* The legal move of pos that a Polyglot move field stands for, or ARB_MOVE_NONE (a1a1, a move
 * that is not legal, a promotion field on a move that does not promote, or one missing). */
ARB_API arb_move arb_book_decode(const arb_position *pos, uint16_t raw);

/* The Polyglot move field of a move of pos (castling king-takes-rook, promotions 1-4); the
 * null move and ARB_MOVE_NONE give 0. */
ARB_API uint16_t arb_book_encode(const arb_position *pos, arb_move move);

/* Chooses one of pos's legal book moves with probability weight / (sum of weights), as
 * Polyglot's random play does; zero weights are never chosen.  Deterministic: the same book,
 * position and seed always choose the same entry, on every platform.  The draw is
 * splitmix64(seed ^ pos->key) modulo the sum of weights, walked through the entries in book
 * order (so one seed for a whole game still varies from position to position).  Returns the
 * move and fills *entry (may be NULL), or ARB_MOVE_NONE when pos has no legal entry with a
 * weight. */
ARB_API arb_move arb_book_pick(const arb_book *book, const arb_position *pos, uint64_t seed,
                               arb_book_entry *entry);

#ifdef __cplusplus
}
#endif
#endif
