/* Arbiter — MIT licence, see LICENSE.
 *
 * train_diag.c: the trainer's diagnostic over HTTP — a short adaptive test of rules fluency
 * (the quiz bank), tactics (the first move of a proven puzzle: its only key) and endgames (king
 * and queen or king and rook mated against the table's perfect defence; king and pawn "won or
 * drawn?"), ending in a report: a level with its uncertainty per area, what was missed, and
 * what to train next.  The test's model (which area, which item, when to stop) and the drills
 * are the library's (arbiter/diagnostic.h); this file keeps the sessions and translates.
 *
 *   POST /api/train/diagnostic/start  {}                      -> {"id","item","asked","max"}
 *   POST /api/train/diagnostic/answer {"id","answer"}         a choice (or a UCI move)
 *                                      {"id","move"}           a move on the board
 *       -> {"right"?, "explanation"?, "reply"? (a drill goes on), "item"? (the next),
 *           "report"? (the end)}
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "token.h"
#include "train_internal.h"

#define MAX_SESSIONS 512             /* the oldest goes first */
#define SESSION_MS (3 * 3600 * 1000) /* an idle session is forgotten after three hours */
#define CANDIDATES 48                /* items weighed for each question */
#define DRILL_SLACK 3                /* moves allowed beyond the shortest mate */

enum { K_QUIZ = 0, K_TACTIC, K_DRILL, K_KPK };
enum { EG_KQK = 0, EG_KRK, EG_KPK, EG_COUNT };
static const char *const eg_names[EG_COUNT] = {"KQK", "KRK", "KPK"};

typedef struct tdiag {
  char id[SRV_TOKEN_LEN + 1];
  int used;
  int64_t last_ms;
  uint64_t seed;
  arb_diag d;
  /* the question now */
  int kind, table;
  long index;
  arb_irt_item irt;
  arb_drill drill;
  arb_position pos;
  int kpk_win;
  /* what was asked and missed */
  long asked[ARB_DIAG_MAX];
  int nasked;
  char missed[ARB_DIAG_MAX][48];
  int missed_area[ARB_DIAG_MAX];
  int nmissed;
} tdiag;

struct srv_diags {
  tdiag s[MAX_SESSIONS];
  arb_endgame *eg[EG_COUNT]; /* built on the first diagnostic */
};

srv_diags *srv_diags_new(void) { return calloc(1, sizeof(srv_diags)); }

void srv_diags_free(srv_diags *d) {
  if (!d) return;
  for (int i = 0; i < EG_COUNT; i++)
    arb_endgame_free(d->eg[i]);
  free(d);
}

static int was_asked(const tdiag *s, int kind, long index) {
  for (int i = 0; i < s->nasked; i++)
    if (s->asked[i] == kind * 1000000L + index) return 1;
  return 0;
}

static const char *side(int c) { return c == ARB_WHITE ? "White" : "Black"; }

/* ---- choosing the question ---- */

/* A quiz item (rules) or a puzzle (tactics) not asked yet: the most informative of a random
 * sample of the bank. */
static int pick_item(srv_trainer *t, tdiag *s, arb_diag_area area) {
  int kind = area == ARB_DIAG_RULES ? K_QUIZ : K_TACTIC;
  long pool = kind == K_QUIZ ? t->nquiz : t->npuzzles;
  arb_irt_item c[CANDIDATES];
  long idx[CANDIDATES];
  int n = 0;
  for (int tries = 0; tries < 4 * CANDIDATES && n < CANDIDATES && pool; tries++) {
    long i = (long)(arb_select_rand(&s->seed) % (uint64_t)pool);
    if (was_asked(s, kind, i) || (kind == K_TACTIC && t->puzzles[i].nline < 2)) continue;
    c[n] = kind == K_QUIZ ? arb_diag_quiz_item((int)json_integer_value(
                                json_object_get(t->quiz[i].item, "difficulty")))
                          : arb_diag_puzzle_item(t->puzzles[i].p.rating);
    idx[n++] = i;
  }
  int k = arb_diag_pick(&s->d, area, c, n);
  if (k < 0) return -1;
  s->kind = kind, s->index = idx[k], s->irt = c[k];
  return 0;
}

