/* Arbiter — MIT licence, see LICENSE.
 *
 * train_cmd.c: `arbiter train` — the trainer in a terminal, on the library's model (train.h:
 * Glicko-2 as lichess rates puzzles, the Leitner review, lichess's choice of the next item) and
 * its judgement of a move (arb_puzzle_move_right, arb_puzzle_why_wrong, explain.h), as the
 * page's server uses them.  The board is drawn by the library (diagram.h); moves are SAN or
 * UCI.  Progress is kept in a SQLite file ($XDG_DATA_HOME/arbiter/train.db by default).
 *
 *   arbiter train puzzles [--theme T] [--mode normal|winordraw|review] [--difficulty D]
 *   arbiter train quiz [--topic T] [--mode normal|review]
 *   arbiter train --stats
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "audit_json.h"
#include "util.h"

#ifndef ARB_WEB_DIR
#define ARB_WEB_DIR "/usr/local/share/arbiter/web"
#endif

enum { PUZZLE = 0, QUIZ = 1 };

static void train_usage(FILE *out) {
  fprintf(out,
          "usage: arbiter train puzzles [OPTIONS]\n"
          "       arbiter train quiz [OPTIONS]\n"
          "       arbiter train diagnostic [--puzzles FILE] [--quiz FILE] [--seed S]\n"
          "       arbiter train review FILE.pgn... [--json] [--ascii]\n"
          "       arbiter train --stats [--db FILE]\n"
          "The trainer in the terminal: puzzles solved move by move (SAN or UCI), the rules\n"
          "quiz, each answer checked by the laws and explained; ratings (Glicko-2, as lichess\n"
          "rates puzzles) and a review of what was missed (again after 1, 3, 7, 14, 30 days)\n"
          "kept in a SQLite file.  While solving: 'hint', 'solution', 'skip', 'quit'.\n"
          "  --theme T       puzzles of one theme (mateIn2, stalemateTrap, underPromotion, ...)\n"
          "  --topic T       quiz items of one topic (castling, en-passant, threefold, ...)\n"
          "  --mode M        normal, winordraw (puzzles: the goal not said) or review (what\n"
          "                  is due again)\n"
          "  --difficulty D  easiest, easier, normal, harder, hardest (puzzles)\n"
          "  --count N       stop after N items (default: until 'quit' or the end of input)\n"
          "  --puzzles FILE  puzzles in lichess's CSV (default data/puzzles/starter.csv, or\n"
          "                  the installed set)\n"
          "  --quiz FILE     the quiz bank, JSON lines (default data/quiz/bank.jsonl, or\n"
          "                  installed)\n"
          "  --db FILE       the progress file (default $XDG_DATA_HOME/arbiter/train.db,\n"
          "                  else ~/.local/share/arbiter/train.db)\n"
          "  --seed S        the order among equally suitable items (default: the time)\n"
          "  --ascii         draw the board in ASCII letters instead of chess symbols\n"
          "  --stats         print the ratings, the figures per theme and topic, and what is\n"
          "                  due, then exit\n"
          "diagnostic: about 20 to 30 questions over the rules (the quiz), tactics (a puzzle's\n"
          "first move) and endgames (king and queen or rook mated against the best defence,\n"
          "king and pawn won or drawn), each chosen by the answers so far (item response\n"
          "theory), then a report: the level and its uncertainty per area, what was missed,\n"
          "what to train next.\n"
          "review: the rule mistakes of played games, under the FIDE Laws: a threefold or\n"
          "50-move draw that could have been claimed before the game was lost, a stalemate given\n"
          "away from a won position (by a queen promotion where another piece would not\n"
          "stalemate), a forced stalemate or dead position the loser missed (proven by the\n"
          "solver), a loss on time or a resignation when the opponent could not mate, play that\n"
          "went on after the game had ended by the laws; each on the board, with its article.\n"
          "  --json          one JSON line per game with its findings\n"
          "Exit status: 0, 1 when a file cannot be read, 2 for bad usage.\n");
}

typedef struct train_opts {
  const char *theme, *topic, *mode, *difficulty, *puzzles, *quiz, *db;
  long count;
  uint64_t seed;
  int ascii, stats;
} train_opts;

/* ---- files ---- */

static const char *data_file(const char *given, const char *rel, char *buf, size_t size) {
  if (given) return given;
  const char *f = arb_tool_data_file(rel, buf, size);
  return f ? f : buf;
}

static const char *db_path(const char *given, char *buf, size_t size) {
  if (given) return given;
  const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
  if (xdg && xdg[0] == '/')
    snprintf(buf, size, "%s/arbiter/train.db", xdg);
  else
    snprintf(buf, size, "%s/.local/share/arbiter/train.db", home ? home : ".");
  return buf;
}

/* ---- progress: SQLite ---- */

typedef struct progress {
  sqlite3 *db;
  arb_glicko g[2];
} progress;

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int progress_open(progress *pr, const char *path) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash && slash != dir) {
    *slash = 0;
    arb_tool_make_dirs(dir);
  }
  if (sqlite3_open(path, &pr->db) != SQLITE_OK) {
    fprintf(stderr, "arbiter train: cannot open the progress file %s: %s\n", path,
            sqlite3_errmsg(pr->db));
    sqlite3_close(pr->db);
    return -1;
  }
  sqlite3_busy_timeout(pr->db, 2000);
  char *err = NULL;
  if (sqlite3_exec(pr->db,
                   "PRAGMA journal_mode=WAL;"
                   "CREATE TABLE IF NOT EXISTS rating(kind INTEGER PRIMARY KEY, rating REAL, rd "
                   "REAL, volatility REAL);"
                   "CREATE TABLE IF NOT EXISTS attempt(kind INTEGER, item TEXT, right INTEGER, "
                   "rated INTEGER, t INTEGER, themes TEXT, item_rating REAL);"
                   "CREATE TABLE IF NOT EXISTS review(kind INTEGER, item TEXT, box INTEGER, "
                   "streak INTEGER, due_ms INTEGER, seen_ms INTEGER, PRIMARY KEY(kind, item));",
                   NULL, NULL, &err) != SQLITE_OK) {
    fprintf(stderr, "arbiter train: %s is not a progress file: %s\n", path, err);
    sqlite3_free(err);
    sqlite3_close(pr->db);
    return -1;
  }
  for (int k = 0; k < 2; k++) {
    pr->g[k] = arb_glicko_new();
    sqlite3_stmt *st;
    sqlite3_prepare_v2(pr->db, "SELECT rating, rd, volatility FROM rating WHERE kind = ?", -1, &st,
                       NULL);
    sqlite3_bind_int(st, 1, k);
    if (sqlite3_step(st) == SQLITE_ROW)
      pr->g[k] = (arb_glicko){sqlite3_column_double(st, 0), sqlite3_column_double(st, 1),
                              sqlite3_column_double(st, 2)};
    sqlite3_finalize(st);
  }
  return 0;
}

