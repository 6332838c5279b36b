/* Arbiter — MIT licence, see LICENSE.
 *
 * store_sqlite.c: the store (store.h) in one SQLite file — WAL, synchronous=FULL, one writer
 * thread that commits everything queued in one transaction (group commit), a second
 * connection for reads.  SERVER.md section 4 has the measurements behind the choice.
 *
 * A game's events are read by game (events, keyed by game and seq), but they come one game
 * after another, a thousand games at once: written straight into that table, each event of a
 * commit lands on a page of its own, and a commit writes (and later checkpoints) a 4 KB page
 * per move.  So a commit appends its events to a log in arrival order (events_log: a few
 * pages a commit), and a game's rows there are copied to the events table together once the
 * oldest of them is log_keep() rows behind (one page for a dozen or more moves), in a later
 * commit that also deletes from the log what every game has had copied.  The writer keeps the
 * log's rows by game in memory (the copies are made from there, and reads find a game's rows
 * there without scanning the log).  At open the log is emptied into the events table; when
 * idle and at close too.  docs/server.md has the figures.
 *
 * A commit that fails (a full disk, a read-only or damaged file) is rolled back and retried a
 * few times over about half a second; then its batch, and every batch after it until the
 * server has put its games back (srv_store_recover), is resolved as failed: tickets resolve in
 * order, nothing failed is ever reported durable, so nothing is acknowledged that is not on
 * disk, and no later event is stored behind a missing one.
 *
 * At open: one process per file (flock on FILE.lock), and a file that is empty, not an Arbiter
 * database, read-only or damaged (PRAGMA quick_check) is refused with the reason.
 */
#define _POSIX_C_SOURCE 200809L
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "strhash.h"

enum {
  OP_GAME,
  OP_EVENT,
  OP_END,
  OP_REMATCH,
  OP_NAME,
  OP_HEARTBEAT,
  OP_EXPIRE,
  OP_LEARNER,
  OP_ATTEMPT
};

/* Each connection is used by one thread at a time (the writer's by the writer, once it runs;
 * the reads' by the caller's; the checkpointer's by it): SQLite's own lock around every call
 * (a dozen a stored event) is left out. */
#define NOMUTEX SQLITE_OPEN_NOMUTEX

/* PRAGMA application_id of an Arbiter database ("ARB1"). */
#define ARB_APPLICATION_ID 0x41524231

typedef struct op {
  int kind;
  uint64_t ticket;
  union {
    srv_game_row game;
    srv_event_row event;
    struct {
      char id[SRV_GAME_ID_LEN + 1];
      char result[8];
      char termination[24];
      int64_t ended_ms;
    } end;
    struct {
      char id[SRV_GAME_ID_LEN + 1];
      char rematch[SRV_GAME_ID_LEN + 1];
      uint8_t mask[2][SRV_TOKEN_LEN];
    } rematch;
    struct {
      char id[SRV_GAME_ID_LEN + 1];
      int seat;
      char name[SRV_NAME_MAX + 1];
    } name;
    int64_t heartbeat;
    int64_t expire_before;
    srv_learner_row learner;
    srv_attempt_row attempt;
  } u;
} op;

enum {
  ST_GAME,
  ST_EVENT,
  ST_LOG,
  ST_LOG_TRIM,
  ST_LOG_HAS,
  ST_END,
  ST_REMATCH,
  ST_NAME,
  ST_HEARTBEAT,
  ST_EXPIRE_LIST,
  ST_EXPIRE_ONE,
  ST_LEARNER,
  ST_ATTEMPT,
  ST_ITEM,
  ST_BEGIN,
  ST_COMMIT,
  ST_COUNT
};

