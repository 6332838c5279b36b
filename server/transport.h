/* Arbiter — MIT licence, see LICENSE.
 *
 * transport.h: the network side of `arbiter serve` — one libuv event loop (epoll) serving the
 * page's static files, the HTTP API and the play WebSocket on one port (transport_uv.c; the
 * bytes are read by http.c and ws.c).
 */
#ifndef ARB_SERVER_TRANSPORT_H
#define ARB_SERVER_TRANSPORT_H

#include "server.h"

typedef struct srv_options {
  const char *host;       /* address to listen on ("127.0.0.1"; "::1" and "::" too) */
  int port;               /* 8080; 0 picks a free port */
  const char *static_dir; /* the page's folder, or NULL */
  const char *origin;     /* the page's origin ("http://localhost:8080"); NULL: the request's own
                             Host, http or https */
  const char *port_file;  /* write the port listened on here once listening (tests), or NULL */
  int hello_timeout_s;    /* a WebSocket that has not said hello by then is closed */
  int request_timeout_s;  /* a request's head and body must arrive within this (slowloris) */
  int max_conns;          /* connections at once (beyond: refused at once); 0 no limit */
  int max_conns_per_ip;   /* connections at once from one address; 0 no limit */
  int trust_proxy;        /* behind a reverse proxy on loopback: the client's address is the
                             last of X-Forwarded-For, and loopback peers are not limited per
                             address (the proxy limits them) */
  int debug_stall_ms;     /* tests only: GET /api/debug/stall holds the loop this long */
  const char *puzzles;    /* the trainer's puzzle CSV, or NULL */
  const char *quiz;       /* the trainer's quiz bank (JSON lines), or NULL */
  const char *engine;     /* the computer opponent's program (a path), or NULL: none */
  int engines;            /* its processes at most */
} srv_options;

/* Runs until SIGTERM or SIGINT: then it stops taking messages, waits (at most a few seconds)
 * for the store to commit what is queued, sends what waited for it and returns 0.  Returns 1
 * when it cannot listen (the port is in use, say) or the store could not commit what was
 * queued at the end. */
int srv_transport_run(const srv_options *opt, srv_config *cfg, srv_store *store);

/* The server's time in milliseconds: CLOCK_MONOTONIC carried on from the wall clock at start,
 * never before `floor_ms` (the last time the store saw), so it goes on increasing across
 * restarts.  srv_clock_init sets the base; srv_clock_now reads it. */
void srv_clock_init(int64_t floor_ms);
int64_t srv_clock_now(void);

#endif
