/* Arbiter — MIT licence, see LICENSE.
 *
 * puzzles_cmd.c: `arbiter puzzles mine|check` — puzzles from real games, proven by the solver,
 * in lichess's puzzle CSV; and the proof of a CSV's puzzles (lichess's own too) for a second
 * solution or none.  The proofs are the library's (arb_solve, arb_puzzle_check_record); this
 * file reads the games, picks the positions worth asking about and names the themes.
 *
 * What is mined, per position of a game's main line after the opponent's move (the FEN is the
 * one before that move, as lichess's is):
 *   mate, mateIn1..mateIn4  the side to move mates by force, one key at each move (mate in one:
 *                           any mate counts, as lichess accepts any); mates in 3 and 4 are
 *                           looked for near a game's own mate, mates in 1 and 2 everywhere;
 *   stalemateTrap           a natural move (a queen promotion or a capture, or the move the game
 *                           played) stalemates, and the proven mate avoids it;
 *   stalemateRescue         the side to move, five points or more down, forces a stalemate or a
 *                           dead position (proven, one key);
 *   underPromotion          a solver move of the proven line promotes to a knight, bishop or rook;
 *   enPassant, castling     a solver move of the line is one;
 * and lichess's length (oneMove, short, long, veryLong) and phase (opening, middlegame, endgame).
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uci.h"
#include "util.h"

static void puzzles_usage(FILE *out) {
  fprintf(out,
          "usage: arbiter puzzles mine FILE.pgn... [-j N] [--budget NODES] [--engine PATH\n"
          "                            [--depth D]] -o FILE.csv\n"
          "       arbiter puzzles check FILE.csv [-j N] [--budget NODES] [--json]\n"
          "\n"
          "mine: reads the games' main lines and writes the puzzles found in them, each proven\n"
          "by the exact solver, as lichess's puzzle CSV:\n"
          "  %s\n"
          "(the FEN before the opponent's move; Moves in UCI, the opponent's move first).\n"
          "Themes: mate mateIn1..mateIn4 (one key at every solver move; in a mate in one any\n"
          "mate is accepted), stalemateTrap (a queen promotion, a capture or the game's own move\n"
          "stalemates; the mate avoids it), stalemateRescue (five points down, a forced\n"
          "stalemate or dead position), underPromotion, enPassant, castling, and lichess's\n"
          "lengths (oneMove, short, long, veryLong) and phases.  Rating is an estimate from the\n"
          "length and the kind of key (RatingDeviation 500, nobody has played it yet).\n"
          "A progress line goes to stderr on a terminal; the counts per theme at the end.\n"
          "\n"
          "check: re-proves every puzzle of a CSV whose line ends in mate or in a draw (lichess's\n"
          "own file reads as it is): each solver move must be the only one forcing it within\n"
          "the moves left (on the last move any mate counts).  Prints the puzzles with a second\n"
          "solution, with none, or that do not read, and a summary; --json: one JSON line per\n"
          "puzzle instead.  Puzzles judged by an engine (advantage, crushing) are counted as\n"
          "unchecked: nothing there is provable.\n"
          "  -j N            threads\n"
          "  --engine PATH   a UCI engine (e.g. /usr/games/stockfish) to judge underpromotions\n"
          "                  no mate proves: mine writes one when the engine's move is a\n"
          "                  promotion to a knight, bishop or rook worth +3 or more and the\n"
          "                  queen promotion at most +0.5, themed underPromotion with lichess's\n"
          "                  advantage (+3) or crushing (+6): engine-judged, so check leaves it\n"
          "                  unchecked\n"
          "  --depth D       the engine's search depth (default 16)\n"
          "  --budget NODES  solver nodes per position (default: mine 2000000, check %u)\n"
          "Exit status: 0; 1 when check finds a puzzle with a second solution, none, or that\n"
          "does not read; 2 bad usage.\n",
          arb_puzzle_csv_header(), ARB_SOLVE_DEFAULT_BUDGET);
}

/* ---- one game ---- */

