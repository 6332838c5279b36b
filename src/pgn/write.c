/* Arbiter — MIT licence, see LICENSE.
 *
 * write.c: PGN export format.  Tags: the Seven Tag Roster first in its order, then the others in
 * the order given.  Movetext: lines of at most 79 characters broken only between tokens, "N."
 * before White's moves and "N..." before Black's after a comment, a variation or at the start,
 * comments as "{ text }", NAGs as "$n".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/pgn.h"
#include "notation/text.h"
#include "pgn/roster.h"

#define LINE_MAX_COLS 79

typedef struct tag_entry {
  size_t name, name_len, value, value_len; /* offsets into the tag arena */
  int roster;                              /* its Seven Tag Roster index, or -1 */
} tag_entry;

struct arb_pgn_writer {
  unsigned flags;
  char *out;
  size_t len, cap;
  size_t game_start; /* offset of the current game's text in out */
  /* Tags of the current game. */
  char *arena;
  size_t arena_len, arena_cap;
  tag_entry *tags;
  int ntags, tags_cap;
  uint8_t in_moves;     /* the tag section has been written */
  uint8_t need_number;  /* the next Black move needs "N..." */
  int line_len;         /* characters on the current movetext line */
  int depth, skip_from; /* variation depth; >0: dropping variations from that depth on */
  int status;           /* ARB_ERR_NO_MEMORY once memory ran out */
  uint8_t glue;         /* the next token follows the last one without a blank: "(" */
  uint8_t chess960;     /* the game starts from a Chess960 position: Variant "Chess960" */
  /* The movetext of the game being written: the tags go out first, at the end of the game,
   * when the result that the Result tag must repeat is known. */
  char *mt;
  size_t mt_len, mt_cap;
};

static const char *const str_defaults[7] = {"?", "?", "????.??.??", "?", "?", "?", "*"};

static int grow(char **p, size_t *cap, size_t need) {
  if (need <= *cap) return 1;
  size_t c = *cap ? *cap : 256;
  while (c < need)
    c *= 2;
  char *q = realloc(*p, c);
  if (!q) return 0;
  *p = q;
  *cap = c;
  return 1;
}

static void put_mt(arb_pgn_writer *w, const char *s, size_t n) {
  if (w->mt_len + n < w->mt_cap) { /* the common case: room, a short token */
    char *d = w->mt + w->mt_len;
    if (n <= 16)
      for (size_t i = 0; i < n; i++) /* cheaper than a call for a move or a move number */
        d[i] = s[i];
    else
      memcpy(d, s, n);
    w->mt_len += n;
    return;
  }
  if (w->status) return;
  if (!grow(&w->mt, &w->mt_cap, w->mt_len + n + 1)) {
    w->status = ARB_ERR_NO_MEMORY;
    return;
  }
  memcpy(w->mt + w->mt_len, s, n);
  w->mt_len += n;
}

static void put(arb_pgn_writer *w, const char *s, size_t n) {
  if (w->status) return;
  if (!grow(&w->out, &w->cap, w->len + n + 1)) {
    w->status = ARB_ERR_NO_MEMORY;
    return;
  }
  memcpy(w->out + w->len, s, n);
  w->len += n;
  w->out[w->len] = '\0';
}

arb_pgn_writer *arb_pgn_writer_new(unsigned flags) {
  arb_init();
  arb_pgn_writer *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->flags = flags;
  if (!grow(&w->out, &w->cap, 4096)) {
    free(w);
    return NULL;
  }
  w->out[0] = '\0';
  return w;
}

void arb_pgn_writer_free(arb_pgn_writer *w) {
  if (!w) return;
  free(w->out);
  free(w->mt);
  free(w->arena);
  free(w->tags);
  free(w);
}

void arb_pgn_writer_begin_game(arb_pgn_writer *w) {
  w->game_start = w->len;
  w->arena_len = 0;
  w->ntags = 0;
  w->in_moves = 0;
  w->need_number = 1;
  w->line_len = 0;
  w->depth = 0;
  w->skip_from = 0;
  w->glue = 0;
  w->chess960 = 0;
  w->mt_len = 0;
}

int arb_pgn_tag_name_valid(const char *s, size_t n) {
  if (n == 0) return 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '+' || c == '#' || c == '=' || c == ':' || c == '-'))
      return 0;
  }
  return 1;
}

