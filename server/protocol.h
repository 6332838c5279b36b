/* Arbiter — MIT licence, see LICENSE.
 *
 * protocol.h: the play protocol's wire format (docs/protocol.md) — parsing what a client sends,
 * writing what the server sends.  Pure functions over text: no sockets, no clock, no state; the
 * fuzz target fuzz_protocol drives the parser.
 *
 * Ownership: srv_parse_client fills caller structs; the writers return malloc'd NUL-terminated
 * text the caller frees (NULL only without memory).
 */
#ifndef ARB_SERVER_PROTOCOL_H
#define ARB_SERVER_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "arbiter/arbiter.h"
#include "session.h"
#include "token.h"

#define SRV_MAX_MESSAGE 8192    /* bytes in one client message (lila-ws: 8192) */
#define SRV_MAX_DEPTH 4         /* nesting of objects and arrays in one client message */
#define SRV_HELLO_NAME_CHARS 40 /* characters of a player's name in hello (no control ones) */

/* ---- client → server ---- */

#define SRV_MSG_LIST(X)                                                                            \
  X(SRV_MSG_HELLO, "hello")                                                                        \
  X(SRV_MSG_MOVE, "move")                                                                          \
  X(SRV_MSG_PREMOVE, "premove")                                                                    \
  X(SRV_MSG_CANCEL_PREMOVE, "cancel_premove")                                                      \
  X(SRV_MSG_OFFER_DRAW, "offer_draw")                                                              \
  X(SRV_MSG_ACCEPT_DRAW, "accept_draw")                                                            \
  X(SRV_MSG_DECLINE_DRAW, "decline_draw")                                                          \
  X(SRV_MSG_CLAIM_DRAW, "claim_draw")                                                              \
  X(SRV_MSG_CLAIM_ABANDONED, "claim_abandoned")                                                    \
  X(SRV_MSG_RESIGN, "resign")                                                                      \
  X(SRV_MSG_ABORT, "abort")                                                                        \
  X(SRV_MSG_REMATCH, "rematch")                                                                    \
  X(SRV_MSG_SETTINGS, "settings")                                                                  \
  X(SRV_MSG_PING, "ping")

typedef enum srv_msg_type {
#define SRV_MSG_ENUM_(name, text) name,
  SRV_MSG_LIST(SRV_MSG_ENUM_)
#undef SRV_MSG_ENUM_
      SRV_MSG_COUNT
} srv_msg_type;

const char *srv_msg_name(srv_msg_type type);

/* One client message, checked for shape (not for the rules: that is the referee's). */
typedef struct srv_msg {
  srv_msg_type type;
  int64_t id;                     /* "id": the client's number for it, -1 when absent */
  char game[SRV_GAME_ID_LEN + 1]; /* hello */
  char token[SRV_TOKEN_LEN + 1];  /* hello: the seat token, "" for a spectator */
  int64_t version;                /* hello: the last version the client saw, -1 none */
  char uci[8];                    /* move, premove, claim_draw (intended move): "" none */
  char san[16];                   /* move: the move in SAN instead ("Nf3", "O-O", "e8=Q") */
  arb_claim_reason reason;        /* claim_draw */
  int64_t lag_ms;                 /* move: the client's lag estimate, -1 none */
  int auto_queen;                 /* settings: 0/1, -1 not given */
  char name[4 * SRV_HELLO_NAME_CHARS + 1]; /* hello: the player's name, "" none (UTF-8) */
} srv_msg;

/* Why a message was refused: a code (the error event's) and a message for a person. */
typedef struct srv_parse_error {
  const char *code; /* "too_big", "json", "too_deep", "bad_message", "unknown_type" */
  char message[160];
} srv_parse_error;

/* Parses one text frame.  0 and *out filled, or -1 with *err.  The message sent with every
 * move, in the shape pages and bots write it, is read without the JSON library; everything
 * else through it. */
int srv_parse_client(const char *text, size_t len, srv_msg *out, srv_parse_error *err);
/* The same, always through the JSON library (what the short way must agree with: tests). */
int srv_parse_client_json(const char *text, size_t len, srv_msg *out, srv_parse_error *err);

/* ---- server → client ---- */

/* What happened, for an update: the referee's decision and the event it answered. */
typedef struct srv_event_info {
  arb_ref_kind kind;       /* ARB_REF_TICK: time did it (a flag, a first move not made) */
  int by;                  /* the player, or -1 */
  int side;                /* a flag's side */
  int premove;             /* the move was a stored premove */
  arb_claim_reason reason; /* a claim's */
  const arb_ref_decision *d;
} srv_event_info;