static const char *const st_sql[ST_COUNT] = {
    [ST_GAME] =
        "INSERT OR REPLACE INTO games(id, created_ms, white_hash, black_hash, rules, "
        "control, fen, chess960, lag_compensation, first_move_ms, rematch_of, computer, level) "
        "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
    [ST_EVENT] = "INSERT OR REPLACE INTO events(game, seq, t, kind, by, side, text, flags, lag_ms, "
                 "reason, ms, setting, client_id) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
    [ST_LOG] = "INSERT INTO events_log(game, seq, t, kind, by, side, text, flags, lag_ms, reason, "
               "ms, setting, client_id, id) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    [ST_LOG_TRIM] = "DELETE FROM events_log WHERE id < ?",
    [ST_LOG_HAS] = "SELECT 1 FROM events_log WHERE id >= ? AND game = ? LIMIT 1",
    [ST_END] = "UPDATE games SET over = 1, result = ?, termination = ?, ended_ms = ? WHERE id = ?",
    [ST_REMATCH] = "UPDATE games SET rematch_id = ?, rematch_masks = ? WHERE id = ?",
    [ST_NAME] = "UPDATE games SET white_name = CASE WHEN ?2 = 0 THEN ?1 ELSE white_name END, "
                "black_name = CASE WHEN ?2 = 1 THEN ?1 ELSE black_name END WHERE id = ?3",
    [ST_HEARTBEAT] = "INSERT OR REPLACE INTO meta(key, value) VALUES('heartbeat', ?)",
    [ST_EXPIRE_LIST] = "SELECT id FROM games WHERE over = 0 AND created_ms < ? AND NOT EXISTS "
                       "(SELECT 1 FROM events WHERE events.game = games.id)",
    [ST_EXPIRE_ONE] = "DELETE FROM games WHERE id = ?",
    [ST_LEARNER] = "INSERT OR REPLACE INTO learners(hash, created_ms, puzzle_rating, puzzle_rd, "
                   "puzzle_vol, quiz_rating, quiz_rd, quiz_vol) VALUES(?,?,?,?,?,?,?,?)",
    [ST_ATTEMPT] = "INSERT INTO attempts(learner, kind, item, right, rated, t, themes, box, "
                   "streak, due_ms) VALUES(?,?,?,?,?,?,?,?,?,?)",
    [ST_ITEM] = "INSERT OR REPLACE INTO item_ratings(kind, item, rating, rd, vol) "
                "VALUES(?,?,?,?,?)",
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS games(id TEXT PRIMARY KEY, created_ms INTEGER, white_hash BLOB, "
    "  black_hash BLOB, rules TEXT, control TEXT, fen TEXT, chess960 INTEGER, "
    "  lag_compensation INTEGER, first_move_ms INTEGER, rematch_of TEXT, rematch_id TEXT, "
    "  over INTEGER NOT NULL DEFAULT 0, result TEXT NOT NULL DEFAULT '*', "
    "  termination TEXT NOT NULL DEFAULT '', ended_ms INTEGER, rematch_masks BLOB, "
    "  computer INTEGER NOT NULL DEFAULT 0, level INTEGER NOT NULL DEFAULT 0, "
    "  white_name TEXT NOT NULL DEFAULT '', black_name TEXT NOT NULL DEFAULT '');"
    "CREATE INDEX IF NOT EXISTS games_over ON games(over, created_ms);"
    "CREATE TABLE IF NOT EXISTS events(game TEXT, seq INTEGER, t INTEGER, kind TEXT, by INTEGER,"
    "  side INTEGER, text TEXT, flags INTEGER, lag_ms INTEGER, reason INTEGER, ms INTEGER,"
    "  setting INTEGER, client_id INTEGER, PRIMARY KEY(game, seq)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS events_log(id INTEGER PRIMARY KEY, game TEXT, seq INTEGER, "
    "  t INTEGER, kind TEXT, by INTEGER, side INTEGER, text TEXT, flags INTEGER, lag_ms INTEGER, "
    "  reason INTEGER, ms INTEGER, setting INTEGER, client_id INTEGER);"
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value INTEGER);"
    "CREATE TABLE IF NOT EXISTS learners(hash BLOB PRIMARY KEY, created_ms INTEGER, "
    "  puzzle_rating REAL, puzzle_rd REAL, puzzle_vol REAL, quiz_rating REAL, quiz_rd REAL, "
    "  quiz_vol REAL) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS attempts(learner BLOB, kind INTEGER, item TEXT, right INTEGER, "
    "  rated INTEGER, t INTEGER, themes TEXT, box INTEGER, streak INTEGER, due_ms INTEGER);"
    "CREATE INDEX IF NOT EXISTS attempts_learner ON attempts(learner, t);"
    "CREATE TABLE IF NOT EXISTS item_ratings(kind INTEGER, item TEXT, rating REAL, rd REAL, "
    "  vol REAL, PRIMARY KEY(kind, item)) WITHOUT ROWID;";

/* The log's rows not yet in the events table, by game: the writer's own (it adds a commit's
 * rows once the commit returned and drops a game's once their copy is committed), read by
 * srv_store_each_event under the store's idx_mu.  A read-only store holds the whole log here,
 * read at open. */
typedef struct log_game {
  char id[SRV_GAME_ID_LEN + 1];
  uint64_t first; /* the log id of its oldest row here */
  srv_event_row *rows;
  uint32_t n, cap;
  struct log_game *next; /* in its bucket */
} log_game;

/* The log is kept at most this many rows behind (and at least LOG_MIN_ROWS, or LOG_PER_GAME
 * rows for each game with rows in it, up to LOG_MAX_ROWS): a game's rows are copied to the
 * events table together, once the oldest of them is that far behind, so a copy writes a page
 * of the events table for many moves of the game instead of one. */
#define LOG_MIN_ROWS 16384
#define LOG_PER_GAME 16
#define LOG_MAX_ROWS 262144

struct srv_store {
  sqlite3 *db; /* the writer's */
  sqlite3 *rd; /* reads, from the caller's thread */
  sqlite3_stmt *st[ST_COUNT];
  pthread_t writer;
  /* the checkpointer: its own connection and thread, so that copying the WAL into the database
   * (and syncing it) does not hold up the commits behind it */
  sqlite3 *ck;
  pthread_t ckpt;
  pthread_mutex_t ck_mu;
  pthread_cond_t ck_cv;
  int ck_running, ck_want, ck_stop;
  pthread_mutex_t mu;
  pthread_cond_t work, done;
  op *queue;
  size_t n, cap;
  int closing;
  int held;    /* srv_store_hold */
  int waiting; /* the writer waits for work */
  uint64_t next_ticket;
  _Atomic uint64_t durable;
  _Atomic uint64_t failures;
  _Atomic int broken;              /* a failure the caller has not dealt with */
  uint64_t failed_from, failed_to; /* the tickets failed since the last recovery (under mu) */
  int readonly;                    /* srv_store_open_read: no writer */
  int lock_fd;
  void (*wake)(void *ctx);
  void *wake_ctx;
  /* the log (events_log): the ids given, the lowest still there, the games with rows in it in
   * a hash table (its structure and rows changed under idx_mu) and in the order their oldest
   * row came (fifo) */
  uint64_t log_next, log_floor;
  pthread_mutex_t idx_mu;
  log_game **idx;
  size_t idx_cap, idx_count, idx_rows;
  log_game **fifo;
  size_t fifo_head, fifo_len, fifo_cap;
  int idx_incomplete; /* a row could not be indexed (no memory): reads look in the log itself */
  _Atomic uint64_t log_fixed; /* 0, or how far behind the log is kept (tests) */
};

/* ---- the log's index ---- */

static size_t idx_bucket(const srv_store *s, const char *id) {
  return (size_t)(srv_strhash(id) & (s->idx_cap - 1));
}

static log_game *idx_find(const srv_store *s, const char *id) {
  if (!s->idx_cap) return NULL;
  for (log_game *g = s->idx[idx_bucket(s, id)]; g; g = g->next)
    if (!strcmp(g->id, id)) return g;
  return NULL;
}

/* The game's entry, made if new (and put at the fifo's end); NULL without memory. */
static log_game *idx_add(srv_store *s, const char *id, uint64_t first) {
  log_game *g = idx_find(s, id);
  if (g) return g;
  if (s->idx_count + 1 > s->idx_cap) {
    size_t cap = s->idx_cap ? 2 * s->idx_cap : 1024;
    log_game **b = calloc(cap, sizeof *b);
    if (!b) return NULL;
    log_game **old = s->idx;
    size_t ocap = s->idx_cap;
    s->idx = b;
    s->idx_cap = cap;
    for (size_t i = 0; i < ocap; i++)
      for (log_game *e = old[i], *next; e; e = next) {
        next = e->next;
        size_t k = idx_bucket(s, e->id);
        e->next = b[k];
        b[k] = e;
      }
    free(old);
  }
  if (s->fifo_len == s->fifo_cap) {
    size_t cap = s->fifo_cap ? 2 * s->fifo_cap : 1024;
    log_game **f = malloc(cap * sizeof *f);
    if (!f) return NULL;
    for (size_t i = 0; i < s->fifo_len; i++)
      f[i] = s->fifo[(s->fifo_head + i) % s->fifo_cap];
    free(s->fifo);
    s->fifo = f;
    s->fifo_cap = cap;
    s->fifo_head = 0;
  }
  if (!(g = calloc(1, sizeof *g))) return NULL;
  snprintf(g->id, sizeof g->id, "%s", id);
  g->first = first;
  size_t k = idx_bucket(s, id);
  g->next = s->idx[k];
  s->idx[k] = g;
  s->idx_count++;
  s->fifo[(s->fifo_head + s->fifo_len++) % s->fifo_cap] = g;
  return g;
}

static int idx_append(srv_store *s, const srv_event_row *row, uint64_t log_id) {
  log_game *g = idx_add(s, row->game, log_id);
  if (!g) return -1;
  if (g->n == g->cap) {
    uint32_t cap = g->cap ? 2 * g->cap : 16;
    srv_event_row *r = realloc(g->rows, cap * sizeof *r);
    if (!r) return -1;
    g->rows = r;
    g->cap = cap;
  }
  g->rows[g->n++] = *row;
  s->idx_rows++;
  return 0;
}

/* The oldest game of the fifo leaves (its rows are in the events table now). */
static void idx_pop(srv_store *s) {
  log_game *g = s->fifo[s->fifo_head];
  s->fifo_head = (s->fifo_head + 1) % s->fifo_cap;
  s->fifo_len--;
  for (log_game **p = &s->idx[idx_bucket(s, g->id)]; *p; p = &(*p)->next)
    if (*p == g) {
      *p = g->next;
      break;
    }
  s->idx_count--;
  s->idx_rows -= g->n;
  free(g->rows);
  free(g);
}

static void idx_clear(srv_store *s) {
  while (s->fifo_len)
    idx_pop(s);
}

/* How far behind the log is kept (LOG_MIN_ROWS above). */
static uint64_t log_keep(const srv_store *s) {
  uint64_t keep = (uint64_t)s->idx_count * LOG_PER_GAME, fixed = atomic_load(&s->log_fixed);
  return fixed                 ? fixed
         : keep < LOG_MIN_ROWS ? LOG_MIN_ROWS
         : keep > LOG_MAX_ROWS ? LOG_MAX_ROWS
                               : keep;
}

static int exec(sqlite3 *db, const char *sql) {
  return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s) {
  sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

static void col_text(sqlite3_stmt *st, int i, char *out, size_t size) {
  const unsigned char *t = sqlite3_column_text(st, i);
  snprintf(out, size, "%s", t ? (const char *)t : "");
}

/* An event from a row of (seq, t, kind, by, side, text, flags, lag_ms, reason, ms, setting,
 * client_id), from column 0 on. */
static void read_event(sqlite3_stmt *st, const char *id, srv_event_row *e) {
  memset(e, 0, sizeof *e);
  snprintf(e->game, sizeof e->game, "%s", id);
  e->seq = (uint32_t)sqlite3_column_int64(st, 0);
  e->t = sqlite3_column_int64(st, 1);
  const char *kind = (const char *)sqlite3_column_text(st, 2);
  arb_ref_kind k = ARB_REF_TICK;
  if (!kind || (strcmp(kind, "tick") && arb_ref_kind_parse(kind, strlen(kind), &k) != ARB_OK))
    k = ARB_REF_KIND_COUNT; /* unreadable: the replay refuses it */
  e->kind = (int)k;
  e->by = sqlite3_column_int(st, 3);
  e->side = sqlite3_column_int(st, 4);
  col_text(st, 5, e->text, sizeof e->text);
  e->flags = (unsigned)sqlite3_column_int64(st, 6);
  e->lag_ms = sqlite3_column_int64(st, 7);
  e->reason = sqlite3_column_int(st, 8);
  e->ms = sqlite3_column_int64(st, 9);
  e->set = sqlite3_column_int(st, 10);
  e->client_id = sqlite3_column_int64(st, 11);
}

#define EVENT_COLUMNS "seq, t, kind, by, side, text, flags, lag_ms, reason, ms, setting, client_id"

static int step(sqlite3_stmt *st) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
  return rc == SQLITE_DONE ? 0 : -1;
}

/* An event's columns, in the order both ST_EVENT and ST_LOG take them. */
static void bind_event(sqlite3_stmt *st, const srv_event_row *e) {
  sqlite3_bind_text(st, 1, e->game, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, e->seq);
  sqlite3_bind_int64(st, 3, e->t);
  sqlite3_bind_text(st, 4, arb_ref_kind_name((arb_ref_kind)e->kind), -1, SQLITE_STATIC);
  sqlite3_bind_int(st, 5, e->by);
  sqlite3_bind_int(st, 6, e->side);
  sqlite3_bind_text(st, 7, e->text, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 8, e->flags);
  sqlite3_bind_int64(st, 9, e->lag_ms);
  sqlite3_bind_int(st, 10, e->reason);
  sqlite3_bind_int64(st, 11, e->ms);
  sqlite3_bind_int(st, 12, e->set);
  sqlite3_bind_int64(st, 13, e->client_id);
}

/* OP_EXPIRE: the games made before the time and never started go.  A game whose first events
 * are still only in the log (a commit before this one, or this one) has started. */
static int run_expire(srv_store *s, int64_t before, uint64_t batch_first) {
  sqlite3_stmt *st = s->st[ST_EXPIRE_LIST];
  sqlite3_bind_int64(st, 1, before);
  char(*ids)[SRV_GAME_ID_LEN + 1] = NULL;
  size_t n = 0, cap = 0;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      void *p = realloc(ids, cap * sizeof *ids);
      if (!p) break;
      ids = p;
    }
    col_text(st, 0, ids[n], sizeof ids[n]);
    n++;
  }
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
  int failed = rc != SQLITE_DONE;
  for (size_t i = 0; i < n && !failed; i++) {
    if (idx_find(s, ids[i])) continue;
    sqlite3_stmt *has = s->st[ST_LOG_HAS];
    sqlite3_bind_int64(has, 1, (sqlite3_int64)batch_first);
    sqlite3_bind_text(has, 2, ids[i], -1, SQLITE_STATIC);
    rc = sqlite3_step(has);
    sqlite3_reset(has);
    sqlite3_clear_bindings(has);
    if (rc == SQLITE_ROW) continue;
    if (rc != SQLITE_DONE) {
      failed = 1;
      break;
    }
    sqlite3_stmt *del = s->st[ST_EXPIRE_ONE];
    sqlite3_bind_text(del, 1, ids[i], -1, SQLITE_STATIC);
    failed = step(del) != 0;
  }
  free(ids);
  return failed ? -1 : 0;
}

