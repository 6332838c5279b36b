/* Arbiter — MIT licence, see LICENSE.
 *
 * server.h: the play server's logic, under any transport — the registry of games (each one
 * arb_referee), what a connection's messages do, timers, durability gating and the HTTP API.
 * No socket and no clock in here: the transport (transport_lws.c) passes every message with
 * the server time it arrived at and drains what the sessions have queued.
 *
 * Durability: every change is queued to the store before anyone hears of it; every message to
 * a client waits, in order, until the store has committed everything queued before it
 * (srv_server_release, called when the store says a commit is done).
 *
 * Threads: everything here runs on the transport's one thread.
 */
#ifndef ARB_SERVER_SERVER_H
#define ARB_SERVER_SERVER_H

#include <stdint.h>
#include <stdio.h>

#include "session.h"
#include "store.h"

typedef struct srv_config {
  srv_limits limits;
  int quiet;            /* no log line per game event */
  int lag_compensation; /* the default for new games under the online rules */
  const char *site;     /* the PGN Site tag ("" none) */
  /* limits a public server needs (docs/protocol.md, "Limits") */
  int create_per_minute;    /* games one client address may make a minute; 0 no limit */
  int64_t unstarted_ttl_ms; /* a game nobody started is forgotten after this, stored or not */
  int offers_per_minute;    /* draw offers one seat may make a minute; 0 no limit */
  int64_t min_time_ms;      /* the least time a timed control may start with */
  const char *engine;       /* the computer opponent's program name ("stockfish"), NULL: none */
} srv_config;

/* The defaults of those limits (arbiter serve's flags change them). */
#define SRV_CREATE_PER_MINUTE 20
#define SRV_UNSTARTED_TTL_MS (24 * 3600 * 1000LL)
#define SRV_OFFERS_PER_MINUTE 6
#define SRV_MIN_TIME_MS 15000
/* Nodes of a resignation's or a flag's "can the winner mate" search (about 3 ms here; the
 * library's default is 500,000, about 80 ms). */
#define SRV_SEARCH_BUDGET 20000

struct srv_game;

/* A question for the computer (a seat played by the engine pool, engine/pool.h): the move in
 * the game's position, at its level, with the clocks as they are. */
typedef struct srv_think {
  const char *game; /* its id */
  uint64_t key;     /* the game's key for the pool (from its id) */
  uint64_t seq;     /* the question's number: the answer carries it */
  const arb_position *start;
  const arb_move *moves; /* the game's moves so far */
  int nmoves;
  int level; /* 1-8 */
  int timed; /* then the clocks, in ms: */
  int64_t wtime, btime, winc, binc;
  int64_t deadline_ms; /* the wall time the answer may take (the engine's clock and a margin) */
} srv_think;

/* Its answer. */
typedef struct srv_thought {
  char game[SRV_GAME_ID_LEN + 1];
  uint64_t seq;
  int ok; /* a legal move in uci */
  char uci[16];
  int has_score, mate, score; /* the engine's view: centipawns, or mate in `score` (signed) */
  int depth;
  char pv[256];      /* the engine's best line (UCI moves), "" none */
  char message[200]; /* why there is no move */
} srv_thought;

/* POST /api/engine/eval (the analysis board): the position, from {"fen": FEN (default the
 * start), "moves": [SAN or UCI, ...]} (at most SRV_EVAL_MAX_PLY).  srv_eval_read returns 0, or
 * 400 with an error JSON in *err (malloc'd); when the position has no legal move it returns 0
 * with e->over set, and srv_eval_write answers without asking the engine. */
#define SRV_EVAL_MAX_PLY 1024
typedef struct srv_eval {
  arb_position start, pos;
  arb_move moves[SRV_EVAL_MAX_PLY];
  int nmoves;
  int over; /* checkmate or stalemate: nothing to search */
} srv_eval;
int srv_eval_read(const char *json, size_t len, srv_eval *e, char **err);
/* {"score":{"cp":N}|{"mate":N}, "depth":D, "best":SAN, "pv":[SAN...]} from White's point of
 * view; {"over":"checkmate"|"stalemate"}; or a 503 error body when a is not ok.  *status gets
 * the HTTP status.  malloc'd. */
char *srv_eval_write(const srv_eval *e, const srv_thought *a, int *status);