static int seen_item(progress *pr, int kind, const char *id) {
  sqlite3_stmt *st;
  sqlite3_prepare_v2(pr->db, "SELECT 1 FROM attempt WHERE kind = ? AND item = ? LIMIT 1", -1, &st,
                     NULL);
  sqlite3_bind_int(st, 1, kind);
  sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
  int seen = sqlite3_step(st) == SQLITE_ROW;
  sqlite3_finalize(st);
  return seen;
}

static arb_review review_of(progress *pr, int kind, const char *id) {
  arb_review r = {0, 0, 0, 0};
  sqlite3_stmt *st;
  sqlite3_prepare_v2(pr->db,
                     "SELECT box, streak, due_ms, seen_ms FROM review WHERE kind = ? AND item = ?",
                     -1, &st, NULL);
  sqlite3_bind_int(st, 1, kind);
  sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
  if (sqlite3_step(st) == SQLITE_ROW)
    r = (arb_review){sqlite3_column_int(st, 0), sqlite3_column_int(st, 1),
                     sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3)};
  sqlite3_finalize(st);
  return r;
}

/* One answer, in one transaction: the attempt, the review, the rating. */
static void progress_record(progress *pr, int kind, const char *id, const char *themes,
                            double item_rating, int right, int rated) {
  int64_t t = now_ms();
  arb_review r = review_of(pr, kind, id);
  arb_review_answer(&r, right, t);
  sqlite3_exec(pr->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
  sqlite3_stmt *st;
  sqlite3_prepare_v2(pr->db, "INSERT INTO attempt VALUES (?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL);
  sqlite3_bind_int(st, 1, kind);
  sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
  sqlite3_bind_int(st, 3, right);
  sqlite3_bind_int(st, 4, rated);
  sqlite3_bind_int64(st, 5, t);
  sqlite3_bind_text(st, 6, themes, -1, SQLITE_STATIC);
  sqlite3_bind_double(st, 7, item_rating);
  sqlite3_step(st);
  sqlite3_finalize(st);
  sqlite3_prepare_v2(pr->db, "INSERT OR REPLACE INTO review VALUES (?, ?, ?, ?, ?, ?)", -1, &st,
                     NULL);
  sqlite3_bind_int(st, 1, kind);
  sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
  sqlite3_bind_int(st, 3, r.box);
  sqlite3_bind_int(st, 4, r.streak);
  sqlite3_bind_int64(st, 5, r.due_ms);
  sqlite3_bind_int64(st, 6, r.seen_ms);
  sqlite3_step(st);
  sqlite3_finalize(st);
  sqlite3_prepare_v2(pr->db, "INSERT OR REPLACE INTO rating VALUES (?, ?, ?, ?)", -1, &st, NULL);
  sqlite3_bind_int(st, 1, kind);
  sqlite3_bind_double(st, 2, pr->g[kind].rating);
  sqlite3_bind_double(st, 3, pr->g[kind].rd);
  sqlite3_bind_double(st, 4, pr->g[kind].volatility);
  sqlite3_step(st);
  sqlite3_finalize(st);
  if (sqlite3_exec(pr->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
    fprintf(stderr, "arbiter train: progress not saved: %s\n", sqlite3_errmsg(pr->db));
}

/* ---- the terminal ---- */

static char *ask(const char *prompt, char **line, size_t *cap) {
  fputs(prompt, stdout);
  fflush(stdout);
  ssize_t n = getline(line, cap, stdin);
  if (n < 0) return NULL;
  while (n > 0 && ((*line)[n - 1] == '\n' || (*line)[n - 1] == '\r' || (*line)[n - 1] == ' '))
    (*line)[--n] = 0;
  char *s = *line;
  while (*s == ' ')
    s++;
  return s;
}

static void draw(const arb_position *p, int black, int ascii) {
  char d[ARB_DIAGRAM_TEXT_MAX];
  unsigned flags =
      ARB_DIAGRAM_COORDS | (black ? ARB_DIAGRAM_FLIP : 0) | (ascii ? 0 : ARB_DIAGRAM_UNICODE);
  arb_diagram_text(p, flags, d, sizeof d);
  fputs(d, stdout);
}

/* ---- puzzles ---- */

typedef struct tp {
  arb_puzzle p;
  arb_position shown;
  arb_move line[ARB_PUZZLE_MAX_MOVES];
  int nline, goal, winordraw;
} tp;

static tp *load_puzzles(const char *path, long *n) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "arbiter train: cannot read the puzzles %s: %s\n", path, strerror(errno));
    return NULL;
  }
  tp *a = NULL;
  long cap = 0;
  *n = 0;
  char line[4096], err[160];
  while (fgets(line, sizeof line, f)) {
    tp q;
    memset(&q, 0, sizeof q);
    size_t len = strcspn(line, "\r\n");
    if (arb_puzzle_csv_read(line, len, &q.p, err, sizeof err) != ARB_OK) continue;
    arb_position pos;
    if (arb_fen_read(&pos, q.p.fen, 0, NULL) != ARB_OK || q.p.nmoves < 2) continue;
    int ok = 1;
    for (int i = 0; ok && i < q.p.nmoves; i++) {
      arb_move m;
      if (arb_uci_read(&pos, q.p.moves[i], strlen(q.p.moves[i]), 0, &m) != ARB_OK) ok = 0;
      arb_undo u;
      if (ok) q.line[i] = m, arb_make_move(&pos, m, &u);
      if (ok && i == 0) q.shown = pos;
    }
    if (!ok) continue;
    q.nline = q.p.nmoves;
    q.goal = arb_in_check(&pos) || arb_has_legal_move(&pos) ? ARB_SOLVE_MATE : ARB_SOLVE_DRAW;
    q.winordraw = arb_puzzle_has_theme(&q.p, "stalemateTrap") ||
                  arb_puzzle_has_theme(&q.p, "stalemateRescue");
    if (*n == cap) {
      cap = cap ? 2 * cap : 1024;
      tp *b = realloc(a, (size_t)cap * sizeof *b);
      if (!b) break;
      a = b;
    }
    a[(*n)++] = q;
  }
  fclose(f);
  return a;
}

static arb_difficulty difficulty_of(const char *s) {
  if (!s || !strcmp(s, "normal")) return ARB_DIFFICULTY_NORMAL;
  if (!strcmp(s, "easiest")) return ARB_DIFFICULTY_EASIEST;
  if (!strcmp(s, "easier")) return ARB_DIFFICULTY_EASIER;
  if (!strcmp(s, "harder")) return ARB_DIFFICULTY_HARDER;
  return ARB_DIFFICULTY_HARDEST;
}

/* One puzzle: 1 solved, 0 missed, -1 skipped, -2 quit. */
static int one_puzzle(const train_opts *o, arb_solver *solver, tp *q, int wod, char **line,
                      size_t *cap) {
  int black = q->shown.turn == ARB_BLACK, hinted = 0, nsolver = q->nline / 2;
  char san[ARB_SAN_MAX];
  arb_position before;
  arb_fen_read(&before, q->p.fen, 0, NULL);
  arb_san_write(&before, q->line[0], san, sizeof san);
  printf("\nPuzzle %s (rated %d).  The opponent played %s.\n", q->p.id, q->p.rating, san);
  arb_position p = q->shown;
  draw(&p, black, o->ascii);
  if (wod)
    printf("%s to play: win if you can, draw if you must.\n", black ? "Black" : "White");
  else if (q->goal == ARB_SOLVE_DRAW)
    printf("%s to play and force a draw (stalemate or a dead position) in %d.\n",
           black ? "Black" : "White", nsolver);
  else
    printf("%s to play and mate in %d.\n", black ? "Black" : "White", nsolver);
  for (int ply = 1; ply < q->nline;) {
    char *in = ask("your move> ", line, cap);
    if (!in || !strcmp(in, "quit") || !strcmp(in, "q")) return -2;
    if (!*in) continue;
    if (!strcmp(in, "skip")) return -1;
    if (!strcmp(in, "hint")) {
      arb_move m = q->line[ply];
      printf("Hint: move the piece on %c%d (this attempt is no longer rated).\n",
             'a' + ARB_MOVE_FROM(m) % 8, 1 + ARB_MOVE_FROM(m) / 8);
      hinted = 1;
      continue;
    }
    int give_up = !strcmp(in, "solution");
    arb_move m = ARB_MOVE_NONE;
    if (!give_up && arb_move_read(&p, in, strlen(in), 0, &m, NULL) != ARB_OK) {
      arb_move_explanation e;
      if (arb_move_explain_uci(&p, in, strlen(in), &e) == ARB_OK && e.reason != ARB_MOVE_LEGAL)
        printf("Illegal: %s (FIDE %s).\n", e.message, e.article);
      else
        printf("'%s' is not a move here (SAN such as Nf3 or UCI such as g1f3).\n", in);
      continue;
    }
    int final = ply == q->nline - 1;
    if (give_up || !arb_puzzle_move_right(&p, m, q->line[ply], final, (arb_solve_goal)q->goal)) {
      if (!give_up) {
        char why[256];
        arb_puzzle_why_wrong(solver, &p, m, (arb_solve_goal)q->goal, nsolver - (ply - 1) / 2, 0,
                             why, sizeof why);
        printf("Not the move: %s.\n", why);
      }
      printf("The solution:");
      arb_position s = p;
      for (int i = ply; i < q->nline; i++) {
        arb_san_write(&s, q->line[i], san, sizeof san);
        printf(" %s", san);
        arb_undo u;
        arb_make_move(&s, q->line[i], &u);
      }
      printf("\n");
      return hinted ? 2 : 0;
    }
    arb_san_write(&p, m, san, sizeof san);
    arb_undo u;
    arb_make_move(&p, m, &u);
    if (final) {
      printf("%s: %s\n", san,
             q->goal == ARB_SOLVE_MATE ? "checkmate. Solved!" : "drawn: the rescue works.");
      if (wod) printf("The goal was %s.\n", q->goal == ARB_SOLVE_MATE ? "mate" : "a draw");
      return hinted ? 3 : 1;
    }
    arb_san_write(&p, q->line[ply + 1], san, sizeof san);
    arb_make_move(&p, q->line[ply + 1], &u);
    printf("Right.  The opponent answers %s.\n", san);
    draw(&p, black, o->ascii);
    ply += 2;
  }
  return 1;
}

static int run_puzzles(const train_opts *o, progress *pr) {
  char buf[PATH_MAX];
  long n = 0;
  tp *all = load_puzzles(data_file(o->puzzles, "puzzles/starter.csv", buf, sizeof buf), &n);
  if (!all) return 1;
  if (!n) {
    fprintf(stderr, "arbiter train: no puzzle could be read from %s\n", buf);
    free(all);
    return 1;
  }
  int wod = o->mode && !strcmp(o->mode, "winordraw"),
      review = o->mode && !strcmp(o->mode, "review");
  arb_select_item *sel = malloc((size_t)n * sizeof *sel);
  arb_solver *solver = arb_solver_new(0);
  char *line = NULL;
  size_t cap = 0;
  int rc = 0;
  for (long done = 0; sel && solver && (!o->count || done < o->count); done++) {
    int64_t t = now_ms();
    int any = 0;
    for (long i = 0; i < n; i++) {
      tp *q = &all[i];
      arb_review r = review_of(pr, PUZZLE, q->p.id);
      int due = arb_review_due(&r, t);
      int ok = (!o->theme || arb_puzzle_has_theme(&q->p, o->theme)) && (!wod || q->winordraw) &&
               (!review || due);
      sel[i] = (arb_select_item){q->p.rating, review ? 0 : seen_item(pr, PUZZLE, q->p.id),
                                 review ? 0 : due && ok, ok};
      any |= ok;
    }
    if (!any) {
      printf("%s\n", review ? "Nothing is due for review." : "No puzzle has that theme.");
      break;
    }
    double target = arb_select_target(pr->g[PUZZLE].rating, difficulty_of(o->difficulty));
    int k = arb_select_next(sel, (int)n, target, o->seed + (uint64_t)done);
    if (k < 0) break;
    tp *q = &all[k];
    int r = one_puzzle(o, solver, q, wod, &line, &cap);
    if (r == -2) break;
    if (r == -1) continue;
    int right = r == 1 || r == 3, rated = r < 2 && !seen_item(pr, PUZZLE, q->p.id);
    arb_glicko before = pr->g[PUZZLE];
    if (rated) {
      arb_glicko item = {q->p.rating, q->p.rating_deviation ? q->p.rating_deviation : 500, 0.09};
      arb_puzzle_rate(&pr->g[PUZZLE], &item, right, arb_puzzle_theme_kind(o->theme));
    }
    progress_record(pr, PUZZLE, q->p.id, q->p.themes, q->p.rating, right, rated);
    if (rated)
      printf("Your puzzle rating: %.0f (%+.0f).\n", pr->g[PUZZLE].rating,
             pr->g[PUZZLE].rating - before.rating);
    else
      printf("Not rated (a hint, or seen before).\n");
    if (!right) printf("It comes back for review tomorrow.\n");
  }
  free(line);
  free(sel);
  arb_solver_free(solver);
  free(all);
  return rc;
}

/* ---- the quiz ---- */

/* The quiz bank's items (JSON objects with an id, a question and an answer), from f. */
static json_t **load_quiz(FILE *f, long *count) {
  json_t **items = NULL;
  long n = 0, cap = 0;
  char *line = NULL;
  size_t lcap = 0;
  while (getline(&line, &lcap, f) > 0) {
    json_t *j = json_loads(line, 0, NULL);
    if (!json_is_object(j) || !json_is_string(json_object_get(j, "id")) ||
        !json_object_get(j, "answer") || !json_is_string(json_object_get(j, "question"))) {
      json_decref(j);
      continue;
    }
    if (n == cap) {
      cap = cap ? 2 * cap : 512;
      json_t **b = realloc(items, (size_t)cap * sizeof *b);
      if (!b) {
        json_decref(j);
        break;
      }
      items = b;
    }
    items[n++] = j;
  }
  free(line);
  *count = n;
  return items;
}

static int run_quiz(const train_opts *o, progress *pr) {
  char buf[PATH_MAX];
  const char *path = data_file(o->quiz, "quiz/bank.jsonl", buf, sizeof buf);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "arbiter train: cannot read the quiz %s: %s\n", path, strerror(errno));
    return 1;
  }
  long n = 0;
  json_t **items = load_quiz(f, &n);
  char *line = NULL;
  size_t lcap = 0;
  fclose(f);
  int review = o->mode && !strcmp(o->mode, "review");
  arb_select_item *sel = n ? malloc((size_t)n * sizeof *sel) : NULL;
  for (long done = 0; sel && (!o->count || done < o->count); done++) {
    int64_t t = now_ms();
    int any = 0;
    for (long i = 0; i < n; i++) {
      const char *id = json_string_value(json_object_get(items[i], "id"));
      const char *topic = json_string_value(json_object_get(items[i], "topic"));
      arb_review r = review_of(pr, QUIZ, id);
      int due = arb_review_due(&r, t);
      int ok = (!o->topic || (topic && !strcmp(topic, o->topic))) && (!review || due);
      double d = json_number_value(json_object_get(items[i], "difficulty"));
      sel[i] = (arb_select_item){900 + 250 * (d ? d : 2), review ? 0 : seen_item(pr, QUIZ, id),
                                 review ? 0 : due && ok, ok};
      any |= ok;
    }
    if (!any) {
      printf("%s\n", review ? "Nothing is due for review." : "No quiz item has that topic.");
      break;
    }
    int k = arb_select_next(sel, (int)n, pr->g[QUIZ].rating, o->seed + (uint64_t)done);
    if (k < 0) break;
    json_t *q = items[k];
    const char *id = json_string_value(json_object_get(q, "id"));
    const char *fen = json_string_value(json_object_get(q, "fen"));
    printf("\n[%s] %s\n", json_string_value(json_object_get(q, "topic")), id);
    arb_position pos;
    int have_pos = fen && arb_fen_read(&pos, fen, 0, NULL) == ARB_OK;
    if (have_pos) draw(&pos, pos.turn == ARB_BLACK, o->ascii);
    printf("%s\n", json_string_value(json_object_get(q, "question")));
    json_t *choices = json_object_get(q, "choices");
    size_t nc = json_array_size(choices);
    for (size_t c = 0; c < nc; c++)
      printf("  %zu. %s\n", c + 1, json_string_value(json_array_get(choices, c)));
    json_t *want = json_object_get(q, "answer");
    int right = 0, answered = 0;
    while (!answered) {
      char *in = ask(nc ? "your answer (a number)> " : "your move> ", &line, &lcap);
      if (!in || !strcmp(in, "quit") || !strcmp(in, "q")) goto out;
      if (!*in) continue;
      if (nc) {
        char *end;
        long v = strtol(in, &end, 10);
        if (*end || v < 1 || (size_t)v > nc) {
          printf("Answer with a number from 1 to %zu.\n", nc);
          continue;
        }
        right = json_equal(json_array_get(choices, (size_t)v - 1), want);
      } else {
        arb_move m;
        if (!have_pos || arb_move_read(&pos, in, strlen(in), 0, &m, NULL) != ARB_OK) {
          arb_move_explanation e;
          if (have_pos && arb_move_explain_uci(&pos, in, strlen(in), &e) == ARB_OK &&
              e.reason != ARB_MOVE_LEGAL)
            printf("Illegal: %s (FIDE %s).\n", e.message, e.article);
          else
            printf("'%s' is not a move here.\n", in);
          continue;
        }
        char uci[8];
        arb_uci_write(&pos, m, uci, sizeof uci);
        right = json_is_string(want) && !strcasecmp(uci, json_string_value(want));
      }
      answered = 1;
    }
    const char *ws = json_string_value(want);
    if (!ws) ws = "";
    printf("%s%s\n", right ? "Right." : "No: the answer is ", right ? "" : ws);
    const char *ex = json_string_value(json_object_get(q, "explanation"));
    if (ex) printf("%s\n", ex);
    json_t *arts = json_object_get(q, "articles");
    for (size_t a = 0; a < json_array_size(arts); a++)
      printf("%s%s", a ? ", " : "(", json_string_value(json_array_get(arts, a)));
    if (json_array_size(arts)) printf(")\n");
    int rated = !seen_item(pr, QUIZ, id);
    arb_glicko before = pr->g[QUIZ];
    if (rated) {
      arb_glicko item = {sel[k].rating, 350, 0.09};
      double s = right;
      arb_glicko_update(&pr->g[QUIZ], &item, &s, 1, ARB_GLICKO_TAU);
      arb_glicko_clamp(&pr->g[QUIZ], &before);
    }
    progress_record(pr, QUIZ, id, json_string_value(json_object_get(q, "topic")), sel[k].rating,
                    right, rated);
    if (rated)
      printf("Your quiz rating: %.0f (%+.0f).\n", pr->g[QUIZ].rating,
             pr->g[QUIZ].rating - before.rating);
  }
