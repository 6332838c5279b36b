/* Arbiter — MIT licence, see LICENSE.
 *
 * util.c: line reading and timing for the subcommands.
 */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <stdlib.h>
#include <time.h>

long arb_tool_read_line(FILE *in, char **buf, size_t *cap, size_t max, int *too_long) {
  size_t len = 0;
  int c;
  *too_long = 0;
  if (!*buf) {
    *cap = 4096;
    *buf = malloc(*cap);
    if (!*buf) return -1;
  }
  while ((c = getc(in)) != EOF) {
    if (c == '\n') break;
    if (len >= max) {
      *too_long = 1;
      continue;
    }
    if (len + 1 >= *cap) {
      size_t ncap = *cap * 2;
      char *nb = realloc(*buf, ncap);
      if (!nb) {
        *too_long = 1;
        continue;
      }
      *buf = nb;
      *cap = ncap;
    }
    (*buf)[len++] = (char)c;
  }
  if (c == EOF && len == 0 && !*too_long) return -1;
  if (len > 0 && (*buf)[len - 1] == '\r') len--;
  (*buf)[len] = '\0';
  return (long)len;
}

int arb_tool_answer_lines(size_t max_line, int skip_comments, arb_line_answer answer, void *ctx) {
  char *line = NULL;
  size_t cap = 0;
  long len, lineno = 0;
  int too_long;
  while ((len = arb_tool_read_line(stdin, &line, &cap, max_line, &too_long)) >= 0) {
    lineno++;
    long b = 0;
    while (b < len && (line[b] == ' ' || line[b] == '\t'))
      b++;
    if (!too_long && (b == len || (skip_comments && line[b] == '#'))) continue;
    char *text = answer(ctx, line, (size_t)len, lineno, too_long);
    if (text) {
      fputs(text, stdout);
      free(text);
    } else {
      printf("{\"error\":{\"code\":\"no_memory\",\"message\":\"out of memory\",\"line\":%ld}}",
             lineno);
    }
    fputc('\n', stdout);
    fflush(stdout);
  }
  free(line);
  return 0;
}

int64_t arb_tool_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

double arb_tool_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
