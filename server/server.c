/* Arbiter — MIT licence, see LICENSE.
 *
 * server.c: the registry of games and what each connection's messages do — hello (seat by
 * token, spectators, the missed updates), the players' actions (handed to the game's referee),
 * rematches, settings; creating games and reading them over HTTP; loading and resuming
 * unfinished games after a restart; evicting finished ones; exporting PGN.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "strhash.h"

#define SRV_IDLE_EVICT_MS (10 * 60 * 1000)

static const char *color_name(int c) { return c == ARB_WHITE ? "white" : "black"; }

/* ---- the table ---- */

static size_t bucket_of(const srv_server *sv, const char *id) {
  return (size_t)(srv_strhash(id) & (sv->nbuckets - 1));
}

static srv_game *lookup(const srv_server *sv, const char *id) {
  for (srv_game *g = sv->buckets[bucket_of(sv, id)]; g; g = g->hnext)
    if (!strcmp(g->row.id, id)) return g;
  return NULL;
}

static void grow(srv_server *sv) {
  size_t n = sv->nbuckets * 2;
  srv_game **b = calloc(n, sizeof *b);
  if (!b) return;
  srv_game **old = sv->buckets;
  size_t on = sv->nbuckets;
  sv->buckets = b;
  sv->nbuckets = n;
  for (size_t i = 0; i < on; i++)
    for (srv_game *g = old[i], *next; g; g = next) {
      next = g->hnext;
      size_t k = bucket_of(sv, g->row.id);
      g->hnext = b[k];
      b[k] = g;
    }
  free(old);
}

static void insert(srv_server *sv, srv_game *g) {
  if (sv->ngames + 1 > sv->nbuckets) grow(sv);
  size_t k = bucket_of(sv, g->row.id);
  g->hnext = sv->buckets[k];
  sv->buckets[k] = g;
  sv->ngames++;
}

static void unlink_game(srv_server *sv, srv_game *g) {
  for (srv_game **p = &sv->buckets[bucket_of(sv, g->row.id)]; *p; p = &(*p)->hnext)
    if (*p == g) {
      *p = g->hnext;
      sv->ngames--;
      break;
    }
  for (srv_game **p = &sv->plist; *p; p = &(*p)->pnext)
    if (*p == g) {
      *p = g->pnext;
      break;
    }
}

srv_server *srv_server_new(const srv_config *cfg, const srv_io *io, srv_store *store) {
  srv_server *sv = calloc(1, sizeof *sv);
  if (!sv) return NULL;
  sv->cfg = *cfg;
  sv->io = *io;
  sv->store = store;
  sv->nbuckets = 1024;
  srv_rate_table_init(&sv->creates, cfg->create_per_minute / 60.0,
                      cfg->create_per_minute > 0 ? cfg->create_per_minute : 1, 65536);
  if (!(sv->buckets = calloc(sv->nbuckets, sizeof *sv->buckets))) {
    free(sv);
    return NULL;
  }
  return sv;
}

void srv_server_free(srv_server *sv) {
  if (!sv) return;
  for (size_t i = 0; i < sv->nbuckets; i++)
    for (srv_game *g = sv->buckets[i], *next; g; g = next) {
      next = g->hnext;
      srv_game_free(sv, g);
    }
  free(sv->buckets);
  srv_rate_table_free(&sv->creates);
  free(sv);
}

size_t srv_server_games(const srv_server *sv) { return sv->ngames; }

void **srv_game_timer_slot(srv_game *g) { return &g->timer; }

void srv_server_forget_timers(srv_server *sv) {
  for (size_t i = 0; i < sv->nbuckets; i++)
    for (srv_game *g = sv->buckets[i]; g; g = g->hnext)
      if (sv->io.forget) sv->io.forget(sv->io.ctx, g);
  /* shutting down: no timer is armed again, and the connections the server closes now are
   * not players leaving (seat_away) */
  sv->io.arm = NULL;
}

/* ---- loading ---- */

static int replay_one(void *ctx, const srv_event_row *e) {
  srv_game *g = ctx;
  if (srv_game_replay(g, e) == 0) return 0;
  fprintf(stderr,
          "arbiter serve: game %s: stored event %u (%s) does not replay; the game stops "
          "before it\n",
          g->row.id, e->seq, arb_ref_kind_name((arb_ref_kind)e->kind));
  return 1;
}

/* A game from the store, its events replayed; NULL if there is none. */
static srv_game *load(srv_server *sv, const srv_game_row *row, int64_t now) {
  srv_game *g = srv_game_new(sv, row);
  if (!g) {
    fprintf(stderr, "arbiter serve: game %s: the stored setup does not read\n", row->id);
    return NULL;
  }
  if (srv_store_each_event(sv->store, row->id, replay_one, g) < 0) {
    /* not shown as a game that never began: it is not served at all */
    fprintf(stderr, "arbiter serve: game %s: its events cannot be read (the database is damaged)\n",
            row->id);
    srv_game_free(sv, g);
    return NULL;
  }
  if (row->rematch_id[0]) g->rematch_offer = -1;
  g->idle_since_ms = now;
  insert(sv, g);
  return g;
}

/* The game with this id, in memory or loaded from the store. */
static srv_game *find(srv_server *sv, const char *id, int64_t now) {
  srv_game *g = lookup(sv, id);
  if (g) return g;
  srv_game_row row;
  if (srv_store_get_game(sv->store, id, &row) != 1) return NULL;
  return load(sv, &row, now);
}

srv_game *srv_server_lookup(const srv_server *sv, const char *id) { return lookup(sv, id); }
srv_game *srv_server_find(srv_server *sv, const char *id, int64_t now) { return find(sv, id, now); }

