/* Arbiter — MIT licence, see LICENSE.
 *
 * serve_cmd.c: `arbiter serve` — options, the store, and the transport's loop.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef ARB_WEB_DIR
#define ARB_WEB_DIR "/usr/local/share/arbiter/web"
#endif

#include "pool.h"
#include "transport.h"
#include "util.h"

static void serve_usage(FILE *out) {
  fprintf(out,
          "usage: arbiter serve [--port 8080] [--host 127.0.0.1] [--db FILE | --state-dir DIR]\n"
          "                     [--static DIR] [--origin URL] [--quiet] [--port-file FILE]\n"
          "                     [--no-lag-compensation] [limits...]\n"
          "       arbiter serve --export FILE [--db FILE | --state-dir DIR]\n"
          "\n"
          "The online play server: games under the full rules (arbiter/referee.h decides\n"
          "everything), millisecond clocks on the server's time, premoves, draws declared or\n"
          "claimed per rule set, and every acknowledged move stored in SQLite (WAL,\n"
          "synchronous=FULL) before anyone hears of it.  Unfinished games resume after a\n"
          "restart; the time the server was down, loading, or stalled is charged to nobody.\n"
          "\n"
          "  --port N        port to listen on (0: any free port); one in use is an error\n"
          "  --host ADDR     address to listen on; 0.0.0.0 (or ::) for every interface\n"
          "  --db FILE       the SQLite database (created if missing; one server per file);\n"
          "                  default STATE_DIR/arbiter.db\n"
          "  --state-dir DIR where the database goes: default $STATE_DIRECTORY (systemd),\n"
          "                  else $XDG_STATE_HOME/arbiter, else ~/.local/state/arbiter\n"
          "  --static DIR    the page to serve (/ is DIR/index.html, /game/ID DIR/game.html);\n"
          "                  default ./web/dist in a source tree, else the installed page\n"
          "                  (PREFIX/share/arbiter/web)\n"
          "  --puzzles FILE  the trainer's puzzles (lichess's CSV; default the starter set,\n"
          "                  data/puzzles/starter.csv or PREFIX/share/arbiter/puzzles)\n"
          "  --quiz FILE     the trainer's quiz bank (default data/quiz/bank.jsonl, or installed)\n"
          "  --engine PATH   the computer opponent's UCI engine (default stockfish, on PATH or\n"
          "                  in /usr/games); --no-engine: no computer opponent\n"
          "  --engines N     engine processes at most, one search each at a time [2]\n"
          "  --site NAME     the PGN Site tag of the games (default: Arbiter)\n"
          "  --origin URL    the page's origin WebSockets and POSTs must come from (default:\n"
          "                  the request's own host); clients without an Origin need a seat\n"
          "                  token to play\n"
          "  --no-lag-compensation  online games charge pure server time\n"
          "  --quiet         no log line per game event\n"
          "  --port-file F   write the port listened on to F (for scripts)\n"
          "  --export FILE   write every stored game to FILE as PGN and exit (a running\n"
          "                  server may hold the database meanwhile)\n"
          "\n"
          "Limits (a public server's; the defaults in brackets, 0 turns one off):\n"
          "  --rate N              messages a second one connection may send [5, bursts of 100;\n"
          "                        above: closed with 1008]\n"
          "  --max-conns N         connections at once [20000]\n"
          "  --max-conns-per-ip N  connections at once from one address [256]\n"
          "  --create-rate N       games one address may make a minute [%d; above: 429]\n"
          "  --offer-rate N        draw offers one seat may make a minute [%d]\n"
          "  --expire-unstarted H  hours (or 30m, 90s) after which a game nobody started is\n"
          "                        deleted [%lld]\n"
          "  --min-time S          the least time a control may start with [%lld s]\n"
          "  --hello-timeout S     a WebSocket must say hello within [10 s]\n"
          "  --request-timeout S   a request's head and body must arrive within [10 s; 408]\n"
          "  --trust-proxy         behind a reverse proxy on loopback (nginx): the client is\n"
          "                        the last X-Forwarded-For address, and the proxy's own\n"
          "                        connections are not limited per address\n"
          "\n"
          "HTTP: POST /api/games {\"control\":\"5+3\",\"rules\":\"online\",\"color\":\"random\",\n"
          "\"chess960\":false,\"fen\":FEN} answers the two seat links and the spectator link;\n"
          "GET /api/games/ID (JSON), /api/games/ID.pgn.  WebSocket: /ws, JSON messages\n"
          "(docs/protocol.md).  SIGTERM stores what is pending and exits.\n"
          "Exit status: 0 on SIGTERM or SIGINT, 1 when it cannot start (the port is taken,\n"
          "the database is held by another server, unwritable or damaged), 2 on bad usage.\n",
          SRV_CREATE_PER_MINUTE, SRV_OFFERS_PER_MINUTE, (long long)(SRV_UNSTARTED_TTL_MS / 3600000),
          (long long)(SRV_MIN_TIME_MS / 1000));
}

/* A whole number in [lo, hi] from argv[i], or -1 after saying what is wrong. */
static long long number_arg(const char *flag, const char *text, long long lo, long long hi) {
  char *end;
  long long v = strtoll(text, &end, 10);
  if (!*text || *end || v < lo || v > hi) {
    fprintf(stderr, "arbiter serve: %s takes a whole number from %lld to %lld, not '%s'\n", flag,
            lo, hi, text);
    return -1;
  }
  return v;
}

