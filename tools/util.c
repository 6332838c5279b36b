/* Arbiter — MIT licence, see LICENSE.
 *
 * util.c: line reading, timing, data files and folders for the subcommands.
 */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef ARB_WEB_DIR /* programs other than arbiter (tests, fuzzers) that link this file */
#define ARB_WEB_DIR "/usr/local/share/arbiter/web"
#endif

const char *arb_tool_data_file(const char *rel, char *buf, size_t size) {
  struct stat st;
  snprintf(buf, size, "data/%s", rel);
  if (!stat(buf, &st)) return buf;
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = 0;
      snprintf(buf, size, "%.*s/../share/arbiter/%s", (int)(size / 2), exe, rel);
      if (!stat(buf, &st)) return buf;
    }
  }
  snprintf(buf, size, "%s/../%s", ARB_WEB_DIR, rel);
  return stat(buf, &st) ? NULL : buf;
}

int arb_tool_make_dirs(const char *path) {
  char p[PATH_MAX];
  if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p) return -1;
  for (char *s = p + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      if (mkdir(p, 0700) && errno != EEXIST) return -1;
      *s = '/';
    }
  return mkdir(p, 0700) && errno != EEXIST ? -1 : 0;
}

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
  return arb_tool_answer_stream(stdin, max_line, skip_comments, answer, ctx);
}

int arb_tool_answer_stream(FILE *in, size_t max_line, int skip_comments, arb_line_answer answer,
                           void *ctx) {
  char *line = NULL;
  size_t cap = 0;
  long len, lineno = 0;
  int too_long;
  while ((len = arb_tool_read_line(in, &line, &cap, max_line, &too_long)) >= 0) {
    lineno++;
    long b = 0;
    while (b < len && (line[b] == ' ' || line[b] == '\t'))
      b++;
    if (!too_long && (b == len || (skip_comments && line[b] == '#'))) continue;
    char *text = answer(ctx, line, (size_t)len, lineno, too_long);
    if (text && !text[0]) { /* nothing to say of this line */
      free(text);
      continue;
    }
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

static int is_move_separator(char c) { return c == ' ' || c == '\t' || c == ','; }

arb_status arb_tool_setup(const char *fen, size_t fen_len, const char *moves, size_t moves_len,
                          arb_position *pos, arb_position *before, arb_move *last,
                          arb_tool_setup_error *err) {
  err->status = ARB_OK;
  err->move_index = -1;
  err->message[0] = '\0';
  if (last) *last = ARB_MOVE_NONE;
  arb_fen_report rep;
  if (!fen || (fen_len == 8 && !memcmp(fen, "startpos", 8)))
    arb_position_startpos(pos);
  else if ((err->status = arb_fen_read_n(pos, fen, fen_len, ARB_FEN_PROBLEMS_ALL, &rep)) !=
           ARB_OK) {
    snprintf(err->message, sizeof err->message, "bad FEN: %.200s", rep.message);
    return err->status;
  }
  if (before) *before = *pos;
  size_t i = 0;
  for (int index = 0; moves && i < moves_len; index++) {
    while (i < moves_len && is_move_separator(moves[i]))
      i++;
    size_t b = i;
    while (i < moves_len && !is_move_separator(moves[i]))
      i++;
    if (b == i) break;
    arb_move m;
    arb_san_error serr;
    err->status = arb_move_read(pos, moves + b, i - b, 0, &m, &serr);
    if (err->status != ARB_OK) {
      err->move_index = index;
      snprintf(err->message, sizeof err->message, "move %d '%.*s': %s", index + 1,
               (int)(i - b < 16 ? i - b : 16), moves + b, serr.message);
      return err->status;
    }
    if (before) *before = *pos;
    if (last) *last = m;
    arb_undo u;
    arb_make_move(pos, m, &u);
  }
  return ARB_OK;
}

arb_status arb_tool_pgn_read(FILE *in, const arb_pgn_options *opts, const arb_pgn_visitor *v) {
  arb_pgn_reader *r = arb_pgn_reader_new(opts, v);
  if (!r) return ARB_ERR_NO_MEMORY;
  char buf[1 << 16];
  size_t n;
  arb_status st = ARB_OK;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
    arb_status s = arb_pgn_reader_feed(r, buf, n);
    if (st == ARB_OK) st = s;
  }
  arb_status s = arb_pgn_reader_finish(r);
  if (st == ARB_OK) st = s;
  arb_pgn_reader_free(r);
  return st;
}
