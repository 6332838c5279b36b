/* Arbiter — MIT licence, see LICENSE.
 *
 * quiz.c: the rules quiz (quiz.h).  Each template is a pair: a finder that picks inputs (a
 * position from a real game or a seeded one, the moves, the events) and a derivation that
 * asks the rules about them and writes the question, choices, answer and explanation.
 * Checking an item is deriving it again from its inputs and comparing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/clock.h"
#include "arbiter/explain.h"
#include "arbiter/game.h"
#include "arbiter/otb.h"
#include "arbiter/quiz.h"
#include "arbiter/referee.h"
#include "arbiter/status.h"
#include "arbiter/train.h"

/* ---- names ---- */

static const char *const topic_names[ARB_QUIZ_TOPIC_COUNT] = {
    "movement",  "castling",   "en-passant",   "promotion",     "mate-stalemate",
    "threefold", "fivefold",   "fifty-move",   "dead-position", "agreement",
    "flag",      "touch-move", "illegal-move", "scoresheet",    "online"};

const char *arb_quiz_topic_name(arb_quiz_topic t) {
  return (unsigned)t < ARB_QUIZ_TOPIC_COUNT ? topic_names[t] : "";
}

arb_status arb_quiz_topic_parse(const char *name, arb_quiz_topic *out) {
  if (!name || !out) return ARB_ERR_ARGUMENT;
  for (int i = 0; i < ARB_QUIZ_TOPIC_COUNT; i++)
    if (!strcmp(name, topic_names[i])) {
      *out = (arb_quiz_topic)i;
      return ARB_OK;
    }
  return ARB_ERR_ARGUMENT;
}

/* ---- small text helpers ---- */

static const char *const piece_words[7] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};
static const char piece_letters[7] = {0, 0, 'N', 'B', 'R', 'Q', 'K'};

static const char *side(int c) { return c == ARB_WHITE ? "White" : "Black"; }

static void sqname(arb_square sq, char out[3]) {
  out[0] = (char)('a' + ARB_FILE_OF(sq));
  out[1] = (char)('1' + ARB_RANK_OF(sq));
  out[2] = 0;
}

/* "the knight on g1" into a caller buffer. */
static const char *piece_on(const arb_position *p, arb_square sq, char *buf, size_t n) {
  char s[3];
  sqname(sq, s);
  arb_piece pc = p->board[sq];
  snprintf(buf, n, "the %s on %s", pc ? piece_words[ARB_PIECE_TYPE(pc)] : "square", s);
  return buf;
}

static int read_sq(const char *t, arb_square *sq) {
  if (t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8') return -1;
  *sq = ARB_SQUARE(t[0] - 'a', t[1] - '1');
  return 0;
}

static int fail(char *why, size_t n, const char *fmt, ...) {
  if (why && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
  }
  return ARB_ERR_ARGUMENT;
}

static void appendf(char *buf, size_t n, const char *fmt, ...) {
  size_t l = strlen(buf);
  if (l + 1 >= n) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + l, n - l, fmt, ap);
  va_end(ap);
}

#define Q(it, ...) appendf((it)->question, sizeof(it)->question, __VA_ARGS__)
#define X(it, ...) appendf((it)->explanation, sizeof(it)->explanation, __VA_ARGS__)

static int has_choice(const arb_quiz_item *it, const char *t) {
  for (int i = 0; i < it->nchoices; i++)
    if (!strcmp(it->choices[i], t)) return 1;
  return 0;
}

static void choice(arb_quiz_item *it, const char *fmt, ...) {
  char t[ARB_QUIZ_TEXT];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t, sizeof t, fmt, ap);
  va_end(ap);
  if (has_choice(it, t) || it->nchoices >= ARB_QUIZ_MAX_CHOICES) return;
  memcpy(it->choices[it->nchoices++], t, sizeof t);
}

static void answer(arb_quiz_item *it, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(it->answer, sizeof it->answer, fmt, ap);
  va_end(ap);
}

static void article(arb_quiz_item *it, const char *a) {
  for (int i = 0; i < it->narticles; i++)
    if (!strcmp(it->articles[i], a)) return;
  if (it->narticles < ARB_QUIZ_MAX_ARTICLES)
    snprintf(it->articles[it->narticles++], sizeof it->articles[0], "%s", a);
}

static void mark(arb_quiz_item *it, arb_square sq) {
  if (sq > 63 || it->nsquares >= ARB_QUIZ_MAX_MARKS) return;
  char s[3];
  sqname(sq, s);
  for (int i = 0; i < it->nsquares; i++)
    if (!strcmp(it->squares[i], s)) return;
  memcpy(it->squares[it->nsquares++], s, 3);
}

static void arrow(arb_quiz_item *it, arb_square a, arb_square b) {
  if (a > 63 || b > 63 || it->narrows >= ARB_QUIZ_MAX_MARKS) return;
  sqname(a, it->arrows[it->narrows][0]);
  sqname(b, it->arrows[it->narrows][1]);
  it->narrows++;
}

/* The first letter upper-case (explain's sentences start lower-case). */
static void sentence(arb_quiz_item *it, const char *s) {
  size_t l = strlen(it->explanation);
  X(it, "%s%s.", l ? " " : "", s);
  char *c = it->explanation + l + (l ? 1 : 0);
  if (*c >= 'a' && *c <= 'z') *c = (char)(*c - 'a' + 'A');
}

/* A move as a person writes it on the board, legal or not: "Ng1-f3", "e5xd6", "e7-e8=Q". */
static void move_text(const arb_position *p, arb_square from, arb_square to, arb_piece_type promo,
                      char *buf, size_t n) {
  char a[3], b[3];
  sqname(from, a);
  sqname(to, b);
  arb_piece pc = p->board[from];
  char letter = pc ? piece_letters[ARB_PIECE_TYPE(pc)] : 0;
  int capture = p->board[to] && ARB_PIECE_COLOR(p->board[to]) != ARB_PIECE_COLOR(pc);
  if (pc && ARB_PIECE_TYPE(pc) == ARB_PAWN && ARB_FILE_OF(from) != ARB_FILE_OF(to)) capture = 1;
  snprintf(buf, n, "%s%s%s%s%s%s", letter ? (char[]){letter, 0} : "", a, capture ? "x" : "-", b,
           promo ? "=" : "", promo ? (char[]){piece_letters[promo], 0} : "");
}

/* Reads move_text back: the squares and the promotion. */
static int read_move_text(const char *t, arb_square *from, arb_square *to, arb_piece_type *promo) {
  if (*t >= 'A' && *t <= 'Z') t++;
  if (strlen(t) < 5 || read_sq(t, from) || (t[2] != '-' && t[2] != 'x') || read_sq(t + 3, to))
    return -1;
  *promo = ARB_NO_TYPE;
  if (t[5] == '=') {
    const char *l = strchr("NBRQ", t[6]);
    if (!t[6] || !l) return -1;
    *promo = (arb_piece_type)(ARB_KNIGHT + (l - "NBRQ"));
  } else if (t[5]) {
    return -1;
  }
  return 0;
}

static void uci(const arb_position *p, arb_move m, char out[8]) { arb_uci_write(p, m, out, 8); }

static void san(const arb_position *p, arb_move m, char out[ARB_SAN_MAX]) {
  arb_san_write(p, m, out, ARB_SAN_MAX);
}

/* "1.e4", "12...Nf6": the move number and SAN of move m in p. */
static void numbered(const arb_position *p, arb_move m, char *buf, size_t n) {
  char s[ARB_SAN_MAX];
  san(p, m, s);
  snprintf(buf, n, "%lu%s%s", (unsigned long)p->fullmove_number, p->turn == ARB_WHITE ? "." : "...",
           s);
}

/* ---- reading an item's inputs ---- */

static int rules_of(const char *name, arb_ruleset *rs) {
  if (!strcmp(name, "uscf-blitz")) {
    *rs = ARB_RULES_USCF;
    return 0;
  }
  return arb_rules_parse(name, rs) == ARB_OK ? 0 : -1;
}

static const char *rules_words(const char *name) {
  static const char *const n[][2] = {{"fide", "the FIDE Laws (standard play)"},
                                     {"fide-rapid", "the FIDE Laws for rapid play"},
                                     {"fide-blitz", "the FIDE Laws for blitz"},
                                     {"uscf", "US Chess rules"},
                                     {"uscf-blitz", "US Chess blitz rules"},
                                     {"online", "online-server rules (lichess-style)"},
                                     {"casual", "casual rules"}};
  for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
    if (!strcmp(name, n[i][0])) return n[i][1];
  return name;
}

typedef struct loaded {
  arb_position pos;   /* the position shown */
  arb_position start; /* the start of the history (= pos without one) */
  arb_game *game;     /* the history under the item's rules */
  arb_ruleset rules;
  arb_move moves[ARB_QUIZ_MAX_PLIES];
  int nmoves;
} loaded;

static int load(const arb_quiz_item *it, loaded *l, char *why, size_t n) {
  memset(l, 0, sizeof *l);
  if (rules_of(it->rules, &l->rules)) return fail(why, n, "unknown rules '%s'", it->rules);
  arb_fen_report rep;
  const char *s = it->start_fen[0] ? it->start_fen : it->fen;
  if (arb_fen_read(&l->start, s, 0, &rep) != ARB_OK)
    return fail(why, n, "the FEN '%s' does not read: %s", s, rep.message);
  if (!it->start_fen[0] && it->nmoves) return fail(why, n, "moves without a start_fen");
  l->game = arb_game_new(&l->start, l->rules);
  if (!l->game) return fail(why, n, "out of memory");
  for (int i = 0; i < it->nmoves; i++) {
    arb_move m;
    const arb_position *p = arb_game_position(l->game);
    if (arb_uci_read(p, it->moves[i], strlen(it->moves[i]), 0, &m) != ARB_OK ||
        arb_game_play(l->game, m) != ARB_OK)
      return fail(why, n, "move %d (%s) is not legal there", i + 1, it->moves[i]);
    l->moves[l->nmoves++] = m;
  }
  l->pos = *arb_game_position(l->game);
  if (it->start_fen[0]) {
    char f[ARB_FEN_MAX];
    arb_fen_write(&l->pos, f, sizeof f, 0);
    if (strcmp(f, it->fen)) return fail(why, n, "the moves lead to %s, not to the fen shown", f);
  }
  return 0;
}

static void unload(loaded *l) {
  arb_game_free(l->game);
  l->game = NULL;
}

/* load() for templates that need only the position shown and the rules (the game freed). */
static int load_shown(const arb_quiz_item *it, loaded *l, char *why, size_t n) {
  int st = load(it, l, why, n);
  unload(l);
  return st;
}

/* The move named in it->move (UCI, legal or not for the explaining templates). */
static int ask_squares(const arb_quiz_item *it, arb_square *from, arb_square *to,
                       arb_piece_type *promo) {
  return arb_uci_read_squares(it->move, strlen(it->move), from, to, promo) == ARB_OK ? 0 : -1;
}

static int ask_legal(const arb_quiz_item *it, const arb_position *p, arb_move *m) {
  return arb_uci_read(p, it->move, strlen(it->move), 0, m) == ARB_OK ? 0 : -1;
}

/* The FIDE identity of a position (9.2.3): placement, side, castling, legal en passant. */
static void identity(const arb_position *p, char *buf, size_t n) {
  char f[ARB_FEN_MAX];
  arb_fen_write(p, f, sizeof f, ARB_FEN_OUT_EPD);
  snprintf(buf, n, "%s", f);
}

static void placement(const arb_position *p, char *buf, size_t n) {
  char f[ARB_FEN_MAX];
  arb_fen_write(p, f, sizeof f, 0);
  char *sp = strchr(f, ' ');
  if (sp) sp = strchr(sp + 1, ' ');
  if (sp) *sp = 0; /* placement and side to move */
  snprintf(buf, n, "%s", f);
}

/* Explanation words listing where the current position stood before (plies of the history),
 * and a position that looked the same but is not (castling rights, en passant). */
static void repetition_words(arb_quiz_item *it, const loaded *l) {
  char now[ARB_FEN_MAX], nowp[ARB_FEN_MAX];
  int plies = arb_game_ply_count(l->game);
  identity(&l->pos, now, sizeof now);
  placement(&l->pos, nowp, sizeof nowp);
  char list[300] = "";
  int count = 0, lookalike = -1;
  for (int i = 0; i <= plies; i++) {
    const arb_position *p = arb_game_position_at(l->game, i);
    char id[ARB_FEN_MAX], pl[ARB_FEN_MAX];
    identity(p, id, sizeof id);
    placement(p, pl, sizeof pl);
    if (!strcmp(id, now)) {
      count++;
      if (i == 0)
        appendf(list, sizeof list, "%sat the start", list[0] ? ", " : "");
      else {
        char mv[24];
        numbered(arb_game_position_at(l->game, i - 1), arb_game_move_at(l->game, i), mv, sizeof mv);
        appendf(list, sizeof list, "%safter %s", list[0] ? ", " : "", mv);
      }
    } else if (!strcmp(pl, nowp) && lookalike < 0) {
      lookalike = i;
    }
  }
  X(it,
    "The position now stood on the board %s: %d time%s (FIDE 9.2.3: the same pieces on the "
    "same squares, the same player to move, the same castling and en passant possibilities).",
    list, count, count == 1 ? "" : "s");
  if (lookalike >= 0) {
    const arb_position *p = arb_game_position_at(l->game, lookalike);
    int rights = p->castling_rooks != l->pos.castling_rooks;
    X(it, " The pieces also stood so %s, but that position is not the same: %s.",
      lookalike ? "earlier" : "at the start",
      rights ? "castling rights were lost since" : "an en passant capture was possible then");
  }
}

/* ---- the rng of the finders ---- */

typedef struct gen {
  uint64_t s;
  const arb_quiz_options *o;
} gen;

static uint64_t rnd(gen *g) { return arb_select_rand(&g->s); }
static int rn(gen *g, int n) { return n > 0 ? (int)(rnd(g) % (uint64_t)n) : 0; }

/* A random position of a real game (chess960: 1 Chess960 games only, 0 standard only, -1
 * either), at a ply within [lo, hi] of its length (fractions in percent).  Fills the game,
 * the ply and the position there.  0 when there are no such games. */
static int game_pos(gen *g, int chess960, const arb_quiz_game **out, int *ply, arb_position *pos) {
  const arb_quiz_options *o = g->o;
  if (!o->games || !o->ngames) return 0;
  for (int tries = 0; tries < 20; tries++) {
    const arb_quiz_game *gm = &o->games[rn(g, (int)o->ngames)];
    if (chess960 >= 0 && (gm->start.chess960 != 0) != (chess960 != 0)) continue;
    if (gm->nmoves < 2) continue;
    int k = rn(g, gm->nmoves + 1);
    arb_position p = gm->start;
    for (int i = 0; i < k; i++) {
      arb_undo u;
      arb_make_move(&p, gm->moves[i], &u);
    }
    *out = gm;
    *ply = k;
    *pos = p;
    return 1;
  }
  return 0;
}

static void set_fen(arb_quiz_item *it, const arb_position *p) {
  arb_fen_write(p, it->fen, sizeof it->fen, 0);
}

static void set_source(arb_quiz_item *it, const arb_quiz_game *gm) {
  snprintf(it->source, sizeof it->source, "%s", gm && gm->source ? gm->source : "");
}

/* History: start at s, the moves ms[0..n) (legal in turn); fen = where they lead. */
static void set_history(arb_quiz_item *it, const arb_position *s, const arb_move *ms, int n) {
  arb_position p = *s;
  arb_fen_write(&p, it->start_fen, sizeof it->start_fen, 0);
  it->nmoves = 0;
  for (int i = 0; i < n && i < ARB_QUIZ_MAX_PLIES; i++) {
    char u[8];
    uci(&p, ms[i], u);
    snprintf(it->moves[it->nmoves++], sizeof it->moves[0], "%.5s", u);
    arb_undo un;
    arb_make_move(&p, ms[i], &un);
  }
  set_fen(it, &p);
}

/* A random legal position with the given men ("KNN" for White, "K" for Black; 'P' pawns, never
 * on the first or last rank), `turn` to move (-1: random). */
static int random_position(gen *g, const char *white, const char *black, int turn,
                           arb_position *out) {
  for (int tries = 0; tries < 200; tries++) {
    arb_position p;
    arb_position_clear(&p);
    int ok = 1;
    for (int c = 0; c < 2 && ok; c++) {
      for (const char *m = c ? black : white; *m && ok; m++) {
        const char *l = strchr("PNBRQK", *m);
        if (!l) return 0;
        arb_piece_type t = (arb_piece_type)(ARB_PAWN + (l - "PNBRQK"));
        int sq, guard = 0;
        do {
          sq = rn(g, 64);
        } while ((p.board[sq] || (t == ARB_PAWN && (sq < 8 || sq >= 56))) && ++guard < 100);
        if (guard >= 100) ok = 0;
        arb_position_put(&p, (arb_square)sq, ARB_MAKE_PIECE(c, t));
      }
    }
    if (!ok) continue;
    arb_position_set_turn(&p, (arb_color)(turn >= 0 ? turn : rn(g, 2)));
    if (arb_position_validate(&p, 0, NULL) != ARB_OK) continue;
    *out = p;
    return 1;
  }
  return 0;
}

static int is_mate_after(const arb_position *p, arb_move m) {
  arb_position q = *p;
  arb_undo u;
  arb_make_move(&q, m, &u);
  return arb_is_checkmate(&q);
}

static int is_stalemate_after(const arb_position *p, arb_move m) {
  arb_position q = *p;
  arb_undo u;
  arb_make_move(&q, m, &u);
  return arb_is_stalemate(&q);
}