/* One queued write, in the writer's transaction; an event goes to the log with the id given. */
static int run(srv_store *s, const op *o, uint64_t log_id, uint64_t batch_first) {
  sqlite3_stmt *st = NULL;
  switch (o->kind) {
  case OP_GAME: {
    const srv_game_row *g = &o->u.game;
    st = s->st[ST_GAME];
    bind_text(st, 1, g->id);
    sqlite3_bind_int64(st, 2, g->created_ms);
    sqlite3_bind_blob(st, 3, g->hash[0], SRV_SHA256_BYTES, SQLITE_TRANSIENT);
    sqlite3_bind_blob(st, 4, g->hash[1], SRV_SHA256_BYTES, SQLITE_TRANSIENT);
    bind_text(st, 5, g->rules);
    bind_text(st, 6, g->control);
    bind_text(st, 7, g->fen);
    sqlite3_bind_int(st, 8, g->chess960);
    sqlite3_bind_int(st, 9, g->lag_compensation);
    sqlite3_bind_int64(st, 10, g->first_move_ms);
    bind_text(st, 11, g->rematch_of);
    sqlite3_bind_int(st, 12, g->computer);
    sqlite3_bind_int(st, 13, g->level);
    break;
  }
  case OP_EVENT:
    st = s->st[ST_LOG];
    bind_event(st, &o->u.event);
    sqlite3_bind_int64(st, 14, (sqlite3_int64)log_id);
    break;
  case OP_END:
    st = s->st[ST_END];
    bind_text(st, 1, o->u.end.result);
    bind_text(st, 2, o->u.end.termination);
    sqlite3_bind_int64(st, 3, o->u.end.ended_ms);
    bind_text(st, 4, o->u.end.id);
    break;
  case OP_REMATCH:
    st = s->st[ST_REMATCH];
    bind_text(st, 1, o->u.rematch.rematch);
    sqlite3_bind_blob(st, 2, o->u.rematch.mask, sizeof o->u.rematch.mask, SQLITE_TRANSIENT);
    bind_text(st, 3, o->u.rematch.id);
    break;
  case OP_NAME:
    st = s->st[ST_NAME];
    bind_text(st, 1, o->u.name.name);
    sqlite3_bind_int(st, 2, o->u.name.seat);
    bind_text(st, 3, o->u.name.id);
    break;
  case OP_HEARTBEAT:
    st = s->st[ST_HEARTBEAT];
    sqlite3_bind_int64(st, 1, o->u.heartbeat);
    break;
  case OP_EXPIRE: return run_expire(s, o->u.expire_before, batch_first);
  case OP_LEARNER: {
    const srv_learner_row *l = &o->u.learner;
    st = s->st[ST_LEARNER];
    sqlite3_bind_blob(st, 1, l->hash, SRV_SHA256_BYTES, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, l->created_ms);
    for (int k = 0; k < 2; k++) {
      sqlite3_bind_double(st, 3 + 3 * k, l->rating[k]);
      sqlite3_bind_double(st, 4 + 3 * k, l->rd[k]);
      sqlite3_bind_double(st, 5 + 3 * k, l->volatility[k]);
    }
    break;
  }
  case OP_ATTEMPT: {
    const srv_attempt_row *a = &o->u.attempt;
    st = s->st[ST_ATTEMPT];
    sqlite3_bind_blob(st, 1, a->learner, SRV_SHA256_BYTES, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, a->kind);
    bind_text(st, 3, a->item);
    sqlite3_bind_int(st, 4, a->right);
    sqlite3_bind_int(st, 5, a->rated);
    sqlite3_bind_int64(st, 6, a->t);
    bind_text(st, 7, a->themes);
    sqlite3_bind_int(st, 8, a->box);
    sqlite3_bind_int(st, 9, a->streak);
    sqlite3_bind_int64(st, 10, a->due_ms);
    if (a->item_rated) { /* the item's new rating, in the same transaction */
      int rc = step(st);
      if (rc) return rc;
      st = s->st[ST_ITEM];
      sqlite3_bind_int(st, 1, a->kind);
      bind_text(st, 2, a->item);
      sqlite3_bind_double(st, 3, a->item_rating);
      sqlite3_bind_double(st, 4, a->item_rd);
      sqlite3_bind_double(st, 5, a->item_vol);
    }
    break;
  }
  default: return -1;
  }
  return step(st);
}

