/* Arbiter — MIT licence, see LICENSE.
 *
 * test_pool.c: the server's engine pool (engine/pool.c) against engines that misbehave
 * (tests/cli/mock-engine.sh) and Debian's Stockfish: an answer per search, a crashed engine
 * replaced and the search run again (then given up with the reason), a stalled one stopped at
 * the deadline, the queue bounded, a game's waiting searches cancelled.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "pool.h"

#ifndef ARB_TEST_SOURCE_DIR
#error "ARB_TEST_SOURCE_DIR"
#endif

typedef struct got {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  eng_answer a[16];
  int n;
} got;

static void done(void *ctx, const eng_answer *a) {
  got *g = ctx;
  pthread_mutex_lock(&g->mu);
  if (g->n < 16) g->a[g->n++] = *a;
  pthread_cond_broadcast(&g->cv);
  pthread_mutex_unlock(&g->mu);
}

/* Waits for n answers (at most secs). */
static int wait_for(got *g, int n, int secs) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += secs;
  pthread_mutex_lock(&g->mu);
  while (g->n < n && pthread_cond_timedwait(&g->cv, &g->mu, &until) == 0)
    ;
  int have = g->n;
  pthread_mutex_unlock(&g->mu);
  return have;
}

static eng_pool *pool_of(const char *cmd, const char *const *args, int size, int queue, got *g) {
  memset(g, 0, sizeof *g);
  pthread_mutex_init(&g->mu, NULL);
  pthread_cond_init(&g->cv, NULL);
  eng_pool_config c;
  memset(&c, 0, sizeof c);
  c.engine.cmd = cmd;
  c.engine.args = args;
  c.engine.startup_ms = 3000;
  c.engine.ready_ms = 3000;
  c.size = size;
  c.queue_max = queue;
  c.max_ms = 2000;
  char err[200];
  eng_pool *p = eng_pool_new(&c, done, g, err, sizeof err);
  cr_assert_not_null(p, "%s", err);
  return p;
}

static eng_job job(uint64_t id, uint64_t game, const arb_move *moves, int n) {
  eng_job j;
  memset(&j, 0, sizeof j);
  j.id = id;
  j.game = game;
  arb_position_startpos(&j.start);
  j.moves = moves;
  j.nmoves = n;
  j.level = 1;
  return j;
}

#define MOCK ARB_TEST_SOURCE_DIR "/cli/mock-engine.sh"

Test(pool, stockfish_answers_legal_moves_at_a_level_and_after_moves) {
  char path[512];
  if (eng_find("stockfish", path, sizeof path)) cr_skip("no stockfish (scripts/deps.sh test)");
  got g;
  eng_pool *p = pool_of(path, NULL, 2, 8, &g);
  arb_position pos;
  arb_position_startpos(&pos);
  arb_move e4;
  cr_assert_eq(arb_uci_read(&pos, "e2e4", 4, 0, &e4), ARB_OK);
  for (int i = 0; i < 3; i++) {
    eng_job j = job((uint64_t)i + 1, 7, &e4, 1);
    cr_assert_eq(eng_pool_submit(p, &j), 0);
  }
  cr_assert_eq(wait_for(&g, 3, 20), 3);
  arb_undo u;
  arb_make_move(&pos, e4, &u);
  for (int i = 0; i < 3; i++) {
    cr_assert_eq(g.a[i].status, UCI_OK, "%s", g.a[i].message);
    cr_assert(arb_is_legal(&pos, g.a[i].result.move), "a legal move for Black after e4");
    cr_assert_eq(g.a[i].game, 7);
  }
  eng_pool_free(p);
}

Test(pool, a_crashing_engine_is_replaced_and_the_search_run_again_then_given_up) {
  got g;
  eng_pool *p = pool_of("sh", (const char *const[]){MOCK, "crash", NULL}, 1, 4, &g);
  eng_job j = job(1, 1, NULL, 0);
  cr_assert_eq(eng_pool_submit(p, &j), 0);
  cr_assert_eq(wait_for(&g, 1, 20), 1);
  cr_assert_eq(g.a[0].status, UCI_CRASHED);
  cr_assert_eq(g.a[0].restarts, 3, "three runs, each on a fresh process");
  cr_assert_eq(eng_pool_restarts(p), 3);
  cr_assert(strstr(g.a[0].message, "crash") || g.a[0].message[0], "a reason");
  eng_pool_free(p);
}

Test(pool, a_stalled_search_ends_at_its_deadline) {
  got g;
  eng_pool *p = pool_of("sh", (const char *const[]){MOCK, "hang", NULL}, 1, 4, &g);
  eng_job j = job(1, 1, NULL, 0);
  j.lim.deadline_ms = 300;
  cr_assert_eq(eng_pool_submit(p, &j), 0);
  cr_assert_eq(wait_for(&g, 1, 10), 1);
  cr_assert_eq(g.a[0].status, UCI_TIMEOUT);
  eng_pool_free(p);
}

Test(pool, the_queue_is_bounded_and_a_game_s_searches_can_be_cancelled) {
  got g;
  eng_pool *p = pool_of("sh", (const char *const[]){MOCK, "hang", NULL}, 1, 2, &g);
  eng_job a = job(1, 1, NULL, 0), b = job(2, 2, NULL, 0), c = job(3, 2, NULL, 0),
          d = job(4, 3, NULL, 0);
  a.lim.deadline_ms = b.lim.deadline_ms = c.lim.deadline_ms = d.lim.deadline_ms = 500;
  cr_assert_eq(eng_pool_submit(p, &a), 0);
  /* the one process takes a; b and c wait; d is one too many */
  for (int i = 0; i < 100 && eng_pool_running(p) == 0; i++)
    nanosleep(&(struct timespec){0, 10000000}, NULL);
  cr_assert_eq(eng_pool_submit(p, &b), 0);
  cr_assert_eq(eng_pool_submit(p, &c), 0);
  cr_assert_eq(eng_pool_submit(p, &d), -1, "beyond the queue: refused");
  cr_assert_eq(eng_pool_waiting(p), 2);
  eng_pool_cancel(p, 2);
  cr_assert_eq(eng_pool_waiting(p), 0);
  cr_assert_eq(wait_for(&g, 1, 10), 1);
  cr_assert_eq(g.a[0].id, 1, "only the search being run answers");
  eng_pool_free(p);
}

Test(pool, refuses_a_wrong_configuration) {
  got g;
  memset(&g, 0, sizeof g);
  eng_pool_config c;
  memset(&c, 0, sizeof c);
  c.engine.cmd = "stockfish";
  c.size = 0;
  char err[200] = "";
  cr_assert_null(eng_pool_new(&c, done, &g, err, sizeof err));
  cr_assert(strlen(err) > 0);
  char path[64];
  cr_assert_eq(eng_find("no-such-engine-anywhere", path, sizeof path), -1);
}
