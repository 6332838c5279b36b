/* Arbiter — MIT licence, see LICENSE.
 *
 * train.c: the trainer's HTTP API (train.h).
 *
 *   POST /api/train/learner                 a new anonymous learner: {"token","link"}
 *   GET  /api/train/state                   the learner's ratings, figures per theme, reviews
 *   GET  /api/train/puzzle/next?theme=&difficulty=&mode=normal|winordraw|review
 *   POST /api/train/puzzle/move {"id","moves":[the learner's moves so far]}
 *   POST /api/train/puzzle/hint {"id","moves"}
 *   POST /api/train/puzzle/solution {"id","moves"}   giving up: the rest of the line, a miss
 *   GET  /api/train/quiz/next?topic=&mode=normal|review
 *   POST /api/train/quiz/answer {"id","answer"}
 *   POST /api/train/review {"pgn"}                 the rule mistakes of played games
 *   POST /api/train/diagnostic/start, /answer      the diagnostic (train_diag.c)
 *
 * The learner's token comes in the X-Learner header; without one, puzzles and the quiz are
 * served and checked but nothing is rated or remembered.
 */
#define _POSIX_C_SOURCE 200809L
#include "train.h"
#include "train_internal.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arbiter/arbiter.h"
#include "audit_json.h"
#include "protocol.h"
#include "strhash.h"
#include "token.h"

#define MAX_LEARNERS 20000    /* kept in memory; the oldest unused go first */
#define EXPLAIN_BUDGET 200000 /* nodes to find why a wrong move fails */

typedef struct tattempt {
  int kind, index, right, rated;
  int64_t t;
} tattempt;

typedef struct treview {
  int kind, index;
  arb_review r;
} treview;

typedef struct tlearner {
  srv_learner_row row;
  uint8_t *seen[2];
  tattempt *att;
  size_t natt, catt;
  treview *rev;
  size_t nrev, crev;
  /* the puzzle under way: failed already, a hint taken */
  int cur, cur_failed, cur_hinted, cur_done;
  int64_t used_ms;
  struct tlearner *next;
} tlearner;

/* ---- loading ---- */

static int load_puzzles(srv_trainer *t, const char *path) {
  FILE *f = path ? fopen(path, "r") : NULL;
  if (!f) return 0;
  char line[4096], err[160];
  long cap = 0;
  while (fgets(line, sizeof line, f)) {
    arb_puzzle p;
    if (arb_puzzle_csv_read(line, strlen(line), &p, err, sizeof err) != ARB_OK) continue;
    tpuzzle q;
    memset(&q, 0, sizeof q);
    q.p = p;
    if (arb_fen_read(&q.start, p.fen, 0, NULL) != ARB_OK) continue;
    arb_position pos = q.start;
    int ok = 1;
    for (int i = 0; i < p.nmoves && ok; i++) {
      if (arb_uci_read(&pos, p.moves[i], strlen(p.moves[i]), 0, &q.line[i]) != ARB_OK) {
        ok = 0;
        break;
      }
      arb_undo u;
      arb_make_move(&pos, q.line[i], &u);
      if (i == 0) q.shown = pos;
    }
    if (!ok) continue;
    q.nline = p.nmoves;
    q.goal = arb_in_check(&pos) && !arb_has_legal_move(&pos) ? ARB_SOLVE_MATE : ARB_SOLVE_DRAW;
    q.winordraw =
        arb_puzzle_has_theme(&p, "stalemateTrap") || arb_puzzle_has_theme(&p, "stalemateRescue");
    q.g = (arb_glicko){p.rating, p.rating_deviation > 0 ? p.rating_deviation : 500, 0.09};
    if (t->npuzzles == cap) {
      cap = cap ? cap * 2 : 1024;
      tpuzzle *n = realloc(t->puzzles, (size_t)cap * sizeof *n);
      if (!n) break;
      t->puzzles = n;
    }
    t->puzzles[t->npuzzles++] = q;
  }
  fclose(f);
  return 0;
}

static void load_quiz(srv_trainer *t, const char *path) {
  FILE *f = path ? fopen(path, "r") : NULL;
  if (!f) return;
  char *line = NULL;
  size_t lcap = 0;
  long cap = 0;
  while (getline(&line, &lcap, f) > 0) {
    json_t *j = json_loads(line, 0, NULL);
    const char *id = json_string_value(json_object_get(j, "id"));
    if (!json_is_object(j) || !id || !json_object_get(j, "answer")) {
      json_decref(j);
      continue;
    }
    tquiz q;
    memset(&q, 0, sizeof q);
    snprintf(q.id, sizeof q.id, "%s", id);
    const char *topic = json_string_value(json_object_get(j, "topic"));
    snprintf(q.topic, sizeof q.topic, "%s", topic ? topic : "");
    q.item = j;
    q.shown = json_deep_copy(j);
    json_object_del(q.shown, "answer");
    json_object_del(q.shown, "explanation");
    const char *fen = json_string_value(json_object_get(j, "fen"));
    arb_position pos;
    if (fen && arb_fen_read(&pos, fen, 0, NULL) == ARB_OK) { /* a board to move on */
      json_object_set_new(q.shown, "dests", srv_train_dests(&pos));
      json_object_set_new(q.shown, "color", json_string(pos.turn == ARB_WHITE ? "white" : "black"));
      if (arb_in_check(&pos)) json_object_set_new(q.shown, "check", json_true());
    }
    json_t *d = json_object_get(j, "difficulty");
    double level = json_is_number(d) ? json_number_value(d) : 2;
    q.g = (arb_glicko){900 + 250 * level, 350, 0.09};
    if (t->nquiz == cap) {
      cap = cap ? cap * 2 : 512;
      tquiz *n = realloc(t->quiz, (size_t)cap * sizeof *n);
      if (!n) {
        json_decref(q.item);
        json_decref(q.shown);
        break;
      }
      t->quiz = n;
    }
    t->quiz[t->nquiz++] = q;
  }
  free(line);
  fclose(f);
}

