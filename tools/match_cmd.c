/* Arbiter — MIT licence, see LICENSE.
 *
 * match_cmd.c: `arbiter match` — engines against each other (round robin; with two engines, a
 * match), every game ended by the laws (the game layer: mate, stalemate, dead positions by proof,
 * threefold and 50 moves claimed for the engines, fivefold and 75 moves; a flag or an illegal
 * move a loss, or a draw when the opponent cannot mate), adjudication (-maxmoves) reported as
 * adjudication.  PGN with %clk, %emt and %eval, a PGN-standard TimeControl and Termination and
 * tags naming the rule set and the reason.  A journal of finished games makes --resume continue
 * an interrupted run with the same numbers; statistics (tools/stats.c) every N games and at the
 * end.  fastchess/cutechess spellings: -engine cmd= name= args= dir= option.X= tc= st= nodes=
 * depth= timemargin=, -each, -rounds, -games, -repeat, -concurrency, -openings file= format=
 * order= plies=, -srand, -pgnout, -sprt, -ratinginterval, -maxmoves.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arbiter/arbiter.h"
#include "match_out.h"
#include "stats.h"
#include "uci.h"
#include "util.h"

#define MAX_ENGINES 16
#define MAX_OPTS 32

typedef struct engine_spec {
  char name[64];
  const char *cmd, *dir;
  const char *args[16];
  uci_option opts[MAX_OPTS];
  size_t nopts;
  arb_time_control tc;
  int timed;
  int64_t st_ms, margin_ms;
  int depth;
  uint64_t nodes;
  char tc_text[64];
  char *args_copy;            /* owned: the args= text split in place */
  char *opt_names[MAX_OPTS];  /* owned: option names */
  char threads[40], hash[40]; /* fastchess's "1t" and "16MB" ("NULL"), from the first start */
  int ponder;                 /* ponder=on (or a bare `ponder`): go ponder on the opponent's time */
  int restart; /* one process for many games (the default, as fastchess); restart=on: a fresh
               process every game, so no game depends on what the engine kept from the games
               before it (its hash, if ucinewgame does not clear it) and --resume repeats any
               run exactly */
} engine_spec;

typedef struct opening {
  arb_position start;
  arb_move moves[32];
  int n;
} opening;

/* A game's ending in fastchess's words, for its output formats, and its warning line. */
typedef struct game_words {
  char reason[128];
  char warning[200];
} game_words;

typedef struct game_rec {
  int done;
  arb_result result; /* from White's point of view */
  int white, black;  /* engine indices */
  int pair;          /* games 2k and 2k+1 of a pairing: one opening, colours swapped */
  char *pgn;
  game_words words;
} game_rec;

typedef struct run {
  engine_spec eng[MAX_ENGINES];
  int neng;
  int rounds, games_per, repeat, concurrency;
  uint64_t seed;
  opening *openings;
  int nopen;
  int maxmoves;
  int draw_movenumber, draw_count, draw_score;     /* -draw: fastchess semantics */
  int resign_count, resign_score, resign_twosided; /* -resign */
  arb_ruleset rules;
  int claims;
  const char *pgnout, *journal;
  int rating_interval;
  int gauntlet; /* -tournament gauntlet: the first engine against each of the others */
  int sprt;
  double elo0, elo1, alpha, beta;
  stats_model model;
  match_format out;
  int penta_report;   /* -report penta=true (the default): pairs when -games 2 */
  int score_interval; /* cutechess format: a Score line every N games */
  const char *book;   /* the openings file's name, for fastchess's results line */
  int stopped;        /* the SPRT decided: no new games */
  int finished;       /* games finished, loaded ones included */
  /* the schedule */
  int total;
  game_rec *g;
  int next;
  int finished_since_report;
  pthread_mutex_t mu;
  FILE *journal_f;
} run;

static uint64_t rnd(uint64_t *s) {
  uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* ---- options ---- */

static int parse_engine_kv(engine_spec *e, const char *kv) {
  if (!strcmp(kv, "ponder")) { /* cutechess's and fastchess's bare flag */
    e->ponder = 1;
    return 0;
  }
  const char *eq = strchr(kv, '=');
  if (!eq) return -1;
  size_t kl = (size_t)(eq - kv);
  const char *v = eq + 1;
#define KEY(k) (kl == strlen(k) && !strncmp(kv, k, kl))
  if (KEY("cmd")) {
    e->cmd = v;
  } else if (KEY("name")) {
    snprintf(e->name, sizeof e->name, "%s", v);
  } else if (KEY("dir")) {
    e->dir = v;
  } else if (KEY("args")) {
    char *copy = strdup(v);
    free(e->args_copy);
    e->args_copy = copy;
    int n = 0;
    for (char *t = strtok(copy, " "); t && n < 15; t = strtok(NULL, " "))
      e->args[n++] = t;
    e->args[n] = NULL;
  } else if (!strncmp(kv, "option.", 7) && e->nopts < MAX_OPTS) {
    char *name = strndup(kv + 7, kl - 7);
    e->opt_names[e->nopts] = name;
    e->opts[e->nopts++] = (uci_option){name, v};
  } else if (KEY("tc")) {
    arb_tc_report rep = {0, ""};
    if (!strcmp(v, "inf")) {
      e->timed = 0;
      return 0;
    }
    /* "5+3" means one thing in every command: 5 minutes and 3 seconds a move, as arbiter
     * play, arbiter serve and the page read it (ARB_TC_AUTO).  fastchess and cutechess read a
     * bare number as seconds, so a control whose two readings differ is refused with both
     * written out in units; with units ("10s+0.1", "90m+30s", "2s d0.5s": a delay is not sent
     * over UCI, ENGINES.md 10.2) or in the PGN grammar with its ':' ("40/5400+30:1800+30",
     * seconds by definition) it is read as everywhere. */
    arb_time_control secs;
    arb_tc_report srep = {0, ""};
    int has_colon = strchr(v, ':') != NULL;
    int secs_ok = arb_tc_parse(v, strlen(v), ARB_TC_PGN, &secs, &srep) == ARB_OK;
    if (arb_tc_parse(v, strlen(v), ARB_TC_AUTO, &e->tc, &rep) != ARB_OK) {
      fprintf(stderr, "arbiter match: tc=%s: %s\n", v, rep.message);
      return -1;
    }
    char as_secs[64], as_auto[64];
    if (!has_colon && secs_ok && arb_tc_write(&secs, ARB_TC_HUMAN, as_secs, sizeof as_secs) > 0 &&
        arb_tc_write(&e->tc, ARB_TC_HUMAN, as_auto, sizeof as_auto) > 0 &&
        strcmp(as_secs, as_auto)) {
      fprintf(stderr,
              "arbiter match: tc=%s has no unit: fastchess and cutechess read it in seconds "
              "(%s), arbiter play, arbiter serve and the page in minutes (%s); write the unit: "
              "tc=%s for fastchess's meaning\n",
              v, as_secs, as_auto, as_secs);
      return -1;
    }
    e->timed = 1;
    snprintf(e->tc_text, sizeof e->tc_text, "%s", v);
  } else if (KEY("st")) {
    e->st_ms = (int64_t)(atof(v) * 1000);
  } else if (KEY("nodes")) {
    e->nodes = strtoull(v, NULL, 10);
  } else if (KEY("depth")) {
    e->depth = atoi(v);
  } else if (KEY("timemargin")) {
    e->margin_ms = atoll(v);
  } else if (KEY("restart")) {
    e->restart = !strcmp(v, "on");
  } else if (KEY("ponder")) {
    e->ponder = !strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "1");
  } else if (KEY("proto")) {
    /* uci only */
  } else {
    return -1;
  }
#undef KEY
  return 0;
}