/* The number of moves of p that mate at once, counted up to `most`; *mate: the last found. */
static int mates_in_one(const arb_position *p, arb_move *mate, int most) {
  arb_move ms[ARB_MAX_MOVES];
  int k = arb_generate_legal(p, ms), count = 0;
  *mate = ARB_MOVE_NONE;
  for (int i = 0; i < k && count < most; i++)
    if (is_mate_after(p, ms[i])) *mate = ms[i], count++;
  return count;
}

/* A move that is pseudo-legal but illegal (pinned piece, king into check, check ignored), or a
 * piece moving in a way it cannot; ARB_MOVE_NONE when none was found. */
static int pick_illegal(gen *g, const arb_position *p, arb_square *from, arb_square *to) {
  arb_move ps[ARB_MAX_MOVES];
  int n = arb_generate_pseudo_legal(p, ps), bad[ARB_MAX_MOVES], nb = 0;
  for (int i = 0; i < n; i++)
    if (!arb_is_legal(p, ps[i]) && ARB_MOVE_KIND(ps[i]) != ARB_MOVE_CASTLING) bad[nb++] = i;
  if (nb && rn(g, 4)) {
    arb_move m = ps[bad[rn(g, nb)]];
    *from = ARB_MOVE_FROM(m);
    *to = ARB_MOVE_TO(m);
    return 1;
  }
  for (int tries = 0; tries < 50; tries++) {
    arb_square f = (arb_square)rn(g, 64), t = (arb_square)rn(g, 64);
    arb_piece pc = p->board[f];
    if (!pc || ARB_PIECE_COLOR(pc) != p->turn || f == t) continue;
    if (ARB_PIECE_TYPE(pc) == ARB_PAWN && (ARB_RANK_OF(t) == 0 || ARB_RANK_OF(t) == 7)) continue;
    arb_move_explanation e;
    arb_move_explain(p, f, t, ARB_NO_TYPE, &e);
    if (e.reason == ARB_ILLEGAL_PIECE_DOES_NOT_MOVE_SO || e.reason == ARB_ILLEGAL_PATH_BLOCKED ||
        e.reason == ARB_ILLEGAL_PAWN_BLOCKED) {
      *from = f;
      *to = t;
      return 1;
    }
  }
  return 0;
}

/* ======================================================================================== */
/* movement                                                                                  */
/* ======================================================================================== */

static const char *illegal_category(arb_illegal r) {
  switch (r) {
  case ARB_MOVE_LEGAL: return "Nothing: the move is legal";
  case ARB_ILLEGAL_PINNED:
  case ARB_ILLEGAL_EXPOSES_KING: return "It would expose the king to check";
  case ARB_ILLEGAL_KING_INTO_CHECK:
  case ARB_ILLEGAL_KING_NEXT_TO_KING: return "The king would move onto an attacked square";
  case ARB_ILLEGAL_LEAVES_KING_IN_CHECK: return "It does not get the king out of check";
  case ARB_ILLEGAL_PATH_BLOCKED:
  case ARB_ILLEGAL_PAWN_BLOCKED: return "Another piece is in the way";
  case ARB_ILLEGAL_PIECE_DOES_NOT_MOVE_SO: return "That piece does not move that way";
  default: return NULL;
  }
}

static const arb_illegal category_order[] = {
    ARB_ILLEGAL_PINNED,       ARB_ILLEGAL_KING_INTO_CHECK,        ARB_ILLEGAL_LEAVES_KING_IN_CHECK,
    ARB_ILLEGAL_PATH_BLOCKED, ARB_ILLEGAL_PIECE_DOES_NOT_MOVE_SO, ARB_MOVE_LEGAL};

static void explain_marks(arb_quiz_item *it, const arb_move_explanation *e, arb_square from,
                          arb_square to) {
  arrow(it, from, to);
  if (e->square < 64) mark(it, e->square);
  if (e->attacked < 64) mark(it, e->attacked);
}

static int d_why_illegal(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  arb_square from, to;
  arb_piece_type promo;
  if (ask_squares(it, &from, &to, &promo)) return fail(why, n, "no move to ask about");
  arb_move_explanation e;
  arb_move_explain(&l.pos, from, to, promo, &e);
  const char *cat = illegal_category(e.reason);
  if (!cat || e.reason == ARB_MOVE_LEGAL) return fail(why, n, "not a question this template asks");
  char mt[16];
  move_text(&l.pos, from, to, promo, mt, sizeof mt);
  Q(it, "%s to move. Why may %s not play %s?", side(l.pos.turn), side(l.pos.turn), mt);
  for (size_t i = 0; i < sizeof category_order / sizeof category_order[0]; i++)
    choice(it, "%s", illegal_category(category_order[i]));
  answer(it, "%s", cat);
  sentence(it, e.message);
  char a[24];
  snprintf(a, sizeof a, "FIDE %s", e.article);
  article(it, a);
  explain_marks(it, &e, from, to);
  it->difficulty = e.reason == ARB_ILLEGAL_PINNED || e.reason == ARB_ILLEGAL_EXPOSES_KING ? 3 : 2;
  return 0;
}

static int f_why_illegal(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm;
  int ply;
  arb_position p;
  if (!game_pos(g, 0, &gm, &ply, &p) || !arb_has_legal_move(&p)) return 0;
  arb_square f, t;
  if (!pick_illegal(g, &p, &f, &t)) return 0;
  set_fen(it, &p);
  set_source(it, gm);
  char a[3], b[3];
  sqname(f, a);
  sqname(t, b);
  snprintf(it->move, sizeof it->move, "%s%s", a, b);
  return 1;
}

static int d_which_illegal(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  if (it->nchoices < 3) return fail(why, n, "too few moves to judge");
  int illegal = -1;
  arb_move_explanation e, bad;
  arb_square bf = 0, bt = 0;
  for (int i = 0; i < it->nchoices; i++) {
    arb_square f, t;
    arb_piece_type pr;
    if (read_move_text(it->choices[i], &f, &t, &pr))
      return fail(why, n, "choice '%s' is not a move", it->choices[i]);
    arb_move_explain(&l.pos, f, t, pr, &e);
    if (e.reason != ARB_MOVE_LEGAL) {
      if (illegal >= 0) return fail(why, n, "more than one move is illegal");
      illegal = i, bad = e, bf = f, bt = t;
    }
  }
  if (illegal < 0) return fail(why, n, "every move is legal");
  Q(it, "%s to move. Which of these moves is illegal?", side(l.pos.turn));
  answer(it, "%s", it->choices[illegal]);
  char s[240];
  snprintf(s, sizeof s, "%s is illegal: %s", it->choices[illegal], bad.message);
  sentence(it, s);
  X(it, " The other moves are legal.");
  char a[24];
  snprintf(a, sizeof a, "FIDE %s", bad.article);
  article(it, a);
  explain_marks(it, &bad, bf, bt);
  it->difficulty = bad.reason == ARB_ILLEGAL_PINNED ? 3 : 2;
  return 0;
}

static int f_which_illegal(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm;
  int ply;
  arb_position p;
  if (!game_pos(g, 0, &gm, &ply, &p)) return 0;
  arb_move ps[ARB_MAX_MOVES], lg[ARB_MAX_MOVES];
  int n = arb_generate_pseudo_legal(&p, ps), nl = arb_generate_legal(&p, lg), nb = 0;
  arb_move bad[ARB_MAX_MOVES];
  for (int i = 0; i < n; i++)
    if (!arb_is_legal(&p, ps[i]) && ARB_MOVE_KIND(ps[i]) == ARB_MOVE_NORMAL) bad[nb++] = ps[i];
  if (!nb || nl < 3) return 0;
  set_fen(it, &p);
  set_source(it, gm);
  int at = rn(g, 4);
  arb_move used[4];
  int nu = 0;
  for (int k = 0; k < 4; k++) {
    arb_move m;
    if (k == at) {
      m = bad[rn(g, nb)];
    } else {
      int guard = 0;
      do {
        m = lg[rn(g, nl)];
      } while ((ARB_MOVE_KIND(m) != ARB_MOVE_NORMAL ||
                (nu && (m == used[0] || (nu > 1 && m == used[1]) || (nu > 2 && m == used[2])))) &&
               ++guard < 50);
      if (guard >= 50) return 0;
    }
    used[nu++] = m;
    char t[16];
    move_text(&p, ARB_MOVE_FROM(m), ARB_MOVE_TO(m), ARB_NO_TYPE, t, sizeof t);
    choice(it, "%s", t);
  }
  return it->nchoices == 4;
}

static int d_only_move(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  arb_move ms[ARB_MAX_MOVES];
  int k = arb_generate_legal(&l.pos, ms);
  if (k != 1 || !arb_in_check(&l.pos)) return fail(why, n, "not in check with one legal move");
  it->kind = ARB_QUIZ_MOVE;
  Q(it, "%s is in check. Play the only legal move.", side(l.pos.turn));
  char u[8], s[ARB_SAN_MAX], buf[64];
  uci(&l.pos, ms[0], u);
  san(&l.pos, ms[0], s);
  answer(it, "%s", u);
  arb_bitboard ch = arb_checkers(&l.pos);
  X(it, "%s gives check", piece_on(&l.pos, (arb_square)__builtin_ctzll(ch), buf, sizeof buf));
  it->explanation[0] = 'T'; /* "the knight on ..." starts the sentence */
  if (ch & (ch - 1))
    X(it, " together with %s (a double check: only the king may move)",
      piece_on(&l.pos, (arb_square)(63 - __builtin_clzll(ch)), buf, sizeof buf));
  X(it, ". Every other move leaves the king in check (FIDE 3.9); the only legal move is %s.", s);
  for (arb_bitboard b = ch; b; b &= b - 1)
    mark(it, (arb_square)__builtin_ctzll(b));
  mark(it, arb_king_square(&l.pos, (arb_color)l.pos.turn));
  article(it, "FIDE 3.9.1");
  article(it, "FIDE 3.9.2");
  it->difficulty = 2;
  return 0;
}

static int f_only_move(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm;
  int ply;
  arb_position p;
  if (!game_pos(g, -1, &gm, &ply, &p)) return 0;
  if (!arb_in_check(&p) || arb_count_legal(&p) != 1) return 0;
  set_fen(it, &p);
  set_source(it, gm);
  return 1;
}

/* ======================================================================================== */
/* castling                                                                                  */
/* ======================================================================================== */

static const char *castle_category(arb_illegal r) {
  switch (r) {
  case ARB_MOVE_LEGAL: return "Yes";
  case ARB_ILLEGAL_CASTLING_OUT_OF_CHECK: return "No: the king is in check";
  case ARB_ILLEGAL_CASTLING_THROUGH_CHECK:
  case ARB_ILLEGAL_CASTLING_INTO_CHECK:
    return "No: the king would cross or land on an attacked square";
  case ARB_ILLEGAL_CASTLING_PATH_OCCUPIED:
    return "No: a piece stands between the king and the rook";
  case ARB_ILLEGAL_CASTLING_KING_MOVED:
  case ARB_ILLEGAL_CASTLING_ROOK_MOVED: return "No: the king or that rook has already moved";
  default: return NULL;
  }
}

/* The castling rook of colour c on side h (1: h-side / kingside, 0: a-side), or 64. */
static arb_square castle_rook(const arb_position *p, int c, int h) {
  arb_bitboard r = p->castling_rooks & (c == ARB_WHITE ? 0xffull : 0xffull << 56);
  arb_square k = arb_king_square(p, (arb_color)c);
  for (; r; r &= r - 1) {
    arb_square s = (arb_square)__builtin_ctzll(r);
    if ((ARB_FILE_OF(s) > ARB_FILE_OF(k)) == (h != 0)) return s;
  }
  return ARB_NO_SQUARE;
}

/* The castling question of `it` (move: the king's castling move, e1g1 / e1c1 or in Chess960
 * king takes rook): explain's verdict, its category, and words. */
static int castle_verdict(arb_quiz_item *it, const arb_position *p, arb_move_explanation *e, int *h,
                          char *why, size_t n) {
  arb_square from, to;
  arb_piece_type pr;
  if (ask_squares(it, &from, &to, &pr) || p->board[from] != ARB_MAKE_PIECE(p->turn, ARB_KING))
    return fail(why, n, "not a castling question");
  *h = ARB_FILE_OF(to) > ARB_FILE_OF(from);
  arb_move_explain(p, from, to, ARB_NO_TYPE, e);
  if (!castle_category(e->reason)) return fail(why, n, "not a castling verdict");
  return 0;
}

static const char *side_words(int h, int chess960) {
  return chess960 ? (h ? "on the h-side" : "on the a-side")
                  : (h ? "kingside (O-O)" : "queenside (O-O-O)");
}

static void castle_words(arb_quiz_item *it, const arb_position *p, const arb_move_explanation *e,
                         int h) {
  if (e->reason == ARB_MOVE_LEGAL) {
    X(it,
      "Castling %s is legal: the king is not in check, no piece stands between king and "
      "rook, and no square the king crosses or lands on is attacked.",
      side_words(h, p->chess960));
    arb_square r = castle_rook(p, p->turn, h);
    if (r < 64 && arb_attackers(p, r, (arb_color)!p->turn, p->by_type[0]))
      X(it, " That the rook itself is attacked does not matter.");
  } else {
    sentence(it, e->message);
  }
  mark(it, arb_king_square(p, (arb_color)p->turn));
  arb_square r = castle_rook(p, p->turn, h);
  if (r < 64) mark(it, r);
  if (e->square < 64 && e->reason != ARB_MOVE_LEGAL) {
    mark(it, e->square);
    if (e->attacked < 64) arrow(it, e->square, e->attacked);
  }
  article(it, e->reason == ARB_ILLEGAL_CASTLING_KING_MOVED ||
                      e->reason == ARB_ILLEGAL_CASTLING_ROOK_MOVED
                  ? "FIDE 3.8.2.1"
                  : "FIDE 3.8.2.2");
  article(it, "US Chess 8A");
  if (p->chess960) article(it, "FIDE Guidelines II");
}

static int d_castle_now(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  arb_move_explanation e;
  int h;
  if ((st = castle_verdict(it, &l.pos, &e, &h, why, n))) return st;
  Q(it, "%s to move. May %s castle %s now?", side(l.pos.turn), side(l.pos.turn),
    side_words(h, l.pos.chess960));
  choice(it, "Yes");
  choice(it, "No: the king is in check");
  choice(it, "No: the king would cross or land on an attacked square");
  choice(it, "No: a piece stands between the king and the rook");
  choice(it, "No: the king or that rook has already moved");
  choice(it, "No: the rook is attacked");
  answer(it, "%s", castle_category(e.reason));
  castle_words(it, &l.pos, &e, h);
  it->difficulty = e.reason == ARB_MOVE_LEGAL ? 3 : 2;
  return 0;
}

static const char *const castle_fens[] = {
    "4k2r/8/8/8/8/8/8/4K2R w Kk - 0 1",       "1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "2r1k3/8/8/8/8/8/8/R3K3 w Q - 0 1",       "3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "4kr2/8/8/8/8/8/8/4K2R w K - 0 1",        "4k1r1/8/8/8/8/8/8/4K2R w K - 0 1",
    "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1", "4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",   "r3k2r/8/8/8/8/2B5/8/R3K2R b KQkq - 0 1",
    "r3k2r/8/8/8/7B/8/8/R3K2R b KQkq - 0 1",  "r3k2r/6B1/8/8/8/8/8/R3K2R b KQkq - 0 1"};

static int f_castle_now(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm = NULL;
  int ply;
  arb_position p;
  int synthetic = rn(g, 5) == 0;
  if (synthetic) {
    arb_fen_read(&p, castle_fens[rn(g, (int)(sizeof castle_fens / sizeof castle_fens[0]))], 0,
                 NULL);
  } else if (!game_pos(g, -1, &gm, &ply, &p)) {
    return 0;
  }
  int h = rn(g, 2);
  arb_square r = castle_rook(&p, p.turn, h);
  if (r >= 64) r = castle_rook(&p, p.turn, h = !h);
  if (r >= 64 && (synthetic || rn(g, 3))) return 0; /* some without rights: "has moved" */
  arb_square k = arb_king_square(&p, (arb_color)p.turn);
  int back = p.turn == ARB_WHITE ? 0 : 7;
  if (ARB_RANK_OF(k) != back) return 0;
  arb_square to;
  if (p.chess960) {
    if (r >= 64) return 0;
    to = r;
  } else {
    if (ARB_FILE_OF(k) != 4) return 0;
    to = ARB_SQUARE(h ? 6 : 2, back);
  }
  if (p.board[to] && !p.chess960) return 0;
  set_fen(it, &p);
  set_source(it, gm);
  char a[3], b[3];
  sqname(k, a);
  sqname(to, b);
  snprintf(it->move, sizeof it->move, "%s%s", a, b);
  return 1;
}

