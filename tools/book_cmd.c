/* Arbiter — MIT licence, see LICENSE.
 *
 * book_cmd.c: `arbiter book FILE` — positions in (FEN, moves, or both; arguments or stdin),
 * the Polyglot book's moves for each out, one JSON line per position.  The file is mapped,
 * not read: a book of any size answers at once.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static void book_usage(FILE *out) {
  fprintf(
      out,
      "usage: arbiter book FILE [--seed N] [--dump] [POSITION...]\n"
      "\n"
      "Answers each POSITION (or, without any, each line of stdin) with the moves the\n"
      "Polyglot book FILE (.bin) has for it, one JSON line per position:\n"
      "  {\"line\": N, \"fen\", \"polyglot_key\", \"total_weight\",\n"
      "   \"moves\": [{\"uci\", \"san\", \"weight\", \"learn\", \"polyglot\"}, ...]}\n"
      "in the book's order (polyglot make-book writes the best first).  \"polyglot\" is the\n"
      "move as the book stores it (castling king-takes-rook, e1h1); an entry that is no legal\n"
      "move of the position has no uci or san.\n"
      "A position is one of\n"
      "  FEN                       a FEN (EPD's four fields too)\n"
      "  e4 e5 Nf3                 moves from the initial position (SAN or UCI, blanks or\n"
      "                            commas between them)\n"
      "  FEN moves e4 e5           moves from a FEN (\"startpos moves ...\" as in UCI)\n"
      "  {\"fen\": F, \"moves\": [..], \"id\": X}   JSON, as `arbiter query` takes it\n"
      "Blank lines and lines starting with # are skipped; a bad position gets\n"
      "{\"line\": N, \"error\": {\"code\", \"message\", \"move_index\"}} and the stream goes on.\n"
      "  --seed N  also \"pick\": {uci, san}, the move chosen by weight with seed N\n"
      "            (deterministic: the same book, position and seed pick the same move)\n"
      "  --dump    print every entry of the book instead: {\"key\", \"polyglot\", \"weight\",\n"
      "            \"learn\"}, in file order\n"
      "Exit status: 0; 1 the file is not a valid book (the offset is named); 2 bad usage\n"
      "or an unreadable file.\n");
}

typedef struct book_ctx {
  arb_book book;
  int have_seed;
  uint64_t seed;
} book_ctx;

/* The Polyglot field as text: from, to and a promotion letter, whatever position. */
static void raw_text(uint16_t raw, char out[8]) {
  static const char promo[8] = {0, 'n', 'b', 'r', 'q', '?', '?', '?'};
  out[0] = (char)('a' + ((raw >> 6) & 7));
  out[1] = (char)('1' + ((raw >> 9) & 7));
  out[2] = (char)('a' + (raw & 7));
  out[3] = (char)('1' + ((raw >> 3) & 7));
  out[4] = promo[(raw >> 12) & 7];
  out[5] = '\0';
}

static void add_move(json_t *o, const arb_position *pos, arb_move m) {
  char uci[8], san[ARB_SAN_MAX];
  arb_uci_write(pos, m, uci, sizeof uci);
  arb_san_write(pos, m, san, sizeof san);
  json_object_set_new(o, "uci", json_string(uci));
  json_object_set_new(o, "san", json_string(san));
}

