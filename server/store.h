/* Arbiter — MIT licence, see LICENSE.
 *
 * store.h: where games live — a small interface (store_sqlite.c implements it; a PostgreSQL
 * one can sit beside it for several server processes).
 *
 * Writes are queued and committed by the store's own writer thread in groups (one transaction
 * for everything queued while the previous commit ran); each returns a ticket, and
 * srv_store_durable tells up to which ticket everything is on disk.  The server acknowledges a
 * move, and shows it to anyone, only once its ticket is durable.  Commits happen in ticket
 * order.  After each commit the writer calls the wake function (the event loop's).
 *
 * What is stored is what it takes to rebuild a game exactly: its row (setup and seat token
 * hashes) and its input events in order, which replayed into a fresh referee give the same
 * state; the moves table repeats each move with its clock and lag figures for people (an
 * arbiter's audit, exports).
 *
 * Threads: the write calls and srv_store_durable may be called from one thread (the event
 * loop) while the writer runs; the read calls use their own connection, from that same thread.
 * Ownership: rows are the caller's; the store copies what it queues.
 */
#ifndef ARB_SERVER_STORE_H
#define ARB_SERVER_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "arbiter/arbiter.h"
#include "token.h"

typedef struct srv_store srv_store;

/* A game as created. */
typedef struct srv_game_row {
  char id[SRV_GAME_ID_LEN + 1];
  int64_t created_ms;
  uint8_t hash[2][SRV_SHA256_BYTES]; /* the seat tokens' hashes */
  char rules[16];                    /* arb_rules name */
  char control[96];                  /* the time control, human grammar; "" untimed */
  char fen[ARB_FEN_MAX];             /* the start position */
  int chess960;
  int lag_compensation;
  int64_t first_move_ms;
  char rematch_of[SRV_GAME_ID_LEN + 1]; /* "" unless a rematch */
  /* filled when read back: */
  int over;
  char result[8];
  char termination[24];
  char rematch_id[SRV_GAME_ID_LEN + 1];
} srv_game_row;

/* One input event of a game, as handed to its referee (kind ARB_REF_TICK: arb_referee_tick). */
typedef struct srv_event_row {
  char game[SRV_GAME_ID_LEN + 1];
  uint32_t seq; /* 0, 1, 2 ... within the game */
  int64_t t;
  int kind; /* arb_ref_kind */
  int by, side;
  char text[16]; /* a move's UCI */
  unsigned flags;
  int64_t lag_ms;
  int reason;
  int64_t ms;
  int set;
  int64_t client_id; /* a move's id from the client (duplicates are answered, not replayed) */
} srv_event_row;

/* One move, for people. */
typedef struct srv_move_row {
  char game[SRV_GAME_ID_LEN + 1];
  int ply;
  char uci[8];
  char san[ARB_SAN_MAX];
  int64_t t;          /* when the server received it (a premove: when it was played) */
  int64_t clock_ms;   /* the mover's time after it, -1 untimed */
  int64_t elapsed_ms; /* the mover's clock time for it before compensation, -1 untimed */
  int64_t lag_ms;     /* the lag the client claimed */
  int64_t comp_ms;    /* the compensation granted */
  int premove;
} srv_move_row;

/* Opens (creating the schema if needed) the database at path: WAL, synchronous=FULL, and
 * starts the writer.  NULL with a message in err when it cannot. */
srv_store *srv_store_open(const char *path, char *err, size_t err_size);
/* Commits everything queued, stops the writer and closes (NULL is a no-op). */
void srv_store_close(srv_store *s);
/* Called by the writer after each commit (from its thread). */
void srv_store_set_wake(srv_store *s, void (*wake)(void *ctx), void *ctx);

/* Queued writes; each returns its ticket (0 when memory ran out: nothing was queued). */
uint64_t srv_store_put_game(srv_store *s, const srv_game_row *row);
/* An event with the moves it made (0, 1, or 2 for a move answered by a premove), in one write. */
uint64_t srv_store_put_event(srv_store *s, const srv_event_row *row, const srv_move_row *moves,
                             int nmoves);
uint64_t srv_store_end_game(srv_store *s, const char *id, const char *result,
                            const char *termination, int64_t ended_ms);
uint64_t srv_store_set_rematch(srv_store *s, const char *id, const char *rematch_id);
/* The server's time, written now and then: after a crash, the last one is when the server
 * was last known alive. */
uint64_t srv_store_heartbeat(srv_store *s, int64_t server_ms);
/* Everything up to this ticket is committed. */
uint64_t srv_store_durable(srv_store *s);
/* The newest ticket handed out. */
uint64_t srv_store_last_ticket(srv_store *s);
/* Blocks until everything queued so far is committed. */
void srv_store_flush(srv_store *s);
/* For tests: while held (1), the writer commits nothing; 0 lets it go on. */
void srv_store_hold(srv_store *s, int hold);
/* Commits that failed and were retried (a full disk, ...), for the log. */
uint64_t srv_store_failures(srv_store *s);

/* ---- reads (their own connection) ---- */

/* Calls fn for every game (unfinished only, or all), oldest first; fn returns non-zero to
 * stop.  Returns the number of games, -1 on a database error. */
long srv_store_each_game(srv_store *s, int unfinished_only,
                         int (*fn)(void *ctx, const srv_game_row *row), void *ctx);
/* One game's row: 1 found, 0 not, -1 error. */
int srv_store_get_game(srv_store *s, const char *id, srv_game_row *row);
/* A game's events in order; fn returns non-zero to stop.  The count, -1 on error. */
long srv_store_each_event(srv_store *s, const char *id,
                          int (*fn)(void *ctx, const srv_event_row *row), void *ctx);
/* A game's moves in order (the audit). */
long srv_store_each_move(srv_store *s, const char *id,
                         int (*fn)(void *ctx, const srv_move_row *row), void *ctx);
/* The last heartbeat, 0 if none. */
int64_t srv_store_last_heartbeat(srv_store *s);

#endif