/* Endgame candidates: the library's drills and king-and-pawn positions, drawn anew. */
static int pick_endgame(srv_diags *g, tdiag *s) {
  arb_diag_endgame c[ARB_DIAG_ENDGAME_CANDIDATES];
  arb_irt_item irt[ARB_DIAG_ENDGAME_CANDIDATES];
  const arb_endgame *const tables[3] = {g->eg[EG_KQK], g->eg[EG_KRK], g->eg[EG_KPK]};
  int n = arb_diag_endgames(tables, arb_select_rand(&s->seed), c);
  for (int i = 0; i < n; i++)
    irt[i] = c[i].irt;
  int k = arb_diag_pick(&s->d, ARB_DIAG_ENDGAMES, irt, n);
  if (k < 0) return -1;
  s->kind = c[k].kind == ARB_DIAG_DRILL ? K_DRILL : K_KPK;
  s->table = c[k].table, s->irt = c[k].irt, s->pos = c[k].pos, s->kpk_win = c[k].win;
  s->index =
      (long)(arb_select_rand(&s->seed) % 1000000); /* not repeated: positions are drawn anew */
  if (s->kind == K_DRILL) arb_drill_start(&s->drill, g->eg[s->table], &s->pos, DRILL_SLACK);
  return 0;
}

static json_t *board_json(const arb_position *p, int movable) {
  char fen[ARB_FEN_MAX];
  arb_fen_write(p, fen, sizeof fen, 0);
  json_t *o = json_pack("{s:s,s:s}", "fen", fen, "color", p->turn == ARB_WHITE ? "white" : "black");
  if (movable) json_object_set_new(o, "dests", srv_train_dests(p));
  if (arb_in_check(p)) json_object_set_new(o, "check", json_true());
  return o;
}

/* The question as the page shows it. */
static json_t *item_json(srv_trainer *t, const tdiag *s) {
  json_t *o;
  const char *area = arb_diag_area_name(s->kind == K_QUIZ     ? ARB_DIAG_RULES
                                        : s->kind == K_TACTIC ? ARB_DIAG_TACTICS
                                                              : ARB_DIAG_ENDGAMES);
  char q[256];
  if (s->kind == K_QUIZ) {
    o = json_deep_copy(t->quiz[s->index].shown);
    json_object_del(o, "id");
  } else if (s->kind == K_TACTIC) {
    const tpuzzle *p = &t->puzzles[s->index];
    o = board_json(&p->shown, 1);
    char san[ARB_SAN_MAX];
    arb_san_write(&p->start, p->line[0], san, sizeof san);
    snprintf(q, sizeof q, "%s played %s. %s to move: %s. Play the first move.", side(p->start.turn),
             san, side(p->shown.turn),
             p->goal == ARB_SOLVE_MATE
                 ? (p->nline / 2 == 1 ? "mate in one" : "find the forced mate")
                 : "find the move that saves the game");
    json_object_set_new(o, "question", json_string(q));
    json_object_set_new(o, "kind", json_string("move"));
    json_object_set_new(o, "last_move", json_string(p->p.moves[0]));
  } else if (s->kind == K_DRILL) {
    o = board_json(&s->drill.pos, 1);
    snprintf(q, sizeof q,
             "%s: mate against the best defence within %d moves (the shortest mate is %d), "
             "without stalemating or losing the %s.",
             eg_names[s->table], s->drill.moves_allowed, s->drill.dtm,
             s->table == EG_KQK ? "queen" : "rook");
    json_object_set_new(o, "question", json_string(q));
    json_object_set_new(o, "kind", json_string("drill"));
    json_object_set_new(o, "moves_left",
                        json_integer(s->drill.moves_allowed - s->drill.moves_made));
  } else {
    o = board_json(&s->pos, 0);
    json_object_set_new(o, "question",
                        json_string("White to move. With best play by both sides, is this king "
                                    "and pawn ending won or drawn?"));
    json_object_set_new(o, "kind", json_string("choice"));
    json_object_set_new(o, "choices", json_pack("[s,s]", "White wins", "Draw"));
  }
  json_object_set_new(o, "area", json_string(area));
  json_object_set_new(o, "number", json_integer(s->d.n + 1));
  return o;
}

/* ---- the report ---- */

static json_t *report_json(const tdiag *s) {
  json_t *areas = json_array();
  for (int a = 0; a < ARB_DIAG_AREAS; a++) {
    arb_diag_estimate e;
    arb_diag_estimate_of(&s->d, (arb_diag_area)a, &e);
    json_t *missed = json_array();
    for (int i = 0; i < s->nmissed; i++) {
      if (s->missed_area[i] != a) continue;
      int dup = 0;
      for (size_t k = 0; k < json_array_size(missed); k++)
        dup |= !strcmp(json_string_value(json_array_get(missed, k)), s->missed[i]);
      if (!dup) json_array_append_new(missed, json_string(s->missed[i]));
    }
    json_t *o = json_pack("{s:s,s:i,s:i,s:i,s:i,s:o}", "area", arb_diag_area_name((arb_diag_area)a),
                          "rating", (int)(e.rating + 0.5), "rating_se", (int)(e.rating_se + 0.5),
                          "answered", e.answered, "right", e.right, "missed", missed);
    if (s->d.skipped & (1u << a)) json_object_set_new(o, "skipped", json_true());
    json_array_append_new(areas, o);
  }
  arb_diag_area w = arb_diag_weakest(&s->d);
  static const char *const advice[ARB_DIAG_AREAS] = {
      "Rules first: take the rules quiz, starting with the topics you missed.",
      "Tactics first: solve puzzles, starting with the themes you missed.",
      ("Endgames first: mate with king and queen, then king and rook, against the best defence "
       "until it comes without thinking — and learn the king and pawn endings.")};
  return json_pack("{s:o,s:s,s:s,s:i}", "areas", areas, "next", arb_diag_area_name(w), "advice",
                   advice[w], "asked", s->d.n);
}

