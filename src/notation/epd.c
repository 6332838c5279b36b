/* Arbiter — MIT licence, see LICENSE.
 *
 * epd.c: EPD records — the position fields (read by the FEN reader) and the operations, with
 * the moves in them checked against the position.  Nothing allocates: the records point into
 * the line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arbiter/epd.h"
#include "notation/text.h"

/* What an opcode's operands are. */
enum { OP_OTHER, OP_MOVES, OP_LINE, OP_STRING, OP_INT, OP_UINT };

static int class_of(const char *op, size_t n) {
  static const struct {
    const char *name;
    int cls;
  } known[] = {{"bm", OP_MOVES}, {"am", OP_MOVES},  {"pm", OP_MOVES}, {"sm", OP_MOVES},
               {"pv", OP_LINE},  {"id", OP_STRING}, {"ce", OP_INT},   {"acd", OP_UINT},
               {"acn", OP_UINT}, {"acs", OP_UINT},  {"dm", OP_UINT},  {"hmvc", OP_UINT},
               {"fmvn", OP_UINT}};
  if (n == 2 && op[0] == 'c' && op[1] >= '0' && op[1] <= '9') return OP_STRING;
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (strlen(known[i].name) == n && !memcmp(known[i].name, op, n)) return known[i].cls;
  return OP_OTHER;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
static int is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_opcode_char(char c) { return is_letter(c) || (c >= '0' && c <= '9') || c == '_'; }

static arb_status fail(arb_epd_error *e, arb_status code, int op, size_t column, const char *fmt,
                       ...) {
  e->code = code;
  e->op_index = op;
  e->column = (int)column;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->message, sizeof e->message, fmt, ap);
  va_end(ap);
  return code;
}

/* A printable rendering of one byte for messages. */
static int shown(char c) { return (unsigned char)c >= 0x20 && (unsigned char)c < 0x7f ? c : '?'; }

static const arb_epd_op *find_n(const arb_epd *epd, const char *opcode, size_t n) {
  for (int i = 0; i < epd->op_count; i++)
    if (epd->ops[i].opcode_len == n && !memcmp(epd->ops[i].opcode, opcode, n)) return &epd->ops[i];
  return NULL;
}

const arb_epd_op *arb_epd_find(const arb_epd *epd, const char *opcode) {
  return opcode ? find_n(epd, opcode, strlen(opcode)) : NULL;
}

/* Parses an integer token (sign only when signed_ok); 1 on success. */
static int parse_integer(const char *s, size_t n, int signed_ok, long long *out) {
  size_t i = 0;
  int neg = 0;
  if (signed_ok && n > 0 && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    i = 1;
  }
  if (i == n || n - i > 18) return 0;
  long long v = 0;
  for (; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return 0;
    v = v * 10 + (s[i] - '0');
  }
  *out = neg ? -v : v;
  return 1;
}

/* The counters an hmvc or fmvn operand sets, in the ranges of FEN reading; 0 if out of range. */
static int set_counter(arb_position *pos, const char *opcode, size_t n, long long v) {
  if (n == 4 && !memcmp(opcode, "hmvc", 4)) {
    if (v < 0 || v > 65535) return 0;
    pos->halfmove_clock = (uint16_t)v;
  } else if (n == 4 && !memcmp(opcode, "fmvn", 4)) {
    if (v < 1 || v > 100000000) return 0;
    pos->fullmove_number = (uint32_t)v;
  }
  return 1;
}

/* The operands of one operation, scanned: tokens outside quotes and at most the strings. */
typedef struct operands {
  size_t start, end;         /* from the first operand's first byte to the last's end */
  size_t str_start, str_end; /* the last string's content */
  int tokens, strings;
} operands;

/* Scans operands from i up to ';' or the end; returns the index after them (at ';' or len), or
 * (size_t)-1 for a string not closed (*bad = where it opened). */
static size_t scan_operands(const char *s, size_t i, size_t len, operands *o, size_t *bad) {
  memset(o, 0, sizeof *o);
  o->start = o->end = i;
  while (i < len && s[i] != ';') {
    if (is_blank(s[i])) {
      i++;
      continue;
    }
    size_t t = i;
    if (s[i] == '"') {
      for (i++; i < len && s[i] != '"'; i++)
        if (s[i] == '\\' && i + 1 < len) i++;
      if (i >= len) {
        *bad = t;
        return (size_t)-1;
      }
      o->str_start = t + 1;
      o->str_end = i;
      i++;
      o->strings++;
    } else {
      while (i < len && !is_blank(s[i]) && s[i] != ';')
        i++;
      o->tokens++;
    }
    if (o->tokens + o->strings == 1) o->start = t;
    o->end = i;
  }
  return i;
}