out:
  free(line);
  free(sel);
  for (long i = 0; i < n; i++)
    json_decref(items[i]);
  free(items);
  return 0;
}

/* ---- the diagnostic ---- */

static const char *const area_words[ARB_DIAG_AREAS] = {"Rules", "Tactics", "Endgames"};

/* Reads the learner's move in p (SAN or UCI); NULL at the end of input or on "quit". */
static int read_move(const arb_position *p, arb_move *m, char **line, size_t *cap) {
  for (;;) {
    char *in = ask("your move> ", line, cap);
    if (!in || !strcmp(in, "quit") || !strcmp(in, "q")) return -1;
    if (!*in) continue;
    if (arb_move_read(p, in, strlen(in), 0, m, NULL) == ARB_OK) return 0;
    arb_move_explanation e;
    if (arb_move_explain_uci(p, in, strlen(in), &e) == ARB_OK && e.reason != ARB_MOVE_LEGAL)
      printf("Illegal: %s (FIDE %s).\n", e.message, e.article);
    else
      printf("'%s' is not a move here.\n", in);
  }
}

/* A number from 1 to n; -1 at the end of input or on "quit". */
static int read_choice(int n, char **line, size_t *cap) {
  for (;;) {
    char *in = ask("your answer (a number)> ", line, cap);
    if (!in || !strcmp(in, "quit") || !strcmp(in, "q")) return -1;
    char *end;
    long v = strtol(in, &end, 10);
    if (*in && !*end && v >= 1 && v <= n) return (int)v;
    printf("Answer with a number from 1 to %d.\n", n);
  }
}