/* Time did something by itself (a flag, a first move not made): stored and broadcast. */
static void tick(srv_server *sv, srv_game *g, int64_t now) {
  if (!g->started) return;
  arb_ref_decision d;
  if (arb_referee_tick(g->ref, now, &d) != ARB_OK || !d.ended) return;
  arb_ref_event t = ARB_REF_EVENT_INIT(ARB_REF_TICK, now);
  srv_event_row r;
  memset(&r, 0, sizeof r);
  memcpy(r.game, g->row.id, sizeof r.game);
  r.seq = g->next_seq++;
  r.t = t.t;
  r.kind = ARB_REF_TICK;
  r.by = r.side = -1;
  r.client_id = -1;
  srv_store_put_event(sv->store, &r);
  arb_ref_state s = d.state;
  g->ended_stored = 1;
  srv_store_end_game(sv->store, g->row.id, arb_result_string(s.outcome.result),
                     arb_termination_name(s.outcome.termination), now);
  srv_event_info info = {ARB_REF_TICK, -1, s.flag_side, 0, 0, &d};
  srv_game_broadcast(sv, g, &info, NULL, -1);
  char words[192];
  srv_reason_words(g->ref, words, sizeof words);
  srv_game_log(sv, g, "v%llu over: %s", (unsigned long long)g->version, words);
}

typedef struct load_ctx {
  srv_server *sv;
  int64_t now, alive;
  long n;
} load_ctx;

static int resume_one(void *ctx, const srv_game_row *row) {
  load_ctx *c = ctx;
  srv_game *g = load(c->sv, row, c->now);
  if (!g) return 0;
  c->n++;
  arb_ref_state s;
  arb_referee_state_of(g->ref, &s);
  if (g->started && s.timed && !s.over) {
    /* Charged up to when the server was last known alive; the rest of the time it was down
     * is a pause, recorded like an arbiter's. */
    int64_t from = s.now > c->alive ? s.now : c->alive;
    if (from > c->now) from = c->now;
    tick(c->sv, g, from);
    arb_referee_state_of(g->ref, &s);
    if (!s.over) {
      arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_PAUSE, from);
      srv_game_apply(c->sv, g, &ev, NULL, -1);
      g->paused_at_load = 1; /* resumed once every game is loaded (srv_server_resume) */
    }
  }
  srv_game_rearm(c->sv, g);
  return 0;
}

long srv_server_load(srv_server *sv, int64_t now) {
  load_ctx c = {sv, now, srv_store_last_heartbeat(sv->store), 0};
  return srv_store_each_game(sv->store, SRV_GAMES_UNDER_WAY, resume_one, &c) < 0 ? -1 : c.n;
}

void srv_server_resume(srv_server *sv, int64_t now) {
  for (size_t i = 0; i < sv->nbuckets; i++)
    for (srv_game *g = sv->buckets[i]; g; g = g->hnext) {
      if (!g->paused_at_load) {
        srv_computer_turn(sv, g, now); /* an untimed game with the computer to move */
        continue;
      }
      g->paused_at_load = 0;
      arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_RESUME, now);
      srv_game_apply(sv, g, &ev, NULL, -1);
      srv_game_rearm(sv, g);
    }
}

/* ---- creating ---- */

/* lichess GameExt.timeForFirstMove, by the speed of the control (estimated base + 40 * inc). */
static int64_t first_move_limit(const arb_time_control *tc) {
  if (!tc || tc->kind != ARB_TC_PERIODS) return 0;
  int64_t est = tc->periods[0].time_ms / 1000 + 40 * (tc->periods[0].increment_ms / 1000);
  return est < 30 ? 15000 : est < 180 ? 20000 : est < 480 ? 25000 : est < 1500 ? 30000 : 35000;
}

/* A control a game can be played under: the first period long enough to make a move in, and
 * nothing beyond a day's time or an hour's increment or delay. */
static int check_control(const srv_server *sv, const arb_time_control *tc, char *msg, size_t size) {
  const arb_tc_period *p = &tc->periods[0];
  int64_t least = sv->cfg.min_time_ms;
  if (p->time_ms < least) {
    if (p->time_ms == 0 && (p->increment_ms || p->delay_ms))
      return snprintf(msg, size,
                      "\"control\": a clock that starts at 0 loses on the first move, whatever "
                      "its increment or delay; start it with at least %lld s (\"1+%lld\", say)",
                      (long long)(least + 999) / 1000,
                      (long long)((p->increment_ms ? p->increment_ms : p->delay_ms) / 1000)),
             -1;
    return snprintf(msg, size,
                    "\"control\": the clock must start with at least %lld s to make a move in",
                    (long long)(least + 999) / 1000),
           -1;
  }
  for (int i = 0; i < tc->nperiods; i++) {
    p = &tc->periods[i];
    if (p->time_ms > 24 * 3600 * 1000LL)
      return snprintf(msg, size, "\"control\": at most 24 hours a period"), -1;
    if (p->increment_ms > 3600 * 1000LL || p->delay_ms > 3600 * 1000LL)
      return snprintf(msg, size, "\"control\": an increment or delay of at most an hour"), -1;
  }
  return 0;
}

typedef struct create_req {
  srv_game_row row;
  int creator; /* the creator's seat */
  int open;    /* listed in the lobby for anyone to join */
} create_req;

