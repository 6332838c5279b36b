/* Arbiter — MIT licence, see LICENSE.
 *
 * pool.h: a bounded pool of UCI engine processes for the play server's computer opponent and
 * its analysis (engine/uci.h does the talking).  Each process has its own thread and does one
 * search at a time; searches wait in one queue (bounded: beyond it a search is refused); every
 * search has a deadline; an engine that crashes or stalls is replaced by a fresh process and the
 * search it was doing is run again on it (up to a few times), so the game it belongs to goes on.
 * Processes are started when first needed.
 *
 * Ownership: eng_pool_new returns a pool the caller ends with eng_pool_free (which stops the
 * threads and quits the engines; answers of searches still waiting are not delivered).  A job
 * is copied at submission.
 *
 * Threads: submit, cancel and the counters may be called from any thread; the `done` callback
 * runs on a pool thread (the server hands the answer to its loop from there).
 */
#ifndef ARB_ENGINE_POOL_H
#define ARB_ENGINE_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "uci.h"

#define ENG_POOL_MAX 16      /* processes at most */
#define ENG_JOB_MAX_PLY 1024 /* the longest game a search is asked about */

typedef struct eng_job {
  uint64_t id;   /* the caller's, carried by the answer */
  uint64_t game; /* the caller's game key: a different one than the engine's last gets ucinewgame */
  arb_position start;
  const arb_move *moves; /* copied */
  int nmoves;
  int level;      /* 1-8: engine/level.h's skill, time and depth (the least of those and the
                     clock's share); 0: full strength, the limits in lim */
  uci_limits lim; /* the clock (timed, wtime...), and a deadline_ms for the answer */
} eng_job;

typedef struct eng_answer {
  uint64_t id, game;
  uci_status status; /* UCI_OK: result.move is legal in the position */
  uci_result result;
  int restarts;      /* engines replaced while doing this search */
  char message[200]; /* why not, when status is not UCI_OK */
} eng_answer;

typedef void (*eng_done)(void *ctx, const eng_answer *a);

typedef struct eng_pool_config {
  uci_config engine; /* the program and its options (copied: the strings must outlive the pool) */
  int size;          /* processes (1 to ENG_POOL_MAX) */
  int queue_max;     /* searches waiting at most (0: 64) */
  int retries;       /* runs of one search after a crash (0: 2) */
  int64_t max_ms;    /* the longest any search may take (0: 30000) */
} eng_pool_config;

typedef struct eng_pool eng_pool;

/* NULL without memory or threads (err says why).  Engines start with the first search. */
eng_pool *eng_pool_new(const eng_pool_config *cfg, eng_done done, void *ctx, char *err,
                       size_t errlen);
/* Queues a search: 0, or -1 when the queue is full or the job is wrong (too many plies). */
int eng_pool_submit(eng_pool *p, const eng_job *job);
/* Drops the waiting searches of game (one being run still answers: the caller ignores it). */
void eng_pool_cancel(eng_pool *p, uint64_t game);
/* Searches waiting, and processes running now (for logs and tests). */
int eng_pool_waiting(eng_pool *p);
int eng_pool_running(eng_pool *p);
/* Engines replaced since the start. */
long eng_pool_restarts(eng_pool *p);
void eng_pool_free(eng_pool *p);

/* Finds an engine program: name if it holds a '/', else name on PATH, else in /usr/games
 * (where Debian installs stockfish, not on root's PATH).  Writes the path into out and
 * returns 0, or -1 when there is none. */
int eng_find(const char *name, char *out, size_t size);

#endif