static int d_castle_after_check(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load(it, &l, why, n);
  if (st) {
    unload(&l);
    return st;
  }
  int plies = arb_game_ply_count(l.game), checked = -1;
  for (int i = 0; i < plies; i++) {
    const arb_position *p = arb_game_position_at(l.game, i);
    if (p->turn == l.pos.turn && arb_in_check(p)) {
      checked = i;
      break;
    }
  }
  arb_move_explanation e;
  int h;
  if (checked < 0 || arb_in_check(&l.pos) || (st = castle_verdict(it, &l.pos, &e, &h, why, n))) {
    unload(&l);
    return st ? st : fail(why, n, "the king was never in check before");
  }
  if (e.reason == ARB_ILLEGAL_CASTLING_KING_MOVED || e.reason == ARB_ILLEGAL_CASTLING_ROOK_MOVED) {
    unload(&l);
    return fail(why, n, "the right is gone");
  }
  char chk[40], ans[24];
  numbered(arb_game_position_at(l.game, checked - 1 >= 0 ? checked - 1 : 0),
           arb_game_move_at(l.game, checked), chk, sizeof chk);
  numbered(arb_game_position_at(l.game, checked), arb_game_move_at(l.game, checked + 1), ans,
           sizeof ans);
  if (checked == 0) snprintf(chk, sizeof chk, "the last move before the start");
  Q(it,
    "In this game %s's king was in check after %s; %s answered with %s, and the king has not "
    "moved since. May %s castle %s now?",
    side(l.pos.turn), chk, side(l.pos.turn), ans, side(l.pos.turn), side_words(h, l.pos.chess960));
  choice(it, "Yes");
  choice(it, "No: a king that has been in check may never castle");
  choice(it, "No: the king would cross or land on an attacked square");
  choice(it, "No: a piece stands between the king and the rook");
  answer(it, "%s", castle_category(e.reason));
  if (!has_choice(it, it->answer)) choice(it, "%s", it->answer);
  X(it, "Only a check now prevents castling (FIDE 3.8.2.2); an earlier check that was parried "
        "without moving the king changes nothing. ");
  castle_words(it, &l.pos, &e, h);
  it->difficulty = 3;
  unload(&l);
  return 0;
}

static int f_castle_after_check(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm;
  int ply;
  arb_position p;
  if (!game_pos(g, 0, &gm, &ply, &p) || ply < 2) return 0;
  int me = p.turn, h = -1;
  for (int s = 0; s < 2; s++) {
    arb_square r = castle_rook(&p, me, s);
    if (r < 64) {
      arb_square k = arb_king_square(&p, (arb_color)me);
      arb_move_explanation e;
      arb_move_explain(&p, k, ARB_SQUARE(s ? 6 : 2, ARB_RANK_OF(k)), ARB_NO_TYPE, &e);
      if (e.reason == ARB_MOVE_LEGAL || rn(g, 4) == 0) h = s;
    }
  }
  if (h < 0 || arb_in_check(&p)) return 0;
  /* the earliest own turn in check within the last 40 plies */
  arb_position q = gm->start;
  int first = ply > 40 ? ply - 40 : 0, checked = -1;
  arb_position at_first = q;
  for (int i = 0; i < ply; i++) {
    if (i == first) at_first = q;
    if (i >= first && checked < 0 && q.turn == me && arb_in_check(&q)) checked = i;
    arb_undo u;
    arb_make_move(&q, gm->moves[i], &u);
  }
  if (checked < 0) return 0;
  int start = checked > first ? checked - 1 : first;
  arb_position s = gm->start;
  for (int i = 0; i < start; i++) {
    arb_undo u;
    arb_make_move(&s, gm->moves[i], &u);
  }
  (void)at_first;
  set_history(it, &s, gm->moves + start, ply - start);
  set_source(it, gm);
  arb_square k = arb_king_square(&p, (arb_color)me);
  char a[3], b[3];
  sqname(k, a);
  sqname(ARB_SQUARE(h ? 6 : 2, ARB_RANK_OF(k)), b);
  snprintf(it->move, sizeof it->move, "%s%s", a, b);
  return 1;
}

static int d_castle_960(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  arb_move m;
  if (!l.pos.chess960 || ask_legal(it, &l.pos, &m) || ARB_MOVE_KIND(m) != ARB_MOVE_CASTLING)
    return fail(why, n, "not a legal Chess960 castling");
  arb_square k = ARB_MOVE_FROM(m), r = ARB_MOVE_TO(m);
  int h = ARB_FILE_OF(r) > ARB_FILE_OF(k), back = ARB_RANK_OF(k);
  arb_position q = l.pos;
  arb_undo u;
  arb_make_move(&q, m, &u);
  arb_square k2 = arb_king_square(&q, (arb_color)l.pos.turn), r2 = ARB_NO_SQUARE;
  arb_bitboard rooks = q.by_type[ARB_ROOK] & q.by_color[l.pos.turn];
  for (arb_bitboard b = rooks; b; b &= b - 1) {
    arb_square s = (arb_square)__builtin_ctzll(b);
    if (ARB_RANK_OF(s) == back && !(l.pos.board[s] == q.board[s] && s != r) &&
        l.pos.board[s] != q.board[s])
      r2 = s;
  }
  if (r2 >= 64) r2 = ARB_SQUARE(h ? 5 : 3, back);
  char ks[3], rs[3], k2s[3], r2s[3];
  sqname(k, ks);
  sqname(r, rs);
  sqname(k2, k2s);
  sqname(r2, r2s);
  Q(it,
    "Chess960: %s's king stands on %s and the rook on %s. %s castles %s. Where do the king "
    "and the rook stand afterwards?",
    side(l.pos.turn), ks, rs, side(l.pos.turn), h ? "on the h-side" : "on the a-side");
  answer(it, "King %s, rook %s", k2s, r2s);
  choice(it, "%s", it->answer);
  choice(it, "King %s, rook %s", rs, ks);
  int d = h ? 1 : -1;
  if (ARB_FILE_OF(k) + 2 * d >= 0 && ARB_FILE_OF(k) + 2 * d <= 7) {
    char a[3], b[3];
    sqname((arb_square)(k + 2 * d), a);
    sqname((arb_square)(k + d), b);
    choice(it, "King %s, rook %s", a, b);
  }
  {
    char a[3], b[3];
    sqname(ARB_SQUARE(h ? 2 : 6, back), a);
    sqname(ARB_SQUARE(h ? 3 : 5, back), b);
    choice(it, "King %s, rook %s", a, b);
  }
  X(it,
    "In Chess960 king and rook end where they would after castling in standard chess: "
    "%s the king goes to the %c-file and the rook to the %c-file, wherever they started. "
    "So the king goes %s-%s and the rook %s-%s.",
    h ? "on the h-side" : "on the a-side", h ? 'g' : 'c', h ? 'f' : 'd', ks, k2s, rs, r2s);
  arrow(it, k, k2);
  arrow(it, r, r2);
  article(it, "FIDE Guidelines II");
  article(it, "FIDE 3.8.2");
  it->difficulty = 3;
  return 0;
}

static int f_castle_960(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm;
  int ply;
  arb_position p;
  if (!game_pos(g, 1, &gm, &ply, &p)) return 0;
  arb_move ms[ARB_MAX_MOVES];
  int nm = arb_generate_legal(&p, ms), c[4], nc = 0;
  for (int i = 0; i < nm; i++)
    if (ARB_MOVE_KIND(ms[i]) == ARB_MOVE_CASTLING) c[nc++] = i;
  if (!nc) return 0;
  set_fen(it, &p);
  set_source(it, gm);
  uci(&p, ms[c[rn(g, nc)]], it->move);
  return 1;
}

/* ======================================================================================== */
/* en passant                                                                                */
/* ======================================================================================== */

/* The double step that gave `it` its question: the first move of the history. */
static int d_ep_can(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load(it, &l, why, n);
  if (st || it->nmoves < 1) {
    unload(&l);
    return st ? st : fail(why, n, "no double step in the history");
  }
  const arb_position *s = arb_game_position_at(l.game, 0);
  arb_move dbl = arb_game_move_at(l.game, 1);
  arb_square df = ARB_MOVE_FROM(dbl), dt = ARB_MOVE_TO(dbl);
  arb_square from, to;
  arb_piece_type pr;
  if (ARB_PIECE_TYPE(s->board[df]) != ARB_PAWN || (df > dt ? df - dt : dt - df) != 16 ||
      ask_squares(it, &from, &to, &pr) || ARB_FILE_OF(to) != ARB_FILE_OF(dt) ||
      to != (df + dt) / 2) {
    unload(&l);
    return fail(why, n, "not an en passant question");
  }
  arb_move_explanation e;
  arb_move_explain(&l.pos, from, to, ARB_NO_TYPE, &e);
  const char *cat = NULL;
  if (e.reason == ARB_MOVE_LEGAL)
    cat = "Yes: it is the very next move after the double step";
  else if (e.reason == ARB_ILLEGAL_EN_PASSANT_EXPIRED)
    cat = "No: en passant is allowed only on the very next move";
  else if (e.reason == ARB_ILLEGAL_PINNED || e.reason == ARB_ILLEGAL_EXPOSES_KING ||
           e.reason == ARB_ILLEGAL_LEAVES_KING_IN_CHECK)
    cat = "No: it would leave the king in check";
  if (!cat || (e.reason == ARB_MOVE_LEGAL && ARB_MOVE_KIND(e.move) != ARB_MOVE_EN_PASSANT)) {
    unload(&l);
    return fail(why, n, "not an en passant verdict");
  }
  char dn[24], a[3], b[3], c[3];
  numbered(s, dbl, dn, sizeof dn);
  sqname(from, a);
  sqname(to, b);
  sqname(dt, c);
  Q(it, "After %s%s, may %s take the pawn on %s en passant with %sx%s now?", dn,
    it->nmoves > 1 ? " and the moves after it" : "", side(l.pos.turn), c, a, b);
  choice(it, "Yes: it is the very next move after the double step");
  choice(it, "Yes: en passant is allowed whenever the pawns stand side by side");
  choice(it, "No: en passant is allowed only on the very next move");
  choice(it, "No: it would leave the king in check");
  answer(it, "%s", cat);
  X(it, "The pawn went two squares with %s, passing %s. ", dn, b);
  if (e.reason == ARB_MOVE_LEGAL)
    X(it,
      "A pawn beside it may take it as if it had moved one square, landing on %s, but only "
      "on the very next move: %sx%s is legal now.",
      b, a, b);
  else
    sentence(it, e.message);
  arrow(it, from, to);
  mark(it, dt);
  article(it, "FIDE 3.7.3.1");
  article(it, "FIDE 3.7.3.2");
  if (e.reason != ARB_MOVE_LEGAL && e.reason != ARB_ILLEGAL_EN_PASSANT_EXPIRED)
    article(it, "FIDE 3.9.2");
  it->difficulty = e.reason == ARB_MOVE_LEGAL ? 2 : 3;
  unload(&l);
  return 0;
}

/* A double step in a real game beside an enemy pawn: the ply of the step, the capturer. */
static int find_double_step(gen *g, const arb_quiz_game **gm, int *ply, arb_position *before,
                            arb_square *capturer) {
  const arb_quiz_options *o = g->o;
  if (!o->games || !o->ngames) return 0;
  for (int tries = 0; tries < 10; tries++) {
    const arb_quiz_game *x = &o->games[rn(g, (int)o->ngames)];
    int cand[64], nc = 0;
    arb_position p = x->start;
    for (int i = 0; i < x->nmoves && nc < 64; i++) {
      arb_move m = x->moves[i];
      arb_square f = ARB_MOVE_FROM(m), t = ARB_MOVE_TO(m);
      if (ARB_PIECE_TYPE(p.board[f]) == ARB_PAWN && (f > t ? f - t : t - f) == 16) {
        arb_piece enemy = ARB_MAKE_PIECE(!p.turn, ARB_PAWN);
        if ((ARB_FILE_OF(t) > 0 && p.board[t - 1] == enemy) ||
            (ARB_FILE_OF(t) < 7 && p.board[t + 1] == enemy))
          cand[nc++] = i;
      }
      arb_undo u;
      arb_make_move(&p, m, &u);
    }
    if (!nc) continue;
    int k = cand[rn(g, nc)];
    p = x->start;
    for (int i = 0; i < k; i++) {
      arb_undo u;
      arb_make_move(&p, x->moves[i], &u);
    }
    arb_square t = ARB_MOVE_TO(x->moves[k]);
    arb_piece enemy = ARB_MAKE_PIECE(!p.turn, ARB_PAWN);
    int left = ARB_FILE_OF(t) > 0 && p.board[t - 1] == enemy;
    int right = ARB_FILE_OF(t) < 7 && p.board[t + 1] == enemy;
    *capturer = (arb_square)(left && (!right || rn(g, 2)) ? t - 1 : t + 1);
    *gm = x;
    *ply = k;
    *before = p;
    return 1;
  }
  return 0;
}

static int f_ep_can(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm;
  int ply;
  arb_position p;
  arb_square cap;
  if (!find_double_step(g, &gm, &ply, &p, &cap)) return 0;
  arb_move dbl = gm->moves[ply];
  arb_square skipped = (arb_square)((ARB_MOVE_FROM(dbl) + ARB_MOVE_TO(dbl)) / 2);
  int n = 1;
  if (rn(g, 2) && ply + 2 < gm->nmoves) {
    /* two more plies of the game, the pawns still in place */
    arb_position q = p;
    arb_undo u;
    for (int i = 0; i < 3; i++)
      arb_make_move(&q, gm->moves[ply + i], &u);
    if (q.board[cap] == p.board[cap] && q.board[ARB_MOVE_TO(dbl)] == p.board[ARB_MOVE_FROM(dbl)] &&
        !q.board[skipped])
      n = 3;
  }
  set_history(it, &p, gm->moves + ply, n);
  set_source(it, gm);
  char a[3], b[3];
  sqname(cap, a);
  sqname(skipped, b);
  snprintf(it->move, sizeof it->move, "%s%s", a, b);
  return 1;
}

static int d_ep_find(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load(it, &l, why, n);
  if (st || it->nmoves != 1) {
    unload(&l);
    return st ? st : fail(why, n, "the history must be the double step");
  }
  arb_position s0 = *arb_game_position_at(l.game, 0);
  arb_move dbl = arb_game_move_at(l.game, 1);
  unload(&l);
  arb_move ms[ARB_MAX_MOVES], ep = ARB_MOVE_NONE;
  int k = arb_generate_legal(&l.pos, ms), count = 0;
  for (int i = 0; i < k; i++)
    if (ARB_MOVE_KIND(ms[i]) == ARB_MOVE_EN_PASSANT) ep = ms[i], count++;
  if (count != 1) return fail(why, n, "not exactly one en passant capture");
  char dn[24], u[8], sn[ARB_SAN_MAX], t[3], c[3];
  numbered(&s0, dbl, dn, sizeof dn);
  uci(&l.pos, ep, u);
  san(&l.pos, ep, sn);
  sqname(ARB_MOVE_TO(ep), t);
  sqname(ARB_MOVE_TO(dbl), c);
  it->kind = ARB_QUIZ_MOVE;
  Q(it, "%s has just played %s. Take that pawn en passant.", side(s0.turn), dn);
  answer(it, "%s", u);
  X(it,
    "%s passed %s with its double step, so the pawn beside it takes it as if it had moved "
    "one square: %s lands on %s and the pawn on %s leaves the board. This is allowed only "
    "on this very move.",
    dn, t, sn, t, c);
  arrow(it, ARB_MOVE_FROM(ep), ARB_MOVE_TO(ep));
  mark(it, ARB_MOVE_TO(dbl));
  article(it, "FIDE 3.7.3.1");
  article(it, "FIDE 3.7.3.2");
  it->difficulty = 2;
  return 0;
}

static int f_ep_find(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm;
  int ply;
  arb_position p;
  arb_square cap;
  if (!find_double_step(g, &gm, &ply, &p, &cap)) return 0;
  set_history(it, &p, gm->moves + ply, 1);
  set_source(it, gm);
  return 1;
}

/* ======================================================================================== */
/* promotion                                                                                 */
/* ======================================================================================== */

static int d_promo_mate(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  arb_move mate;
  int count = mates_in_one(&l.pos, &mate, 2);
  if (count != 1 || ARB_MOVE_KIND(mate) != ARB_MOVE_PROMOTION)
    return fail(why, n, "not a unique promotion mate");
  it->kind = ARB_QUIZ_MOVE;
  char u[8], s[ARB_SAN_MAX];
  uci(&l.pos, mate, u);
  san(&l.pos, mate, s);
  Q(it, "%s to move has exactly one move that checkmates at once. Play it.", side(l.pos.turn));
  answer(it, "%s", u);
  X(it, "%s: the new %s acts at once and gives mate.", s, piece_words[ARB_MOVE_PROMO(mate)]);
  if (ARB_MOVE_PROMO(mate) != ARB_QUEEN) {
    arb_move qm = ARB_MOVE_MAKE_SPECIAL(ARB_MOVE_FROM(mate), ARB_MOVE_TO(mate), ARB_MOVE_PROMOTION,
                                        ARB_QUEEN);
    arb_position q = l.pos;
    arb_undo un;
    arb_make_move(&q, qm, &un);
    X(it,
      " A queen there would not mate%s: a pawn may become a queen, rook, bishop or knight, "
      "and the choice is free.",
      arb_is_stalemate(&q) ? " (it would even stalemate)" : "");
  } else {
    X(it, " No other move mates.");
  }
  arrow(it, ARB_MOVE_FROM(mate), ARB_MOVE_TO(mate));
  article(it, "FIDE 3.7.3.3");
  article(it, "FIDE 1.4.1");
  it->difficulty = ARB_MOVE_PROMO(mate) != ARB_QUEEN ? 4 : 2;
  return 0;
}

/* A random position with a white pawn on the seventh rank and the black king on the edge
 * (where promotions mate), tried until exactly one move mates and it is a promotion. */
