/* Arbiter — MIT licence, see LICENSE.
 *
 * train_internal.h: what the trainer's files share (train.c: items, learners and routing;
 * train_diag.c: the diagnostic).  Not for other files.
 */
#ifndef ARB_SERVER_TRAIN_INTERNAL_H
#define ARB_SERVER_TRAIN_INTERNAL_H

#include <jansson.h>

#include "arbiter/arbiter.h"
#include "train.h"

typedef struct tpuzzle {
  arb_puzzle p;
  arb_position start, shown; /* before and after the opponent's move */
  arb_move line[ARB_PUZZLE_MAX_MOVES];
  int nline;
  int goal;      /* ARB_SOLVE_MATE / ARB_SOLVE_DRAW */
  int winordraw; /* a stalemate trap or rescue: served unlabelled in that mode */
  arb_glicko g;
} tpuzzle;

typedef struct tquiz {
  char id[64];
  char topic[48];
  json_t *item;  /* the whole item */
  json_t *shown; /* without its answer and explanation */
  arb_glicko g;
} tquiz;

typedef struct tlearner tlearner;
typedef struct srv_diags srv_diags;

struct srv_trainer {
  srv_store *store;
  tpuzzle *puzzles;
  long npuzzles;
  tquiz *quiz;
  long nquiz;
  tlearner **buckets;
  size_t nbuckets, nlearners;
  arb_solver *solver;
  arb_select_item *sel; /* scratch, as large as the larger bank */
  srv_diags *diags;     /* the diagnostics under way (train_diag.c) */
  long *index[2];       /* the puzzles' and the quiz items' indexes by id (train.c) */
  size_t index_cap[2];
};

/* The answer's text (decrefs j); an error answer with its status; a position's legal
 * destinations as the page wants them ({"e2":"e3e4",...}). */
char *srv_train_dump(json_t *j);
int srv_train_fail(char **out, int status, const char *code, const char *message);
json_t *srv_train_dests(const arb_position *p);

/* The diagnostic (train_diag.c): POST /api/train/diagnostic/start {} and
 * /api/train/diagnostic/answer {"id","answer"|"move"}; sessions kept in memory. */
srv_diags *srv_diags_new(void);
void srv_diags_free(srv_diags *d);
int srv_train_diagnostic(srv_trainer *t, const char *path, json_t *req, int64_t now, char **out);

#endif