/* Reads the move tokens of operation k into epd->moves: each checked against the position, or
 * (a line) against the position after the moves before it. */
static arb_status read_moves(const char *s, const operands *o, int line_of_play, int k,
                             arb_epd *epd, arb_epd_error *e) {
  arb_epd_op *op = &epd->ops[k];
  arb_position pos = epd->position;
  op->first_move = epd->move_count;
  size_t i = o->start;
  int index = 0;
  while (i < o->end) {
    if (is_blank(s[i])) {
      i++;
      continue;
    }
    size_t t = i;
    while (i < o->end && !is_blank(s[i]))
      i++;
    index++;
    if (epd->move_count == ARB_EPD_MAX_MOVES)
      return fail(e, ARB_ERR_BUFFER, k, t, "more than %d moves in the record", ARB_EPD_MAX_MOVES);
    arb_move m;
    arb_status st = arb_san_read(&pos, s + t, i - t, 0, &m, &e->san);
    if (st != ARB_OK)
      /* A malformed move: where the SAN reader stopped; otherwise the move as a whole. */
      return fail(e, st, k,
                  t + (st == ARB_ERR_MOVE_SYNTAX && e->san.column > 0 ? (size_t)e->san.column : 0),
                  "operation %d (%.*s): move %d \"%.*s\": %s", k + 1, (int)op->opcode_len,
                  op->opcode, index, (int)(i - t), s + t, e->san.message);
    epd->moves[epd->move_count++] = m;
    if (line_of_play) {
      arb_undo u;
      arb_make_move(&pos, m, &u);
    }
  }
  op->move_count = epd->move_count - op->first_move;
  return ARB_OK;
}

/* One operation at s[i..]: its record, or an error.  Returns the index after it. */
static arb_status read_op(const char *s, size_t *at, size_t len, arb_epd *epd, arb_epd_error *e) {
  size_t i = *at, start = i;
  const int k = epd->op_count;
  if (!is_letter(s[i]))
    return fail(e, ARB_ERR_EPD_SYNTAX, k, i,
                "operation %d: an opcode starts with a letter, not '%c'", k + 1, shown(s[i]));
  while (i < len && is_opcode_char(s[i]))
    i++;
  const size_t n = i - start;
  if (n > ARB_EPD_OPCODE_MAX)
    return fail(e, ARB_ERR_EPD_SYNTAX, k, start, "operation %d: opcode longer than %d characters",
                k + 1, ARB_EPD_OPCODE_MAX);
  if (i < len && !is_blank(s[i]) && s[i] != ';')
    return fail(e, ARB_ERR_EPD_SYNTAX, k, i, "operation %d (%.*s): unexpected '%c' in the opcode",
                k + 1, (int)n, s + start, shown(s[i]));
  if (k == ARB_EPD_MAX_OPS)
    return fail(e, ARB_ERR_BUFFER, k, start, "more than %d operations", ARB_EPD_MAX_OPS);
  if (find_n(epd, s + start, n))
    return fail(e, ARB_ERR_EPD_SYNTAX, k, start, "operation %d: opcode %.*s given twice", k + 1,
                (int)n, s + start);
  operands o;
  size_t bad = 0;
  size_t end = scan_operands(s, i, len, &o, &bad);
  if (end == (size_t)-1)
    return fail(e, ARB_ERR_EPD_SYNTAX, k, bad, "operation %d (%.*s): string not closed", k + 1,
                (int)n, s + start);
  arb_epd_op *op = &epd->ops[k];
  memset(op, 0, sizeof *op);
  op->opcode = s + start;
  op->opcode_len = n;
  op->column = (int)start;
  op->text = s + o.start;
  op->text_len = o.end - o.start;
  epd->op_count++;
  const int cls = class_of(s + start, n);
  arb_status st = ARB_OK;
  switch (cls) {
  case OP_MOVES:
  case OP_LINE:
    if (o.strings || !o.tokens)
      return fail(e, ARB_ERR_EPD_SYNTAX, k, start, "operation %d (%.*s): expects moves in SAN",
                  k + 1, (int)n, s + start);
    op->kind = ARB_EPD_MOVES;
    st = read_moves(s, &o, cls == OP_LINE, k, epd, e);
    break;
  case OP_INT:
  case OP_UINT:
    if (o.strings || o.tokens != 1 ||
        !parse_integer(s + o.start, o.end - o.start, cls == OP_INT, &op->integer))
      return fail(e, ARB_ERR_EPD_SYNTAX, k, start, "operation %d (%.*s): expects one %s", k + 1,
                  (int)n, s + start, cls == OP_INT ? "integer" : "number (0 or more)");
    if (!set_counter(&epd->position, s + start, n, op->integer))
      return fail(e, ARB_ERR_EPD_SYNTAX, k, o.start, "operation %d (%.*s): %lld is out of range",
                  k + 1, (int)n, s + start, op->integer);
    op->kind = ARB_EPD_INTEGER;
    break;
  default:
    if (cls == OP_STRING && (o.strings != 1 || o.tokens))
      return fail(e, ARB_ERR_EPD_SYNTAX, k, start,
                  "operation %d (%.*s): expects one string in double quotes", k + 1, (int)n,
                  s + start);
    if (o.strings == 1 && !o.tokens) {
      op->kind = ARB_EPD_STRING;
      op->escaped = 1;
      op->text = s + o.str_start;
      op->text_len = o.str_end - o.str_start;
    } else {
      op->kind = o.tokens || o.strings ? ARB_EPD_TEXT : ARB_EPD_NONE;
    }
  }
  *at = end < len ? end + 1 : end;
  return st;
}