static int f_promo_mate(gen *g, arb_quiz_item *it) {
  static const char *const extra[] = {"", "R", "N", "B", "Q", "RP", "NP", "BN", "RR", "P"};
  static const char *const mine[] = {"KP", "KPN", "KPB", "KPR", "KPQ", "KPP", "KPNN", "KPBB"};
  for (int tries = 0; tries < 400; tries++) {
    arb_position p;
    char w[8], b[8];
    snprintf(w, sizeof w, "%s", mine[rn(g, 8)]);
    snprintf(b, sizeof b, "K%s", extra[rn(g, 10)]);
    if (!random_position(g, w, b, ARB_WHITE, &p)) continue;
    arb_bitboard wp = p.by_type[ARB_PAWN] & p.by_color[ARB_WHITE];
    arb_square s = (arb_square)__builtin_ctzll(wp), t = ARB_SQUARE(ARB_FILE_OF(s), 6);
    arb_square bk = arb_king_square(&p, ARB_BLACK);
    int f = ARB_FILE_OF(s) + rn(g, 5) - 2;
    arb_square k2 = ARB_SQUARE(f < 0 ? 0 : f > 7 ? 7 : f, 7 - rn(g, 2));
    if ((p.board[t] && t != s) || (p.board[k2] && k2 != bk) || k2 == t) continue;
    arb_position_remove(&p, s);
    arb_position_put(&p, t, ARB_MAKE_PIECE(ARB_WHITE, ARB_PAWN));
    arb_position_remove(&p, bk);
    arb_position_put(&p, k2, ARB_MAKE_PIECE(ARB_BLACK, ARB_KING));
    if (arb_position_validate(&p, 0, NULL) != ARB_OK) continue;
    arb_move mate;
    int count = mates_in_one(&p, &mate, 2);
    if (count != 1 || ARB_MOVE_KIND(mate) != ARB_MOVE_PROMOTION) continue;
    if (ARB_MOVE_PROMO(mate) == ARB_QUEEN && rn(g, 3)) continue; /* prefer under-promotions */
    if (rn(g, 2)) arb_position_mirror(&p, &p);
    set_fen(it, &p);
    return 1;
  }
  return 0;
}

static int d_promo_choices(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  arb_square from, to;
  arb_piece_type pr;
  if (ask_squares(it, &from, &to, &pr)) return fail(why, n, "no pawn move named");
  arb_move ms[ARB_MAX_MOVES];
  int k = arb_generate_legal(&l.pos, ms);
  unsigned types = 0;
  for (int i = 0; i < k; i++)
    if (ARB_MOVE_FROM(ms[i]) == from && ARB_MOVE_TO(ms[i]) == to &&
        ARB_MOVE_KIND(ms[i]) == ARB_MOVE_PROMOTION)
      types |= 1u << ARB_MOVE_PROMO(ms[i]);
  if (!types) return fail(why, n, "no promotion there");
  char a[3], b[3];
  sqname(from, a);
  sqname(to, b);
  Q(it, "%s's pawn on %s moves to %s. What may it become?", side(l.pos.turn), a, b);
  const char *all = "A queen, rook, bishop or knight of its own colour";
  choice(it, "%s", all);
  choice(it, "Only a queen");
  choice(it, "Only a piece that has already been captured");
  choice(it, "Any piece, a king included");
  unsigned four = (1u << ARB_KNIGHT) | (1u << ARB_BISHOP) | (1u << ARB_ROOK) | (1u << ARB_QUEEN);
  if (types != four) return fail(why, n, "an unexpected set of promotions");
  answer(it, "%s", all);
  int queens = __builtin_popcountll(l.pos.by_type[ARB_QUEEN] & l.pos.by_color[l.pos.turn]);
  X(it,
    "The pawn must be exchanged, as part of the same move, for a new queen, rook, bishop or "
    "knight of the same colour; the choice is not restricted to pieces that have been "
    "captured%s. All four promotions %s-%s are legal here.",
    queens ? (queens == 1 ? " (a second queen is fine)" : " (another queen is fine)") : "", a, b);
  arrow(it, from, to);
  article(it, "FIDE 3.7.3.3");
  it->difficulty = 1;
  return 0;
}

static int f_promo_choices(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm = NULL;
  int ply;
  arb_position p;
  if (rn(g, 2) && game_pos(g, 0, &gm, &ply, &p)) {
  } else if (!random_position(g, rn(g, 2) ? "KPQ" : "KPR", rn(g, 2) ? "KR" : "KNP", -1, &p)) {
    return 0;
  }
  arb_move ms[ARB_MAX_MOVES];
  int k = arb_generate_legal(&p, ms);
  for (int i = 0; i < k; i++)
    if (ARB_MOVE_KIND(ms[i]) == ARB_MOVE_PROMOTION) {
      set_fen(it, &p);
      set_source(it, gm);
      char a[3], b[3];
      sqname(ARB_MOVE_FROM(ms[i]), a);
      sqname(ARB_MOVE_TO(ms[i]), b);
      snprintf(it->move, sizeof it->move, "%s%s", a, b);
      return 1;
    }
  return 0;
}

/* ======================================================================================== */
/* mate and stalemate                                                                        */
/* ======================================================================================== */

static int d_mate_state(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  const arb_position *p = &l.pos;
  const char *A = "Checkmate", *B = "Stalemate", *C = "Check, but not checkmate",
             *D = "Neither check nor stalemate: the game goes on";
  Q(it, "%s to move. What is the state of the position?", side(p->turn));
  choice(it, "%s", A);
  choice(it, "%s", B);
  choice(it, "%s", C);
  choice(it, "%s", D);
  arb_move ms[ARB_MAX_MOVES];
  int k = arb_generate_legal(p, ms);
  arb_bitboard ch = arb_checkers(p);
  char buf[64], s[ARB_SAN_MAX];
  arb_square ks = arb_king_square(p, (arb_color)p->turn);
  mark(it, ks);
  if (ch) {
    X(it, "%s's king is in check from %s", side(p->turn),
      piece_on(p, (arb_square)__builtin_ctzll(ch), buf, sizeof buf));
    for (arb_bitboard b = ch; b; b &= b - 1)
      mark(it, (arb_square)__builtin_ctzll(b));
  } else {
    X(it, "%s's king is not in check", side(p->turn));
  }
  if (k) {
    san(p, ms[0], s);
    X(it, " and %s has %d legal move%s (for example %s).", side(p->turn), k, k == 1 ? "" : "s", s);
  } else {
    X(it, " and %s has no legal move.", side(p->turn));
  }
  if (arb_is_checkmate(p)) {
    answer(it, "%s", A);
    X(it, " Checkmate: %s wins at once.", side(!p->turn));
    article(it, "FIDE 5.1.1");
    article(it, "US Chess 13A");
  } else if (arb_is_stalemate(p)) {
    answer(it, "%s", B);
    X(it, " Stalemate: the game is drawn at once.");
    article(it, "FIDE 5.2.1");
    article(it, "US Chess 14A");
  } else {
    answer(it, "%s", ch ? C : D);
    article(it, ch ? "FIDE 3.9.1" : "FIDE 5.2.1");
  }
  it->difficulty = arb_is_stalemate(p) ? 2 : (k ? 2 : 1);
  return 0;
}

static int f_mate_state(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm = NULL;
  int ply;
  arb_position p;
  int kind = rn(g, 4);
  if (kind == 0) { /* a stalemate, seeded */
    static const char *const w[] = {"KQ", "KR", "KQP", "KRB", "KBN", "KQN"};
    static const char *const b[] = {"K", "KP", "K", "KP"};
    if (!random_position(g, w[rn(g, 6)], b[rn(g, 4)], ARB_BLACK, &p)) return 0;
    if (!arb_is_stalemate(&p) && !(arb_in_check(&p) && arb_count_legal(&p) <= 1)) return 0;
  } else if (kind == 1) { /* a game's final mate */
    if (!game_pos(g, -1, &gm, &ply, &p)) return 0;
    p = gm->start;
    for (int i = 0; i < gm->nmoves; i++) {
      arb_undo u;
      arb_make_move(&p, gm->moves[i], &u);
    }
    if (!arb_is_checkmate(&p)) return 0;
  } else {
    if (!game_pos(g, -1, &gm, &ply, &p)) return 0;
    if (!arb_in_check(&p) && rn(g, 4)) return 0;
  }
  set_fen(it, &p);
  set_source(it, gm);
  return 1;
}

static int d_mate_in_one(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  arb_move mate;
  int count = mates_in_one(&l.pos, &mate, 2);
  if (count != 1) return fail(why, n, "not exactly one mate in one");
  it->kind = ARB_QUIZ_MOVE;
  char u[8], s[ARB_SAN_MAX], buf[64];
  uci(&l.pos, mate, u);
  san(&l.pos, mate, s);
  Q(it, "%s to move. Exactly one move checkmates at once: play it.", side(l.pos.turn));
  answer(it, "%s", u);
  arb_position q = l.pos;
  arb_undo un;
  arb_make_move(&q, mate, &un);
  arb_bitboard ch = arb_checkers(&q);
  X(it, "After %s %s's king on ", s, side(q.turn));
  char ks[3];
  sqname(arb_king_square(&q, (arb_color)q.turn), ks);
  X(it, "%s is in check from %s and has no legal move: checkmate.", ks,
    piece_on(&q, (arb_square)__builtin_ctzll(ch), buf, sizeof buf));
  arrow(it, ARB_MOVE_FROM(mate), ARB_MOVE_TO(mate));
  article(it, "FIDE 1.4.1");
  article(it, "FIDE 5.1.1");
  it->difficulty = 2 + (arb_count_legal(&l.pos) > 30);
  return 0;
}

static int f_mate_in_one(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm;
  int ply;
  arb_position p;
  if (!game_pos(g, -1, &gm, &ply, &p)) return 0;
  if (ply + 1 < gm->nmoves && rn(g, 3)) { /* most often the position before the game's mate */
    p = gm->start;
    for (int i = 0; i + 1 < gm->nmoves; i++) {
      arb_undo u;
      arb_make_move(&p, gm->moves[i], &u);
    }
  }
  arb_move ms[ARB_MAX_MOVES];
  int k = arb_generate_legal(&p, ms), count = 0;
  for (int i = 0; i < k && count < 2; i++)
    if (is_mate_after(&p, ms[i])) count++;
  if (count != 1) return 0;
  set_fen(it, &p);
  set_source(it, gm);
  return 1;
}

static int d_stalemate_which(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  int which = -1;
  arb_move sm = ARB_MOVE_NONE;
  for (int i = 0; i < it->nchoices; i++) {
    arb_square f, t;
    arb_piece_type pr;
    arb_move m;
    char u[8];
    if (read_move_text(it->choices[i], &f, &t, &pr))
      return fail(why, n, "choice '%s' is not a move", it->choices[i]);
    char a[3], b[3];
    sqname(f, a);
    sqname(t, b);
    snprintf(u, sizeof u, "%s%s%s", a, b, pr ? (char[]){"nbrq"[pr - ARB_KNIGHT], 0} : "");
    if (arb_uci_read(&l.pos, u, strlen(u), 0, &m) != ARB_OK)
      return fail(why, n, "choice '%s' is not legal", it->choices[i]);
    if (is_stalemate_after(&l.pos, m)) {
      if (which >= 0) return fail(why, n, "two moves stalemate");
      which = i, sm = m;
    }
  }
  if (which < 0 || it->nchoices < 3) return fail(why, n, "no move stalemates");
  Q(it, "%s to move. Which of these moves stalemates %s (and so only draws)?", side(l.pos.turn),
    side(!l.pos.turn));
  answer(it, "%s", it->choices[which]);
  arb_position q = l.pos;
  arb_undo u;
  arb_make_move(&q, sm, &u);
  char ks[3];
  sqname(arb_king_square(&q, (arb_color)q.turn), ks);
  X(it,
    "After %s %s is not in check but has no legal move: the king on %s has no free square "
    "and no other piece can move. Stalemate ends the game as a draw at once.",
    it->choices[which], side(q.turn), ks);
  mark(it, arb_king_square(&q, (arb_color)q.turn));
  arrow(it, ARB_MOVE_FROM(sm), ARB_MOVE_TO(sm));
  article(it, "FIDE 5.2.1");
  article(it, "US Chess 14A");
  it->difficulty = 3;
  return 0;
}

static int f_stalemate_which(gen *g, arb_quiz_item *it) {
  static const char *const w[] = {"KQ", "KR", "KQP", "KRR", "KQB", "KRN"};
  static const char *const b[] = {"K", "KP", "K"};
  arb_position p;
  if (!random_position(g, w[rn(g, 6)], b[rn(g, 3)], ARB_WHITE, &p)) return 0;
  arb_move ms[ARB_MAX_MOVES], other[ARB_MAX_MOVES], sm = ARB_MOVE_NONE;
  int k = arb_generate_legal(&p, ms), no = 0, ns = 0;
  for (int i = 0; i < k; i++) {
    if (is_stalemate_after(&p, ms[i]))
      sm = ms[i], ns++;
    else if (!is_mate_after(&p, ms[i]) && ARB_MOVE_KIND(ms[i]) == ARB_MOVE_NORMAL)
      other[no++] = ms[i];
  }
  if (ns != 1 || no < 3 || ARB_MOVE_KIND(sm) != ARB_MOVE_NORMAL) return 0;
  if (rn(g, 2)) {
    /* keep it mirrored half the time: Black stalemates White */
    arb_position m;
    arb_position_mirror(&p, &m);
    (void)m;
  }
  set_fen(it, &p);
  int at = rn(g, 4), used[3] = {-1, -1, -1};
  for (int c = 0, j = 0; c < 4; c++) {
    arb_move m;
    if (c == at) {
      m = sm;
    } else {
      int r, guard = 0;
      do {
        r = rn(g, no);
      } while ((r == used[0] || r == used[1] || r == used[2]) && ++guard < 40);
      used[j++] = r;
      m = other[r];
    }
    char t[16];
    move_text(&p, ARB_MOVE_FROM(m), ARB_MOVE_TO(m), ARB_NO_TYPE, t, sizeof t);
    choice(it, "%s", t);
  }
  return it->nchoices == 4;
}

/* ======================================================================================== */
/* repetition histories                                                                      */
/* ======================================================================================== */

/* A reversible move of p's side: a piece move that is no capture, no pawn move, keeps the
 * castling rights (unless lose_rights) and whose way back is legal after any quiet reply. */
static arb_move shuffle_move(gen *g, const arb_position *p, int lose_rights) {
  arb_move ms[ARB_MAX_MOVES];
  int k = arb_generate_legal(p, ms);
  for (int tries = 0; tries < 30 && k; tries++) {
    arb_move m = ms[rn(g, k)];
    unsigned info = arb_move_info(p, m);
    if (ARB_MOVE_KIND(m) != ARB_MOVE_NORMAL ||
        (info & (ARB_MOVE_IS_ZEROING | ARB_MOVE_GIVES_CHECK)))
      continue;
    arb_position q = *p;
    arb_undo u;
    arb_make_move(&q, m, &u);
    if (q.castling_rooks != p->castling_rooks && !lose_rights) continue;
    arb_move back = ARB_MOVE_MAKE(ARB_MOVE_TO(m), ARB_MOVE_FROM(m));
    arb_position r = q;
    arb_make_move(&r, ARB_MOVE_NULL, &u);
    if (!arb_is_legal(&r, back)) continue;
    return m;
  }
  return ARB_MOVE_NONE;
}

/* Builds a history from p: cycles of (a b a' b'), the first cycle perhaps a different pair
 * (a transposition / a repetition that is not consecutive), `plies` plies in all.  0 when the
 * moves do not fit. */
static int shuffle_history(gen *g, const arb_position *p, int plies, arb_move *out) {
  arb_position q = *p;
  int lose = (q.castling_rooks & q.by_color[q.turn]) && rn(g, 2);
  arb_move cyc[2][4];
  for (int c = 0; c < 2; c++) {
    arb_position r = q;
    arb_undo u;
    cyc[c][0] = shuffle_move(g, &r, lose && c == 0);
    if (!cyc[c][0]) return 0;
    arb_make_move(&r, cyc[c][0], &u);
    cyc[c][1] = shuffle_move(g, &r, 0);
    if (!cyc[c][1]) return 0;
    arb_make_move(&r, cyc[c][1], &u);
    cyc[c][2] = ARB_MOVE_MAKE(ARB_MOVE_TO(cyc[c][0]), ARB_MOVE_FROM(cyc[c][0]));
    cyc[c][3] = ARB_MOVE_MAKE(ARB_MOVE_TO(cyc[c][1]), ARB_MOVE_FROM(cyc[c][1]));
  }
  int mixed = rn(g, 3) == 0;
  for (int i = 0; i < plies; i++) {
    int c = mixed && i >= 4 && i < 8 ? 1 : 0;
    arb_move m = cyc[c][i % 4];
    if (!arb_is_legal(&q, m)) return 0;
    unsigned info = arb_move_info(&q, m);
    if (info & (ARB_MOVE_IS_ZEROING | ARB_MOVE_GIVES_CHECK)) return 0;
    out[i] = m;
    arb_undo u;
    arb_make_move(&q, m, &u);
    if (!arb_has_legal_move(&q)) return 0;
  }
  return 1;
}

static int f_shuffle(gen *g, arb_quiz_item *it, int lo, int hi) {
  const arb_quiz_game *gm;
  int ply;
  arb_position p;
  if (!game_pos(g, 0, &gm, &ply, &p) || arb_in_check(&p) || !arb_has_legal_move(&p)) return 0;
  int plies = lo + rn(g, hi - lo + 1);
  arb_move ms[ARB_QUIZ_MAX_PLIES];
  if (!shuffle_history(g, &p, plies, ms)) return 0;
  set_history(it, &p, ms, plies);
  set_source(it, gm);
  return 1;
}

