/* Arbiter — MIT licence, see LICENSE.
 *
 * serve.c: `arbiter serve` under load on loopback.  N games (default 1,000; also run with
 * --games 10000), two players each on their own WebSocket, moving as fast as the acks allow:
 * the player on move sends its move the moment the update saying so arrives.  Durability stays
 * on (SQLite WAL, synchronous=FULL, group commit): every ack measured is a committed move.
 * Prints durable moves per second, the ack latency (p50, p99, max: from sending a move to its
 * ack), the CPU time each side spent per durable move (repeatable on a busy machine, unlike
 * the throughput), and the server's memory per idle game (resident memory after the games are made
 * and joined, less before, over N).
 *
 * The client is a small epoll loop with its own WebSocket framing, so that it, not the server,
 * is the cheaper side on this machine's two cores.  The games are a knight shuffle under the
 * US Chess rules, where repetitions and the 75-move rule end nothing by themselves.
 *
 * With --pace MS each player thinks MS before it moves, so the load is what N games at that
 * pace offer, not the most the server can take: the ack latency then is what a player sees.
 *
 * usage: bench/serve [--games N] [--seconds S] [--pace MS] [--dir DIR]
 *        [ARBITER]   (DIR: where the database goes, /tmp by default; on a tmpfs the disk's
 *        flushes are left out)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef ARB_CLI_PATH
#define ARB_CLI_PATH "arbiter"
#endif

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int port;

static int dial(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
    perror("bench/serve: connect");
    exit(1);
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

static void send_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      perror("bench/serve: write");
      exit(1);
    }
    p += w;
    n -= (size_t)w;
  }
}

/* Reads until the headers end (blocking); returns the bytes read into buf. */
static size_t read_headers(int fd, char *buf, size_t size) {
  size_t n = 0;
  while (n < size - 1) {
    ssize_t r = read(fd, buf + n, size - 1 - n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      snprintf(buf + n, size - n, "(%s)", r < 0 ? strerror(errno) : "closed");
      return n;
    }
    n += (size_t)r;
    buf[n] = 0;
    if (strstr(buf, "\r\n\r\n")) break;
  }
  buf[n] = 0;
  return n;
}

/* POST /api/games: the id and the two tokens. */
static void create_game(char id[16], char tok[2][32]) {
  static const char body[] = "{\"rules\":\"uscf\",\"color\":\"white\"}";
  char req[512], resp[4096];
  int fd = dial();
  int n = snprintf(req, sizeof req,
                   "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                   "\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
                   sizeof body - 1, body);
  send_all(fd, req, (size_t)n);
  size_t got = 0;
  ssize_t r;
  while (got < sizeof resp - 1 && (r = read(fd, resp + got, sizeof resp - 1 - got)) > 0)
    got += (size_t)r;
  resp[got] = 0;
  close(fd);
  const char *p = strstr(resp, "\"id\":\"");
  const char *w = strstr(resp, "\"white\":\"/game/");
  const char *b = strstr(resp, "\"black\":\"/game/");
  if (!p || !w || !b) {
    fprintf(stderr, "bench/serve: cannot create a game: %s\n", resp);
    exit(1);
  }
  sscanf(p + 6, "%15[^\"]", id);
  sscanf(strchr(w, '#') + 1, "%31[^\"]", tok[0]);
  sscanf(strchr(b, '#') + 1, "%31[^\"]", tok[1]);
}

/* A client frame: text, final, masked with a zero key (RFC 6455 requires the mask bit). */
static void ws_send(int fd, const char *text) {
  unsigned char frame[600];
  size_t n = strlen(text), h = 0;
  frame[h++] = 0x81;
  if (n < 126) {
    frame[h++] = (unsigned char)(0x80 | n);
  } else {
    frame[h++] = 0x80 | 126;
    frame[h++] = (unsigned char)(n >> 8);
    frame[h++] = (unsigned char)n;
  }
  memset(frame + h, 0, 4);
  h += 4;
  memcpy(frame + h, text, n);
  send_all(fd, (char *)frame, h + n);
}

typedef struct player {
  int fd, color, game;
  int next; /* which of the two shuffle moves comes next */
  unsigned id;
  double sent; /* when the move in flight was sent, 0 none */
  unsigned char *buf;
  size_t len, cap;
} player;

static player *players;
static double *lat;
static size_t nlat, caplat;
static long moves;
static int measuring, playing;
/* --pace MS: a player thinks MS on average before moving (half to one and a half times it, so
 * that the games do not move in step): a min-heap of who moves when */
static double pace;
typedef struct due_t {
  double at;
  player *p;
} due_t;
static due_t *due;
static size_t due_n;
static uint64_t rng = 88172645463325252u;

