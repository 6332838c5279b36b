/* Arbiter — MIT licence, see LICENSE.
 *
 * uci.c: the UCI engine client (uci.h).  POSIX: fork/exec with three pipes, the child in its own
 * process group, poll() with deadlines on a monotonic clock, lines split on '\n' with '\r' and
 * blanks stripped and capped at 64 KiB, stderr drained into the log so it never blocks.
 */
#define _POSIX_C_SOURCE 200809L
#include "uci.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#define LINE_MAX_BYTES 65536
#define MAX_OPTIONS 128

struct uci_engine {
  pid_t pid;
  int in, out, err; /* our ends: engine's stdin, stdout, stderr */
  FILE *log;
  char buf[LINE_MAX_BYTES + 1];
  size_t len;
  char name[128];
  char options[MAX_OPTIONS][64];
  char values[MAX_OPTIONS][64]; /* the declared default, then the value we set */
  int noptions;
  int dead;
  int64_t stop_grace;
  int64_t ready_ms;
  int pondering; /* a `go ponder` search runs on ponder_pos */
  int ponder_chess960;
  arb_position ponder_pos;
};

static const char *const status_names[] = {"ok",      "no_move", "illegal", "malformed",
                                           "timeout", "crashed", "stalled", "start_failed"};

const char *uci_status_name(uci_status s) {
  return (unsigned)s < sizeof status_names / sizeof *status_names ? status_names[s] : "";
}

static void logf_(uci_engine *e, const char *fmt, ...) {
  if (!e->log) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(e->log, fmt, ap);
  va_end(ap);
  fflush(e->log);
}

static void drain_stderr(uci_engine *e) {
  char b[4096];
  for (;;) {
    ssize_t n = read(e->err, b, sizeof b);
    if (n <= 0) return;
    if (e->log) fwrite(b, 1, (size_t)n, e->log);
  }
}

static int send_line(uci_engine *e, const char *fmt, ...) {
  char line[8192];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line - 1, fmt, ap);
  va_end(ap);
  if (n < 0 || n >= (int)sizeof line - 1) return -1;
  logf_(e, "> %s\n", line);
  line[n++] = '\n';
  size_t off = 0;
  while (off < (size_t)n) {
    ssize_t w = write(e->in, line + off, (size_t)n - off);
    if (w < 0) {
      if (errno == EINTR) continue;
      e->dead = 1;
      return -1;
    }
    off += (size_t)w;
  }
  return 0;
}

/* Reads one line before `deadline` (ms, monotonic; <0: none) into out (NUL-terminated, trimmed).
 * 1: a line; 0: timeout; -1: EOF or error (the engine is gone). */