static const char *const times_words[] = {"",           "Once",      "Twice", "Three times",
                                          "Four times", "Five times"};

static int d_threefold_count(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load(it, &l, why, n);
  if (st) {
    unload(&l);
    return st;
  }
  int r = arb_game_repetitions(l.game);
  if (r < 1 || r > 4 || arb_game_outcome(l.game).result != ARB_RESULT_NONE) {
    unload(&l);
    return fail(why, n, "a count out of range");
  }
  Q(it, "Count from the moves played since the position given first: how many times has the "
        "position now on the board occurred, counting now?");
  for (int i = 1; i <= 4; i++)
    choice(it, "%s", times_words[i]);
  answer(it, "%s", times_words[r]);
  repetition_words(it, &l);
  article(it, "FIDE 9.2.3");
  article(it, "US Chess 14C");
  it->difficulty = 3 + (it->nmoves > 8);
  unload(&l);
  return 0;
}

static int f_threefold_count(gen *g, arb_quiz_item *it) { return f_shuffle(g, it, 4, 11); }

static int d_threefold_claim(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load(it, &l, why, n);
  if (st) {
    unload(&l);
    return st;
  }
  if (arb_game_outcome(l.game).result != ARB_RESULT_NONE) {
    unload(&l);
    return fail(why, n, "the game is over");
  }
  const arb_position *p = &l.pos;
  int now3 = arb_game_repetitions(l.game) >= 3;
  arb_move ms[ARB_MAX_MOVES], rep = ARB_MOVE_NONE, norep = ARB_MOVE_NONE;
  int k = arb_generate_legal(p, ms);
  for (int i = 0; i < k; i++) {
    int r = arb_game_repetitions_after(l.game, ms[i]);
    if (r >= 3 && !rep) rep = ms[i];
    if (r < 3 && !norep && ARB_MOVE_KIND(ms[i]) == ARB_MOVE_NORMAL &&
        !(arb_move_info(p, ms[i]) & ARB_MOVE_IS_ZEROING))
      norep = ms[i];
  }
  arb_move named = !now3 && rep ? rep : norep;
  if (!named) {
    unload(&l);
    return fail(why, n, "no move to name");
  }
  char sn[ARB_SAN_MAX];
  san(p, named, sn);
  const char *A = "Yes: the position on the board has occurred three times";
  char B[ARB_QUIZ_TEXT];
  snprintf(B, sizeof B, "Yes, by writing %s on the scoresheet and claiming before playing it", sn);
  const char *C = "No: the repetitions must follow one another without other moves between";
  const char *D = "No: no position has occurred, or would occur, a third time";
  Q(it, "It is %s's move. May %s claim a draw by threefold repetition, and how?", side(p->turn),
    side(p->turn));
  choice(it, "%s", A);
  choice(it, "%s", B);
  choice(it, "%s", C);
  choice(it, "%s", D);
  if (now3)
    answer(it, "%s", A);
  else if (rep)
    answer(it, "%s", B);
  else
    answer(it, "%s", D);
  repetition_words(it, &l);
  if (now3)
    X(it, " The player to move claims it now (FIDE 9.2.2); no move needs to be named.");
  else if (rep)
    X(it,
      " The position after %s would occur a third time: %s writes the move, does not play "
      "it, and claims (FIDE 9.2.1). The occurrences need not be consecutive.",
      sn, side(p->turn));
  else
    X(it, " Not yet three times, and %s would not make it so.", sn);
  article(it, "FIDE 9.2.1");
  article(it, "FIDE 9.2.2");
  article(it, "US Chess 14C");
  it->difficulty = rep && !now3 ? 4 : 3;
  unload(&l);
  return 0;
}

static int f_threefold_claim(gen *g, arb_quiz_item *it) { return f_shuffle(g, it, 3, 10); }

static int d_threefold_wrong(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load(it, &l, why, n);
  if (st) {
    unload(&l);
    return st;
  }
  arb_move m;
  if (ask_legal(it, &l.pos, &m)) {
    unload(&l);
    return fail(why, n, "the intended move is not legal");
  }
  int me = l.pos.turn;
  arb_claim_verdict v;
  if (arb_game_claim(l.game, (arb_color)me, ARB_CLAIM_THREEFOLD, m, &v) != ARB_OK) {
    unload(&l);
    return fail(why, n, "no claim possible under these rules");
  }
  char sn[ARB_SAN_MAX];
  san(&l.pos, m, sn);
  Q(it,
    "Under %s, %s writes %s on the scoresheet and claims a draw by threefold repetition "
    "without playing it. What follows?",
    rules_words(it->rules), side(me), sn);
  const char *A = "The game is drawn";
  char B[ARB_QUIZ_TEXT], C[ARB_QUIZ_TEXT], D[ARB_QUIZ_TEXT], E[ARB_QUIZ_TEXT];
  snprintf(B, sizeof B, "%s gets 2 extra minutes and %s must play %s", side(!me), side(me), sn);
  snprintf(C, sizeof C, "%s gets 1 extra minute and %s must play %s", side(!me), side(me), sn);
  snprintf(D, sizeof D, "%s gets 2 extra minutes and %s may play any move", side(!me), side(me));
  snprintf(E, sizeof E, "%s loses the game", side(me));
  choice(it, "%s", A);
  choice(it, "%s", B);
  choice(it, "%s", C);
  choice(it, "%s", D);
  choice(it, "%s", E);
  int r = arb_game_repetitions_after(l.game, m);
  if (v.correct) {
    answer(it, "%s", A);
    X(it,
      "The claim is correct: after %s the position would stand on the board for the third "
      "time, so the game is drawn without the move being played.",
      sn);
  } else if (v.must_play && v.penalty_s == 120) {
    answer(it, "%s", B);
  } else if (v.must_play && v.penalty_s == 60) {
    answer(it, "%s", C);
  } else {
    unload(&l);
    return fail(why, n, "a verdict this template does not word");
  }
  if (!v.correct)
    X(it,
      "The claim is wrong: after %s the position would have occurred only %d time%s. The "
      "opponent gets %d minute%s and the move written must now be played (FIDE 9.5.3).",
      sn, r, r == 1 ? "" : "s", v.penalty_s / 60, v.penalty_s == 60 ? "" : "s");
  article(it, "FIDE 9.2.1");
  article(it, "FIDE 9.5.3");
  if (l.rules == ARB_RULES_FIDE_RAPID || l.rules == ARB_RULES_FIDE_BLITZ) article(it, "FIDE A.3");
  if (l.rules == ARB_RULES_USCF) article(it, "US Chess 14C");
  it->difficulty = 4;
  unload(&l);
  return 0;
}

static int f_threefold_wrong(gen *g, arb_quiz_item *it) {
  if (!f_shuffle(g, it, 3, 6)) return 0;
  static const char *const rs[] = {"fide", "fide-rapid", "fide-blitz", "uscf"};
  snprintf(it->rules, sizeof it->rules, "%s", rs[rn(g, 4)]);
  loaded l;
  if (load(it, &l, NULL, 0)) {
    unload(&l);
    return 0;
  }
  arb_move ms[ARB_MAX_MOVES], pick = ARB_MOVE_NONE;
  int k = arb_generate_legal(&l.pos, ms), want_right = rn(g, 4) == 0;
  for (int i = 0; i < k && !pick; i++) {
    int r = arb_game_repetitions_after(l.game, ms[i]);
    if ((r >= 3) == want_right && (r == 2 || want_right) &&
        !(arb_move_info(&l.pos, ms[i]) & ARB_MOVE_IS_ZEROING))
      pick = ms[i];
  }
  if (pick) uci(&l.pos, pick, it->move);
  unload(&l);
  return pick != ARB_MOVE_NONE;
}

/* ======================================================================================== */
/* fivefold                                                                                  */
/* ======================================================================================== */

static int d_fivefold(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load(it, &l, why, n);
  if (st) {
    unload(&l);
    return st;
  }
  arb_game_facts f;
  arb_game_facts_of(l.game, &f);
  arb_outcome o = arb_game_outcome(l.game);
  if (f.repetitions < 3) {
    unload(&l);
    return fail(why, n, "fewer than three occurrences");
  }
  Q(it,
    "Under %s: the moves since the position given first have just been played. What "
    "happens now?",
    rules_words(it->rules));
  const char *A = "The game is drawn at once: no claim is needed";
  const char *B = "Play goes on unless the player to move claims a draw";
  const char *C = "Play goes on; the director may declare a draw, but nothing is automatic";
  const char *D = "Play goes on: a draw by repetition needs both players to agree";
  choice(it, "%s", A);
  choice(it, "%s", B);
  choice(it, "%s", C);
  choice(it, "%s", D);
  if (o.termination == ARB_TERM_FIVEFOLD_REPETITION)
    answer(it, "%s", A);
  else if (o.result == ARB_RESULT_NONE && f.fivefold)
    answer(it, "%s", C);
  else if (o.result == ARB_RESULT_NONE && f.threefold && f.can_claim_threefold)
    answer(it, "%s", B);
  else {
    unload(&l);
    return fail(why, n, "an outcome this template does not word");
  }
  repetition_words(it, &l);
  if (o.termination == ARB_TERM_FIVEFOLD_REPETITION)
    X(it, " Five occurrences end the game as a draw by themselves (FIDE 9.6.1).");
  else if (f.fivefold)
    X(it, " Under US Chess rules a fivefold repetition does not end the game by itself: the "
          "director may declare the draw (14K); a player may still claim.");
  else
    X(it, " Three or four occurrences give the player to move the right to claim (FIDE 9.2); "
          "only the fifth ends the game by itself.");
  article(it, "FIDE 9.6.1");
  article(it, "FIDE 9.2.2");
  if (l.rules == ARB_RULES_USCF) article(it, "US Chess 14K");
  it->difficulty = f.fivefold ? 3 : 4;
  unload(&l);
  return 0;
}

static int f_fivefold(gen *g, arb_quiz_item *it) {
  static const char *const rs[] = {"fide", "uscf", "fide-rapid", "casual"};
  snprintf(it->rules, sizeof it->rules, "%s", rs[rn(g, 4)]);
  return f_shuffle(g, it, 12, 16);
}

/* ======================================================================================== */
/* fifty and seventy-five moves                                                              */
/* ======================================================================================== */

/* A position of a real game with the halfmove clock set to h (its pieces, the side to move). */
static int clocked(gen *g, const arb_quiz_game **gm, arb_position *p, unsigned h) {
  int ply;
  if (!game_pos(g, 0, gm, &ply, p) || !arb_has_legal_move(p)) return 0;
  arb_position_set_counters(
      p, h, p->fullmove_number < 60 ? 60 + (unsigned)rn(g, 40) : p->fullmove_number);
  return arb_position_validate(p, 0, NULL) == ARB_OK;
}

static int d_fifty_claim(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load(it, &l, why, n);
  if (st) {
    unload(&l);
    return st;
  }
  arb_move m;
  unsigned h = l.pos.halfmove_clock;
  if (ask_legal(it, &l.pos, &m) || h >= 100 || h < 96) {
    unload(&l);
    return fail(why, n, "not a fifty-move question");
  }
  int ok = arb_game_claim_correct(l.game, ARB_CLAIM_FIFTY, m);
  unsigned info = arb_move_info(&l.pos, m);
  unload(&l);
  char sn[ARB_SAN_MAX];
  san(&l.pos, m, sn);
  Q(it,
    "The last %u plies (moves of either player) had no capture and no pawn move. %s writes "
    "%s on the scoresheet and claims a draw under the 50-move rule without playing it. Is "
    "the claim correct?",
    h, side(l.pos.turn), sn);
  const char *A =
      "Yes: with that move the last 50 moves by each player have no capture or pawn move";
  const char *B = "No: a pawn move starts the count again";
  const char *C = "No: a capture starts the count again";
  const char *D = "No: 50 moves by each player would not yet be complete";
  const char *E = "No: castling starts the count again";
  choice(it, "%s", A);
  choice(it, "%s", B);
  choice(it, "%s", C);
  choice(it, "%s", D);
  choice(it, "%s", E);
  if (ok)
    answer(it, "%s", A);
  else if (info & ARB_MOVE_IS_CAPTURE)
    answer(it, "%s", C);
  else if (info & ARB_MOVE_IS_ZEROING)
    answer(it, "%s", B);
  else
    answer(it, "%s", D);
  if (ok)
    X(it,
      "%s would be the 100th ply in a row without a capture or a pawn move, so the claim "
      "with the move written (not played) is correct (FIDE 9.3.1).%s",
      sn,
      ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING ? " Castling is a king move: it resets nothing." : "");
  else if (info & ARB_MOVE_IS_ZEROING)
    X(it,
      "%s is a %s, which starts the count of 50 moves again: the claim is wrong, the "
      "opponent gets extra time and %s must be played (FIDE 9.5.3).",
      sn, info & ARB_MOVE_IS_CAPTURE ? "capture" : "pawn move", sn);
  else
    X(it,
      "After %s only %u plies would have passed; 50 moves by each player are 100 plies. The "
      "claim is wrong (FIDE 9.5.3).",
      sn, h + 1);
  arrow(it, ARB_MOVE_FROM(m), ARB_MOVE_TO(m));
  article(it, "FIDE 9.3.1");
  article(it, "FIDE 9.5.3");
  article(it, "US Chess 14F");
  it->difficulty = 3;
  return 0;
}

static int f_fifty_claim(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm;
  arb_position p;
  unsigned h = rn(g, 4) ? 99 : 98;
  if (!clocked(g, &gm, &p, h)) return 0;
  arb_move ms[ARB_MAX_MOVES], pick = ARB_MOVE_NONE;
  int k = arb_generate_legal(&p, ms), want = rn(g, 4);
  for (int tries = 0; tries < 40 && !pick; tries++) {
    arb_move m = ms[rn(g, k)];
    unsigned info = arb_move_info(&p, m);
    int kind = ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING ? 3
               : (info & ARB_MOVE_IS_CAPTURE)        ? 2
               : (info & ARB_MOVE_IS_ZEROING)        ? 1
                                                     : 0;
    if (kind == want || (want == 3 && tries > 20 && kind == 0)) pick = m;
  }
  if (!pick) return 0;
  set_fen(it, &p);
  set_source(it, gm);
  uci(&p, pick, it->move);
  return 1;
}

static int d_seventyfive(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load(it, &l, why, n);
  if (st) {
    unload(&l);
    return st;
  }
  arb_move m;
  unsigned h = l.pos.halfmove_clock;
  if (ask_legal(it, &l.pos, &m) || (h != 99 && h != 149)) {
    unload(&l);
    return fail(why, n, "not a last-move question");
  }
  char sn[ARB_SAN_MAX];
  san(&l.pos, m, sn);
  int me = l.pos.turn;
  arb_game_play(l.game, m);
  arb_outcome o = arb_game_outcome(l.game);
  arb_game_facts f;
  arb_game_facts_of(l.game, &f);
  unload(&l);
  Q(it,
    "Under %s. The last %u plies had no capture and no pawn move; now %s plays %s. What "
    "is the result?",
    rules_words(it->rules), h, side(me), sn);
  char A[ARB_QUIZ_TEXT];
  snprintf(A, sizeof A, "%s wins: the checkmate counts", side(me));
  const char *B = "Draw: the game ends automatically under the 75-move rule";
  const char *C = "Play goes on, but the player to move may now claim a draw";
  const char *D = "Play goes on: nobody may claim anything yet";
  choice(it, "%s", A);
  choice(it, "%s", B);
  choice(it, "%s", C);
  choice(it, "%s", D);
  if (o.termination == ARB_TERM_CHECKMATE)
    answer(it, "%s", A);
  else if (o.termination == ARB_TERM_SEVENTYFIVE_MOVES)
    answer(it, "%s", B);
  else if (o.result == ARB_RESULT_NONE && f.can_claim_fifty)
    answer(it, "%s", C);
  else if (o.result == ARB_RESULT_NONE)
    answer(it, "%s", D);
  else
    return fail(why, n, "an outcome this template does not word");
  if (o.termination == ARB_TERM_CHECKMATE)
    X(it,
      "%s mates. Checkmate ends the game at once, so the move-count rules never come into "
      "play: a mate on the %uth ply wins (FIDE 5.1.1, 9.6.2).",
      sn, h + 1);
  else if (o.termination == ARB_TERM_SEVENTYFIVE_MOVES)
    X(it,
      "%s is the 150th ply without a capture or a pawn move and not a mate: the game is "
      "drawn without any claim (FIDE 9.6.2).",
      sn);
  else if (f.can_claim_fifty)
    X(it, "After %s, %u plies have passed without a capture or pawn move; %s", sn, h + 1,
      h + 1 >= 150 ? "under US Chess rules the 75-move rule is not automatic (the director may "
                     "declare it, 14K), and the player to move may claim the 50-move draw."
                   : "50 moves by each player: the player to move may claim a draw (FIDE 9.3), "
                     "nothing happens by itself.");
  else
    X(it, "%s resets the count.", sn);
  article(it, h == 149 ? "FIDE 9.6.2" : "FIDE 9.3.2");
  article(it, "FIDE 5.1.1");
  article(it, h == 149 ? "US Chess 14K" : "US Chess 14F");
  it->difficulty = o.termination == ARB_TERM_CHECKMATE ? 3 : 2;
  return 0;
}

