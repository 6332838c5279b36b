/* Arbiter — MIT licence, see LICENSE.
 *
 * analysis.c: the analysis board's HTTP API (analysis.h).
 *
 *   POST /api/analysis
 *     {"pgn": TEXT} | {"game": ID} | {"text": PGN or FEN} | {"fen": FEN, "moves": [SAN|UCI...]}
 *     with "rules" (default "fide") and "add": [{"parent": NODE, "move": SAN|UCI}, ...] (the
 *     variations added on the board, numbered after the source's nodes, in order)
 *     -> {"rules", "start", "tags", "result", "mainline", "nodes": [...], "warnings", "searched"}
 *   POST /api/analysis/position {"fen", "moves", "rules"} -> {"node": {... "laws"}}
 *   POST /api/analysis/pgn  the same source and "add", with "evals": [{"node", "score",
 *     "depth", "best", "pv"}] and "laws" (default true) -> {"pgn": TEXT}
 *
 * The tree is walked depth first with one arb_game per line (a move played on entering a node,
 * taken back on leaving it), so every position's repetitions and counts are the game layer's,
 * with the history of its own line.  A line that goes on after the game ended (a PGN's moves
 * after a fivefold repetition or a dead position) is judged from a new game started where the
 * first one ended, and marked as after the end.
 */
#define _POSIX_C_SOURCE 200809L
#include "analysis.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "jsonw.h"
#include "protocol.h"
#include "server.h"

#define MIN_BUDGET 64   /* a search still gets this much: the cheap proofs (material, walls) */
#define LINE_SHOWN 10   /* plies of a helpmate line put into words */
#define MAX_WARNINGS 16 /* the reader's warnings passed on */

/* ---- small text builder ---- */

/* Text for a person (not JSON), grown in the JSON writer's buffer: srv_jw_raw appends. */
typedef srv_jw sb;

static void sb_addn(sb *b, const char *t, size_t n) { srv_jw_raw(b, t, n); }
static void sb_add(sb *b, const char *t) { sb_addn(b, t, strlen(t)); }

