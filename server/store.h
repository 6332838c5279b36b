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
 * state — every move's clock, lag and compensation figures with it (the PGN export's [%clk]).
 * A commit appends the events to a log (events_log, in the order they came: a few pages a
 * commit, whatever the number of games); a game's rows there are copied together to the
 * events table (keyed by game) once the oldest is far enough behind, and every read sees the
 * table's rows then the log's.  Databases made before the log open as they are (an empty log);
 * their moves table (each move's figures, written until then) is kept, no longer written.
 *
 * A commit that fails (a full or read-only disk, a damaged file) is retried for a moment and then
 * given up: its tickets, and every ticket queued after them until the caller has dealt with
 * the failure (srv_store_recover), are resolved as failed — never stored, so never
 * acknowledged — and srv_store_failed names them, so the caller can put its games back as the
 * store has them and tell the players.
 *
 * One process per database: srv_store_open takes a lock (FILE.lock) that the next opener finds
 * held, and refuses a file that is not an Arbiter database, is empty, cannot be written, or
 * fails SQLite's integrity check.
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
#define SRV_NAME_MAX 160 /* bytes of a player's name (40 characters of UTF-8) */

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
  int computer;                         /* 0: two people; 1: the computer plays White, 2: Black */
  int level;                            /* its level, 1-8 (engine/level.h) */
  char name[2][SRV_NAME_MAX + 1];       /* each player's name as they gave it ("" none) */
  /* filled when read back: */
  int over;
  char result[8];
  char termination[24];
  char rematch_id[SRV_GAME_ID_LEN + 1];
  /* each seat's link into the rematch, masked with a key only that seat's own token gives
   * (server.c), so that a seat away when the rematch was made still gets it after a restart,
   * and the database alone gives it to nobody */
  uint8_t rematch_mask[2][SRV_TOKEN_LEN];
  int has_rematch_mask;
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

/* Opens (creating the file and schema if there is no file) the database at path: WAL,
 * synchronous=FULL, the lock, the checks above, and starts the writer.  NULL with a message in
 * err when it cannot.  srv_store_open_read opens it for reading only (no lock, no writer:
 * `arbiter serve --export` beside a running server). */
srv_store *srv_store_open(const char *path, char *err, size_t err_size);
srv_store *srv_store_open_read(const char *path, char *err, size_t err_size);
/* Commits everything queued, stops the writer and closes (NULL is a no-op). */
void srv_store_close(srv_store *s);
/* For tests: a game's events are copied from the log to the events table once the oldest is
 * this many rows behind (0: as the store sees fit, 16,384 or more). */
void srv_store_set_log_keep(srv_store *s, uint32_t rows);
/* Called by the writer after each commit (from its thread). */
void srv_store_set_wake(srv_store *s, void (*wake)(void *ctx), void *ctx);

/* Queued writes; each returns its ticket (0 when memory ran out: nothing was queued). */
uint64_t srv_store_put_game(srv_store *s, const srv_game_row *row);
/* A game's input event. */
uint64_t srv_store_put_event(srv_store *s, const srv_event_row *row);
uint64_t srv_store_end_game(srv_store *s, const char *id, const char *result,
                            const char *termination, int64_t ended_ms);
uint64_t srv_store_set_rematch(srv_store *s, const char *id, const char *rematch_id,
                               const uint8_t mask[2][SRV_TOKEN_LEN]);
/* The server's time, written now and then: after a crash, the last one is when the server
 * was last known alive. */
/* A player's name (seat 0 White, 1 Black), for the PGN. */
uint64_t srv_store_set_name(srv_store *s, const char *id, int seat, const char *name);
uint64_t srv_store_heartbeat(srv_store *s, int64_t server_ms);
/* A game row with no events (nobody started it) created before this is deleted. */
uint64_t srv_store_expire_unstarted(srv_store *s, int64_t created_before_ms);
/* Everything up to this ticket is resolved: committed, or failed (srv_store_failed). */
uint64_t srv_store_durable(srv_store *s);
/* 1 if this resolved ticket failed (was not stored). */
int srv_store_failed(srv_store *s, uint64_t ticket);
/* 1 while a failure has not been dealt with: every write queued meanwhile fails too. */
int srv_store_broken(srv_store *s);
/* The caller has dealt with the failures so far: writes may be tried again. */
void srv_store_recover(srv_store *s);
/* The newest ticket handed out. */
uint64_t srv_store_last_ticket(srv_store *s);
/* Blocks until everything queued so far is resolved. */
void srv_store_flush(srv_store *s);
/* The same for at most ms milliseconds: 0 when all of it was committed, -1 when some failed
 * or the time ran out. */
int srv_store_flush_within(srv_store *s, int64_t ms);
/* For tests: while held (1), the writer commits nothing; 0 lets it go on. */
void srv_store_hold(srv_store *s, int hold);
/* Commits that failed and were retried (a full disk, ...), for the log. */
uint64_t srv_store_failures(srv_store *s);

/* ---- the trainer's learners (server/train.c) ---- */

/* A learner: its token's hash, and a Glicko-2 rating for puzzles and one for the quiz. */
typedef struct srv_learner_row {
  uint8_t hash[SRV_SHA256_BYTES];
  int64_t created_ms;
  double rating[2], rd[2], volatility[2]; /* [0] puzzles, [1] quiz */
} srv_learner_row;

/* One answer of a learner, with the item's review state after it (box 0: not in review). */
typedef struct srv_attempt_row {
  uint8_t learner[SRV_SHA256_BYTES];
  int kind; /* 0 puzzle, 1 quiz item */
  char item[32];
  int right, rated;
  int64_t t;
  char themes[128]; /* the item's themes or topic, for the learner's per-theme figures */
  int box, streak;
  int64_t due_ms;
  int item_rated; /* the item's rating changed: item_rating/rd/vol are its new one */
  double item_rating, item_rd, item_vol;
} srv_attempt_row;

/* Queued like every other write (a ticket): the learner's row, whole. */
uint64_t srv_store_put_learner(srv_store *s, const srv_learner_row *row);
/* An attempt, and its item's review state (both in one write). */
uint64_t srv_store_put_attempt(srv_store *s, const srv_attempt_row *row);

/* ---- reads (their own connection) ---- */

typedef enum srv_games_which {
  SRV_GAMES_ALL,      /* every game */
  SRV_GAMES_UNDER_WAY /* started (it has events) and not over */
} srv_games_which;

/* Calls fn for every game of the kind asked, oldest first; fn returns non-zero to stop.
 * Returns the number of games, -1 on a database error. */
long srv_store_each_game(srv_store *s, srv_games_which which,
                         int (*fn)(void *ctx, const srv_game_row *row), void *ctx);
/* One game's row: 1 found, 0 not, -1 error. */
int srv_store_get_game(srv_store *s, const char *id, srv_game_row *row);
/* A game's events in order (committed ones: the table's and the log's); fn returns non-zero to
 * stop.  The count, -1 on error. */
long srv_store_each_event(srv_store *s, const char *id,
                          int (*fn)(void *ctx, const srv_event_row *row), void *ctx);
/* A learner by its token's hash: 1 found, 0 not, -1 error. */
int srv_store_get_learner(srv_store *s, const uint8_t hash[SRV_SHA256_BYTES], srv_learner_row *row);
/* A learner's attempts, oldest first (with each item's latest review state in the last of its
 * attempts); fn returns non-zero to stop.  The count, -1 on error. */
long srv_store_each_attempt(srv_store *s, const uint8_t hash[SRV_SHA256_BYTES],
                            int (*fn)(void *ctx, const srv_attempt_row *row), void *ctx);

/* Every item's latest rating (what the attempts that rated it left); fn returns non-zero to
 * stop.  The count, -1 on error. */
long srv_store_each_item_rating(srv_store *s,
                                int (*fn)(void *ctx, int kind, const char *item, double rating,
                                          double rd, double vol),
                                void *ctx);

/* The last heartbeat, 0 if none. */
int64_t srv_store_last_heartbeat(srv_store *s);

#endif