/* PGN openings: the first `plies` moves of each game's main line (the library's reader). */
typedef struct pgn_load {
  run *r;
  int plies, cap;
  opening cur;
  int have;
} pgn_load;

static int pgn_begin_moves(void *ctx, const arb_position *start) {
  pgn_load *l = ctx;
  memset(&l->cur, 0, sizeof l->cur);
  l->cur.start = *start;
  l->have = 1;
  return 0;
}

static int pgn_move(void *ctx, const arb_pgn_move *m) {
  pgn_load *l = ctx;
  if (m->depth == 0 && l->cur.n < l->plies && l->cur.n < 32) l->cur.moves[l->cur.n++] = m->move;
  return 0;
}

static void pgn_end(void *ctx, const arb_pgn_game_end *end) {
  pgn_load *l = ctx;
  if (!l->have || end->errors || end->skipped) return;
  l->have = 0;
  arb_position p = l->cur.start;
  for (int i = 0; i < l->cur.n; i++) {
    arb_undo u;
    arb_make_move(&p, l->cur.moves[i], &u);
  }
  if (!arb_has_legal_move(&p)) return; /* an opening that ends the game is no opening */
  run *r = l->r;
  if (r->nopen == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 64;
    r->openings = realloc(r->openings, (size_t)l->cap * sizeof *r->openings);
  }
  r->openings[r->nopen++] = l->cur;
}

static int load_openings(run *r, const char *file, const char *format, int plies,
                         int random_order) {
  if (!strcmp(format, "pgn")) {
    FILE *pf = fopen(file, "rb");
    if (!pf) {
      fprintf(stderr, "arbiter match: %s: %s\n", file, strerror(errno));
      return -1;
    }
    pgn_load l;
    memset(&l, 0, sizeof l);
    l.r = r;
    l.plies = plies;
    arb_pgn_visitor v = {0};
    v.ctx = &l;
    v.begin_moves = pgn_begin_moves;
    v.move = pgn_move;
    v.end_game = pgn_end;
    arb_pgn_options o = {ARB_PGN_NO_VARIATIONS | ARB_PGN_NO_RESULT_CHECK, ARB_RULES_FIDE, 0, 0};
    arb_tool_pgn_read(pf, &o, &v);
    fclose(pf);
    if (!r->nopen) {
      fprintf(stderr, "arbiter match: %s: no opening read\n", file);
      return -1;
    }
    goto shuffle;
  }
  FILE *f = fopen(file, "r");
  if (!f) {
    fprintf(stderr, "arbiter match: %s: %s\n", file, strerror(errno));
    return -1;
  }
  char line[4096];
  int cap = 0;
  long lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    line[strcspn(line, "\r\n")] = 0;
    if (!line[0] || line[0] == '#') continue;
    if (r->nopen == cap) {
      cap = cap ? cap * 2 : 64;
      r->openings = realloc(r->openings, (size_t)cap * sizeof *r->openings);
    }
    opening *o = &r->openings[r->nopen];
    memset(o, 0, sizeof *o);
    if (!strcmp(format, "epd")) {
      arb_fen_report rep;
      if (arb_fen_read(&o->start, line, 0, &rep) != ARB_OK) {
        fprintf(stderr, "arbiter match: %s:%ld: %s\n", file, lineno, rep.message);
        fclose(f);
        return -1;
      }
    } else { /* "uci": moves from the initial position, one opening per line */
      arb_position_startpos(&o->start);
      arb_position p = o->start;
      for (char *t = strtok(line, " "); t && o->n < 32 && o->n < plies; t = strtok(NULL, " ")) {
        if (arb_move_read(&p, t, strlen(t), 0, &o->moves[o->n], NULL) != ARB_OK) {
          fprintf(stderr, "arbiter match: %s:%ld: %s is not legal\n", file, lineno, t);
          fclose(f);
          return -1;
        }
        arb_undo u;
        arb_make_move(&p, o->moves[o->n++], &u);
      }
    }
    if (!arb_has_legal_move(&o->start)) {
      fprintf(stderr, "arbiter match: %s:%ld: the opening leaves no move\n", file, lineno);
      fclose(f);
      return -1;
    }
    r->nopen++;
  }
  fclose(f);
shuffle:
  if (random_order)
    for (int i = r->nopen - 1; i > 0; i--) {
      int j = (int)(rnd(&r->seed) % (uint64_t)(i + 1));
      opening t = r->openings[i];
      r->openings[i] = r->openings[j];
      r->openings[j] = t;
    }
  return r->nopen ? 0 : -1;
}

/* ---- one game ---- */

typedef struct player {
  uci_engine *e;
  int idx;
} player;

static int ensure_engine(const run *r, player *p, int idx, int thread) {
  if (p->e && p->idx == idx) return 0;
  uci_quit(p->e);
  p->e = NULL;
  p->idx = idx;
  const engine_spec *s = &r->eng[idx];
  uci_config c = {0};
  c.cmd = s->cmd;
  c.args = s->args;
  c.dir = s->dir;
  c.options = s->opts;
  c.option_count = s->nopts;
  char err[256];
  (void)thread;
  p->e = uci_start(&c, err, sizeof err);
  if (!p->e) {
    fprintf(stderr, "arbiter match: engine %s: %s\n", s->name, err);
    return -1;
  }
  return 0;
}

typedef struct move_note {
  arb_move move;
  int64_t clk, emt;
  int has_eval, mate, score, depth;
} move_note;

/* The ending in fastchess's words (match.hpp's messages) where it has the same ending, from
 * the referee's decision; overrun: how late a flag was (time forfeits). */
static void fastchess_words(const arb_ref_state *st, int64_t overrun, char *fc, size_t len) {
  const arb_outcome o = st->outcome;
  const char *winner = o.result == ARB_RESULT_WHITE_WINS ? "White" : "Black";
  const char *by = o.by == ARB_WHITE ? "White" : "Black"; /* who forfeited */
  int draw = o.result == ARB_RESULT_DRAW;
  switch (o.termination) {
  case ARB_TERM_CHECKMATE: snprintf(fc, len, "%s mates", winner); break;
  case ARB_TERM_STALEMATE: snprintf(fc, len, "Draw by stalemate"); break;
  case ARB_TERM_INSUFFICIENT_MATERIAL:
    snprintf(fc, len, "Draw by insufficient mating material");
    break;
  case ARB_TERM_DEAD_POSITION: snprintf(fc, len, "Draw by dead position (FIDE 5.2.2)"); break;
  case ARB_TERM_FIVEFOLD_REPETITION: snprintf(fc, len, "Draw by 5-fold repetition"); break;
  case ARB_TERM_SEVENTYFIVE_MOVES: snprintf(fc, len, "Draw by 75 moves rule"); break;
  case ARB_TERM_THREEFOLD_REPETITION: snprintf(fc, len, "Draw by 3-fold repetition"); break;
  case ARB_TERM_FIFTY_MOVES: snprintf(fc, len, "Draw by fifty moves rule"); break;
  case ARB_TERM_TIME_FORFEIT:
    snprintf(fc, len, "%s loses on time (%lldms overrun)%s",
             st->flag_side == ARB_BLACK ? "Black" : "White", (long long)(overrun > 0 ? overrun : 0),
             draw ? "; a draw: the opponent cannot mate (FIDE 6.9)" : "");
    break;
  case ARB_TERM_CRASH: snprintf(fc, len, "%s disconnects", by); break;
  case ARB_TERM_STALL: snprintf(fc, len, "%s's connection stalls", by); break;
  case ARB_TERM_ILLEGAL_MOVE:
    snprintf(fc, len, "%s makes an illegal move%s", by,
             draw ? "; a draw: the opponent cannot mate (FIDE 7.5.5)" : "");
    break;
  case ARB_TERM_ADJUDICATION:
    if (draw)
      snprintf(fc, len, "Draw by adjudication");
    else
      snprintf(fc, len, "%s wins by adjudication", winner);
    break;
  default: snprintf(fc, len, "%s", arb_termination_name(o.termination)); break;
  }
}

