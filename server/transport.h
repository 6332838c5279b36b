/* Arbiter — MIT licence, see LICENSE.
 *
 * transport.h: the network side of `arbiter serve` — one libwebsockets event loop serving the
 * page's static files, the HTTP API and the play WebSocket on one port (transport_lws.c, the
 * only file that includes libwebsockets.h).
 */
#ifndef ARB_SERVER_TRANSPORT_H
#define ARB_SERVER_TRANSPORT_H

#include "server.h"

typedef struct srv_options {
  const char *host;       /* address to listen on ("127.0.0.1") */
  int port;               /* 8080; 0 picks a free port */
  const char *static_dir; /* the page's folder, or NULL */
  const char *origin;     /* the page's origin ("http://localhost:8080"); NULL: the request's own
                             Host, http or https */
  const char *port_file;  /* write the port listened on here once listening (tests), or NULL */
  int hello_timeout_s;    /* a connection that has not said hello by then is closed */
  int poll_loop;          /* 1: lws's own poll() loop (less work per message, but every wakeup
                             scans every socket: for up to a few thousand connections);
                             0: libuv (epoll), for tens of thousands */
} srv_options;

/* Runs until SIGTERM or SIGINT: then it stops taking messages, waits for the store to commit
 * what is queued, sends what waited for it and returns 0.  Returns 1 when it cannot listen. */
int srv_transport_run(const srv_options *opt, srv_config *cfg, srv_store *store);

/* The server's time in milliseconds: CLOCK_MONOTONIC carried on from the wall clock at start,
 * never before `floor_ms` (the last time the store saw), so it goes on increasing across
 * restarts.  srv_clock_init sets the base; srv_clock_now reads it. */
void srv_clock_init(int64_t floor_ms);
int64_t srv_clock_now(void);

#endif