static int index_items(srv_trainer *t, int kind);
static int item_rating(void *ctx, int kind, const char *item, double rating, double rd, double vol);

srv_trainer *srv_trainer_new(srv_store *store, const char *puzzles_csv, const char *quiz_jsonl,
                             long *npuzzles, long *nquiz) {
  srv_trainer *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->store = store;
  t->nbuckets = 4096;
  t->buckets = calloc(t->nbuckets, sizeof *t->buckets);
  t->solver = arb_solver_new(4 << 20);
  t->diags = srv_diags_new();
  load_puzzles(t, puzzles_csv);
  load_quiz(t, quiz_jsonl);
  long most = t->npuzzles > t->nquiz ? t->npuzzles : t->nquiz;
  t->sel = calloc((size_t)(most ? most : 1), sizeof *t->sel);
  if (!t->buckets || !t->solver || !t->sel || index_items(t, 0) || index_items(t, 1)) {
    srv_trainer_free(t);
    return NULL;
  }
  if (store) srv_store_each_item_rating(store, item_rating, t);
  if (npuzzles) *npuzzles = t->npuzzles;
  if (nquiz) *nquiz = t->nquiz;
  return t;
}

static void learner_free(tlearner *l) {
  free(l->seen[0]);
  free(l->seen[1]);
  free(l->att);
  free(l->rev);
  free(l);
}

void srv_trainer_free(srv_trainer *t) {
  if (!t) return;
  for (size_t i = 0; t->buckets && i < t->nbuckets; i++)
    for (tlearner *l = t->buckets[i], *n; l; l = n) {
      n = l->next;
      learner_free(l);
    }
  for (long i = 0; i < t->nquiz; i++) {
    json_decref(t->quiz[i].item);
    json_decref(t->quiz[i].shown);
  }
  free(t->buckets);
  free(t->puzzles);
  free(t->quiz);
  free(t->sel);
  arb_solver_free(t->solver);
  srv_diags_free(t->diags);
  free(t->index[0]);
  free(t->index[1]);
  free(t);
}

/* ---- learners ---- */

static size_t bucket_of(const srv_trainer *t, const uint8_t *h) {
  uint64_t k;
  memcpy(&k, h, sizeof k);
  return (size_t)(k & (t->nbuckets - 1));
}

static const char *item_id(const srv_trainer *t, int kind, long i) {
  return kind ? t->quiz[i].id : t->puzzles[i].p.id;
}

static uint64_t id_hash(const char *id) { return srv_strhash(id); }

/* An open-addressing index of the items by id (twice their number, a power of two). */
static int index_items(srv_trainer *t, int kind) {
  long n = kind ? t->nquiz : t->npuzzles;
  size_t cap = 16;
  while (cap < 2 * (size_t)n)
    cap *= 2;
  long *ix = malloc(cap * sizeof *ix);
  if (!ix) return -1;
  for (size_t i = 0; i < cap; i++)
    ix[i] = -1;
  for (long i = 0; i < n; i++) {
    size_t h = (size_t)id_hash(item_id(t, kind, i)) & (cap - 1);
    while (ix[h] >= 0)
      h = (h + 1) & (cap - 1);
    ix[h] = i;
  }
  t->index[kind] = ix;
  t->index_cap[kind] = cap;
  return 0;
}

static long find_item(const srv_trainer *t, int kind, const char *id) {
  const long *ix = t->index[kind];
  size_t cap = t->index_cap[kind];
  if (!ix || !id) return -1;
  for (size_t h = (size_t)id_hash(id) & (cap - 1); ix[h] >= 0; h = (h + 1) & (cap - 1))
    if (!strcmp(item_id(t, kind, ix[h]), id)) return ix[h];
  return -1;
}

/* The items' ratings as the attempts left them (what a restart would otherwise forget). */
static int item_rating(void *ctx, int kind, const char *item, double rating, double rd,
                       double vol) {
  srv_trainer *t = ctx;
  long i = (kind == 0 || kind == 1) ? find_item(t, kind, item) : -1;
  if (i < 0) return 0; /* an item no longer in the bank */
  arb_glicko g = {rating, rd, vol};
  if (kind)
    t->quiz[i].g = g;
  else
    t->puzzles[i].g = g;
  return 0;
}

static treview *review_of(tlearner *l, int kind, int index, int make) {
  for (size_t i = 0; i < l->nrev; i++)
    if (l->rev[i].kind == kind && l->rev[i].index == index) return &l->rev[i];
  if (!make) return NULL;
  if (l->nrev == l->crev) {
    size_t cap = l->crev ? l->crev * 2 : 16;
    treview *n = realloc(l->rev, cap * sizeof *n);
    if (!n) return NULL;
    l->rev = n;
    l->crev = cap;
  }
  treview *r = &l->rev[l->nrev++];
  memset(r, 0, sizeof *r);
  r->kind = kind;
  r->index = index;
  return r;
}

