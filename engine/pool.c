/* Arbiter — MIT licence, see LICENSE.
 *
 * pool.c: the engine pool (pool.h).  One thread per process slot, one queue under one mutex;
 * a slot starts its engine on its first search and replaces it when it crashes, stalls or
 * runs past its deadline.
 */
#define _POSIX_C_SOURCE 200809L
#include "pool.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "level.h"

typedef struct node {
  eng_job job;
  arb_move *moves;
  struct node *next;
} node;

struct eng_pool {
  eng_pool_config cfg;
  eng_done done;
  void *ctx;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  node *head, *tail;
  int waiting, running, stopping;
  long restarts;
  int nthreads;
  pthread_t threads[ENG_POOL_MAX];
};

static void say(char *out, size_t size, const char *what, const char *detail) {
  if (out && size)
    snprintf(out, size, "%s%s%s", what, detail && *detail ? ": " : "", detail ? detail : "");
}

/* The search's limits: the level's depth and time per move, no more than the clock's share. */
static uci_limits limits_of(const eng_pool *p, const eng_job *j) {
  uci_limits lim = j->lim;
  const eng_level *lv = eng_level_get(j->level);
  if (lv) {
    lim.depth = lv->depth;
    int64_t mt = lv->movetime_ms;
    if (lim.timed) {
      /* the side to move after the moves */
      int white = (j->start.turn == ARB_WHITE) == (j->nmoves % 2 == 0);
      int64_t own = white ? lim.wtime : lim.btime, inc = white ? lim.winc : lim.binc;
      int64_t share = own / 30 + inc * 3 / 4;
      if (share < 10) share = 10;
      if (share < mt) mt = share;
    }
    lim.movetime = mt;
  }
  if (lim.deadline_ms <= 0 || lim.deadline_ms > p->cfg.max_ms) lim.deadline_ms = p->cfg.max_ms;
  return lim;
}

static void run(eng_pool *p, node *n, uci_engine **e, uint64_t *last_game, eng_answer *a) {
  const eng_job *j = &n->job;
  memset(a, 0, sizeof *a);
  a->id = j->id;
  a->game = j->game;
  a->status = UCI_START_FAILED;
  uci_limits lim = limits_of(p, j);
  const eng_level *lv = eng_level_get(j->level);
  char skill[8];
  snprintf(skill, sizeof skill, "%d", lv ? lv->skill : 20);
  for (int attempt = 0; attempt <= p->cfg.retries; attempt++) {
    char err[200] = "";
    if (!*e) {
      *e = uci_start(&p->cfg.engine, err, sizeof err);
      *last_game = 0;
      if (!*e) {
        a->status = UCI_START_FAILED;
        say(a->message, sizeof a->message, "the engine does not start", err);
        return;
      }
    }
    uci_status st = uci_set_option(*e, "Skill Level", skill);
    if (st == UCI_OK && *last_game != j->game) {
      st = uci_new_game(*e, j->start.chess960, err, sizeof err);
      if (st == UCI_OK) *last_game = j->game;
    }
    if (st == UCI_OK)
      st = uci_go(*e, &j->start, n->moves, j->nmoves, j->start.chess960, &lim, &a->result);
    a->status = st;
    if (st == UCI_OK || st == UCI_NO_MOVE || st == UCI_ILLEGAL || st == UCI_MALFORMED) {
      if (st != UCI_OK) say(a->message, sizeof a->message, uci_status_name(st), a->result.message);
      return;
    }
    /* crashed, stalled or past its deadline: a fresh process, and the search again unless
     * the deadline is what went */
    uci_quit(*e);
    *e = NULL;
    pthread_mutex_lock(&p->mu);
    p->restarts++;
    pthread_mutex_unlock(&p->mu);
    a->restarts++;
    say(a->message, sizeof a->message, uci_status_name(st), a->result.message);
    if (st == UCI_TIMEOUT) return;
  }
}

static void *worker(void *arg) {
  eng_pool *p = arg;
  uci_engine *e = NULL;
  uint64_t last_game = 0;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->head && !p->stopping)
      pthread_cond_wait(&p->cv, &p->mu);
    if (p->stopping) break;
    node *n = p->head;
    p->head = n->next;
    if (!p->head) p->tail = NULL;
    p->waiting--;
    p->running++;
    pthread_mutex_unlock(&p->mu);
    eng_answer a;
    run(p, n, &e, &last_game, &a);
    free(n->moves);
    free(n);
    pthread_mutex_lock(&p->mu);
    int stopping = p->stopping;
    pthread_mutex_unlock(&p->mu);
    if (!stopping) p->done(p->ctx, &a);
    pthread_mutex_lock(&p->mu);
    p->running--;
  }
  pthread_mutex_unlock(&p->mu);
  uci_quit(e);
  return NULL;
}