arb_status arb_pgn_writer_tag(arb_pgn_writer *w, const char *name, size_t name_len,
                              const char *value, size_t value_len) {
  if (w->in_moves || !arb_pgn_tag_name_valid(name, name_len)) return ARB_ERR_ARGUMENT;
  for (int i = 0; i < w->ntags; i++)
    if (w->tags[i].name_len == name_len && memcmp(w->arena + w->tags[i].name, name, name_len) == 0)
      return ARB_OK; /* a repeated tag keeps its first value */
  if (w->ntags == w->tags_cap) {
    int c = w->tags_cap ? 2 * w->tags_cap : 16;
    tag_entry *t = realloc(w->tags, (size_t)c * sizeof *t);
    if (!t) return ARB_ERR_NO_MEMORY;
    w->tags = t;
    w->tags_cap = c;
  }
  if (!grow(&w->arena, &w->arena_cap, w->arena_len + name_len + value_len + 2))
    return ARB_ERR_NO_MEMORY;
  tag_entry *e = &w->tags[w->ntags++];
  e->name = w->arena_len;
  e->name_len = name_len;
  memcpy(w->arena + w->arena_len, name, name_len);
  w->arena_len += name_len;
  e->value = w->arena_len;
  e->value_len = value_len;
  e->roster = arb__pgn_roster_index(name, name_len);
  memcpy(w->arena + w->arena_len, value, value_len);
  w->arena_len += value_len;
  return ARB_OK;
}

static void put_tag(arb_pgn_writer *w, const char *name, size_t nl, const char *v, size_t vl) {
  put(w, "[", 1);
  put(w, name, nl);
  put(w, " \"", 2);
  size_t run = 0;
  for (size_t i = 0; i < vl; i++) {
    char c = v[i];
    if (c == '"' || c == '\\' || (unsigned char)c < 0x20) {
      put(w, v + run, i - run);
      run = i + 1;
      if ((unsigned char)c < 0x20)
        put(w, " ", 1); /* a tag value is one line */
      else {
        char esc[2] = {'\\', c};
        put(w, esc, 2);
      }
    }
  }
  put(w, v + run, vl - run);
  put(w, "\"]\n", 3);
}

/* The tag section: the Seven Tag Roster in its order (Result repeating the game's result),
 * then the other tags as given. */
static void write_tags(arb_pgn_writer *w, arb_result result) {
  for (int s = 0; s < 7; s++) {
    const char *v = s == 6 ? arb_result_string(result) : str_defaults[s];
    size_t vl = strlen(v);
    for (int i = 0; i < w->ntags && s < 6; i++)
      if (w->tags[i].roster == s) {
        v = w->arena + w->tags[i].value;
        vl = w->tags[i].value_len;
        break;
      }
    put_tag(w, arb__pgn_roster[s], strlen(arb__pgn_roster[s]), v, vl);
  }
  /* A Chess960 game says so, or other readers take it for standard chess: a Variant tag that
   * does not name Chess960 is replaced, a missing one added. */
  int variant_done = 0;
  for (int i = 0; i < w->ntags; i++) {
    const tag_entry *e = &w->tags[i];
    if (e->roster >= 0) continue;
    const char *name = w->arena + e->name, *value = w->arena + e->value;
    if (w->chess960 && e->name_len == 7 && memcmp(name, "Variant", 7) == 0) {
      variant_done = 1;
      if (arb_pgn_variant_kind(value, e->value_len) != 1) value = "Chess960";
      put_tag(w, name, 7, value, value == w->arena + e->value ? e->value_len : 8);
      continue;
    }
    put_tag(w, name, e->name_len, value, e->value_len);
  }
  if (w->chess960 && !variant_done) put_tag(w, "Variant", 7, "Chess960", 8);
  put(w, "\n", 1);
}

void arb_pgn_writer_start(arb_pgn_writer *w, const arb_position *start) {
  if (start && start->chess960) w->chess960 = 1;
}

arb_status arb_pgn_writer_begin_moves(arb_pgn_writer *w) {
  if (w->in_moves) return (arb_status)w->status;
  w->in_moves = 1;
  w->need_number = 1;
  w->line_len = 0;
  return (arb_status)w->status;
}

