/* Arbiter — MIT licence, see LICENSE.
 *
 * pgn_source.c: plain, zstd and gzip PGN input, told apart by the first bytes and
 * decompressed as a stream (pgn_source.h).
 */
#include "pgn_source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#define ZLIB_CONST /* next_in is const */
#include <zlib.h>
#include <zstd.h>

#define IN_CAP (1u << 17) /* compressed bytes read at a time */

struct pgn_source {
  FILE *in;
  pgn_compression kind;
  unsigned char *ibuf;
  size_t ilen, ipos; /* the bytes in ibuf, and how many of them were used */
  int in_eof, done;  /* the file ended; nothing more will come out */
  uint64_t consumed; /* bytes read from the file */
  ZSTD_DStream *zs;
  size_t zhint; /* ZSTD_decompressStream's last answer: 0 at the end of a frame */
  z_stream gz;
  int gz_ready, gz_member_end; /* inflate initialised; a member ended at the last call */
  int failed;
  char err[192];
};

static void fail(pgn_source *s, const char *what, const char *detail) {
  if (s->failed) return;
  s->failed = 1;
  s->done = 1;
  /* the compressed byte where it went wrong: the file's bytes before ibuf, plus ipos */
  unsigned long long at = (unsigned long long)(s->consumed - s->ilen + s->ipos);
  if (detail)
    snprintf(s->err, sizeof s->err, "%s at compressed byte %llu: %s", what, at, detail);
  else
    snprintf(s->err, sizeof s->err, "%s", what);
}

/* More compressed bytes when the buffer is used up: 0 when there are none (the end, or an
 * error, said in s->err). */
static int fill(pgn_source *s) {
  if (s->ipos < s->ilen) return 1;
  if (s->in_eof) return 0;
  s->ipos = 0;
  s->ilen = fread(s->ibuf, 1, IN_CAP, s->in);
  s->consumed += s->ilen;
  if (s->ilen < IN_CAP) {
    s->in_eof = 1;
    if (ferror(s->in)) {
      snprintf(s->err, sizeof s->err, "read error: %s", strerror(errno));
      s->failed = s->done = 1;
      return 0;
    }
  }
  return s->ilen > 0;
}

pgn_source *pgn_source_open(FILE *in) {
  pgn_source *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->in = in;
  s->ibuf = malloc(IN_CAP);
  if (!s->ibuf) {
    free(s);
    return NULL;
  }
  /* the first bytes say what it is: zstd's frame magic 28 B5 2F FD, gzip's 1F 8B */
  fill(s);
  const unsigned char *b = s->ibuf;
  if (s->ilen >= 4 && b[0] == 0x28 && b[1] == 0xB5 && b[2] == 0x2F && b[3] == 0xFD) {
    s->kind = PGN_ZSTD;
    s->zs = ZSTD_createDStream();
    if (!s->zs || ZSTD_isError(ZSTD_initDStream(s->zs))) {
      pgn_source_close(s);
      return NULL;
    }
    s->zhint = 1;
  } else if (s->ilen >= 2 && b[0] == 0x1F && b[1] == 0x8B) {
    s->kind = PGN_GZIP;
    if (inflateInit2(&s->gz, 15 + 16) != Z_OK) { /* 16: the gzip wrapper */
      pgn_source_close(s);
      return NULL;
    }
    s->gz_ready = 1;
  }
  return s;
}

void pgn_source_close(pgn_source *s) {
  if (!s) return;
  if (s->zs) ZSTD_freeDStream(s->zs);
  if (s->gz_ready) inflateEnd(&s->gz);
  free(s->ibuf);
  free(s);
}

static size_t read_plain(pgn_source *s, char *buf, size_t n) {
  size_t got = 0;
  while (got < n && fill(s)) {
    size_t k = s->ilen - s->ipos < n - got ? s->ilen - s->ipos : n - got;
    memcpy(buf + got, s->ibuf + s->ipos, k);
    s->ipos += k;
    got += k;
  }
  return got;
}

static size_t read_zstd(pgn_source *s, char *buf, size_t n) {
  ZSTD_outBuffer out = {buf, n, 0};
  while (out.pos < n && !s->done) {
    int more = fill(s);
    if (s->failed) break;
    ZSTD_inBuffer in = {s->ibuf, s->ilen, s->ipos};
    size_t before = out.pos;
    size_t r = ZSTD_decompressStream(s->zs, &out, &in);
    int moved = in.pos != s->ipos || out.pos != before;
    s->ipos = in.pos;
    if (ZSTD_isError(r)) {
      fail(s, "corrupt zstd data", ZSTD_getErrorName(r));
      break;
    }
    /* 0: a frame ended (a call that moves nothing after it asks for the next frame's header) */
    if (moved) s->zhint = r;
    if (!more && out.pos == before) { /* the input is over and nothing more comes out */
      if (s->zhint != 0) fail(s, "truncated zstd data (the file ends inside a frame)", NULL);
      s->done = 1;
    }
  }
  return out.pos;
}

static size_t read_gzip(pgn_source *s, char *buf, size_t n) {
  s->gz.next_out = (Bytef *)buf;
  s->gz.avail_out = (uInt)n;
  while (s->gz.avail_out > 0 && !s->done) {
    int more = fill(s);
    if (s->failed) break;
    if (s->gz_member_end) { /* another member after the one that ended (cat a.gz b.gz) */
      if (!more) {
        s->done = 1;
        break;
      }
      inflateReset(&s->gz);
      s->gz_member_end = 0;
    }
    s->gz.next_in = s->ibuf + s->ipos;
    s->gz.avail_in = (uInt)(s->ilen - s->ipos);
    uInt before = s->gz.avail_out;
    int r = inflate(&s->gz, Z_NO_FLUSH);
    s->ipos = s->ilen - s->gz.avail_in;
    if (r == Z_STREAM_END) {
      s->gz_member_end = 1;
    } else if (r == Z_DATA_ERROR || r == Z_NEED_DICT || r == Z_MEM_ERROR) {
      fail(s, "corrupt gzip data", s->gz.msg ? s->gz.msg : "bad data");
    } else if (!more && s->gz.avail_out == before) {
      fail(s, "truncated gzip data (the file ends inside a member)", NULL);
    }
  }
  return n - s->gz.avail_out;
}

size_t pgn_source_read(pgn_source *s, char *buf, size_t n) {
  switch (s->kind) {
  case PGN_ZSTD: return read_zstd(s, buf, n);
  case PGN_GZIP: return read_gzip(s, buf, n);
  default: return read_plain(s, buf, n);
  }
}

const char *pgn_source_error(const pgn_source *s) { return s->failed ? s->err : NULL; }

pgn_compression pgn_source_compression(const pgn_source *s) { return s->kind; }

uint64_t pgn_source_consumed(const pgn_source *s) { return s->consumed; }