eng_pool *eng_pool_new(const eng_pool_config *cfg, eng_done done, void *ctx, char *err,
                       size_t errlen) {
  if (cfg->size < 1 || cfg->size > ENG_POOL_MAX || !cfg->engine.cmd || !done) {
    say(err, errlen, "an engine pool of 1 to 16 processes, with a program", NULL);
    return NULL;
  }
  eng_pool *p = calloc(1, sizeof *p);
  if (!p) {
    say(err, errlen, "out of memory", NULL);
    return NULL;
  }
  p->cfg = *cfg;
  if (p->cfg.queue_max <= 0) p->cfg.queue_max = 64;
  if (p->cfg.retries <= 0) p->cfg.retries = 2;
  if (p->cfg.max_ms <= 0) p->cfg.max_ms = 30000;
  p->done = done;
  p->ctx = ctx;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  for (int i = 0; i < cfg->size; i++) {
    if (pthread_create(&p->threads[i], NULL, worker, p)) {
      say(err, errlen, "no thread for the engine pool", NULL);
      eng_pool_free(p);
      return NULL;
    }
    p->nthreads++;
  }
  return p;
}

int eng_pool_submit(eng_pool *p, const eng_job *job) {
  if (job->nmoves < 0 || job->nmoves > ENG_JOB_MAX_PLY) return -1;
  node *n = calloc(1, sizeof *n);
  if (!n) return -1;
  n->job = *job;
  n->moves = malloc(sizeof *n->moves * (size_t)(job->nmoves ? job->nmoves : 1));
  if (!n->moves) {
    free(n);
    return -1;
  }
  if (job->nmoves) memcpy(n->moves, job->moves, sizeof *n->moves * (size_t)job->nmoves);
  n->job.moves = NULL;
  pthread_mutex_lock(&p->mu);
  if (p->waiting >= p->cfg.queue_max || p->stopping) {
    pthread_mutex_unlock(&p->mu);
    free(n->moves);
    free(n);
    return -1;
  }
  if (p->tail)
    p->tail->next = n;
  else
    p->head = n;
  p->tail = n;
  p->waiting++;
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
  return 0;
}

void eng_pool_cancel(eng_pool *p, uint64_t game) {
  pthread_mutex_lock(&p->mu);
  node **pp = &p->head, *last = NULL;
  while (*pp) {
    node *n = *pp;
    if (n->job.game == game) {
      *pp = n->next;
      p->waiting--;
      free(n->moves);
      free(n);
    } else {
      last = n;
      pp = &n->next;
    }
  }
  p->tail = last;
  pthread_mutex_unlock(&p->mu);
}

int eng_pool_waiting(eng_pool *p) {
  pthread_mutex_lock(&p->mu);
  int n = p->waiting;
  pthread_mutex_unlock(&p->mu);
  return n;
}

int eng_pool_running(eng_pool *p) {
  pthread_mutex_lock(&p->mu);
  int n = p->running;
  pthread_mutex_unlock(&p->mu);
  return n;
}

long eng_pool_restarts(eng_pool *p) {
  pthread_mutex_lock(&p->mu);
  long n = p->restarts;
  pthread_mutex_unlock(&p->mu);
  return n;
}

void eng_pool_free(eng_pool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stopping = 1;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->nthreads; i++)
    pthread_join(p->threads[i], NULL);
  for (node *n = p->head, *next; n; n = next) {
    next = n->next;
    free(n->moves);
    free(n);
  }
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv);
  free(p);
}

int eng_find(const char *name, char *out, size_t size) {
  if (!name || !*name) return -1;
  if (strchr(name, '/')) {
    if (access(name, X_OK)) return -1;
    snprintf(out, size, "%s", name);
    return 0;
  }
  const char *path = getenv("PATH");
  char dirs[4096];
  snprintf(dirs, sizeof dirs, "%s:/usr/games", path ? path : "/usr/local/bin:/usr/bin:/bin");
  for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
    char full[4200];
    snprintf(full, sizeof full, "%s/%s", *d ? d : ".", name);
    if (!access(full, X_OK)) {
      snprintf(out, size, "%s", full);
      return 0;
    }
  }
  return -1;
}
