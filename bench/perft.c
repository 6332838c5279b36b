/* Arbiter — MIT licence, see LICENSE.
 *
 * perft.c: perft speed of Arbiter against Stockfish, on the same positions in the same run.
 *
 * For each test position, our arb_perft (single thread, last ply counted without making its
 * moves) and Stockfish's `go perft D` (driven over pipes as a UCI subprocess, Threads = 1) are
 * run RUNS times each, alternately, and the best time of each is kept.  Stockfish is timed from
 * sending `go perft D` to reading its `Nodes searched: N` line, so its start-up is excluded.
 * Both node counts must equal the known counts.  Prints a table of speeds and ratios
 * (ours / Stockfish) and whether the target (ratio >= 1.5 on every position) is met.
 *
 * A second peer when $GIGANTUA names an executable: Gigantua (github.com/Gigantua/Gigantua, the
 * fastest perft we know of; issue 31 asks for perft at least as fast), built outside the tree
 * with its own flags by bench/gigantua.sh.  It is run as `GIGANTUA FEN DEPTH NODES` (it exits 0
 * when its count is NODES), RUNS times per position, alternately with ours; its time is the
 * process's wall time less that of the same command at depth 1 (start-up and table set-up),
 * best of the runs for each.  Gigantua is not in Debian: without $GIGANTUA the column is left
 * out.
 *
 * usage: perft [-n RUNS] [--quick]
 *   -n RUNS   runs per side and position, best kept (1..10, default 3)
 *   --quick   one ply less on every position (about 5-40x faster; for smoke tests)
 * Stockfish is looked for in $STOCKFISH, /usr/games/stockfish, /usr/bin/stockfish, then PATH.
 *
 * Exit status: 0 all counts correct (whatever the ratio), 1 a wrong node count or a failure
 * talking to Stockfish, 2 Stockfish not found or not answering the UCI handshake (our speeds
 * are still printed), 64 bad usage.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arbiter/arbiter.h"
#include "peer.h"

#define BENCH_TARGET 1.5
#define BENCH_MAX_RUNS 10
#define BENCH_LINE 4096
#define BENCH_PATH 4096

typedef struct bench_case {
  const char *name;
  const char *fen; /* NULL: the start position */
  int depth;
  uint64_t nodes[8]; /* known counts, indexed by depth */
} bench_case;

static const bench_case CASES[] = {
    {"startpos", NULL, 6, {1, 20, 400, 8902, 197281, 4865609, 119060324}},
    {"kiwipete",
     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     5,
     {1, 48, 2039, 97862, 4085603, 193690690}},
    {"pos3",
     "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
     7,
     {1, 14, 191, 2812, 43238, 674624, 11030083, 178633661}},
    {"pos4",
     "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     5,
     {1, 6, 264, 9467, 422333, 15833292}},
    {"pos5",
     "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
     5,
     {1, 44, 1486, 62379, 2103487, 89941194}},
};
#define NCASES (sizeof CASES / sizeof CASES[0])

static const char *const stockfish_names[] = {"/usr/games/stockfish", "/usr/bin/stockfish",
                                              "stockfish", NULL};

/* ---- talking to Stockfish ---- */

typedef struct engine {
  pid_t pid;
  FILE *to;   /* engine's stdin */
  FILE *from; /* engine's stdout */
  char line[BENCH_LINE];
  char id[BENCH_LINE];
} engine;