arb_status arb_epd_read(const char *line, size_t len, uint32_t accept, arb_epd *epd,
                        arb_epd_error *err) {
  arb_epd_error local;
  arb_epd_error *e = err ? err : &local;
  memset(e, 0, sizeof *e);
  e->op_index = -1;
  e->column = -1;
  if (!epd || (!line && len)) return fail(e, ARB_ERR_ARGUMENT, -1, 0, "no record");
  while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
    len--;
  /* The end of the fourth field: the FEN reader takes the fields before it. */
  size_t i = 0;
  for (int f = 0; f < 4; f++) {
    while (i < len && is_blank(line[i]))
      i++;
    while (i < len && !is_blank(line[i]))
      i++;
  }
  arb_status st = arb_fen_read_n(&epd->position, line, i, accept, &e->fen);
  if (st != ARB_OK)
    return fail(e, st, -1, e->fen.column > 0 ? (size_t)e->fen.column : 0, "position: %s",
                e->fen.message);
  epd->op_count = 0;
  epd->move_count = 0;
  const char *nul = i < len ? memchr(line + i, '\0', len - i) : NULL;
  if (nul)
    return fail(e, ARB_ERR_EPD_SYNTAX, -1, (size_t)(nul - line), "NUL byte in the operations");
  int first = 1;
  while (i < len) {
    if (is_blank(line[i]) || line[i] == ';') {
      i++;
      continue;
    }
    if (first && line[i] == '-' && (i + 1 == len || is_blank(line[i + 1]))) {
      i++; /* "w q - - bm ...": a fifth dash, as in ERET */
      first = 0;
      continue;
    }
    first = 0;
    st = read_op(line, &i, len, epd, e);
    if (st != ARB_OK) return st;
  }
  return ARB_OK;
}

int arb_epd_string(const arb_epd_op *op, char *buf, size_t size) {
  size_t n = 0;
  for (size_t i = 0; i < op->text_len; i++) {
    char c = op->text[i];
    if (op->escaped && c == '\\' && i + 1 < op->text_len &&
        (op->text[i + 1] == '"' || op->text[i + 1] == '\\'))
      c = op->text[++i];
    if (size && n < size - 1) buf[n] = c;
    n++;
  }
  if (size) buf[n < size ? n : size - 1] = '\0';
  return (int)n;
}

void arb_epd_init(arb_epd *epd, const arb_position *pos) {
  epd->position = *pos;
  epd->op_count = 0;
  epd->move_count = 0;
}

/* A new record for opcode, or an error. */
static arb_status add_op(arb_epd *epd, const char *opcode, arb_epd_kind kind, arb_epd_op **out) {
  size_t n = opcode ? strlen(opcode) : 0;
  if (n == 0 || n > ARB_EPD_OPCODE_MAX || !is_letter(opcode[0])) return ARB_ERR_ARGUMENT;
  for (size_t i = 0; i < n; i++)
    if (!is_opcode_char(opcode[i])) return ARB_ERR_ARGUMENT;
  if (find_n(epd, opcode, n)) return ARB_ERR_EPD_SYNTAX;
  if (epd->op_count == ARB_EPD_MAX_OPS) return ARB_ERR_BUFFER;
  arb_epd_op *op = &epd->ops[epd->op_count];
  memset(op, 0, sizeof *op);
  op->opcode = opcode;
  op->opcode_len = n;
  op->kind = kind;
  op->column = -1;
  op->text = "";
  *out = op;
  return ARB_OK;
}