static json_t *answer_position(const book_ctx *c, const arb_position *pos) {
  json_t *a = json_object();
  char fen[ARB_FEN_MAX], key[17];
  arb_fen_write(pos, fen, sizeof fen, 0);
  snprintf(key, sizeof key, "%016llx", (unsigned long long)pos->key);
  json_object_set_new(a, "fen", json_string(fen));
  json_object_set_new(a, "polyglot_key", json_string(key));
  arb_book_entry small[64], *e = small;
  int n = arb_book_find(&c->book, pos, small, 64);
  if (n > 64) {
    e = malloc((size_t)n * sizeof *e);
    if (!e) {
      json_decref(a);
      return NULL;
    }
    arb_book_find(&c->book, pos, e, n);
  }
  json_t *moves = json_array();
  long long total = 0;
  for (int i = 0; i < n; i++) {
    json_t *o = json_object();
    if (e[i].move != ARB_MOVE_NONE) add_move(o, pos, e[i].move);
    char raw[8];
    raw_text(e[i].raw, raw);
    json_object_set_new(o, "weight", json_integer(e[i].weight));
    json_object_set_new(o, "learn", json_integer(e[i].learn));
    json_object_set_new(o, "polyglot", json_string(raw));
    json_array_append_new(moves, o);
    total += e[i].weight;
  }
  if (e != small) free(e);
  json_object_set_new(a, "total_weight", json_integer(total));
  json_object_set_new(a, "moves", moves);
  if (c->have_seed) {
    arb_move m = arb_book_pick(&c->book, pos, c->seed, NULL);
    json_t *p = json_null();
    if (m != ARB_MOVE_NONE) {
      p = json_object();
      add_move(p, pos, m);
    }
    json_object_set_new(a, "pick", p);
  }
  return a;
}

static json_t *setup_error(const arb_tool_setup_error *err) {
  json_t *e = json_object();
  json_object_set_new(e, "code", json_string(arb_status_name(err->status)));
  json_t *m = json_string(err->message);
  json_object_set_new(e, "message", m ? m : json_string("invalid text"));
  if (err->move_index >= 0) json_object_set_new(e, "move_index", json_integer(err->move_index));
  return e;
}

/* One position in any of the forms of the usage, answered into a (which has "line"). */
static void answer_text(const book_ctx *c, json_t *a, const char *s, size_t len) {
  while (len && (*s == ' ' || *s == '\t'))
    s++, len--;
  arb_position pos;
  arb_tool_setup_error err;
  arb_status st;
  if (len && *s == '{') {
    json_error_t jerr;
    json_t *req = json_loadb(s, len, 0, &jerr);
    json_t *fen = json_object_get(req, "fen"), *mv = json_object_get(req, "moves");
    if (!json_is_object(req) || (fen && !json_is_string(fen)) ||
        (mv && !json_is_array(mv) && !json_is_string(mv))) {
      json_t *e = json_object();
      json_object_set_new(e, "code", json_string("request"));
      json_object_set_new(e, "message",
                          json_string("want {\"fen\": string, \"moves\": [string, ...]}"));
      json_object_set_new(a, "error", e);
      json_decref(req);
      return;
    }
    if (json_object_get(req, "id")) json_object_set(a, "id", json_object_get(req, "id"));
    /* the moves as one blank-separated text (a move never holds a blank) */
    size_t cap = 1, i;
    json_t *v;
    if (json_is_array(mv)) json_array_foreach(mv, i, v) cap += json_string_length(v) + 1;
    char *text = json_is_array(mv) ? calloc(cap, 1) : NULL;
    if (text) json_array_foreach(mv, i, v) {
        strcat(text, json_is_string(v) && json_string_length(v) ? json_string_value(v) : "?");
        strcat(text, " ");
      }
    const char *moves = json_is_string(mv) ? json_string_value(mv) : text;
    st = arb_tool_setup(json_string_value(fen), json_string_length(fen), moves,
                        moves ? strlen(moves) : 0, &pos, NULL, NULL, &err);
    free(text);
    json_decref(req);
  } else {
    /* "FEN moves ...", "startpos moves ...", a FEN (it has a '/'), or moves */
    const char *kw = NULL;
    for (size_t i = 0; i + 6 <= len && !kw; i++)
      if (!memcmp(s + i, " moves", 6) && (i + 6 == len || s[i + 6] == ' ')) kw = s + i;
    if (kw) {
      size_t flen = (size_t)(kw - s), rest = len - flen - 6;
      st = arb_tool_setup(s, flen, kw + 6, rest, &pos, NULL, NULL, &err);
    } else if (memchr(s, '/', len) || (len == 8 && !memcmp(s, "startpos", 8))) {
      st = arb_tool_setup(s, len, NULL, 0, &pos, NULL, NULL, &err);
    } else {
      st = arb_tool_setup(NULL, 0, s, len, &pos, NULL, NULL, &err);
    }
  }
  if (st != ARB_OK) {
    json_object_set_new(a, "error", setup_error(&err));
    return;
  }
  json_t *b = answer_position(c, &pos);
  if (b) json_object_update(a, b);
  json_decref(b);
}

