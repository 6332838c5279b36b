/* Arbiter — MIT licence, see LICENSE.
 *
 * pgn_source.h: the bytes of a PGN input as `arbiter pgn` reads them — a plain file, or one
 * compressed with zstd (.pgn.zst, as lichess publishes its database) or gzip (.pgn.gz), told
 * apart by their first bytes (not the name, so stdin works too), decompressed as a stream:
 * memory stays bounded whatever the size, and concatenated frames or members are read on.
 *
 * Ownership: pgn_source_open returns a source the caller frees with pgn_source_close (which
 * does not close the FILE).  Errors: pgn_source_read returns the bytes read, fewer than asked
 * only at the end or on an error; pgn_source_error then gives a message (NULL when none).
 */
#ifndef ARBITER_TOOLS_PGN_SOURCE_H
#define ARBITER_TOOLS_PGN_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct pgn_source pgn_source;

typedef enum pgn_compression { PGN_PLAIN, PGN_ZSTD, PGN_GZIP } pgn_compression;

/* A source on `in` (read from its present position); NULL when out of memory. */
pgn_source *pgn_source_open(FILE *in);
void pgn_source_close(pgn_source *s);

/* Up to n decompressed bytes into buf (n > 0): n unless the input ended or was bad. */
size_t pgn_source_read(pgn_source *s, char *buf, size_t n);

/* What went wrong ("corrupt zstd data at compressed byte 1234: ...", "truncated gzip data",
 * "read error: ..."), or NULL. */
const char *pgn_source_error(const pgn_source *s);

pgn_compression pgn_source_compression(const pgn_source *s);

/* Compressed bytes consumed so far (the file's own bytes: a progress figure). */
uint64_t pgn_source_consumed(const pgn_source *s);

#endif
