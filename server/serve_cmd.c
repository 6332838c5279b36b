/* Arbiter — MIT licence, see LICENSE.
 *
 * serve_cmd.c: `arbiter serve` — options, the store, and the transport's loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "transport.h"
#include "util.h"

static void serve_usage(FILE *out) {
  fprintf(out,
          "usage: arbiter serve [--port 8080] [--host 127.0.0.1] [--db arbiter.db]\n"
          "                     [--static DIR] [--origin URL] [--rate N] [--quiet]\n"
          "                     [--no-lag-compensation] [--port-file FILE] [--loop libuv|poll]\n"
          "       arbiter serve --export FILE [--db arbiter.db]\n"
          "\n"
          "The online play server: games under the full rules (arbiter/referee.h decides\n"
          "everything), millisecond clocks on the server's time, premoves, draws declared or\n"
          "claimed per rule set, and every acknowledged move stored in SQLite (WAL,\n"
          "synchronous=FULL) before anyone hears of it.  Unfinished games resume after a\n"
          "restart; the time the server was down is charged to nobody.\n"
          "\n"
          "  --port N        port to listen on (0: any free port)\n"
          "  --host ADDR     address to listen on; 0.0.0.0 for every interface\n"
          "  --db FILE       the SQLite database (created if missing)\n"
          "  --static DIR    the page to serve (/ is DIR/index.html, /game/ID DIR/game.html)\n"
          "  --origin URL    the page's origin WebSockets must come from (default: the\n"
          "                  request's own host); connections without an Origin need a seat\n"
          "                  token to play\n"
          "  --rate N        messages per second a connection may send (default 5, bursts of\n"
          "                  100; above that it is closed with 1008)\n"
          "  --no-lag-compensation  online games charge pure server time\n"
          "  --quiet         no log line per game event\n"
          "  --port-file F   write the port listened on to F (for scripts)\n"
          "  --loop L        libuv (default: epoll, for tens of thousands of connections) or\n"
          "                  poll (libwebsockets' own loop: less work per message, but every\n"
          "                  wakeup scans every socket; for up to a few thousand)\n"
          "  --export FILE   write every stored game to FILE as PGN and exit\n"
          "\n"
          "HTTP: POST /api/games {\"control\":\"5+3\",\"rules\":\"online\",\"color\":\"random\",\n"
          "\"chess960\":false,\"fen\":FEN} answers the two seat links and the spectator link;\n"
          "GET /api/games/ID (JSON), /api/games/ID.pgn.  WebSocket: /ws, JSON messages\n"
          "(docs/protocol.md).  SIGTERM stores what is pending and exits.\n"
          "Exit status: 0 on SIGTERM or SIGINT, 1 when it cannot start, 2 on bad usage.\n");
}

int arb_cmd_serve(int argc, char **argv) {
  srv_options opt = {"127.0.0.1", 8080, NULL, NULL, NULL, 10, 0};
  srv_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.limits = (srv_limits){5.0, 100.0, 1024, 4u << 20};
  cfg.lag_compensation = 1;
  cfg.site = "";
  const char *db = "arbiter.db", *export_path = NULL;
  struct stat st;
  if (!stat("web/dist/index.html", &st)) opt.static_dir = "web/dist";
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      serve_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--port") && more) {
      char *end;
      long p = strtol(argv[++i], &end, 10);
      if (*end || p < 0 || p > 65535) {
        fprintf(stderr, "arbiter serve: bad port '%s'\n", argv[i]);
        return 2;
      }
      opt.port = (int)p;
    } else if (!strcmp(a, "--host") && more) {
      opt.host = argv[++i];
    } else if (!strcmp(a, "--db") && more) {
      db = argv[++i];
    } else if (!strcmp(a, "--static") && more) {
      opt.static_dir = argv[++i];
    } else if (!strcmp(a, "--origin") && more) {
      opt.origin = argv[++i];
    } else if (!strcmp(a, "--rate") && more) {
      char *end;
      double r = strtod(argv[++i], &end);
      if (*end || r <= 0) {
        fprintf(stderr, "arbiter serve: bad rate '%s'\n", argv[i]);
        return 2;
      }
      cfg.limits.rate = r;
      if (cfg.limits.burst < r) cfg.limits.burst = r;
    } else if (!strcmp(a, "--loop") && more) {
      const char *l = argv[++i];
      if (strcmp(l, "poll") && strcmp(l, "libuv")) {
        fprintf(stderr, "arbiter serve: --loop is poll or libuv\n");
        return 2;
      }
      opt.poll_loop = !strcmp(l, "poll");
    } else if (!strcmp(a, "--no-lag-compensation")) {
      cfg.lag_compensation = 0;
    } else if (!strcmp(a, "--quiet")) {
      cfg.quiet = 1;
    } else if (!strcmp(a, "--port-file") && more) {
      opt.port_file = argv[++i];
    } else if (!strcmp(a, "--export") && more) {
      export_path = argv[++i];
    } else {
      fprintf(stderr, "arbiter serve: unexpected argument '%s'\n", a);
      serve_usage(stderr);
      return 2;
    }
  }
  if (opt.static_dir && stat(opt.static_dir, &st)) {
    fprintf(stderr, "arbiter serve: %s: no such folder\n", opt.static_dir);
    return 2;
  }
  char err[512];
  srv_store *store = srv_store_open(db, err, sizeof err);
  if (!store) {
    fprintf(stderr, "arbiter serve: %s\n", err);
    return 1;
  }
  srv_clock_init(srv_store_last_heartbeat(store));
  int rc;
  if (export_path) {
    FILE *out = strcmp(export_path, "-") ? fopen(export_path, "w") : stdout;
    if (!out) {
      fprintf(stderr, "arbiter serve: %s: cannot open for writing\n", export_path);
      srv_store_close(store);
      return 2;
    }
    srv_io io = {NULL, NULL, NULL, NULL};
    cfg.quiet = 1;
    srv_server *sv = srv_server_new(&cfg, &io, store);
    long n = sv ? srv_server_export(sv, out) : -1;
    srv_server_free(sv);
    if (out != stdout && fclose(out) != 0) n = -1;
    fprintf(stderr, "arbiter serve: %ld games exported\n", n < 0 ? 0 : n);
    rc = n < 0 ? 1 : 0;
  } else {
    rc = srv_transport_run(&opt, &cfg, store);
  }
  srv_store_close(store);
  return rc;
}