static void sb_printf(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sb *b, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  sb_addn(b, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static const char *sb_str(const sb *b) { return b->buf ? b->buf : ""; }

/* A value already in JSON, after a key. */
static void raw_value(srv_jw *w, const char *json, size_t n) {
  srv_jw_raw(w, json, n);
  w->first = 0;
}

/* ---- errors ---- */

/* {"error": {"code", "message", ...extra}}; extra (may be NULL) is stolen. */
static int fail(char **out, int status, const char *code, const char *message, json_t *extra) {
  json_t *e = extra ? extra : json_object();
  json_t *m = json_string(message);
  json_object_set_new(e, "code", json_string(code));
  json_object_set_new(e, "message", m ? m : json_string("(not valid UTF-8)"));
  json_t *j = json_object();
  json_object_set_new(j, "error", e);
  *out = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  return *out ? status : 500;
}

/* ---- words ---- */

static const char *Side(int c) { return c == ARB_WHITE ? "White" : "Black"; }
static const char *side_name(int c) { return c == ARB_WHITE ? "white" : "black"; }

/* "12.Nf3" or "12...Nf6": the move `san` played in pos. */
static void move_label(const arb_position *pos, const char *san, char *buf, size_t size) {
  snprintf(buf, size, "%u%s%s", (unsigned)pos->fullmove_number,
           pos->turn == ARB_WHITE ? "." : "...", san);
}

/* A line of moves from pos in SAN with move numbers, at most `shown` plies ("…" after). */
static void line_words(const arb_position *start, const arb_move *line, int n, int shown, sb *b) {
  arb_position pos = *start;
  for (int i = 0; i < n; i++) {
    if (i == shown) {
      sb_add(b, " …");
      break;
    }
    char san[ARB_SAN_MAX];
    if (arb_san_write(&pos, line[i], san, sizeof san) < 0) break;
    if (i) sb_add(b, " ");
    if (pos.turn == ARB_WHITE || i == 0)
      sb_printf(b, "%u%s", (unsigned)pos.fullmove_number, pos.turn == ARB_WHITE ? "." : "...");
    sb_add(b, san);
    arb_undo u;
    arb_make_move(&pos, line[i], &u);
  }
}

/* What a side has besides its king, in words, for a proof by material. */
static void material_words(const arb_position *p, int c, sb *b) {
  arb_bitboard own = p->by_color[c];
  int n[7];
  for (int t = ARB_PAWN; t <= ARB_QUEEN; t++)
    n[t] = __builtin_popcountll(own & p->by_type[t]);
  int men = n[ARB_PAWN] + n[ARB_KNIGHT] + n[ARB_BISHOP] + n[ARB_ROOK] + n[ARB_QUEEN];
  if (!men)
    sb_printf(b, "%s has only the king", Side(c));
  else if (men == 1 && n[ARB_KNIGHT])
    sb_printf(b, "%s has only a king and a knight", Side(c));
  else if (men == 1 && n[ARB_BISHOP])
    sb_printf(b, "%s has only a king and a bishop", Side(c));
  else if (men == n[ARB_BISHOP])
    sb_printf(b,
              "%s has only bishops besides the king, and every bishop on the board stands on "
              "squares of one colour",
              Side(c));
  else
    sb_printf(b, "%s's men cannot mate against what the other side has", Side(c));
}

/* Why `c` cannot checkmate, from the proof. */
static void proof_words(const arb_position *p, int c, const arb_winnability *w, sb *b) {
  switch (w->proof) {
  case ARB_PROOF_MATERIAL: material_words(p, c, b); break;
  case ARB_PROOF_GAME_OVER:
    if (arb_is_checkmate(p))
      sb_printf(b, "%s is checkmated", Side(p->turn));
    else
      sb_add(b, "the game is over on the board: no legal move");
    break;
  case ARB_PROOF_LOCKED_WALLS:
    sb_add(b, "the pawns are locked, and no position the kings can reach behind them is a mate "
              "(every one was listed)");
    break;
  case ARB_PROOF_FIXED_PAWNS:
    sb_add(b, "every pawn is blocked for ever, and no square the other king can reach could be "
              "a mate");
    break;
  case ARB_PROOF_PAWN_LANES:
    sb_add(b, "the pawns can only move along their files and can never capture, and no square "
              "the other king can reach could be a mate");
    break;
  case ARB_PROOF_PAWN_STRUCTURES:
    sb_add(b, "every pawn structure reachable from here was listed, and none leaves a square "
              "where the other king could be mated");
    break;
  case ARB_PROOF_SEARCH:
    sb_printf(b, "all %llu positions reachable from here were listed, and none is a mate",
              (unsigned long long)w->nodes);
    break;
  default: sb_add(b, "proven by the library"); break;
  }
}

static const char *class_words(arb_material_class k) {
  switch (k) {
  case ARB_MATERIAL_KK: return "only the two kings are left";
  case ARB_MATERIAL_KBK: return "only the kings and one bishop are left";
  case ARB_MATERIAL_KNK: return "only the kings and one knight are left";
  case ARB_MATERIAL_BISHOPS_ONE_COLOR:
    return "only bishops are left besides the kings, all on squares of one colour";
  default: return "";
  }
}

/* How a line ended, in words, with the article the library's one vocabulary gives
 * (arb_termination_article). */
static void ending_words(const arb_outcome *o, char *buf, size_t size) {
  const char *what;
  switch (o->termination) {
  case ARB_TERM_CHECKMATE: what = "checkmate"; break;
  case ARB_TERM_STALEMATE: what = "stalemate"; break;
  case ARB_TERM_INSUFFICIENT_MATERIAL:
  case ARB_TERM_DEAD_POSITION: what = "a dead position"; break;
  case ARB_TERM_FIVEFOLD_REPETITION: what = "the fivefold repetition"; break;
  case ARB_TERM_SEVENTYFIVE_MOVES: what = "the 75-move rule"; break;
  case ARB_TERM_THREEFOLD_REPETITION: what = "threefold repetition"; break;
  case ARB_TERM_FIFTY_MOVES: what = "the 50-move rule"; break;
  default: what = arb_termination_name(o->termination); break;
  }
  const char *article = arb_termination_article(o->termination);
  if (article[0])
    snprintf(buf, size, "%s (Article %s)", what, article);
  else
    snprintf(buf, size, "%s", what);
}

/* One note: a topic, a sentence, whether the PGN export writes it as a comment. */
static void note(srv_jw *w, sb *remarks, const char *topic, const char *text, int notable) {
  srv_jw_open(w, '{');
  srv_jw_kstr(w, "topic", topic);
  srv_jw_kstr(w, "text", text);
  srv_jw_kbool(w, "notable", notable);
  srv_jw_close(w, '}');
  if (notable && remarks) {
    if (remarks->len) sb_add(remarks, " ");
    sb_add(remarks, text);
  }
}

/* ---- the laws of one position ---- */

/* The line a position is judged in: the game of its line (history since the start, or since
 * the game ended: `base` plies into the tree), the first ending met on the way. */
typedef struct an_line {
  arb_game *g;
  int base;
  int ended_ply; /* the tree ply where the game had ended before this line's game began, or -1 */
  arb_outcome ended;
} an_line;

/* What a node hands to its children: its verdicts, to note what changes. */
typedef struct an_prev {
  arb_win_verdict win[2];
  int dead;
} an_prev;

/* The first four FEN fields (the position's identity for repetitions, FIDE 9.2.2: placement,
 * side to move, castling rights, en passant only when the capture is legal). */
static void identity(const arb_position *p, char *buf, size_t size) {
  arb_fen_write(p, buf, size, 0);
  int spaces = 0;
  for (char *s = buf; *s; s++)
    if (*s == ' ' && ++spaces == 4) {
      *s = 0;
      break;
    }
}

/* The laws' object of the line's current position (JSON into w), its notable notes into remarks
 * (may be NULL), its verdicts into *now; prev (may be NULL) are the parent's. */
static void laws_write(srv_jw *w, const an_line *l, arb_ruleset rules, uint64_t *budget,
                       const an_prev *prev, an_prev *now, sb *remarks) {
  const arb_game *g = l->g;
  const arb_rules *rt = arb_rules_get(rules);
  const arb_position *pos = arb_game_position(g);
  int turn = pos->turn;
  int gply = arb_game_ply_count(g);
  arb_game_facts f;
  arb_game_facts_of(g, &f);
  arb_outcome out = arb_game_outcome(g);
  int over = out.result != ARB_RESULT_NONE;
  arb_move moves[ARB_MAX_MOVES];
  int nmoves = arb_generate_legal(pos, moves);
  char buf[640];
  sb t = {0};

  srv_jw_open(w, '{');
  srv_jw_kstr(w, "turn", side_name(turn));
  srv_jw_kbool(w, "check", arb_in_check(pos));
  srv_jw_kbool(w, "checkmate", f.checkmate);
  srv_jw_kbool(w, "stalemate", f.stalemate);
  /* the board's legal moves: UCI, and destinations by square as the game page has them */
  srv_jw_key(w, "legal");
  srv_jw_open(w, '[');
  for (int i = 0; i < nmoves; i++) {
    char uci[8];
    arb_uci_write(pos, moves[i], uci, sizeof uci);
    srv_jw_plain(w, uci, strlen(uci));
  }
  srv_jw_close(w, ']');
  char *dests = srv_write_dests(pos); /* {"dests":{...}} */
  if (dests && strlen(dests) > 10) {
    srv_jw_key(w, "dests");
    raw_value(w, dests + 9, strlen(dests) - 10);
  }
  free(dests);

  /* repetitions: the library's count, and where in this line the position stood before (only
   * since the last capture or pawn move can it have) */
  char me[ARB_FEN_MAX], other[ARB_FEN_MAX];
  identity(pos, me, sizeof me);
  int reps = arb_game_repetitions(g);
  srv_jw_key(w, "repetitions");
  srv_jw_open(w, '{');
  srv_jw_kint(w, "count", reps);
  srv_jw_key(w, "at");
  srv_jw_open(w, '[');
  sb at = {0};
  int found = 0;
  int lowest = gply - (int)pos->halfmove_clock;
  for (int i = lowest > 0 ? lowest : 0; i <= gply; i++) {
    const arb_position *q = arb_game_position_at(g, i);
    if (q->turn != pos->turn || q->by_type[0] != pos->by_type[0]) continue;
    identity(q, other, sizeof other);
    if (strcmp(me, other)) continue;
    char label[48];
    if (i == 0)
      snprintf(label, sizeof label, l->base ? "ply %d" : "the start", l->base);
    else
      move_label(arb_game_position_at(g, i - 1), arb_game_san_at(g, i), label, sizeof label);
    srv_jw_open(w, '{');
    srv_jw_kint(w, "ply", l->base + i);
    srv_jw_kstr(w, "label", label);
    srv_jw_close(w, '}');
    if (found++) sb_add(&at, i == gply ? " and " : ", ");
    if (i)
      sb_printf(&at, "after %s", label);
    else
      sb_add(&at, label);
  }
  srv_jw_close(w, ']');
  srv_jw_close(w, '}');
  srv_jw_kint(w, "halfmove_clock", pos->halfmove_clock);

  /* the draws that could be claimed: now, or with a move written down first */
  int claim_now[2] = {0, 0};
  int nwith[2] = {0, 0};
  arb_move with[2][ARB_MAX_MOVES];
  if (!over && rt && rt->claims) {
    arb_claim_reason why[2] = {ARB_CLAIM_THREEFOLD, ARB_CLAIM_FIFTY};
    for (int k = 0; k < 2; k++) {
      claim_now[k] = arb_game_claim_correct(g, why[k], ARB_MOVE_NONE);
      int worth = k == 0 ? f.can_claim_threefold : pos->halfmove_clock >= 99;
      if (claim_now[k] || !worth || !rt->intended_move_claims) continue;
      for (int i = 0; i < nmoves; i++)
        if (arb_game_claim_correct(g, why[k], moves[i])) with[k][nwith[k]++] = moves[i];
    }
  }
  const char *claimant = rt && rt->claim_by_either ? "either" : side_name(turn);
  srv_jw_key(w, "claims");
  srv_jw_open(w, '[');
  for (int k = 0; k < 2; k++) {
    if (!claim_now[k] && !nwith[k]) continue;
    srv_jw_open(w, '{');
    srv_jw_kstr(w, "reason", k == 0 ? "threefold" : "fifty");
    srv_jw_kstr(w, "article",
                claim_now[k] ? (k == 0 ? "9.2.1.2" : "9.3.2") : (k == 0 ? "9.2.1.1" : "9.3.1"));
    srv_jw_kstr(w, "by", claimant);
    srv_jw_kbool(w, "now", claim_now[k]);
    if (!claim_now[k]) {
      srv_jw_key(w, "moves");
      srv_jw_open(w, '[');
      for (int i = 0; i < nwith[k]; i++) {
        char san[ARB_SAN_MAX], uci[8];
        arb_san_write(pos, with[k][i], san, sizeof san);
        arb_uci_write(pos, with[k][i], uci, sizeof uci);
        srv_jw_open(w, '{');
        srv_jw_kstr(w, "san", san);
        srv_jw_kstr(w, "uci", uci);
        srv_jw_close(w, '}');
      }
      srv_jw_close(w, ']');
    }
    srv_jw_close(w, '}');
  }
  srv_jw_close(w, ']');
  srv_jw_kbool(w, "fivefold", f.fivefold);
  srv_jw_kbool(w, "seventyfive", f.seventyfive);
  srv_jw_key(w, "outcome");
  if (over) {
    srv_jw_open(w, '{');
    srv_jw_kstr(w, "result", arb_result_string(out.result));
    srv_jw_kstr(w, "termination", arb_termination_name(out.termination));
    srv_jw_close(w, '}');
  } else {
    srv_jw_null(w);
  }
  srv_jw_key(w, "after_end");
  if (l->ended_ply >= 0) {
    srv_jw_open(w, '{');
    srv_jw_kint(w, "ply", l->ended_ply);
    srv_jw_kstr(w, "termination", arb_termination_name(l->ended.termination));
    srv_jw_close(w, '}');
  } else {
    srv_jw_null(w);
  }
  arb_material_class mclass = arb_material_class_of(pos);
  srv_jw_kstr(w, "material", arb_material_class_name(mclass));

  /* can each side still checkmate: the library's verdict and its proof, within the budget */
  arb_winnability win[2];
  for (int c = 0; c < 2; c++) {
    uint64_t b = *budget < SRV_SEARCH_BUDGET ? *budget : SRV_SEARCH_BUDGET;
    if (b < MIN_BUDGET) b = MIN_BUDGET;
    arb_winnability_of(pos, (arb_color)c, b, &win[c]);
    *budget -= win[c].nodes < *budget ? win[c].nodes : *budget;
    now->win[c] = win[c].verdict;
  }
  int unwinnable = win[0].verdict == ARB_WIN_UNWINNABLE && win[1].verdict == ARB_WIN_UNWINNABLE;
  int dead = f.insufficient_material || f.dead_position || unwinnable;
  now->dead = dead;
  sb why = {0};
  if (mclass != ARB_MATERIAL_SUFFICIENT) {
    sb_add(&why, class_words(mclass));
  } else if (unwinnable && win[0].proof == win[1].proof && win[0].proof != ARB_PROOF_MATERIAL) {
    proof_words(pos, ARB_WHITE, &win[0], &why);
  } else if (unwinnable) {
    proof_words(pos, ARB_WHITE, &win[0], &why);
    sb_add(&why, "; ");
    proof_words(pos, ARB_BLACK, &win[1], &why);
  } else if (dead) {
    sb_add(&why, "every line from here is forced into a position where neither side can mate");
  }
  srv_jw_key(w, "dead");
  srv_jw_open(w, '{');
  srv_jw_kbool(w, "dead", dead);
  srv_jw_kstr(w, "why", sb_str(&why));
  srv_jw_close(w, '}');
  sb wt[2] = {{0}, {0}};
  srv_jw_key(w, "winnable");
  srv_jw_open(w, '{');
  for (int c = 0; c < 2; c++) {
    const arb_winnability *r = &win[c];
    if (r->verdict == ARB_WIN_WINNABLE && r->line_len == 0) {
      sb_printf(&wt[c], "%s has checkmated.", Side(c));
    } else if (r->verdict == ARB_WIN_WINNABLE) {
      sb_printf(&wt[c], "%s can still checkmate, for example: ", Side(c));
      line_words(pos, r->line, r->line_len, LINE_SHOWN, &wt[c]);
      if (r->line_len <= LINE_SHOWN) sb_add(&wt[c], ".");
    } else if (r->verdict == ARB_WIN_UNWINNABLE) {
      sb_printf(&wt[c], "%s cannot checkmate by any sequence of legal moves: ", Side(c));
      proof_words(pos, c, r, &wt[c]);
      sb_add(&wt[c], ".");
    } else {
      sb_printf(&wt[c],
                "Whether %s can still checkmate was not settled within the search's budget "
                "(%llu positions).",
                Side(c), (unsigned long long)r->nodes);
    }
    srv_jw_key(w, side_name(c));
    srv_jw_open(w, '{');
    srv_jw_kstr(w, "verdict", arb_win_verdict_name(r->verdict));
    srv_jw_kstr(w, "proof", arb_win_proof_name(r->proof));
    srv_jw_kint(w, "nodes", (int64_t)r->nodes);
    srv_jw_key(w, "line");
    srv_jw_open(w, '[');
    arb_position q = *pos;
    for (int i = 0; i < r->line_len; i++) {
      char san[ARB_SAN_MAX];
      if (arb_san_write(&q, r->line[i], san, sizeof san) < 0) break;
      srv_jw_plain(w, san, strlen(san));
      arb_undo u;
      arb_make_move(&q, r->line[i], &u);
    }
    srv_jw_close(w, ']');
    srv_jw_kstr(w, "text", sb_str(&wt[c]));
    srv_jw_close(w, '}');
  }
  srv_jw_close(w, '}');

  /* the notes, in plain words */
  srv_jw_key(w, "notes");
  srv_jw_open(w, '[');
  if (f.checkmate) {
    snprintf(buf, sizeof buf, "Checkmate: %s wins (Article 5.1.1).", Side(!turn));
    note(w, remarks, "status", buf, 1);
  } else if (f.stalemate) {
    snprintf(buf, sizeof buf,
             "Stalemate: %s has no legal move and is not in check; the game is "
             "drawn (Article 5.2.1).",
             Side(turn));
    note(w, remarks, "status", buf, 1);
  } else if (arb_in_check(pos)) {
    snprintf(buf, sizeof buf, "%s is in check.", Side(turn));
    note(w, remarks, "status", buf, 0);
  }
  char ended[96];
  if (l->ended_ply >= 0) {
    ending_words(&l->ended, ended, sizeof ended);
    snprintf(buf, sizeof buf,
             "The game had already ended at ply %d, by %s: the moves after it are outside the "
             "game.",
             l->ended_ply, ended);
    note(w, remarks, "ended", buf, 0);
  } else if (over && out.automatic && !f.checkmate && !f.stalemate) {
    ending_words(&out, ended, sizeof ended);
    snprintf(buf, sizeof buf, "%s by %s.",
             out.result == ARB_RESULT_DRAW         ? "The game is drawn"
             : out.result == ARB_RESULT_WHITE_WINS ? "White wins"
                                                   : "Black wins",
             ended);
    note(w, remarks, "ended", buf, 1);
  }
  /* repetitions */
  if (reps <= 1) {
    note(w, remarks, "repetition", "This position has not occurred before in this line.", 0);
  } else {
    sb_printf(&t, "This position has occurred %d times (%s)", reps, sb_str(&at));
    if (f.fivefold)
      sb_add(&t, ": a fifth time, so the game is drawn (Article 9.6.1).");
    else if (reps >= 3)
      sb_add(&t, ".");
    else
      sb_printf(&t, "; a third time lets %s claim a draw (Article 9.2).",
                rt && rt->claim_by_either ? "either player" : "the player to move");
    note(w, remarks, "repetition", sb_str(&t), 1);
    t.len = 0;
  }
  /* the 50- and 75-move counts */
  int h = pos->halfmove_clock;
  if (f.seventyfive)
    snprintf(buf, sizeof buf,
             "Halfmove clock %d: 75 moves by each player without a capture or a pawn move; the "
             "game is drawn (Article 9.6.2).",
             h);
  else if (h >= 100)
    snprintf(buf, sizeof buf,
             "Halfmove clock %d: the last 50 moves by each player were made without a capture "
             "or a pawn move, so a draw can be claimed (Article 9.3); at 150 the game ends by "
             "itself (Article 9.6.2), %d %s from here.",
             h, 150 - h, 150 - h == 1 ? "ply" : "plies");
  else if (h == 0)
    snprintf(buf, sizeof buf, "Halfmove clock 0: %s; the 50-move count starts from here.",
             gply + l->base == 0 ? "the game starts here"
                                 : "a capture or a pawn move was just made");
  else
    snprintf(buf, sizeof buf,
             "Halfmove clock %d: %d %s without a capture or a pawn move. %d more and a draw can "
             "be claimed (Article 9.3: the last 50 moves by each player); at 150 the game ends "
             "by itself (Article 9.6.2).",
             h, h, h == 1 ? "ply" : "plies", 100 - h);
  note(w, remarks, "fifty", buf, 0);
  /* claims */
  for (int k = 0; k < 2; k++) {
    const char *what = k == 0 ? "threefold repetition" : "the 50-move rule";
    if (claim_now[k]) {
      snprintf(buf, sizeof buf, "%s may claim a draw now by %s (Article %s).",
               rt->claim_by_either ? "Either player" : Side(turn), what,
               k == 0 ? "9.2.1.2" : "9.3.2");
      note(w, remarks, "claim", buf, 1);
    } else if (nwith[k]) {
      sb_printf(&t, "%s may claim a draw by %s by writing ", Side(turn), what);
      for (int i = 0; i < nwith[k] && i < 6; i++) {
        char san[ARB_SAN_MAX];
        arb_san_write(pos, with[k][i], san, sizeof san);
        sb_printf(&t, "%s%s", i ? (i == nwith[k] - 1 ? " or " : ", ") : "", san);
      }
      if (nwith[k] > 6) sb_printf(&t, " (or %d other moves)", nwith[k] - 6);
      sb_printf(&t,
                " on the scoresheet and declaring it to the arbiter before playing it "
                "(Article %s).",
                k == 0 ? "9.2.1.1" : "9.3.1");
      note(w, remarks, "claim", sb_str(&t), 1);
      t.len = 0;
    }
  }
  /* dead position */
  if (dead) {
    snprintf(buf, sizeof buf,
             "Dead position: neither side can checkmate by any sequence of legal moves (Article "
             "5.2.2) — %s.",
             sb_str(&why));
    note(w, remarks, "dead", buf, !prev || !prev->dead);
  } else if (win[0].verdict == ARB_WIN_WINNABLE || win[1].verdict == ARB_WIN_WINNABLE) {
    note(w, remarks, "dead", "Not a dead position: a checkmate can still happen.", 0);
  } else {
    note(w, remarks, "dead",
         "Whether this position is dead was not settled within the search's budget.", 0);
  }
  /* each side's chances */
  for (int c = 0; c < 2; c++) {
    int changed = win[c].verdict == ARB_WIN_UNWINNABLE &&
                  (!prev || prev->win[c] != ARB_WIN_UNWINNABLE) && !dead;
    note(w, remarks, c == ARB_WHITE ? "white" : "black", sb_str(&wt[c]), changed);
  }
  srv_jw_close(w, ']');
  srv_jw_close(w, '}');
  free(t.buf);
  free(at.buf);
  free(why.buf);
  free(wt[0].buf);
  free(wt[1].buf);
}

/* Plays m at the end of the line; a game already over goes on in a new one from here.  Returns
 * 1 when a new game was started (*l then describes it; *saved the line as it was). */
static int line_play(an_line *l, arb_move m, arb_ruleset rules, int tree_ply, an_line *saved,
                     arb_status *st) {
  *st = arb_game_play(l->g, m);
  if (*st != ARB_ERR_GAME_OVER) return 0;
  /* the new game starts after the move: a position that is itself over (a dead one) could
   * not take it */
  if (!arb_is_legal(arb_game_position(l->g), m)) {
    *st = ARB_ERR_MOVE_ILLEGAL;
    return 0;
  }
  arb_position after = *arb_game_position(l->g);
  arb_undo u;
  arb_make_move(&after, m, &u);
  arb_game *g = arb_game_new(&after, rules);
  if (!g) {
    *st = ARB_ERR_NO_MEMORY;
    return 0;
  }
  arb_game_set_search_budget(g, SRV_SEARCH_BUDGET);
  *saved = *l;
  if (l->ended_ply < 0) {
    l->ended_ply = tree_ply;
    l->ended = arb_game_outcome(l->g);
  }
  l->g = g;
  l->base = tree_ply + 1;
  *st = ARB_OK;
  return 1;
}

static void line_unplay(an_line *l, int fresh, const an_line *saved) {
  if (fresh) {
    arb_game_free(l->g);
    *l = *saved;
  } else {
    arb_game_undo(l->g);
  }
}

/* ---- the tree and its nodes ---- */

typedef struct an_ref {
  const arb_tree_node *n;
  int id;
} an_ref;

typedef struct an {
  arb_ruleset rules;
  uint64_t budget, granted; /* search nodes left, and given for this request */
  arb_tree *tree;
  arb_tree_node **byid;
  int nids, source_ids;
  an_ref *sorted;
  char **laws;    /* per id: the laws' JSON object */
  char **remarks; /* per id: the notable notes, for the PGN's comments */
  int oom;
} an;

static void an_free(an *a) {
  for (int i = 0; i < a->nids; i++) {
    if (a->laws) free(a->laws[i]);
    if (a->remarks) free(a->remarks[i]);
  }
  free(a->laws);
  free(a->remarks);
  free(a->byid);
  free(a->sorted);
  arb_tree_free(a->tree);
}

static int ref_cmp(const void *x, const void *y) {
  const an_ref *a = x, *b = y;
  return a->n < b->n ? -1 : a->n > b->n;
}

static int id_of(const an *a, const arb_tree_node *n) {
  an_ref key = {n, 0};
  const an_ref *r = bsearch(&key, a->sorted, (size_t)a->nids, sizeof key, ref_cmp);
  return r ? r->id : -1;
}

/* Numbers the tree's nodes as arb_tree_node_walk visits them: depth first, each line's
 * continuation before its variations. */
static int number_nodes(an *a) {
  size_t n = arb_tree_node_count(a->tree);
  a->byid = calloc(n + SRV_ANALYSIS_MAX_PLIES + 1, sizeof *a->byid);
  if (!a->byid) return -1;
  for (arb_tree_node *x = arb_tree_root(a->tree); x; x = arb_tree_node_walk(x))
    a->byid[a->nids++] = x;
  a->source_ids = a->nids;
  return 0;
}

static int index_nodes(an *a) {
  free(a->sorted);
  a->sorted = malloc((size_t)a->nids * sizeof *a->sorted);
  if (!a->sorted) return -1;
  for (int i = 0; i < a->nids; i++)
    a->sorted[i] = (an_ref){a->byid[i], i};
  qsort(a->sorted, (size_t)a->nids, sizeof *a->sorted, ref_cmp);
  return 0;
}

/* The laws of n (its line's game at n's position) and, depth first, of everything after it. */
static void visit(an *a, arb_tree_node *n, an_line *l, const an_prev *prev) {
  int id = id_of(a, n);
  if (id < 0 || a->oom) return;
  srv_jw w;
  srv_jw_init(&w);
  sb remarks = {0};
  an_prev now;
  laws_write(&w, l, a->rules, &a->budget, prev, &now, &remarks);
  a->laws[id] = srv_jw_take(&w);
  a->remarks[id] = remarks.buf;
  if (!a->laws[id] || remarks.failed) {
    a->oom = 1;
    return;
  }
  for (int i = 0; i < arb_tree_node_child_count(n); i++) {
    arb_tree_node *c = arb_tree_node_child(n, i);
    an_line saved;
    arb_status st;
    int fresh = line_play(l, arb_tree_node_move(c), a->rules, arb_tree_node_ply(n), &saved, &st);
    if (st != ARB_OK) { /* the tree holds legal moves only: memory */
      if (fresh) line_unplay(l, fresh, &saved);
      a->oom = 1;
      return;
    }
    visit(a, c, l, &now);
    line_unplay(l, fresh, &saved);
  }
}

static int laws_all(an *a) {
  a->laws = calloc((size_t)a->nids, sizeof *a->laws);
  a->remarks = calloc((size_t)a->nids, sizeof *a->remarks);
  if (!a->laws || !a->remarks || index_nodes(a)) return -1;
  an_line l = {arb_game_new(arb_tree_start(a->tree), a->rules), 0, -1, {0, 0, 0, 0}};
  if (!l.g) return -1;
  arb_game_set_search_budget(l.g, SRV_SEARCH_BUDGET);
  visit(a, arb_tree_root(a->tree), &l, NULL);
  arb_game_free(l.g);
  for (int i = 0; i < a->nids; i++)
    if (!a->laws[i]) a->oom = 1;
  return a->oom ? -1 : 0;
}

/* ---- reading the request ---- */

/* The PGN reader's visitor around the tree builder: the first game only, at most
 * SRV_ANALYSIS_MAX_PLIES moves, the first error kept whole, the warnings noted. */
typedef struct pgn_read {
  arb_pgn_visitor inner;
  arb_tree_builder *b;
  int games, plies, too_many;
  int fatal;
  json_t *error;    /* the first error that stops the analysis */
  json_t *warnings; /* problems that do not */
} pgn_read;

static int pr_begin_game(void *ctx, uint64_t game, uint64_t line) {
  pgn_read *o = ctx;
  if (++o->games > 1) return 1;
  return o->inner.begin_game(o->b, game, line);
}
#define PR_FORWARD(name, params, args)                                                             \
  static int pr_##name params {                                                                    \
    pgn_read *o = ctx;                                                                             \
    return o->games > 1 || o->too_many ? 1 : o->inner.name args;                                   \
  }
PR_FORWARD(tag, (void *ctx, const char *n, size_t nl, const char *v, size_t vl),
           (o->b, n, nl, v, vl))
PR_FORWARD(begin_moves, (void *ctx, const arb_position *s), (o->b, s))
PR_FORWARD(comment, (void *ctx, const char *t, size_t n, int d), (o->b, t, n, d))
PR_FORWARD(nag, (void *ctx, int nag, int d), (o->b, nag, d))
PR_FORWARD(begin_variation, (void *ctx, int d), (o->b, d))
PR_FORWARD(end_variation, (void *ctx, int d), (o->b, d))

static int pr_move(void *ctx, const arb_pgn_move *m) {
  pgn_read *o = ctx;
  if (o->games > 1 || o->too_many) return 1;
  if (++o->plies > SRV_ANALYSIS_MAX_PLIES) {
    o->too_many = 1;
    return 1;
  }
  return o->inner.move(o->b, m);
}

static void pr_end_game(void *ctx, const arb_pgn_game_end *e) {
  pgn_read *o = ctx;
  if (o->games == 1) o->inner.end_game(o->b, e);
}

static int problem_fatal(const arb_pgn_error *e) {
  if (e->warning) return 0;
  switch (e->problem) {
  case ARB_PGN_RESULT:
  case ARB_PGN_TRUNCATED:
  case ARB_PGN_NOT_STRICT:
  case ARB_PGN_TIME_FORFEIT:
  case ARB_PGN_TAG: return 0;
  default: return 1;
  }
}

static json_t *pgn_problem_json(const arb_pgn_error *e) {
  json_t *j = json_object();
  char code[48];
  snprintf(code, sizeof code, "pgn_%s", arb_pgn_problem_name(e->problem));
  json_object_set_new(j, "code", json_string(code));
  json_object_set_new(j, "line", json_integer((json_int_t)e->where.line));
  json_object_set_new(j, "column", json_integer((json_int_t)e->where.column));
  if (e->where.ply) json_object_set_new(j, "ply", json_integer(e->where.ply));
  if (e->where.depth) json_object_set_new(j, "depth", json_integer(e->where.depth));
  if (e->token && e->token_len) {
    size_t n = e->token_len < 64 ? e->token_len : 64;
    json_t *tok = json_stringn(e->token, n);
    if (tok) json_object_set_new(j, "move", tok);
  }
  char msg[400];
  snprintf(msg, sizeof msg, "PGN line %llu, column %u: %s", (unsigned long long)e->where.line,
           (unsigned)e->where.column, e->message);
  json_t *m = json_string(msg);
  json_object_set_new(j, "message", m ? m : json_string(e->message));
  return j;
}

static void pr_error(void *ctx, const arb_pgn_error *e) {
  pgn_read *o = ctx;
  if (e->where.game != 1) return;
  if (problem_fatal(e)) {
    if (!o->error) o->error = pgn_problem_json(e);
    o->fatal = 1;
  } else if (json_array_size(o->warnings) < MAX_WARNINGS) {
    json_array_append_new(o->warnings, pgn_problem_json(e));
  }
}

/* The tree of a PGN text's first game; 0, or a status with *out the error. */
static int read_pgn(an *a, const char *pgn, size_t len, json_t *warnings, char **out) {
  pgn_read o;
  memset(&o, 0, sizeof o);
  o.warnings = warnings;
  if (!(o.b = arb_tree_builder_new())) return fail(out, 500, "no_resources", "out of memory", 0);
  arb_tree_builder_visitor(o.b, &o.inner);
  arb_pgn_visitor v = {
      &o,     pr_begin_game,      pr_tag,           pr_begin_moves, pr_move, pr_comment,
      pr_nag, pr_begin_variation, pr_end_variation, pr_end_game,    pr_error};
  arb_pgn_options ro;
  memset(&ro, 0, sizeof ro);
  ro.rules = a->rules;
  arb_pgn_reader *r = arb_pgn_reader_new(&ro, &v);
  arb_status st = r ? ARB_OK : ARB_ERR_NO_MEMORY;
  if (r && (st = arb_pgn_reader_feed(r, pgn, len)) == ARB_OK) st = arb_pgn_reader_finish(r);
  arb_pgn_reader_free(r);
  a->tree = arb_tree_builder_take(o.b);
  arb_tree_builder_free(o.b);
  if (st != ARB_OK) {
    json_decref(o.error);
    return fail(out, 500, "no_resources", "out of memory", 0);
  }
  if (o.too_many) {
    json_decref(o.error);
    char msg[160];
    snprintf(msg, sizeof msg,
             "the game has more than %d moves (plies) in all, main line and variations: the "
             "analysis board takes at most %d",
             SRV_ANALYSIS_MAX_PLIES, SRV_ANALYSIS_MAX_PLIES);
    json_t *x = json_object();
    json_object_set_new(x, "limit", json_integer(SRV_ANALYSIS_MAX_PLIES));
    return fail(out, 413, "too_many_moves", msg, x);
  }
  if (o.error) {
    json_t *j = json_object();
    json_object_set_new(j, "error", o.error);
    *out = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    return *out ? 400 : 500;
  }
  if (!a->tree) return fail(out, 400, "no_game", "the PGN holds no game", 0);
  return 0;
}

/* A move of a request (SAN or UCI) in pos; 0, or 400 with the error naming it. */
static int read_move(const arb_position *pos, const char *text, const char *where, arb_move *m,
                     char **out) {
  arb_san_error e;
  size_t n = strlen(text);
  if (n && n < 16 && arb_move_read(pos, text, n, 0, m, &e) == ARB_OK) return 0;
  if (!n || n >= 16) {
    e.code = ARB_ERR_MOVE_SYNTAX;
    snprintf(e.message, sizeof e.message, "%s", n ? "too long for a move" : "empty");
  }
  /* a move written in UCI gets the rule that forbids it (explain.h) */
  arb_move_explanation x;
  char msg[400];
  if (n < 16 && arb_move_explain_uci(pos, text, n, &x) == ARB_OK && x.reason != ARB_MOVE_LEGAL)
    snprintf(msg, sizeof msg, "%s: %s does not read: %s (Article %s)", where, text, x.message,
             x.article);
  else
    snprintf(msg, sizeof msg, "%s: %.20s does not read: %s", where, text, e.message);
  json_t *j = json_object();
  json_t *mv = json_stringn(text, n < 32 ? n : 32);
  if (mv) json_object_set_new(j, "move", mv);
  json_object_set_new(j, "where", json_string(where));
  return fail(out, 400, e.code == ARB_ERR_MOVE_AMBIGUOUS ? "move_ambiguous" : "move_illegal", msg,
              j);
}

static int read_fen(const char *fen, arb_position *pos, char **out) {
  arb_fen_report rep;
  if (strlen(fen) > 200) return fail(out, 400, "fen_syntax", "the FEN is too long", 0);
  if (arb_fen_read(pos, fen, 0, &rep) == ARB_OK) return 0;
  json_t *x = json_object();
  if (rep.problems) {
    json_t *list = json_array();
    for (int i = 0; i < ARB_FEN_PROBLEM_COUNT; i++)
      if (rep.problems & (1u << i))
        json_array_append_new(list, json_string(arb_fen_problem_name(1u << i)));
    json_object_set_new(x, "problems", list);
  }
  char msg[256];
  snprintf(msg, sizeof msg, "the FEN does not read: %s", rep.message);
  return fail(out, 400, rep.problems ? "fen_invalid" : "fen_syntax", msg, x);
}

/* The start and the moves of {"fen", "moves"}; 0 or an error status. */
static int read_line(json_t *req, arb_position *start, arb_move *moves, int *n, char **out) {
  json_t *jf = json_object_get(req, "fen"), *jm = json_object_get(req, "moves");
  if (jf && !json_is_string(jf) && !json_is_null(jf))
    return fail(out, 400, "bad_request", "\"fen\" is a string", 0);
  if (json_is_string(jf) && json_string_length(jf)) {
    int s = read_fen(json_string_value(jf), start, out);
    if (s) return s;
  } else {
    arb_position_startpos(start);
  }
  *n = 0;
  if (!jm || json_is_null(jm)) return 0;
  if (!json_is_array(jm)) return fail(out, 400, "bad_request", "\"moves\" is a list of moves", 0);
  if (json_array_size(jm) > SRV_ANALYSIS_MAX_PLIES) {
    json_t *x = json_object();
    json_object_set_new(x, "limit", json_integer(SRV_ANALYSIS_MAX_PLIES));
    return fail(out, 413, "too_many_moves", "at most 600 moves", x);
  }
  arb_position pos = *start;
  size_t i;
  json_t *v;
  json_array_foreach(jm, i, v) {
    char where[32];
    snprintf(where, sizeof where, "moves[%zu]", i);
    if (!json_is_string(v)) return fail(out, 400, "bad_request", "a move is a string", 0);
    if (!arb_has_legal_move(&pos)) {
      char msg[96];
      snprintf(msg, sizeof msg, "%s: the game is over (%s): no move can follow", where,
               arb_in_check(&pos) ? "checkmate" : "stalemate");
      return fail(out, 400, "move_illegal", msg, 0);
    }
    int s = read_move(&pos, json_string_value(v), where, &moves[*n], out);
    if (s) return s;
    arb_undo u;
    arb_make_move(&pos, moves[(*n)++], &u);
  }
  return 0;
}

static int is_game_id(const char *s) {
  size_t n = strlen(s);
  if (n != SRV_GAME_ID_LEN) return 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '-'))
      return 0;
  }
  return 1;
}