static double uniform(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}

static void due_push(player *p, double at) {
  size_t i = due_n++;
  for (; i && due[(i - 1) / 2].at > at; i = (i - 1) / 2)
    due[i] = due[(i - 1) / 2];
  due[i] = (due_t){at, p};
}

static player *due_pop(void) {
  player *top = due[0].p;
  due_t last = due[--due_n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= due_n) break;
    if (c + 1 < due_n && due[c + 1].at < due[c].at) c++;
    if (due[c].at >= last.at) break;
    due[i] = due[c];
    i = c;
  }
  if (due_n) due[i] = last;
  return top;
}

static const char *const shuffle[2][2] = {{"g1f3", "f3g1"}, {"g8f6", "f6g8"}};

static void make_move(player *p) {
  char msg[96];
  snprintf(msg, sizeof msg, "{\"t\":\"move\",\"uci\":\"%s\",\"id\":%u}", shuffle[p->color][p->next],
           ++p->id);
  p->sent = now_s();
  ws_send(p->fd, msg);
}

/* One complete text message from the server to p. */
static void on_message(player *p, const char *m, size_t n) {
  (void)n;
  if (!strncmp(m, "{\"t\":\"update\",\"ack\":", 20)) {
    if (p->sent > 0) {
      double l = now_s() - p->sent;
      if (measuring) {
        if (nlat == caplat) {
          caplat = caplat ? 2 * caplat : 65536;
          lat = realloc(lat, caplat * sizeof *lat);
        }
        lat[nlat++] = l;
        moves++;
      }
      p->sent = 0;
      p->next ^= 1;
    }
  }
  if (!strncmp(m, "{\"t\":\"update\"", 13) || !strncmp(m, "{\"t\":\"state\"", 12)) {
    const char *turn = strstr(m, "\"turn\":\"");
    if (!turn || !strstr(m, "\"status\":\"ongoing\"")) return;
    int mine = (turn[8] == 'w') == (p->color == 0);
    if (!mine || p->sent != 0 || !playing) return;
    if (pace <= 0) {
      make_move(p);
      return;
    }
    p->sent = -1; /* thinking */
    due_push(p, now_s() + pace * (0.5 + uniform()));
  }
}

/* Parses the server's (unmasked) frames out of p's buffer. */
static void on_readable(player *p) {
  for (;;) {
    if (p->cap - p->len < 65536) {
      p->cap = p->cap ? 2 * p->cap : 131072;
      p->buf = realloc(p->buf, p->cap);
    }
    ssize_t r = read(p->fd, p->buf + p->len, p->cap - p->len - 1); /* room for a NUL */
    if (r < 0 && (errno == EAGAIN || errno == EINTR)) break;
    if (r <= 0) {
      fprintf(stderr, "bench/serve: the server closed a connection\n");
      exit(1);
    }
    p->len += (size_t)r;
  }
  size_t at = 0;
  while (p->len - at >= 2) {
    unsigned char *f = p->buf + at;
    size_t h = 2, n = f[1] & 0x7f;
    if (n == 126) {
      if (p->len - at < 4) break;
      n = (size_t)f[2] << 8 | f[3];
      h = 4;
    } else if (n == 127) {
      if (p->len - at < 10) break;
      n = 0;
      for (int i = 0; i < 8; i++)
        n = n << 8 | f[2 + i];
      h = 10;
    }
    if (p->len - at < h + n) break;
    int op = f[0] & 0x0f;
    if (op == 1) {
      char save = (char)f[h + n];
      f[h + n] = 0;
      on_message(p, (char *)f + h, n);
      f[h + n] = (unsigned char)save;
    } else if (op == 9) { /* ping: pong with the same payload */
      unsigned char pong[140] = {0x8a, (unsigned char)(0x80 | n), 0, 0, 0, 0};
      memcpy(pong + 6, f + h, n < 125 ? n : 125);
      send_all(p->fd, (char *)pong, 6 + (n < 125 ? n : 125));
    }
    at += h + n;
  }
  memmove(p->buf, p->buf + at, p->len - at);
  p->len -= at;
}

static long rss_kb(pid_t pid) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  FILE *f = fopen(path, "r");
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6)) kb = strtol(line + 6, NULL, 10);
  if (f) fclose(f);
  return kb;
}

/* The CPU time a process has used, user and system, in seconds (/proc/PID/stat, fields 14 and
 * 15, in clock ticks); -1 when unreadable.  CPU time, unlike throughput, hardly depends on what
 * else the machine runs: the figure to compare between two builds on a busy machine. */