#define MAX_PLIES 1024

typedef struct game {
  long number;
  char site[128], opening[128];
  arb_position start;
  arb_move moves[MAX_PLIES];
  int plies;
  int ends_in_mate;
  char *csv; /* the puzzles found (lines), malloc'd */
  size_t csv_len;
  int counts[16];
} game;

enum { T_MATE1, T_MATE2, T_MATE3, T_MATE4, T_TRAP, T_RESCUE, T_UNDER, T_EP, T_CASTLE, T_COUNT };
static const char *const theme_names[T_COUNT] = {
    "mateIn1",         "mateIn2",        "mateIn3",   "mateIn4", "stalemateTrap",
    "stalemateRescue", "underPromotion", "enPassant", "castling"};

/* Moves of p's side that stalemate the opponent at once: a "natural" one (a queen promotion,
 * a capture, or `played`)?  Fills *natural. */
static int stalemates(arb_position *p, arb_move played, int *natural) {
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(p, moves), any = 0;
  *natural = 0;
  for (int i = 0; i < n; i++) {
    unsigned info = arb_move_info(p, moves[i]);
    arb_undo u;
    arb_make_move(p, moves[i], &u);
    int st = !arb_in_check(p) && !arb_has_legal_move(p);
    arb_unmake_move(p, moves[i], &u);
    if (!st) continue;
    any = 1;
    int queen =
        ARB_MOVE_KIND(moves[i]) == ARB_MOVE_PROMOTION && ARB_MOVE_PROMO(moves[i]) == ARB_QUEEN;
    if (queen || (info & ARB_MOVE_IS_CAPTURE) || moves[i] == played) *natural = 1;
  }
  return any;
}