static void add_attempt(tlearner *l, int kind, int index, int right, int rated, int64_t t) {
  if (l->natt == l->catt) {
    size_t cap = l->catt ? l->catt * 2 : 32;
    tattempt *n = realloc(l->att, cap * sizeof *n);
    if (!n) return;
    l->att = n;
    l->catt = cap;
  }
  l->att[l->natt++] = (tattempt){kind, index, right, rated, t};
  if (l->seen[kind]) l->seen[kind][index / 8] |= (uint8_t)(1u << (index % 8));
}

typedef struct replay_ctx {
  srv_trainer *t;
  tlearner *l;
} replay_ctx;

static int replay_attempt(void *ctx, const srv_attempt_row *a) {
  replay_ctx *c = ctx;
  long i = find_item(c->t, a->kind, a->item);
  if (i < 0 || a->kind < 0 || a->kind > 1) return 0; /* an item no longer in the bank */
  add_attempt(c->l, a->kind, (int)i, a->right, a->rated, a->t);
  treview *r = review_of(c->l, a->kind, (int)i, 1);
  if (r) r->r = (arb_review){a->box, a->streak, a->due_ms, a->t};
  return 0;
}

static int seen(const tlearner *l, int kind, long i) {
  return l && l->seen[kind] && (l->seen[kind][i / 8] >> (i % 8) & 1);
}

/* The learner of a token: in memory, or read from the store; NULL for a token that is none. */
static tlearner *learner_of(srv_trainer *t, const char *token, int64_t now) {
  if (!token || strlen(token) != SRV_TOKEN_LEN) return NULL;
  uint8_t h[SRV_SHA256_BYTES];
  srv_token_hash(token, SRV_TOKEN_LEN, h);
  for (tlearner *l = t->buckets[bucket_of(t, h)]; l; l = l->next)
    if (srv_hash_equal(l->row.hash, h)) {
      l->used_ms = now;
      return l;
    }
  srv_learner_row row;
  if (srv_store_get_learner(t->store, h, &row) != 1) return NULL;
  if (t->nlearners >= MAX_LEARNERS) { /* forget the least recently used */
    tlearner **oldest = NULL;
    for (size_t b = 0; b < t->nbuckets; b++)
      for (tlearner **p = &t->buckets[b]; *p; p = &(*p)->next)
        if (!oldest || (*p)->used_ms < (*oldest)->used_ms) oldest = p;
    if (oldest) {
      tlearner *gone = *oldest;
      *oldest = gone->next;
      learner_free(gone);
      t->nlearners--;
    }
  }
  tlearner *l = calloc(1, sizeof *l);
  if (!l) return NULL;
  l->row = row;
  l->cur = -1;
  l->seen[0] = calloc((size_t)t->npuzzles / 8 + 1, 1);
  l->seen[1] = calloc((size_t)t->nquiz / 8 + 1, 1);
  replay_ctx c = {t, l};
  srv_store_each_attempt(t->store, h, replay_attempt, &c);
  l->used_ms = now;
  size_t b = bucket_of(t, h);
  l->next = t->buckets[b];
  t->buckets[b] = l;
  t->nlearners++;
  return l;
}

/* ---- answers ---- */

char *srv_train_dump(json_t *j) {
  char *s = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  return s;
}

int srv_train_fail(char **out, int status, const char *code, const char *message) {
  *out = srv_write_http_error(code, message);
  return status;
}

json_t *srv_train_dests(const arb_position *p) {
  char *d = srv_write_dests(p);
  json_t *j = d ? json_loads(d, 0, NULL) : NULL;
  free(d);
  json_t *inner = json_incref(json_object_get(j, "dests"));
  json_decref(j);
  return inner ? inner : json_object();
}

static json_t *glicko_json(double rating, double rd) {
  return json_pack("{s:i,s:i,s:b}", "rating", (int)(rating + 0.5), "rd", (int)(rd + 0.5),
                   "provisional", rd >= ARB_GLICKO_PROVISIONAL_RD);
}

static const char *query_get(const char *query, const char *key, char *buf, size_t size) {
  size_t n = strlen(key);
  for (const char *p = query; p && *p;) {
    const char *amp = strchr(p, '&');
    size_t len = amp ? (size_t)(amp - p) : strlen(p);
    if (len > n && !strncmp(p, key, n) && p[n] == '=') {
      size_t v = len - n - 1 < size - 1 ? len - n - 1 : size - 1;
      memcpy(buf, p + n + 1, v);
      buf[v] = 0;
      return buf;
    }
    p = amp ? amp + 1 : NULL;
  }
  return NULL;
}

static arb_difficulty difficulty_of(const char *s) {
  if (!s) return ARB_DIFFICULTY_NORMAL;
  if (!strcmp(s, "easiest")) return ARB_DIFFICULTY_EASIEST;
  if (!strcmp(s, "easier")) return ARB_DIFFICULTY_EASIER;
  if (!strcmp(s, "harder")) return ARB_DIFFICULTY_HARDER;
  if (!strcmp(s, "hardest")) return ARB_DIFFICULTY_HARDEST;
  return ARB_DIFFICULTY_NORMAL;
}