/* What an engine is told for its move (or its ponder search): its clock and the opponent's,
 * increment, moves to go in a period, and the deadline: until its flag falls (the remaining
 * time plus what is left of a delay) and the margin; or its fixed limits.  clock NULL:
 * untimed. */
static uci_limits limits_for(const engine_spec *s, const arb_clock *clock, int64_t t, int side) {
  uci_limits lim = {0};
  if (clock) {
    lim.timed = 1;
    lim.wtime = arb_clock_remaining(clock, ARB_WHITE, t);
    lim.btime = arb_clock_remaining(clock, ARB_BLACK, t);
    int per = arb_clock_period(clock, (arb_color)side);
    lim.winc = lim.binc = s->tc.periods[per].increment_ms;
    if (s->tc.periods[per].moves)
      lim.movestogo = (int)(s->tc.periods[per].moves -
                            arb_clock_moves(clock, (arb_color)side) % s->tc.periods[per].moves);
    if (arb_clock_running(clock) == side)
      lim.deadline_ms = arb_clock_flag_time(clock) - t + s->margin_ms;
  }
  lim.movetime = s->st_ms;
  lim.depth = s->depth;
  lim.nodes = s->nodes;
  if (s->st_ms) lim.deadline_ms = s->st_ms + (s->margin_ms ? s->margin_ms : 1000);
  return lim;
}

/* One event to the game's referee at t; returns the decision's status (d filled). */
static arb_status to_referee(arb_referee *ref, arb_ref_kind kind, int64_t t, arb_ref_event *ev,
                             arb_ref_decision *d) {
  ev->kind = kind;
  ev->t = t;
  return arb_referee_event(ref, ev, d);
}

/* Plays game gi; returns its PGN (malloc'd) and the result.  The referee decides every ending
 * (the laws', a flag, an engine's failure, the claims made for the engines and the match's
 * adjudications); this only feeds it the engines' moves and failures at the engines' own
 * measured time, and writes the decision in fastchess's words too. */