static void puzzle_id(const char *fen, const arb_puzzle *p, char out[8]) {
  uint64_t h = 1469598103934665603u;
  for (const char *c = fen; *c; c++)
    h = (h ^ (unsigned char)*c) * 1099511628211u;
  for (int i = 0; i < p->nmoves; i++)
    for (const char *c = p->moves[i]; *c; c++)
      h = (h ^ (unsigned char)*c) * 1099511628211u;
  static const char a[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  for (int i = 0; i < 6; i++, h /= 62)
    out[i] = a[h % 62];
  out[6] = 0;
}

/* lichess's OpeningTags from an Opening tag: "Italian Game: Classical Variation" ->
 * "Italian_Game Italian_Game_Classical_Variation". */
static void opening_tags(const char *opening, char *out, size_t size) {
  char family[128] = "", full[160] = "";
  size_t f = 0, u = 0;
  int in_family = 1;
  for (const char *c = opening; *c && u + 2 < sizeof full; c++) {
    if (*c == ':') {
      in_family = 0;
      continue;
    }
    if (*c == ',' || *c == '\'' || *c == '.') continue;
    char ch = *c == ' ' ? '_' : *c;
    if (ch == '_' && (!u || full[u - 1] == '_')) continue;
    full[u++] = ch;
    if (in_family && f + 2 < sizeof family) family[f++] = ch;
  }
  full[u] = 0;
  while (f && family[f - 1] == '_')
    family[--f] = 0;
  family[f] = 0;
  if (!family[0]) {
    out[0] = 0;
    return;
  }
  /* "family full", or "family" alone; a tag longer than the field is cut */
  size_t lf = strlen(family);
  if (lf >= size) lf = size - 1;
  memcpy(out, family, lf);
  out[lf] = 0;
  if (strcmp(family, full) && lf + 2 < size) {
    size_t lu = strlen(full);
    if (lu > size - lf - 2) lu = size - lf - 2;
    out[lf] = ' ';
    memcpy(out + lf + 1, full, lu);
    out[lf + 1 + lu] = 0;
  }
}

/* The puzzle from the opponent's move `m0` at `before` and the solver's proven line, written
 * if it checks out.  Returns the line's solver moves (0: not taken). */
static int take(arb_solver *s, game *g, const arb_position *before, arb_move m0,
                const arb_solve_result *r, int ply, int extra_themes, uint64_t budget,
                int engine_cp) {
  arb_puzzle p;
  memset(&p, 0, sizeof p);
  arb_fen_write(before, p.fen, sizeof p.fen, 0);
  arb_position q = *before;
  arb_uci_write(&q, m0, p.moves[0], sizeof p.moves[0]);
  arb_undo u;
  arb_make_move(&q, m0, &u);
  p.nmoves = 1;
  int solver = q.turn, themes = extra_themes;
  for (int i = 0; i < r->line_len && p.nmoves < ARB_PUZZLE_MAX_MOVES; i++) {
    arb_move m = r->line[i];
    if (q.turn == solver) {
      if (ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION && ARB_MOVE_PROMO(m) != ARB_QUEEN)
        themes |= 1 << T_UNDER;
      if (ARB_MOVE_KIND(m) == ARB_MOVE_EN_PASSANT) themes |= 1 << T_EP;
      if (ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING) themes |= 1 << T_CASTLE;
    }
    arb_uci_write(&q, m, p.moves[p.nmoves++], sizeof p.moves[0]);
    arb_make_move(&q, m, &u);
  }
  arb_puzzle_check c;
  memset(&c, 0, sizeof c);
  if (engine_cp) { /* judged by the engine: nothing to prove, a one-move puzzle */
    c.length = 1;
    c.goal = (arb_solve_goal)-1;
  } else if (arb_puzzle_check_record(s, &p, budget, &c) != ARB_OK || c.verdict != ARB_PUZZLE_OK) {
    return 0;
  }
  int k = c.length;
  if (extra_themes & (1 << T_RESCUE)) {
    if (c.goal == ARB_SOLVE_MATE) {
      themes &= ~(1 << T_RESCUE); /* the side behind mates: a mate puzzle, not a rescue */
    } else if (k == 1 && arb_has_legal_move(&q)) {
      return 0; /* one capture into a dead position: too plain to be a puzzle */
    }
  }
  char theme[256] = "";
  if (engine_cp) {
    /* lichess's words for an engine's judgement: crushing from +6, advantage from +3 */
    snprintf(theme, sizeof theme, "%s", engine_cp >= 600 ? "crushing" : "advantage");
  } else if (c.goal == ARB_SOLVE_MATE) {
    snprintf(theme, sizeof theme, "mate mateIn%d", k);
    themes |= 1 << (T_MATE1 + (k < 4 ? k - 1 : 3));
  } else {
    snprintf(theme, sizeof theme, "equality");
  }
  for (int t = T_TRAP; t < T_COUNT; t++)
    if (themes & (1 << t)) {
      strcat(theme, " ");
      strcat(theme, theme_names[t]);
    }
  strcat(theme, k == 1 ? " oneMove" : k == 2 ? " short" : k == 3 ? " long" : " veryLong");
  /* the phase: lichess's rough cut — few pieces left is an endgame, the first moves an opening */
  int pieces = __builtin_popcountll(before->by_type[0] & ~before->by_type[ARB_PAWN] &
                                    ~before->by_type[ARB_KING]);
  strcat(theme, pieces <= 6                    ? " endgame"
                : before->fullmove_number < 15 ? " opening"
                                               : " middlegame");
  snprintf(p.themes, sizeof p.themes, "%s", theme);
  /* a first rating: longer lines and quiet keys are harder; traps and rescues harder still */
  arb_position s0 = *before;
  arb_make_move(&s0, m0, &u);
  unsigned info = arb_move_info(&s0, r->line[0]);
  p.rating = 800 + 350 * k + ((info & (ARB_MOVE_IS_CAPTURE | ARB_MOVE_GIVES_CHECK)) ? 0 : 250) +
             ((themes & ((1 << T_TRAP) | (1 << T_RESCUE) | (1 << T_UNDER))) ? 200 : 0);
  p.rating_deviation = 500;
  if (g->site[0])
    snprintf(p.game_url, sizeof p.game_url, "%s%s#%d", g->site, solver == ARB_BLACK ? "/black" : "",
             ply);
  if (before->fullmove_number < 20 && g->opening[0])
    opening_tags(g->opening, p.openings, sizeof p.openings);
  char id[8];
  puzzle_id(p.fen, &p, id);
  snprintf(p.id, sizeof p.id, "%s", id);
  char line[2048];
  int n = arb_puzzle_csv_write(&p, line, sizeof line);
  if (n <= 0 || n >= (int)sizeof line) return 0;
  char *csv = realloc(g->csv, g->csv_len + (size_t)n + 2);
  if (!csv) return 0;
  g->csv = csv;
  memcpy(g->csv + g->csv_len, line, (size_t)n);
  g->csv_len += (size_t)n;
  g->csv[g->csv_len++] = '\n';
  g->csv[g->csv_len] = 0;
  for (int t = 0; t < T_COUNT; t++)
    if (themes & (1 << t)) g->counts[t]++;
  return k;
}

/* The engine's score of p for the side to move, centipawns (a mate as +-100000). */
static int engine_cp(uci_engine *e, const arb_position *p, int depth, arb_move *best) {
  uci_limits lim;
  memset(&lim, 0, sizeof lim);
  lim.depth = depth;
  lim.deadline_ms = 30000;
  uci_result res;
  memset(&res, 0, sizeof res);
  if (uci_go(e, p, NULL, 0, p->chess960, &lim, &res) != UCI_OK || !res.has_score) return INT_MIN;
  if (best) *best = res.move;
  return res.mate ? (res.score > 0 ? 100000 : -100000) : res.score;
}

/* An underpromotion the engine judges the only win (it is the engine's move, worth at least
 * +3, and the queen promotion on the same square at most +0.5): ARB_MOVE_NONE, or the move
 * with *cp its score. */
static arb_move underpromotion(uci_engine *e, int depth, const arb_position *q, int *cp) {
  arb_move ms[ARB_MAX_MOVES], best = ARB_MOVE_NONE;
  int n = arb_generate_legal(q, ms), any = 0;
  for (int i = 0; i < n && !any; i++)
    any = ARB_MOVE_KIND(ms[i]) == ARB_MOVE_PROMOTION && ARB_MOVE_PROMO(ms[i]) != ARB_QUEEN;
  if (!any) return ARB_MOVE_NONE;
  int score = engine_cp(e, q, depth, &best);
  if (score < 300 || best == ARB_MOVE_NONE || ARB_MOVE_KIND(best) != ARB_MOVE_PROMOTION ||
      ARB_MOVE_PROMO(best) == ARB_QUEEN)
    return ARB_MOVE_NONE;
  arb_move queen =
      ARB_MOVE_MAKE_SPECIAL(ARB_MOVE_FROM(best), ARB_MOVE_TO(best), ARB_MOVE_PROMOTION, ARB_QUEEN);
  arb_position after = *q;
  arb_undo u;
  arb_make_move(&after, queen, &u);
  if (arb_is_checkmate(&after) || arb_is_stalemate(&after)) {
    if (arb_is_checkmate(&after)) return ARB_MOVE_NONE; /* the queen mates too */
  } else {
    int qs = engine_cp(e, &after, depth, NULL);
    if (qs == INT_MIN || -qs > 50) return ARB_MOVE_NONE;
  }
  *cp = score;
  return best;
}

static void mine_game(arb_solver *s, game *g, uint64_t budget, arb_solve_result *r, uci_engine *e,
                      int depth) {
  static const arb_position zero;
  (void)zero;
  arb_position before = g->start;
  int skip_until = 0;
  for (int i = 0; i < g->plies; i++) {
    arb_position q = before;
    arb_undo u;
    arb_make_move(&q, g->moves[i], &u);
    int ply = i + 1; /* the opponent's move is ply `ply`; the solver moves next */
    if (ply > skip_until && arb_has_legal_move(&q) && !arb_is_dead_position(&q)) {
      int near_end = g->ends_in_mate && ply >= g->plies - 8;
      int took = 0;
      /* a stalemate trap: a natural move stalemates; the mate must avoid it */
      int natural = 0;
      arb_move played = i + 1 < g->plies ? g->moves[i + 1] : ARB_MOVE_NONE;
      int traps = stalemates(&q, played, &natural) && natural;
      int n = near_end || traps ? 4 : 2;
      if (arb_solve(s, &q, ARB_SOLVE_MATE, n, near_end || traps ? budget : budget / 10, r) ==
              ARB_OK &&
          r->verdict == ARB_SOLVE_FOUND)
        took = take(s, g, &before, g->moves[i], r, ply, traps ? 1 << T_TRAP : 0, budget, 0);
      /* a rescue: far behind, the side to move forces a draw */
      if (!took &&
          arb_material(&q, (arb_color)(q.turn)) - arb_material(&q, (arb_color)(q.turn ^ 1)) <= -5 &&
          arb_solve(s, &q, ARB_SOLVE_DRAW, 3, budget / 4, r) == ARB_OK &&
          r->verdict == ARB_SOLVE_FOUND)
        took = take(s, g, &before, g->moves[i], r, ply, 1 << T_RESCUE, budget, 0);
      /* an underpromotion only an engine can judge (no mate proves it) */
      int cp = 0;
      arb_move under = !took && e ? underpromotion(e, depth, &q, &cp) : ARB_MOVE_NONE;
      if (under != ARB_MOVE_NONE) {
        r->line_len = 1;
        r->line[0] = under;
        took = take(s, g, &before, g->moves[i], r, ply, 1 << T_UNDER, budget, cp);
      }
      if (took) skip_until = ply + 2 * took; /* the same line, later, is not another puzzle */
    }
    before = q;
  }
}

/* ---- reading the games (one thread) and mining them (N) ---- */

typedef struct miner {
  game **games;
  size_t n, cap, next, done_upto;
  int reading_done;
  pthread_mutex_t mu;
  pthread_cond_t work, done;
  uint64_t budget;
  const char *engine; /* --engine: judges underpromotions (NULL: none) */
  int depth;
  game *cur;
  long number;
  FILE *out;
  int counts[T_COUNT];
  long puzzles, games_read;
  int progress;
} miner;

static int v_begin(void *ctx, uint64_t n, uint64_t line) {
  miner *m = ctx;
  (void)line;
  m->cur = calloc(1, sizeof *m->cur);
  if (m->cur) m->cur->number = (long)n;
  return 0;
}

static int v_tag(void *ctx, const char *name, size_t nl, const char *value, size_t vl) {
  miner *m = ctx;
  (void)nl;
  (void)vl;
  if (!m->cur) return 0;
  if (!strcmp(name, "Site") && !strncmp(value, "http", 4))
    snprintf(m->cur->site, sizeof m->cur->site, "%s", value);
  if (!strcmp(name, "Opening")) snprintf(m->cur->opening, sizeof m->cur->opening, "%s", value);
  return 0;
}

static int v_moves(void *ctx, const arb_position *start) {
  miner *m = ctx;
  if (m->cur) m->cur->start = *start;
  return 0;
}

static int v_move(void *ctx, const arb_pgn_move *mv) {
  miner *m = ctx;
  if (!m->cur || mv->depth || m->cur->plies >= MAX_PLIES || mv->move == ARB_MOVE_NULL) return 0;
  m->cur->moves[m->cur->plies++] = mv->move;
  return 0;
}

static void v_end(void *ctx, const arb_pgn_game_end *end) {
  miner *m = ctx;
  game *g = m->cur;
  m->cur = NULL;
  if (!g) return;
  if (end->skipped || end->errors || g->plies == 0 || end->chess960) {
    free(g);
    return;
  }
  g->ends_in_mate = end->final_outcome.termination == ARB_TERM_CHECKMATE;
  pthread_mutex_lock(&m->mu);
  if (m->n == m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 1024;
    game **ng = realloc(m->games, cap * sizeof *ng);
    if (!ng) {
      pthread_mutex_unlock(&m->mu);
      free(g);
      return;
    }
    m->games = ng;
    m->cap = cap;
  }
  m->games[m->n++] = g;
  m->games_read++;
  pthread_cond_signal(&m->work);
  pthread_mutex_unlock(&m->mu);
}

static void *mine_worker(void *arg) {
  miner *m = arg;
  arb_solver *s = arb_solver_new(0);
  arb_solve_result *r = malloc(sizeof *r);
  uci_engine *e = NULL;
  if (m->engine) {
    uci_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.cmd = m->engine;
    char err[160];
    if (!(e = uci_start(&cfg, err, sizeof err)))
      fprintf(stderr, "arbiter puzzles: the engine %s: %s (no engine-judged puzzles)\n", m->engine,
              err);
    else
      uci_new_game(e, 0, err, sizeof err);
  }
  for (;;) {
    pthread_mutex_lock(&m->mu);
    while (m->next >= m->n && !m->reading_done)
      pthread_cond_wait(&m->work, &m->mu);
    if (m->next >= m->n) {
      pthread_mutex_unlock(&m->mu);
      break;
    }
    game *g = m->games[m->next++];
    pthread_mutex_unlock(&m->mu);
    if (s && r) mine_game(s, g, m->budget, r, e, m->depth);
    pthread_mutex_lock(&m->mu);
    g->plies = -1; /* mined */
    pthread_cond_broadcast(&m->done);
    pthread_mutex_unlock(&m->mu);
  }
  if (e) uci_quit(e);
  free(r);
  arb_solver_free(s);
  return NULL;
}

/* Writes the mined games in their order as far as they are done (all: wait for every one). */
static void flush_mined(miner *m, int all) {
  pthread_mutex_lock(&m->mu);
  for (;;) {
    while (m->done_upto < m->n && m->games[m->done_upto]->plies == -1) {
      game *g = m->games[m->done_upto];
      if (g->csv) fwrite(g->csv, 1, g->csv_len, m->out);
      for (int t = 0; t < T_COUNT; t++) {
        m->counts[t] += g->counts[t];
        if (t <= T_MATE4 || t == T_RESCUE) m->puzzles += g->counts[t];
      }
      free(g->csv);
      free(g);
      m->games[m->done_upto++] = NULL;
    }
    if (m->progress)
      fprintf(stderr, "\rarbiter puzzles: %ld games read, %zu mined, %ld puzzles   ", m->games_read,
              m->done_upto, m->puzzles);
    if (!all || (m->reading_done && m->done_upto == m->n)) break;
    pthread_cond_wait(&m->done, &m->mu);
  }
  pthread_mutex_unlock(&m->mu);
}

static int cmd_mine(int argc, char **argv) {
  const char *out_path = NULL;
  int threads = 1;
  uint64_t budget = 2000000;
  const char *files[256], *engine = NULL;
  int nfiles = 0, depth = 16;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-o") && i + 1 < argc) {
      out_path = argv[++i];
    } else if (!strcmp(a, "-j") && i + 1 < argc) {
      threads = atoi(argv[++i]);
      if (threads < 1 || threads > 64) {
        fprintf(stderr, "arbiter puzzles: -j takes 1 to 64\n");
        return 2;
      }
    } else if (!strcmp(a, "--budget") && i + 1 < argc) {
      char *end;
      budget = strtoull(argv[++i], &end, 10);
      if (*end || budget < 1000) {
        fprintf(stderr, "arbiter puzzles: --budget wants at least 1000 nodes\n");
        return 2;
      }
    } else if (!strcmp(a, "--engine") && i + 1 < argc) {
      engine = argv[++i];
    } else if (!strcmp(a, "--depth") && i + 1 < argc) {
      depth = atoi(argv[++i]);
      if (depth < 1 || depth > 60) {
        fprintf(stderr, "arbiter puzzles: --depth takes 1 to 60\n");
        return 2;
      }
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "arbiter puzzles: unexpected option '%s'\n", a);
      return 2;
    } else if (nfiles < 256) {
      files[nfiles++] = a;
    }
  }
  if (!nfiles || !out_path) {
    fprintf(stderr, "arbiter puzzles mine: name the PGN files and -o FILE.csv\n");
    puzzles_usage(stderr);
    return 2;
  }
  FILE *out = strcmp(out_path, "-") ? fopen(out_path, "w") : stdout;
  if (!out) {
    fprintf(stderr, "arbiter puzzles: %s: cannot open for writing\n", out_path);
    return 2;
  }
  miner m;
  memset(&m, 0, sizeof m);
  pthread_mutex_init(&m.mu, NULL);
  pthread_cond_init(&m.work, NULL);
  pthread_cond_init(&m.done, NULL);
  m.budget = budget;
  m.engine = engine;
  m.depth = depth;
  m.out = out;
  m.progress = isatty(2);
  fprintf(out, "%s\n", arb_puzzle_csv_header());
  pthread_t t[64];
  for (int i = 0; i < threads; i++)
    pthread_create(&t[i], NULL, mine_worker, &m);
  arb_pgn_visitor v = {&m, v_begin, v_tag, v_moves, v_move, NULL, NULL, NULL, NULL, v_end, NULL};
  arb_pgn_options opts = {ARB_PGN_NO_VARIATIONS, ARB_RULES_FIDE, 0, 0};
  int rc = 0;
  for (int f = 0; f < nfiles; f++) {
    FILE *in = fopen(files[f], "rb");
    if (!in) {
      fprintf(stderr, "arbiter puzzles: %s: cannot open\n", files[f]);
      rc = 2;
      continue;
    }
    arb_pgn_reader *rd = arb_pgn_reader_new(&opts, &v);
    char buf[1 << 16];
    size_t n;
    while (rd && (n = fread(buf, 1, sizeof buf, in)) > 0) {
      arb_pgn_reader_feed(rd, buf, n);
      flush_mined(&m, 0);
    }
    if (rd) arb_pgn_reader_finish(rd);
    arb_pgn_reader_free(rd);
    fclose(in);
  }
  pthread_mutex_lock(&m.mu);
  m.reading_done = 1;
  pthread_cond_broadcast(&m.work);
  pthread_mutex_unlock(&m.mu);
  flush_mined(&m, 1);
  for (int i = 0; i < threads; i++)
    pthread_join(t[i], NULL);
  if (m.progress) fprintf(stderr, "\n");
  fprintf(stderr, "arbiter puzzles: %ld games, %ld puzzles:", m.games_read, m.puzzles);
  for (int i = 0; i < T_COUNT; i++)
    fprintf(stderr, " %s %d%s", theme_names[i], m.counts[i], i + 1 < T_COUNT ? "," : "\n");
  if (out != stdout && fclose(out)) rc = 1;
  free(m.games);
  return rc;
}