static int next_puzzle(srv_trainer *t, tlearner *l, const char *query, int64_t now, char **out) {
  if (!t->npuzzles)
    return srv_train_fail(out, 503, "no_puzzles", "this server has no puzzles loaded");
  char theme[64] = "", mode[16] = "normal", diff[16] = "";
  query_get(query, "theme", theme, sizeof theme);
  query_get(query, "mode", mode, sizeof mode);
  query_get(query, "difficulty", diff, sizeof diff);
  int wod = !strcmp(mode, "winordraw"), review = !strcmp(mode, "review");
  if (strcmp(mode, "normal") && !wod && !review)
    return srv_train_fail(out, 400, "bad_request", "mode is normal, winordraw or review");
  double rating = l ? l->row.rating[0] : ARB_GLICKO_RATING;
  double target = arb_select_target(rating, difficulty_of(diff[0] ? diff : NULL));
  int any = 0;
  for (long i = 0; i < t->npuzzles; i++) {
    const tpuzzle *q = &t->puzzles[i];
    treview *r = l ? review_of(l, 0, (int)i, 0) : NULL;
    int due = r && arb_review_due(&r->r, now);
    int ok = (!theme[0] || arb_puzzle_has_theme(&q->p, theme)) && (!wod || q->winordraw);
    if (review) ok = ok && due;
    /* in review, the due ones are the whole choice; otherwise a due one comes first */
    t->sel[i] = review ? (arb_select_item){q->g.rating, 0, 0, ok}
                       : (arb_select_item){q->g.rating, seen(l, 0, i), due && ok, ok};
    any |= ok;
  }
  if (!any && review) { /* not an error: nothing missed is due yet */
    *out =
        srv_train_dump(json_pack("{s:b,s:s}", "none", 1, "message", "nothing is due for review"));
    return 200;
  }
  if (!any) return srv_train_fail(out, 404, "none", "no puzzle has that theme");
  int k = arb_select_next(t->sel, (int)t->npuzzles, target, l ? (uint64_t)l->row.created_ms : 0);
  if (k < 0) return srv_train_fail(out, 404, "none", "no puzzle fits");
  const tpuzzle *q = &t->puzzles[k];
  if (l) {
    l->cur = k;
    l->cur_failed = l->cur_hinted = l->cur_done = 0;
  }
  char fen[ARB_FEN_MAX], shown[ARB_FEN_MAX], san[ARB_SAN_MAX];
  arb_fen_write(&q->start, fen, sizeof fen, 0);
  arb_fen_write(&q->shown, shown, sizeof shown, 0);
  arb_san_write(&q->start, q->line[0], san, sizeof san);
  json_t *a = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:i,s:i}", "id", q->p.id, "fen", fen,
                        "opponent_move", q->p.moves[0], "opponent_san", san, "fen_shown", shown,
                        "color", q->shown.turn == ARB_WHITE ? "white" : "black", "rating",
                        (int)(q->g.rating + 0.5), "moves", q->nline / 2);
  json_object_set_new(a, "dests", srv_train_dests(&q->shown));
  json_object_set_new(a, "mode", json_string(mode));
  if (!wod) { /* in "win or draw?" the goal is the question */
    json_object_set_new(a, "goal", json_string(q->goal == ARB_SOLVE_MATE ? "mate" : "draw"));
    json_object_set_new(a, "themes", json_string(q->p.themes));
  }
  if (q->p.game_url[0]) json_object_set_new(a, "game", json_string(q->p.game_url));
  *out = srv_train_dump(a);
  return 200;
}

/* The puzzle's answer with its rating change, written through the store. */
static uint64_t finish_puzzle(srv_trainer *t, tlearner *l, int k, int right, int64_t now, json_t *a,
                              const char *theme_angle, int unrated) {
  tpuzzle *q = &t->puzzles[k];
  int first = !seen(l, 0, k);
  int rated = first && !l->cur_hinted && !unrated;
  arb_glicko before = {l->row.rating[0], l->row.rd[0], l->row.volatility[0]}, after = before;
  if (rated) {
    arb_puzzle_rate(&after, &q->g, right, arb_puzzle_theme_kind(theme_angle));
    l->row.rating[0] = after.rating;
    l->row.rd[0] = after.rd;
    l->row.volatility[0] = after.volatility;
  }
  json_object_set_new(a, "rating",
                      json_pack("{s:i,s:i,s:b}", "before", (int)(before.rating + 0.5), "after",
                                (int)(after.rating + 0.5), "rated", rated));
  add_attempt(l, 0, k, right, rated, now);
  treview *r = review_of(l, 0, k, 1);
  if (r) arb_review_answer(&r->r, right, now);
  srv_attempt_row row;
  memset(&row, 0, sizeof row);
  memcpy(row.learner, l->row.hash, SRV_SHA256_BYTES);
  row.kind = 0;
  snprintf(row.item, sizeof row.item, "%s", q->p.id);
  row.right = right;
  row.rated = rated;
  row.t = now;
  snprintf(row.themes, sizeof row.themes, "%.127s", q->p.themes);
  if (r) row.box = r->r.box, row.streak = r->r.streak, row.due_ms = r->r.due_ms;
  if (rated)
    row.item_rated = 1, row.item_rating = q->g.rating, row.item_rd = q->g.rd,
    row.item_vol = q->g.volatility;
  srv_store_put_attempt(t->store, &row);
  return srv_store_put_learner(t->store, &l->row);
}

static json_t *line_json(const arb_position *from, const arb_move *m, int n, int san) {
  json_t *j = json_array();
  arb_position p = *from;
  for (int i = 0; i < n; i++) {
    char s[ARB_SAN_MAX > 8 ? ARB_SAN_MAX : 8];
    if (san)
      arb_san_write(&p, m[i], s, sizeof s);
    else
      arb_uci_write(&p, m[i], s, sizeof s);
    json_array_append_new(j, json_string(s));
    arb_undo u;
    arb_make_move(&p, m[i], &u);
  }
  return j;
}

