/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * epd.h: EPD records — the four position fields of FEN followed by operations, each an opcode
 * and its operands ended by ';' ("bm Qd1+; id \"BK.01\";"), as test suites (Bratko-Kopec, Win
 * at Chess, ...) and opening files are written.  The reader knows the opcodes of the EPD
 * standard (PGN standard, section 16.2) whose operands have a meaning the library can check:
 *   bm am pm sm   a set of moves in SAN, each checked against the position;
 *   pv            a line in SAN, each move checked after the ones before it;
 *   id c0 ... c9  one string in double quotes (\" and \\ are the escapes);
 *   ce acd acn acs dm hmvc fmvn   one integer (ce signed, the others not);
 *   hmvc fmvn     also set the position's halfmove clock and fullmove number.
 * Any other opcode is kept with its operands as text (a single quoted string as a string).
 *
 * Ownership: no allocation.  An arb_epd is caller storage: its operation records point into the
 * text that was read (or into the caller's strings for records the caller adds), which must
 * outlive it.  Thread-safety: all functions are reentrant.
 * Errors: ARB_ERR_FEN_SYNTAX / ARB_ERR_FEN_INVALID for the position fields (err->fen says
 * more), ARB_ERR_EPD_SYNTAX for an operation, ARB_ERR_MOVE_SYNTAX / _ILLEGAL / _AMBIGUOUS (and
 * ARB_ERR_NULL_MOVE for "--" or "0000": null moves have no place in EPD) for a
 * move operand (err->san says more), ARB_ERR_BUFFER beyond ARB_EPD_MAX_OPS operations or
 * ARB_EPD_MAX_MOVES moves; err->op_index and err->column say where, err->message says what.
 */
#ifndef ARBITER_EPD_H
#define ARBITER_EPD_H

#include "arbiter/notation.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_EPD_MAX_OPS 32
#define ARB_EPD_MAX_MOVES 256
#define ARB_EPD_OPCODE_MAX 15 /* the standard's longest opcode */

typedef enum arb_epd_kind {
  ARB_EPD_NONE = 0, /* an opcode without operands ("noop;") */
  ARB_EPD_STRING,   /* one string in quotes: text is its content */
  ARB_EPD_INTEGER,  /* one integer: `integer` */
  ARB_EPD_MOVES,    /* moves: epd->moves[first_move .. first_move + move_count - 1] */
  ARB_EPD_TEXT      /* anything else: text is the operands as written, first to last */
} arb_epd_kind;

/* One operation. */
typedef struct arb_epd_op {
  const char *opcode; /* not NUL-terminated: opcode_len bytes */
  size_t opcode_len;
  const char *text; /* STRING: between the quotes; TEXT: the operands; else unused */
  size_t text_len;
  arb_epd_kind kind;
  uint8_t escaped; /* STRING: text holds escapes as written (the reader); 0: raw (arb_epd_add) */
  long long integer;
  int first_move, move_count;
  int column; /* 0-based offset of the opcode in the line read, -1 for added records */
} arb_epd_op;

/* A record: the position (with hmvc/fmvn as its counters when present, else 0 and 1) and its
 * operations in the order written. */
typedef struct arb_epd {
  arb_position position;
  int op_count;
  arb_epd_op ops[ARB_EPD_MAX_OPS];
  int move_count;
  arb_move moves[ARB_EPD_MAX_MOVES];
} arb_epd;

/* Where and why a record was refused. */
typedef struct arb_epd_error {
  arb_status code;    /* same as the return value */
  int op_index;       /* the operation at fault, -1 for the position fields */
  int column;         /* 0-based byte offset of the fault in the line */
  arb_fen_report fen; /* the position fields' report */
  arb_san_error san;  /* a move operand's report */
  char message[224];  /* e.g. "operation 1 (bm): move 2 \"Qxh9\": malformed move" */
} arb_epd_error;

/* Reads one EPD line (len bytes; a trailing newline is ignored).  The position fields are read
 * as arb_fen_read reads four fields (`accept` as there); empty operations (";;") are skipped,
 * and so is a lone "-" right after the fields (a fifth dash some suites have).  An opcode is a
 * letter followed by letters, digits or '_', at most ARB_EPD_OPCODE_MAX; each may appear once;
 * a string must be closed.  Moves are read as arb_san_read reads them (lenient).  *epd is
 * filled on ARB_OK only (it may be partly written otherwise).  err may be NULL. */
ARB_API arb_status arb_epd_read(const char *line, size_t len, uint32_t accept, arb_epd *epd,
                                arb_epd_error *err);

/* The operation with this opcode (NUL-terminated), or NULL. */
ARB_API const arb_epd_op *arb_epd_find(const arb_epd *epd, const char *opcode);

/* The content of a STRING operation with its escapes resolved (TEXT: the text as it is).
 * snprintf convention. */
ARB_API int arb_epd_string(const arb_epd_op *op, char *buf, size_t size);

/* Starts a record of pos with no operations. */
ARB_API void arb_epd_init(arb_epd *epd, const arb_position *pos);
/* Adds an operation (opcode NUL-terminated, kept by pointer, as are string and text):
 * arb_epd_add_moves copies n moves (each legal in the position — for "pv" each legal after the
 * ones before; ARB_ERR_MOVE_ILLEGAL otherwise), arb_epd_add_string a string written with quotes
 * and escapes, arb_epd_add_integer a number (for hmvc/fmvn also the position's counter, in
 * their ranges), arb_epd_add_text operands written as they are (NULL: none).  ARB_ERR_ARGUMENT
 * for an opcode that is not one, ARB_ERR_EPD_SYNTAX for one already present, ARB_ERR_BUFFER
 * when full. */
ARB_API arb_status arb_epd_add_moves(arb_epd *epd, const char *opcode, const arb_move *moves,
                                     int n);
ARB_API arb_status arb_epd_add_string(arb_epd *epd, const char *opcode, const char *string);
ARB_API arb_status arb_epd_add_integer(arb_epd *epd, const char *opcode, long long value);
ARB_API arb_status arb_epd_add_text(arb_epd *epd, const char *opcode, const char *text);

/* Writes the record: the four fields, then "opcode operands;" for each operation, separated by
 * blanks ("... b - - bm Qd1+; id \"BK.01\";").  Moves in SAN with check marks, strings quoted
 * with " and \ escaped.  snprintf convention. */
ARB_API int arb_epd_write(const arb_epd *epd, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