static char *play_game(const run *r, int gi, player *pw, player *pb, arb_result *result,
                       char *reason, size_t reason_len, char *term, size_t term_len,
                       game_words *words) {
  char *fc = words->reason;
  size_t fc_len = sizeof words->reason;
  const game_rec *gr = &r->g[gi];
  const opening *op = &r->openings[gr->pair % r->nopen];
  const engine_spec *spec[2] = {&r->eng[gr->white], &r->eng[gr->black]};
  player *pl[2] = {pw, pb};
  /* one clock for both, in the engines' own measured time: virtual time t is the sum of the
   * moves' times, so the machine's load between moves is never charged (time controls of
   * both engines are the first engine's; the parser makes them equal); the match sees every
   * flag the moment it falls */
  int timed = spec[0]->timed;
  arb_referee *ref = arb_referee_new(r->rules);
  arb_ref_setup su = ARB_REF_SETUP_INIT;
  su.start = &op->start;
  su.rules = r->rules;
  su.moves = op->moves;
  su.move_count = (size_t)op->n;
  su.control = timed ? &spec[0]->tc : NULL;
  su.clock_model = timed ? spec[0]->tc.model : -1;
  su.sees_flags = 1;
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_START, 0);
  ev.setup = &su;
  arb_ref_decision d;
  int64_t t = 0;
  if (!ref || arb_referee_event(ref, &ev, &d) != ARB_OK) {
    fprintf(stderr, "arbiter match: game %d cannot start: %s\n", gi + 1,
            ref ? d.message : "out of memory");
    exit(1);
  }
  const arb_game *g = arb_referee_game(ref);
  int book = op->n;
  move_note *notes = calloc(600, sizeof *notes);
  int nn = 0;
  reason[0] = 0;
  fc[0] = 0;
  char detail[200] = ""; /* what the referee was told, in the engine's or the rule's words */
  int64_t overrun = 0;
  int draw_run = 0, resign_run[2] = {0, 0}, last_cp[2] = {0, 0};
  int pondering[2] = {0, 0};
  arb_move expect[2] = {ARB_MOVE_NONE, ARB_MOVE_NONE};
  for (;;) {
    arb_ref_state st;
    arb_referee_state_of(ref, &st);
    if (st.over) break;
    arb_color side = st.turn;
    ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_STATE, t);
    /* the claims an arbiter makes for the engines: threefold and fifty moves on the board */
    if (r->claims) {
      arb_claim_reason why[2] = {ARB_CLAIM_THREEFOLD, ARB_CLAIM_FIFTY};
      int claimed = 0;
      for (int k = 0; k < 2 && !claimed; k++)
        if (arb_game_claim_correct(g, why[k], ARB_MOVE_NONE)) {
          ev.by = (int8_t)side;
          ev.reason = why[k];
          claimed = to_referee(ref, ARB_REF_CLAIM_DRAW, t, &ev, &d) == ARB_OK && d.ended;
        }
      if (claimed) {
        snprintf(detail, sizeof detail, "claimed for the engines");
        break;
      }
      ev.by = -1;
    }
    /* the match's adjudications */
    ev.termination = ARB_TERM_ADJUDICATION;
    if (r->maxmoves && arb_game_ply_count(g) - book >= 2 * r->maxmoves) {
      snprintf(detail, sizeof detail, "-maxmoves: %d moves", r->maxmoves);
      ev.result = ARB_RESULT_DRAW;
    } else if (r->draw_count && draw_run >= 2 * r->draw_count) {
      snprintf(detail, sizeof detail, "-draw: both scores within %d cp for %d moves each",
               r->draw_score, r->draw_count);
      ev.result = ARB_RESULT_DRAW;
    } else if (r->resign_count && resign_run[!side] >= r->resign_count) {
      snprintf(detail, sizeof detail, "-resign: %s's engine scored %d cp or worse for %d moves",
               side == ARB_WHITE ? "Black" : "White", -r->resign_score, r->resign_count);
      ev.result = side == ARB_WHITE ? ARB_RESULT_WHITE_WINS : ARB_RESULT_BLACK_WINS;
    } else if (nn >= 599) {
      snprintf(detail, sizeof detail, "600 plies: stopped");
      ev.result = ARB_RESULT_DRAW;
    }
    if (ev.result != ARB_RESULT_NONE) {
      to_referee(ref, ARB_REF_ADJUDICATE, t, &ev, &d);
      break;
    }
    const engine_spec *s = spec[side];
    const arb_clock *clock = arb_referee_clock(ref);
    uci_limits lim = limits_for(s, clock, t, side);
    int n = arb_game_ply_count(g);
    arb_move *mv = malloc((size_t)(n + 2) * sizeof *mv);
    for (int i = 0; i < n; i++)
      mv[i] = arb_game_move_at(g, i + 1); /* 1-based */
    uci_result ur;
    uci_status us;
    if (pondering[side] && n > 0 && mv[n - 1] == expect[side])
      us = uci_ponderhit(pl[side]->e, &lim, &ur);
    else /* a ponder search on another move is stopped first */
      us = uci_go(pl[side]->e, &op->start, mv, n, op->start.chess960, &lim, &ur);
    pondering[side] = 0;
    /* the time it took: the margin forgives a late answer once, never carries a negative
     * balance */
    int64_t used = ur.elapsed_ms;
    if (clock) {
      int64_t left = arb_clock_flag_time(clock) - t;
      overrun = used - left;
      if (us != UCI_TIMEOUT && used > left && used <= left + s->margin_ms) used = left;
    }
    if (us == UCI_TIMEOUT && !timed) us = UCI_STALLED; /* the watchdog of a node/depth limit */
    ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_STATE, t + used);
    ev.side = (int8_t)side;
    if (us == UCI_OK) {
      ev.by = (int8_t)side;
      ev.move = ur.move;
      if (to_referee(ref, ARB_REF_MOVE, t + used, &ev, &d) != ARB_OK) {
        if (d.state.over) { /* the flag fell first */
          free(mv);
          break;
        }
        us = UCI_ILLEGAL; /* the engine layer let through a move the referee refuses */
        snprintf(ur.message, sizeof ur.message, "%.150s", d.message);
        ev.by = -1;
      }
    }
    if (us != UCI_OK) {
      free(mv);
      if (us == UCI_TIMEOUT) {
        /* no answer by the deadline: the flag is down by then */
        int64_t at = t + used, due = arb_referee_next_deadline(ref);
        if (due != ARB_CLOCK_NEVER && due > at) at = due;
        arb_referee_tick(ref, at, &d);
        if (!d.state.over) { /* cannot happen with a clock that sees flags: say so */
          ev.termination = ARB_TERM_STALL;
          snprintf(detail, sizeof detail, "no answer by its deadline");
          to_referee(ref, ARB_REF_FORFEIT, at, &ev, &d);
        }
      } else if (us == UCI_CRASHED || us == UCI_STALLED) {
        ev.termination = us == UCI_CRASHED ? ARB_TERM_CRASH : ARB_TERM_STALL;
        snprintf(detail, sizeof detail, "%s", ur.message);
        uci_quit(pl[side]->e);
        pl[side]->e = NULL;
        pl[side]->idx = -1;
        to_referee(ref, ARB_REF_FORFEIT, t + used, &ev, &d);
      } else {
        ev.termination = ARB_TERM_ILLEGAL_MOVE;
        snprintf(detail, sizeof detail, "%s", ur.message);
        if (us == UCI_MALFORMED)
          snprintf(words->warning, sizeof words->warning,
                   "Warning; Move does not match uci move format, lowercase and 4/5 chars. Move "
                   "%s played by %s\n",
                   ur.text, s->name);
        size_t wl = strlen(words->warning);
        snprintf(words->warning + wl, sizeof words->warning - wl,
                 "Warning; Illegal move %s played by %s\n", ur.text[0] ? ur.text : "<none>",
                 s->name);
        to_referee(ref, ARB_REF_FORFEIT, t + used, &ev, &d);
      }
      break;
    }
    t += used;
    move_note *mn = &notes[nn < 599 ? nn++ : nn];
    mn->move = ur.move;
    mn->emt = ur.elapsed_ms;
    mn->clk = timed ? arb_clock_remaining(arb_referee_clock(ref), side, t) : -1;
    mn->has_eval = ur.has_score;
    mn->mate = ur.mate;
    mn->score = ur.score;
    mn->depth = ur.depth;
    /* ponder=on: the engine thinks on the opponent's time about the reply it expects */
    if (s->ponder && ur.ponder != ARB_MOVE_NONE && !d.state.over) {
      mv[n] = ur.move;
      uci_limits pl_lim = limits_for(s, arb_referee_clock(ref), t, side);
      if (uci_ponder(pl[side]->e, &op->start, mv, n + 1, ur.ponder, op->start.chess960, &pl_lim) ==
          UCI_OK)
        pondering[side] = 1, expect[side] = ur.ponder;
    }
    free(mv);
    /* adjudication counters (fastchess semantics: mate scores never count as drawish; a
     * capture or a pawn move starts the draw count again) */
    int cp = ur.mate ? (ur.score > 0 ? 100000 : -100000) : ur.score;
    last_cp[side] = cp;
    const arb_position *now = arb_game_position(g);
    if (r->draw_count && ur.has_score && !ur.mate && abs(cp) <= r->draw_score &&
        (int)now->fullmove_number >= r->draw_movenumber && now->halfmove_clock > 0)
      draw_run++;
    else
      draw_run = 0;
    if (r->resign_count && ur.has_score && cp <= -r->resign_score &&
        (!r->resign_twosided || last_cp[!side] >= r->resign_score))
      resign_run[side]++;
    else
      resign_run[side] = 0;
  }
  for (int k = 0; k < 2; k++) /* the game is over: no more pondering */
    if (pondering[k] && pl[k]->e) uci_ponder_stop(pl[k]->e);
  /* the decision, in the referee's words (with its article) and fastchess's */
  arb_ref_state st;
  arb_referee_state_of(ref, &st);
  *result = st.outcome.result;
  snprintf(term, term_len, "%s", arb_termination_pgn(st.outcome.termination));
  const char *arbiter_term = arb_termination_name(st.outcome.termination);
  const char *article = arb_termination_article(st.outcome.termination);
  char said[160];
  arb_referee_end_words(ref, said, sizeof said);
  if (detail[0] && article[0])
    snprintf(reason, reason_len, "%.150s (%.199s; FIDE %.16s)", said, detail, article);
  else if (detail[0])
    snprintf(reason, reason_len, "%.150s (%.199s)", said, detail);
  else if (article[0])
    snprintf(reason, reason_len, "%.150s (FIDE %.16s)", said, article);
  else
    snprintf(reason, reason_len, "%.150s", said);
  fastchess_words(&st, overrun, fc, fc_len);
  /* the PGN */
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  arb_pgn_writer_begin_game(w);
  char v[512];
  time_t tt = time(NULL);
  struct tm tm;
  gmtime_r(&tt, &tm);
#define TAG(n, ...)                                                                                \
  do {                                                                                             \
    snprintf(v, sizeof v, __VA_ARGS__);                                                            \
    arb_pgn_writer_tag(w, n, strlen(n), v, strlen(v));                                             \
  } while (0)
  TAG("Event", "arbiter match");
  TAG("Site", "?");
  TAG("Date", "%04d.%02d.%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
  TAG("Round", "%d", gi + 1);
  TAG("White", "%s", spec[0]->name);
  TAG("Black", "%s", spec[1]->name);
  TAG("Result", "%s", arb_result_string(*result));
  arb_position init;
  arb_position_startpos(&init);
  if (memcmp(&init, &op->start, sizeof init)) {
    char fen[ARB_FEN_MAX];
    arb_fen_write(&op->start, fen, sizeof fen, 0);
    TAG("SetUp", "1");
    TAG("FEN", "%s", fen);
    if (op->start.chess960) TAG("Variant", "Chess960");
  }
  if (timed && arb_tc_write(&spec[0]->tc, ARB_TC_PGN, v, sizeof v) > 0)
    arb_pgn_writer_tag(w, "TimeControl", 11, v, strlen(v));
  else
    TAG("TimeControl", "-");
  TAG("PlyCount", "%d", arb_game_ply_count(g));
  TAG("Termination", "%s", term);
  TAG("ArbiterRuleset", "%s", arb_rules_get(r->rules)->name);
  TAG("ArbiterTermination", "%s", arbiter_term);
  TAG("ArbiterReason", "%s", reason);
  TAG("Opening", "%d", gr->pair % r->nopen + 1);
#undef TAG
  arb_pgn_writer_begin_moves(w);
  for (int i = 0; i < arb_game_ply_count(g); i++) {
    arb_pgn_writer_move_to(w, arb_game_position_at(g, i), arb_game_move_at(g, i + 1),
                           arb_game_position_at(g, i + 1));
    if (i < book) {
      if (i == book - 1) arb_pgn_writer_comment(w, "book", 4);
      continue;
    }
    const move_note *m = &notes[i - book];
    char c[160], clk[32];
    size_t k = 0;
    if (m->has_eval) {
      if (m->mate)
        k += (size_t)snprintf(c + k, sizeof c - k, "[%%eval #%d,%d] ", m->mate ? m->score : 0,
                              m->depth);
      else
        k += (size_t)snprintf(
            c + k, sizeof c - k, "[%%eval %.2f,%d] ",
            (arb_game_position_at(g, i)->turn == ARB_WHITE ? 1 : -1) * m->score / 100.0, m->depth);
    }
    if (m->clk >= 0) {
      arb_pgn_clock_write(m->clk, clk, sizeof clk);
      k += (size_t)snprintf(c + k, sizeof c - k, "[%%clk %s] ", clk);
    }
    arb_pgn_clock_write(m->emt, clk, sizeof clk);
    k += (size_t)snprintf(c + k, sizeof c - k, "[%%emt %s]", clk);
    arb_pgn_writer_comment(w, c, k);
  }
  if (reason[0]) arb_pgn_writer_comment(w, reason, strlen(reason));
  arb_pgn_writer_end_game(w, *result);
  size_t wl;
  const char *data = arb_pgn_writer_data(w, &wl);
  char *pgn = malloc(wl + 1);
  memcpy(pgn, data, wl + 1);
  arb_pgn_writer_free(w);
  arb_referee_free(ref);
  free(notes);
  return pgn;
}

