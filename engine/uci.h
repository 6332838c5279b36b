/* Arbiter — MIT licence, see LICENSE.
 *
 * uci.h: the one UCI engine client, for `arbiter match`, `arbiter play` and the play server's
 * computer opponent (front-end level, engine/: process handling stays out of the library).  One
 * engine process per uci_engine: spawned with pipes in its own process group and working folder,
 * handshake with timeouts, options, new games, positions as FEN plus moves, `go` from an arb_clock
 * or a fixed limit, `info` parsed, the `bestmove` checked against the rules, `stop`, `quit`, and a
 * kill of the whole group when the engine stalls (../shared/docs/ENGINES.md 6.5).
 *
 * Ownership: uci_start returns an engine the caller ends with uci_quit (which frees it).  Not
 * thread-safe per engine; different engines are independent.  Errors: every call that can fail
 * returns a uci_status and writes a message naming what went wrong.
 */
#ifndef ARB_ENGINE_UCI_H
#define ARB_ENGINE_UCI_H

#include <stddef.h>
#include <stdint.h>

#include "arbiter/arbiter.h"

typedef enum uci_status {
  UCI_OK = 0,
  UCI_NO_MOVE,   /* bestmove (none), 0000, a1a1 in a position with moves: an illegal answer */
  UCI_ILLEGAL,   /* bestmove is not a legal move (message says which rule) */
  UCI_MALFORMED, /* bestmove is not a move at all */
  UCI_TIMEOUT,   /* no bestmove before the deadline (the flag fell); stopped or killed */
  UCI_CRASHED,   /* the process exited, or a pipe broke */
  UCI_STALLED,   /* no answer to uci / isready / stop in time: killed */
  UCI_START_FAILED
} uci_status;
const char *uci_status_name(uci_status s);

typedef struct uci_option {
  const char *name, *value;
} uci_option;

typedef struct uci_config {
  const char *cmd;           /* the program (PATH is searched) */
  const char *const *args;   /* extra arguments, NULL-terminated (may be NULL) */
  const char *dir;           /* working folder, or NULL */
  const uci_option *options; /* set after the handshake, in order (Threads first) */
  size_t option_count;
  int64_t startup_ms;    /* uciok timeout (0: 10000) */
  int64_t ready_ms;      /* readyok timeout (0: 60000) */
  int64_t stop_grace_ms; /* after stop at the deadline (0: 1000) */
  const char *log_path;  /* the engine's stderr and our traffic, appended; NULL: discarded */
} uci_config;

typedef struct uci_engine uci_engine;

/* Starts the engine and completes uci/uciok, the options and isready.  NULL on failure with
 * the reason in err. */
uci_engine *uci_start(const uci_config *cfg, char *err, size_t errlen);
/* The engine's `id name` ("" when none). */
const char *uci_name(const uci_engine *e);
/* 1 when the engine declared the option. */
int uci_has_option(const uci_engine *e, const char *name);
/* The option's value: the one we set, else the engine's declared default ("" when it has none);
 * NULL when the engine did not declare the option.  Owned by the engine. */
const char *uci_option_value(const uci_engine *e, const char *name);
/* `setoption` between searches, only when the engine declared the option and its value
 * differs (UCI_OK: set or nothing to do; UCI_CRASHED: the pipe broke). */
uci_status uci_set_option(uci_engine *e, const char *name, const char *value);
/* ucinewgame (+ UCI_Chess960 when the engine has it) and isready. */
uci_status uci_new_game(uci_engine *e, int chess960, char *err, size_t errlen);

typedef struct uci_limits {
  int timed; /* wtime/btime/winc/binc/movestogo from these: */
  int64_t wtime, btime, winc, binc;
  int movestogo;       /* 0: none */
  int64_t movetime;    /* ms, 0: none */
  int depth;           /* 0: none */
  uint64_t nodes;      /* 0: none */
  int64_t deadline_ms; /* wall time allowed for the answer (the mover's clock + margin);
                          0: none (depth/nodes/movetime still get a watchdog) */
} uci_limits;

typedef struct uci_result {
  uci_status status;
  arb_move move;
  char text[16];       /* the bestmove text as sent */
  arb_move ponder;     /* `ponder Y` after the bestmove, when legal; else ARB_MOVE_NONE */
  int64_t elapsed_ms;  /* from the go write to the bestmove read (monotonic) */
  int has_score, mate; /* score: centipawns, or mate in `score` moves when mate (signed) */
  int score;
  int depth, seldepth;
  uint64_t nodes, nps;
  int has_wdl, wdl[3];
  int64_t engine_ms; /* the engine's own `time` (its latency: elapsed_ms - engine_ms) */
  int hashfull;
  uint64_t tbhits;
  char pv[256]; /* the last info line's pv as sent ("" when none), cut at a move boundary */
  char message[160];
} uci_result;

/* Sends `position` (the start as FEN, or startpos, then the moves) and `go`, and waits for
 * `bestmove`: checked against the legal moves of the position after the moves (Chess960
 * castling as king takes rook when chess960).  Never called on a finished position. */
uci_status uci_go(uci_engine *e, const arb_position *start, const arb_move *moves, int n,
                  int chess960, const uci_limits *lim, uci_result *out);

/* Pondering (UCI's `go ponder`; the engine needs its Ponder option true).  uci_ponder starts a
 * search on the opponent's time in the position after moves and the expected reply (the
 * `ponder` move of the engine's last answer), with lim's clock times.  When the opponent plays
 * it, uci_ponderhit sends `ponderhit` and waits for the bestmove as uci_go does (the time
 * counted from the ponderhit; a bestmove the engine sent before it, as some do, is taken at
 * once).  Otherwise uci_ponder_stop sends `stop` and throws its answer away (no answer within
 * the grace: stalled, killed); uci_go does that itself when a search is still pondering. */
uci_status uci_ponder(uci_engine *e, const arb_position *start, const arb_move *moves, int n,
                      arb_move expected, int chess960, const uci_limits *lim);
uci_status uci_ponderhit(uci_engine *e, const uci_limits *lim, uci_result *out);
uci_status uci_ponder_stop(uci_engine *e);

/* `quit`, a wait, then a kill of the process group; frees e (NULL is a no-op). */
void uci_quit(uci_engine *e);

/* Parses one `info` line (without "info ") into r: score, depth, seldepth, nodes, nps, wdl,
 * time, hashfull, tbhits, pv; a line of multipv 2 or more is ignored. */
void uci_parse_info(const char *line, uci_result *r);
/* Checks a `bestmove` line (the whole line) against the legal moves of pos (Chess960 castling
 * as king takes rook when chess960): UCI_OK with r->move, or UCI_NO_MOVE ((none), 0000, a1a1,
 * empty), UCI_MALFORMED, UCI_ILLEGAL with the reason in r->message; r->text is the move as
 * sent. */
uci_status uci_read_bestmove(const arb_position *pos, int chess960, const char *line,
                             uci_result *r);
/* How many moves at the start of pv (UCI moves separated by spaces) are legal in sequence
 * from pos. */
int uci_pv_legal(const arb_position *pos, const char *pv);

#endif