static int read_create(srv_server *sv, json_t *j, int64_t now, create_req *c, char *msg,
                       size_t size) {
  srv_game_row *r = &c->row;
  memset(c, 0, sizeof *c);
  const char *rules = "online";
  json_t *v;
  if ((v = json_object_get(j, "rules"))) {
    arb_ruleset rs;
    if (!json_is_string(v) || arb_rules_parse(json_string_value(v), &rs) != ARB_OK)
      return snprintf(msg, size,
                      "\"rules\" must be online, fide, fide-rapid, fide-blitz, uscf "
                      "or casual"),
             -1;
    rules = json_string_value(v);
  }
  snprintf(r->rules, sizeof r->rules, "%s", rules);
  arb_time_control tc;
  int timed = 0;
  json_t *ctl = json_object_get(j, "control");
  arb_tc_syntax syntax = ARB_TC_AUTO;
  if (!ctl && (ctl = json_object_get(j, "timecontrol"))) syntax = ARB_TC_PGN;
  if (ctl && !json_is_null(ctl)) {
    arb_tc_report rep;
    if (!json_is_string(ctl) ||
        arb_tc_parse(json_string_value(ctl), json_string_length(ctl), syntax, &tc, &rep) != ARB_OK)
      return snprintf(msg, size, "\"control\": %s",
                      json_is_string(ctl) ? rep.message : "must be a string"),
             -1;
    timed = tc.kind == ARB_TC_PERIODS || tc.kind == ARB_TC_SANDCLOCK;
    if (timed && check_control(sv, &tc, msg, size)) return -1;
    if (timed &&
        arb_tc_write(&tc, ARB_TC_HUMAN, r->control, sizeof r->control) >= (int)sizeof r->control)
      return snprintf(msg, size, "\"control\" is too long"), -1;
    if (!timed) r->control[0] = 0;
  }
  json_t *c960 = json_object_get(j, "chess960"), *fen = json_object_get(j, "fen");
  if (c960 && !json_is_boolean(c960))
    return snprintf(msg, size, "\"chess960\" must be true or false"), -1;
  arb_position pos;
  if (fen && !json_is_null(fen)) {
    arb_fen_report rep;
    uint32_t mode = json_is_true(c960) ? ARB_FEN_READ_CHESS960 : 0;
    if (!json_is_string(fen) ||
        arb_fen_read_n(&pos, json_string_value(fen), json_string_length(fen), mode, &rep) != ARB_OK)
      return snprintf(msg, size, "\"fen\": %s",
                      json_is_string(fen) ? rep.message : "must be a string"),
             -1;
  } else if (json_is_true(c960)) {
    uint16_t n;
    if (srv_random(&n, sizeof n)) return snprintf(msg, size, "no randomness"), -1;
    arb_position_chess960(&pos, n % 960);
  } else {
    arb_fen_read(&pos, ARB_FEN_START, 0, NULL);
  }
  r->chess960 = pos.chess960;
  arb_fen_write(&pos, r->fen, sizeof r->fen, 0);
  int online = !strcmp(rules, "online");
  r->lag_compensation = online && sv->cfg.lag_compensation;
  if ((v = json_object_get(j, "lag_compensation"))) {
    if (!json_is_boolean(v))
      return snprintf(msg, size, "\"lag_compensation\" must be true or false"), -1;
    r->lag_compensation = json_is_true(v);
  }
  r->first_move_ms = online && timed ? first_move_limit(&tc) : 0;
  if ((v = json_object_get(j, "first_move_ms"))) {
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 86400000)
      return snprintf(msg, size, "\"first_move_ms\" must be milliseconds (0: no limit)"), -1;
    r->first_move_ms = (int64_t)json_integer_value(v);
  }
  const char *color = "random";
  if ((v = json_object_get(j, "color"))) {
    if (!json_is_string(v) ||
        (strcmp(json_string_value(v), "white") && strcmp(json_string_value(v), "black") &&
         strcmp(json_string_value(v), "random")))
      return snprintf(msg, size, "\"color\" must be white, black or random"), -1;
    color = json_string_value(v);
  }
  uint8_t coin = 0;
  if (!strcmp(color, "random") && srv_random(&coin, 1))
    return snprintf(msg, size, "no randomness"), -1;
  c->creator = !strcmp(color, "white") ? ARB_WHITE : !strcmp(color, "black") ? ARB_BLACK : coin & 1;
  if ((v = json_object_get(j, "opponent"))) {
    if (!json_is_string(v) ||
        (strcmp(json_string_value(v), "computer") && strcmp(json_string_value(v), "human")))
      return snprintf(msg, size, "\"opponent\" must be human or computer"), -1;
    if (!strcmp(json_string_value(v), "computer")) {
      json_t *lv = json_object_get(j, "level");
      int level = lv ? (int)json_integer_value(lv) : 1;
      if (lv && (!json_is_integer(lv) || level < 1 || level > 8))
        return snprintf(msg, size, "\"level\" must be 1 to 8"), -1;
      if (!sv->cfg.engine)
        return snprintf(msg, size,
                        "this server has no chess engine: install Stockfish (Debian: sudo apt "
                        "install stockfish) and start it again, or give one with arbiter serve "
                        "--engine PATH"),
               -2;
      r->computer = 1 + (c->creator ^ 1);
      r->level = level;
    }
  }
  if ((v = json_object_get(j, "open"))) {
    if (!json_is_boolean(v)) return snprintf(msg, size, "\"open\" must be true or false"), -1;
    if (json_is_true(v) && r->computer)
      return snprintf(msg, size, "a game against the computer is not an open game"), -1;
    c->open = json_is_true(v);
  }
  r->created_ms = now;
  return 0;
}