/* One movetext token; lines are broken between tokens only. */
static void token(arb_pgn_writer *w, const char *s, size_t n) {
  int glue = w->glue;
  w->glue = 0;
  if (w->line_len > 0 && w->line_len + !glue + (int)n > LINE_MAX_COLS) {
    put_mt(w, "\n", 1);
    w->line_len = 0;
  } else if (w->line_len > 0 && !glue) {
    put_mt(w, " ", 1);
    w->line_len++;
  }
  put_mt(w, s, n);
  w->line_len += (int)n;
}

static int dropping(const arb_pgn_writer *w) {
  return w->skip_from > 0 && w->depth >= w->skip_from;
}

/* The move's SAN: after, when given, is the position after the move (its check and mobility
 * give the suffix without making the move again). */
static arb_status write_move(arb_pgn_writer *w, const arb_position *before, arb_move move,
                             const arb_position *after) {
  arb_pgn_writer_begin_moves(w);
  if (before->chess960) w->chess960 = 1; /* every position of a game has the flag of its start */
  if (dropping(w)) return ARB_OK;
  char san[ARB_SAN_MAX];
  int n;
  if (after && move != ARB_MOVE_NULL) {
    /* The caller vouches for the move (it made `after` with it); a cheap sanity check only. */
    arb_piece pc = before->board[ARB_MOVE_FROM(move)];
    if (!pc || ARB_PIECE_COLOR(pc) != before->turn || after->turn == before->turn)
      return ARB_ERR_MOVE_ILLEGAL;
    char mark = arb_in_check(after) ? (arb_has_legal_move(after) ? '+' : '#') : 0;
    n = arb__san_format(before, move, mark, san, sizeof san);
  } else {
    n = arb_san_write(before, move, san, sizeof san);
  }
  if (n < 0 || n >= (int)sizeof san) return ARB_ERR_MOVE_ILLEGAL;
  if (before->turn == ARB_WHITE || w->need_number) {
    /* "12." or "12..." without printf: this runs once per move. */
    char num[16], *q = num + sizeof num;
    int dots = before->turn == ARB_WHITE ? 1 : 3;
    for (int d = 0; d < dots; d++)
      *--q = '.';
    uint32_t v = before->fullmove_number;
    do {
      *--q = (char)('0' + v % 10);
      v /= 10;
    } while (v);
    token(w, q, (size_t)(num + sizeof num - q));
  }
  token(w, san, (size_t)n);
  w->need_number = 0;
  return (arb_status)w->status;
}

arb_status arb_pgn_writer_move(arb_pgn_writer *w, const arb_position *before, arb_move move) {
  return write_move(w, before, move, NULL);
}

arb_status arb_pgn_writer_move_to(arb_pgn_writer *w, const arb_position *before, arb_move move,
                                  const arb_position *after) {
  return after ? write_move(w, before, move, after) : ARB_ERR_ARGUMENT;
}

/* Appends text[b, e) to u with every run of blanks and control characters as one space. */
static size_t fold_into(char *u, const char *text, size_t b, size_t e) {
  size_t k = 0;
  int space = 0;
  for (size_t j = b; j < e; j++) {
    if ((unsigned char)text[j] <= ' ') {
      space = 1;
      continue;
    }
    if (space && k) u[k++] = ' ';
    space = 0;
    u[k++] = text[j];
  }
  return k;
}