static int f_seventyfive(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm;
  arb_position p;
  unsigned h = rn(g, 2) ? 149 : 99;
  if (!clocked(g, &gm, &p, h)) return 0;
  static const char *const rs[] = {"fide", "fide", "uscf", "fide-rapid"};
  snprintf(it->rules, sizeof it->rules, "%s", rs[rn(g, 4)]);
  arb_move ms[ARB_MAX_MOVES], pick = ARB_MOVE_NONE;
  int k = arb_generate_legal(&p, ms), mate = rn(g, 2);
  for (int i = 0; i < k && !pick; i++)
    if (mate ? is_mate_after(&p, ms[i])
             : !(arb_move_info(&p, ms[i]) & ARB_MOVE_IS_ZEROING) && !is_mate_after(&p, ms[i]) &&
                   rn(g, 3) == 0)
      pick = ms[i];
  if (!pick) return 0;
  set_fen(it, &p);
  set_source(it, gm);
  uci(&p, pick, it->move);
  return 1;
}

/* ======================================================================================== */
/* dead positions                                                                            */
/* ======================================================================================== */

static void line_words(const arb_position *p, const arb_move *line, int n, char *buf, size_t sz) {
  arb_position q = *p;
  buf[0] = 0;
  for (int i = 0; i < n && i < 12; i++) {
    char s[24];
    if (i == 0 || q.turn == ARB_WHITE)
      numbered(&q, line[i], s, sizeof s);
    else
      san(&q, line[i], s);
    appendf(buf, sz, "%s%s", i ? " " : "", s);
    arb_undo u;
    arb_make_move(&q, line[i], &u);
  }
  if (n > 12) appendf(buf, sz, " ...");
}

static int d_dead(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  const arb_position *p = &l.pos;
  arb_winnability w[2];
  int dead = arb_is_dead_position(p);
  for (int c = 0; c < 2; c++)
    arb_winnability_of(p, (arb_color)c, 0, &w[c]);
  int proven_dead = w[0].verdict == ARB_WIN_UNWINNABLE && w[1].verdict == ARB_WIN_UNWINNABLE;
  int alive = w[0].verdict == ARB_WIN_WINNABLE || w[1].verdict == ARB_WIN_WINNABLE;
  if (!(dead || proven_dead) && !alive) return fail(why, n, "undecided");
  if ((dead || proven_dead) && alive) return fail(why, n, "contradiction");
  Q(it, "%s to move. Under the FIDE Laws, what is the state of this game?", side(p->turn));
  const char *A = "Drawn at once: no sequence of legal moves can lead to checkmate";
  const char *B = "Play goes on: a checkmate is still possible with the help of the opponent";
  const char *C = "Drawn only if a player claims insufficient material";
  const char *D = "Play goes on until a flag falls, which then draws";
  choice(it, "%s", A);
  choice(it, "%s", B);
  choice(it, "%s", C);
  choice(it, "%s", D);
  int knights = __builtin_popcountll(p->by_type[ARB_KNIGHT]);
  if (!alive) {
    answer(it, "%s", A);
    X(it,
      "Neither side can ever checkmate, whatever moves are played (%s for White, %s for "
      "Black), so the position is dead and the game is drawn at once: no claim is needed.",
      arb_win_proof_name(w[0].proof), arb_win_proof_name(w[1].proof));
  } else {
    answer(it, "%s", B);
    int c = w[0].verdict == ARB_WIN_WINNABLE ? 0 : 1;
    char line[200];
    line_words(p, w[c].line, w[c].line_len, line, sizeof line);
    X(it,
      "The position is not dead: %s can still be mated, for example by %s. The game goes "
      "on; a draw needs agreement, a claim, or another rule.",
      side(!c), w[c].line_len ? line : "the mate on the board");
    if (knights >= 2 && !p->by_type[ARB_PAWN])
      X(it, " Two knights cannot force mate, but a mate exists, so this is not 'insufficient "
            "material'.");
  }
  article(it, "FIDE 5.2.2");
  article(it, "US Chess 14D");
  it->difficulty = knights >= 2 || p->by_type[ARB_PAWN] ? 4 : 2;
  return 0;
}

static const char *const dead_fens[] = {
    "k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1", "k7/2b5/8/p1p1p1p1/P1P1P1P1/8/4B3/K7 w - - 0 1",
    "8/8/4k3/1p1p1p1p/1P1P1P1P/8/3K4/8 b - - 0 1", "8/2k5/8/p1p1p1p1/P1P1P1P1/8/5K2/8 w - - 0 1",
    "7k/8/8/1p1p1p1p/1P1P1P1P/8/8/1K6 w - - 0 1"};

static int f_dead(gen *g, arb_quiz_item *it) {
  static const char *const w[] = {"K",   "KB",  "KN", "KNN", "KB", "KN",  "KB",
                                  "KBB", "KNN", "KR", "KNN", "KB", "KBN", "KN"};
  static const char *const b[] = {"K", "K",  "K",  "K",  "KB", "KN", "KN",
                                  "K", "KP", "KN", "KB", "KP", "K",  "KB"};
  arb_position p;
  if (rn(g, 6) == 0) {
    arb_fen_read(&p, dead_fens[rn(g, 5)], 0, NULL);
  } else {
    int k = rn(g, 14);
    if (!random_position(g, w[k], b[k], -1, &p)) return 0;
  }
  if (rn(g, 2)) arb_position_mirror(&p, &p);
  if (!arb_has_legal_move(&p)) return 0;
  set_fen(it, &p);
  return 1;
}

/* ======================================================================================== */
/* agreement                                                                                 */
/* ======================================================================================== */

/* Over-the-board and procedural templates run the item's event log through the referees of
 * the library (arb_otb, arb_game, arb_flag_fall, arb_record_duty_of) and word what they
 * decided; nothing below decides a rule itself. */

typedef struct otb_run {
  arb_otb_decision d[ARB_QUIZ_MAX_EVENTS]; /* the decision on each logged event */
  int kind[ARB_QUIZ_MAX_EVENTS];           /* its arb_otb_kind, -1 for earlier_illegal */
  int n;
} otb_run;

static const char *otb_control(arb_otb_rules r) {
  switch (r) {
  case ARB_OTB_FIDE_RAPID: return "900+10";
  case ARB_OTB_FIDE_BLITZ: return "180+2";
  case ARB_OTB_USCF_BLITZ: return "300+2";
  default: return "5400+30";
  }
}

static int run_otb(const arb_quiz_item *it, const arb_position *pos, otb_run *run, char *why,
                   size_t n) {
  arb_otb_rules r;
  if (arb_otb_rules_parse(it->rules, strlen(it->rules), &r) != ARB_OK)
    return fail(why, n, "rules '%s' are not rules over the board", it->rules);
  arb_otb_setup s = ARB_OTB_SETUP_INIT;
  s.start = pos;
  s.rules = r;
  arb_time_control tc;
  const char *ctl = otb_control(r);
  if (arb_tc_parse(ctl, strlen(ctl), ARB_TC_PGN, &tc, NULL) == ARB_OK) s.control = &tc;
  for (int i = 0; i < it->nevents; i++)
    if (!strcmp(it->events[i].type, "earlier_illegal") && (it->events[i].by & ~1) == 0 &&
        s.illegal_count[it->events[i].by] < 1)
      s.illegal_count[it->events[i].by]++;
  arb_otb *o = arb_otb_new();
  if (!o) return fail(why, n, "out of memory");
  arb_otb_event ev = ARB_OTB_EVENT_INIT(ARB_OTB_START, 0);
  ev.setup = &s;
  arb_otb_decision d;
  if (arb_otb_event_apply(o, &ev, &d) != ARB_OK) {
    arb_otb_free(o);
    return fail(why, n, "the referee does not start: %s", d.message);
  }
  memset(run, 0, sizeof *run);
  int64_t t = 0;
  for (int i = 0; i < it->nevents; i++) {
    const arb_quiz_event *e = &it->events[i];
    run->kind[run->n] = -1;
    if (!strcmp(e->type, "earlier_illegal")) {
      memset(&run->d[run->n++], 0, sizeof run->d[0]);
      continue;
    }
    arb_otb_kind k;
    if (arb_otb_kind_parse(e->type, strlen(e->type), &k) != ARB_OK || k == ARB_OTB_START) {
      arb_otb_free(o);
      return fail(why, n, "event %d: unknown type '%s'", i + 1, e->type);
    }
    ev = (arb_otb_event)ARB_OTB_EVENT_INIT(k, t += 1000);
    ev.by = e->by;
    for (int q = 0; q < e->nsquares && q < 4; q++)
      if (read_sq(e->squares[q], &ev.squares[ev.square_count++])) {
        arb_otb_free(o);
        return fail(why, n, "event %d: bad square '%s'", i + 1, e->squares[q]);
      }
    ev.order = ARB_OTB_ORDER_FIRST;
    ev.intent = !strcmp(e->intent, "castle")   ? ARB_OTB_INTENT_CASTLE
                : !strcmp(e->intent, "adjust") ? ARB_OTB_INTENT_ADJUST
                                               : ARB_OTB_INTENT_MOVE;
    ev.hands = e->hands ? e->hands : 1;
    if (e->move[0]) {
      ev.text = e->move;
      ev.text_len = strlen(e->move);
    }
    if (e->matter[0] && arb_otb_matter_parse(e->matter, strlen(e->matter), &ev.matter) != ARB_OK) {
      arb_otb_free(o);
      return fail(why, n, "event %d: unknown claim '%s'", i + 1, e->matter);
    }
    arb_otb_event_apply(o, &ev, &run->d[run->n]);
    run->kind[run->n++] = (int)k;
  }
  arb_otb_free(o);
  if (!run->n) return fail(why, n, "no events");
  return 0;
}

static const char *otb_rules_words(const char *name) {
  if (!strcmp(name, "uscf-blitz")) return "US Chess blitz rules";
  return rules_words(name);
}

static void minutes_words(int s, char *buf, size_t n) {
  if (s % 60 == 0)
    snprintf(buf, n, "%d extra minute%s", s / 60, s == 60 ? "" : "s");
  else
    snprintf(buf, n, "%d extra seconds", s);
}

/* ======================================================================================== */
/* agreement and offers                                                                      */
/* ======================================================================================== */

static void event_words(const arb_position *p, const arb_quiz_event *e, char *buf, size_t n) {
  buf[0] = 0;
  if (!strcmp(e->type, "move") || !strcmp(e->type, "touch")) {
    arb_square f, t;
    arb_piece_type pr;
    if (!strcmp(e->type, "touch") && e->nsquares && !read_sq(e->squares[0], &f)) {
      char b[48];
      snprintf(buf, n, "touches %s", piece_on(p, f, b, sizeof b));
    } else if (arb_uci_read_squares(e->move, strlen(e->move), &f, &t, &pr) == ARB_OK) {
      char mt[16];
      move_text(p, f, t, pr, mt, sizeof mt);
      snprintf(buf, n, "plays %s", mt);
    }
  } else if (!strcmp(e->type, "press")) {
    snprintf(buf, n, "presses the clock");
  } else if (!strcmp(e->type, "offer_draw")) {
    snprintf(buf, n, "offers a draw");
  } else if (!strcmp(e->type, "accept_draw")) {
    snprintf(buf, n, "accepts the draw");
  } else if (!strcmp(e->type, "decline_draw")) {
    snprintf(buf, n, "says \"no, thank you\"");
  }
}

static int d_offer(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  otb_run run;
  if ((st = run_otb(it, &l.pos, &run, why, n))) return st;
  int last = run.n - 1, offer = -1, lapsed = -1;
  if (strcmp(it->events[last].type, "accept_draw"))
    return fail(why, n, "no acceptance asked about");
  for (int i = 0; i < last; i++) {
    if (run.kind[i] == ARB_OTB_OFFER_DRAW && run.d[i].draw_offer >= 0) offer = i;
    if (offer >= 0 && lapsed < 0 && i > offer && run.d[i].draw_offer < 0) lapsed = i;
  }
  if (offer < 0) return fail(why, n, "no offer stood");
  const arb_otb_decision *d = &run.d[last];
  int drawn = d->over && d->outcome.termination == ARB_TERM_AGREEMENT;
  int by = it->events[offer].by, to = !by;
  char story[300] = "";
  arb_position p = l.pos;
  for (int i = 0; i < last; i++) {
    char w[80];
    event_words(&p, &it->events[i], w, sizeof w);
    if (!w[0]) continue;
    appendf(story, sizeof story, "%s%s %s", story[0] ? ", " : "", side(it->events[i].by), w);
    if (run.d[i].made) arb_fen_read(&p, run.d[i].fen, 0, NULL);
  }
  Q(it, "Under %s: %s. Then %s says \"I accept\". Is the game drawn?", rules_words(it->rules),
    story, side(to));
  choice(it, "Yes: the offer still stood");
  choice(it, "No: the offer had lapsed");
  choice(it, "Yes: an offer stands until the end of the game");
  choice(it, "No: a draw offer must be accepted within one minute");
  answer(it, drawn ? "Yes: the offer still stood" : "No: the offer had lapsed");
  if (drawn) {
    X(it,
      "%s offered a draw and %s had neither rejected it orally, nor touched a piece to move "
      "or capture it, nor made a move: the offer stood, and accepting it ends the game in a "
      "draw by agreement.",
      side(by), side(to));
  } else {
    char w[80] = "";
    if (lapsed >= 0) event_words(&l.pos, &it->events[lapsed], w, sizeof w);
    X(it,
      "An offer stands until the opponent accepts it, rejects it orally, touches a piece "
      "with the intention of moving or capturing it, or the game ends otherwise. It lapsed "
      "when %s %s; the later \"I accept\" comes too late.",
      side(to), w[0] ? w : "answered");
  }
  article(it, "FIDE 9.1.2.2");
  article(it, "US Chess 14B");
  it->difficulty = drawn ? 2 : 3;
  return 0;
}

static void add_event(arb_quiz_item *it, const char *type, int by, const char *move) {
  if (it->nevents >= ARB_QUIZ_MAX_EVENTS) return;
  arb_quiz_event *e = &it->events[it->nevents++];
  memset(e, 0, sizeof *e);
  snprintf(e->type, sizeof e->type, "%s", type);
  e->by = (int8_t)by;
  if (move) snprintf(e->move, sizeof e->move, "%s", move);
}

static void add_touch(arb_quiz_item *it, int by, arb_square sq) {
  add_event(it, "touch", by, NULL);
  arb_quiz_event *e = &it->events[it->nevents - 1];
  sqname(sq, e->squares[0]);
  e->nsquares = 1;
}

static arb_move random_legal(gen *g, const arb_position *p) {
  arb_move ms[ARB_MAX_MOVES];
  int k = arb_generate_legal(p, ms);
  return k ? ms[rn(g, k)] : ARB_MOVE_NONE;
}

static int f_offer(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm;
  int ply;
  arb_position p;
  if (!game_pos(g, 0, &gm, &ply, &p) || ply < 10) return 0;
  arb_move m = random_legal(g, &p);
  if (!m) return 0;
  arb_position q = p;
  arb_undo u;
  arb_make_move(&q, m, &u);
  arb_move r = random_legal(g, &q);
  if (!r || !arb_has_legal_move(&q)) return 0;
  set_fen(it, &p);
  set_source(it, gm);
  int me = p.turn;
  char mu[8], ru[8];
  uci(&p, m, mu);
  uci(&q, r, ru);
  add_event(it, "move", me, mu);
  add_event(it, "offer_draw", me, NULL);
  add_event(it, "press", me, NULL);
  switch (rn(g, 4)) {
  case 0: break; /* thinks, then accepts */
  case 1: add_touch(it, !me, ARB_MOVE_FROM(r)); break;
  case 2:
    add_event(it, "move", !me, ru);
    add_event(it, "press", !me, NULL);
    break;
  default: add_event(it, "decline_draw", !me, NULL); break;
  }
  add_event(it, "accept_draw", !me, NULL);
  return 1;
}

/* ======================================================================================== */
/* flags                                                                                     */
/* ======================================================================================== */

static int d_flag(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  int flagged = it->clock.flag;
  if (!it->clock.present || (flagged != ARB_WHITE && flagged != ARB_BLACK))
    return fail(why, n, "no flag down");
  arb_flag_verdict v = arb_flag_fall(&l.pos, (arb_color)flagged, l.rules, -1, ARB_RESULT_NONE);
  int other = !flagged;
  char A[ARB_QUIZ_TEXT], B[ARB_QUIZ_TEXT], C[ARB_QUIZ_TEXT];
  snprintf(A, sizeof A, "%s wins on time", side(other));
  snprintf(B, sizeof B, "Draw: %s cannot checkmate by any series of legal moves", side(other));
  snprintf(C, sizeof C, "Draw: %s has too little material to win on time", side(other));
  const char *D = "Draw: the position is dead";
  Q(it, "Under %s, %s's flag falls in this position (%s to move). What is the result?",
    rules_words(it->rules), side(flagged), side(l.pos.turn));
  choice(it, "%s", A);
  choice(it, "%s", B);
  choice(it, "%s", C);
  choice(it, "%s", D);
  arb_winnability w;
  arb_winnability_of(&l.pos, (arb_color)other, 0, &w);
  char line[200] = "";
  if (w.verdict == ARB_WIN_WINNABLE && w.line_len)
    line_words(&l.pos, w.line, w.line_len, line, sizeof line);
  switch (v.reason) {
  case ARB_FLAG_LOSS:
    answer(it, "%s", A);
    X(it, "%s still has a way to checkmate", side(other));
    if (line[0]) X(it, " (for example %s, with %s's help)", line, side(flagged));
    X(it, ", so the flag loses the game");
    if (l.rules == ARB_RULES_USCF)
      X(it, "; US Chess declares a draw only when the opponent has a lone king, a lone minor "
            "piece or two knights against no pawns, or cannot mate at all");
    X(it, ". Having little material is not enough to draw on time.");
    break;
  case ARB_FLAG_CANNOT_MATE:
    answer(it, "%s", B);
    X(it,
      "No series of legal moves lets %s checkmate (%s), so the game is drawn although %s's "
      "flag fell.",
      side(other), arb_win_proof_name(w.proof), side(flagged));
    break;
  case ARB_FLAG_INSUFFICIENT:
    answer(it, "%s", C);
    X(it,
      "%s has material that cannot win on time under these rules, so the flag gives a "
      "draw%s%s%s.",
      side(other), line[0] ? " even though a mate could be constructed (" : "", line,
      line[0] ? ")" : "");
    break;
  case ARB_FLAG_DEAD_POSITION:
    answer(it, "%s", D);
    X(it, "The position is dead: neither side can checkmate by any series of legal moves, so "
          "the game is drawn whatever the clock shows.");
    break;
  default: return fail(why, n, "a verdict this template does not word");
  }
  article(it, "FIDE 6.9");
  article(it, "US Chess 14E");
  it->difficulty = v.reason == ARB_FLAG_LOSS && w.line_len > 2 ? 4 : 3;
  return 0;
}