/* ---- check ---- */

typedef struct check_ctx {
  uint64_t budget;
  int json;
  arb_solver *solver;
  long counts[6];
} check_ctx;

static char *check_line(void *ctx, const char *line, size_t len, long lineno, int too_long) {
  check_ctx *c = ctx;
  arb_puzzle p;
  char err[200];
  arb_puzzle_check r;
  memset(&r, 0, sizeof r);
  if (too_long || arb_puzzle_csv_read(line, len, &p, err, sizeof err) != ARB_OK) {
    if (!too_long && !strcmp(err, "the header")) return strdup("");
    r.verdict = ARB_PUZZLE_BAD;
    snprintf(r.message, sizeof r.message, "line %ld: %.120s", lineno, too_long ? "too long" : err);
    p.id[0] = 0;
  } else {
    arb_puzzle_check_record(c->solver, &p, c->budget, &r);
  }
  c->counts[r.verdict]++;
  json_t *a = json_object();
  json_object_set_new(a, "line", json_integer(lineno));
  json_object_set_new(a, "id", json_string(p.id));
  json_object_set_new(a, "verdict", json_string(arb_puzzle_verdict_name(r.verdict)));
  if (r.verdict != ARB_PUZZLE_BAD && r.verdict != ARB_PUZZLE_UNCHECKED) {
    json_object_set_new(a, "goal", json_string(arb_solve_goal_name(r.goal)));
    json_object_set_new(a, "length", json_integer(r.length));
  }
  if (r.verdict == ARB_PUZZLE_SECOND || r.verdict == ARB_PUZZLE_NO_SOLUTION ||
      r.verdict == ARB_PUZZLE_BAD)
    json_object_set_new(a, "ply", json_integer(r.ply));
  if (r.verdict == ARB_PUZZLE_SECOND) json_object_set_new(a, "other", json_string(r.other));
  if (r.verdict == ARB_PUZZLE_OK && r.last_alternatives)
    json_object_set_new(a, "last_alternatives", json_integer(r.last_alternatives));
  if (r.message[0]) json_object_set_new(a, "message", json_string(r.message));
  char *text;
  if (c->json) {
    text = json_dumps(a, JSON_COMPACT);
  } else if (r.verdict == ARB_PUZZLE_SECOND || r.verdict == ARB_PUZZLE_NO_SOLUTION ||
             r.verdict == ARB_PUZZLE_BAD || r.verdict == ARB_PUZZLE_UNKNOWN) {
    size_t n = strlen(r.message) + 64;
    text = malloc(n);
    if (text)
      snprintf(text, n, "%s: %s: %s", p.id[0] ? p.id : "-", arb_puzzle_verdict_name(r.verdict),
               r.message);
  } else {
    text = strdup("");
  }
  json_decref(a);
  return text;
}