/* Makes the game (fresh id and tokens) and queues it to the store. */
static srv_game *make_game(srv_server *sv, srv_game_row *row, char tokens[2][SRV_TOKEN_LEN + 1]) {
  for (int tries = 0; tries < 8; tries++) {
    if (srv_new_game_id(row->id)) return NULL;
    if (!lookup(sv, row->id) && srv_store_get_game(sv->store, row->id, &(srv_game_row){0}) == 0)
      break;
    row->id[0] = 0;
  }
  if (!row->id[0]) return NULL;
  for (int c = 0; c < 2; c++) {
    if (srv_new_token(tokens[c])) return NULL;
    srv_token_hash(tokens[c], SRV_TOKEN_LEN, row->hash[c]);
  }
  srv_game *g = srv_game_new(sv, row);
  if (!g) return NULL;
  insert(sv, g);
  g->idle_since_ms = row->created_ms;
  /* a link handed out must still work after a crash: the answer waits for this write */
  if (!srv_store_put_game(sv->store, row)) {
    unlink_game(sv, g);
    srv_game_free(sv, g);
    return NULL;
  }
  return g;
}

int srv_server_create(srv_server *sv, const char *text, size_t len, int64_t now, const char *client,
                      char **body, uint64_t *ticket) {
  json_error_t jerr;
  *ticket = 0;
  if (sv->cfg.create_per_minute > 0 && !srv_rate_take(&sv->creates, client ? client : "", now)) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "this address has made %d games in the last minute, the most allowed: wait a "
             "moment",
             sv->cfg.create_per_minute);
    *body = srv_write_http_error("rate", msg);
    return 429;
  }
  json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  char msg[256];
  create_req c;
  if (!json_is_object(j)) {
    json_decref(j);
    *body =
        srv_write_http_error("bad_request", j ? "the request must be a JSON object" : jerr.text);
    return 400;
  }
  int rc = read_create(sv, j, now, &c, msg, sizeof msg);
  json_decref(j);
  if (rc) {
    *body = srv_write_http_error(rc == -2 ? "no_engine" : "bad_request", msg);
    return rc == -2 ? 503 : 400;
  }
  char tokens[2][SRV_TOKEN_LEN + 1];
  srv_game *g = make_game(sv, &c.row, tokens);
  if (!g) {
    *body = srv_write_http_error("no_resources", "the game could not be made");
    return 500;
  }
  if (c.open) {
    g->open = 1;
    g->open_seat = c.creator ^ 1;
    memcpy(g->open_token, tokens[c.creator ^ 1], sizeof g->open_token);
  }
  char url[2][64], spectator[32];
  for (int k = 0; k < 2; k++)
    snprintf(url[k], sizeof url[k], "/game/%s#%s", g->row.id, tokens[k]);
  snprintf(spectator, sizeof spectator, "/game/%s", g->row.id);
  json_t *a = json_object();
  json_object_set_new(a, "id", json_string(g->row.id));
  json_object_set_new(a, "rules", json_string(g->row.rules));
  json_object_set_new(a, "control", json_string(g->row.control));
  json_object_set_new(a, "fen", json_string(g->row.fen));
  json_object_set_new(a, "color", json_string(color_name(c.creator)));
  /* the computer's seat has no link: nobody can play for it */
  for (int k = 0; k < 2; k++)
    json_object_set_new(a, color_name(k),
                        g->row.computer == k + 1 ? json_null() : json_string(url[k]));
  json_object_set_new(a, "you", json_string(url[c.creator]));
  if (g->row.computer)
    json_object_set_new(a, "computer", json_pack("{s:i}", "level", g->row.level));
  else
    json_object_set_new(a, "opponent", json_string(url[c.creator ^ 1]));
  json_object_set_new(a, "spectator", json_string(spectator));
  *body = json_dumps(a, JSON_COMPACT);
  json_decref(a);
  *ticket = srv_store_last_ticket(sv->store);
  srv_game_log(sv, g, "created: %s, %s, %s", g->row.rules,
               g->row.control[0] ? g->row.control : "untimed", g->row.fen);
  return 201;
}

/* ---- HTTP reads ---- */

int srv_server_get(srv_server *sv, const char *path, int64_t now, char **body, const char **type) {
  static const char prefix[] = "/api/games/", hist[] = "/history";
  *type = "application/json";
  size_t n = strlen(path);
  int pgn = n > 4 && !strcmp(path + n - 4, ".pgn");
  int history = n > sizeof hist - 1 && !strcmp(path + n - (sizeof hist - 1), hist);
  size_t tail = pgn ? 4 : history ? sizeof hist - 1 : 0;
  if (strncmp(path, prefix, sizeof prefix - 1) ||
      !srv_game_id_valid(path + sizeof prefix - 1, n - (sizeof prefix - 1) - tail)) {
    *body = srv_write_http_error("not_found", "no such resource");
    return 404;
  }
  char id[SRV_GAME_ID_LEN + 1];
  memcpy(id, path + sizeof prefix - 1, SRV_GAME_ID_LEN);
  id[SRV_GAME_ID_LEN] = 0;
  srv_game *g = find(sv, id, now);
  if (!g) {
    *body = srv_write_http_error("no_game", "no game with this id");
    return 404;
  }
  if (pgn) {
    *type = "application/x-chess-pgn";
    *body = srv_game_pgn(g);
  } else if (history) {
    *body = srv_game_history(g);
  } else {
    srv_view v;
    srv_game_view(g, -1, now, &v);
    *body = srv_write_game_json(&v);
  }
  return *body ? 200 : 500;
}

/* ---- sessions ---- */

/* To a session that may not be in a game yet. */
static void send_direct(srv_server *sv, srv_session *s, char *text) {
  if (s->game) {
    srv_game_send(sv, s->game, s, text);
    return;
  }
  srv_buf *b = srv_buf_take(text);
  if (!b) return;
  srv_session_push(s, b, &sv->cfg.limits);
  srv_buf_unref(b);
  if (sv->io.writable) sv->io.writable(sv->io.ctx, s);
}