static int flag_find(gen *g, arb_quiz_item *it, const char *rules) {
  /* [0]: the side with time, [1]: the flagged side */
  static const char *const mats[][2] = {{"K", "KQ"},  {"KN", "KP"},  {"KB", "KP"},  {"KN", "K"},
                                        {"KB", "KR"}, {"KNN", "K"},  {"KNN", "KP"}, {"KR", "KR"},
                                        {"KP", "KQ"}, {"KB", "KB"},  {"KN", "KQ"},  {"KBN", "K"},
                                        {"KB", "KN"}, {"KN", "KPP"}, {"KQ", "KR"},  {"KB", "KPP"},
                                        {"KN", "KN"}, {"KPP", "KR"}, {"K", "KPP"},  {"KR", "KP"}};
  int k = rn(g, (int)(sizeof mats / sizeof mats[0]));
  int flagged = rn(g, 2);
  arb_position p;
  if (!random_position(g, flagged ? mats[k][0] : mats[k][1], flagged ? mats[k][1] : mats[k][0], -1,
                       &p) ||
      !arb_has_legal_move(&p))
    return 0;
  set_fen(it, &p);
  snprintf(it->rules, sizeof it->rules, "%s", rules);
  it->clock.present = 1;
  it->clock.flag = (int8_t)flagged;
  it->clock.ms[flagged] = 0;
  it->clock.ms[!flagged] = 1000 * (1 + rn(g, 120));
  it->clock.last_period = 1;
  return 1;
}

static int f_flag(gen *g, arb_quiz_item *it) {
  static const char *const rs[] = {"fide", "fide-blitz", "uscf", "fide-rapid"};
  return flag_find(g, it, rs[rn(g, 4)]);
}

static int f_online_flag(gen *g, arb_quiz_item *it) { return flag_find(g, it, "online"); }

/* ======================================================================================== */
/* touch move                                                                                */
/* ======================================================================================== */

static int d_touch(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  otb_run run;
  if ((st = run_otb(it, &l.pos, &run, why, n))) return st;
  const arb_otb_decision *d = &run.d[run.n - 1];
  const arb_otb_obligation *ob = &d->obligation;
  int me = l.pos.turn, adjust = 0;
  char story[240] = "";
  for (int i = 0; i < it->nevents; i++) {
    const arb_quiz_event *e = &it->events[i];
    if (e->by != me) return fail(why, n, "an event by the player not having the move");
    if (!strcmp(e->type, "adjust_announce")) {
      adjust = 1;
      appendf(story, sizeof story, "%ssays \"j'adoube\"", story[0] ? ", then " : "");
    } else if (!strcmp(e->type, "touch")) {
      arb_square s;
      char b[48];
      if (!e->nsquares || read_sq(e->squares[0], &s))
        return fail(why, n, "a touch without a square");
      appendf(story, sizeof story, "%s%s %s", story[0] ? ", then " : "",
              adjust ? "adjusts" : "touches", piece_on(&l.pos, s, b, sizeof b));
    } else {
      return fail(why, n, "only touches are asked about");
    }
  }
  char A[ARB_QUIZ_TEXT] = "";
  if (!ob->active || ob->any)
    snprintf(A, sizeof A, "Any legal move: %s",
             ob->active ? "no touched piece can be moved or taken" : "nothing binds the player");
  else if (ob->allowed_count == 1)
    it->kind = ARB_QUIZ_MOVE;
  else if (ob->must_capture && ob->must_move)
    snprintf(A, sizeof A, "Capture the touched %s with the touched %s",
             piece_words[ARB_PIECE_TYPE(l.pos.board[__builtin_ctzll(ob->must_capture)])],
             piece_words[ARB_PIECE_TYPE(l.pos.board[__builtin_ctzll(ob->must_move)])]);
  else if (ob->must_capture) {
    char b[48];
    snprintf(A, sizeof A, "Capture %s",
             piece_on(&l.pos, (arb_square)__builtin_ctzll(ob->must_capture), b, sizeof b));
  } else if (ob->must_move) {
    char b[48];
    snprintf(A, sizeof A, "Move %s",
             piece_on(&l.pos, (arb_square)__builtin_ctzll(ob->must_move), b, sizeof b));
  } else
    return fail(why, n, "an obligation this template does not word");
  if (it->kind == ARB_QUIZ_MOVE) {
    Q(it, "%s to move %s. Play the move the touch-move rule now requires.", side(me), story);
    uci(&l.pos, ob->allowed[0], it->answer);
  } else {
    Q(it, "%s to move %s. What must %s do now?", side(me), story, side(me));
    answer(it, "%s", A);
    choice(it, "Any legal move: no touched piece can be moved or taken");
    choice(it, "Any legal move: nothing binds the player");
    for (int i = 0; i < it->nevents; i++) {
      arb_square s;
      char b[48];
      if (strcmp(it->events[i].type, "touch") || read_sq(it->events[i].squares[0], &s)) continue;
      if ((int)ARB_PIECE_COLOR(l.pos.board[s]) == me)
        choice(it, "Move %s", piece_on(&l.pos, s, b, sizeof b));
      else
        choice(it, "Capture %s", piece_on(&l.pos, s, b, sizeof b));
    }
    if (!has_choice(it, A)) choice(it, "%s", A);
  }
  for (int i = 0; i < it->nevents; i++) {
    arb_square s;
    if (!strcmp(it->events[i].type, "touch") && !read_sq(it->events[i].squares[0], &s)) mark(it, s);
  }
  if (!ob->active) {
    X(it, "Announcing \"j'adoube\" before touching lets a player adjust a piece without being "
          "bound to move it.");
    article(it, "FIDE 4.2.1");
  } else if (ob->any) {
    X(it, "None of the touched pieces can be moved or captured legally, so the touch has no "
          "consequence: any legal move may be played.");
    article(it, "FIDE 4.5");
  } else {
    char list[200] = "";
    for (int i = 0; i < ob->allowed_count && i < 8; i++) {
      char s[ARB_SAN_MAX];
      san(&l.pos, ob->allowed[i], s);
      appendf(list, sizeof list, "%s%s", i ? ", " : "", s);
      if (i < 4) arrow(it, ARB_MOVE_FROM(ob->allowed[i]), ARB_MOVE_TO(ob->allowed[i]));
    }
    if (ob->allowed_count > 8) appendf(list, sizeof list, ", ...");
    int own = 0, theirs = 0;
    for (int i = 0; i < it->nevents; i++) {
      arb_square q;
      if (strcmp(it->events[i].type, "touch") || read_sq(it->events[i].squares[0], &q)) continue;
      if ((int)ARB_PIECE_COLOR(l.pos.board[q]) == me)
        own = 1;
      else
        theirs = 1;
    }
    X(it, "A deliberately touched piece binds the player: ");
    if (own && theirs)
      X(it, "after touching an own piece and an opponent's piece, the player must capture the one "
            "with the other; if that is illegal, move or capture the first piece touched that "
            "can be moved or captured (4.3.3). ");
    else if (ob->must_capture && ob->must_move)
      X(it, "touching one's own piece and an opponent's piece obliges capturing the one with the "
            "other if that is legal (4.3.3). ");
    else if (ob->must_capture)
      X(it, "a touched opponent's piece must be captured if it can be (4.3.2). ");
    else
      X(it, "a touched own piece must be moved if it can be (4.3.1). ");
    X(it, "The legal move%s left: %s.", ob->allowed_count == 1 ? "" : "s", list);
    article(it, own && theirs ? "FIDE 4.3.3" : ob->must_capture ? "FIDE 4.3.2" : "FIDE 4.3.1");
  }
  article(it, "US Chess 10");
  it->difficulty = ob->must_capture && ob->must_move ? 4 : ob->active && !ob->any ? 2 : 3;
  return 0;
}

static int f_touch(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm;
  int ply;
  arb_position p;
  if (!game_pos(g, 0, &gm, &ply, &p) || arb_in_check(&p) || !arb_has_legal_move(&p)) return 0;
  int me = p.turn;
  arb_square own[16], opp[16];
  int no = 0, np = 0;
  for (int s = 0; s < 64; s++) {
    if (!p.board[s]) continue;
    if ((int)ARB_PIECE_COLOR(p.board[s]) == me)
      own[no++] = (arb_square)s;
    else if (ARB_PIECE_TYPE(p.board[s]) != ARB_KING)
      opp[np++] = (arb_square)s;
  }
  if (!no || !np) return 0;
  set_fen(it, &p);
  set_source(it, gm);
  /* prefer pieces that can take part: a capture's two ends */
  arb_move ms[ARB_MAX_MOVES], caps[ARB_MAX_MOVES];
  int k = arb_generate_legal(&p, ms), nc = 0;
  for (int i = 0; i < k; i++)
    if (arb_move_info(&p, ms[i]) & ARB_MOVE_IS_CAPTURE && ARB_MOVE_KIND(ms[i]) == ARB_MOVE_NORMAL)
      caps[nc++] = ms[i];
  switch (rn(g, 5)) {
  case 0: add_touch(it, me, own[rn(g, no)]); break;
  case 1: add_touch(it, me, nc && rn(g, 2) ? ARB_MOVE_TO(caps[rn(g, nc)]) : opp[rn(g, np)]); break;
  case 2:
    if (nc && rn(g, 3)) {
      arb_move c = caps[rn(g, nc)];
      add_touch(it, me, ARB_MOVE_FROM(c));
      add_touch(it, me, ARB_MOVE_TO(c));
    } else {
      add_touch(it, me, own[rn(g, no)]);
      add_touch(it, me, opp[rn(g, np)]);
    }
    break;
  case 3:
    add_touch(it, me, opp[rn(g, np)]);
    add_touch(it, me, own[rn(g, no)]);
    break;
  default:
    add_event(it, "adjust_announce", me, NULL);
    add_touch(it, me, own[rn(g, no)]);
    snprintf(it->events[it->nevents - 1].intent, sizeof it->events[0].intent, "adjust");
    break;
  }
  return 1;
}

/* ======================================================================================== */
/* completed illegal moves                                                                   */
/* ======================================================================================== */

static int d_illegal_penalty(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  int me = l.pos.turn, opp = !me, mv = -1, claim = 0, earlier = 0;
  for (int i = 0; i < it->nevents; i++) {
    const char *t = it->events[i].type;
    if (!strcmp(t, "move") && it->events[i].by == me && mv < 0) mv = i;
    if (!strcmp(t, "claim")) claim = 1;
    if (!strcmp(t, "earlier_illegal") && it->events[i].by == me) earlier = 1;
  }
  if (mv < 0) return fail(why, n, "no move");
  arb_square f, t;
  arb_piece_type pr;
  if (arb_uci_read_squares(it->events[mv].move, strlen(it->events[mv].move), &f, &t, &pr) != ARB_OK)
    return fail(why, n, "the move does not read");
  arb_move_explanation e;
  arb_move_explain(&l.pos, f, t, pr, &e);
  if (e.reason == ARB_MOVE_LEGAL) return fail(why, n, "the move is legal");
  otb_run run;
  if ((st = run_otb(it, &l.pos, &run, why, n))) return st;
  const arb_otb_decision *d = &run.d[run.n - 1];
  int restored = 0, stands = 0, added = 0;
  for (int i = 0; i < run.n; i++) {
    restored |= run.d[i].restored;
    stands |= run.d[i].stands;
    added += run.d[i].time_added_s[opp];
  }
  char mt[16], mins[32];
  move_text(&l.pos, f, t, pr, mt, sizeof mt);
  Q(it, "Under %s, %s plays %s and presses the clock.%s%s What happens?",
    otb_rules_words(it->rules), side(me), mt,
    earlier ? " It is the second illegal move this player has completed in this game." : "",
    claim ? " Before making a move, the opponent points it out and claims." : "");
  char lose[ARB_QUIZ_TEXT], two[ARB_QUIZ_TEXT], one[ARB_QUIZ_TEXT], win[ARB_QUIZ_TEXT];
  snprintf(lose, sizeof lose, "%s loses the game", side(me));
  snprintf(win, sizeof win, "%s wins the game", side(me));
  snprintf(two, sizeof two, "The position before it is reinstated and %s gets 2 extra minutes",
           side(opp));
  snprintf(one, sizeof one, "The position before it is reinstated and %s gets 1 extra minute",
           side(opp));
  const char *draw = "The game is drawn";
  const char *none = "The position before it is reinstated, with no time added";
  const char *stand = "The move stands and play goes on";
  if (d->over && d->outcome.result == ARB_RESULT_DRAW)
    answer(it, "%s", draw);
  else if (d->over &&
           d->outcome.result == (me == ARB_WHITE ? ARB_RESULT_BLACK_WINS : ARB_RESULT_WHITE_WINS))
    answer(it, "%s", lose);
  else if (d->over)
    answer(it, "%s", win);
  else if (restored && added) {
    minutes_words(added, mins, sizeof mins);
    answer(it, "The position before it is reinstated and %s gets %s", side(opp), mins);
  } else if (restored)
    answer(it, "%s", none);
  else if (stands || !restored)
    answer(it, "%s", stand);
  choice(it, "%s", two);
  choice(it, "%s", one);
  choice(it, "%s", lose);
  choice(it, "%s", draw);
  choice(it, "%s", stand);
  if (!has_choice(it, it->answer)) choice(it, "%s", it->answer);
  char s[240];
  snprintf(s, sizeof s, "%s is illegal: %s", mt, e.message);
  sentence(it, s);
  int us = !strncmp(it->rules, "uscf", 4);
  article(it, us ? "US Chess 11A" : "FIDE 7.5.1");
  if (d->over && d->outcome.termination == ARB_TERM_SECOND_ILLEGAL_MOVE) {
    if (d->outcome.result == ARB_RESULT_DRAW)
      X(it,
        " A second completed illegal move ends the game, but %s cannot checkmate by any "
        "series of legal moves, so it is a draw.",
        side(opp));
    else
      X(it, " A second completed illegal move by the same player loses the game.");
    article(it, "FIDE 7.5.5");
  } else if (d->over && d->outcome.termination == ARB_TERM_ILLEGAL_MOVE_CLAIMED) {
    X(it, " In US Chess blitz a completed illegal move, correctly claimed before the claimant "
          "moves, wins the game for the claimant, who has mating material (a pawn, a rook, a "
          "queen or two minor pieces).");
    article(it, "US Chess blitz 7c");
  } else if (d->over && d->outcome.termination == ARB_TERM_ILLEGAL_MOVE_CLAIMANT_LACKS_MATERIAL) {
    X(it, " In US Chess blitz the claim of a completed illegal move wins, but the claimant has "
          "no mating material (a pawn, a rook, a queen or two minor pieces): a draw.");
    article(it, "US Chess blitz 7d");
  } else if (restored) {
    X(it,
      " The position before it is reinstated and %s must make a legal move instead (with "
      "the piece touched, if it can move).",
      side(me));
    if (added) {
      minutes_words(added, mins, sizeof mins);
      X(it, " %s gets %s%s.", side(opp), mins,
        us ? ", the claim coming before the claimant's own next move"
           : " for this first illegal move (a second one would lose)");
    } else {
      X(it, " No time is added.");
    }
    article(it, us ? "US Chess 11D" : "FIDE 7.5.5");
  } else {
    X(it, " Nobody acted on it in time, so the move stands and play goes on from the board as "
          "it is.");
  }
  arrow(it, f, t);
  it->difficulty = d->over ? 4 : 3;
  return 0;
}

static int f_illegal_penalty(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm;
  int ply;
  arb_position p;
  if (!game_pos(g, 0, &gm, &ply, &p) || ply < 12 || !arb_has_legal_move(&p)) return 0;
  arb_square f, t;
  if (!pick_illegal(g, &p, &f, &t)) return 0;
  if (ARB_PIECE_TYPE(p.board[f]) == ARB_PAWN && (ARB_RANK_OF(t) == 0 || ARB_RANK_OF(t) == 7))
    return 0;
  static const char *const rs[] = {"fide",       "fide", "fide-rapid",
                                   "fide-blitz", "uscf", "uscf-blitz"};
  const char *r = rs[rn(g, 6)];
  snprintf(it->rules, sizeof it->rules, "%s", r);
  set_fen(it, &p);
  set_source(it, gm);
  int me = p.turn;
  if (rn(g, 3) == 0) add_event(it, "earlier_illegal", me, NULL);
  char u[8];
  sqname(f, u);
  sqname(t, u + 2);
  add_event(it, "move", me, u);
  add_event(it, "press", me, NULL);
  if (strcmp(r, "fide")) {
    add_event(it, "claim", !me, NULL);
    snprintf(it->events[it->nevents - 1].matter, sizeof it->events[0].matter, "illegal_move");
  }
  return 1;
}