/* ---- the run ---- */

/* Engine a's score against engine b so far (b < 0: against the field), in game order. */
static void tally(const run *r, int a, int b, match_tally *t) {
  memset(t, 0, sizeof *t);
  for (int i = 0; i < r->total; i++) {
    const game_rec *g = &r->g[i];
    if (!g->done || (g->white != a && g->black != a)) continue;
    if (b >= 0 && g->white != b && g->black != b) continue;
    double sa = g->result == ARB_RESULT_DRAW                              ? 0.5
                : (g->result == ARB_RESULT_WHITE_WINS) == (g->white == a) ? 1
                                                                          : 0;
    if (sa == 1)
      t->w++;
    else if (sa == 0.5)
      t->d++;
    else
      t->l++;
    /* a pair: this game and its partner (same opening, colours swapped) both done */
    if (r->games_per == 2 && i % 2 == 1 && r->g[i - 1].done) {
      const game_rec *h = &r->g[i - 1];
      double sb = h->result == ARB_RESULT_DRAW                              ? 0.5
                  : (h->result == ARB_RESULT_WHITE_WINS) == (h->white == a) ? 1
                                                                            : 0;
      double sum = sa + sb;
      int cell = sum == 0     ? STATS_LL
                 : sum == 0.5 ? STATS_LD
                 : sum == 1.5 ? STATS_WD
                 : sum == 2   ? STATS_WW
                              : (sa == 0.5 ? STATS_DD : STATS_WL);
      t->penta[cell]++;
    }
  }
}

/* fastchess's words for an engine's limit (output_fastchess.hpp, getTime). */
static void limit_words(const engine_spec *e, char *buf, size_t len) {
  char a[32], b[32];
  const arb_tc_period *p = &e->tc.periods[0];
  if (e->timed && e->tc.kind == ARB_TC_PERIODS && e->tc.nperiods == 1 && !p->delay_ms) {
    match_seconds(p->time_ms, a, sizeof a);
    if (p->increment_ms)
      snprintf(b, sizeof b, "+%.2g", (double)p->increment_ms / 1000.0);
    else
      b[0] = 0;
    if (p->moves)
      snprintf(buf, len, "%u/%s%s", p->moves, a, b);
    else
      snprintf(buf, len, "%s%s", a, b);
  } else if (e->timed) {
    snprintf(buf, len, "%s", e->tc_text);
  } else if (e->st_ms) {
    match_seconds(e->st_ms, a, sizeof a);
    snprintf(buf, len, "%s/move", a);
  } else if (e->depth) {
    snprintf(buf, len, "%d plies", e->depth);
  } else {
    snprintf(buf, len, "%llu nodes", (unsigned long long)e->nodes);
  }
}

/* "x" when both are the same, else "x - y" (fastchess). */
static void both(const char *x, const char *y, char *buf, size_t len) {
  if (!strcmp(x, y))
    snprintf(buf, len, "%s", x);
  else
    snprintf(buf, len, "%s - %s", x, y);
}

static int use_penta(const run *r) { return r->penta_report && r->games_per == 2; }

static void print_h2h(const run *r, int a, int b, FILE *out) {
  char la[64], lb[64], tc[140], th[90], hs[90];
  limit_words(&r->eng[a], la, sizeof la);
  limit_words(&r->eng[b], lb, sizeof lb);
  both(la, lb, tc, sizeof tc);
  both(r->eng[a].threads[0] ? r->eng[a].threads : "NULL",
       r->eng[b].threads[0] ? r->eng[b].threads : "NULL", th, sizeof th);
  both(r->eng[a].hash[0] ? r->eng[a].hash : "NULL", r->eng[b].hash[0] ? r->eng[b].hash : "NULL", hs,
       sizeof hs);
  match_h2h h = {r->eng[a].name, r->eng[b].name, tc, th, hs, r->book ? r->book : "", {0},
                 use_penta(r)};
  tally(r, a, b, &h.t);
  match_sprt sp = {r->sprt, r->elo0, r->elo1, r->alpha, r->beta, r->model};
  match_print_h2h(out, r->out, &h, &sp);
}

static void print_table(const run *r, FILE *out) {
  match_row rows[MAX_ENGINES];
  for (int k = 0; k < r->neng; k++) {
    rows[k].name = r->eng[k].name;
    tally(r, k, -1, &rows[k].t);
  }
  match_print_table(out, r->out, rows, r->neng, use_penta(r));
}

/* The results so far: fastchess's formats print the head-to-head block of two engines or the
 * table of more; Arbiter's prints every head-to-head, then the table. */
static void report(const run *r, FILE *out) {
  if (r->out != MATCH_OUT_ARBITER && r->neng > 2) {
    print_table(r, out);
    return;
  }
  for (int a = 0; a < r->neng; a++)
    for (int b = a + 1; b < r->neng; b++)
      if (r->out == MATCH_OUT_ARBITER || (a == 0 && b == 1)) print_h2h(r, a, b, out);
  if (r->neng > 2) print_table(r, out);
  fflush(out);
}

/* Appends a finished game to the journal (one JSON line: index, result, PGN) and syncs it. */
static void journal_write(run *r, int gi) {
  if (!r->journal_f) return;
  const game_rec *g = &r->g[gi];
  fprintf(r->journal_f, "{\"i\":%d,\"result\":\"%s\",\"pgn\":\"", gi, arb_result_string(g->result));
  for (const char *c = g->pgn; *c; c++) {
    if (*c == '"' || *c == '\\')
      fputc('\\', r->journal_f), fputc(*c, r->journal_f);
    else if (*c == '\n')
      fputs("\\n", r->journal_f);
    else
      fputc(*c, r->journal_f);
  }
  fputs("\"}\n", r->journal_f);
  fflush(r->journal_f);
  fsync(fileno(r->journal_f));
}