/* Reads the request's source and added moves into a->tree and its numbering. */
static int read_source(an *a, json_t *req, srv_analysis_loader load, void *ctx, json_t *warnings,
                       char **out) {
  json_t *jr = json_object_get(req, "rules");
  a->rules = ARB_RULES_FIDE;
  if (jr && !json_is_null(jr) &&
      (!json_is_string(jr) || arb_rules_parse(json_string_value(jr), &a->rules) != ARB_OK))
    return fail(out, 400, "bad_rules",
                "\"rules\" is one of fide, fide-rapid, fide-blitz, uscf, online, casual", 0);
  json_t *jp = json_object_get(req, "pgn"), *jg = json_object_get(req, "game"),
         *jt = json_object_get(req, "text");
  if ((jp && !json_is_string(jp)) || (jg && !json_is_string(jg)) || (jt && !json_is_string(jt)))
    return fail(out, 400, "bad_request", "\"pgn\", \"game\" and \"text\" are strings", 0);
  int s = 0;
  if (jt) { /* pasted: a FEN when it reads as one, else PGN */
    const char *text = json_string_value(jt);
    size_t n = json_string_length(jt);
    while (n && (*text == ' ' || *text == '\n' || *text == '\r' || *text == '\t'))
      text++, n--;
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\n' || text[n - 1] == '\r'))
      n--;
    arb_position start;
    if (n && n < 200 && !memchr(text, '\n', n) && !memchr(text, '[', n) &&
        arb_fen_read_n(&start, text, n, 0, NULL) == ARB_OK) {
      if (!(a->tree = arb_tree_new(&start)))
        return fail(out, 500, "no_resources", "out of memory", 0);
    } else if (!n) {
      return fail(out, 400, "no_game", "nothing was pasted", 0);
    } else if ((s = read_pgn(a, json_string_value(jt), json_string_length(jt), warnings, out))) {
      return s;
    }
  } else if (jp) {
    if ((s = read_pgn(a, json_string_value(jp), json_string_length(jp), warnings, out))) return s;
  } else if (jg) {
    const char *id = json_string_value(jg);
    char *pgn = NULL;
    int st = is_game_id(id) && load ? load(ctx, id, &pgn) : 404;
    if (st != 200 || !pgn) {
      free(pgn);
      return fail(out, st == 200 || st == 500 ? 500 : 404, "no_game", "no game with this id", 0);
    }
    size_t n = strlen(pgn);
    if (n > SRV_ANALYSIS_MAX_PGN) {
      free(pgn);
      return fail(out, 413, "too_many_moves", "the game is too long for the analysis board", 0);
    }
    s = read_pgn(a, pgn, n, warnings, out);
    free(pgn);
    if (s) return s;
  } else {
    arb_position start;
    int n = 0;
    arb_move *mv = malloc(SRV_ANALYSIS_MAX_PLIES * sizeof *mv);
    if (!mv) return fail(out, 500, "no_resources", "out of memory", 0);
    if ((s = read_line(req, &start, mv, &n, out))) {
      free(mv);
      return s;
    }
    a->tree = arb_tree_new(&start);
    arb_tree_node *at = a->tree ? arb_tree_root(a->tree) : NULL;
    for (int i = 0; at && i < n; i++)
      if (arb_tree_add_move(a->tree, at, mv[i], &at) != ARB_OK) at = NULL;
    free(mv);
    if (!at) return fail(out, 500, "no_resources", "out of memory", 0);
  }
  if (number_nodes(a)) return fail(out, 500, "no_resources", "out of memory", 0);
  /* the variations added on the board */
  json_t *jadd = json_object_get(req, "add");
  if (jadd && !json_is_null(jadd)) {
    if (!json_is_array(jadd))
      return fail(out, 400, "bad_request", "\"add\" is a list of {\"parent\", \"move\"}", 0);
    size_t i;
    json_t *v;
    json_array_foreach(jadd, i, v) {
      char where[32];
      snprintf(where, sizeof where, "add[%zu]", i);
      json_t *jpar = json_object_get(v, "parent"), *jmv = json_object_get(v, "move");
      if (!json_is_integer(jpar) || !json_is_string(jmv))
        return fail(out, 400, "bad_request", "an added move is {\"parent\": NODE, \"move\": MOVE}",
                    0);
      json_int_t p = json_integer_value(jpar);
      if (p < 0 || p >= a->nids) {
        char msg[96];
        snprintf(msg, sizeof msg, "%s: no node %lld", where, (long long)p);
        return fail(out, 400, "bad_node", msg, 0);
      }
      if (a->nids - 1 >= SRV_ANALYSIS_MAX_PLIES) {
        json_t *x = json_object();
        json_object_set_new(x, "limit", json_integer(SRV_ANALYSIS_MAX_PLIES));
        return fail(out, 413, "too_many_moves",
                    "at most 600 moves in all, main line and variations", x);
      }
      arb_tree_node *parent = a->byid[p];
      const arb_position *pos = arb_tree_node_position(parent);
      arb_move m;
      if ((s = read_move(pos, json_string_value(jmv), where, &m, out))) return s;
      for (int k = 0; k < arb_tree_node_child_count(parent); k++)
        if (arb_tree_node_move(arb_tree_node_child(parent, k)) == m) {
          char msg[96];
          snprintf(msg, sizeof msg, "%s: that move already follows node %lld", where, (long long)p);
          return fail(out, 400, "duplicate_move", msg, 0);
        }
      arb_tree_node *made;
      if (arb_tree_add_move(a->tree, parent, m, &made) != ARB_OK)
        return fail(out, 500, "no_resources", "out of memory", 0);
      a->byid[a->nids++] = made;
    }
  }
  return 0;
}