static void send_error(srv_server *sv, srv_session *s, const char *code, const char *message,
                       int64_t id) {
  send_direct(sv, s, srv_write_error(code, message, id));
}

/* {"t":"players",...}: who is connected, to everyone (not a version: nothing of the game
 * changed). */
static void presence(srv_server *sv, srv_game *g) {
  json_t *j = json_object();
  json_object_set_new(j, "t", json_string("players"));
  for (int c = 0; c < 2; c++)
    json_object_set_new(j, color_name(c), json_pack("{s:b}", "connected", g->connected[c] > 0));
  int watching = 0;
  for (srv_session *s = g->sessions; s; s = s->next)
    watching += s->seat < 0;
  json_object_set_new(j, "spectators", json_integer(watching));
  char *text = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  srv_buf *b = srv_buf_take(text);
  if (!b) return;
  for (srv_session *s = g->sessions; s; s = s->next)
    srv_game_send_buf(sv, g, s, b); /* in order, behind what is pending */
  srv_buf_unref(b);
}

/* A seat's last connection went, or its first came back: under rules with the abandonment
 * claim (online) the referee is told, stored and broadcast like any event, so that the other
 * player may claim after the wait and a restart keeps it.  The computer's seat never leaves. */
static void seat_away(srv_server *sv, srv_game *g, int seat, int away, int64_t now) {
  if (!g->started || g->row.computer == seat + 1 || !arb_referee_abandon_ms(g->ref) || !sv->io.arm)
    return; /* (no timers: the server is stopping, srv_server_forget_timers) */
  arb_ref_state st;
  arb_referee_state_of(g->ref, &st);
  if (st.over || away == (st.away_since[seat] >= 0)) return;
  if (now < st.now) now = st.now;
  arb_ref_event ev = ARB_REF_EVENT_INIT(away ? ARB_REF_AWAY : ARB_REF_BACK, now);
  ev.by = (int8_t)seat;
  srv_game_apply(sv, g, &ev, NULL, -1);
}

static void detach(srv_server *sv, srv_session *s, int64_t now) {
  srv_game *g = s->game;
  if (!g) return;
  if (s->prev)
    s->prev->next = s->next;
  else
    g->sessions = s->next;
  if (s->next) s->next->prev = s->prev;
  s->prev = s->next = NULL;
  if (s->seat >= 0) g->connected[s->seat]--;
  /* what was waiting for it goes nowhere */
  for (size_t i = 0; i < g->npending; i++) {
    srv_pending *p = &g->pending[i];
    if (p->to == s) { /* an entry to nobody now: released as an empty broadcast */
      srv_buf_unref(p->buf[0]);
      p->buf[0] = NULL;
      p->to = NULL;
    }
    if (p->ack_to == s) {
      srv_buf_unref(p->ack_buf);
      p->ack_buf = NULL;
      p->ack_to = NULL;
    }
  }
  s->game = NULL;
  if (!g->sessions) g->idle_since_ms = now;
  presence(sv, g); /* a seat's connection, or the count of spectators */
  if (s->seat >= 0 && !g->connected[s->seat]) seat_away(sv, g, s->seat, 1, now);
  s->seat = SRV_SEAT_NONE;
}

/* The key that masks a seat's rematch link: SHA-256 of a label and the seat's own token, which
 * only that seat's owner (and the server, while it is connected) knows. */
static void rematch_key(const char *token, uint8_t key[SRV_SHA256_BYTES]) {
  char text[64];
  int n = snprintf(text, sizeof text, "arbiter rematch link:%s", token);
  srv_sha256(text, (size_t)n, key);
}

/* A seat away when its rematch was made, back after a restart: its link from the stored mask
 * and the token it said hello with, checked against the rematch's seat before it is sent. */
static void unmask_rematch(srv_server *sv, srv_game *g, int seat, const char *token) {
  if (!g->row.rematch_id[0] || !g->row.has_rematch_mask || g->rematch_token[seat][0]) return;
  uint8_t key[SRV_SHA256_BYTES];
  rematch_key(token, key);
  char t[SRV_TOKEN_LEN + 1];
  for (int i = 0; i < SRV_TOKEN_LEN; i++)
    t[i] = (char)(g->row.rematch_mask[seat][i] ^ key[i]);
  t[SRV_TOKEN_LEN] = 0;
  srv_game_row r;
  uint8_t h[SRV_SHA256_BYTES];
  srv_token_hash(t, SRV_TOKEN_LEN, h);
  srv_game *n = lookup(sv, g->row.rematch_id);
  const srv_game_row *row = n ? &n->row : NULL;
  if (!row && srv_store_get_game(sv->store, g->row.rematch_id, &r) == 1) row = &r;
  if (row && srv_hash_equal(h, row->hash[seat ^ 1])) /* White of this game is Black there */
    memcpy(g->rematch_token[seat], t, sizeof t);
}