static void diag_missed(char (*missed)[48], int *area, int *n, int a, const char *what) {
  if (*n >= ARB_DIAG_MAX) return;
  snprintf(missed[*n], sizeof missed[0], "%.47s", what ? what : "");
  area[(*n)++] = a;
}

static int run_diagnostic(const train_opts *o) {
  char pbuf[PATH_MAX], qbuf[PATH_MAX];
  long np = 0, nq = 0;
  tp *puzzles = load_puzzles(data_file(o->puzzles, "puzzles/starter.csv", pbuf, sizeof pbuf), &np);
  FILE *qf = fopen(data_file(o->quiz, "quiz/bank.jsonl", qbuf, sizeof qbuf), "r");
  json_t **quiz = qf ? load_quiz(qf, &nq) : NULL;
  if (qf) fclose(qf);
  arb_endgame *eg[3] = {arb_endgame_new("KQK", NULL), arb_endgame_new("KRK", NULL),
                        arb_endgame_new("KPK", NULL)};
  const arb_endgame *const tables[3] = {eg[0], eg[1], eg[2]};
  arb_diag d;
  arb_diag_init(&d);
  if (!np) arb_diag_skip(&d, ARB_DIAG_TACTICS);
  if (!nq) arb_diag_skip(&d, ARB_DIAG_RULES);
  if (!eg[0] || !eg[1] || !eg[2]) arb_diag_skip(&d, ARB_DIAG_ENDGAMES);
  uint64_t seed = o->seed;
  char missed[ARB_DIAG_MAX][48];
  int missed_area[ARB_DIAG_MAX], nmissed = 0, quit = 0;
  char *line = NULL;
  size_t lcap = 0;
  printf("The diagnostic: about 20 to 30 questions over the rules, tactics and endgames, each\n"
         "chosen by your answers so far.  'quit' stops it.\n");
  for (arb_diag_area a; !quit && (a = arb_diag_next_area(&d)) != ARB_DIAG_AREAS;) {
    arb_irt_item c[48];
    long idx[48];
    int n = 0, right = 0;
    printf("\nQuestion %d (%s)\n", d.n + 1, area_words[a]);
    if (a == ARB_DIAG_RULES || a == ARB_DIAG_TACTICS) {
      for (int tries = 0; tries < 200 && n < 48; tries++) {
        long i = (long)(arb_select_rand(&seed) % (uint64_t)(a == ARB_DIAG_RULES ? nq : np));
        int dup = 0;
        for (int k = 0; k < n; k++)
          dup |= idx[k] == i;
        if (dup) continue;
        c[n] = a == ARB_DIAG_RULES ? arb_diag_quiz_item((int)json_integer_value(
                                         json_object_get(quiz[i], "difficulty")))
                                   : arb_diag_puzzle_item(puzzles[i].p.rating);
        idx[n++] = i;
      }
      int k = arb_diag_pick(&d, a, c, n);
      if (a == ARB_DIAG_RULES) {
        json_t *q = quiz[idx[k]];
        const char *fen = json_string_value(json_object_get(q, "fen"));
        arb_position pos;
        int have = fen && arb_fen_read(&pos, fen, 0, NULL) == ARB_OK;
        if (have) draw(&pos, pos.turn == ARB_BLACK, o->ascii);
        printf("%s\n", json_string_value(json_object_get(q, "question")));
        json_t *ch = json_object_get(q, "choices"), *want = json_object_get(q, "answer");
        int nc = (int)json_array_size(ch);
        for (int i = 0; i < nc; i++)
          printf("  %d. %s\n", i + 1, json_string_value(json_array_get(ch, (size_t)i)));
        if (nc) {
          int v = read_choice(nc, &line, &lcap);
          if (v < 0) break;
          right = json_equal(json_array_get(ch, (size_t)v - 1), want);
        } else {
          arb_move m;
          char uci[8] = "";
          if (!have || read_move(&pos, &m, &line, &lcap)) break;
          arb_uci_write(&pos, m, uci, sizeof uci);
          right = json_is_string(want) && !strcasecmp(uci, json_string_value(want));
        }
        printf("%s%s\n%s\n", right ? "Right." : "No: the answer is ",
               right ? "" : json_string_value(want),
               json_string_value(json_object_get(q, "explanation")));
        if (!right)
          diag_missed(missed, missed_area, &nmissed, a,
                      json_string_value(json_object_get(q, "topic")));
      } else {
        const tp *q = &puzzles[idx[k]];
        char san[ARB_SAN_MAX];
        arb_position before;
        arb_fen_read(&before, q->p.fen, 0, NULL);
        arb_san_write(&before, q->line[0], san, sizeof san);
        draw(&q->shown, q->shown.turn == ARB_BLACK, o->ascii);
        printf("%s played %s. %s to move: %s. Play the first move.\n",
               before.turn == ARB_WHITE ? "White" : "Black", san,
               q->shown.turn == ARB_WHITE ? "White" : "Black",
               q->goal == ARB_SOLVE_MATE ? "find the forced mate"
                                         : "find the move that saves the game");
        arb_move m;
        if (read_move(&q->shown, &m, &line, &lcap)) break;
        right =
            arb_puzzle_move_right(&q->shown, m, q->line[1], q->nline == 2, (arb_solve_goal)q->goal);
        arb_san_write(&q->shown, q->line[1], san, sizeof san);
        printf(right ? "Right: %s.\n" : "The move was %s.\n", san);
        if (!right) diag_missed(missed, missed_area, &nmissed, a, arb_puzzle_kind_theme(&q->p));
      }
      arb_diag_answer(&d, a, c[k], right);
      continue;
    }
    arb_diag_endgame e[ARB_DIAG_ENDGAME_CANDIDATES];
    n = arb_diag_endgames(tables, arb_select_rand(&seed), e);
    for (int i = 0; i < n; i++)
      c[i] = e[i].irt;
    int k = arb_diag_pick(&d, a, c, n);
    if (k < 0) {
      arb_diag_skip(&d, a);
      continue;
    }
    if (e[k].kind == ARB_DIAG_WDL) {
      draw(&e[k].pos, 0, o->ascii);
      printf("White to move. With best play by both sides, is this king and pawn ending won or\n"
             "drawn?\n  1. White wins\n  2. Draw\n");
      int v = read_choice(2, &line, &lcap);
      if (v < 0) break;
      right = (v == 1) == (e[k].win != 0);
      printf("%s White %s.\n", right ? "Right." : "No:", e[k].win ? "wins" : "cannot win: a draw");
      if (!right) diag_missed(missed, missed_area, &nmissed, a, "king and pawn: won or drawn");
    } else {
      arb_drill dr;
      arb_drill_start(&dr, tables[e[k].table], &e[k].pos, 3);
      printf("%s: mate against the best defence within %d moves (the shortest mate is %d).\n",
             e[k].table == 0 ? "King and queen" : "King and rook", dr.moves_allowed, dr.dtm);
      while (dr.state == ARB_DRILL_ON) {
        draw(&dr.pos, 0, o->ascii);
        arb_move m;
        if (read_move(&dr.pos, &m, &line, &lcap)) {
          quit = 1;
          break;
        }
        arb_position was = dr.pos;
        arb_drill_move(&dr, tables[e[k].table], m);
        if (dr.state == ARB_DRILL_ON) {
          arb_position after = was;
          arb_undo u;
          arb_make_move(&after, m, &u);
          char s2[ARB_SAN_MAX];
          arb_san_write(&after, dr.last_reply, s2, sizeof s2);
          printf("The defence: %s. %d moves left.\n", s2, dr.moves_allowed - dr.moves_made);
        }
      }
      if (quit) break;
      right = dr.state == ARB_DRILL_MATED;
      printf("%s\n", right ? "Mate."
                     : dr.state == ARB_DRILL_DRAWN
                         ? "The win is gone: that stalemates, or lets the piece go."
                         : "Too slow: the moves allowed are used up.");
      if (!right)
        diag_missed(missed, missed_area, &nmissed, a,
                    e[k].table == 0 ? "mate with king and queen" : "mate with king and rook");
    }
    arb_diag_answer(&d, a, c[k], right);
  }
  printf("\nYour report after %d question%s:\n", d.n, d.n == 1 ? "" : "s");
  for (int a = 0; a < ARB_DIAG_AREAS; a++) {
    if (d.skipped & (1u << a)) {
      printf("  %-9s not asked (no items)\n", area_words[a]);
      continue;
    }
    arb_diag_estimate est;
    arb_diag_estimate_of(&d, (arb_diag_area)a, &est);
    int bar = (int)((est.rating - 600) / 100);
    if (bar < 0) bar = 0;
    if (bar > 20) bar = 20;
    printf("  %-9s %4.0f +- %3.0f  %.*s  %d of %d right", area_words[a], est.rating, est.rating_se,
           bar, "####################", est.right, est.answered);
    for (int i = 0, first = 1; i < nmissed; i++)
      if (missed_area[i] == a) printf("%s%s", first ? "; missed: " : ", ", missed[i]), first = 0;
    printf("\n");
  }
  static const char *const advice[ARB_DIAG_AREAS] = {
      "Train the rules first: arbiter train quiz.", "Train tactics first: arbiter train puzzles.",
      ("Train endgames first: mate with king and queen, then king and rook; arbiter train puzzles "
       "--theme endgame.")};
  printf("%s\n", advice[arb_diag_weakest(&d)]);
  free(line);
  for (long i = 0; i < nq; i++)
    json_decref(quiz[i]);
  free(quiz);
  free(puzzles);
  for (int i = 0; i < 3; i++)
    arb_endgame_free(eg[i]);
  return 0;
}