/* ---- sessions ---- */

static tdiag *session_of(srv_diags *g, const char *id, int64_t now) {
  for (int i = 0; id && i < MAX_SESSIONS; i++)
    if (g->s[i].used && !strcmp(g->s[i].id, id)) {
      if (now - g->s[i].last_ms > SESSION_MS) {
        g->s[i].used = 0;
        return NULL;
      }
      g->s[i].last_ms = now;
      return &g->s[i];
    }
  return NULL;
}

static tdiag *session_new(srv_diags *g, int64_t now) {
  int k = 0;
  for (int i = 0; i < MAX_SESSIONS; i++) {
    if (!g->s[i].used) {
      k = i;
      break;
    }
    if (g->s[i].last_ms < g->s[k].last_ms) k = i;
  }
  tdiag *s = &g->s[k];
  memset(s, 0, sizeof *s);
  if (srv_new_token(s->id)) return NULL;
  s->used = 1;
  s->last_ms = now;
  memcpy(&s->seed, s->id, sizeof s->seed);
  arb_diag_init(&s->d);
  return s;
}

/* The next question (0), or the end (1). */
static int next_question(srv_trainer *t, tdiag *s) {
  for (;;) {
    arb_diag_area a = arb_diag_next_area(&s->d);
    if (a == ARB_DIAG_AREAS) return 1;
    int r = a == ARB_DIAG_ENDGAMES ? pick_endgame(t->diags, s) : pick_item(t, s, a);
    if (!r) {
      if (s->nasked < ARB_DIAG_MAX) s->asked[s->nasked++] = s->kind * 1000000L + s->index;
      return 0;
    }
    arb_diag_skip(&s->d, a); /* no items there (no quiz or puzzles loaded) */
  }
}

static void missed(tdiag *s, int area, const char *what) {
  if (s->nmissed >= ARB_DIAG_MAX) return;
  snprintf(s->missed[s->nmissed], sizeof s->missed[0], "%s", what);
  s->missed_area[s->nmissed++] = area;
}