static void hello(srv_server *sv, srv_session *s, const srv_msg *m, int64_t now) {
  srv_game *g = find(sv, m->game, now);
  if (!g) {
    send_error(sv, s, "no_game", "no game with this id", m->id);
    return;
  }
  detach(sv, s, now);
  int seat = SRV_SEAT_SPECTATOR;
  if (m->token[0]) {
    uint8_t h[SRV_SHA256_BYTES];
    srv_token_hash(m->token, strlen(m->token), h);
    for (int c = 0; c < 2; c++)
      if (srv_hash_equal(h, g->row.hash[c])) seat = c;
  }
  s->game = g;
  s->seat = seat;
  s->next = g->sessions;
  if (g->sessions) g->sessions->prev = s;
  g->sessions = s;
  if (m->token[0] && seat < 0)
    srv_game_send(sv, g, s,
                  srv_write_error("bad_token",
                                  "this link's token is not a seat of this game: you "
                                  "are watching",
                                  m->id));
  if (seat >= 0) {
    g->connected[seat]++;
    g->seen[seat] = 1;
    if (g->open && seat == g->open_seat) g->open = 0; /* taken */
    /* a name said before the game starts goes into its PGN (the tags are fixed at the start) */
    if (m->name[0] && !g->started && g->row.computer != seat + 1 &&
        strcmp(g->row.name[seat], m->name)) {
      snprintf(g->row.name[seat], sizeof g->row.name[seat], "%s", m->name);
      srv_game_name_tags(sv, g);
      srv_store_set_name(sv->store, g->row.id, seat, g->row.name[seat]);
    }
    snprintf(s->token, sizeof s->token, "%s", m->token);
    presence(sv, g);
    unmask_rematch(sv, g, seat, m->token);
    if (g->rematch_token[seat][0]) /* a rematch made while this seat was away */
      srv_game_send(sv, g, s, srv_write_rematch(g->row.rematch_id, g->rematch_token[seat]));
  } else {
    presence(sv, g); /* one more watching */
  }
  /* the updates it missed, if they are still at hand, then the state */
  if (m->version >= 0 && (uint64_t)m->version < g->version &&
      g->version - (uint64_t)m->version <= SRV_RING) {
    for (uint64_t v = (uint64_t)m->version + 1; v <= g->version; v++)
      if (g->ring[v % SRV_RING].v == v && g->ring[v % SRV_RING].buf)
        srv_game_send_buf(sv, g, s, g->ring[v % SRV_RING].buf);
  }
  srv_game_send_state(sv, g, s, now);
  if (seat >= 0) seat_away(sv, g, seat, 0, now); /* back, if the referee counted it away */
  if (!g->started && g->seen[0] && g->seen[1]) {
    srv_game_start(sv, g, now);
    for (int c = 0; c < 2; c++) /* a seat that came once and left before the start */
      if (!g->connected[c]) seat_away(sv, g, c, 1, now);
  }
  srv_game_log(sv, g, "%s joined", seat >= 0 ? color_name(seat) : "a spectator");
}

static void rematch(srv_server *sv, srv_game *g, srv_session *s, int64_t now) {
  arb_ref_state st;
  arb_referee_state_of(g->ref, &st);
  if (!g->started || !st.over) {
    srv_game_send(sv, g, s, srv_write_error("not_allowed", "a rematch comes after the game", -1));
    return;
  }
  if (g->row.rematch_id[0]) {
    if (g->rematch_token[s->seat][0])
      srv_game_send(sv, g, s, srv_write_rematch(g->row.rematch_id, g->rematch_token[s->seat]));
    return;
  }
  rematch_key(s->token, g->rematch_key[s->seat]);
  g->has_rematch_key[s->seat] = 1;
  if (g->rematch_offer != (s->seat ^ 1) && !g->row.computer) { /* the computer always agrees */
    g->rematch_offer = s->seat;
    srv_game_broadcast(sv, g, NULL, NULL, -1);
    return;
  }
  /* both want it: the same game with the colours swapped */
  srv_game_row row = g->row;
  memset(row.rematch_id, 0, sizeof row.rematch_id);
  memcpy(row.rematch_of, g->row.id, sizeof row.rematch_of);
  if (row.computer) row.computer = 3 - row.computer; /* the colours swap */
  row.created_ms = now;
  row.over = 0;
  char tokens[2][SRV_TOKEN_LEN + 1];
  srv_game *n = make_game(sv, &row, tokens);
  if (!n) {
    srv_game_send(sv, g, s, srv_write_error("no_resources", "the rematch could not be made", -1));
    return;
  }
  memcpy(g->row.rematch_id, n->row.id, sizeof g->row.rematch_id);
  for (int c = 0; c < 2; c++) /* White of the old game is Black of the new */
    memcpy(g->rematch_token[c], tokens[c ^ 1], sizeof tokens[0]);
  /* both seats asked, so both keys are known: the links are stored masked */
  for (int c = 0; c < 2; c++)
    for (int i = 0; i < SRV_TOKEN_LEN; i++)
      g->row.rematch_mask[c][i] = (uint8_t)((uint8_t)g->rematch_token[c][i] ^
                                            (g->has_rematch_key[c] ? g->rematch_key[c][i] : 0));
  g->row.has_rematch_mask = g->has_rematch_key[0] && g->has_rematch_key[1];
  if (g->row.has_rematch_mask)
    srv_store_set_rematch(sv->store, g->row.id, n->row.id,
                          (const uint8_t(*)[SRV_TOKEN_LEN])g->row.rematch_mask);
  else {
    uint8_t none[2][SRV_TOKEN_LEN];
    memset(none, 0, sizeof none);
    srv_store_set_rematch(sv->store, g->row.id, n->row.id, (const uint8_t(*)[SRV_TOKEN_LEN])none);
  }
  g->rematch_offer = -1;
  for (srv_session *x = g->sessions; x; x = x->next)
    if (x->seat >= 0)
      srv_game_send(sv, g, x, srv_write_rematch(n->row.id, g->rematch_token[x->seat]));
  srv_game_broadcast(sv, g, NULL, NULL, -1);
  srv_game_log(sv, g, "rematch: %s", n->row.id);
}