/* ---- --stats ---- */

/* ---- the review of played games ---- */

typedef struct review_ctx {
  int json, ascii;
  long games, reviewed, findings;
  double points;
} review_ctx;

static int review_game(void *ctx, const arb_audit_info *i, const arb_audit_finding *f, int n) {
  review_ctx *c = ctx;
  c->games++;
  c->reviewed += i->readable;
  c->findings += n;
  for (int k = 0; k < n; k++)
    c->points += f[k].points;
  if (c->json) {
    json_t *o = srv_audit_json(i, f, n);
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (s) printf("%s\n", s);
    free(s);
    json_decref(o);
    return 0;
  }
  printf("Game %llu: %s - %s, %s%s%s: ", (unsigned long long)i->game, i->white[0] ? i->white : "?",
         i->black[0] ? i->black : "?", i->result, i->site[0] ? ", " : "", i->site);
  if (!i->readable) {
    printf("not reviewed (%s)\n", i->error);
    return 0;
  }
  printf(n ? "%d finding%s\n" : "no rule mistakes\n", n, n == 1 ? "" : "s");
  for (int k = 0; k < n; k++) {
    arb_position p;
    if (arb_fen_read(&p, f[k].fen, 0, NULL) != ARB_OK) continue;
    printf("\n  Move %d%s %s (%s, %s):\n", f[k].move_number, p.turn == ARB_BLACK ? "..." : ".",
           arb_audit_kind_name(f[k].kind), f[k].article,
           f[k].points == 1 ? "a whole point" : "half a point");
    draw(&p, f[k].side == ARB_BLACK, c->ascii);
    printf("  %s\n", f[k].text);
  }
  if (n) printf("\n");
  return 0;
}