/* ---- answers ---- */

static void write_node(srv_jw *w, const an *a, int id) {
  const arb_tree_node *n = a->byid[id];
  const arb_tree_node *parent = arb_tree_node_parent(n);
  srv_jw_open(w, '{');
  srv_jw_kint(w, "id", id);
  srv_jw_key(w, "parent");
  if (parent)
    srv_jw_int(w, id_of(a, parent));
  else
    srv_jw_null(w);
  srv_jw_kint(w, "ply", arb_tree_node_ply(n));
  char fen[ARB_FEN_MAX];
  arb_fen_write(arb_tree_node_position(n), fen, sizeof fen, 0);
  srv_jw_kstr(w, "fen", fen);
  if (parent) {
    const arb_position *before = arb_tree_node_position(parent);
    char uci[8], label[48];
    arb_uci_write(before, arb_tree_node_move(n), uci, sizeof uci);
    srv_jw_kstr(w, "san", arb_tree_node_san(n));
    srv_jw_kstr(w, "uci", uci);
    srv_jw_kint(w, "move_number", before->fullmove_number);
    srv_jw_kstr(w, "color", side_name(before->turn));
    move_label(before, arb_tree_node_san(n), label, sizeof label);
    srv_jw_kstr(w, "label", label);
  }
  srv_jw_kbool(w, "mainline", arb_tree_node_is_mainline(n));
  srv_jw_kbool(w, "added", id >= a->source_ids);
  srv_jw_key(w, "children");
  srv_jw_open(w, '[');
  for (int i = 0; i < arb_tree_node_child_count(n); i++)
    srv_jw_int(w, id_of(a, arb_tree_node_child(n, i)));
  srv_jw_close(w, ']');
  for (int side = 0; side < 2; side++) {
    int k = arb_tree_node_comment_count(n, (arb_tree_side)side);
    if (!k) continue;
    srv_jw_key(w, side == ARB_TREE_AFTER ? "comments" : "comments_before");
    srv_jw_open(w, '[');
    for (int i = 0; i < k; i++) {
      size_t len;
      const char *c = arb_tree_node_comment(n, (arb_tree_side)side, i, &len);
      srv_jw_strn(w, c, len);
    }
    srv_jw_close(w, ']');
  }
  int nn = arb_tree_node_nag_count(n);
  if (nn) {
    srv_jw_key(w, "nags");
    srv_jw_open(w, '[');
    for (int i = 0; i < nn; i++)
      srv_jw_int(w, arb_tree_node_nag(n, i));
    srv_jw_close(w, ']');
  }
  const arb_pgn_commands *cmd = arb_tree_node_commands(n);
  if (cmd && cmd->has_eval) {
    srv_jw_key(w, "eval");
    srv_jw_open(w, '{');
    srv_jw_kint(w, cmd->eval_mate ? "mate" : "cp", cmd->eval);
    if (cmd->eval_depth >= 0) srv_jw_kint(w, "depth", cmd->eval_depth);
    srv_jw_close(w, '}');
  }
  if (cmd && cmd->clk_ms >= 0) srv_jw_kint(w, "clock_ms", cmd->clk_ms);
  if (a->laws && a->laws[id]) {
    srv_jw_key(w, "laws");
    raw_value(w, a->laws[id], strlen(a->laws[id]));
  }
  srv_jw_close(w, '}');
}