static int journal_load(run *r) {
  FILE *f = fopen(r->journal, "r");
  if (!f) return 0;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  int loaded = 0;
  while ((n = getline(&line, &cap, f)) > 0) {
    int gi;
    char res[16];
    if (sscanf(line, "{\"i\":%d,\"result\":\"%15[^\"]\"", &gi, res) != 2 || gi < 0 ||
        gi >= r->total || line[n - 1] != '\n')
      continue; /* a line cut by the crash: that game is played again */
    char *p = strstr(line, "\"pgn\":\"");
    if (!p) continue;
    p += 7;
    char *pgn = malloc((size_t)n), *w = pgn;
    for (; *p && !(*p == '"' && p[1] == '}'); p++) {
      if (*p == '\\' && p[1]) {
        p++;
        *w++ = *p == 'n' ? '\n' : *p;
      } else {
        *w++ = *p;
      }
    }
    *w = 0;
    game_rec *g = &r->g[gi];
    arb_pgn_result_parse(res, strlen(res), &g->result);
    free(g->pgn);
    g->pgn = pgn;
    if (!g->done) loaded++;
    g->done = 1;
  }
  free(line);
  fclose(f);
  return loaded;
}

/* fastchess's "1t" and "16MB" for its results line, from the engine's options. */
static void record_options(engine_spec *s, const uci_engine *e) {
  if (s->threads[0]) return;
  const char *t = uci_option_value(e, "Threads"), *h = uci_option_value(e, "Hash");
  snprintf(s->threads, sizeof s->threads, "%.30s%s", t ? t : "NULL", t ? "t" : "");
  snprintf(s->hash, sizeof s->hash, "%.30s%s", h ? h : "NULL", h ? "MB" : "");
}

/* What is printed when game gi has finished (under the lock), in the chosen format: the game's
 * line, a running score (cutechess), the results every -ratinginterval games (pairs, when the
 * report is pentanomial, once the pair is complete, as fastchess) and at the last game, and
 * the SPRT's decision, which stops the run (no new games; those under way finish). */
static void game_finished(run *r, int gi, const char *reason) {
  const game_rec *g = &r->g[gi];
  int first = g->white < g->black ? g->white : g->black;
  int second = g->white < g->black ? g->black : g->white;
  r->finished++;
  int all = r->finished == r->total;
  if (r->out != MATCH_OUT_ARBITER) fputs(g->words.warning, stdout);
  fprintf(stdout, "Finished game %d (%s vs %s): %s {%s}\n", gi + 1, r->eng[g->white].name,
          r->eng[g->black].name, arb_result_string(g->result),
          r->out == MATCH_OUT_ARBITER ? reason : g->words.reason);
  match_tally t;
  if (r->out == MATCH_OUT_CUTECHESS &&
      (all || (r->score_interval > 0 && r->finished % r->score_interval == 0))) {
    tally(r, first, second, &t);
    match_print_score(stdout, r->eng[first].name, r->eng[second].name, &t);
  }
  int due;
  if (r->out == MATCH_OUT_ARBITER) {
    due = r->rating_interval && ++r->finished_since_report >= r->rating_interval;
    if (due) r->finished_since_report = 0;
  } else if (use_penta(r)) {
    int partner = gi % 2 ? gi - 1 : gi + 1;
    due = all || (r->rating_interval > 0 && partner < r->total && r->g[partner].done &&
                  (g->pair + 1) % r->rating_interval == 0);
  } else {
    due = all || (r->rating_interval > 0 && r->finished % r->rating_interval == 0);
  }
  if (due && !(all && r->out == MATCH_OUT_ARBITER)) report(r, stdout);
  if (r->sprt && !r->stopped && r->neng == 2) {
    tally(r, 0, 1, &t);
    int d = match_sprt_decision(&(match_sprt){1, r->elo0, r->elo1, r->alpha, r->beta, r->model}, &t,
                                use_penta(r) && r->out != MATCH_OUT_CUTECHESS);
    if (d) {
      r->stopped = d;
      if (r->out == MATCH_OUT_CUTECHESS)
        match_print_score(stdout, r->eng[0].name, r->eng[1].name, &t);
      if (r->out != MATCH_OUT_ARBITER) report(r, stdout);
      if (r->out == MATCH_OUT_FASTCHESS)
        fprintf(stdout, "SPRT ([%.2f, %.2f]) completed - %s was accepted\n", r->elo0, r->elo1,
                d > 0 ? "H1" : "H0");
      else if (r->out == MATCH_OUT_CUTECHESS)
        fprintf(stdout, "Tournament finished\n");
      else
        fprintf(stdout, "SPRT [%.2f, %.2f] (%s): H%d accepted after %d games; no new games\n",
                r->elo0, r->elo1, stats_model_name(r->model), d > 0 ? 1 : 0, r->finished);
    }
  }
  fflush(stdout);
}

typedef struct worker {
  run *r;
  int id;
} worker;

static void *work(void *arg) {
  worker *wk = arg;
  run *r = wk->r;
  player pw = {NULL, -1}, pb = {NULL, -1};
  player *hold[2] = {&pw, &pb};
  for (;;) {
    pthread_mutex_lock(&r->mu);
    while (r->next < r->total && r->g[r->next].done)
      r->next++;
    int gi = r->next < r->total && !r->stopped ? r->next++ : -1;
    pthread_mutex_unlock(&r->mu);
    if (gi < 0) break;
    game_rec *g = &r->g[gi];
    /* the engine processes this thread keeps: one per side of the pairing */
    player *a = hold[0]->idx == g->black || hold[1]->idx == g->white ? hold[1] : hold[0];
    player *b = a == hold[0] ? hold[1] : hold[0];
    if (ensure_engine(r, a, g->white, wk->id) || ensure_engine(r, b, g->black, wk->id)) {
      fprintf(stderr, "arbiter match: game %d not played\n", gi + 1);
      continue;
    }
    char e1[256];
    int c960 = r->openings[g->pair % r->nopen].start.chess960;
    if (uci_new_game(a->e, c960, e1, sizeof e1) || uci_new_game(b->e, c960, e1, sizeof e1)) {
      fprintf(stderr, "arbiter match: game %d: %s\n", gi + 1, e1);
    }
    pthread_mutex_lock(&r->mu);
    record_options(&r->eng[g->white], a->e);
    record_options(&r->eng[g->black], b->e);
    if (r->out != MATCH_OUT_ARBITER) {
      fprintf(stdout, "Started game %d of %d (%s vs %s)\n", gi + 1, r->total, r->eng[g->white].name,
              r->eng[g->black].name);
      fflush(stdout);
    }
    pthread_mutex_unlock(&r->mu);
    char reason[400], term[32];
    arb_result res;
    game_words words = {"", ""};
    char *pgn = play_game(r, gi, a, b, &res, reason, sizeof reason, term, sizeof term, &words);
    pthread_mutex_lock(&r->mu);
    g->result = res;
    g->pgn = pgn;
    g->done = 1;
    g->words = words;
    journal_write(r, gi);
    /* restart=on: fresh processes for every game */
    for (int k = 0; k < 2; k++)
      if (hold[k]->idx >= 0 && r->eng[hold[k]->idx].restart) {
        uci_quit(hold[k]->e);
        hold[k]->e = NULL;
        hold[k]->idx = -1;
      }
    game_finished(r, gi, reason);
    pthread_mutex_unlock(&r->mu);
  }
  uci_quit(pw.e);
  uci_quit(pb.e);
  return NULL;
}