static int cmd_check(int argc, char **argv) {
  check_ctx c;
  memset(&c, 0, sizeof c);
  const char *file = NULL;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--json")) {
      c.json = 1;
    } else if (!strcmp(argv[i], "--budget") && i + 1 < argc) {
      c.budget = strtoull(argv[++i], NULL, 10);
    } else if (!strcmp(argv[i], "-j") && i + 1 < argc) {
      i++; /* accepted; one thread reads and proves here */
    } else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "arbiter puzzles: unexpected option '%s'\n", argv[i]);
      return 2;
    } else {
      file = argv[i];
    }
  }
  if (!file) {
    fprintf(stderr, "arbiter puzzles check: name the CSV file ('-': standard input)\n");
    return 2;
  }
  if (strcmp(file, "-") && !freopen(file, "r", stdin)) {
    fprintf(stderr, "arbiter puzzles: %s: cannot open\n", file);
    return 2;
  }
  if (!(c.solver = arb_solver_new(0))) return 1;
  arb_tool_answer_lines(4096, 0, check_line, &c);
  arb_solver_free(c.solver);
  long total = 0;
  for (int i = 0; i < 6; i++)
    total += c.counts[i];
  fprintf(c.json ? stderr : stdout,
          "%ld puzzles: %ld ok, %ld with a second solution, %ld with none, %ld unchecked (not "
          "ending in mate or a draw), %ld unknown (budget), %ld that do not read\n",
          total, c.counts[ARB_PUZZLE_OK], c.counts[ARB_PUZZLE_SECOND],
          c.counts[ARB_PUZZLE_NO_SOLUTION], c.counts[ARB_PUZZLE_UNCHECKED],
          c.counts[ARB_PUZZLE_UNKNOWN], c.counts[ARB_PUZZLE_BAD]);
  return c.counts[ARB_PUZZLE_SECOND] || c.counts[ARB_PUZZLE_NO_SOLUTION] ||
         c.counts[ARB_PUZZLE_BAD];
}

int arb_cmd_puzzles(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    puzzles_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (!strcmp(argv[1], "mine")) return cmd_mine(argc, argv);
  if (!strcmp(argv[1], "check")) return cmd_check(argc, argv);
  fprintf(stderr, "arbiter puzzles: the commands are mine and check, not '%s'\n", argv[1]);
  return 2;
}