static int puzzle_move(srv_trainer *t, tlearner *l, json_t *req, int hint, int64_t now, char **out,
                       uint64_t *ticket) {
  const char *id = json_string_value(json_object_get(req, "id"));
  json_t *moves = json_object_get(req, "moves");
  long k = id ? find_item(t, 0, id) : -1;
  if (k < 0) return srv_train_fail(out, 404, "no_puzzle", "no puzzle with this id");
  if (moves && !json_is_array(moves))
    return srv_train_fail(out, 400, "bad_request", "\"moves\" is an array of the learner's moves");
  const char *angle = json_string_value(json_object_get(req, "theme"));
  /* a run (streak, storm) is not rated, as on lichess: "rated": false */
  int unrated = json_is_false(json_object_get(req, "rated"));
  tpuzzle *q = &t->puzzles[k];
  int nm = moves ? (int)json_array_size(moves) : 0, solver_moves = q->nline / 2;
  if (nm > solver_moves || (!hint && nm == 0) || (hint && nm == solver_moves))
    return srv_train_fail(out, 400, "bad_request",
                          "\"moves\": the learner's moves so far, at least one");
  arb_position p = q->shown;
  if (l && l->cur != k) { /* a puzzle taken up again (another tab, a reload) */
    l->cur = (int)k;
    l->cur_failed = l->cur_hinted = l->cur_done = 0;
  }
  /* the moves before the last must be the line's (or, on the last move, any that ends it) */
  for (int i = 0; i < nm; i++) {
    const char *text = json_string_value(json_array_get(moves, (size_t)i));
    arb_move m;
    int last = i == nm - 1;
    if (!text || arb_uci_read(&p, text, strlen(text), 0, &m) != ARB_OK) {
      if (!last || hint)
        return srv_train_fail(out, 400, "bad_move", "a move of \"moves\" does not read here");
      arb_move_explanation e;
      arb_move_explain_uci(&p, text ? text : "", text ? strlen(text) : 0, &e);
      json_t *a = json_pack("{s:b,s:b,s:s,s:s,s:s}", "correct", 0, "legal", 0, "reason",
                            arb_illegal_name(e.reason) ? arb_illegal_name(e.reason) : "", "article",
                            e.article ? e.article : "", "message", e.message);
      *out = srv_train_dump(a);
      return 200;
    }
    int ply = 1 + 2 * i, final = ply == q->nline - 1;
    int right = arb_puzzle_move_right(&p, m, q->line[ply], final, (arb_solve_goal)q->goal);
    if (!right && (!last || hint))
      return srv_train_fail(out, 400, "bad_move",
                            "the moves before the last do not follow the puzzle");
    if (!right) { /* a wrong move: explained, the solution shown, rated as failed */
      char msg[256];
      arb_puzzle_why_wrong(t->solver, &p, m, (arb_solve_goal)q->goal, solver_moves - i,
                           EXPLAIN_BUDGET, msg, sizeof msg);
      json_t *a =
          json_pack("{s:b,s:b,s:b,s:s}", "correct", 0, "legal", 1, "done", 1, "message", msg);
      json_object_set_new(a, "solution", line_json(&p, q->line + ply, q->nline - ply, 0));
      json_object_set_new(a, "solution_san", line_json(&p, q->line + ply, q->nline - ply, 1));
      json_object_set_new(a, "goal", json_string(q->goal == ARB_SOLVE_MATE ? "mate" : "draw"));
      json_object_set_new(a, "themes", json_string(q->p.themes));
      if (l && !l->cur_failed && !l->cur_done) {
        l->cur_failed = 1;
        *ticket = finish_puzzle(t, l, (int)k, 0, now, a, angle, unrated);
      }
      *out = srv_train_dump(a);
      return 200;
    }
    arb_undo u;
    arb_make_move(&p, m, &u);
    if (final) {
      json_t *a = json_pack("{s:b,s:b,s:b}", "correct", 1, "legal", 1, "done", 1);
      json_object_set_new(a, "goal", json_string(q->goal == ARB_SOLVE_MATE ? "mate" : "draw"));
      json_object_set_new(a, "themes", json_string(q->p.themes));
      char fen[ARB_FEN_MAX];
      arb_fen_write(&p, fen, sizeof fen, 0);
      json_object_set_new(a, "fen", json_string(fen));
      if (l && !l->cur_failed && !l->cur_done) {
        *ticket = finish_puzzle(t, l, (int)k, 1, now, a, angle, unrated);
        l->cur_done = 1;
      }
      *out = srv_train_dump(a);
      return 200;
    }
    if (last && !hint) { /* right: the opponent's answer */
      arb_move reply = q->line[ply + 1];
      char uci[8], san[ARB_SAN_MAX], fen[ARB_FEN_MAX];
      arb_uci_write(&p, reply, uci, sizeof uci);
      arb_san_write(&p, reply, san, sizeof san);
      arb_make_move(&p, reply, &u);
      arb_fen_write(&p, fen, sizeof fen, 0);
      json_t *a = json_pack("{s:b,s:b,s:b,s:s,s:s,s:s}", "correct", 1, "legal", 1, "done", 0,
                            "reply", uci, "reply_san", san, "fen", fen);
      json_object_set_new(a, "dests", srv_train_dests(&p));
      *out = srv_train_dump(a);
      return 200;
    }
    arb_make_move(&p, q->line[ply + 1], &u);
  }
  if (hint == 2) { /* given up: the rest of the line, rated as a miss */
    int ply = 1 + 2 * nm;
    json_t *a = json_pack("{s:b,s:b,s:b,s:s}", "correct", 0, "legal", 1, "done", 1, "message",
                          "the solution, shown: rated as a miss");
    json_object_set_new(a, "solution", line_json(&p, q->line + ply, q->nline - ply, 0));
    json_object_set_new(a, "solution_san", line_json(&p, q->line + ply, q->nline - ply, 1));
    json_object_set_new(a, "goal", json_string(q->goal == ARB_SOLVE_MATE ? "mate" : "draw"));
    json_object_set_new(a, "themes", json_string(q->p.themes));
    if (l && !l->cur_failed && !l->cur_done) {
      l->cur_failed = 1;
      *ticket = finish_puzzle(t, l, (int)k, 0, now, a, angle, unrated);
    }
    *out = srv_train_dump(a);
    return 200;
  }
  /* a hint: the square of the piece to move next (the attempt is no longer rated) */
  arb_move next = q->line[1 + 2 * nm];
  if (l) l->cur_hinted = 1;
  char sq[3] = {(char)('a' + ARB_MOVE_FROM(next) % 8), (char)('1' + ARB_MOVE_FROM(next) / 8), 0};
  *out = srv_train_dump(json_pack("{s:s,s:b}", "square", sq, "rated", 0));
  return 200;
}