static char *write_analysis(const an *a, json_t *warnings) {
  srv_jw w;
  srv_jw_init(&w);
  srv_jw_open(&w, '{');
  srv_jw_kstr(&w, "rules", arb_rules_get(a->rules)->name);
  char fen[ARB_FEN_MAX];
  arb_fen_write(arb_tree_start(a->tree), fen, sizeof fen, 0);
  srv_jw_kstr(&w, "start", fen);
  srv_jw_key(&w, "tags");
  srv_jw_open(&w, '[');
  for (int i = 0; i < arb_tree_tag_count(a->tree); i++) {
    const char *name, *value;
    if (arb_tree_tag_at(a->tree, i, &name, &value) != ARB_OK) continue;
    srv_jw_open(&w, '[');
    srv_jw_str(&w, name);
    srv_jw_str(&w, value);
    srv_jw_close(&w, ']');
  }
  srv_jw_close(&w, ']');
  srv_jw_kstr(&w, "result", arb_result_string(arb_tree_result(a->tree)));
  srv_jw_key(&w, "mainline");
  srv_jw_open(&w, '[');
  for (const arb_tree_node *n = arb_tree_root(a->tree); n; n = arb_tree_node_next(n))
    srv_jw_int(&w, id_of(a, n));
  srv_jw_close(&w, ']');
  srv_jw_key(&w, "nodes");
  srv_jw_open(&w, '[');
  for (int i = 0; i < a->nids; i++)
    write_node(&w, a, i);
  srv_jw_close(&w, ']');
  char *wj = json_dumps(warnings, JSON_COMPACT);
  if (wj) {
    srv_jw_key(&w, "warnings");
    raw_value(&w, wj, strlen(wj));
    free(wj);
  }
  srv_jw_kint(&w, "searched", (int64_t)(a->granted - a->budget));
  srv_jw_close(&w, '}');
  return srv_jw_take(&w);
}