arb_status arb_pgn_writer_comment(arb_pgn_writer *w, const char *text, size_t len) {
  arb_pgn_writer_begin_moves(w);
  if (dropping(w) || (w->flags & ARB_PGN_WRITE_NO_COMMENTS)) return ARB_OK;
  while (len && (unsigned char)text[0] <= ' ')
    text++, len--;
  while (len && (unsigned char)text[len - 1] <= ' ')
    len--;
  char small[96];
  char *u = len + 4 <= sizeof small ? small : malloc(len + 4);
  if (!u) return ARB_ERR_NO_MEMORY;
  /* "{ text }" with blanks folded, in one pass that also looks for a '}' (PGN cannot escape
   * it). */
  size_t k = 2;
  u[0] = '{';
  u[1] = ' ';
  int space = 0, brace = 0;
  for (size_t j = 0; j < len; j++) {
    unsigned char c = (unsigned char)text[j];
    if (c <= ' ') {
      space = 1;
      continue;
    }
    if (space) u[k++] = ' ';
    space = 0;
    brace |= c == '}';
    u[k++] = (char)c;
  }
  if (brace) {
    if (u != small) free(u);
    return ARB_ERR_ARGUMENT;
  }
  w->need_number = 1;
  if (len == 0) {
    token(w, "{}", 2);
    return (arb_status)w->status;
  }
  u[k++] = ' ';
  u[k++] = '}';
  /* A comment that fits on a line is one token. */
  if (k <= LINE_MAX_COLS) {
    token(w, u, k);
    if (u != small) free(u);
    return (arb_status)w->status;
  }
  /* Longer: broken between words, but never inside a "[%cmd ...]" command, and never before a
   * word starting with '%' or '[' (a line starting with '%' is an escape; '[' looks like a tag). */
  size_t i = 0;
  int first = 1;
  while (i < len) {
    while (i < len && (unsigned char)text[i] <= ' ')
      i++;
    size_t b = i, e = i;
    for (;;) {
      size_t j = e;
      while (j < len && (unsigned char)text[j] <= ' ')
        j++;
      if (j > e && e > b && !(j < len && (text[j] == '%' || text[j] == '['))) break;
      if (j >= len) break;
      if (text[j] == '[' && j + 1 < len && text[j + 1] == '%') {
        const char *close = memchr(text + j, ']', len - j);
        j = close ? (size_t)(close - text) : j;
      }
      while (j < len && (unsigned char)text[j] > ' ')
        j++;
      e = j;
    }
    i = e;
    size_t rest = i;
    while (rest < len && (unsigned char)text[rest] <= ' ')
      rest++;
    k = 0;
    if (first) {
      u[k++] = '{';
      u[k++] = ' ';
    }
    k += fold_into(u + k, text, b, e);
    if (rest >= len) {
      u[k++] = ' ';
      u[k++] = '}';
    }
    token(w, u, k);
    first = 0;
    i = rest;
  }
  if (u != small) free(u);
  return (arb_status)w->status;
}

arb_status arb_pgn_writer_nag(arb_pgn_writer *w, int nag) {
  arb_pgn_writer_begin_moves(w);
  if (nag < 0 || nag > 255) return ARB_ERR_ARGUMENT;
  if (dropping(w) || (w->flags & ARB_PGN_WRITE_NO_NAGS)) return ARB_OK;
  char t[8];
  int k = snprintf(t, sizeof t, "$%d", nag);
  token(w, t, (size_t)k);
  return (arb_status)w->status;
}

arb_status arb_pgn_writer_begin_variation(arb_pgn_writer *w) {
  arb_pgn_writer_begin_moves(w);
  w->depth++;
  if ((w->flags & ARB_PGN_WRITE_NO_VARIATIONS) && !w->skip_from) w->skip_from = w->depth;
  if (dropping(w)) return ARB_OK;
  token(w, "(", 1);
  w->glue = 1; /* "(1. e4", not "( 1. e4" */
  w->need_number = 1;
  return (arb_status)w->status;
}

arb_status arb_pgn_writer_end_variation(arb_pgn_writer *w) {
  if (w->depth == 0) return ARB_ERR_ARGUMENT;
  int was_dropping = dropping(w);
  w->depth--;
  if (w->skip_from && w->depth < w->skip_from) w->skip_from = 0;
  if (was_dropping) return ARB_OK;
  w->glue = 1; /* "e5)" */
  token(w, ")", 1);
  w->need_number = 1;
  return (arb_status)w->status;
}

arb_status arb_pgn_writer_end_game(arb_pgn_writer *w, arb_result result) {
  arb_pgn_writer_begin_moves(w);
  while (w->depth > 0)
    arb_pgn_writer_end_variation(w);
  const char *r = arb_result_string(result);
  token(w, r, strlen(r));
  write_tags(w, result);
  put(w, w->mt, w->mt_len);
  put(w, "\n\n", 2);
  w->mt_len = 0;
  w->line_len = 0;
  return (arb_status)w->status;
}

const char *arb_pgn_writer_data(const arb_pgn_writer *w, size_t *len) {
  if (len) *len = w->len;
  return w->out;
}

void arb_pgn_writer_clear(arb_pgn_writer *w) {
  w->len = 0;
  w->game_start = 0;
  w->out[0] = '\0';
}

void arb_pgn_writer_discard_game(arb_pgn_writer *w) {
  w->len = w->game_start;
  w->out[w->len] = '\0';
  arb_pgn_writer_begin_game(w);
}