/* What the logic needs from the transport. */
typedef struct srv_io {
  void *ctx;
  void (*writable)(void *ctx, srv_session *s);               /* s has messages queued */
  void (*arm)(void *ctx, struct srv_game *g, int64_t at_ms); /* ARB_CLOCK_NEVER: cancel */
  void (*forget)(void *ctx, struct srv_game *g);             /* g is freed */
  /* asks the engine pool for the computer's move (NULL: the server has no engine); the answer
   * comes back through srv_server_thought, on the transport's thread */
  void (*think)(void *ctx, const srv_think *t);
} srv_io;

typedef struct srv_server srv_server;

srv_server *srv_server_new(const srv_config *cfg, const srv_io *io, srv_store *store);
void srv_server_free(srv_server *sv);

/* Loads every game under way (started, unfinished) from the store: its events are replayed,
 * and a running clock is paused from when the server was last known alive (recorded), so the
 * time the server was down is charged to nobody.  Games nobody started stay in the store until
 * someone asks for them.  Returns the number of games, -1 on a database error. */
long srv_server_load(srv_server *sv, int64_t now_ms);
/* The clocks paused by srv_server_load run again from now_ms: called once the loop is ready,
 * so that the time the loading took is charged to nobody either. */
void srv_server_resume(srv_server *sv, int64_t now_ms);

/* A new game (HTTP POST /api/games) from the client at address `client`.  The request is JSON
 * text: control, rules, color, chess960, fen, lag_compensation (docs/protocol.md).  On success
 * returns 201 with the response JSON (malloc'd) in *body and in *ticket the store's ticket the
 * answer must wait for (the links work only once the game is on disk); else 400 (the request
 * is wrong), 429 (this address made too many games this minute) or 500, with an error JSON. */
int srv_server_create(srv_server *sv, const char *json, size_t len, int64_t now_ms,
                      const char *client, char **body, uint64_t *ticket);

/* The computer's answer to a srv_think (stale ones, of games over or moved on, are dropped). */
void srv_server_thought(srv_server *sv, const srv_thought *a, int64_t now_ms);

/* lobby.c — GET /api/lobby: {"open":[games waiting for an opponent], "playing":[games in
 * progress]}; POST /api/games/ID/join: the open seat's link to the first who asks (200), 409 or
 * 404 when it is not open; POST /api/games/ID/cancel {"token": a seat's token}: a game not
 * started is aborted and unlisted.  *body is malloc'd JSON; the status is returned. */
int srv_lobby_get(srv_server *sv, int64_t now_ms, char **body);
int srv_lobby_join(srv_server *sv, const char *id, int64_t now_ms, char **body);
int srv_lobby_cancel(srv_server *sv, const char *id, const char *json, size_t len, int64_t now_ms,
                     char **body);

/* HTTP GET of the API: /api/games/ID (the game, JSON) and /api/games/ID.pgn.  Returns the
 * status (200, 404) with *body (malloc'd) and *type (static). */
int srv_server_get(srv_server *sv, const char *path, int64_t now_ms, char **body,
                   const char **type);

/* A connection's text message, arrived at now_ms.  Answers, and anything it changes, are
 * queued on the sessions concerned.  Returns 0, or -1 when the connection must be closed (it
 * went over its rate; the close code is 1008). */
int srv_server_message(srv_server *sv, srv_session *s, const char *text, size_t len,
                       int64_t now_ms);
/* The connection is gone. */
void srv_server_closed(srv_server *sv, srv_session *s, int64_t now_ms);
/* A game's timer fired (armed through srv_io.arm). */
void srv_server_timer(srv_server *sv, struct srv_game *g, int64_t now_ms);
/* The store committed: send what was waiting for it. */
void srv_server_release(srv_server *sv);
/* Drops finished games nobody watches for a while, and sends the store a heartbeat. */
void srv_server_sweep(srv_server *sv, int64_t now_ms);

/* Every game in the store as PGN, oldest first, into out.  Returns the number, -1 on error. */
long srv_server_export(srv_server *sv, FILE *out);

/* Has the transport forget every game's timer (srv_io.forget), before it shuts down. */
void srv_server_forget_timers(srv_server *sv);

/* The transport's slot in a game, for its timer (NULL until it puts something there). */
void **srv_game_timer_slot(struct srv_game *g);

/* Games in memory, and the sessions attached (for tests and logs). */
size_t srv_server_games(const srv_server *sv);

#endif