arb_status arb_epd_add_moves(arb_epd *epd, const char *opcode, const arb_move *moves, int n) {
  arb_epd_op *op;
  arb_status st = add_op(epd, opcode, ARB_EPD_MOVES, &op);
  if (st != ARB_OK) return st;
  if (n < 0 || (n > 0 && !moves)) return ARB_ERR_ARGUMENT;
  if (epd->move_count + n > ARB_EPD_MAX_MOVES) return ARB_ERR_BUFFER;
  const int line_of_play = class_of(opcode, op->opcode_len) == OP_LINE;
  arb_position pos = epd->position;
  for (int i = 0; i < n; i++) {
    if (!arb_is_legal(&pos, moves[i])) return ARB_ERR_MOVE_ILLEGAL;
    if (line_of_play) {
      arb_undo u;
      arb_make_move(&pos, moves[i], &u);
    }
  }
  op->first_move = epd->move_count;
  op->move_count = n;
  memcpy(epd->moves + epd->move_count, moves, (size_t)n * sizeof *moves);
  epd->move_count += n;
  epd->op_count++;
  return ARB_OK;
}

arb_status arb_epd_add_string(arb_epd *epd, const char *opcode, const char *string) {
  arb_epd_op *op;
  arb_status st = add_op(epd, opcode, ARB_EPD_STRING, &op);
  if (st != ARB_OK) return st;
  if (!string) return ARB_ERR_ARGUMENT;
  op->text = string;
  op->text_len = strlen(string);
  epd->op_count++;
  return ARB_OK;
}

arb_status arb_epd_add_integer(arb_epd *epd, const char *opcode, long long value) {
  arb_epd_op *op;
  arb_status st = add_op(epd, opcode, ARB_EPD_INTEGER, &op);
  if (st != ARB_OK) return st;
  arb_position pos = epd->position;
  if (!set_counter(&pos, opcode, op->opcode_len, value)) return ARB_ERR_ARGUMENT;
  epd->position = pos;
  op->integer = value;
  epd->op_count++;
  return ARB_OK;
}

arb_status arb_epd_add_text(arb_epd *epd, const char *opcode, const char *text) {
  arb_epd_op *op;
  arb_status st = add_op(epd, opcode, text && *text ? ARB_EPD_TEXT : ARB_EPD_NONE, &op);
  if (st != ARB_OK) return st;
  if (text) {
    op->text = text;
    op->text_len = strlen(text);
  }
  epd->op_count++;
  return ARB_OK;
}

/* snprintf-style appending: what fits goes into buf, *n counts everything. */
static void put(char *buf, size_t size, size_t *n, const char *text, size_t len) {
  for (size_t i = 0; i < len; i++, (*n)++)
    if (*n + 1 < size) buf[*n] = text[i];
}

int arb_epd_write(const arb_epd *epd, char *buf, size_t size) {
  char tmp[ARB_FEN_MAX + 32];
  size_t n = 0;
  put(buf, size, &n, tmp, (size_t)arb_fen_write(&epd->position, tmp, sizeof tmp, ARB_FEN_OUT_EPD));
  for (int k = 0; k < epd->op_count; k++) {
    const arb_epd_op *op = &epd->ops[k];
    put(buf, size, &n, " ", 1);
    put(buf, size, &n, op->opcode, op->opcode_len);
    switch (op->kind) {
    case ARB_EPD_STRING:
      put(buf, size, &n, " \"", 2);
      for (size_t i = 0; i < op->text_len; i++) {
        if (!op->escaped && (op->text[i] == '"' || op->text[i] == '\\'))
          put(buf, size, &n, "\\", 1);
        put(buf, size, &n, op->text + i, 1);
      }
      put(buf, size, &n, "\"", 1);
      break;
    case ARB_EPD_INTEGER:
      put(buf, size, &n, tmp, (size_t)snprintf(tmp, sizeof tmp, " %lld", op->integer));
      break;
    case ARB_EPD_MOVES: {
      const int line_of_play = class_of(op->opcode, op->opcode_len) == OP_LINE;
      arb_position pos = epd->position;
      for (int i = 0; i < op->move_count; i++) {
        arb_move m = epd->moves[op->first_move + i];
        int len = arb_san_write(&pos, m, tmp + 1, sizeof tmp - 1);
        tmp[0] = ' ';
        if (len > 0) put(buf, size, &n, tmp, (size_t)len + 1);
        if (line_of_play) {
          arb_undo u;
          arb_make_move(&pos, m, &u);
        }
      }
      break;
    }
    case ARB_EPD_TEXT:
      put(buf, size, &n, " ", 1);
      put(buf, size, &n, op->text, op->text_len);
      break;
    default: break;
    }
    put(buf, size, &n, ";", 1);
  }
  if (size) buf[n < size ? n : size - 1] = '\0';
  return (int)n;
}