/* The games whose oldest row in the log is more than log_keep() behind `next`, from the fifo's
 * head: their rows are written to the events table (in the writer's transaction).  How many
 * games, -1 on a failure. */
static long copy_old(srv_store *s, uint64_t next) {
  uint64_t keep = log_keep(s);
  size_t k = 0;
  for (; k < s->fifo_len; k++) {
    const log_game *g = s->fifo[(s->fifo_head + k) % s->fifo_cap];
    if (g->first + keep > next) break;
    for (uint32_t i = 0; i < g->n; i++) {
      bind_event(s->st[ST_EVENT], &g->rows[i]);
      if (step(s->st[ST_EVENT])) return -1;
    }
  }
  return (long)k;
}

/* Every row of the log into the events table and out of the log, in one transaction (at open,
 * when idle, at close).  0, or -1 (rolled back: the log is as it was). */
static int compact_all(srv_store *s) {
  if (exec(s->db, "BEGIN IMMEDIATE")) return -1;
  if (exec(s->db,
           "INSERT OR REPLACE INTO events SELECT game, seq, t, kind, by, side, text, "
           "flags, lag_ms, reason, ms, setting, client_id FROM events_log ORDER BY game, seq") ||
      exec(s->db, "DELETE FROM events_log") || exec(s->db, "COMMIT")) {
    exec(s->db, "ROLLBACK");
    return -1;
  }
  pthread_mutex_lock(&s->idx_mu);
  idx_clear(s);
  s->idx_incomplete = 0;
  s->log_floor = s->log_next;
  pthread_mutex_unlock(&s->idx_mu);
  return 0;
}

/* The WAL holds this many pages after a commit: a checkpoint is due (SQLite's own default). */
#define CHECKPOINT_PAGES 1000

/* After each commit of the writer (its thread): the checkpointer is woken when the WAL is long.
 * (In place of SQLite's automatic checkpoint, which the committing thread would run.) */
static int wal_grew(void *ctx, sqlite3 *db, const char *name, int pages) {
  srv_store *s = ctx;
  (void)db, (void)name;
  if (pages < CHECKPOINT_PAGES) return SQLITE_OK;
  pthread_mutex_lock(&s->ck_mu);
  s->ck_want = 1;
  pthread_cond_signal(&s->ck_cv);
  pthread_mutex_unlock(&s->ck_mu);
  return SQLITE_OK;
}

static void *checkpointer_main(void *arg) {
  srv_store *s = arg;
  pthread_mutex_lock(&s->ck_mu);
  for (;;) {
    while (!s->ck_want && !s->ck_stop)
      pthread_cond_wait(&s->ck_cv, &s->ck_mu);
    if (s->ck_stop) break;
    s->ck_want = 0;
    pthread_mutex_unlock(&s->ck_mu);
    /* as much as no reader still needs, without waiting for the writer: it goes on meanwhile */
    sqlite3_wal_checkpoint_v2(s->ck, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    pthread_mutex_lock(&s->ck_mu);
  }
  pthread_mutex_unlock(&s->ck_mu);
  return NULL;
}

/* Stops the checkpointer (the writer's commits no longer wake it). */
static void checkpointer_stop(srv_store *s) {
  if (!s->ck_running) return;
  sqlite3_wal_hook(s->db, NULL, NULL);
  sqlite3_wal_autocheckpoint(s->db, CHECKPOINT_PAGES);
  pthread_mutex_lock(&s->ck_mu);
  s->ck_stop = 1;
  pthread_cond_signal(&s->ck_cv);
  pthread_mutex_unlock(&s->ck_mu);
  pthread_join(s->ckpt, NULL);
  s->ck_running = 0;
}

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static void *writer_main(void *arg) {
  srv_store *s = arg;
  op *batch = NULL;
  size_t bcap = 0;
  time_t last_checkpoint = time(NULL);
  int dirty = 0;
  for (;;) {
    pthread_mutex_lock(&s->mu);
    while ((!s->n || s->held) && !s->closing) {
      struct timespec until;
      clock_gettime(CLOCK_REALTIME, &until);
      until.tv_sec += 1;
      s->waiting = 1;
      pthread_cond_timedwait(&s->work, &s->mu, &until);
      s->waiting = 0;
      if (!s->n && dirty && time(NULL) - last_checkpoint >= 5) break;
    }
    if (!s->n && s->closing) {
      pthread_mutex_unlock(&s->mu);
      break;
    }
    /* take everything queued: the next transaction */
    op *q = s->queue;
    size_t n = s->n, qcap = s->cap;
    s->queue = batch;
    s->cap = bcap;
    s->n = 0;
    batch = q;
    bcap = qcap;
    pthread_mutex_unlock(&s->mu);
    if (!n) { /* idle: the log into the events table, and the WAL kept short */
      if (s->idx_count || s->idx_incomplete) compact_all(s);
      exec(s->db, "PRAGMA wal_checkpoint(TRUNCATE)");
      last_checkpoint = time(NULL);
      dirty = 0;
      continue;
    }
    if (s->idx_incomplete) compact_all(s); /* a row the index lost: the log is emptied first */
    /* the batch's events go to the log with the next ids; the games whose rows in the log are
     * old enough are copied to the events table; the log keeps what is not copied */
    int ok = 0;
    uint64_t first = s->log_next, next = first, floor = s->log_floor;
    long copied = 0;
    for (long delay = 50; !atomic_load(&s->broken); delay *= 2) {
      ok = step(s->st[ST_BEGIN]) == 0;
      next = first;
      for (size_t i = 0; ok && i < n; i++) {
        ok = run(s, &batch[i], next, first) == 0;
        next += batch[i].kind == OP_EVENT;
      }
      if (ok) ok = (copied = copy_old(s, next)) >= 0;
      if (ok) {
        floor = (size_t)copied < s->fifo_len
                    ? s->fifo[(s->fifo_head + (size_t)copied) % s->fifo_cap]->first
                    : next;
        if (next > first && first < floor) floor = first;
        if (floor > s->log_floor && !s->idx_incomplete) {
          sqlite3_bind_int64(s->st[ST_LOG_TRIM], 1, (sqlite3_int64)floor);
          ok = step(s->st[ST_LOG_TRIM]) == 0;
        }
      }
      if (ok && step(s->st[ST_COMMIT]) == 0) break;
      ok = 0;
      fprintf(stderr, "arbiter serve: commit of %zu writes failed (%s)%s\n", n,
              sqlite3_errmsg(s->db), delay < 400 ? "; retrying" : "; given up: not stored");
      exec(s->db, "ROLLBACK");
      atomic_fetch_add(&s->failures, 1);
      if (delay >= 400) break;
      sleep_ms(delay);
    }
    dirty = 1;
    if (ok) { /* committed: the index follows */
      pthread_mutex_lock(&s->idx_mu);
      for (long k = 0; k < copied; k++)
        idx_pop(s);
      uint64_t id = first;
      for (size_t i = 0; i < n; i++)
        if (batch[i].kind == OP_EVENT && idx_append(s, &batch[i].u.event, id++))
          s->idx_incomplete = 1;
      s->log_next = next;
      if (floor > s->log_floor) s->log_floor = floor;
      pthread_mutex_unlock(&s->idx_mu);
    }
    pthread_mutex_lock(&s->mu);
    if (!ok) { /* this batch, and every one until the caller recovers, is failed */
      if (!atomic_load(&s->broken)) s->failed_from = batch[0].ticket;
      s->failed_to = batch[n - 1].ticket;
      atomic_store(&s->broken, 1);
    }
    atomic_store(&s->durable, batch[n - 1].ticket);
    pthread_cond_broadcast(&s->done);
    pthread_mutex_unlock(&s->mu);
    if (s->wake) s->wake(s->wake_ctx);
  }
  free(batch);
  return NULL;
}

static int query_int(sqlite3 *db, const char *sql, long long *out) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return -1;
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) *out = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return rc == SQLITE_ROW ? 0 : -1;
}