/* The page when no --static names one: web/dist in a source tree (make run), else the one
 * installed beside the program (PREFIX/share/arbiter/web, found from the program's own path,
 * so a relocated install works), else the one the build was configured for. */
static const char *default_page(char *buf, size_t size) {
  struct stat st;
  if (!stat("web/dist/index.html", &st)) return "web/dist";
  if (!arb_tool_data_file("web/index.html", buf, size)) return NULL;
  buf[strlen(buf) - strlen("/index.html")] = 0;
  return buf;
}

/* The state folder when neither --db nor --state-dir says: systemd's $STATE_DIRECTORY, else
 * $XDG_STATE_HOME/arbiter, else ~/.local/state/arbiter. */
static const char *default_state_dir(char *buf, size_t size) {
  const char *v = getenv("STATE_DIRECTORY");
  if (v && *v) {
    snprintf(buf, size, "%.*s", (int)strcspn(v, ":"), v); /* the first, if several */
    return buf;
  }
  if ((v = getenv("XDG_STATE_HOME")) && *v) {
    snprintf(buf, size, "%s/arbiter", v);
    return buf;
  }
  if ((v = getenv("HOME")) && *v) {
    snprintf(buf, size, "%s/.local/state/arbiter", v);
    return buf;
  }
  return NULL;
}