/* The searches' budget shared by every request (analysis.h): refilled with the time. */
static uint64_t bucket = SRV_ANALYSIS_BURST;
static int64_t bucket_ms;
static int bucket_started;

static uint64_t budget_take(int64_t now_ms, uint64_t want) {
  if (!bucket_started) {
    bucket_started = 1;
    bucket_ms = now_ms;
  } else if (now_ms > bucket_ms) {
    uint64_t add = (uint64_t)(now_ms - bucket_ms) * (SRV_ANALYSIS_RATE / 1000);
    bucket = bucket + add > SRV_ANALYSIS_BURST || add > SRV_ANALYSIS_BURST ? SRV_ANALYSIS_BURST
                                                                           : bucket + add;
    bucket_ms = now_ms;
  }
  uint64_t got = want < bucket ? want : bucket;
  bucket -= got;
  return got;
}

static void budget_return(uint64_t left) {
  bucket = bucket + left > SRV_ANALYSIS_BURST ? SRV_ANALYSIS_BURST : bucket + left;
}

/* POST /api/analysis/position: the laws at the end of {"fen", "moves"}. */
static int position_http(json_t *req, int64_t now_ms, char **out) {
  arb_ruleset rules = ARB_RULES_FIDE;
  json_t *jr = json_object_get(req, "rules");
  if (jr && !json_is_null(jr) &&
      (!json_is_string(jr) || arb_rules_parse(json_string_value(jr), &rules) != ARB_OK))
    return fail(out, 400, "bad_rules",
                "\"rules\" is one of fide, fide-rapid, fide-blitz, uscf, online, casual", 0);
  arb_position start;
  arb_move *mv = malloc(SRV_ANALYSIS_MAX_PLIES * sizeof *mv);
  int n = 0, s;
  if (!mv) return fail(out, 500, "no_resources", "out of memory", 0);
  if ((s = read_line(req, &start, mv, &n, out))) {
    free(mv);
    return s;
  }
  an_line l = {arb_game_new(&start, rules), 0, -1, {0, 0, 0, 0}};
  /* games started where an earlier one ended (at most one per move) */
  arb_game **made = calloc((size_t)n + 1, sizeof *made);
  int nmade = 0;
  if (!l.g || !made) {
    arb_game_free(l.g);
    free(made);
    free(mv);
    return fail(out, 500, "no_resources", "out of memory", 0);
  }
  made[nmade++] = l.g;
  arb_game_set_search_budget(l.g, SRV_SEARCH_BUDGET);
  arb_position before = start;
  int ok = 1;
  for (int i = 0; i < n && ok; i++) {
    before = *arb_game_position(l.g);
    an_line saved;
    arb_status st;
    if (line_play(&l, mv[i], rules, i, &saved, &st)) made[nmade++] = l.g;
    ok = st == ARB_OK;
  }
  srv_jw w;
  srv_jw_init(&w);
  if (ok) {
    uint64_t budget = budget_take(now_ms, SRV_SEARCH_BUDGET * 2);
    an_prev now;
    const arb_position *pos = arb_game_position(l.g);
    char fen[ARB_FEN_MAX];
    arb_fen_write(pos, fen, sizeof fen, 0);
    srv_jw_open(&w, '{');
    srv_jw_key(&w, "node");
    srv_jw_open(&w, '{');
    srv_jw_kint(&w, "ply", n);
    srv_jw_kstr(&w, "fen", fen);
    if (n) {
      char san[ARB_SAN_MAX], uci[8], label[48];
      arb_san_write(&before, mv[n - 1], san, sizeof san);
      arb_uci_write(&before, mv[n - 1], uci, sizeof uci);
      srv_jw_kstr(&w, "san", san);
      srv_jw_kstr(&w, "uci", uci);
      srv_jw_kint(&w, "move_number", before.fullmove_number);
      srv_jw_kstr(&w, "color", side_name(before.turn));
      move_label(&before, san, label, sizeof label);
      srv_jw_kstr(&w, "label", label);
    }
    srv_jw_key(&w, "laws");
    laws_write(&w, &l, rules, &budget, NULL, &now, NULL);
    budget_return(budget);
    srv_jw_close(&w, '}');
    srv_jw_close(&w, '}');
  }
  for (int i = 0; i < nmade; i++)
    arb_game_free(made[i]);
  free(made);
  free(mv);
  if (!ok) {
    srv_jw_free(&w);
    return fail(out, 500, "no_resources", "out of memory", 0);
  }
  *out = srv_jw_take(&w);
  return *out ? 200 : 500;
}

