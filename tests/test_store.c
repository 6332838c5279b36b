/* Arbiter — MIT licence, see LICENSE.
 *
 * test_store.c: the play server's store and its log (server/store_sqlite.c).  A commit appends
 * a game's events to the log; they are copied to the events table later, a game's together,
 * and trimmed from the log.  Whatever the split, every read gives a game's committed events
 * once each, in order: while the server runs, from a crash image of the files (read-only, and
 * reopened), and after a clean close.  A database made before the log (its schema written here
 * as that server wrote it) opens and reads as it was.  Expiry does not take a started game
 * whose events are only in the log.  The expected events are the ones the test put.
 */
#define _DEFAULT_SOURCE
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "store.h"
#include "test_util.h"

static char *temp_dir(void) {
  char *dir = strdup("/tmp/arbiter-store-XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
  return dir;
}

static char *path_in(const char *dir, const char *name) {
  char *p = malloc(strlen(dir) + strlen(name) + 2);
  sprintf(p, "%s/%s", dir, name);
  return p;
}

/* What the test puts: game g's event s has these fields. */
static void make_event(srv_event_row *e, const char *game, int g, uint32_t seq) {
  memset(e, 0, sizeof *e);
  snprintf(e->game, sizeof e->game, "%s", game);
  e->seq = seq;
  e->t = 1000000 + 1000 * (int64_t)seq + g;
  e->kind = seq == 0 ? ARB_REF_START : ARB_REF_MOVE;
  e->by = (int)(seq & 1);
  e->side = -1;
  snprintf(e->text, sizeof e->text, "%c%u", 'a' + g, seq);
  e->flags = seq % 3;
  e->lag_ms = seq % 7;
  e->reason = 0;
  e->ms = -(int64_t)seq;
  e->set = 0;
  e->client_id = 10 * (int64_t)seq + g;
}

static void make_game(srv_game_row *r, const char *id, int64_t created) {
  memset(r, 0, sizeof *r);
  snprintf(r->id, sizeof r->id, "%s", id);
  r->created_ms = created;
  strcpy(r->rules, "online");
  strcpy(r->control, "3m+2s");
  strcpy(r->fen, ARB_FEN_START);
}

typedef struct check {
  int g;
  uint32_t next;
  int bad;
} check;

static int check_one(void *ctx, const srv_event_row *e) {
  check *c = ctx;
  srv_event_row want;
  make_event(&want, e->game, c->g, c->next);
  if (e->seq != want.seq || e->t != want.t || e->kind != want.kind || e->by != want.by ||
      e->side != want.side || strcmp(e->text, want.text) || e->flags != want.flags ||
      e->lag_ms != want.lag_ms || e->ms != want.ms || e->client_id != want.client_id) {
    cr_log_error("game %s: event %u read as seq %u t %lld text %s", e->game, c->next, e->seq,
                 (long long)e->t, e->text);
    c->bad = 1;
    return 1;
  }
  c->next++;
  return 0;
}

#define GAMES 7
static const char *const ids[GAMES] = {"aaaaaaa1", "bbbbbbb2", "ccccccc3", "ddddddd4",
                                       "eeeeeee5", "fffffff6", "ggggggg7"};

/* Every game reads back as exactly its events 0 .. put[g]-1. */
static void expect_all(srv_store *s, const uint32_t put[GAMES], const char *when) {
  for (int g = 0; g < GAMES; g++) {
    check c = {g, 0, 0};
    long n = srv_store_each_event(s, ids[g], check_one, &c);
    cr_assert(!c.bad, "%s: game %s reads wrong", when, ids[g]);
    cr_assert_eq(n, (long)put[g], "%s: game %s: %ld events read, %u put", when, ids[g], n, put[g]);
    cr_assert_eq(c.next, put[g]);
  }
}

static long long count(const char *path, const char *sql) {
  sqlite3 *db;
  cr_assert_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
  sqlite3_stmt *st;
  cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s", sql);
  cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
  long long n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}

static void copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  cr_assert(in && out, "copy %s", from);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    cr_assert_eq(fwrite(buf, 1, n, out), n);
  fclose(in);
  cr_assert_eq(fclose(out), 0);
}

static int count_game(void *ctx, const srv_game_row *row) {
  (void)row;
  ++*(int *)ctx;
  return 0;
}