int arb_cmd_serve(int argc, char **argv) {
  srv_options opt;
  memset(&opt, 0, sizeof opt);
  opt.host = "127.0.0.1";
  opt.port = 8080;
  opt.hello_timeout_s = 10;
  opt.request_timeout_s = 10;
  opt.max_conns = 20000;
  opt.max_conns_per_ip = 256;
  srv_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.limits = (srv_limits){5.0, 100.0, 1024, 4u << 20};
  cfg.lag_compensation = 1;
  cfg.site = "";
  cfg.create_per_minute = SRV_CREATE_PER_MINUTE;
  cfg.offers_per_minute = SRV_OFFERS_PER_MINUTE;
  cfg.unstarted_ttl_ms = SRV_UNSTARTED_TTL_MS;
  cfg.min_time_ms = SRV_MIN_TIME_MS;
  const char *db = NULL, *export_path = NULL, *state_dir = NULL, *engine = "stockfish";
  uint32_t debug_log_rows = 0;
  char engine_buf[PATH_MAX];
  opt.engines = 2;
  struct stat st;
  char page_buf[PATH_MAX], state_buf[PATH_MAX], db_buf[PATH_MAX + 16];
  opt.static_dir = default_page(page_buf, sizeof page_buf);
  char puzzles_buf[PATH_MAX], quiz_buf[PATH_MAX];
  opt.puzzles = arb_tool_data_file("puzzles/starter.csv", puzzles_buf, sizeof puzzles_buf);
  opt.quiz = arb_tool_data_file("quiz/bank.jsonl", quiz_buf, sizeof quiz_buf);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    long long v = 0;
#define NUMBER(flag, lo, hi)                                                                       \
  (!strcmp(a, flag) && more &&                                                                     \
   ((v = number_arg(flag, argv[++i], lo, hi)) >= 0 ? 1 : (exit_bad = 1)))
    int exit_bad = 0;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      serve_usage(stdout);
      return 0;
    } else if (NUMBER("--port", 0, 65535)) {
      opt.port = (int)v;
    } else if (!strcmp(a, "--host") && more) {
      opt.host = argv[++i];
    } else if (!strcmp(a, "--db") && more) {
      db = argv[++i];
    } else if (!strcmp(a, "--puzzles") && more) {
      opt.puzzles = argv[++i];
    } else if (!strcmp(a, "--quiz") && more) {
      opt.quiz = argv[++i];
    } else if (!strcmp(a, "--engine") && more) {
      engine = argv[++i];
    } else if (!strcmp(a, "--site") && more) {
      cfg.site = argv[++i]; /* the PGN Site tag */
    } else if (!strcmp(a, "--no-engine")) {
      engine = NULL;
    } else if (NUMBER("--engines", 1, 16)) {
      opt.engines = (int)v;
    } else if (!strcmp(a, "--state-dir") && more) {
      state_dir = argv[++i];
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
    } else if (NUMBER("--max-conns", 0, 10000000)) {
      opt.max_conns = (int)v;
    } else if (NUMBER("--max-conns-per-ip", 0, 10000000)) {
      opt.max_conns_per_ip = (int)v;
    } else if (NUMBER("--create-rate", 0, 1000000)) {
      cfg.create_per_minute = (int)v;
    } else if (NUMBER("--offer-rate", 0, 1000000)) {
      cfg.offers_per_minute = (int)v;
    } else if (!strcmp(a, "--expire-unstarted") && more) {
      /* hours, or a number with s, m or h */
      char *end;
      const char *text = argv[++i];
      double x = strtod(text, &end);
      double unit = !strcmp(end, "s") ? 1000 : !strcmp(end, "m") ? 60000 : 3600000;
      if (end == text || x < 0 ||
          (*end && strcmp(end, "s") && strcmp(end, "m") && strcmp(end, "h"))) {
        fprintf(stderr, "arbiter serve: --expire-unstarted takes hours (24) or 30m, 90s, 2h\n");
        return 2;
      }
      cfg.unstarted_ttl_ms = (int64_t)(x * unit);
    } else if (NUMBER("--min-time", 0, 86400)) {
      cfg.min_time_ms = v * 1000;
    } else if (NUMBER("--hello-timeout", 1, 3600)) {
      opt.hello_timeout_s = (int)v;
    } else if (NUMBER("--request-timeout", 1, 3600)) {
      opt.request_timeout_s = (int)v;
    } else if (NUMBER("--debug-stall", 1, 60000)) {
      opt.debug_stall_ms = (int)v; /* tests only: GET /api/debug/stall holds the loop */
    } else if (NUMBER("--debug-log-rows", 1, 1000000)) {
      debug_log_rows = (uint32_t)v; /* tests only: events copied out of the log this soon */
    } else if (!strcmp(a, "--trust-proxy")) {
      opt.trust_proxy = 1;
    } else if (!strcmp(a, "--no-lag-compensation")) {
      cfg.lag_compensation = 0;
    } else if (!strcmp(a, "--quiet")) {
      cfg.quiet = 1;
    } else if (!strcmp(a, "--port-file") && more) {
      opt.port_file = argv[++i];
    } else if (!strcmp(a, "--export") && more) {
      export_path = argv[++i];
    } else if (!exit_bad) {
      if (!strcmp(a, "--loop"))
        fprintf(stderr, "arbiter serve: --loop is gone: the server has one loop (libuv, epoll)\n");
      else
        fprintf(stderr, "arbiter serve: unexpected argument '%s'\n", a);
      serve_usage(stderr);
      return 2;
    }
    if (exit_bad) return 2;
#undef NUMBER
  }
  if (!db) {
    if (!state_dir) state_dir = default_state_dir(state_buf, sizeof state_buf);
    if (!state_dir) {
      fprintf(stderr, "arbiter serve: no --db, no --state-dir and no $HOME: name a database\n");
      return 2;
    }
    if (!export_path && arb_tool_make_dirs(state_dir)) {
      fprintf(stderr, "arbiter serve: cannot make the state folder %s: %s\n", state_dir,
              strerror(errno));
      return 1;
    }
    snprintf(db_buf, sizeof db_buf, "%s/arbiter.db", state_dir);
    db = db_buf;
  }
  if (!opt.static_dir)
    fprintf(stderr,
            "arbiter serve: no page to serve (no web/dist here, none installed at %s): "
            "the API and WebSocket only; build the page with scripts/web.sh or name it "
            "with --static\n",
            ARB_WEB_DIR);
  if (opt.static_dir && stat(opt.static_dir, &st)) {
    fprintf(stderr, "arbiter serve: %s: no such folder\n", opt.static_dir);
    return 2;
  }
  char err[1024] = "";
  srv_store *store =
      export_path ? srv_store_open_read(db, err, sizeof err) : srv_store_open(db, err, sizeof err);
  if (!store) {
    fprintf(stderr, "arbiter serve: %s\n", err);
    return 1;
  }
  if (debug_log_rows && !export_path) srv_store_set_log_keep(store, debug_log_rows);
  if (engine && eng_find(engine, engine_buf, sizeof engine_buf) == 0) {
    opt.engine = cfg.engine = engine_buf;
  } else if (engine && strcmp(engine, "stockfish")) {
    fprintf(stderr, "arbiter serve: --engine %s: no such program\n", engine);
    srv_store_close(store);
    return 2;
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
    srv_io io = {NULL, NULL, NULL, NULL, NULL};
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