static int engine_start(engine *e, const char *path) {
  int in_pipe[2], out_pipe[2];
  e->pid = -1;
  e->to = e->from = NULL;
  e->id[0] = '\0';
  if (pipe(in_pipe) != 0) return -1;
  if (pipe(out_pipe) != 0) {
    close(in_pipe[0]);
    close(in_pipe[1]);
    return -1;
  }
  e->pid = fork();
  if (e->pid < 0) {
    close(in_pipe[0]);
    close(in_pipe[1]);
    close(out_pipe[0]);
    close(out_pipe[1]);
    return -1;
  }
  if (e->pid == 0) {
    char *argv[2];
    char argv0[BENCH_PATH];
    snprintf(argv0, sizeof argv0, "%s", path);
    argv[0] = argv0;
    argv[1] = NULL;
    if (dup2(in_pipe[0], STDIN_FILENO) < 0 || dup2(out_pipe[1], STDOUT_FILENO) < 0) _exit(127);
    close(in_pipe[0]);
    close(in_pipe[1]);
    close(out_pipe[0]);
    close(out_pipe[1]);
    signal(SIGPIPE, SIG_DFL);
    execv(path, argv);
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  e->to = fdopen(in_pipe[1], "w");
  e->from = fdopen(out_pipe[0], "r");
  if (!e->to || !e->from) {
    if (e->to)
      fclose(e->to);
    else
      close(in_pipe[1]);
    if (e->from)
      fclose(e->from);
    else
      close(out_pipe[0]);
    e->to = e->from = NULL;
    kill(e->pid, SIGTERM);
    waitpid(e->pid, NULL, 0);
    e->pid = -1;
    return -1;
  }
  return 0;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int
engine_send(engine *e, const char *fmt, ...) {
  va_list ap;
  int r;
  va_start(ap, fmt);
  r = vfprintf(e->to, fmt, ap);
  va_end(ap);
  if (r < 0 || fputc('\n', e->to) == EOF || fflush(e->to) != 0) return -1;
  return 0;
}

/* Reads one line into e->line (newline stripped).  -1 at end of file or error. */
static int engine_read(engine *e) {
  size_t len;
  if (!fgets(e->line, sizeof e->line, e->from)) return -1;
  len = strlen(e->line);
  while (len > 0 && (e->line[len - 1] == '\n' || e->line[len - 1] == '\r'))
    e->line[--len] = '\0';
  return 0;
}

/* Reads lines until one starts with prefix.  -1 if the engine ends first. */
static int engine_wait(engine *e, const char *prefix) {
  size_t n = strlen(prefix);
  while (engine_read(e) == 0) {
    if (strncmp(e->line, prefix, n) == 0) return 0;
    if (strncmp(e->line, "id name ", 8) == 0) snprintf(e->id, sizeof e->id, "%s", e->line + 8);
  }
  return -1;
}

static int engine_sync(engine *e) {
  if (engine_send(e, "isready") != 0) return -1;
  return engine_wait(e, "readyok");
}

static int engine_handshake(engine *e) {
  if (engine_send(e, "uci") != 0 || engine_wait(e, "uciok") != 0) return -1;
  if (engine_send(e, "setoption name Threads value 1") != 0) return -1;
  return engine_sync(e);
}

static void engine_stop(engine *e) {
  if (e->to) {
    engine_send(e, "quit");
    fclose(e->to);
    e->to = NULL;
  }
  if (e->from) {
    fclose(e->from);
    e->from = NULL;
  }
  if (e->pid > 0) {
    waitpid(e->pid, NULL, 0);
    e->pid = -1;
  }
}

/* Runs `go perft depth` on the case's position; *nodes and *seconds get the count and the time
 * from sending `go` to reading `Nodes searched`.  -1 on a protocol failure. */
static int engine_perft(engine *e, const bench_case *c, int depth, uint64_t *nodes,
                        double *seconds) {
  double t0;
  char *end;
  int r = c->fen ? engine_send(e, "position fen %s", c->fen) : engine_send(e, "position startpos");
  if (r != 0 || engine_sync(e) != 0) return -1;
  t0 = bench_now();
  if (engine_send(e, "go perft %d", depth) != 0 || engine_wait(e, "Nodes searched:") != 0)
    return -1;
  *seconds = bench_now() - t0;
  errno = 0;
  *nodes = strtoull(e->line + strlen("Nodes searched:"), &end, 10);
  if (errno != 0 || end == e->line + strlen("Nodes searched:")) return -1;
  return 0;
}

/* ---- Gigantua, one process per count ---- */

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* Runs `path FEN depth nodes` with stdin, stdout and stderr on /dev/null; *seconds gets its wall
 * time.  0 when it says its count is `nodes` (exit 0), 1 when it says otherwise, -1 when it could
 * not be run or died. */
static int giga_run(const char *path, const char *fen, int depth, uint64_t nodes, double *seconds) {
  char d[16], n[32];
  snprintf(d, sizeof d, "%d", depth);
  snprintf(n, sizeof n, "%" PRIu64, nodes);
  const char *argv[] = {path, fen, d, n, NULL};
  double t0 = bench_now();
  pid_t pid = bench_spawn_quiet(argv);
  if (pid < 0) return -1;
  int status = 0;
  pid_t got;
  do
    got = waitpid(pid, &status, 0);
  while (got < 0 && errno == EINTR);
  *seconds = bench_now() - t0;
  if (got != pid || !WIFEXITED(status) || WEXITSTATUS(status) == 127) return -1;
  return WEXITSTATUS(status) == 0 ? 0 : 1;
}

/* ---- main ---- */

static void usage(FILE *out) {
  fprintf(out,
          "usage: perft [-n RUNS] [--quick]\n"
          "  -n RUNS   runs per side and position, best kept (1..%d, default 3)\n"
          "  --quick   one ply less on every position\n"
          "Stockfish: $STOCKFISH, /usr/games/stockfish, /usr/bin/stockfish, or PATH.\n"
          "Gigantua (optional second peer): $GIGANTUA, built by bench/gigantua.sh.\n",
          BENCH_MAX_RUNS);
}

static double mnps(uint64_t nodes, double seconds) {
  return seconds > 0 ? (double)nodes / seconds / 1e6 : 0.0;
}

int main(int argc, char **argv) {
  int runs = 3, quick = 0, have_peer, bad_count = 0, peer_failed = 0;
  char sf_path[BENCH_PATH];
  engine sf;
  double min_ratio = 0;
  const char *min_name = NULL, *peer_why = "Stockfish not found";
  size_t i;
  int a;

  for (a = 1; a < argc; a++) {
    if (strcmp(argv[a], "-n") == 0 && a + 1 < argc) {
      if (bench_parse_runs(argv[++a], BENCH_MAX_RUNS, &runs) != 0) {
        usage(stderr);
        return 64;
      }
    } else if (strcmp(argv[a], "--quick") == 0) {
      quick = 1;
    } else if (strcmp(argv[a], "-h") == 0 || strcmp(argv[a], "--help") == 0) {
      usage(stdout);
      return 0;
    } else {
      usage(stderr);
      return 64;
    }
  }

  signal(SIGPIPE, SIG_IGN); /* a dead engine shows up as a write error, not a signal */
  arb_init();

  const char *giga = getenv("GIGANTUA");
  if (giga && !*giga) giga = NULL;
  if (giga && !bench_is_executable(giga)) {
    fprintf(stderr, "perft: $GIGANTUA (%s) is not an executable\n", giga);
    return 64;
  }
  have_peer = bench_find_peer("STOCKFISH", stockfish_names, "perft", sf_path, sizeof sf_path);
  if (have_peer) {
    if (engine_start(&sf, sf_path) != 0 || engine_handshake(&sf) != 0) {
      fprintf(stderr, "perft: %s did not answer the UCI handshake\n", sf_path);
      engine_stop(&sf);
      have_peer = 0;
      peer_why = "Stockfish did not answer the UCI handshake";
    } else {
      printf("peer: %s (%s), Threads 1\n", sf.id[0] ? sf.id : "unknown engine", sf_path);
    }
  }
  if (!have_peer) printf("peer: missing (%s; set $STOCKFISH); only our speeds\n", peer_why);
  if (giga) printf("second peer: Gigantua (%s), its wall time less its depth-1 run's\n", giga);
  double giga_min = 0;
  const char *giga_min_name = NULL;
  int giga_bad = 0;
  printf("ours: arb_perft, 1 thread, bulk-counted last ply; best of %d\n\n", runs);

  printf("%-10s %5s %11s %10s %10s %7s", "position", "depth", "nodes", "ours Mnps", "sf Mnps",
         "ratio");
  if (giga) printf(" %10s %9s", "giga Mnps", "ours/giga");
  printf("\n");
  for (i = 0; i < NCASES; i++) {
    const bench_case *c = &CASES[i];
    int depth = c->depth - quick, r;
    uint64_t want = c->nodes[depth];
    double ours_best = 0, sf_best = 0, giga_full = 0, giga_start = 0;
    int ours_bad = 0, sf_bad = 0, giga_wrong = 0;
    arb_position pos;

    if (c->fen) {
      arb_fen_report rep;
      if (arb_fen_read(&pos, c->fen, 0, &rep) != ARB_OK) {
        fprintf(stderr, "perft: %s: FEN rejected: %s\n", c->name, rep.message);
        return 1;
      }
    } else {
      arb_position_startpos(&pos);
    }

    for (r = 0; r < runs; r++) {
      double t0 = bench_now(), dt;
      uint64_t got = arb_perft(&pos, depth);
      dt = bench_now() - t0;
      if (got != want) {
        fprintf(stderr, "perft: %s depth %d: ours %" PRIu64 ", expected %" PRIu64 "\n", c->name,
                depth, got, want);
        ours_bad = 1;
        break;
      }
      if (r == 0 || dt < ours_best) ours_best = dt;

      if (have_peer && !peer_failed) {
        uint64_t sf_nodes;
        if (engine_perft(&sf, c, depth, &sf_nodes, &dt) != 0) {
          fprintf(stderr, "perft: lost contact with Stockfish on %s\n", c->name);
          peer_failed = 1;
        } else if (sf_nodes != want) {
          fprintf(stderr, "perft: %s depth %d: stockfish %" PRIu64 ", expected %" PRIu64 "\n",
                  c->name, depth, sf_nodes, want);
          sf_bad = 1;
          break;
        } else if (r == 0 || dt < sf_best) {
          sf_best = dt;
        }
      }
      if (giga && !giga_wrong) {
        const char *fen = c->fen ? c->fen : START_FEN;
        double full, start;
        int g = giga_run(giga, fen, depth, want, &full);
        if (g == 0) g = giga_run(giga, fen, 1, c->nodes[1], &start);
        if (g != 0) {
          fprintf(stderr, "perft: %s depth %d: Gigantua %s\n", c->name, depth,
                  g < 0 ? "could not be run" : "disagrees with the known count");
          giga_wrong = 1;
        } else {
          if (r == 0 || full < giga_full) giga_full = full;
          if (r == 0 || start < giga_start) giga_start = start;
        }
      }
    }

    if (ours_bad || sf_bad) {
      bad_count++;
      printf("%-10s %5d %11" PRIu64 " %10s %10s %7s\n", c->name, depth, want,
             ours_bad ? "WRONG" : "-", sf_bad ? "WRONG" : "-", "-");
      continue;
    }
    if (have_peer && !peer_failed) {
      double ratio = sf_best / ours_best; /* = ours Mnps / sf Mnps */
      printf("%-10s %5d %11" PRIu64 " %10.1f %10.1f %7.2f", c->name, depth, want,
             mnps(want, ours_best), mnps(want, sf_best), ratio);
      if (!min_name || ratio < min_ratio) {
        min_ratio = ratio;
        min_name = c->name;
      }
    } else {
      printf("%-10s %5d %11" PRIu64 " %10.1f %10s %7s", c->name, depth, want, mnps(want, ours_best),
             "-", "-");
    }
    if (giga && giga_wrong) {
      giga_bad = 1;
      printf(" %10s %9s", "WRONG", "-");
    } else if (giga) {
      double t = giga_full > giga_start ? giga_full - giga_start : giga_full;
      double ratio = t / ours_best; /* = ours Mnps / Gigantua's */
      printf(" %10.1f %9.2f", mnps(want, t), ratio);
      if (!giga_min_name || ratio < giga_min) {
        giga_min = ratio;
        giga_min_name = c->name;
      }
    }
    printf("\n");
    fflush(stdout);
  }
  if (have_peer) engine_stop(&sf);

  printf("\n");
  if (bad_count) printf("node counts: %d position(s) WRONG\n", bad_count);
  if (!have_peer) {
    printf("minimum ratio: n/a (peer missing: %s)\n", peer_why);
  } else if (peer_failed) {
    printf("minimum ratio: n/a (Stockfish stopped answering)\n");
  } else if (min_name) {
    printf("minimum ratio: %.2f (%s); target ratio >= %.1f on every position: %s\n", min_ratio,
           min_name, BENCH_TARGET, min_ratio >= BENCH_TARGET && !bad_count ? "MET" : "NOT MET");
  }
  if (giga && giga_bad)
    printf("Gigantua: a count disagreed or it could not be run (see above)\n");
  else if (giga && giga_min_name)
    printf("minimum ratio ours/Gigantua: %.2f (%s); target >= 1.0 on every position: %s\n",
           giga_min, giga_min_name, giga_min >= 1.0 && !bad_count ? "MET" : "NOT MET");
  if (bad_count || peer_failed || giga_bad) return 1;
  return have_peer ? 0 : 2;
}