Test(store, the_log_and_the_table_read_as_one) {
  char *dir = temp_dir(), *path = path_in(dir, "games.db");
  char err[256];
  srv_store *s = srv_store_open(path, err, sizeof err);
  cr_assert_not_null(s, "%s", err);
  srv_store_set_log_keep(s, 50); /* copies and trims all the time */
  uint32_t put[GAMES] = {0};
  for (int g = 0; g < GAMES; g++) {
    srv_game_row r;
    make_game(&r, ids[g], 1000 + g);
    srv_store_put_game(s, &r);
  }
  uint64_t rng = 31;
  int copied_seen = 0, trimmed_seen = 0;
  for (int i = 1; i <= 1400; i++) {
    /* the games move at different rates: a slow one stays in the log longest */
    int g = (int)(test_rand(&rng) % 100);
    g = g < 40 ? 0 : g < 60 ? 1 : g < 75 ? 2 : g < 87 ? 3 : g < 95 ? 4 : g < 99 ? 5 : 6;
    srv_event_row e;
    make_event(&e, ids[g], g, put[g]++);
    cr_assert_gt(srv_store_put_event(s, &e), 0);
    if (test_rand(&rng) % 23 == 0 || i == 1400) { /* a commit: read everything back */
      srv_store_flush(s);
      expect_all(s, put, "running");
      long long table = count(path, "SELECT count(*) FROM events");
      long long log = count(path, "SELECT count(*) FROM events_log");
      copied_seen |= table > 0;
      trimmed_seen |= log < (long long)i; /* some rows left the log */
      cr_assert_geq(table + log, (long long)i, "every event is in one or the other");
    }
  }
  cr_assert(copied_seen, "rows were copied to the events table");
  cr_assert(trimmed_seen, "rows were trimmed from the log");
  cr_assert_gt(count(path, "SELECT count(*) FROM events_log"), 0, "the log holds the last rows");
  int n = 0;
  cr_assert_eq(srv_store_each_game(s, SRV_GAMES_UNDER_WAY, count_game, &n), GAMES,
               "every game started: its first event in the table or the log");
  srv_store_close(s);
  /* closed: the log is empty, the table holds everything */
  cr_assert_eq(count(path, "SELECT count(*) FROM events_log"), 0);
  cr_assert_eq(count(path, "SELECT count(*) FROM events"), 1400);
  s = srv_store_open(path, err, sizeof err);
  cr_assert_not_null(s, "%s", err);
  expect_all(s, put, "reopened");
  srv_store_close(s);
  free(path);
  free(dir);
}

Test(store, a_crash_image_reads_whole_and_reopens) {
  char *dir = temp_dir(), *path = path_in(dir, "games.db");
  char err[256];
  srv_store *s = srv_store_open(path, err, sizeof err);
  cr_assert_not_null(s, "%s", err);
  srv_store_set_log_keep(s, 40);
  uint32_t put[GAMES] = {0};
  for (int g = 0; g < GAMES; g++) {
    srv_game_row r;
    make_game(&r, ids[g], 1000 + g);
    srv_store_put_game(s, &r);
  }
  for (int i = 0; i < 700; i++) {
    int g = (i * 5 + i / 7) % GAMES;
    srv_event_row e;
    make_event(&e, ids[g], g, put[g]++);
    srv_store_put_event(s, &e);
    if (i % 50 == 49) srv_store_flush(s);
  }
  srv_store_flush(s);
  cr_assert_gt(count(path, "SELECT count(*) FROM events_log"), 0);
  /* the files as a kill -9 leaves them: the database and its WAL, committed */
  char *crash = path_in(dir, "crash.db"), *wal = path_in(dir, "games.db-wal"),
       *crash_wal = path_in(dir, "crash.db-wal");
  copy_file(path, crash);
  copy_file(wal, crash_wal);
  srv_store_close(s);
  /* read only (arbiter serve --export beside a server, or after a crash): the log is read too */
  srv_store *r = srv_store_open_read(crash, err, sizeof err);
  cr_assert_not_null(r, "%s", err);
  expect_all(r, put, "read-only");
  srv_store_close(r);
  /* opened to serve: the log goes to the table first, and every game is there */
  s = srv_store_open(crash, err, sizeof err);
  cr_assert_not_null(s, "%s", err);
  cr_assert_eq(count(crash, "SELECT count(*) FROM events_log"), 0);
  expect_all(s, put, "after the crash");
  int n = 0;
  cr_assert_eq(srv_store_each_game(s, SRV_GAMES_UNDER_WAY, count_game, &n), GAMES);
  cr_assert_eq(n, GAMES);
  srv_store_close(s);
  free(crash);
  free(wal);
  free(crash_wal);
  free(path);
  free(dir);
}