static void match_usage(FILE *out) {
  fprintf(
      out,
      "usage: arbiter match -engine cmd=PROG [name=N] [args=\"A B\"] [dir=D] [option.X=V] "
      "[ponder]\n"
      "                     -engine ... [-each tc=TC|st=S|nodes=N|depth=D timemargin=MS ...]\n"
      "                     [-rounds N] [-games 1|2] [-repeat] [-concurrency N] [-srand SEED]\n"
      "                     [-openings file=F format=epd|pgn|uci order=sequential|random plies=N]\n"
      "                     [-pgnout file=F] [-journal F] [--resume] [-ratinginterval N]\n"
      "                     [-maxmoves N] [-draw movenumber=N movecount=N score=CP]\n"
      "                     [-resign movecount=N score=CP twosided=true|false]\n"
      "                     [-sprt elo0=E0 elo1=E1 alpha=A beta=B\n"
      "                      model=normalized|logistic|bayesian] [--rules fide|uscf|online]\n"
      "                     [--claims auto|off] [-tournament roundrobin|gauntlet]\n"
      "                     [-output format=arbiter|fastchess|cutechess] [-report penta=BOOL]\n"
      "                     [-scoreinterval N]\n"
      "\n"
      "Engines play each other (round robin; with -games 2 every opening is played with both\n"
      "colours).  Every game ends by the laws: mate, stalemate, a dead position (by proof),\n"
      "threefold and 50 moves claimed for the engines (--claims off: on to fivefold and 75),\n"
      "a flag or an illegal move a loss, or a draw when the opponent cannot mate by any series\n"
      "of legal moves; -maxmoves N (moves after the opening), -draw and -resign (fastchess's\n"
      "meaning: scores in centipawns, counts in moves of each side) adjudicate, reported as\n"
      "adjudication.  TC with its unit (10s+0.1, 40/60s+0.6, 90m+30s, \"2s d0.5s\", \"5m b3s\"),\n"
      "the PGN TimeControl grammar with ':' (40/5400+30:1800+30, seconds) or inf: a bare\n"
      "number (5+3) means minutes in arbiter play and arbiter serve but seconds in fastchess\n"
      "and cutechess, so it is refused here with both readings written out.  The clock runs\n"
      "in the time each engine used, so machine load\n"
      "between moves is not charged.  PGN: %%clk, %%emt and %%eval after each move,\n"
      "Termination, ArbiterRuleset/ArbiterTermination/ArbiterReason.  The journal (default\n"
      "PGNOUT.journal; none without -pgnout or -journal) keeps every finished game; --resume "
      "continues from it with the same\n"
      "numbers; the PGN file is written in game order.  -sprt stops the run when the LLR\n"
      "crosses a bound.  -output format=fastchess|cutechess prints fastchess's lines (its two\n"
      "output modes) byte for byte, with its arithmetic (nan and inf included), so scripts\n"
      "written for fastchess parse ours; endings fastchess does not know keep our words.\n");
}