/* ---- the quiz ---- */

static int next_quiz(srv_trainer *t, tlearner *l, const char *query, int64_t now, char **out) {
  if (!t->nquiz) return srv_train_fail(out, 503, "no_quiz", "this server has no quiz loaded");
  char topic[64] = "", mode[16] = "normal";
  query_get(query, "topic", topic, sizeof topic);
  query_get(query, "mode", mode, sizeof mode);
  int review = !strcmp(mode, "review");
  double rating = l ? l->row.rating[1] : ARB_GLICKO_RATING;
  int any = 0;
  for (long i = 0; i < t->nquiz; i++) {
    treview *r = l ? review_of(l, 1, (int)i, 0) : NULL;
    int due = r && arb_review_due(&r->r, now);
    int ok = (!topic[0] || !strcmp(t->quiz[i].topic, topic)) && (!review || due);
    t->sel[i] =
        (arb_select_item){t->quiz[i].g.rating, review ? 0 : seen(l, 1, i), review ? 0 : due, ok};
    any |= ok;
  }
  if (!any && review) { /* not an error: nothing missed is due yet */
    *out =
        srv_train_dump(json_pack("{s:b,s:s}", "none", 1, "message", "nothing is due for review"));
    return 200;
  }
  if (!any) return srv_train_fail(out, 404, "none", "no item has that topic");
  int k = arb_select_next(t->sel, (int)t->nquiz, rating,
                          l ? (uint64_t)l->row.created_ms + (uint64_t)l->natt : (uint64_t)now);
  if (k < 0) return srv_train_fail(out, 404, "none", "no item fits");
  *out = srv_train_dump(json_deep_copy(t->quiz[k].shown));
  return 200;
}

static int quiz_answer(srv_trainer *t, tlearner *l, json_t *req, int64_t now, char **out,
                       uint64_t *ticket) {
  const char *id = json_string_value(json_object_get(req, "id"));
  json_t *given = json_object_get(req, "answer");
  long k = id ? find_item(t, 1, id) : -1;
  if (k < 0) return srv_train_fail(out, 404, "no_item", "no quiz item with this id");
  if (!given) return srv_train_fail(out, 400, "bad_request", "\"answer\" is missing");
  tquiz *q = &t->quiz[k];
  json_t *want = json_object_get(q->item, "answer");
  int right = json_equal(given, want);
  if (!right && json_is_string(given) && json_is_string(want)) /* moves: UCI either case */
    right = !strcasecmp(json_string_value(given), json_string_value(want));
  json_t *a = json_pack("{s:b,s:O}", "right", right, "answer", want);
  json_t *v;
  if ((v = json_object_get(q->item, "explanation"))) json_object_set(a, "explanation", v);
  if ((v = json_object_get(q->item, "articles"))) json_object_set(a, "articles", v);
  if (l) {
    int first = !seen(l, 1, k);
    arb_glicko before = {l->row.rating[1], l->row.rd[1], l->row.volatility[1]}, after = before;
    if (first) {
      double s = right ? 1.0 : 0.0, qs = 1.0 - s;
      arb_glicko item0 = q->g;
      arb_glicko_update(&after, &item0, &s, 1, ARB_GLICKO_TAU);
      arb_glicko_update(&q->g, &before, &qs, 1, ARB_GLICKO_TAU);
      arb_glicko_clamp(&after, &before);
      arb_glicko_clamp(&q->g, &item0);
      l->row.rating[1] = after.rating;
      l->row.rd[1] = after.rd;
      l->row.volatility[1] = after.volatility;
    }
    json_object_set_new(a, "rating",
                        json_pack("{s:i,s:i,s:b}", "before", (int)(before.rating + 0.5), "after",
                                  (int)(after.rating + 0.5), "rated", first));
    add_attempt(l, 1, (int)k, right, first, now);
    treview *r = review_of(l, 1, (int)k, 1);
    if (r) arb_review_answer(&r->r, right, now);
    srv_attempt_row row;
    memset(&row, 0, sizeof row);
    memcpy(row.learner, l->row.hash, SRV_SHA256_BYTES);
    row.kind = 1;
    snprintf(row.item, sizeof row.item, "%.31s", q->id);
    row.right = right;
    row.rated = first;
    row.t = now;
    snprintf(row.themes, sizeof row.themes, "%s", q->topic);
    if (r) row.box = r->r.box, row.streak = r->r.streak, row.due_ms = r->r.due_ms;
    if (first)
      row.item_rated = 1, row.item_rating = q->g.rating, row.item_rd = q->g.rd,
      row.item_vol = q->g.volatility;
    srv_store_put_attempt(t->store, &row);
    *ticket = srv_store_put_learner(t->store, &l->row);
  }
  *out = srv_train_dump(a);
  return 200;
}