/* The game as one recipient sees it. */
typedef struct srv_view {
  const char *id;
  uint64_t version;
  const arb_referee *ref;
  const arb_ref_setup *setup; /* how the game starts (before the referee has one) */
  const char *control;        /* the time control in the human grammar, "" untimed */
  int started;                /* both players have come: the referee's game is under way */
  int viewer;                 /* the recipient's seat (arb_color), -1 for a spectator */
  int auto_queen;             /* the viewer's setting */
  int seat_auto_queen[2];     /* both seats' (srv_write_updates writes for both) */
  int connected[2];           /* each seat has a connection now */
  int rematch_offer;          /* the seat that offered a rematch, -1 */
  const char *rematch_id;     /* the rematch's game id, or NULL */
  int64_t server_ms;          /* the server's time now, for the clocks */
  int computer;               /* 0, or 1 + the seat the computer plays */
  int level;                  /* its level */
  const char *names[2];       /* the players' names (the computer's too), NULL or "" none */
  int spectators;             /* connections watching */
  /* The SAN list as JSON ("[...]" of ply_json plies), kept by the game so that it is not
   * written again with every move; NULL: written from the referee's game. */
  const char *moves_json;
  size_t moves_len;
  int moves_ply;
  const char *initial_fen; /* the start position's FEN, kept by the game; NULL: written here */
  size_t size_hint;        /* about how long the last update was (0: unknown) */
} srv_view;

/* The reason a finished game ended, in words a player understands ("Draw: White ran out of
 * time, but Black cannot checkmate by any sequence of legal moves"), into buf (snprintf
 * convention); "" while the game goes on. */
int srv_reason_words(const arb_referee *ref, char *buf, size_t size);

/* A refused move (or premove) in words a player understands, into buf (snprintf convention):
 * "Bxe5 is illegal: the king would be in check from the bishop on b5" — the move as the
 * player meant it, in SAN-like notation (it is not legal, so not SAN proper), and the reason
 * from the library (arb_move_explain).  text is what the client sent (UCI or SAN); p the
 * position it was refused in; refusal and message the referee's.  Refusals that are not about
 * the move itself (not your turn, game over ...) keep the referee's message. */
int srv_refusal_words(const arb_position *p, arb_ref_refusal refusal, const char *text, size_t len,
                      const char *message, char *buf, size_t size);

/* {"t":"state","v":N,"game":{...}}: everything a page needs (docs/protocol.md). */
char *srv_write_state(const srv_view *v);
/* {"t":"update","v":N,"event":{...},"game":{...}} after an accepted event, for White's seat,
 * Black's seat and everyone else (out[0..2]; the shared part is written once), and when
 * ack_seat is a seat, its update again with "ack":ack_id after "t" (out[3], for the connection
 * that sent the event; else out[3] is NULL).  With ev NULL, a state for each.  Each a buffer
 * (session.h) with one reference, written in place.  0, or -1 without memory (then some out[k]
 * are NULL). */
int srv_write_updates(const srv_view *v, const srv_event_info *ev, int ack_seat, int64_t ack_id,
                      srv_buf *out[4]);
/* {"t":"update","v":N,"event":{...},"missed":true}: an update as a client that reconnects
 * after it gets it — the event alone (the game as it is now comes in the state that follows;
 * the game as it was then, in a seat's view, is not kept).  A buffer with one reference, NULL
 * without memory. */
srv_buf *srv_write_missed(const srv_view *v, const srv_event_info *ev);
/* {"t":"ack","id":N[,"duplicate":true]} */
char *srv_write_ack(int64_t id, int duplicate);
/* {"t":"error","code":C,"message":M[,"id":N]} */
char *srv_write_error(const char *code, const char *message, int64_t id);
/* {"dests":{"e2":"e3e4",...}}: the legal destinations of the side to move, as chessground
 * takes them (castling onto the rook too), as the game updates carry them. */
char *srv_write_dests(const arb_position *p);
/* An HTTP answer's error body: {"error":{"code","message"}}. */
char *srv_write_http_error(const char *code, const char *message);
/* {"t":"premove","uci":U} ("" when cancelled or played/dropped), with "dropped": reason */
char *srv_write_premove(const char *uci, const char *dropped);
/* {"t":"rematch","game":ID,"url":"/game/ID#TOKEN"} to one seat */
char *srv_write_rematch(const char *id, const char *token);
/* {"t":"pong","server_ms":N} */
char *srv_write_pong(int64_t server_ms);

/* The game's public state as JSON (the "game" object for a spectator) — GET /api/games/ID. */
char *srv_write_game_json(const srv_view *v);

#endif