static int read_line(uci_engine *e, char *out, size_t outlen, int64_t deadline) {
  for (;;) {
    char *nl = memchr(e->buf, '\n', e->len);
    if (nl || e->len >= LINE_MAX_BYTES) {
      size_t n = nl ? (size_t)(nl - e->buf) : e->len;
      size_t take = n < outlen - 1 ? n : outlen - 1;
      memcpy(out, e->buf, take);
      out[take] = 0;
      size_t used = nl ? n + 1 : n;
      memmove(e->buf, e->buf + used, e->len - used);
      e->len -= used;
      /* trim: '\r', blanks at both ends, runs of blanks collapsed */
      char *r = out, *w = out;
      while (*r == ' ' || *r == '\t' || *r == '\r')
        r++;
      int blank = 0;
      for (; *r; r++) {
        if (*r == ' ' || *r == '\t' || *r == '\r') {
          blank = 1;
          continue;
        }
        if (blank && w != out) *w++ = ' ';
        blank = 0;
        *w++ = *r;
      }
      *w = 0;
      logf_(e, "< %s\n", out);
      return 1;
    }
    if (e->dead) return -1;
    int64_t left = deadline < 0 ? -1 : deadline - now_ms();
    if (deadline >= 0 && left <= 0) return 0;
    struct pollfd pf[2] = {{e->out, POLLIN, 0}, {e->err, POLLIN, 0}};
    int r = poll(pf, 2, left < 0 ? -1 : (int)(left > 1000000 ? 1000000 : left));
    if (r < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (pf[1].revents) drain_stderr(e);
    if (pf[0].revents & POLLIN) {
      ssize_t n = read(e->out, e->buf + e->len, LINE_MAX_BYTES - e->len);
      if (n > 0) {
        e->len += (size_t)n;
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        e->dead = 1;
        if (!e->len) return -1;
        e->buf[e->len++] = '\n'; /* the last line without its newline */
      }
    } else if (pf[0].revents & (POLLHUP | POLLERR)) {
      e->dead = 1;
      if (!e->len) return -1;
      e->buf[e->len++] = '\n';
    }
  }
}

/* Waits for a line equal to `want` (or starting with it and a blank when prefix). */
static uci_status wait_for(uci_engine *e, const char *want, int64_t timeout_ms, char *line,
                           size_t linelen) {
  int64_t deadline = now_ms() + timeout_ms;
  for (;;) {
    int r = read_line(e, line, linelen, deadline);
    if (r < 0) return UCI_CRASHED;
    if (r == 0) return UCI_STALLED;
    if (!strcmp(line, want)) return UCI_OK;
  }
}

static void kill_group(uci_engine *e) {
  if (e->pid <= 0) return;
  kill(-e->pid, SIGTERM);
  for (int i = 0; i < 50; i++) { /* 0.5 s grace */
    if (waitpid(e->pid, NULL, WNOHANG) == e->pid) {
      e->pid = 0;
      return;
    }
    struct timespec ts = {0, 10000000};
    nanosleep(&ts, NULL);
  }
  kill(-e->pid, SIGKILL);
  waitpid(e->pid, NULL, 0);
  e->pid = 0;
}

static void set_err(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || !errlen) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

uci_engine *uci_start(const uci_config *cfg, char *err, size_t errlen) {
  int pin[2], pout[2], perr[2];
  if (pipe(pin) || pipe(pout) || pipe(perr)) {
    set_err(err, errlen, "%s: pipe: %s", cfg->cmd, strerror(errno));
    return NULL;
  }
  uci_engine *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->stop_grace = cfg->stop_grace_ms > 0 ? cfg->stop_grace_ms : 1000;
  e->ready_ms = cfg->ready_ms > 0 ? cfg->ready_ms : 60000;
  if (cfg->log_path) e->log = fopen(cfg->log_path, "a");
  int ready[2];
  if (pipe(ready)) ready[0] = ready[1] = -1;
  pid_t pid = fork();
  if (pid < 0) {
    set_err(err, errlen, "%s: fork: %s", cfg->cmd, strerror(errno));
    free(e);
    return NULL;
  }
  if (pid == 0) {
    setpgid(0, 0);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never left running when the runner dies (kill -9) */
#endif
    dup2(pin[0], 0);
    dup2(pout[1], 1);
    dup2(perr[1], 2);
    for (int fd = 3; fd < 256; fd++)
      if (fd != ready[1]) close(fd);
    if (ready[1] >= 0) fcntl(ready[1], F_SETFD, FD_CLOEXEC);
    if (cfg->dir && chdir(cfg->dir)) {
      dprintf(ready[1], "cannot enter %s: %s", cfg->dir, strerror(errno));
      _exit(127);
    }
    char *argv[64];
    int n = 0;
    argv[n++] = (char *)(uintptr_t)cfg->cmd;
    for (int i = 0; cfg->args && cfg->args[i] && n < 62; i++)
      argv[n++] = (char *)(uintptr_t)cfg->args[i];
    argv[n] = NULL;
    signal(SIGPIPE, SIG_DFL);
    execvp(cfg->cmd, argv);
    dprintf(ready[1], "cannot run it: %s", strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);
  close(pin[0]);
  close(pout[1]);
  close(perr[1]);
  e->pid = pid;
  e->in = pin[1];
  e->out = pout[0];
  e->err = perr[0];
  fcntl(e->err, F_SETFL, fcntl(e->err, F_GETFL) | O_NONBLOCK);
  fcntl(e->in, F_SETFD, FD_CLOEXEC);
  fcntl(e->out, F_SETFD, FD_CLOEXEC);
  fcntl(e->err, F_SETFD, FD_CLOEXEC);
  if (ready[1] >= 0) {
    close(ready[1]);
    char why[256];
    ssize_t n = read(ready[0], why, sizeof why - 1);
    close(ready[0]);
    if (n > 0) {
      why[n] = 0;
      set_err(err, errlen, "%s: %s", cfg->cmd, why);
      waitpid(pid, NULL, 0);
      e->pid = 0;
      uci_quit(e);
      return NULL;
    }
  }
  char line[LINE_MAX_BYTES + 1];
  int64_t deadline = now_ms() + (cfg->startup_ms > 0 ? cfg->startup_ms : 10000);
  if (send_line(e, "uci")) goto crashed;
  for (;;) {
    int r = read_line(e, line, sizeof line, deadline);
    if (r < 0) goto crashed;
    if (r == 0) {
      set_err(err, errlen, "%s: no uciok within %lld ms", cfg->cmd,
              (long long)(cfg->startup_ms > 0 ? cfg->startup_ms : 10000));
      uci_quit(e);
      return NULL;
    }
    if (!strcmp(line, "uciok")) break;
    if (!strncmp(line, "id name ", 8)) snprintf(e->name, sizeof e->name, "%.120s", line + 8);
    if (!strncmp(line, "option name ", 12) && e->noptions < MAX_OPTIONS) {
      const char *s = line + 12, *t = strstr(s, " type ");
      size_t n = t ? (size_t)(t - s) : strlen(s);
      const char *d = strstr(s, " default ");
      snprintf(e->options[e->noptions], 64, "%.*s", (int)(n < 63 ? n : 63), s);
      char *v = e->values[e->noptions++];
      snprintf(v, 64, "%.63s", d ? d + 9 : "");
      static const char *const next[] = {" min ", " max ", " var "};
      for (size_t k = 0; k < sizeof next / sizeof *next; k++) { /* the default ends there */
        char *x = strstr(v, next[k]);
        if (x) *x = 0;
      }
    }
  }
  /* Threads first (it helps engines that size their tables by it), then the options asked
   * for in their order; Threads=1, OwnBook=false and Ponder=false unless asked otherwise
   * (Glaurung and Toga default to their own book, some engines to several threads) */
  static const uci_option defaults[] = {
      {"Threads", "1"}, {"OwnBook", "false"}, {"Ponder", "false"}};
  size_t nset = 0;
  uci_option set[MAX_OPTIONS + 3];
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < cfg->option_count && nset < MAX_OPTIONS; i++)
      if ((strcasecmp(cfg->options[i].name, "Threads") == 0) == (pass == 0))
        set[nset++] = cfg->options[i];
  for (size_t d = 0; d < sizeof defaults / sizeof *defaults; d++) {
    int asked = 0;
    for (size_t i = 0; i < cfg->option_count; i++)
      asked |= !strcasecmp(cfg->options[i].name, defaults[d].name);
    const char *v = uci_option_value(e, defaults[d].name);
    if (!asked && v && strcasecmp(v, defaults[d].value)) {
      if (d == 0) { /* Threads stays first */
        memmove(set + 1, set, nset * sizeof *set);
        set[0] = defaults[d];
        nset++;
      } else {
        set[nset++] = defaults[d];
      }
    }
  }
  for (size_t i = 0; i < nset; i++) {
    if (!uci_has_option(e, set[i].name))
      logf_(e, "# warning: the engine has no option %s\n", set[i].name);
    if (send_line(e, "setoption name %s value %s", set[i].name, set[i].value)) goto crashed;
    for (int k = 0; k < e->noptions; k++)
      if (!strcasecmp(e->options[k], set[i].name))
        snprintf(e->values[k], sizeof e->values[k], "%.63s", set[i].value);
  }
  if (send_line(e, "isready")) goto crashed;
  uci_status st = wait_for(e, "readyok", e->ready_ms, line, sizeof line);
  if (st) {
    set_err(err, errlen, "%s: %s before readyok", cfg->cmd,
            st == UCI_CRASHED ? "exited" : "no answer");
    uci_quit(e);
    return NULL;
  }
  return e;
crashed:
  set_err(err, errlen, "%s: exited during the handshake", cfg->cmd);
  uci_quit(e);
  return NULL;
}

const char *uci_name(const uci_engine *e) { return e ? e->name : ""; }

int uci_has_option(const uci_engine *e, const char *name) {
  return uci_option_value(e, name) != NULL;
}

const char *uci_option_value(const uci_engine *e, const char *name) {
  for (int i = 0; i < e->noptions; i++)
    if (!strcasecmp(e->options[i], name)) return e->values[i];
  return NULL;
}

uci_status uci_set_option(uci_engine *e, const char *name, const char *value) {
  const char *now = uci_option_value(e, name);
  if (!now) return UCI_OK;
  if (!strcmp(now, value)) return UCI_OK;
  if (send_line(e, "setoption name %s value %s", name, value)) return UCI_CRASHED;
  for (int k = 0; k < e->noptions; k++)
    if (!strcasecmp(e->options[k], name))
      snprintf(e->values[k], sizeof e->values[k], "%.63s", value);
  return UCI_OK;
}

uci_status uci_new_game(uci_engine *e, int chess960, char *err, size_t errlen) {
  char line[LINE_MAX_BYTES + 1];
  if (uci_has_option(e, "UCI_Chess960") &&
      send_line(e, "setoption name UCI_Chess960 value %s", chess960 ? "true" : "false"))
    return UCI_CRASHED;
  if (send_line(e, "ucinewgame") || send_line(e, "isready")) return UCI_CRASHED;
  uci_status st = wait_for(e, "readyok", e->ready_ms, line, sizeof line);
  if (st) set_err(err, errlen, "%s after ucinewgame", st == UCI_CRASHED ? "exited" : "no readyok");
  if (st == UCI_STALLED) kill_group(e), e->dead = 1;
  return st;
}

void uci_parse_info(const char *line, uci_result *r) {
  char tok[64];
  const char *p = line;
  int n;
  /* only the best line of a multipv search counts (whatever the field order) */
  for (const char *q = line; sscanf(q, "%63s%n", tok, &n) == 1; q += n) {
    long long k;
    int m;
    if (!strcmp(tok, "pv") || !strcmp(tok, "string")) break;
    if (!strcmp(tok, "multipv") && sscanf(q + n, "%lld%n", &k, &m) == 1 && k > 1) return;
  }
  while (sscanf(p, "%63s%n", tok, &n) == 1) {
    p += n;
    long long v;
    if (!strcmp(tok, "string")) break;
    if (!strcmp(tok, "pv")) { /* the rest of the line, cut at a move boundary */
      while (*p == ' ')
        p++;
      size_t k = strlen(p);
      if (k >= sizeof r->pv) {
        k = sizeof r->pv - 1;
        while (k && p[k] != ' ')
          k--;
      }
      memcpy(r->pv, p, k);
      r->pv[k] = 0;
      break;
    }
    if (!strcmp(tok, "time") && sscanf(p, "%lld%n", &v, &n) == 1)
      r->engine_ms = v < 0 ? 0 : v, p += n;
    else if (!strcmp(tok, "hashfull") && sscanf(p, "%lld%n", &v, &n) == 1)
      r->hashfull = (int)v, p += n;
    else if (!strcmp(tok, "tbhits") && sscanf(p, "%lld%n", &v, &n) == 1)
      r->tbhits = (uint64_t)(v < 0 ? 0 : v), p += n;
    else if (!strcmp(tok, "depth") && sscanf(p, "%lld%n", &v, &n) == 1)
      r->depth = (int)v, p += n;
    else if (!strcmp(tok, "seldepth") && sscanf(p, "%lld%n", &v, &n) == 1)
      r->seldepth = (int)v, p += n;
    else if (!strcmp(tok, "nodes") && sscanf(p, "%lld%n", &v, &n) == 1)
      r->nodes = (uint64_t)(v < 0 ? 0 : v), p += n;
    else if (!strcmp(tok, "nps") && sscanf(p, "%lld%n", &v, &n) == 1)
      r->nps = (uint64_t)(v < 0 ? 0 : v), p += n;
    else if (!strcmp(tok, "wdl")) {
      long long a, b, c;
      if (sscanf(p, "%lld %lld %lld%n", &a, &b, &c, &n) == 3)
        r->has_wdl = 1, r->wdl[0] = (int)a, r->wdl[1] = (int)b, r->wdl[2] = (int)c, p += n;
    } else if (!strcmp(tok, "score")) {
      char kind[16];
      if (sscanf(p, "%15s %lld%n", kind, &v, &n) == 2 &&
          (!strcmp(kind, "cp") || !strcmp(kind, "mate"))) {
        p += n;
        /* a bound is only a fallback for an exact score */
        char next[16] = "";
        int m = 0;
        int bound = sscanf(p, "%15s%n", next, &m) == 1 &&
                    (!strcmp(next, "lowerbound") || !strcmp(next, "upperbound"));
        if (!bound || !r->has_score) {
          r->has_score = 1;
          r->mate = !strcmp(kind, "mate");
          r->score = (int)(v > 100000 ? 100000 : v < -100000 ? -100000 : v);
        }
        if (bound) p += m;
      }
    }
  }
}

int uci_pv_legal(const arb_position *pos, const char *pv) {
  arb_position p = *pos;
  int n = 0;
  for (const char *c = pv; *c;) {
    while (*c == ' ')
      c++;
    size_t k = strcspn(c, " ");
    arb_move m;
    if (!k || arb_uci_read(&p, c, k, 0, &m) != ARB_OK) break;
    arb_undo u;
    arb_make_move(&p, m, &u);
    n++;
    c += k;
  }
  return n;
}

uci_status uci_read_bestmove(const arb_position *pos, int chess960, const char *line,
                             uci_result *out) {
  char fen[ARB_FEN_MAX];
  if (strncmp(line, "bestmove", 8) || (line[8] && line[8] != ' ')) {
    snprintf(out->message, sizeof out->message, "not a bestmove line");
    return out->status = UCI_MALFORMED;
  }
  char tok[32] = "";
  sscanf(line + 8, "%31s", tok);
  snprintf(out->text, sizeof out->text, "%.15s", tok);
  if (!tok[0] || !strcmp(tok, "(none)") || !strcmp(tok, "0000") || !strcmp(tok, "NULL") ||
      !strcmp(tok, "a1a1")) {
    snprintf(out->message, sizeof out->message, "bestmove %s in a position with legal moves",
             tok[0] ? tok : "(empty)");
    return out->status = UCI_NO_MOVE;
  }
  for (char *c = tok; *c; c++)
    if (c > tok + 3 && *c >= 'A' && *c <= 'Z') *c = (char)(*c + 32);
  size_t tl = strlen(tok);
  if (tl < 4 || tl > 5 || tok[0] < 'a' || tok[0] > 'h' || tok[1] < '1' || tok[1] > '8' ||
      tok[2] < 'a' || tok[2] > 'h' || tok[3] < '1' || tok[3] > '8') {
    snprintf(out->message, sizeof out->message, "bestmove %.20s is not a move in UCI notation",
             tok);
    return out->status = UCI_MALFORMED;
  }
  arb_move m;
  if (arb_uci_read(pos, tok, tl, 0, &m) != ARB_OK) {
    arb_fen_write(pos, fen, sizeof fen, 0);
    snprintf(out->message, sizeof out->message, "bestmove %s is not legal in %s", tok, fen);
    return out->status = UCI_ILLEGAL;
  }
  /* castling written the other way than the mode asks */
  if (ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING) {
    char want[8];
    arb_uci_write(pos, m, want, sizeof want);
    if (strcmp(want, tok)) {
      snprintf(out->message, sizeof out->message,
               "bestmove %s: castling in %s notation in a %s game (expected %s)", tok,
               chess960 ? "standard" : "Chess960", chess960 ? "Chess960" : "standard", want);
      return out->status = UCI_ILLEGAL;
    }
  }
  out->move = m;
  /* `bestmove X ponder Y`: Y kept when it is legal after X */
  out->ponder = ARB_MOVE_NONE;
  const char *pp = strstr(line + 8, " ponder ");
  char ptok[16];
  if (pp && sscanf(pp + 8, "%15s", ptok) == 1) {
    arb_position after = *pos;
    arb_undo u;
    arb_make_move(&after, m, &u);
    arb_move y;
    if (arb_uci_read(&after, ptok, strlen(ptok), 0, &y) == ARB_OK) out->ponder = y;
  }
  return out->status = UCI_OK;
}

/* `position startpos|fen F moves ...` for start + moves (+ extra when not ARB_MOVE_NONE); *pos
 * becomes the position after them.  0, or -1 when the command cannot be built or sent. */
static int send_position(uci_engine *e, const arb_position *start, const arb_move *moves, int n,
                         arb_move extra, int chess960, arb_position *pos) {
  char *cmd = malloc(32 + 100 + (size_t)(n + 1) * 6);
  if (!cmd) return -1;
  arb_position init;
  arb_position_startpos(&init);
  *pos = *start;
  size_t len = 0;
  char fen[ARB_FEN_MAX];
  arb_fen_write(start, fen, sizeof fen, chess960 ? ARB_FEN_OUT_SHREDDER : 0);
  if (!chess960 && !memcmp(&init, start, sizeof init))
    len += (size_t)sprintf(cmd + len, "position startpos");
  else
    len += (size_t)sprintf(cmd + len, "position fen %s", fen);
  if (n || extra != ARB_MOVE_NONE) len += (size_t)sprintf(cmd + len, " moves");
  for (int i = 0; i <= n; i++) {
    arb_move m = i < n ? moves[i] : extra;
    if (m == ARB_MOVE_NONE) break;
    char u[8];
    arb_uci_write(pos, m, u, sizeof u);
    len += (size_t)sprintf(cmd + len, " %s", u);
    arb_undo ud;
    arb_make_move(pos, m, &ud);
  }
  int bad = send_line(e, "%s", cmd);
  free(cmd);
  return bad ? -1 : 0;
}

/* A ping between moves, never during a search (Glaurung answers none then). */
static uci_status ping(uci_engine *e, uci_result *out) {
  char line[LINE_MAX_BYTES + 1];
  if (send_line(e, "isready")) {
    snprintf(out->message, sizeof out->message, "the engine's input is closed");
    return out->status = UCI_CRASHED;
  }
  uci_status st = wait_for(e, "readyok", 10000, line, sizeof line);
  if (st == UCI_STALLED) kill_group(e), e->dead = 1;
  if (st != UCI_OK)
    snprintf(out->message, sizeof out->message, "%s",
             st == UCI_CRASHED ? "the engine exited"
                               : "no readyok within 10 s (stalled connection)");
  return out->status = st;
}

static int send_go(uci_engine *e, const uci_limits *lim, int ponder) {
  char go[256];
  size_t g = (size_t)snprintf(go, sizeof go, "go%s", ponder ? " ponder" : "");
  if (lim->timed) {
    g += (size_t)snprintf(go + g, sizeof go - g, " wtime %lld btime %lld winc %lld binc %lld",
                          (long long)(lim->wtime < 1 ? 1 : lim->wtime),
                          (long long)(lim->btime < 1 ? 1 : lim->btime), (long long)lim->winc,
                          (long long)lim->binc);
    if (lim->movestogo > 0)
      g += (size_t)snprintf(go + g, sizeof go - g, " movestogo %d", lim->movestogo);
  }
  if (lim->movetime > 0)
    g += (size_t)snprintf(go + g, sizeof go - g, " movetime %lld", (long long)lim->movetime);
  if (lim->depth > 0) g += (size_t)snprintf(go + g, sizeof go - g, " depth %d", lim->depth);
  if (lim->nodes > 0)
    g += (size_t)snprintf(go + g, sizeof go - g, " nodes %llu", (unsigned long long)lim->nodes);
  return send_line(e, "%s", go);
}

/* Reads the engine's lines up to its bestmove for pos, within lim's deadline from now: at the
 * deadline `stop`, then the grace; none then: stalled, killed. */
static uci_status wait_bestmove(uci_engine *e, const arb_position *pos, int chess960,
                                const uci_limits *lim, uci_result *out) {
  int64_t t0 = now_ms();
  /* a watchdog even for depth/nodes limits (fastchess #1029): a minute beyond nothing */
  int64_t deadline = lim->deadline_ms > 0 ? t0 + lim->deadline_ms : t0 + 60000 + lim->movetime;
  char line[LINE_MAX_BYTES + 1];
  int stopped = 0;
  for (;;) {
    int r = read_line(e, line, sizeof line, deadline);
    if (r < 0) {
      snprintf(out->message, sizeof out->message, "the engine exited during its search");
      out->elapsed_ms = now_ms() - t0;
      return out->status = UCI_CRASHED;
    }
    if (r == 0) {
      if (stopped) { /* no bestmove after stop: stalled */
        kill_group(e);
        e->dead = 1;
        snprintf(out->message, sizeof out->message, "no bestmove %lld ms after stop: killed",
                 (long long)e->stop_grace);
        out->status = UCI_TIMEOUT;
        return UCI_TIMEOUT;
      }
      out->elapsed_ms = now_ms() - t0;
      send_line(e, "stop");
      stopped = 1;
      deadline = now_ms() + e->stop_grace;
      continue;
    }
    if (!strncmp(line, "info ", 5)) {
      uci_parse_info(line + 5, out);
      continue;
    }
    if (strncmp(line, "bestmove", 8) || (line[8] && line[8] != ' ')) continue;
    if (!stopped) out->elapsed_ms = now_ms() - t0;
    if (stopped) {
      if (lim->timed)
        snprintf(out->message, sizeof out->message, "no bestmove within its time (%lld ms)",
                 (long long)lim->deadline_ms);
      else
        snprintf(out->message, sizeof out->message,
                 "no bestmove within %lld ms (does the engine ignore the node or depth limit?)",
                 (long long)(lim->deadline_ms > 0 ? lim->deadline_ms : 60000 + lim->movetime));
      return out->status = UCI_TIMEOUT;
    }
    return uci_read_bestmove(pos, chess960, line, out);
  }
}

uci_status uci_go(uci_engine *e, const arb_position *start, const arb_move *moves, int n,
                  int chess960, const uci_limits *lim, uci_result *out) {
  memset(out, 0, sizeof *out);
  out->ponder = ARB_MOVE_NONE;
  arb_position pos;
  if (e->pondering) uci_ponder_stop(e);
  if (ping(e, out) != UCI_OK) return out->status;
  if (send_position(e, start, moves, n, ARB_MOVE_NONE, chess960, &pos) || send_go(e, lim, 0)) {
    snprintf(out->message, sizeof out->message, "the engine's input is closed");
    return out->status = UCI_CRASHED;
  }
  return wait_bestmove(e, &pos, chess960, lim, out);
}

uci_status uci_ponder(uci_engine *e, const arb_position *start, const arb_move *moves, int n,
                      arb_move expected, int chess960, const uci_limits *lim) {
  uci_result r;
  memset(&r, 0, sizeof r);
  if (e->pondering) uci_ponder_stop(e);
  if (ping(e, &r) != UCI_OK) return r.status;
  if (send_position(e, start, moves, n, expected, chess960, &e->ponder_pos) || send_go(e, lim, 1))
    return UCI_CRASHED;
  e->pondering = 1;
  e->ponder_chess960 = chess960;
  return UCI_OK;
}

uci_status uci_ponderhit(uci_engine *e, const uci_limits *lim, uci_result *out) {
  memset(out, 0, sizeof *out);
  out->ponder = ARB_MOVE_NONE;
  if (!e->pondering) {
    snprintf(out->message, sizeof out->message, "ponderhit without a ponder search");
    return out->status = UCI_CRASHED;
  }
  e->pondering = 0;
  if (send_line(e, "ponderhit")) {
    snprintf(out->message, sizeof out->message, "the engine's input is closed");
    return out->status = UCI_CRASHED;
  }
  /* a bestmove sent before the ponderhit (cutechess #180) is the answer, at once */
  return wait_bestmove(e, &e->ponder_pos, e->ponder_chess960, lim, out);
}

uci_status uci_ponder_stop(uci_engine *e) {
  if (!e->pondering) return UCI_OK;
  e->pondering = 0;
  if (send_line(e, "stop")) return UCI_CRASHED;
  uci_limits lim = {0};
  lim.deadline_ms = e->stop_grace;
  uci_result r;
  memset(&r, 0, sizeof r);
  wait_bestmove(e, &e->ponder_pos, e->ponder_chess960, &lim, &r); /* thrown away */
  return e->dead ? UCI_STALLED : UCI_OK;
}

void uci_quit(uci_engine *e) {
  if (!e) return;
  if (e->pid > 0 && !e->dead) {
    send_line(e, "stop");
    send_line(e, "quit");
    for (int i = 0; i < 100; i++) { /* up to 1 s, then the group is killed */
      if (waitpid(e->pid, NULL, WNOHANG) == e->pid) {
        e->pid = 0;
        break;
      }
      struct timespec ts = {0, 10000000};
      nanosleep(&ts, NULL);
    }
  }
  kill_group(e);
  if (e->in > 0) close(e->in);
  if (e->out > 0) close(e->out);
  if (e->err > 0) close(e->err);
  if (e->log) fclose(e->log);
  free(e);
}