static const arb_ref_kind action_kind[SRV_MSG_COUNT] = {
    [SRV_MSG_MOVE] = ARB_REF_MOVE,
    [SRV_MSG_PREMOVE] = ARB_REF_PREMOVE,
    [SRV_MSG_CANCEL_PREMOVE] = ARB_REF_CANCEL_PREMOVE,
    [SRV_MSG_OFFER_DRAW] = ARB_REF_OFFER_DRAW,
    [SRV_MSG_ACCEPT_DRAW] = ARB_REF_ACCEPT_DRAW,
    [SRV_MSG_DECLINE_DRAW] = ARB_REF_DECLINE_DRAW,
    [SRV_MSG_CLAIM_DRAW] = ARB_REF_CLAIM_DRAW,
    [SRV_MSG_CLAIM_ABANDONED] = ARB_REF_CLAIM_ABANDONED,
    [SRV_MSG_RESIGN] = ARB_REF_RESIGN,
    [SRV_MSG_ABORT] = ARB_REF_ABORT,
};

int srv_server_message(srv_server *sv, srv_session *s, const char *text, size_t len, int64_t now) {
  if (!srv_session_allow(s, now, &sv->cfg.limits)) return -1;
  srv_msg m;
  srv_parse_error err;
  if (srv_parse_client(text, len, &m, &err)) {
    send_error(sv, s, err.code, err.message, -1);
    return 0;
  }
  if (m.type == SRV_MSG_PING) {
    send_direct(sv, s, srv_write_pong(now));
    return 0;
  }
  if (m.type == SRV_MSG_HELLO) {
    hello(sv, s, &m, now);
    return 0;
  }
  srv_game *g = s->game;
  if (!g) {
    send_error(sv, s, "no_hello", "say hello first: {\"t\":\"hello\",\"game\":ID,\"token\":T}",
               m.id);
    return 0;
  }
  if (s->seat < 0) {
    srv_game_send(sv, g, s,
                  srv_write_error("spectator", "spectators watch; they cannot play", m.id));
    return 0;
  }
  int seat = s->seat;
  if (m.type == SRV_MSG_SETTINGS) {
    g->auto_queen[seat] = m.auto_queen;
    srv_game_send_state(sv, g, s, now);
    return 0;
  }
  if (m.type == SRV_MSG_REMATCH) {
    rematch(sv, g, s, now);
    return 0;
  }
  if (!g->started) {
    if (m.type != SRV_MSG_ABORT) {
      srv_game_send(
          sv, g, s,
          srv_write_error("not_started", "the game starts when both players have come", m.id));
      return 0;
    }
    srv_game_start(sv, g, now); /* then abort it at once */
  }
  const char *mv = m.uci[0] ? m.uci : m.san; /* a typed move is read by the referee */
  if (m.type == SRV_MSG_MOVE && m.id >= 0 && m.id == g->last_id[seat] &&
      !strcmp(mv, g->last_uci[seat])) {
    srv_game_send(sv, g, s, srv_write_ack(m.id, 1)); /* a resend: answered, not played */
    return 0;
  }
  if (m.type == SRV_MSG_OFFER_DRAW && sv->cfg.offers_per_minute > 0 &&
      !srv_bucket_take(&g->offers[seat], now, sv->cfg.offers_per_minute / 60.0,
                       sv->cfg.offers_per_minute < 3 ? sv->cfg.offers_per_minute : 3)) {
    srv_game_send(
        sv, g, s,
        srv_write_error("rate", "too many draw offers: wait a little before the next", m.id));
    return 0;
  }
  /* the transport may stamp a message earlier than the game's last event (it gives back the
   * time the loop was stalled): the game's time never goes back */
  arb_ref_state st;
  arb_referee_state_of(g->ref, &st);
  if (now < st.now) now = st.now;
  arb_ref_event ev = ARB_REF_EVENT_INIT(action_kind[m.type], now);
  ev.by = (int8_t)seat;
  if (mv[0]) {
    ev.text = mv;
    ev.text_len = strlen(mv);
  }
  if (g->auto_queen[seat]) ev.flags = ARB_REF_AUTO_QUEEN;
  if (m.lag_ms > 0) ev.lag_ms = m.lag_ms;
  ev.reason = m.reason;
  srv_game_apply(sv, g, &ev, s, m.id);
  return 0;
}

void srv_server_closed(srv_server *sv, srv_session *s, int64_t now) {
  detach(sv, s, now);
  srv_session_clear(s);
}

void srv_server_thought(srv_server *sv, const srv_thought *a, int64_t now) {
  srv_game *g = lookup(sv, a->game);
  if (g) srv_computer_answer(sv, g, a, now);
}

void srv_server_timer(srv_server *sv, srv_game *g, int64_t now) {
  tick(sv, g, now);
  srv_game_rearm(sv, g);
}

/* A write this game waited for was not stored: the game is put back as the store has it (its
 * durable events replayed), its sessions carried over and sent the state, and whoever sent
 * what was lost is told. */