/* ---- the learner's figures ---- */

/* lichess's Dashboard: per theme, first attempts' wins against plays, performance =
 * average puzzle rating - 500 + 1000 * first wins / plays; weak when failed >= 3 and below the
 * learner's overall performance, strong when won >= 3 and above it.  Length, mate-length and
 * goal themes say nothing of a weakness and are left out. */
static int theme_counts(const char *theme) {
  static const char *const skip[] = {"oneMove",  "short",     "long",     "veryLong", "mate",
                                     "equality", "advantage", "crushing", "master"};
  for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
    if (!strcmp(theme, skip[i])) return 0;
  return strncmp(theme, "mateIn", 6) != 0;
}

/* The quiz's topics in the bank's order, with the items of each and the learner's first answers:
 * [{"topic","items","answered","right"}]. */
static json_t *quiz_topics(const srv_trainer *t, const tlearner *l) {
  json_t *a = json_array();
  for (long i = 0; i < t->nquiz; i++) {
    size_t j = 0, n = json_array_size(a);
    while (j < n && strcmp(json_string_value(json_object_get(json_array_get(a, j), "topic")),
                           t->quiz[i].topic))
      j++;
    if (j == n)
      json_array_append_new(a, json_pack("{s:s,s:i,s:i,s:i}", "topic", t->quiz[i].topic, "items", 0,
                                         "answered", 0, "right", 0));
    json_t *o = json_array_get(a, j);
    json_object_set_new(o, "items",
                        json_integer(json_integer_value(json_object_get(o, "items")) + 1));
  }
  for (size_t i = 0; l && i < l->natt; i++) {
    const tattempt *at = &l->att[i];
    if (at->kind != 1 || !at->rated || at->index >= t->nquiz) continue;
    for (size_t j = 0; j < json_array_size(a); j++) {
      json_t *o = json_array_get(a, j);
      if (strcmp(json_string_value(json_object_get(o, "topic")), t->quiz[at->index].topic))
        continue;
      json_object_set_new(o, "answered",
                          json_integer(json_integer_value(json_object_get(o, "answered")) + 1));
      json_object_set_new(
          o, "right", json_integer(json_integer_value(json_object_get(o, "right")) + at->right));
    }
  }
  return a;
}

static int learner_state(srv_trainer *t, tlearner *l, int64_t now, char **out) {
  typedef struct {
    char name[40];
    int nb, wins;
    double rating_sum;
  } tstat;
  tstat stats[64];
  int nstats = 0, nb = 0, wins = 0, qnb = 0, qwins = 0, due[2] = {0, 0};
  double rsum = 0;
  for (size_t i = 0; i < l->natt; i++) {
    const tattempt *a = &l->att[i];
    if (!a->rated) continue;
    if (a->kind == 1) {
      qnb++, qwins += a->right;
      continue;
    }
    const tpuzzle *q = &t->puzzles[a->index];
    nb++, wins += a->right, rsum += q->p.rating;
    char themes[256];
    snprintf(themes, sizeof themes, "%s", q->p.themes);
    for (char *s = themes, *e; *s; s = e) {
      e = s + strcspn(s, " ");
      if (*e) *e++ = 0;
      if (!*s || !theme_counts(s)) continue;
      int j = 0;
      while (j < nstats && strcmp(stats[j].name, s))
        j++;
      if (j == nstats) {
        if (nstats == 64) continue;
        snprintf(stats[nstats].name, sizeof stats[nstats].name, "%.39s", s);
        stats[nstats].nb = stats[nstats].wins = 0;
        stats[nstats].rating_sum = 0;
        nstats++;
      }
      stats[j].nb++, stats[j].wins += a->right, stats[j].rating_sum += q->p.rating;
    }
  }
  for (size_t i = 0; i < l->nrev; i++)
    due[l->rev[i].kind] += arb_review_due(&l->rev[i].r, now);
  double global = nb ? rsum / nb - 500 + 1000.0 * wins / nb : 0;
  json_t *themes = json_array(), *weak = json_array(), *strong = json_array();
  for (int j = 0; j < nstats; j++) {
    const tstat *s = &stats[j];
    double perf = s->rating_sum / s->nb - 500 + 1000.0 * s->wins / s->nb;
    json_array_append_new(themes, json_pack("{s:s,s:i,s:i,s:i}", "theme", s->name, "played", s->nb,
                                            "solved", s->wins, "performance", (int)(perf + 0.5)));
    if (s->nb * 40 < nb) continue;
    if (s->nb - s->wins >= 3 && perf < global) json_array_append_new(weak, json_string(s->name));
    if (s->wins >= 3 && perf > global) json_array_append_new(strong, json_string(s->name));
  }
  json_t *a = json_object();
  json_t *pz = glicko_json(l->row.rating[0], l->row.rd[0]);
  json_object_set_new(pz, "played", json_integer(nb));
  json_object_set_new(pz, "solved", json_integer(wins));
  json_object_set_new(pz, "performance", json_integer((int)(global + 0.5)));
  json_t *qz = glicko_json(l->row.rating[1], l->row.rd[1]);
  json_object_set_new(qz, "answered", json_integer(qnb));
  json_object_set_new(qz, "right", json_integer(qwins));
  json_object_set_new(a, "puzzle", pz);
  json_object_set_new(a, "quiz", qz);
  json_object_set_new(a, "themes", themes);
  json_object_set_new(a, "weak", weak);
  json_object_set_new(a, "strong", strong);
  json_object_set_new(a, "due", json_pack("{s:i,s:i}", "puzzle", due[0], "quiz", due[1]));
  json_object_set_new(a, "topics", quiz_topics(t, l));
  *out = srv_train_dump(a);
  return 200;
}