/* The schema of the server before the log (commit 74eb362), as it wrote its files. */
static const char old_schema[] =
    "PRAGMA journal_mode=WAL;"
    "CREATE TABLE games(id TEXT PRIMARY KEY, created_ms INTEGER, white_hash BLOB, "
    "  black_hash BLOB, rules TEXT, control TEXT, fen TEXT, chess960 INTEGER, "
    "  lag_compensation INTEGER, first_move_ms INTEGER, rematch_of TEXT, rematch_id TEXT, "
    "  over INTEGER NOT NULL DEFAULT 0, result TEXT NOT NULL DEFAULT '*', "
    "  termination TEXT NOT NULL DEFAULT '', ended_ms INTEGER, rematch_masks BLOB, "
    "  computer INTEGER NOT NULL DEFAULT 0, level INTEGER NOT NULL DEFAULT 0, "
    "  white_name TEXT NOT NULL DEFAULT '', black_name TEXT NOT NULL DEFAULT '');"
    "CREATE INDEX games_over ON games(over, created_ms);"
    "CREATE TABLE events(game TEXT, seq INTEGER, t INTEGER, kind TEXT, by INTEGER,"
    "  side INTEGER, text TEXT, flags INTEGER, lag_ms INTEGER, reason INTEGER, ms INTEGER,"
    "  setting INTEGER, client_id INTEGER, PRIMARY KEY(game, seq)) WITHOUT ROWID;"
    "CREATE TABLE moves(game TEXT, ply INTEGER, uci TEXT, san TEXT, t INTEGER,"
    "  clock_ms INTEGER, elapsed_ms INTEGER, lag_ms INTEGER, comp_ms INTEGER, premove INTEGER,"
    "  PRIMARY KEY(game, ply)) WITHOUT ROWID;"
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value INTEGER);"
    "PRAGMA application_id = 1095909937;"
    "INSERT INTO meta VALUES('heartbeat', 7000);"
    "INSERT INTO games(id, created_ms, rules, control, fen) VALUES('aaaaaaa1', 1000, 'online',"
    "  '3m+2s', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');"
    "INSERT INTO moves VALUES('aaaaaaa1', 1, 'a1', 'Nf3', 1001000, 179000, 1000, 1, 0, 0);";

Test(store, a_database_made_before_the_log_opens_as_it_was) {
  char *dir = temp_dir(), *path = path_in(dir, "games.db");
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
  cr_assert_eq(sqlite3_exec(db, old_schema, NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
  uint32_t put[GAMES] = {0};
  for (; put[0] < 30; put[0]++) { /* its events, written as that server wrote them */
    srv_event_row e;
    make_event(&e, ids[0], 0, put[0]);
    char sql[512];
    snprintf(sql, sizeof sql,
             "INSERT INTO events VALUES('%s', %u, %lld, '%s', %d, %d, '%s', %u, %lld, %d, %lld, "
             "%d, %lld)",
             e.game, e.seq, (long long)e.t, arb_ref_kind_name((arb_ref_kind)e.kind), e.by, e.side,
             e.text, e.flags, (long long)e.lag_ms, e.reason, (long long)e.ms, e.set,
             (long long)e.client_id);
    cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
  }
  sqlite3_close(db);
  char err[256];
  srv_store *r = srv_store_open_read(path, err, sizeof err);
  cr_assert_not_null(r, "%s", err);
  expect_all(r, put, "read-only, before any open");
  srv_store_close(r);
  srv_store *s = srv_store_open(path, err, sizeof err);
  cr_assert_not_null(s, "%s", err);
  cr_assert_eq(srv_store_last_heartbeat(s), 7000);
  int n = 0;
  cr_assert_eq(srv_store_each_game(s, SRV_GAMES_UNDER_WAY, count_game, &n), 1);
  expect_all(s, put, "opened");
  srv_store_set_log_keep(s, 10);
  for (int i = 0; i < 45; i++) { /* and it goes on */
    srv_event_row e;
    make_event(&e, ids[0], 0, put[0]++);
    srv_store_put_event(s, &e);
    if (i % 4 == 3) srv_store_flush(s);
  }
  srv_store_flush(s);
  expect_all(s, put, "more events");
  srv_store_close(s);
  s = srv_store_open(path, err, sizeof err);
  cr_assert_not_null(s, "%s", err);
  expect_all(s, put, "reopened");
  srv_store_close(s);
  cr_assert_eq(count(path, "SELECT count(*) FROM moves"), 1, "its old moves are kept");
  free(path);
  free(dir);
}

Test(store, expiry_leaves_a_game_started_in_the_log) {
  char *dir = temp_dir(), *path = path_in(dir, "games.db");
  char err[256];
  srv_store *s = srv_store_open(path, err, sizeof err);
  cr_assert_not_null(s, "%s", err);
  srv_game_row r;
  for (int g = 0; g < 3; g++) {
    make_game(&r, ids[g], 1000 + g);
    srv_store_put_game(s, &r);
  }
  srv_event_row e;
  make_event(&e, ids[0], 0, 0); /* game 0 started in an earlier commit */
  srv_store_put_event(s, &e);
  srv_store_flush(s);
  make_event(&e, ids[1], 1, 0); /* game 1 in the same commit as the expiry */
  srv_store_hold(s, 1);
  srv_store_put_event(s, &e);
  srv_store_expire_unstarted(s, 5000);
  srv_store_hold(s, 0);
  srv_store_flush(s);
  cr_assert_eq(count(path, "SELECT count(*) FROM events"), 0, "the events are in the log only");
  srv_game_row back;
  cr_assert_eq(srv_store_get_game(s, ids[0], &back), 1, "started: kept");
  cr_assert_eq(srv_store_get_game(s, ids[1], &back), 1, "started: kept");
  cr_assert_eq(srv_store_get_game(s, ids[2], &back), 0, "never started: expired");
  srv_store_close(s);
  free(path);
  free(dir);
}