/* POST /api/analysis/pgn: the tree written by the library's PGN writer, with the laws' notable
 * notes and the engine's evaluations as comments. */
static int pgn_http(an *a, json_t *req, char **out) {
  json_t *jl = json_object_get(req, "laws");
  if (!jl || json_is_true(jl)) {
    if (laws_all(a)) return fail(out, 500, "no_resources", "out of memory", 0);
    for (int i = 1; i < a->nids; i++)
      if (a->remarks[i] && a->remarks[i][0] &&
          arb_tree_node_add_comment(a->byid[i], ARB_TREE_AFTER, a->remarks[i],
                                    strlen(a->remarks[i])) != ARB_OK)
        return fail(out, 500, "no_resources", "out of memory", 0);
    if (a->remarks[0] && a->remarks[0][0])
      arb_tree_node_add_comment(a->byid[0], ARB_TREE_AFTER, a->remarks[0], strlen(a->remarks[0]));
  }
  json_t *jev = json_object_get(req, "evals");
  if (jev && !json_is_null(jev)) {
    if (!json_is_array(jev))
      return fail(out, 400, "bad_request", "\"evals\" is a list of {\"node\", \"score\", ...}", 0);
    size_t i;
    json_t *v;
    json_array_foreach(jev, i, v) {
      json_t *jn = json_object_get(v, "node"), *sc = json_object_get(v, "score");
      json_int_t id = json_is_integer(jn) ? json_integer_value(jn) : -1;
      json_t *cp = json_object_get(sc, "cp"), *mate = json_object_get(sc, "mate");
      if (id < 1 || id >= a->nids || (!json_is_integer(cp) && !json_is_integer(mate))) {
        char msg[96];
        snprintf(msg, sizeof msg, "evals[%zu]: {\"node\": 1..%d, \"score\": {\"cp\"|\"mate\"}}", i,
                 a->nids - 1);
        return fail(out, 400, "bad_eval", msg, 0);
      }
      json_int_t val = json_integer_value(json_is_integer(cp) ? cp : mate);
      json_int_t depth = json_integer_value(json_object_get(v, "depth"));
      if (val < -100000 || val > 100000 || depth < 0 || depth > 1000)
        return fail(out, 400, "bad_eval", "an evaluation out of range", 0);
      arb_tree_node *n = a->byid[id];
      arb_pgn_commands cmds = *arb_tree_node_commands(n);
      cmds.has_eval = 1;
      cmds.eval_mate = json_is_integer(mate);
      cmds.eval = (int32_t)val;
      cmds.eval_depth = depth > 0 ? (int32_t)depth : -1;
      if (arb_tree_node_set_commands(n, &cmds) != ARB_OK)
        return fail(out, 500, "no_resources", "out of memory", 0);
      /* the engine's line, read move by move from the position it was asked of: only the
       * moves that are legal there are written */
      json_t *pv = json_object_get(v, "pv");
      arb_move line[16];
      int nline = 0;
      arb_position q = *arb_tree_node_position(n);
      for (size_t k = 0; json_is_array(pv) && k < json_array_size(pv) && nline < 16; k++) {
        const char *san = json_string_value(json_array_get(pv, k));
        arb_move m;
        if (!san || strlen(san) > 12 || arb_san_read(&q, san, strlen(san), 0, &m, NULL) != ARB_OK)
          break;
        line[nline++] = m;
        arb_undo u;
        arb_make_move(&q, m, &u);
      }
      if (nline) {
        sb t = {0};
        if (depth > 0)
          sb_printf(&t, "Engine, depth %d: ", (int)depth);
        else
          sb_add(&t, "Engine: ");
        line_words(arb_tree_node_position(n), line, nline, 16, &t);
        arb_status st = t.failed ? ARB_ERR_NO_MEMORY
                                 : arb_tree_node_add_comment(n, ARB_TREE_AFTER, t.buf, t.len);
        free(t.buf);
        if (st != ARB_OK) return fail(out, 500, "no_resources", "out of memory", 0);
      }
    }
  }
  arb_tree_set_tag(a->tree, "Annotator", "Arbiter analysis board");
  arb_pgn_writer *pw = arb_pgn_writer_new(0);
  if (!pw || arb_tree_write(a->tree, pw) != ARB_OK) {
    arb_pgn_writer_free(pw);
    return fail(out, 500, "no_resources", "out of memory", 0);
  }
  size_t len;
  const char *text = arb_pgn_writer_data(pw, &len);
  json_t *j = json_object();
  json_t *s = json_stringn(text, len);
  json_object_set_new(j, "pgn", s ? s : json_string(""));
  arb_pgn_writer_free(pw);
  *out = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  return *out ? 200 : 500;
}