/* The command on r (the caller's, zeroed; freed by the caller, whatever way this returns). */
static int match_run(run *r, int argc, char **argv) {
  r->rounds = 1;
  r->games_per = 1;
  r->concurrency = 1;
  r->seed = 1;
  r->rules = ARB_RULES_FIDE;
  r->claims = 1;
  r->alpha = r->beta = 0.05;
  const char *open_file = NULL, *open_format = "epd";
  int open_random = 0, open_plies = 32, resume = 0, interval_set = 0;
  r->penta_report = 1;
  r->score_interval = 1;
  int64_t t_start = arb_tool_now_ms();
  engine_spec each = {0};
  const char *each_kv[32];
  int neach = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      match_usage(stdout);
      return 0;
    }
    if (!strcmp(a, "-engine") || !strcmp(a, "-each")) {
      int is_each = !strcmp(a, "-each");
      if (!is_each && r->neng == MAX_ENGINES)
        return fprintf(stderr, "arbiter match: too many engines\n"), 2;
      engine_spec *e = is_each ? &each : &r->eng[r->neng++];
      while (i + 1 < argc && argv[i + 1][0] != '-') {
        if (is_each && neach < 32) each_kv[neach++] = argv[i + 1];
        if (parse_engine_kv(e, argv[++i])) {
          fprintf(stderr, "arbiter match: bad engine setting '%s'\n", argv[i]);
          return 2;
        }
      }
    } else if (!strcmp(a, "-rounds") && i + 1 < argc) {
      r->rounds = atoi(argv[++i]);
    } else if (!strcmp(a, "-games") && i + 1 < argc) {
      r->games_per = atoi(argv[++i]);
    } else if (!strcmp(a, "-repeat")) {
      r->games_per = 2;
    } else if (!strcmp(a, "-concurrency") && i + 1 < argc) {
      r->concurrency = atoi(argv[++i]);
    } else if (!strcmp(a, "-srand") && i + 1 < argc) {
      r->seed = strtoull(argv[++i], NULL, 10);
    } else if (!strcmp(a, "-maxmoves") && i + 1 < argc) {
      r->maxmoves = atoi(argv[++i]);
    } else if (!strcmp(a, "-tournament") && i + 1 < argc) {
      const char *t = argv[++i];
      if (strcmp(t, "gauntlet") && strcmp(t, "roundrobin"))
        return fprintf(stderr, "arbiter match: -tournament roundrobin|gauntlet\n"), 2;
      r->gauntlet = !strcmp(t, "gauntlet");
    } else if (!strcmp(a, "-ratinginterval") && i + 1 < argc) {
      r->rating_interval = atoi(argv[++i]);
      interval_set = 1;
    } else if (!strcmp(a, "-scoreinterval") && i + 1 < argc) {
      r->score_interval = atoi(argv[++i]);
    } else if ((!strcmp(a, "-output") || !strcmp(a, "-report")) && i + 1 < argc) {
      int is_out = !strcmp(a, "-output");
      while (i + 1 < argc && argv[i + 1][0] != '-') {
        const char *kv = argv[++i];
        if (is_out && !strncmp(kv, "format=", 7)) {
          if (match_format_parse(kv + 7, &r->out))
            return fprintf(stderr, "arbiter match: -output format=arbiter|fastchess|cutechess\n"),
                   2;
        } else if (!is_out && !strncmp(kv, "penta=", 6)) {
          r->penta_report = !strcmp(kv + 6, "true");
        } else {
          return fprintf(stderr, "arbiter match: %s: unknown setting '%s'\n", a, kv), 2;
        }
      }
    } else if (!strcmp(a, "-journal") && i + 1 < argc) {
      r->journal = argv[++i];
    } else if (!strcmp(a, "--resume") || !strcmp(a, "-resume")) {
      resume = 1;
    } else if (!strcmp(a, "--rules") && i + 1 < argc) {
      if (arb_rules_parse(argv[++i], &r->rules))
        return fprintf(stderr, "arbiter match: unknown rules\n"), 2;
    } else if (!strcmp(a, "--claims") && i + 1 < argc) {
      r->claims = strcmp(argv[++i], "off") != 0;
    } else if (!strcmp(a, "-draw") || !strcmp(a, "-resign")) {
      int is_draw = !strcmp(a, "-draw");
      while (i + 1 < argc && argv[i + 1][0] != '-') {
        const char *kv = argv[++i], *v = strchr(kv, '=');
        if (!v) return fprintf(stderr, "arbiter match: %s KEY=VALUE\n", a), 2;
        v++;
        if (is_draw && !strncmp(kv, "movenumber=", 11))
          r->draw_movenumber = atoi(v);
        else if (is_draw && !strncmp(kv, "movecount=", 10))
          r->draw_count = atoi(v);
        else if (is_draw && !strncmp(kv, "score=", 6))
          r->draw_score = atoi(v);
        else if (!is_draw && !strncmp(kv, "movecount=", 10))
          r->resign_count = atoi(v);
        else if (!is_draw && !strncmp(kv, "score=", 6))
          r->resign_score = atoi(v);
        else if (!is_draw && !strncmp(kv, "twosided=", 9))
          r->resign_twosided = !strcmp(v, "true");
        else
          return fprintf(stderr, "arbiter match: %s: unknown setting '%s'\n", a, kv), 2;
      }
    } else if (!strcmp(a, "-pgnout") || !strcmp(a, "-openings") || !strcmp(a, "-sprt")) {
      while (i + 1 < argc && argv[i + 1][0] != '-') {
        const char *kv = argv[++i];
        const char *v = strchr(kv, '=');
        v = v ? v + 1 : kv;
        if (!strcmp(a, "-pgnout")) {
          if (!strncmp(kv, "file=", 5) || !strchr(kv, '=')) r->pgnout = v;
        } else if (!strcmp(a, "-openings")) {
          if (!strncmp(kv, "file=", 5))
            open_file = v;
          else if (!strncmp(kv, "format=", 7))
            open_format = v;
          else if (!strncmp(kv, "order=", 6))
            open_random = !strcmp(v, "random");
          else if (!strncmp(kv, "plies=", 6))
            open_plies = atoi(v);
        } else {
          r->sprt = 1;
          if (!strncmp(kv, "elo0=", 5))
            r->elo0 = atof(v);
          else if (!strncmp(kv, "elo1=", 5))
            r->elo1 = atof(v);
          else if (!strncmp(kv, "alpha=", 6))
            r->alpha = atof(v);
          else if (!strncmp(kv, "beta=", 5))
            r->beta = atof(v);
          else if (!strncmp(kv, "model=", 6) && stats_model_parse(v, &r->model))
            return fprintf(stderr, "arbiter match: unknown SPRT model '%s'\n", v), 2;
        }
      }
    } else {
      fprintf(stderr, "arbiter match: unexpected argument '%s'\n", a);
      match_usage(stderr);
      return 2;
    }
  }
  if (!interval_set && r->out != MATCH_OUT_ARBITER) r->rating_interval = 10; /* fastchess's */
  if (r->out == MATCH_OUT_CUTECHESS) r->penta_report = 0;
  if (open_file) {
    const char *slash = strrchr(open_file, '/');
    r->book = slash ? slash + 1 : open_file;
  }
  if (r->neng < 2) {
    fprintf(stderr, "arbiter match: needs two engines (-engine cmd=...)\n");
    return 2;
  }
  for (int k = 0; k < r->neng; k++) {
    engine_spec *e = &r->eng[k];
    for (int j = 0; j < neach; j++)
      parse_engine_kv(e, each_kv[j]);
    if (!e->cmd) return fprintf(stderr, "arbiter match: engine %d has no cmd=\n", k + 1), 2;
    if (!e->name[0]) snprintf(e->name, sizeof e->name, "%s", e->cmd);
    if (e->ponder && e->nopts < MAX_OPTS) /* UCI: the GUI sets Ponder to allow go ponder */
      e->opts[e->nopts++] = (uci_option){"Ponder", "true"};
    if (!e->timed && !e->st_ms && !e->nodes && !e->depth)
      return fprintf(stderr, "arbiter match: engine %s has no limit (tc=, st=, nodes= or depth=)\n",
                     e->name),
             2;
    if (e->timed != r->eng[0].timed || (e->timed && memcmp(&e->tc, &r->eng[0].tc, sizeof e->tc)))
      return fprintf(stderr, "arbiter match: the engines need the same time control\n"), 2;
  }
  if (r->games_per < 1 || r->games_per > 2 || r->rounds < 1 || r->concurrency < 1)
    return fprintf(stderr, "arbiter match: -games 1|2, -rounds and -concurrency at least 1\n"), 2;
  if (open_file) {
    if (load_openings(r, open_file, open_format, open_plies, open_random)) return 2;
  } else {
    r->openings = calloc(1, sizeof *r->openings);
    arb_position_startpos(&r->openings[0].start);
    r->nopen = 1;
  }
  /* the schedule, fixed before play: pairing, colours, opening per game */
  int npair = r->gauntlet ? r->neng - 1 : r->neng * (r->neng - 1) / 2;
  r->total = r->rounds * npair * r->games_per;
  r->g = calloc((size_t)r->total, sizeof *r->g);
  int gi = 0, pairno = 0;
  for (int round = 0; round < r->rounds; round++)
    for (int a = 0; a < (r->gauntlet ? 1 : r->neng); a++)
      for (int b = a + 1; b < r->neng; b++, pairno++)
        for (int k = 0; k < r->games_per; k++, gi++) {
          r->g[gi].white = k == 0 ? a : b;
          r->g[gi].black = k == 0 ? b : a;
          r->g[gi].pair = pairno;
        }
  char jpath[1024];
  if (!r->journal && r->pgnout) {
    snprintf(jpath, sizeof jpath, "%s.journal", r->pgnout);
    r->journal = jpath;
  }
  if (resume && !r->journal)
    return fprintf(stderr, "arbiter match: --resume needs -pgnout or -journal\n"), 2;
  if (r->journal) { /* no -pgnout and no -journal: nothing is written */
    if (resume) {
      int n = journal_load(r);
      r->finished = n;
      fprintf(stdout, "Resuming: %d finished games from %s\n", n, r->journal);
    } else {
      remove(r->journal);
    }
    r->journal_f = fopen(r->journal, "a");
    if (!r->journal_f) {
      fprintf(stderr, "arbiter match: %s: %s\n", r->journal, strerror(errno));
      return 2;
    }
  }
  pthread_mutex_init(&r->mu, NULL);
  int nt = r->concurrency;
  pthread_t th[64];
  worker wk[64];
  if (nt > 64) nt = 64;
  for (int i = 0; i < nt; i++) {
    wk[i] = (worker){r, i};
    pthread_create(&th[i], NULL, work, &wk[i]);
  }
  for (int i = 0; i < nt; i++)
    pthread_join(th[i], NULL);
  if (r->journal_f) fclose(r->journal_f);
  int done = 0;
  if (r->pgnout) { /* in game order, whatever the concurrency */
    FILE *f = fopen(r->pgnout, "w");
    if (!f) {
      fprintf(stderr, "arbiter match: %s: %s\n", r->pgnout, strerror(errno));
      return 2;
    }
    for (int i = 0; i < r->total; i++)
      if (r->g[i].done && r->g[i].pgn) fputs(r->g[i].pgn, f);
    fclose(f);
  }
  for (int i = 0; i < r->total; i++)
    done += r->g[i].done;
  if (r->out == MATCH_OUT_ARBITER) {
    fprintf(stdout, "Finished match: %d of %d games\n", done, r->total);
    report(r, stdout);
  } else { /* fastchess's main.cpp */
    int64_t secs = (arb_tool_now_ms() - t_start) / 1000;
    fprintf(stdout, "Finished match\nTotal Time: %02lld:%02lld:%02lld (hours:minutes:seconds)\n\n",
            (long long)(secs / 3600), (long long)(secs / 60 % 60), (long long)(secs % 60));
  }
  int status = done == r->total || r->stopped ? 0 : 1;
  for (int i = 0; i < r->total; i++)
    free(r->g[i].pgn);
  for (int k = 0; k < r->neng; k++) {
    free(r->eng[k].args_copy);
    for (size_t j = 0; j < r->eng[k].nopts; j++)
      free(r->eng[k].opt_names[j]);
  }
  free(each.args_copy);
  for (size_t j = 0; j < each.nopts; j++)
    free(each.opt_names[j]);
  pthread_mutex_destroy(&r->mu);
  free(r->g);
  free(r->openings);
  return status;
}

int arb_cmd_match(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  run *r = calloc(1, sizeof *r);
  if (!r) return fprintf(stderr, "arbiter match: out of memory\n"), 1;
  int status = match_run(r, argc, argv);
  free(r);
  return status;
}