static void restore_game(srv_server *sv, srv_game *g, uint64_t failed_from) {
  srv_game_release(sv, g, failed_from - 1); /* what was stored before the failure goes out */
  srv_session *told[16];
  int64_t told_id[16];
  int ntold = 0;
  for (size_t i = 0; i < g->npending; i++)
    if (g->pending[i].ack_to && ntold < 16) {
      told_id[ntold] = g->pending[i].ack_id;
      told[ntold++] = g->pending[i].ack_to;
    }
  arb_ref_state st;
  arb_referee_state_of(g->ref, &st);
  int64_t now = st.now;
  srv_game_row row;
  srv_game *n = NULL;
  if (srv_store_get_game(sv->store, g->row.id, &row) == 1) {
    n = srv_game_new(sv, &row);
    if (n && srv_store_each_event(sv->store, row.id, replay_one, n) < 0) {
      srv_game_free(sv, n);
      n = NULL;
    }
  }
  fprintf(stderr, "arbiter serve: game %s: the database did not store its last changes; %s\n",
          g->row.id,
          n ? "the game is back as it was stored" : "the game itself was not stored: it is gone");
  srv_session *list = g->sessions;
  g->sessions = NULL;
  unlink_game(sv, g);
  if (n) {
    n->seen[0] = g->seen[0];
    n->seen[1] = g->seen[1];
    memcpy(n->auto_queen, g->auto_queen, sizeof n->auto_queen);
    n->idle_since_ms = g->idle_since_ms;
    insert(sv, n);
  }
  srv_game_free(sv, g);
  for (srv_session *s = list, *next; s; s = next) {
    next = s->next;
    s->prev = s->next = NULL;
    s->game = n;
    if (!n) {
      s->seat = SRV_SEAT_NONE;
      send_error(sv, s, "not_stored", "the server could not store this game: it is gone", -1);
      continue;
    }
    s->next = n->sessions;
    if (n->sessions) n->sessions->prev = s;
    n->sessions = s;
    if (s->seat >= 0) n->connected[s->seat]++;
  }
  if (!n) return;
  for (int i = 0; i < ntold; i++)
    srv_game_send(sv, n, told[i],
                  srv_write_error("not_stored",
                                  "the server could not store this (its disk refused it): it "
                                  "did not happen; the game is as it was",
                                  told_id[i]));
  if (!n->started && n->seen[0] && n->seen[1]) srv_game_start(sv, n, now);
  for (srv_session *s = n->sessions; s; s = s->next)
    srv_game_send_state(sv, n, s, now);
  srv_game_rearm(sv, n);
}

/* Once every write queued during a failure is resolved: each game that waited for a failed one
 * is put back, then the store may write again. */
static void recover(srv_server *sv, uint64_t durable) {
  if (durable < srv_store_last_ticket(sv->store)) return; /* not all resolved yet */
  size_t n = 0, k = 0;
  for (srv_game *g = sv->plist; g; g = g->pnext)
    n++;
  srv_game **hit = calloc(n ? n : 1, sizeof *hit);
  uint64_t *first = calloc(n ? n : 1, sizeof *first);
  if (!hit || !first) { /* no memory to put them back: stay broken, try at the next wake */
    free(hit);
    free(first);
    return;
  }
  for (srv_game *g = sv->plist; g; g = g->pnext) {
    uint64_t f = UINT64_MAX;
    for (size_t i = 0; i < g->npending; i++)
      if (g->pending[i].ticket <= durable && g->pending[i].ticket < f &&
          srv_store_failed(sv->store, g->pending[i].ticket))
        f = g->pending[i].ticket;
    if (f != UINT64_MAX) hit[k] = g, first[k++] = f;
  }
  for (size_t i = 0; i < k; i++)
    restore_game(sv, hit[i], first[i]);
  free(hit);
  free(first);
  srv_store_recover(sv->store);
}

void srv_server_release(srv_server *sv) {
  uint64_t durable = srv_store_durable(sv->store);
  if (srv_store_broken(sv->store)) recover(sv, durable);
  for (srv_game **p = &sv->plist; *p;) {
    srv_game *g = *p;
    srv_game_release(sv, g, durable);
    if (!g->npending) {
      g->in_plist = 0;
      *p = g->pnext;
    } else {
      p = &g->pnext;
    }
  }
}

void srv_server_sweep(srv_server *sv, int64_t now) {
  if (now - sv->last_heartbeat_ms >= 1000) {
    srv_store_heartbeat(sv->store, now);
    sv->last_heartbeat_ms = now;
  }
  /* games nobody started, once old enough, are forgotten in the store too (once a minute, or
   * four times within a shorter time to live) */
  int64_t every = sv->cfg.unstarted_ttl_ms / 4 < 60000 ? sv->cfg.unstarted_ttl_ms / 4 : 60000;
  int expire = sv->cfg.unstarted_ttl_ms > 0 && now - sv->last_expiry_ms >= every;
  if (expire) {
    srv_store_expire_unstarted(sv->store, now - sv->cfg.unstarted_ttl_ms);
    sv->last_expiry_ms = now;
  }
  for (size_t i = 0; i < sv->nbuckets; i++)
    for (srv_game *g = sv->buckets[i], *next; g; g = next) {
      next = g->hnext;
      int stale = expire && !g->started && !g->sessions && !g->npending &&
                  now - g->row.created_ms > sv->cfg.unstarted_ttl_ms;
      if (!stale && (g->sessions || g->npending || now - g->idle_since_ms < SRV_IDLE_EVICT_MS))
        continue; /* (the cheap tests first: this runs over every game each second) */
      arb_ref_state st;
      arb_referee_state_of(g->ref, &st);
      if (g->started && !st.over) continue; /* its clock may run: it stays */
      unlink_game(sv, g);
      srv_game_free(sv, g);
    }
}

/* ---- export ---- */

typedef struct export_ctx {
  srv_server *sv;
  FILE *out;
  long n;
} export_ctx;

static int export_one(void *ctx, const srv_game_row *row) {
  export_ctx *c = ctx;
  srv_game *g = lookup(c->sv, row->id), *tmp = NULL;
  if (!g) {
    tmp = srv_game_new(c->sv, row);
    if (!tmp) return 0;
    srv_store_each_event(c->sv->store, row->id, replay_one, tmp);
    g = tmp;
  }
  char *pgn = srv_game_pgn(g);
  if (pgn) {
    fputs(pgn, c->out);
    c->n++;
  }
  free(pgn);
  srv_game_free(c->sv, tmp);
  return 0;
}

long srv_server_export(srv_server *sv, FILE *out) {
  export_ctx c = {sv, out, 0};
  return srv_store_each_game(sv->store, SRV_GAMES_ALL, export_one, &c) < 0 ? -1 : c.n;
}