int srv_analysis_http(const char *path, const char *body, size_t len, int64_t now_ms,
                      srv_analysis_loader load, void *load_ctx, char **out) {
  *out = NULL;
  int which = !strcmp(path, "/api/analysis")            ? 0
              : !strcmp(path, "/api/analysis/position") ? 1
              : !strcmp(path, "/api/analysis/pgn")      ? 2
                                                        : -1;
  if (which < 0)
    return fail(out, 404, "not_found",
                "POST /api/analysis, /api/analysis/position or /api/analysis/pgn", 0);
  json_error_t je;
  json_t *req = json_loadb(body ? body : "", len, JSON_REJECT_DUPLICATES, &je);
  if (!json_is_object(req)) {
    json_decref(req);
    char msg[240];
    snprintf(msg, sizeof msg, "the request is not a JSON object: %s", je.text);
    json_t *x = json_object();
    json_object_set_new(x, "line", json_integer(je.line));
    json_object_set_new(x, "column", json_integer(je.column));
    return fail(out, 400, "bad_json", req ? "the request is a JSON object" : msg, x);
  }
  int status;
  if (which == 1) {
    status = position_http(req, now_ms, out);
  } else {
    an a;
    memset(&a, 0, sizeof a);
    json_t *warnings = json_array();
    status = read_source(&a, req, load, load_ctx, warnings, out);
    if (!status) a.budget = a.granted = budget_take(now_ms, SRV_ANALYSIS_BUDGET);
    if (!status && which == 0) {
      if (laws_all(&a)) {
        status = fail(out, 500, "no_resources", "out of memory", 0);
      } else {
        *out = write_analysis(&a, warnings);
        status = *out ? 200 : 500;
      }
    } else if (!status) {
      status = pgn_http(&a, req, out);
    }
    budget_return(a.budget);
    json_decref(warnings);
    an_free(&a);
  }
  json_decref(req);
  return status;
}