/* ---- the review of played games ---- */

#define REVIEW_GAMES 4      /* games reviewed per request (the body is at most 8 KB anyway) */
#define REVIEW_BUDGET 20000 /* solver nodes per position: a request stays well under 0.1 s */

typedef struct review_out {
  json_t *games;
  int reviewed;
} review_out;

static int review_one(void *ctx, const arb_audit_info *i, const arb_audit_finding *f, int n) {
  review_out *r = ctx;
  if (json_array_size(r->games) < 2 * REVIEW_GAMES)
    json_array_append_new(r->games, srv_audit_json(i, f, n));
  r->reviewed += i->readable;
  return r->reviewed >= REVIEW_GAMES;
}

static int review(srv_trainer *t, json_t *req, char **out) {
  json_t *pgn = json_object_get(req, "pgn");
  if (!json_is_string(pgn))
    return srv_train_fail(out, 400, "bad_request", "\"pgn\" (the games' text) is missing");
  review_out r = {json_array(), 0};
  arb_audit_reader *a = arb_audit_reader_new(t->solver, REVIEW_BUDGET, review_one, &r);
  if (!a) {
    json_decref(r.games);
    return srv_train_fail(out, 500, "no_memory", "out of memory");
  }
  arb_audit_reader_feed(a, json_string_value(pgn), json_string_length(pgn));
  arb_audit_reader_finish(a);
  arb_audit_reader_free(a);
  if (!json_array_size(r.games)) {
    json_decref(r.games);
    return srv_train_fail(out, 400, "no_game",
                          "no game in that text: paste a game in PGN (tags, then the moves)");
  }
  *out = srv_train_dump(json_pack("{s:o}", "games", r.games));
  return 200;
}

/* ---- routing ---- */

int srv_trainer_http(srv_trainer *t, int post, const char *path, const char *query,
                     const char *learner, const char *body, size_t len, int64_t now, char **out,
                     uint64_t *ticket) {
  *ticket = 0;
  *out = NULL;
  tlearner *l = NULL;
  if (learner && learner[0] && !(l = learner_of(t, learner, now)))
    return srv_train_fail(out, 403, "bad_learner",
                          "this learner token is not one of this server's");
  if (!strcmp(path, "/api/train/learner")) {
    if (!post) return srv_train_fail(out, 405, "method", "POST /api/train/learner makes a learner");
    srv_learner_row row;
    memset(&row, 0, sizeof row);
    char token[SRV_TOKEN_LEN + 1];
    if (srv_new_token(token)) return srv_train_fail(out, 500, "no_randomness", "no randomness");
    srv_token_hash(token, SRV_TOKEN_LEN, row.hash);
    row.created_ms = now;
    for (int k = 0; k < 2; k++)
      row.rating[k] = ARB_GLICKO_RATING, row.rd[k] = ARB_GLICKO_RD,
      row.volatility[k] = ARB_GLICKO_VOLATILITY;
    *ticket = srv_store_put_learner(t->store, &row);
    char link[64];
    snprintf(link, sizeof link, "/train#learner=%s", token);
    *out = srv_train_dump(json_pack("{s:s,s:s}", "token", token, "link", link));
    return 201;
  }
  if (!strcmp(path, "/api/train/state")) {
    if (!l) return srv_train_fail(out, 400, "no_learner", "send the learner's token in X-Learner");
    return learner_state(t, l, now, out);
  }
  if (!strcmp(path, "/api/train/puzzle/next")) return next_puzzle(t, l, query, now, out);
  if (!strcmp(path, "/api/train/quiz/next")) return next_quiz(t, l, query, now, out);
  int move = !strcmp(path, "/api/train/puzzle/move"),
      hint = !strcmp(path, "/api/train/puzzle/hint")       ? 1
             : !strcmp(path, "/api/train/puzzle/solution") ? 2
                                                           : 0;
  int answer = !strcmp(path, "/api/train/quiz/answer"), rev = !strcmp(path, "/api/train/review"),
      diag = !strncmp(path, "/api/train/diagnostic/", 22);
  if (!move && !hint && !answer && !rev && !diag)
    return srv_train_fail(out, 404, "not_found", "no such trainer resource");
  if (!post) return srv_train_fail(out, 405, "method", "this one is a POST");
  json_error_t jerr;
  json_t *req = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
  if (!json_is_object(req)) {
    json_decref(req);
    return srv_train_fail(out, 400, "bad_request",
                          req ? "the request must be a JSON object" : jerr.text);
  }
  int rc = diag     ? srv_train_diagnostic(t, path, req, now, out)
           : rev    ? review(t, req, out)
           : answer ? quiz_answer(t, l, req, now, out, ticket)
                    : puzzle_move(t, l, req, hint, now, out, ticket);
  json_decref(req);
  return rc;
}
