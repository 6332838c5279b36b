/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_pgn_source.c: libFuzzer target for `arbiter pgn`'s input layer (tools/pgn_source.c):
 * plain, zstd and gzip bytes told apart by their first bytes and decompressed as a stream.
 *
 * The input bytes are read as a file through the source twice, in chunks of two sizes picked
 * by the first byte: both reads must agree on the bytes they both gave, on whether there was an
 * error and its kind, and without an error on the length; an error has a message.  Bytes that start
 * like neither format must come out unchanged.  Then the input is compressed with zstd and with
 * gzip (by the libraries, at a level the second byte picks) and read back: it must come out
 * exactly, with no error; cut short at a byte the third byte picks, it must give a prefix of the
 * input and, unless the cut kept everything, an error saying it was truncated or corrupt.  At most
 * 1 MB is read back from any input (a small zstd frame may declare a huge output).
 */
#define _GNU_SOURCE /* fmemopen */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define ZLIB_CONST /* next_in is const */
#include <zlib.h>
#include <zstd.h>

#include "fuzz.h"
#include "pgn_source.h"

#define OUT_MAX (1u << 20)

typedef struct readback {
  char *bytes;
  size_t n;
  const char *err; /* copied into msg */
  char msg[192];
} readback;

/* All of `data` through a source, `chunk` bytes a read (at most OUT_MAX in all). */
static void read_all(const uint8_t *data, size_t size, size_t chunk, readback *out) {
  memset(out, 0, sizeof *out);
  out->bytes = malloc(OUT_MAX + chunk);
  FUZZ_CHECK(out->bytes != NULL);
  /* fmemopen of 0 bytes is not portable: an empty input is an empty file; fmemopen's buffer
   * is not const, so it gets a copy */
  void *copy = size ? malloc(size) : NULL;
  if (size) {
    FUZZ_CHECK(copy != NULL);
    memcpy(copy, data, size);
  }
  FILE *f = size ? fmemopen(copy, size, "rb") : tmpfile();
  FUZZ_CHECK(f != NULL);
  pgn_source *s = pgn_source_open(f);
  FUZZ_CHECK(s != NULL);
  while (out->n < OUT_MAX) {
    size_t k = pgn_source_read(s, out->bytes + out->n, chunk);
    FUZZ_CHECK(k <= chunk);
    out->n += k;
    if (k < chunk) break;
  }
  const char *e = pgn_source_error(s);
  if (e) {
    FUZZ_CHECK(e[0] != '\0');
    snprintf(out->msg, sizeof out->msg, "%s", e);
    out->err = out->msg;
  }
  pgn_source_close(s);
  fclose(f);
  free(copy);
}

static void check_same(const readback *a, const readback *b) {
  size_t n = a->n < b->n ? a->n : b->n;
  /* reads stop at OUT_MAX, possibly mid-chunk: compare what both have */
  FUZZ_CHECK(memcmp(a->bytes, b->bytes, n) == 0);
  if (a->n < OUT_MAX && b->n < OUT_MAX) {
    /* (how much comes out before an error may depend on the chunks: only the prefix agrees) */
    if (!a->err && !b->err) FUZZ_CHECK(a->n == b->n);
    FUZZ_CHECK(!a->err == !b->err);
    /* the same kind of error (where a decoder notices may depend on how much it buffered) */
    if (a->err) FUZZ_CHECK(strncmp(a->err, b->err, strcspn(a->err, " ")) == 0);
  }
}

/* Reads back a compression of data (size bytes) and a cut of it at `cut`. */
static void round_trip(const uint8_t *data, size_t size, const uint8_t *z, size_t zn, size_t cut,
                       const char *what) {
  readback r;
  read_all(z, zn, 4093, &r);
  FUZZ_CHECK_CTX(r.err == NULL, r.msg);
  FUZZ_CHECK_CTX(r.n == size && memcmp(r.bytes, data, size) == 0, what);
  free(r.bytes);
  if (cut >= zn) return;
  /* a cut inside the magic bytes is a plain file of those bytes: nothing to check there */
  read_all(z, cut, 1 + cut % 777, &r);
  if (cut >= 4) {
    FUZZ_CHECK_CTX(r.n <= size && memcmp(r.bytes, data, r.n) == 0, what);
    FUZZ_CHECK_CTX(r.err != NULL, what);
  }
  free(r.bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t b0 = size > 0 ? data[0] : 0, b1 = size > 1 ? data[1] : 0, b2 = size > 2 ? data[2] : 0;
  readback a, b;
  read_all(data, size, 1 + b0 % 61, &a);
  read_all(data, size, 65536 + b0, &b);
  check_same(&a, &b);
  int zstd_magic =
      size >= 4 && data[0] == 0x28 && data[1] == 0xB5 && data[2] == 0x2F && data[3] == 0xFD;
  int gzip_magic = size >= 2 && data[0] == 0x1F && data[1] == 0x8B;
  if (!zstd_magic && !gzip_magic) {
    FUZZ_CHECK(a.err == NULL && a.n == (size < OUT_MAX ? size : a.n));
    FUZZ_CHECK(memcmp(a.bytes, data, a.n) == 0);
  }
  free(a.bytes);
  free(b.bytes);
  if (size > OUT_MAX / 2) return 0;

  /* zstd */
  size_t cap = ZSTD_compressBound(size);
  uint8_t *z = malloc(cap + 1);
  FUZZ_CHECK(z != NULL);
  size_t zn = ZSTD_compress(z, cap, data, size, 1 + b1 % 9);
  FUZZ_CHECK(!ZSTD_isError(zn));
  round_trip(data, size, z, zn, zn ? (size_t)b2 * zn / 256 : 0, "zstd");
  free(z);

  /* gzip */
  z_stream gz;
  memset(&gz, 0, sizeof gz);
  FUZZ_CHECK(deflateInit2(&gz, 1 + b1 % 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  cap = deflateBound(&gz, (uLong)size) + 32;
  z = malloc(cap);
  FUZZ_CHECK(z != NULL);
  gz.next_in = data;
  gz.avail_in = (uInt)size;
  gz.next_out = z;
  gz.avail_out = (uInt)cap;
  FUZZ_CHECK(deflate(&gz, Z_FINISH) == Z_STREAM_END);
  zn = cap - gz.avail_out;
  deflateEnd(&gz);
  round_trip(data, size, z, zn, (size_t)b2 * zn / 256, "gzip");
  free(z);
  return 0;
}