static char *book_line(void *ctx, const char *line, size_t len, long lineno, int too_long) {
  json_t *a = json_object();
  json_object_set_new(a, "line", json_integer(lineno));
  if (too_long) {
    arb_tool_setup_error err = {ARB_ERR_ARGUMENT, -1, "line longer than 65536 bytes"};
    json_object_set_new(a, "error", setup_error(&err));
  } else {
    answer_text(ctx, a, line, len);
  }
  char *text = json_dumps(a, JSON_COMPACT);
  json_decref(a);
  return text;
}

static void dump(const arb_book *book) {
  for (size_t i = 0; i < book->count; i++) {
    arb_book_entry e;
    arb_book_entry_at(book, i, &e);
    char raw[8];
    raw_text(e.raw, raw);
    printf("{\"key\":\"%016llx\",\"polyglot\":\"%s\",\"weight\":%u,\"learn\":%lu}\n",
           (unsigned long long)e.key, raw, (unsigned)e.weight, (unsigned long)e.learn);
  }
}

int arb_cmd_book(int argc, char **argv) {
  book_ctx c = {{NULL, 0}, 0, 0};
  const char *file = NULL;
  int do_dump = 0, npos = 0;
  char **positions = calloc((size_t)argc + 1, sizeof *positions);
  if (!positions) return 2;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      book_usage(stdout);
      free(positions);
      return 0;
    } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
      char *end;
      errno = 0;
      c.seed = strtoull(argv[++i], &end, 0);
      if (*end || errno || !*argv[i]) {
        fprintf(stderr, "arbiter book: --seed wants a number\n");
        free(positions);
        return 2;
      }
      c.have_seed = 1;
    } else if (!strcmp(argv[i], "--dump")) {
      do_dump = 1;
    } else if (argv[i][0] == '-' && argv[i][1] == '-') {
      fprintf(stderr, "arbiter book: unknown option '%s'\n", argv[i]);
      book_usage(stderr);
      free(positions);
      return 2;
    } else if (!file) {
      file = argv[i];
    } else {
      positions[npos++] = argv[i];
    }
  }
  if (!file) {
    book_usage(stderr);
    free(positions);
    return 2;
  }
  int fd = open(file, O_RDONLY);
  struct stat sb;
  if (fd < 0 || fstat(fd, &sb) != 0) {
    fprintf(stderr, "arbiter book: %s: %s\n", file, strerror(errno));
    if (fd >= 0) close(fd);
    free(positions);
    return 2;
  }
  size_t size = (size_t)sb.st_size;
  void *map = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
  close(fd);
  if (map == MAP_FAILED) {
    fprintf(stderr, "arbiter book: %s: %s\n", file, strerror(errno));
    free(positions);
    return 2;
  }
  arb_book_report rep;
  int rc = 0;
  if (arb_book_open(&c.book, map, size, &rep) != ARB_OK) {
    fprintf(stderr, "arbiter book: %s: %s\n", file, rep.message);
    rc = 1;
  } else if (do_dump) {
    dump(&c.book);
  } else if (npos) {
    for (int i = 0; i < npos; i++) {
      char *text = book_line(&c, positions[i], strlen(positions[i]), i + 1, 0);
      puts(text ? text : "{\"error\":{\"code\":\"no_memory\"}}");
      free(text);
    }
  } else {
    rc = arb_tool_answer_lines(65536, 1, book_line, &c);
  }
  if (map) munmap(map, size);
  free(positions);
  return rc;
}