static int cpu_s(pid_t pid, double *user, double *sys) {
  char path[64], line[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char *ok = fgets(line, sizeof line, f);
  fclose(f);
  char *p = ok ? strrchr(line, ')') : NULL; /* the name may hold blanks: fields after it */
  unsigned long ut, st;
  if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
    return -1;
  const double hz = (double)sysconf(_SC_CLK_TCK);
  *user = (double)ut / hz;
  *sys = (double)st / hz;
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int games = 1000;
  double seconds = 10;
  const char *arbiter = ARB_CLI_PATH, *where = "/tmp";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--games") && i + 1 < argc)
      games = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
      where = argv[++i];
    else if (!strcmp(argv[i], "--pace") && i + 1 < argc)
      pace = atof(argv[++i]) / 1000.0;
    else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
      seconds = atof(argv[++i]);
    else if (argv[i][0] != '-')
      arbiter = argv[i];
    else {
      fprintf(stderr,
              "usage: %s [--games N] [--seconds S] [--pace MS] [--dir DIR] "
              "[ARBITER]\n",
              argv[0]);
      return 2;
    }
  }
  /* room for 2 connections a game on both sides */
  struct rlimit rl;
  getrlimit(RLIMIT_NOFILE, &rl);
  rlim_t need = (rlim_t)(2 * games + 64);
  if (rl.rlim_max < need) rl.rlim_max = need; /* allowed as root (the server inherits it) */
  rl.rlim_cur = rl.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &rl)) getrlimit(RLIMIT_NOFILE, &rl);
  if (rl.rlim_cur < need) {
    /* the server holds a socket per player too: as many games as both sides can hold */
    int fit = (int)((rl.rlim_cur - 200) / 2); /* the server keeps a few for itself */
    printf("bench/serve: %d games need %lu file descriptors a process and the limit here is %lu "
           "(not raised without privileges): %d games instead\n",
           games, (unsigned long)need, (unsigned long)rl.rlim_cur, fit);
    games = fit;
  }
  signal(SIGPIPE, SIG_IGN);
  char dir[256];
  snprintf(dir, sizeof dir, "%s/arb-bench-serve-XXXXXX", where);
  if (!mkdtemp(dir)) return 1;
  char db[300], pf[300];
  snprintf(db, sizeof db, "%s/games.db", dir);
  snprintf(pf, sizeof pf, "%s/port", dir);
  pid_t pid = fork();
  if (pid == 0) {
    execl(arbiter, arbiter, "serve", "--port", "0", "--port-file", pf, "--db", db, "--quiet",
          "--rate", "100000", "--no-lag-compensation", "--create-rate", "0", "--max-conns-per-ip",
          "0", "--max-conns", "0", (char *)NULL);
    perror("bench/serve: exec");
    _exit(1);
  }
  struct stat st;
  for (int i = 0; i < 3000 && stat(pf, &st); i++)
    usleep(10000);
  FILE *f = fopen(pf, "r");
  if (!f || fscanf(f, "%d", &port) != 1) {
    fprintf(stderr, "bench/serve: the server did not start\n");
    kill(pid, SIGKILL);
    return 1;
  }
  fclose(f);
  usleep(100000);
  long rss0 = rss_kb(pid);
  double t0 = now_s();
  char(*ids)[16] = calloc((size_t)games, 16);
  char(*toks)[2][32] = calloc((size_t)games, sizeof *toks);
  for (int g = 0; g < games; g++)
    create_game(ids[g], toks[g]);
  double t_create = now_s() - t0;
  long rss_made = rss_kb(pid);
  players = calloc((size_t)games * 2, sizeof *players);
  due = calloc((size_t)games * 2 + 1, sizeof *due);
  int ep = epoll_create1(0);
  char req[512], hdr[2048];
  for (int g = 0; g < games; g++)
    for (int c = 0; c < 2; c++) {
      player *p = &players[2 * g + c];
      p->fd = dial();
      p->color = c;
      p->game = g;
      int n = snprintf(req, sizeof req,
                       "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                       "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                       "Sec-WebSocket-Version: 13\r\n\r\n",
                       port);
      send_all(p->fd, req, (size_t)n);
      read_headers(p->fd, hdr, sizeof hdr);
      if (strncmp(hdr, "HTTP/1.1 101", 12)) {
        fprintf(stderr, "bench/serve: no WebSocket for player %d: %.80s\n", 2 * g + c, hdr);
        kill(pid, SIGKILL);
        return 1;
      }
      fcntl(p->fd, F_SETFL, fcntl(p->fd, F_GETFL, 0) | O_NONBLOCK);
      /* hello at once: the server closes connections that stay silent */
      char msg[128];
      snprintf(msg, sizeof msg, "{\"t\":\"hello\",\"game\":\"%s\",\"token\":\"%s\"}", ids[g],
               toks[g][c]);
      ws_send(p->fd, msg);
      struct epoll_event e = {.events = EPOLLIN, .data.ptr = p};
      epoll_ctl(ep, EPOLL_CTL_ADD, p->fd, &e);
      /* read what has come meanwhile (the server pings the quiet ones) */
      struct epoll_event now_ready[64];
      int ready = epoll_wait(ep, now_ready, 64, 0);
      for (int k = 0; k < ready; k++)
        on_readable(now_ready[k].data.ptr);
    }

  struct epoll_event evs[512];
  /* the games started and idle: memory */
  for (double until = now_s() + 1.0 + games / 2000.0; now_s() < until;) {
    int n = epoll_wait(ep, evs, 512, 50);
    for (int i = 0; i < n; i++)
      on_readable(evs[i].data.ptr);
  }
  long rss_idle = rss_kb(pid);
  /* then play: White's first moves, and every move brings the next; warm up for a second.
   * Paced, the first moves are spread over one pace, as the moves of games under way are
   * (not all at once: a wave the size of the whole room that would take many moves to even
   * out). */
  playing = 1;
  for (int g = 0; g < games; g++) {
    if (pace > 0) {
      players[2 * g].sent = -1; /* thinking */
      due_push(&players[2 * g], now_s() + pace * uniform());
    } else {
      make_move(&players[2 * g]);
    }
  }
  double start = now_s(), measure_from = start + 1.0, end = measure_from + seconds;
  double srv_user0 = 0, srv_sys0 = 0, cli_user0 = 0, cli_sys0 = 0;
  while (now_s() < end) {
    if (!measuring && now_s() >= measure_from) {
      measuring = 1;
      measure_from = now_s();
      cpu_s(pid, &srv_user0, &srv_sys0);
      cpu_s(getpid(), &cli_user0, &cli_sys0);
    }
    int wait_ms = 100;
    if (due_n) {
      double d = due[0].at - now_s();
      wait_ms = d <= 0 ? 0 : (int)(d * 1000) + 1;
    }
    int n = epoll_wait(ep, evs, 512, wait_ms);
    for (int i = 0; i < n; i++)
      on_readable(evs[i].data.ptr);
    for (double t = now_s(); due_n && due[0].at <= t;)
      make_move(due_pop());
  }
  double span = now_s() - measure_from;
  double srv_user = 0, srv_sys = 0, cli_user = 0, cli_sys = 0;
  cpu_s(pid, &srv_user, &srv_sys);
  cpu_s(getpid(), &cli_user, &cli_sys);
  long rss_end = rss_kb(pid);
  qsort(lat, nlat, sizeof *lat, cmp_double);
  double p50 = nlat ? lat[nlat / 2] : 0, p99 = nlat ? lat[(size_t)((double)nlat * 0.99)] : 0;
  double mx = nlat ? lat[nlat - 1] : 0;
  printf("arbiter serve: %d games, %d WebSockets, durable (WAL, synchronous=FULL), %.0f s\n", games,
         2 * games, seconds);
  printf("  made %d games in %.2f s (%.2f ms each, committed before the answer)\n", games, t_create,
         t_create / games * 1e3);
  printf("  moves acknowledged: %ld in %.2f s = %.0f durable moves/s\n", moves, span,
         (double)moves / span);
  printf("  ack latency: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", p50 * 1e3, p99 * 1e3, mx * 1e3);
  if (moves > 0) /* the server's writer thread is in its process's figure */
    printf("  CPU per durable move: server %.1f us (user %.1f, system %.1f), this client %.1f us\n",
           (srv_user - srv_user0 + srv_sys - srv_sys0) / (double)moves * 1e6,
           (srv_user - srv_user0) / (double)moves * 1e6, (srv_sys - srv_sys0) / (double)moves * 1e6,
           (cli_user - cli_user0 + cli_sys - cli_sys0) / (double)moves * 1e6);
  printf("  server memory: %.1f KB per game made, %.1f KB per game with its two players "
         "joined, %.1f KB per game after the run (RSS %ld -> %ld -> %ld -> %ld KB)\n",
         (double)(rss_made - rss0) / games, (double)(rss_idle - rss0) / games,
         (double)(rss_end - rss0) / games, rss0, rss_made, rss_idle, rss_end);
  fflush(stdout);
  kill(pid, SIGTERM);
  int status;
  waitpid(pid, &status, 0);
  for (int i = 0; i < 2 * games; i++)
    close(players[i].fd);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) return 1;
  return 0;
}