static int run_review(const train_opts *o, char **files, int nfiles, int json) {
  arb_solver *solver = arb_solver_new(0);
  review_ctx c = {json, o->ascii, 0, 0, 0, 0};
  arb_audit_reader *r = solver ? arb_audit_reader_new(solver, 0, review_game, &c) : NULL;
  if (!r) {
    fprintf(stderr, "arbiter train review: out of memory\n");
    arb_solver_free(solver);
    return 1;
  }
  int rc = 0;
  for (int i = 0; i < nfiles; i++) {
    FILE *f = strcmp(files[i], "-") ? fopen(files[i], "rb") : stdin;
    if (!f) {
      fprintf(stderr, "arbiter train review: cannot read %s\n", files[i]);
      rc = 1;
      continue;
    }
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
      arb_audit_reader_feed(r, buf, n);
    if (f != stdin) fclose(f);
  }
  arb_audit_reader_finish(r);
  arb_audit_reader_free(r);
  arb_solver_free(solver);
  if (!json)
    printf("%ld game%s, %ld reviewed: %ld rule mistake%s, %.1f points the laws would have given\n",
           c.games, c.games == 1 ? "" : "s", c.reviewed, c.findings, c.findings == 1 ? "" : "s",
           c.points);
  return rc;
}

static int stats(progress *pr) {
  static const char *const names[2] = {"puzzles", "quiz"};
  json_t *a = json_object();
  int64_t t = now_ms();
  for (int k = 0; k < 2; k++) {
    sqlite3_stmt *st;
    sqlite3_prepare_v2(pr->db,
                       "SELECT count(*), coalesce(sum(right), 0) FROM attempt WHERE kind = ? AND "
                       "rated",
                       -1, &st, NULL);
    sqlite3_bind_int(st, 1, k);
    sqlite3_step(st);
    int played = sqlite3_column_int(st, 0), right = sqlite3_column_int(st, 1);
    sqlite3_finalize(st);
    sqlite3_prepare_v2(pr->db,
                       "SELECT count(*) FROM review WHERE kind = ? AND box BETWEEN 1 AND 5 "
                       "AND due_ms <= ?",
                       -1, &st, NULL);
    sqlite3_bind_int(st, 1, k);
    sqlite3_bind_int64(st, 2, t);
    sqlite3_step(st);
    int due = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    /* per theme or topic: first answers right / played (lichess's dashboard counts) */
    json_t *per = json_object();
    sqlite3_prepare_v2(pr->db, "SELECT themes, right FROM attempt WHERE kind = ? AND rated", -1,
                       &st, NULL);
    sqlite3_bind_int(st, 1, k);
    while (sqlite3_step(st) == SQLITE_ROW) {
      char themes[512];
      snprintf(themes, sizeof themes, "%s", (const char *)sqlite3_column_text(st, 0));
      int r = sqlite3_column_int(st, 1);
      for (char *s = strtok(themes, " "); s; s = strtok(NULL, " ")) {
        json_t *o = json_object_get(per, s);
        if (!o) json_object_set_new(per, s, o = json_pack("{s:i,s:i}", "played", 0, "right", 0));
        json_object_set_new(o, "played",
                            json_integer(json_integer_value(json_object_get(o, "played")) + 1));
        json_object_set_new(o, "right",
                            json_integer(json_integer_value(json_object_get(o, "right")) + r));
      }
    }
    sqlite3_finalize(st);
    json_object_set_new(
        a, names[k],
        json_pack("{s:i,s:i,s:b,s:i,s:i,s:i,s:o}", "rating", (int)(pr->g[k].rating + 0.5), "rd",
                  (int)(pr->g[k].rd + 0.5), "provisional", pr->g[k].rd >= ARB_GLICKO_PROVISIONAL_RD,
                  "played", played, "right", right, "due", due, k ? "topics" : "themes", per));
  }
  char *s = json_dumps(a, JSON_COMPACT);
  printf("%s\n", s);
  free(s);
  json_decref(a);
  return 0;
}

