/* Arbiter — MIT licence, see LICENSE.
 *
 * shim.h: the Python package's translation layer over the PGN reader (shim.c).  The reader's
 * visitor collects each game — tags, start position, main-line moves, problems — into C memory,
 * and Python takes the finished games after each chunk it feeds, so that no Python code runs per
 * move.  Ownership: pyarb_pgn_new allocates, pyarb_pgn_free releases; every pointer an accessor
 * returns is valid until the next pyarb_pgn_feed, _finish or _drop.  Errors: arb_status.
 */
#ifndef ARBITER_PYTHON_SHIM_H
#define ARBITER_PYTHON_SHIM_H

#include "arbiter/pgn.h"

typedef struct pyarb_pgn pyarb_pgn;

/* A collector reading with arb_pgn_options.flags = flags (ARB_PGN_*); NULL out of memory. */
pyarb_pgn *pyarb_pgn_new(unsigned flags);
void pyarb_pgn_free(pyarb_pgn *p);
/* Feeds a chunk / ends the input; ARB_ERR_NO_MEMORY when memory ran out (the games collected so
 * far stay readable). */
arb_status pyarb_pgn_feed(pyarb_pgn *p, const char *data, size_t len);
arb_status pyarb_pgn_finish(pyarb_pgn *p);
/* Finished games waiting to be taken, numbered 0 .. ready - 1. */
int pyarb_pgn_ready(const pyarb_pgn *p);
/* Game i's tags: name NUL value NUL, pair after pair, *len bytes in all. */
const char *pyarb_pgn_tags(const pyarb_pgn *p, int i, size_t *len);
/* Game i's main-line moves (*count of them, from its start position). */
const arb_move *pyarb_pgn_moves(const pyarb_pgn *p, int i, int *count);
const arb_position *pyarb_pgn_start(const pyarb_pgn *p, int i);
/* Game i's problems, one a line: "error" or "warning", TAB, the problem's name, TAB, line, TAB,
 * column, TAB, ply, TAB, the message, newline. */
const char *pyarb_pgn_errors(const pyarb_pgn *p, int i, size_t *len);
/* The Result tag's arb_result, or -1 when there was none (or "*" is all it said: 0). */
int pyarb_pgn_result(const pyarb_pgn *p, int i);
/* The game's number in the input (1-based). */
uint64_t pyarb_pgn_number(const pyarb_pgn *p, int i);
/* 1: skipped (a variant Arbiter does not play), 2: Chess960, 4: the start is not replayable
 * (no movetext position). */
int pyarb_pgn_flags(const pyarb_pgn *p, int i);
/* Forgets the finished games (after Python has taken them). */
void pyarb_pgn_drop(pyarb_pgn *p);

/* Writes `count` moves from `start` (each legal in turn; ARB_ERR_MOVE_ILLEGAL at the first that
 * is not) with arb_pgn_writer_move_to. */
arb_status pyarb_write_moves(arb_pgn_writer *w, const arb_position *start, const arb_move *moves,
                             int count);

/* ---- `arbiter pgn`'s ordered output, collected in memory (shim.c) ----
 * An arb_pgn_output whose writes go to two growing buffers (the output and the diagnostics),
 * taken by Python after each job: the Dask stage's driver puts the workers' records together
 * with it.  pyarb_output_new allocates (NULL out of memory), pyarb_output_free releases. */
typedef struct pyarb_output pyarb_output;
pyarb_output *pyarb_output_new(int dedupe);
void pyarb_output_free(pyarb_output *o);
/* A new input: its games are numbered from 1 again. */
void pyarb_output_file(pyarb_output *o);
/* One job's serialised records (arb_pgn_job_records), then its counts: 0, or -1 when the buffer
 * does not hold whole records or memory ran out (what was written stays). */
int pyarb_output_job(pyarb_output *o, const void *records, size_t len, const arb_pgn_stats *stats);
/* The text written so far to the output (to_stderr 0) or the diagnostics (1); valid until the
 * next call. */
const char *pyarb_output_text(pyarb_output *o, int to_stderr, size_t *len);
void pyarb_output_clear(pyarb_output *o);
void pyarb_output_totals(const pyarb_output *o, arb_pgn_stats *stats, uint64_t *written,
                         uint64_t *duplicates);

/* ---- the Board's calls (shim_board.c, which is also the CPython module arbiter._board) ----
 * A move is given as Python's Move holds it, key = from | to << 6 | promo << 12 (castling as
 * the king's two squares or king-takes-rook; promo ARB_KNIGHT .. ARB_QUEEN or 0); key 0 is
 * the null move.  Each returns the move's code (>= 0) or a negative arb_status. */
#include "arbiter/game.h"
/* The legal move's code in the game's position; ARB_ERR_MOVE_ILLEGAL when none fits. */
int pyarb_code(const arb_game *g, unsigned key);
/* arb_san_read with ARB_SAN_ALLOW_NULL in the game's position: the code, or the status with
 * *err filled in. */
int pyarb_parse_san(const arb_game *g, const char *text, size_t len, arb_san_error *err);

#endif
