/* Arbiter — MIT licence, see LICENSE.
 *
 * game.h (internal to the server): one game on the server — its referee, seats, attached
 * sessions, the versioned events recently broadcast, and the messages waiting for the store.
 */
#ifndef ARB_SERVER_GAME_H
#define ARB_SERVER_GAME_H

#include "jsonw.h"
#include "protocol.h"
#include "server.h"

#define SRV_RING 8 /* recent updates kept for a reconnecting client */

/* A message waiting for the store: to one session, or to every session of the game (then one
 * text per kind of recipient: White's seat, Black's seat, the others). */
typedef struct srv_pending {
  uint64_t ticket;
  srv_session *to; /* NULL: everyone */
  srv_buf *buf[3];
  srv_session *ack_to; /* everyone: this session gets ack_buf, its seat's text with "ack" */
  srv_buf *ack_buf;
  int64_t ack_id; /* the client's id of what ack_buf acknowledges */
} srv_pending;

typedef struct srv_game {
  srv_game_row row; /* as stored */
  arb_position start;
  arb_time_control tc;
  arb_ref_setup setup;
  arb_ref_tag tags[6];
  char date[16], site[96];
  arb_referee *ref;
  int started;          /* both seats have come: the referee's game is under way */
  int seen[2];          /* each seat has said hello once */
  int connected[2];     /* its sessions now */
  int auto_queen[2];    /* each seat's setting */
  int64_t last_id[2];   /* the last accepted move's client id and UCI, per seat: a resend */
  char last_uci[2][16]; /* of it is a duplicate */
  uint32_t next_seq;    /* the next stored event's number */
  uint64_t version;     /* updates broadcast so far */
  struct {
    uint64_t v;
    srv_buf *buf; /* the update as a reconnecting client gets it (srv_write_missed) */
  } ring[SRV_RING];
  srv_session *sessions;
  srv_pending *pending;
  size_t npending, cap_pending;
  int rematch_offer;
  char rematch_token[2][SRV_TOKEN_LEN + 1]; /* for each old seat, its seat in the rematch */
  uint8_t rematch_key[2][SRV_SHA256_BYTES]; /* a seat's mask key, known once it asked */
  int has_rematch_key[2];
  int64_t idle_since_ms; /* no session attached since */
  /* the computer's seat (row.computer), computer.c: */
  uint64_t think_seq; /* the question asked last (answers to others are stale) */
  int thinking;       /* waiting for that answer */
  int think_failures; /* answers in a row without a move */
  int comp_scores[8]; /* its last evaluations, its own point of view, newest first (cp; a
                         mate is +-100000) */
  int ncomp_scores;
  int comp_offer_ply;                   /* the ply of its last draw offer (0 none) */
  char tag_names[2][SRV_NAME_MAX + 32]; /* the White and Black tags */
  /* an open game (lobby.c): listed for anyone to join while its maker waits */
  int open;
  int open_seat;
  char open_token[SRV_TOKEN_LEN + 1];
  srv_jw sans; /* the SAN list as JSON without its "]", grown with the game */
  int sans_ply;
  char initial_fen[ARB_FEN_MAX]; /* the start position's FEN, written once */
  size_t update_len;             /* how long the shared part of its last update was */
  int ended_stored;
  srv_bucket offers[2];   /* each seat's draw offers */
  int paused_at_load;     /* its clock waits for srv_server_resume */
  void *timer;            /* the transport's */
  struct srv_game *hnext; /* hash chain */
  struct srv_game *pnext; /* games with pending messages */
  int in_plist;
} srv_game;

struct srv_server {
  srv_config cfg;
  srv_io io;
  srv_store *store;
  srv_game **buckets;
  size_t nbuckets, ngames;
  srv_game *plist; /* games with pending messages */
  int64_t last_heartbeat_ms;
  int64_t last_expiry_ms;
  srv_rate_table creates; /* games made per client address */
};

/* A game from its row (no events yet), NULL without memory or on a bad row. */
srv_game *srv_game_new(srv_server *sv, const srv_game_row *row);
void srv_game_free(srv_server *sv, srv_game *g);
/* Replays one stored event (loading).  0, or -1 when it does not replay as it did. */
int srv_game_replay(srv_game *g, const srv_event_row *e);
/* Hands an event to the referee with everything that follows: stored, broadcast, answered
 * (to `from`, with the client's id), the timer re-armed. */
void srv_game_apply(srv_server *sv, srv_game *g, arb_ref_event *ev, srv_session *from, int64_t id);
/* Starts the referee's game (both seats came) at t. */
void srv_game_start(srv_server *sv, srv_game *g, int64_t t);
/* Queues text for one session / every session, behind everything stored before. */
void srv_game_send(srv_server *sv, srv_game *g, srv_session *to, char *text);
/* The same with a buffer (a reference is taken; NULL does nothing). */
void srv_game_send_buf(srv_server *sv, srv_game *g, srv_session *to, srv_buf *b);
/* An update (ev; NULL: a state) to every session; the session the event came from, if any,
 * gets the client's id in it as "ack" (-1: none). */
void srv_game_broadcast(srv_server *sv, srv_game *g, const srv_event_info *ev, srv_session *ack_to,
                        int64_t ack_id);
/* The full state to one session (hello, settings). */
void srv_game_send_state(srv_server *sv, srv_game *g, srv_session *to, int64_t now);
/* Sends what the store has made durable. */
void srv_game_release(srv_server *sv, srv_game *g, uint64_t durable);
/* The game as PGN (malloc'd). */
char *srv_game_pgn(srv_game *g);
/* {"fen":[...],"uci":[...],"san":[...]}: the position before and after every ply (fen[0] the
 * start), for a page that looks back (malloc'd). */
char *srv_game_history(srv_game *g);
/* The recipient's view of the game (valid until the game changes; it brings the game's SAN
 * list JSON up to date). */
void srv_game_view(srv_game *g, int viewer, int64_t now, srv_view *v);
/* The game with this id in memory, or NULL. */
srv_game *srv_server_lookup(const srv_server *sv, const char *id);
/* The game, from memory or from the store (NULL when there is none). */
srv_game *srv_server_find(srv_server *sv, const char *id, int64_t now);
/* The White/Black tags from the names (before the referee's game starts). */
void srv_game_name_tags(srv_server *sv, srv_game *g);
/* computer.c: after anything changed a game with the computer in a seat — it answers a draw
 * offer, and asks the engine for a move when it is its turn (srv_io.think). */
void srv_computer_turn(srv_server *sv, srv_game *g, int64_t now);
/* computer.c: the engine's answer to the game's question (stale ones are dropped). */
void srv_computer_answer(srv_server *sv, srv_game *g, const srv_thought *a, int64_t now);
/* Re-arms the transport's timer from the referee's deadline. */
void srv_game_rearm(srv_server *sv, srv_game *g);
/* One log line. */
void srv_game_log(const srv_server *sv, const srv_game *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