/* ======================================================================================== */
/* scoresheets                                                                               */
/* ======================================================================================== */

static int d_record(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load_shown(it, &l, why, n);
  if (st) return st;
  if (!it->clock.present) return fail(why, n, "no clock");
  int me = l.pos.turn;
  int64_t left = it->clock.ms[me], inc = it->clock.increment_ms;
  arb_record_duty duty = arb_record_duty_of(l.rules, left, inc);
  if (duty >= ARB_RECORD_DUTY_COUNT) return fail(why, n, "no duty for these rules");
  Q(it,
    "Under %s, with %lld seconds added per move, %s has %lld:%02lld left in this period. Must "
    "%s go on writing the moves on the scoresheet?",
    rules_words(it->rules), (long long)(inc / 1000), side(me), (long long)(left / 60000),
    (long long)(left / 1000 % 60), side(me));
  const char *A = "Yes: every move must be written down";
  const char *B = "No: under five minutes without 30 seconds per move, writing may stop";
  const char *C = "No: in rapid and blitz games players need not record the moves";
  const char *D = "No: the server keeps the record";
  choice(it, "%s", A);
  choice(it, "%s", B);
  choice(it, "%s", C);
  choice(it, "%s", D);
  switch (duty) {
  case ARB_RECORD_REQUIRED:
    answer(it, "%s", A);
    X(it,
      "%s. The exception is for a player with less than five minutes who gets less than 30 "
      "seconds per move.",
      left >= 5 * 60000 ? "Five minutes or more are left, so the player must keep recording"
                        : "Less than five minutes are left, but 30 seconds or more come with "
                          "each move, so the player must keep recording");
    break;
  case ARB_RECORD_LOW_TIME:
    answer(it, "%s", B);
    X(it, "With less than five minutes on the clock and less than 30 seconds added per move, "
          "the player need not record for the rest of the period (the moves are filled in "
          "afterwards).");
    break;
  case ARB_RECORD_RAPID_BLITZ:
    answer(it, "%s", C);
    X(it, "In rapid and blitz players do not need to record the moves, but keep their rights to "
          "claims normally based on a scoresheet.");
    break;
  default:
    answer(it, "%s", D);
    X(it, "Online the server records every move; no player keeps a scoresheet.");
    break;
  }
  const char *a = arb_record_duty_article(l.rules, duty);
  if (a[0]) article(it, a);
  if (l.rules == ARB_RULES_FIDE)
    article(it, duty == ARB_RECORD_LOW_TIME ? "FIDE 8.1.1" : "FIDE 8.4");
  it->difficulty = duty == ARB_RECORD_REQUIRED && left < 5 * 60000 ? 4 : 2;
  return 0;
}

static int f_record(gen *g, arb_quiz_item *it) {
  const arb_quiz_game *gm;
  int ply;
  arb_position p;
  if (!game_pos(g, 0, &gm, &ply, &p)) return 0;
  static const char *const rs[] = {"fide",       "fide",       "uscf", "uscf",
                                   "fide-rapid", "fide-blitz", "fide"};
  static const int64_t incs[] = {0, 0, 5000, 10000, 30000, 30000, 2000};
  snprintf(it->rules, sizeof it->rules, "%s", rs[rn(g, 7)]);
  set_fen(it, &p);
  set_source(it, gm);
  it->clock.present = 1;
  it->clock.flag = -1;
  it->clock.increment_ms = incs[rn(g, 7)];
  int low = rn(g, 2);
  for (int c = 0; c < 2; c++)
    it->clock.ms[c] = low ? 1000 * (20 + rn(g, 270)) : 1000 * (300 + rn(g, 3000));
  return 1;
}

/* ======================================================================================== */
/* online                                                                                    */
/* ======================================================================================== */

static int d_declared(arb_quiz_item *it, char *why, size_t n) {
  loaded l;
  int st = load(it, &l, why, n);
  if (st) {
    unload(&l);
    return st;
  }
  int reps = arb_game_repetitions(l.game);
  arb_outcome o = arb_game_outcome(l.game);
  arb_game_facts f;
  arb_game_facts_of(l.game, &f);
  if (reps != 3 ||
      (o.result != ARB_RESULT_NONE && o.termination != ARB_TERM_THREEFOLD_REPETITION)) {
    unload(&l);
    return fail(why, n, "not a third occurrence");
  }
  Q(it, "Under %s, the position on the board has just occurred for the third time. What happens?",
    rules_words(it->rules));
  const char *A = "The game is drawn at once: nobody needs to claim";
  const char *B = "Play goes on; the player to move may claim a draw";
  const char *C = "Play goes on: the repetitions must come one after another to count";
  const char *D = "The game is drawn only at the fifth occurrence";
  choice(it, "%s", A);
  choice(it, "%s", B);
  choice(it, "%s", C);
  choice(it, "%s", D);
  if (o.termination == ARB_TERM_THREEFOLD_REPETITION) {
    answer(it, "%s", A);
    X(it, "An online server checks every position itself and declares the draw at the third "
          "occurrence, as lichess does.");
  } else if (f.can_claim_threefold) {
    answer(it, "%s", B);
    X(it,
      "Over the board the threefold repetition is a draw only on a correct claim by the "
      "player having the move (FIDE 9.2); only the fifth occurrence ends the game by itself "
      "(9.6.1)%s.",
      l.rules == ARB_RULES_USCF ? ", and under US Chess not even that: the director may declare it"
                                : "");
  } else {
    unload(&l);
    return fail(why, n, "neither declared nor claimable");
  }
  X(it, " ");
  repetition_words(it, &l);
  article(it, "FIDE 9.2.1");
  article(it, "FIDE 9.6.1");
  article(it, "US Chess 14C");
  it->difficulty = 2;
  unload(&l);
  return 0;
}

static int f_declared(gen *g, arb_quiz_item *it) {
  static const char *const rs[] = {"online", "online", "fide", "uscf", "fide-blitz"};
  snprintf(it->rules, sizeof it->rules, "%s", rs[rn(g, 5)]);
  return f_shuffle(g, it, 8, 8);
}

/* ======================================================================================== */
/* the template table                                                                        */
/* ======================================================================================== */

typedef struct tmpl {
  const char *name;
  arb_quiz_topic topic;
  int (*derive)(arb_quiz_item *, char *, size_t);
  int (*find)(gen *, arb_quiz_item *);
  int choices_input;
} tmpl;

static const tmpl templates[] = {
    {"why-illegal", ARB_QUIZ_MOVEMENT, d_why_illegal, f_why_illegal, 0},
    {"which-illegal", ARB_QUIZ_MOVEMENT, d_which_illegal, f_which_illegal, 1},
    {"only-move", ARB_QUIZ_MOVEMENT, d_only_move, f_only_move, 0},
    {"castling-now", ARB_QUIZ_CASTLING, d_castle_now, f_castle_now, 0},
    {"castling-after-check", ARB_QUIZ_CASTLING, d_castle_after_check, f_castle_after_check, 0},
    {"castling-960", ARB_QUIZ_CASTLING, d_castle_960, f_castle_960, 0},
    {"en-passant-now", ARB_QUIZ_EN_PASSANT, d_ep_can, f_ep_can, 0},
    {"en-passant-find", ARB_QUIZ_EN_PASSANT, d_ep_find, f_ep_find, 0},
    {"promotion-mate", ARB_QUIZ_PROMOTION, d_promo_mate, f_promo_mate, 0},
    {"promotion-choice", ARB_QUIZ_PROMOTION, d_promo_choices, f_promo_choices, 0},
    {"mate-or-stalemate", ARB_QUIZ_MATE_STALEMATE, d_mate_state, f_mate_state, 0},
    {"mate-in-one", ARB_QUIZ_MATE_STALEMATE, d_mate_in_one, f_mate_in_one, 0},
    {"which-stalemates", ARB_QUIZ_MATE_STALEMATE, d_stalemate_which, f_stalemate_which, 1},
    {"threefold-count", ARB_QUIZ_THREEFOLD, d_threefold_count, f_threefold_count, 0},
    {"threefold-claim", ARB_QUIZ_THREEFOLD, d_threefold_claim, f_threefold_claim, 0},
    {"threefold-wrong-claim", ARB_QUIZ_THREEFOLD, d_threefold_wrong, f_threefold_wrong, 0},
    {"fivefold", ARB_QUIZ_FIVEFOLD, d_fivefold, f_fivefold, 0},
    {"fifty-claim", ARB_QUIZ_FIFTY_MOVE, d_fifty_claim, f_fifty_claim, 0},
    {"last-move", ARB_QUIZ_FIFTY_MOVE, d_seventyfive, f_seventyfive, 0},
    {"dead-or-alive", ARB_QUIZ_DEAD_POSITION, d_dead, f_dead, 0},
    {"draw-offer", ARB_QUIZ_AGREEMENT, d_offer, f_offer, 0},
    {"flag-verdict", ARB_QUIZ_FLAG, d_flag, f_flag, 0},
    {"touch-obligation", ARB_QUIZ_TOUCH_MOVE, d_touch, f_touch, 0},
    {"illegal-penalty", ARB_QUIZ_ILLEGAL_MOVE, d_illegal_penalty, f_illegal_penalty, 0},
    {"record-duty", ARB_QUIZ_SCORESHEET, d_record, f_record, 0},
    {"declared-draw", ARB_QUIZ_ONLINE, d_declared, f_declared, 0},
    {"online-flag", ARB_QUIZ_ONLINE, d_flag, f_online_flag, 0},
};
#define NTEMPLATES ((int)(sizeof templates / sizeof templates[0]))

int arb_quiz_template_count(void) { return NTEMPLATES; }
const char *arb_quiz_template_name(int i) {
  return i >= 0 && i < NTEMPLATES ? templates[i].name : "";
}
arb_quiz_topic arb_quiz_template_topic(int i) {
  return i >= 0 && i < NTEMPLATES ? templates[i].topic : ARB_QUIZ_TOPIC_COUNT;
}
int arb_quiz_template_find(const char *name) {
  for (int i = 0; name && i < NTEMPLATES; i++)
    if (!strcmp(templates[i].name, name)) return i;
  return -1;
}
int arb_quiz_template_choices_are_input(int i) {
  return i >= 0 && i < NTEMPLATES ? templates[i].choices_input : 0;
}

static void clear_derived(arb_quiz_item *it, int keep_choices) {
  it->difficulty = 0;
  it->kind = ARB_QUIZ_CHOICE;
  it->question[0] = it->answer[0] = it->explanation[0] = 0;
  it->narticles = it->nsquares = it->narrows = 0;
  if (!keep_choices) it->nchoices = 0;
}

arb_status arb_quiz_derive(arb_quiz_item *it, char *why, size_t n) {
  if (why && n) why[0] = 0;
  if (!it) return ARB_ERR_ARGUMENT;
  int k = arb_quiz_template_find(it->template_name);
  if (k < 0) return (arb_status)fail(why, n, "unknown template '%s'", it->template_name);
  if (!it->rules[0]) snprintf(it->rules, sizeof it->rules, "fide");
  clear_derived(it, templates[k].choices_input);
  int st = templates[k].derive(it, why, n);
  if (st) return (arb_status)st;
  if (it->difficulty < 1) it->difficulty = 1;
  if (it->difficulty > 5) it->difficulty = 5;
  return ARB_OK;
}

static int same_set(const arb_quiz_item *x, const arb_quiz_item *y) {
  int na = x->nchoices, nb = y->nchoices;
  const char(*a)[ARB_QUIZ_TEXT] = x->choices, (*b)[ARB_QUIZ_TEXT] = y->choices;
  if (na != nb) return 0;
  for (int i = 0; i < na; i++) {
    int found = 0;
    for (int j = 0; j < nb && !found; j++)
      found = !strcmp(a[i], b[j]);
    if (!found) return 0;
  }
  return 1;
}

int arb_quiz_check_item(const arb_quiz_item *item, char *why, size_t n) {
  if (why && n) why[0] = 0;
  if (!item) return 0;
  const char *nul = memchr(item->id, 0, sizeof item->id);
  size_t idl = nul ? (size_t)(nul - item->id) : sizeof item->id;
  if (!idl || idl >= sizeof item->id)
    return fail(why, n, "no id, or one of 32 characters or more"), 0;
  int k = arb_quiz_template_find(item->template_name);
  if (k < 0) return fail(why, n, "unknown template '%s'", item->template_name), 0;
  if (templates[k].topic != item->topic)
    return fail(why, n, "topic '%s', but template '%s' is about '%s'",
                arb_quiz_topic_name(item->topic), item->template_name,
                arb_quiz_topic_name(templates[k].topic)),
           0;
  arb_quiz_item *c = malloc(sizeof *c);
  if (!c) return fail(why, n, "out of memory"), 0;
  *c = *item;
  int ok = 0;
  char w[200];
  if (arb_quiz_derive(c, w, sizeof w) != ARB_OK)
    fail(why, n, "does not derive: %s", w);
  else if (c->kind != item->kind)
    fail(why, n, "kind is %s, the rules give %s", item->kind ? "move" : "choice",
         c->kind ? "move" : "choice");
  else if (strcmp(c->answer, item->answer))
    fail(why, n, "answer '%s', the rules give '%s'", item->answer, c->answer);
  else if (strcmp(c->question, item->question))
    fail(why, n, "the question differs from the derived one: '%s'", c->question);
  else if (strcmp(c->explanation, item->explanation))
    fail(why, n, "the explanation differs from the derived one: '%s'", c->explanation);
  else if (!same_set(c, item))
    fail(why, n, "the choices differ from the derived ones");
  else if (item->difficulty < 1 || item->difficulty > 5)
    fail(why, n, "difficulty %d is not 1..5", item->difficulty);
  else if (c->difficulty != item->difficulty)
    fail(why, n, "difficulty %d, the template gives %d", item->difficulty, c->difficulty);
  else if (c->narticles != item->narticles)
    fail(why, n, "the articles differ from the derived ones");
  else if (item->kind == ARB_QUIZ_CHOICE && !has_choice(item, item->answer))
    fail(why, n, "the answer is not one of the choices");
  else
    ok = 1;
  for (int i = 0; ok && i < c->narticles; i++)
    if (strcmp(c->articles[i], item->articles[i]))
      ok = 0, fail(why, n, "article '%s', the rules give '%s'", item->articles[i], c->articles[i]);
  free(c);
  return ok;
}

/* Two items ask the same when template, position, move, rules, history and events agree. */
static int same_inputs(const arb_quiz_item *a, const arb_quiz_item *b) {
  if (strcmp(a->template_name, b->template_name) || strcmp(a->fen, b->fen) ||
      strcmp(a->move, b->move) || strcmp(a->rules, b->rules) || a->nmoves != b->nmoves ||
      a->nevents != b->nevents)
    return 0;
  return !strcmp(a->question, b->question);
}

arb_status arb_quiz_make(const arb_quiz_options *o, arb_quiz_item *items, size_t cap,
                         size_t *made) {
  if (made) *made = 0;
  if (!o || !items || !made || o->count < 0) return ARB_ERR_ARGUMENT;
  int sel[NTEMPLATES], ns = 0;
  for (int i = 0; i < NTEMPLATES; i++)
    if (!o->topics || (o->topics & (1u << templates[i].topic))) sel[ns++] = i;
  if (!ns) return ARB_ERR_ARGUMENT;
  gen g = {o->seed ^ 0x5175697a2d62616eull, o};
  int counter[ARB_QUIZ_TOPIC_COUNT] = {0};
  size_t total = 0;
  arb_quiz_item *it = malloc(sizeof *it);
  if (!it) return ARB_ERR_NO_MEMORY;
  int ntopics = 0, last_topic = -1;
  for (int s = 0; s < ns; s++)
    if ((int)templates[sel[s]].topic != last_topic)
      ntopics++, last_topic = (int)templates[sel[s]].topic;
  /* the count spread over the topics, each topic's share over its templates; a template that
   * finds too few passes what it lacks to the next one of its topic */
  int topic_index = -1, left = 0, in_topic = 0, done_in_topic = 0;
  last_topic = -1;
  for (int s = 0; s < ns && total < cap; s++) {
    const tmpl *tp = &templates[sel[s]];
    if ((int)tp->topic != last_topic) {
      last_topic = (int)tp->topic;
      topic_index++;
      left = o->count / ntopics + (topic_index < o->count % ntopics);
      in_topic = 0;
      for (int k = s; k < ns && templates[sel[k]].topic == tp->topic; k++)
        in_topic++;
      done_in_topic = 0;
    }
    int quota = left / (in_topic - done_in_topic), got = 0;
    done_in_topic++;
    for (int tries = 0; got < quota && tries < quota * 80 + 200 && total < cap; tries++) {
      memset(it, 0, sizeof *it);
      snprintf(it->template_name, sizeof it->template_name, "%s", tp->name);
      it->topic = tp->topic;
      snprintf(it->rules, sizeof it->rules, "fide");
      it->clock.flag = -1;
      if (!tp->find(&g, it) || arb_quiz_derive(it, NULL, 0) != ARB_OK) continue;
      int dup = 0;
      for (size_t j = 0; j < total && !dup; j++)
        dup = same_inputs(&items[j], it);
      if (dup) continue;
      snprintf(it->id, sizeof it->id, "%s-%04d", arb_quiz_topic_name(tp->topic),
               ++counter[tp->topic]);
      items[total++] = *it;
      got++;
    }
    left -= got;
  }
  free(it);
  *made = total;
  return ARB_OK;
}