/* Grades the answer to the question now: 1 right, 0 wrong, -1 a drill goes on, -2 bad input. */
static int grade(srv_trainer *t, tdiag *s, json_t *req, json_t *a, char **out) {
  json_t *given = json_object_get(req, "answer");
  const char *mv = json_string_value(json_object_get(req, "move"));
  if (!mv && json_is_string(given) && (s->kind == K_TACTIC || s->kind == K_DRILL))
    mv = json_string_value(given);
  if (s->kind == K_QUIZ) {
    const tquiz *q = &t->quiz[s->index];
    json_t *want = json_object_get(q->item, "answer");
    if (!given && mv) given = json_object_get(req, "move");
    if (!given) return srv_train_fail(out, 400, "bad_request", "\"answer\" is missing"), -2;
    int right =
        json_equal(given, want) || (json_is_string(given) && json_is_string(want) &&
                                    !strcasecmp(json_string_value(given), json_string_value(want)));
    json_object_set(a, "answer", want);
    json_object_set(a, "explanation", json_object_get(q->item, "explanation"));
    json_object_set(a, "articles", json_object_get(q->item, "articles"));
    if (!right) missed(s, ARB_DIAG_RULES, q->topic);
    return right;
  }
  if (s->kind == K_KPK) {
    const char *g = json_string_value(given);
    if (!g) return srv_train_fail(out, 400, "bad_request", "\"answer\" is missing"), -2;
    int right = !strcmp(g, s->kpk_win ? "White wins" : "Draw");
    arb_endgame_result r;
    arb_endgame_probe(t->diags->eg[EG_KPK], &s->pos, &r);
    char x[200], san[ARB_SAN_MAX] = "";
    if (r.nbest) arb_san_write(&s->pos, r.best[0], san, sizeof san);
    if (s->kpk_win)
      snprintf(x, sizeof x, "White wins: %s mates in %d with best play (the table's count).", san,
               r.dtm);
    else
      snprintf(x, sizeof x,
               "A draw: whatever White plays, Black holds (stops the pawn or is "
               "stalemated).");
    json_object_set_new(a, "answer", json_string(s->kpk_win ? "White wins" : "Draw"));
    json_object_set_new(a, "explanation", json_string(x));
    if (!right) missed(s, ARB_DIAG_ENDGAMES, "king and pawn: won or drawn");
    return right;
  }
  arb_move m;
  const arb_position *p = s->kind == K_TACTIC ? &t->puzzles[s->index].shown : &s->drill.pos;
  if (!mv || arb_uci_read(p, mv, strlen(mv), 0, &m) != ARB_OK)
    return srv_train_fail(out, 400, "bad_move", "\"move\": a legal move in UCI"), -2;
  if (s->kind == K_TACTIC) {
    const tpuzzle *q = &t->puzzles[s->index];
    int right = arb_puzzle_move_right(p, m, q->line[1], q->nline == 2, (arb_solve_goal)q->goal);
    char san[ARB_SAN_MAX], x[300];
    arb_san_write(p, q->line[1], san, sizeof san);
    snprintf(x, sizeof x, right ? "Right: %s." : "The move was %s.", san);
    json_object_set_new(a, "answer", json_string(q->p.moves[1]));
    json_object_set_new(a, "explanation", json_string(x));
    if (!right) {
      const char *th = arb_puzzle_kind_theme(&q->p);
      missed(s, ARB_DIAG_TACTICS, th);
    }
    return right;
  }
  arb_position before = s->drill.pos;
  if (arb_drill_move(&s->drill, t->diags->eg[s->table], m) != ARB_OK)
    return srv_train_fail(out, 400, "bad_move", "not a legal move here"), -2;
  if (s->drill.state == ARB_DRILL_ON) {
    char u[8];
    arb_position after = before;
    arb_undo un;
    arb_make_move(&after, m, &un);
    arb_uci_write(&after, s->drill.last_reply, u, sizeof u);
    json_object_set_new(a, "reply", json_string(u));
    json_object_set_new(a, "board", board_json(&s->drill.pos, 1));
    json_object_set_new(a, "moves_left",
                        json_integer(s->drill.moves_allowed - s->drill.moves_made));
    return -1;
  }
  int right = s->drill.state == ARB_DRILL_MATED;
  char x[200];
  snprintf(x, sizeof x, "%s",
           right ? "Mate."
           : s->drill.state == ARB_DRILL_DRAWN
               ? "The win is gone: that move stalemates, or lets the piece go."
               : "Too slow: the moves allowed are used up.");
  json_object_set_new(a, "explanation", json_string(x));
  json_object_set_new(a, "board", board_json(&s->drill.pos, 0));
  if (!right)
    missed(s, ARB_DIAG_ENDGAMES,
           s->table == EG_KQK ? "mate with king and queen" : "mate with king and rook");
  return right;
}

int srv_train_diagnostic(srv_trainer *t, const char *path, json_t *req, int64_t now, char **out) {
  srv_diags *g = t->diags;
  if (!g) return srv_train_fail(out, 503, "no_memory", "out of memory");
  for (int i = 0; i < EG_COUNT; i++)
    if (!g->eg[i] && !(g->eg[i] = arb_endgame_new(eg_names[i], NULL)))
      return srv_train_fail(out, 503, "no_memory", "the endgame tables could not be built");
  if (!strcmp(path, "/api/train/diagnostic/start")) {
    tdiag *s = session_new(g, now);
    if (!s) return srv_train_fail(out, 500, "no_randomness", "no randomness");
    next_question(t, s);
    *out = srv_train_dump(
        json_pack("{s:s,s:o,s:i}", "id", s->id, "item", item_json(t, s), "max", ARB_DIAG_MAX));
    return 201;
  }
  if (strcmp(path, "/api/train/diagnostic/answer"))
    return srv_train_fail(out, 404, "not_found", "no such diagnostic resource");
  tdiag *s = session_of(g, json_string_value(json_object_get(req, "id")), now);
  if (!s)
    return srv_train_fail(out, 404, "no_diagnostic", "no diagnostic with this id (start one)");
  if (arb_diag_done(&s->d))
    return srv_train_fail(out, 409, "finished", "this diagnostic is over: its report is final");
  json_t *a = json_object();
  int right = grade(t, s, req, a, out);
  if (right == -2) {
    json_decref(a);
    return 400;
  }
  if (right >= 0) {
    arb_diag_area area = s->kind == K_QUIZ     ? ARB_DIAG_RULES
                         : s->kind == K_TACTIC ? ARB_DIAG_TACTICS
                                               : ARB_DIAG_ENDGAMES;
    arb_diag_answer(&s->d, area, s->irt, right);
    json_object_set_new(a, "right", json_boolean(right));
    if (next_question(t, s))
      json_object_set_new(a, "report", report_json(s));
    else
      json_object_set_new(a, "item", item_json(t, s));
  }
  *out = srv_train_dump(a);
  return 200;
}
