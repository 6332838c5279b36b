/* Arbiter — MIT licence, see LICENSE.
 *
 * train.h (the server's): the trainer's HTTP API (docs/trainer.md, "The server's API") — a
 * learner's anonymous token, the next puzzle or quiz item chosen near the learner's level, every
 * answer checked here (the page is never trusted with a solution), ratings (Glicko-2 for the
 * learner and the item, lichess's weights), the review of missed items (Leitner), and the
 * learner's figures per theme.  The rules and the model are the library's (arbiter/train.h,
 * arbiter/solve.h, arbiter/explain.h); this file routes, remembers and translates.
 *
 * Learners are kept in memory once seen (their attempts replayed from the store), and every
 * change is written through the store: an answer that changes a learner waits for its ticket,
 * as a move does.  A learner token is 22 random characters; only its SHA-256 is stored.
 *
 * Threads: the transport's one thread.
 */
#ifndef ARB_SERVER_TRAIN_H
#define ARB_SERVER_TRAIN_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

typedef struct srv_trainer srv_trainer;

/* The items: a puzzle CSV (lichess's format) and a quiz bank (JSON lines), either may be NULL
 * or missing (then that part answers 503 "no puzzles"/"no quiz").  NULL without memory; the
 * counts loaded go to *npuzzles, *nquiz. */
srv_trainer *srv_trainer_new(srv_store *store, const char *puzzles_csv, const char *quiz_jsonl,
                             long *npuzzles, long *nquiz);
void srv_trainer_free(srv_trainer *t);

/* One request under /api/train/: method (0 GET, 1 POST), the path, the query string (without
 * '?'), the learner's token from the X-Learner header ("" none), the body.  Returns the status;
 * *out is the JSON answer (malloc'd), and *ticket the store's ticket the answer must wait for
 * (0: none).  Bad input (an item id that is not one, a token that is not a learner's, moves that
 * do not read) gets a clear error and changes nothing. */
int srv_trainer_http(srv_trainer *t, int post, const char *path, const char *query,
                     const char *learner, const char *body, size_t len, int64_t now_ms, char **out,
                     uint64_t *ticket);

#endif