/* PRAGMA quick_check's first line into out: "ok" when the file is whole. */
static void quick_check(sqlite3 *db, char *out, size_t size) {
  sqlite3_stmt *st;
  snprintf(out, size, "it cannot be read");
  if (sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &st, NULL) != SQLITE_OK) return;
  if (sqlite3_step(st) == SQLITE_ROW) {
    const unsigned char *t = sqlite3_column_text(st, 0);
    snprintf(out, size, "%s", t ? (const char *)t : "");
  }
  sqlite3_finalize(st);
}

static void store_free(srv_store *s) {
  checkpointer_stop(s);
  sqlite3_close(s->ck);
  pthread_mutex_destroy(&s->ck_mu);
  pthread_cond_destroy(&s->ck_cv);
  idx_clear(s);
  free(s->idx);
  free(s->fifo);
  pthread_mutex_destroy(&s->idx_mu);
  for (int i = 0; i < ST_COUNT; i++)
    sqlite3_finalize(s->st[i]);
  sqlite3_close(s->rd);
  sqlite3_close(s->db);
  if (s->lock_fd >= 0) close(s->lock_fd);
  free(s->queue);
  free(s);
}

/* The file is an Arbiter database or nothing yet: 0, else -1 with the reason. */
static int is_ours(sqlite3 *db, const char *path, char *err, size_t err_size) {
  long long id = 0, tables = 0, games = 0;
  if (query_int(db, "PRAGMA application_id", &id) ||
      query_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'", &tables) ||
      query_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'games'",
                &games)) {
    snprintf(err, err_size, "%s: not a database (%s)", path, sqlite3_errmsg(db));
    return -1;
  }
  if (id == ARB_APPLICATION_ID || (id == 0 && (games || !tables))) return 0;
  snprintf(err, err_size,
           "%s is a database of another program, not Arbiter's: name another file with --db", path);
  return -1;
}

srv_store *srv_store_open(const char *path, char *err, size_t err_size) {
  srv_store *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(err, err_size, "out of memory");
    return NULL;
  }
  s->lock_fd = -1;
  pthread_mutex_init(&s->idx_mu, NULL);
  pthread_mutex_init(&s->ck_mu, NULL);
  pthread_cond_init(&s->ck_cv, NULL);
  s->log_next = s->log_floor = 1;
  struct stat st;
  int existed = stat(path, &st) == 0;
  if (existed && !S_ISREG(st.st_mode)) {
    snprintf(err, err_size, "%s is not a file", path);
    goto refuse;
  }
  if (existed && st.st_size == 0) {
    snprintf(err, err_size,
             "%s is an empty file, not a database (was it cut short?): remove it to start a new "
             "one, or name another file with --db",
             path);
    goto refuse;
  }
  /* one server per database: the second finds the lock held */
  char lock[4096];
  snprintf(lock, sizeof lock, "%s.lock", path);
  s->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (s->lock_fd < 0) {
    snprintf(err, err_size,
             "%s cannot be written: its lock file %s cannot be made (%s); it is refused, as no "
             "move could be stored",
             path, lock, strerror(errno));
    goto refuse;
  }
  if (flock(s->lock_fd, LOCK_EX | LOCK_NB)) {
    char pid[32] = "";
    ssize_t n = pread(s->lock_fd, pid, sizeof pid - 1, 0);
    pid[n > 0 ? n : 0] = 0;
    pid[strcspn(pid, "\n")] = 0;
    snprintf(err, err_size,
             "%s is in use by another arbiter serve%s%s (its lock %s is held): one server per "
             "database",
             path, pid[0] ? ", process " : "", pid, lock);
    goto refuse;
  }
  char pid[32];
  int pn = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
  if (ftruncate(s->lock_fd, 0) == 0 && pwrite(s->lock_fd, pid, (size_t)pn, 0) < 0) {
    /* the pid is only for the message above */
  }
  const char *what = "open";
  if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | NOMUTEX, NULL) !=
      SQLITE_OK)
    goto fail;
  sqlite3_busy_timeout(s->db, 5000);
  if (is_ours(s->db, path, err, err_size)) goto refuse;
  if (sqlite3_db_readonly(s->db, "main") == 1) {
    snprintf(err, err_size,
             "%s cannot be written (read-only file or folder): it is refused, as no "
             "move could be stored",
             path);
    goto refuse;
  }
  if (existed) {
    char check[256];
    quick_check(s->db, check, sizeof check);
    if (strcmp(check, "ok")) {
      snprintf(err, err_size,
               "%s is damaged (SQLite's integrity check: %s): restore it from a backup, or "
               "recover it with `sqlite3 %s .recover`",
               path, check, path);
      goto refuse;
    }
  }
  what = "set up";
  if (exec(s->db, "PRAGMA journal_mode=WAL") || exec(s->db, "PRAGMA synchronous=FULL") ||
      exec(s->db, "PRAGMA foreign_keys=ON") || exec(s->db, schema))
    goto fail;
  /* databases made before the rematch masks: the column is added */
  {
    sqlite3_stmt *probe = NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT rematch_masks FROM games LIMIT 0", -1, &probe, NULL) !=
            SQLITE_OK &&
        exec(s->db, "ALTER TABLE games ADD COLUMN rematch_masks BLOB"))
      goto fail;
    sqlite3_finalize(probe);
  }
  /* ... and before the computer opponent and the players' names */
  {
    sqlite3_stmt *probe = NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT computer FROM games LIMIT 0", -1, &probe, NULL) !=
            SQLITE_OK &&
        (exec(s->db, "ALTER TABLE games ADD COLUMN computer INTEGER NOT NULL DEFAULT 0") ||
         exec(s->db, "ALTER TABLE games ADD COLUMN level INTEGER NOT NULL DEFAULT 0") ||
         exec(s->db, "ALTER TABLE games ADD COLUMN white_name TEXT NOT NULL DEFAULT ''") ||
         exec(s->db, "ALTER TABLE games ADD COLUMN black_name TEXT NOT NULL DEFAULT ''")))
      goto fail;
    sqlite3_finalize(probe);
  }
  what = "write to";
  {
    char sql[128];
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d", ARB_APPLICATION_ID);
    if (exec(s->db, "BEGIN IMMEDIATE") || exec(s->db, sql) ||
        exec(s->db, "INSERT OR REPLACE INTO meta(key, value) VALUES('opened', "
                    "CAST(strftime('%s', 'now') AS INTEGER))") ||
        exec(s->db, "COMMIT"))
      goto fail;
  }
  what = "prepare";
  for (int i = 0; i < ST_COUNT; i++)
    if (sqlite3_prepare_v2(s->db, st_sql[i], -1, &s->st[i], NULL) != SQLITE_OK) goto fail;
  /* what the log holds after a crash goes to the events table first: the log starts empty */
  what = "write to";
  if (compact_all(s)) goto fail;
  /* a cache for the events table's pages the writer copies to (one a game) and the log's */
  exec(s->db, "PRAGMA cache_size = -16384");
  what = "open for reading";
  if (sqlite3_open_v2(path, &s->rd, SQLITE_OPEN_READONLY | NOMUTEX, NULL) != SQLITE_OK) goto fail;
  sqlite3_busy_timeout(s->rd, 5000);
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->work, NULL);
  pthread_cond_init(&s->done, NULL);
  /* the checkpointer (without it, SQLite's automatic checkpoint in the writer's commits) */
  if (sqlite3_open_v2(path, &s->ck, SQLITE_OPEN_READWRITE | NOMUTEX, NULL) == SQLITE_OK &&
      exec(s->ck, "PRAGMA synchronous=FULL") == 0) {
    sqlite3_busy_timeout(s->ck, 5000);
    if (pthread_create(&s->ckpt, NULL, checkpointer_main, s) == 0) {
      s->ck_running = 1;
      sqlite3_wal_hook(s->db, wal_grew, s);
    }
  }
  if (pthread_create(&s->writer, NULL, writer_main, s) != 0) {
    what = "start the writer";
    goto fail;
  }
  return s;