int arb_cmd_train(int argc, char **argv) {
  train_opts o;
  memset(&o, 0, sizeof o);
  o.seed = (uint64_t)time(NULL);
  const char *what = NULL;
  int json = 0, nfiles = 0;
  char **files = calloc((size_t)argc + 1, sizeof *files);
  if (!files) return 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      train_usage(stdout);
      free(files);
      return 0;
    } else if (!strcmp(a, "--theme") && more) {
      o.theme = argv[++i];
    } else if (!strcmp(a, "--topic") && more) {
      o.topic = argv[++i];
    } else if (!strcmp(a, "--mode") && more) {
      o.mode = argv[++i];
      if (strcmp(o.mode, "normal") && strcmp(o.mode, "winordraw") && strcmp(o.mode, "review")) {
        fprintf(stderr, "arbiter train: --mode is normal, winordraw or review, not '%s'\n", o.mode);
        free(files);
        return 2;
      }
    } else if (!strcmp(a, "--difficulty") && more) {
      o.difficulty = argv[++i];
      if (strcmp(o.difficulty, "easiest") && strcmp(o.difficulty, "easier") &&
          strcmp(o.difficulty, "normal") && strcmp(o.difficulty, "harder") &&
          strcmp(o.difficulty, "hardest")) {
        fprintf(stderr, "arbiter train: --difficulty is easiest, easier, normal, harder or "
                        "hardest\n");
        free(files);
        return 2;
      }
    } else if (!strcmp(a, "--count") && more) {
      char *end;
      o.count = strtol(argv[++i], &end, 10);
      if (*end || o.count < 1) {
        fprintf(stderr, "arbiter train: --count wants a positive number\n");
        free(files);
        return 2;
      }
    } else if (!strcmp(a, "--seed") && more) {
      char *end;
      o.seed = strtoull(argv[++i], &end, 10);
      if (*end) {
        fprintf(stderr, "arbiter train: --seed wants a number\n");
        free(files);
        return 2;
      }
    } else if (!strcmp(a, "--puzzles") && more) {
      o.puzzles = argv[++i];
    } else if (!strcmp(a, "--quiz") && more) {
      o.quiz = argv[++i];
    } else if (!strcmp(a, "--db") && more) {
      o.db = argv[++i];
    } else if (!strcmp(a, "--ascii")) {
      o.ascii = 1;
    } else if (!strcmp(a, "--stats")) {
      o.stats = 1;
    } else if (!strcmp(a, "--json")) {
      json = 1;
    } else if (!what && (!strcmp(a, "puzzles") || !strcmp(a, "quiz") || !strcmp(a, "review") ||
                         !strcmp(a, "diagnostic"))) {
      what = a;
    } else if (what && !strcmp(what, "review") && (a[0] != '-' || !a[1])) {
      files[nfiles++] = argv[i];
    } else {
      fprintf(stderr, "arbiter train: unexpected argument '%s'\n", a);
      train_usage(stderr);
      free(files);
      return 2;
    }
  }
  if (what && !strcmp(what, "review")) {
    int rc = nfiles ? run_review(&o, files, nfiles, json) : 2;
    if (!nfiles) fprintf(stderr, "arbiter train review: which games? (FILE.pgn..., - for stdin)\n");
    free(files);
    return rc;
  }
  free(files);
  if (what && !strcmp(what, "diagnostic")) return run_diagnostic(&o);
  if (!what && !o.stats) {
    fprintf(stderr, "arbiter train: say what to train: puzzles or quiz (or --stats)\n");
    train_usage(stderr);
    return 2;
  }
  char dbbuf[PATH_MAX];
  progress pr;
  if (progress_open(&pr, db_path(o.db, dbbuf, sizeof dbbuf))) return 1;
  int rc = o.stats                    ? stats(&pr)
           : !strcmp(what, "puzzles") ? run_puzzles(&o, &pr)
                                      : run_quiz(&o, &pr);
  sqlite3_close(pr.db);
  return rc;
}
