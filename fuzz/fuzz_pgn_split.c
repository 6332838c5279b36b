/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_pgn_split.c: libFuzzer target for the PGN stream's splitter and the jobs that read its
 * pieces (src/pgn/split.c, src/pgn/job.c; arbiter/pgn.h), which `arbiter pgn -j`, the Python
 * package and its Dask stage share.
 *
 * The first byte picks the pieces' target size (16 to 4,096 bytes; max twice that), the
 * second the size of the blocks fed; the rest is the stream.  It is split twice, fed whole and
 * fed block by block: the pieces must be the same (where a piece ends depends only on the
 * stream), follow each other (offsets, line numbers), put together give the stream back byte
 * for byte, be no longer than max, and each piece not cut by force must end where the next
 * game begins (the next piece starts "[Event ", after a blank line).  Each piece is then read
 * by a job keeping its records (`arbiter pgn check`'s, as JSON for one half of the inputs):
 * read back from their serialised buffer they must come out whole, ending exactly at its end;
 * the buffer cut short must give a prefix of them and never read past the cut.
 */
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"

#define MAX_PIECES 4096

typedef struct split {
  size_t n;
  size_t len[MAX_PIECES];
  uint64_t offset[MAX_PIECES], line[MAX_PIECES];
  uint8_t forced[MAX_PIECES];
  char *bytes; /* the pieces, one after another */
  size_t total;
} split;

static void take(arb_pgn_splitter *s, int end, split *out) {
  arb_pgn_piece pc;
  while (arb_pgn_splitter_next(s, end, &pc)) {
    FUZZ_CHECK(out->n < MAX_PIECES);
    out->len[out->n] = pc.len;
    out->offset[out->n] = pc.offset;
    out->line[out->n] = pc.first_line;
    out->forced[out->n] = pc.forced;
    out->n++;
    memcpy(out->bytes + out->total, pc.data, pc.len);
    out->total += pc.len;
  }
}

static void do_split(const char *text, size_t size, size_t target, size_t block, split *out) {
  char *bytes = out->bytes;
  memset(out, 0, sizeof *out);
  out->bytes = bytes;
  arb_pgn_splitter *s = arb_pgn_splitter_new(target, 2 * target);
  FUZZ_CHECK(s != NULL);
  for (size_t at = 0; at < size; at += block) {
    size_t k = size - at < block ? size - at : block;
    FUZZ_CHECK(arb_pgn_splitter_feed(s, text + at, k) == ARB_OK);
    take(s, 0, out);
  }
  take(s, 1, out);
  arb_pgn_splitter_free(s);
}

/* Reads a piece with a job keeping its records; checks their serialised buffer. */
static void read_piece(const char *data, size_t len, uint64_t first_line, int json) {
  arb_pgn_job_options o;
  memset(&o, 0, sizeof o);
  o.file = "fuzz.pgn";
  o.json = (uint8_t)json;
  arb_pgn_job *job = arb_pgn_job_new(&o, first_line, NULL, NULL);
  FUZZ_CHECK(job != NULL);
  FUZZ_CHECK(arb_pgn_job_feed(job, data, len) == ARB_OK);
  arb_pgn_stats st;
  FUZZ_CHECK(arb_pgn_job_finish(job, &st) == ARB_OK);
  size_t blen, pos = 0, count = 0;
  const void *buf = arb_pgn_job_records(job, &blen);
  arb_pgn_record r;
  size_t ends[256];
  while (arb_pgn_records_next(buf, blen, &pos, &r)) {
    FUZZ_CHECK(pos <= blen);
    FUZZ_CHECK(r.prefix_len == 0 || r.prefix != NULL);
    if (count < 256) ends[count] = pos;
    count++;
  }
  FUZZ_CHECK(pos == blen);
  if (blen) {
    /* cut short: a prefix of the records, each ending where it did, nothing past the cut */
    size_t cut = (size_t)(len * 7 + blen / 2) % blen;
    char *copy = malloc(cut ? cut : 1);
    FUZZ_CHECK(copy != NULL);
    memcpy(copy, buf, cut);
    size_t p = 0, k = 0;
    while (arb_pgn_records_next(copy, cut, &p, &r)) {
      FUZZ_CHECK(p <= cut);
      if (k < 256) FUZZ_CHECK(p == ends[k]);
      k++;
    }
    FUZZ_CHECK(k <= count);
    free(copy);
  }
  arb_pgn_job_free(job);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2 || size > (1u << 16)) return 0;
  const size_t target = 16 + (size_t)data[0] * 16, block = 1 + data[1];
  const char *text = (const char *)data + 2;
  size = size - 2;
  static split a, b; /* large: off the stack (one input at a time) */
  a.bytes = malloc(size + 1);
  b.bytes = malloc(size + 1);
  FUZZ_CHECK(a.bytes && b.bytes);
  do_split(text, size, target, size ? size : 1, &a);
  do_split(text, size, target, block, &b);
  FUZZ_CHECK(a.n == b.n && a.total == size && b.total == size);
  FUZZ_CHECK(memcmp(a.bytes, text, size) == 0 && memcmp(b.bytes, text, size) == 0);
  uint64_t off = 0, line = 1;
  for (size_t i = 0; i < a.n; i++) {
    FUZZ_CHECK(a.len[i] == b.len[i] && a.offset[i] == b.offset[i] && a.line[i] == b.line[i] &&
               a.forced[i] == b.forced[i]);
    FUZZ_CHECK(a.len[i] > 0 && a.len[i] <= 2 * target);
    FUZZ_CHECK(a.offset[i] == off && a.line[i] == line);
    const char *piece = text + off;
    for (size_t k = 0; k < a.len[i]; k++)
      line += piece[k] == '\n';
    off += a.len[i];
    if (i + 1 < a.n && !a.forced[i]) {
      /* the next game's first line, after a blank line */
      FUZZ_CHECK(size - off >= 7 && memcmp(text + off, "[Event ", 7) == 0);
      FUZZ_CHECK(off >= 2 && text[off - 1] == '\n');
    }
    read_piece(piece, a.len[i], a.line[i], (int)(data[1] & 1));
  }
  free(a.bytes);
  free(b.bytes);
  return 0;
}