fail:
  snprintf(err, err_size, "%s: cannot %s the database: %s", path, what,
           s->db ? sqlite3_errmsg(s->db) : "out of memory");
refuse:
  store_free(s);
  return NULL;
}

srv_store *srv_store_open_read(const char *path, char *err, size_t err_size) {
  srv_store *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(err, err_size, "out of memory");
    return NULL;
  }
  s->lock_fd = -1;
  pthread_mutex_init(&s->idx_mu, NULL);
  pthread_mutex_init(&s->ck_mu, NULL);
  pthread_cond_init(&s->ck_cv, NULL);
  s->readonly = 1;
  if (sqlite3_open_v2(path, &s->rd, SQLITE_OPEN_READONLY | NOMUTEX, NULL) != SQLITE_OK ||
      is_ours(s->rd, path, err, err_size)) {
    if (s->rd && !err[0])
      snprintf(err, err_size, "%s: cannot open the database: %s", path, sqlite3_errmsg(s->rd));
    store_free(s);
    return NULL;
  }
  sqlite3_busy_timeout(s->rd, 5000);
  /* the log as it is now (beside a running server, or left by a crash): indexed in memory, so
   * that each game's events are the table's and then the log's */
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(s->rd, "SELECT " EVENT_COLUMNS ", game, id FROM events_log ORDER BY id",
                         -1, &st, NULL) == SQLITE_OK) {
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      char game[SRV_GAME_ID_LEN + 1];
      srv_event_row e;
      col_text(st, 12, game, sizeof game);
      read_event(st, game, &e);
      if (idx_append(s, &e, (uint64_t)sqlite3_column_int64(st, 13))) rc = SQLITE_NOMEM;
      if (rc != SQLITE_ROW) break;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
      snprintf(err, err_size, "%s: cannot read the database's log: %s", path,
               rc == SQLITE_NOMEM ? "out of memory" : sqlite3_errmsg(s->rd));
      store_free(s);
      return NULL;
    }
  }
  return s;
}

void srv_store_close(srv_store *s) {
  if (!s) return;
  if (s->readonly) {
    store_free(s);
    return;
  }
  pthread_mutex_lock(&s->mu);
  s->closing = 1;
  pthread_cond_signal(&s->work);
  pthread_mutex_unlock(&s->mu);
  pthread_join(s->writer, NULL);
  checkpointer_stop(s);
  compact_all(s); /* a failure leaves the log to the next open */
  exec(s->db, "PRAGMA wal_checkpoint(TRUNCATE)");
  pthread_mutex_destroy(&s->mu);
  pthread_cond_destroy(&s->work);
  pthread_cond_destroy(&s->done);
  store_free(s);
}

void srv_store_set_log_keep(srv_store *s, uint32_t rows) { atomic_store(&s->log_fixed, rows); }

void srv_store_set_wake(srv_store *s, void (*wake)(void *ctx), void *ctx) {
  s->wake = wake;
  s->wake_ctx = ctx;
}

static uint64_t queue(srv_store *s, op *o) {
  pthread_mutex_lock(&s->mu);
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 256;
    op *q = realloc(s->queue, cap * sizeof *q);
    if (!q) {
      pthread_mutex_unlock(&s->mu);
      return 0;
    }
    s->queue = q;
    s->cap = cap;
  }
  o->ticket = ++s->next_ticket;
  s->queue[s->n++] = *o;
  if (s->waiting) pthread_cond_signal(&s->work);
  pthread_mutex_unlock(&s->mu);
  return o->ticket;
}

uint64_t srv_store_put_game(srv_store *s, const srv_game_row *row) {
  op o = {.kind = OP_GAME};
  o.u.game = *row;
  return queue(s, &o);
}

uint64_t srv_store_put_event(srv_store *s, const srv_event_row *row) {
  op o = {.kind = OP_EVENT};
  o.u.event = *row;
  return queue(s, &o);
}

uint64_t srv_store_end_game(srv_store *s, const char *id, const char *result,
                            const char *termination, int64_t ended_ms) {
  op o = {.kind = OP_END};
  snprintf(o.u.end.id, sizeof o.u.end.id, "%s", id);
  snprintf(o.u.end.result, sizeof o.u.end.result, "%s", result);
  snprintf(o.u.end.termination, sizeof o.u.end.termination, "%s", termination);
  o.u.end.ended_ms = ended_ms;
  return queue(s, &o);
}

