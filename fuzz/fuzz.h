/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz.h: the libFuzzer entry point shared by every target in fuzz/ and by replay.c, plus
 * a small check macro that aborts with a message (so a failed property is a crash that both
 * libFuzzer and the corpus replay report).
 */
#ifndef ARB_FUZZ_H
#define ARB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Runs one input through the target.  Returns 0; a failed property calls abort(). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One-time set-up (libFuzzer calls it once before the first input; so does replay.c, before
 * it forks a child per input, so the children share the library's tables).  Returns 0. */
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Aborts with the failed condition, its location and a context string (say the FEN and the
 * move) when cond is false.  Unlike assert() it stays on in release (NDEBUG) builds. */
#define FUZZ_CHECK_CTX(cond, ctx)                                                                  \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: fuzz check failed: %s [%s]\n", __FILE__, __LINE__, #cond, (ctx));    \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)
#define FUZZ_CHECK(cond) FUZZ_CHECK_CTX(cond, "")

/* FNV-1a of n bytes onto h (start with FUZZ_MIX_START): a digest of what a target saw, to
 * compare two runs over the same input. */
#define FUZZ_MIX_START 1469598103934665603ul
static inline unsigned long fuzz_mix(unsigned long h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ul;
  return h;
}

struct arb_position;

/* The layout of the move targets: line 1 a FEN (the start position when it does not read, every
 * non-fatal problem accepted), then one move per line.  Sets *pos and returns where the move
 * lines begin, or NULL when there are none. */
const char *fuzz_start_position(const uint8_t *data, size_t size, struct arb_position *pos);

/* The next line from *p (not past end): sets *len, advances *p past its newline; NULL at the end
 * or after max lines. */
const char *fuzz_next_line(const char **p, const char *end, size_t *len, int *count, int max);

/* The context of a failed check on one move line: "FEN | first 40 bytes of the line". */
#define FUZZ_CTX_MAX 160
void fuzz_line_context(const struct arb_position *pos, const char *line, size_t len, char *ctx);

/* 1 if m is one of moves[0, n). */
int fuzz_in_list(const uint16_t *moves, int n, uint16_t m);

/* 1 if a and b agree on every field that defines a position (not the reserved padding). */
int fuzz_same_position(const struct arb_position *a, const struct arb_position *b);

#endif