uint64_t srv_store_set_rematch(srv_store *s, const char *id, const char *rematch_id,
                               const uint8_t mask[2][SRV_TOKEN_LEN]) {
  op o = {.kind = OP_REMATCH};
  snprintf(o.u.rematch.id, sizeof o.u.rematch.id, "%s", id);
  snprintf(o.u.rematch.rematch, sizeof o.u.rematch.rematch, "%s", rematch_id);
  memcpy(o.u.rematch.mask, mask, sizeof o.u.rematch.mask);
  return queue(s, &o);
}

uint64_t srv_store_set_name(srv_store *s, const char *id, int seat, const char *name) {
  op o = {.kind = OP_NAME};
  snprintf(o.u.name.id, sizeof o.u.name.id, "%s", id);
  o.u.name.seat = seat;
  snprintf(o.u.name.name, sizeof o.u.name.name, "%s", name);
  return queue(s, &o);
}

uint64_t srv_store_heartbeat(srv_store *s, int64_t server_ms) {
  op o = {.kind = OP_HEARTBEAT};
  o.u.heartbeat = server_ms;
  return queue(s, &o);
}

uint64_t srv_store_expire_unstarted(srv_store *s, int64_t created_before_ms) {
  op o = {.kind = OP_EXPIRE};
  o.u.expire_before = created_before_ms;
  return queue(s, &o);
}

uint64_t srv_store_put_learner(srv_store *s, const srv_learner_row *row) {
  op o = {.kind = OP_LEARNER};
  o.u.learner = *row;
  return queue(s, &o);
}

uint64_t srv_store_put_attempt(srv_store *s, const srv_attempt_row *row) {
  op o = {.kind = OP_ATTEMPT};
  o.u.attempt = *row;
  return queue(s, &o);
}

uint64_t srv_store_durable(srv_store *s) { return atomic_load(&s->durable); }

int srv_store_failed(srv_store *s, uint64_t ticket) {
  if (s->readonly) return 0;
  pthread_mutex_lock(&s->mu);
  int f = s->failed_to && ticket >= s->failed_from && ticket <= s->failed_to;
  pthread_mutex_unlock(&s->mu);
  return f;
}

int srv_store_broken(srv_store *s) { return atomic_load(&s->broken); }

void srv_store_recover(srv_store *s) {
  pthread_mutex_lock(&s->mu);
  atomic_store(&s->broken, 0);
  pthread_cond_signal(&s->work);
  pthread_mutex_unlock(&s->mu);
}

void srv_store_hold(srv_store *s, int hold) {
  pthread_mutex_lock(&s->mu);
  s->held = hold;
  pthread_cond_signal(&s->work);
  pthread_mutex_unlock(&s->mu);
}
uint64_t srv_store_failures(srv_store *s) { return atomic_load(&s->failures); }

uint64_t srv_store_last_ticket(srv_store *s) {
  pthread_mutex_lock(&s->mu);
  uint64_t t = s->next_ticket;
  pthread_mutex_unlock(&s->mu);
  return t;
}

void srv_store_flush(srv_store *s) {
  if (s->readonly) return;
  pthread_mutex_lock(&s->mu);
  uint64_t want = s->next_ticket;
  while (atomic_load(&s->durable) < want)
    pthread_cond_wait(&s->done, &s->mu);
  pthread_mutex_unlock(&s->mu);
}

int srv_store_flush_within(srv_store *s, int64_t ms) {
  if (s->readonly) return 0;
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += ms / 1000;
  until.tv_nsec += (ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
  pthread_mutex_lock(&s->mu);
  uint64_t want = s->next_ticket;
  int timed_out = 0;
  while (atomic_load(&s->durable) < want && !timed_out)
    timed_out = pthread_cond_timedwait(&s->done, &s->mu, &until) != 0;
  int ok = atomic_load(&s->durable) >= want && !atomic_load(&s->broken);
  pthread_mutex_unlock(&s->mu);
  return ok ? 0 : -1;
}

/* ---- reads ---- */

static void read_game(sqlite3_stmt *st, srv_game_row *g) {
  memset(g, 0, sizeof *g);
  col_text(st, 0, g->id, sizeof g->id);
  g->created_ms = sqlite3_column_int64(st, 1);
  for (int c = 0; c < 2; c++)
    if (sqlite3_column_bytes(st, 2 + c) == SRV_SHA256_BYTES)
      memcpy(g->hash[c], sqlite3_column_blob(st, 2 + c), SRV_SHA256_BYTES);
  col_text(st, 4, g->rules, sizeof g->rules);
  col_text(st, 5, g->control, sizeof g->control);
  col_text(st, 6, g->fen, sizeof g->fen);
  g->chess960 = sqlite3_column_int(st, 7);
  g->lag_compensation = sqlite3_column_int(st, 8);
  g->first_move_ms = sqlite3_column_int64(st, 9);
  col_text(st, 10, g->rematch_of, sizeof g->rematch_of);
  col_text(st, 11, g->rematch_id, sizeof g->rematch_id);
  g->over = sqlite3_column_int(st, 12);
  col_text(st, 13, g->result, sizeof g->result);
  col_text(st, 14, g->termination, sizeof g->termination);
  if (sqlite3_column_bytes(st, 15) == (int)sizeof g->rematch_mask) {
    memcpy(g->rematch_mask, sqlite3_column_blob(st, 15), sizeof g->rematch_mask);
    g->has_rematch_mask = 1;
  }
  g->computer = sqlite3_column_int(st, 16);
  g->level = sqlite3_column_int(st, 17);
  col_text(st, 18, g->name[0], sizeof g->name[0]);
  col_text(st, 19, g->name[1], sizeof g->name[1]);
}

#define GAME_COLUMNS                                                                               \
  "id, created_ms, white_hash, black_hash, rules, control, fen, chess960, lag_compensation, "      \
  "first_move_ms, rematch_of, rematch_id, over, result, termination, rematch_masks, computer, "    \
  "level, white_name, black_name"

/* Whether the log holds rows of this game. */
static int in_log(srv_store *s, const char *id) {
  pthread_mutex_lock(&s->idx_mu);
  int found = idx_find(s, id) != NULL, scan = s->idx_incomplete;
  pthread_mutex_unlock(&s->idx_mu);
  if (found || !scan) return found;
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(s->rd, "SELECT 1 FROM events_log WHERE game = ? LIMIT 1", -1, &st, NULL) !=
      SQLITE_OK)
    return 1; /* unknown: taken as started (kept) */
  bind_text(st, 1, id);
  found = sqlite3_step(st) != SQLITE_DONE;
  sqlite3_finalize(st);
  return found;
}

long srv_store_each_game(srv_store *s, srv_games_which which,
                         int (*fn)(void *ctx, const srv_game_row *row), void *ctx) {
  sqlite3_stmt *st;
  /* under way: not over, and started — events in the table, or only in the log so far */
  const char *sql = which == SRV_GAMES_UNDER_WAY
                        ? "SELECT " GAME_COLUMNS ", EXISTS (SELECT 1 FROM events WHERE events.game "
                          "= games.id) FROM games WHERE over = 0 ORDER BY created_ms"
                        : "SELECT " GAME_COLUMNS " FROM games ORDER BY created_ms";
  if (sqlite3_prepare_v2(s->rd, sql, -1, &st, NULL) != SQLITE_OK) return -1;
  long n = 0;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    srv_game_row g;
    read_game(st, &g);
    if (which == SRV_GAMES_UNDER_WAY && !sqlite3_column_int(st, 20) && !in_log(s, g.id)) continue;
    n++;
    if (fn(ctx, &g)) {
      rc = SQLITE_DONE;
      break;
    }
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? n : -1;
}

int srv_store_get_game(srv_store *s, const char *id, srv_game_row *row) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(s->rd, "SELECT " GAME_COLUMNS " FROM games WHERE id = ?", -1, &st, NULL) !=
      SQLITE_OK)
    return -1;
  bind_text(st, 1, id);
  int rc = sqlite3_step(st), found = rc == SQLITE_ROW;
  if (found) read_game(st, row);
  sqlite3_finalize(st);
  return found ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* Rows of a statement (EVENT_COLUMNS) appended to *rows; -1 on an error. */
static int read_events(sqlite3_stmt *st, const char *id, srv_event_row **rows, size_t *n) {
  size_t cap = *n;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (*n == cap) {
      cap = cap ? 2 * cap : 64;
      srv_event_row *r = realloc(*rows, cap * sizeof *r);
      if (!r) return -1;
      *rows = r;
    }
    read_event(st, id, &(*rows)[(*n)++]);
  }
  return rc == SQLITE_DONE ? 0 : -1;
}

/* A game's events: those in the events table, then those still only in the log.  The log's are
 * taken first (from the index, or from the log itself when the index is incomplete, in the
 * same read transaction): a row copied from the log to the table meanwhile is then in one or
 * the other (both: it is read once), never in neither — the table holds a game's first events
 * and the log the rest. */
long srv_store_each_event(srv_store *s, const char *id,
                          int (*fn)(void *ctx, const srv_event_row *row), void *ctx) {
  srv_event_row *tail = NULL;
  size_t ntail = 0;
  int scan, failed = 0;
  pthread_mutex_lock(&s->idx_mu);
  const log_game *g = idx_find(s, id);
  scan = s->idx_incomplete;
  if (g && g->n && !scan) {
    if ((tail = malloc(g->n * sizeof *tail))) {
      memcpy(tail, g->rows, g->n * sizeof *tail);
      ntail = g->n;
    } else {
      failed = 1;
    }
  }
  pthread_mutex_unlock(&s->idx_mu);
  sqlite3_stmt *st = NULL;
  int in_tx = scan && exec(s->rd, "BEGIN") == 0;
  if (scan && !in_tx) failed = 1;
  if (in_tx && !failed) {
    if (sqlite3_prepare_v2(s->rd,
                           "SELECT " EVENT_COLUMNS " FROM events_log WHERE game = ? ORDER BY seq",
                           -1, &st, NULL) != SQLITE_OK)
      failed = 1;
    else {
      bind_text(st, 1, id);
      failed = read_events(st, id, &tail, &ntail) != 0;
      sqlite3_finalize(st);
    }
  }
  long n = 0;
  int64_t last = -1;
  int stop = 0, rc = SQLITE_DONE;
  if (!failed &&
      sqlite3_prepare_v2(s->rd, "SELECT " EVENT_COLUMNS " FROM events WHERE game = ? ORDER BY seq",
                         -1, &st, NULL) == SQLITE_OK) {
    bind_text(st, 1, id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      srv_event_row e;
      read_event(st, id, &e);
      last = e.seq;
      n++;
      if (fn(ctx, &e)) {
        stop = 1;
        rc = SQLITE_DONE;
        break;
      }
    }
    sqlite3_finalize(st);
  } else {
    failed = 1;
  }
  if (in_tx) exec(s->rd, "COMMIT");
  for (size_t i = 0; i < ntail && !stop && !failed && rc == SQLITE_DONE; i++) {
    if ((int64_t)tail[i].seq <= last) continue;
    n++;
    stop = fn(ctx, &tail[i]) != 0;
  }
  free(tail);
  return failed || rc != SQLITE_DONE ? -1 : n;
}

int srv_store_get_learner(srv_store *s, const uint8_t hash[SRV_SHA256_BYTES],
                          srv_learner_row *row) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(s->rd,
                         "SELECT created_ms, puzzle_rating, puzzle_rd, puzzle_vol, quiz_rating, "
                         "quiz_rd, quiz_vol FROM learners WHERE hash = ?",
                         -1, &st, NULL) != SQLITE_OK)
    return -1;
  sqlite3_bind_blob(st, 1, hash, SRV_SHA256_BYTES, SQLITE_TRANSIENT);
  int rc = sqlite3_step(st), found = rc == SQLITE_ROW;
  if (found) {
    memcpy(row->hash, hash, SRV_SHA256_BYTES);
    row->created_ms = sqlite3_column_int64(st, 0);
    for (int k = 0; k < 2; k++) {
      row->rating[k] = sqlite3_column_double(st, 1 + 3 * k);
      row->rd[k] = sqlite3_column_double(st, 2 + 3 * k);
      row->volatility[k] = sqlite3_column_double(st, 3 + 3 * k);
    }
  }
  sqlite3_finalize(st);
  return found ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

long srv_store_each_attempt(srv_store *s, const uint8_t hash[SRV_SHA256_BYTES],
                            int (*fn)(void *ctx, const srv_attempt_row *row), void *ctx) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(s->rd,
                         "SELECT kind, item, right, rated, t, themes, box, streak, due_ms FROM "
                         "attempts WHERE learner = ? ORDER BY t, rowid",
                         -1, &st, NULL) != SQLITE_OK)
    return -1;
  sqlite3_bind_blob(st, 1, hash, SRV_SHA256_BYTES, SQLITE_TRANSIENT);
  long n = 0;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    srv_attempt_row a;
    memset(&a, 0, sizeof a);
    memcpy(a.learner, hash, SRV_SHA256_BYTES);
    a.kind = sqlite3_column_int(st, 0);
    col_text(st, 1, a.item, sizeof a.item);
    a.right = sqlite3_column_int(st, 2);
    a.rated = sqlite3_column_int(st, 3);
    a.t = sqlite3_column_int64(st, 4);
    col_text(st, 5, a.themes, sizeof a.themes);
    a.box = sqlite3_column_int(st, 6);
    a.streak = sqlite3_column_int(st, 7);
    a.due_ms = sqlite3_column_int64(st, 8);
    n++;
    if (fn(ctx, &a)) {
      rc = SQLITE_DONE;
      break;
    }
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? n : -1;
}

long srv_store_each_item_rating(srv_store *s,
                                int (*fn)(void *ctx, int kind, const char *item, double rating,
                                          double rd, double vol),
                                void *ctx) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(s->rd, "SELECT kind, item, rating, rd, vol FROM item_ratings", -1, &st,
                         NULL) != SQLITE_OK)
    return -1;
  long n = 0;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    char item[32];
    col_text(st, 1, item, sizeof item);
    n++;
    if (fn(ctx, sqlite3_column_int(st, 0), item, sqlite3_column_double(st, 2),
           sqlite3_column_double(st, 3), sqlite3_column_double(st, 4))) {
      rc = SQLITE_DONE;
      break;
    }
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? n : -1;
}

int64_t srv_store_last_heartbeat(srv_store *s) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(s->rd, "SELECT value FROM meta WHERE key = 'heartbeat'", -1, &st, NULL) !=
      SQLITE_OK)
    return 0;
  int64_t v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
  sqlite3_finalize(st);
  return v;
}
