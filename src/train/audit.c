/* Arbiter — MIT licence, see LICENSE.
 *
 * audit.c: the rule mistakes of a played game (audit.h).  The game is replayed in an arb_game
 * under the FIDE Laws; at each position of the player who went on to lose, the claims the game
 * layer would have accepted are looked for, and where that player was well behind, the solver's
 * forced stalemate or dead position; at the end, a stalemate given away and a result the laws
 * would not give.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/audit.h"
#include "arbiter/clock.h"
#include "arbiter/status.h"

static const char *const kind_names[ARB_AUDIT_KIND_COUNT] = {
    "claim_threefold", "claim_fifty",       "stalemate_given", "stalemate_promotion",
    "missed_rescue",   "result_not_lawful", "played_on"};

const char *arb_audit_kind_name(arb_audit_kind k) {
  return (unsigned)k < ARB_AUDIT_KIND_COUNT ? kind_names[k] : "";
}

#define RESCUE_DEFICIT 3   /* material behind (pawns) before a rescue is looked for */
#define RESCUE_SEARCHES 48 /* positions searched for a rescue in one game, at most */
#define RESCUE_N 2         /* the rescue's length, in the rescuer's moves */
#define WELL_AHEAD 5       /* material ahead that makes a stalemate a thrown win */

static const char *side(int c) { return c == ARB_WHITE ? "White" : "Black"; }

/* "23.Qe3" or "23...Qe3". */
static void numbered(const arb_position *p, arb_move m, char *buf, size_t n) {
  char s[ARB_SAN_MAX];
  arb_san_write(p, m, s, sizeof s);
  snprintf(buf, n, "%lu%s%s", (unsigned long)p->fullmove_number, p->turn == ARB_WHITE ? "." : "...",
           s);
}

typedef struct out {
  arb_audit_finding *f;
  int cap, n;
} out;

static arb_audit_finding *add(out *o, arb_audit_kind k, int ply, int who, const arb_position *p,
                              arb_move move, arb_move played, const char *article, double pts) {
  arb_audit_finding *f = o->n < o->cap ? &o->f[o->n] : NULL;
  o->n++;
  if (!f) return NULL;
  memset(f, 0, sizeof *f);
  f->kind = k;
  f->ply = ply;
  f->move_number = (int)p->fullmove_number;
  f->side = (int8_t)who;
  arb_fen_write(p, f->fen, sizeof f->fen, 0);
  if (move != ARB_MOVE_NONE) {
    arb_uci_write(p, move, f->move, sizeof f->move);
    arb_san_write(p, move, f->san, sizeof f->san);
  }
  if (played != ARB_MOVE_NONE) {
    arb_uci_write(p, played, f->played, sizeof f->played);
    arb_san_write(p, played, f->played_san, sizeof f->played_san);
  }
  snprintf(f->article, sizeof f->article, "%s", article);
  f->points = pts;
  return f;
}

static void say(arb_audit_finding *f, const char *fmt, ...) {
  if (!f) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->text, sizeof f->text, fmt, ap);
  va_end(ap);
}

static const char *ending_words(arb_termination t) {
  switch (t) {
  case ARB_TERM_DEAD_POSITION:
  case ARB_TERM_INSUFFICIENT_MATERIAL:
    return "the position was dead: no series of legal moves could lead to checkmate (FIDE 5.2.2)";
  case ARB_TERM_FIVEFOLD_REPETITION:
    return "the same position had occurred for the fifth time (FIDE 9.6.1)";
  case ARB_TERM_SEVENTYFIVE_MOVES:
    return "75 moves by each player had passed without a capture or a pawn move (FIDE 9.6.2)";
  case ARB_TERM_STALEMATE: return "stalemate (FIDE 5.2.1)";
  default: return "the game was over";
  }
}

/* A claim the player to move could have made: on the board, or with an intended move (the one
 * played first, if it is one). */
static int claim_chance(const arb_game *g, arb_claim_reason r, arb_move played, arb_move *with) {
  *with = ARB_MOVE_NONE;
  if (arb_game_claim_correct(g, r, ARB_MOVE_NONE)) return 1;
  if (played != ARB_MOVE_NONE && arb_game_claim_correct(g, r, played)) return *with = played, 1;
  arb_move ms[ARB_MAX_MOVES];
  int k = arb_generate_legal(arb_game_position(g), ms);
  for (int i = 0; i < k; i++)
    if (arb_game_claim_correct(g, r, ms[i])) return *with = ms[i], 1;
  return 0;
}

int arb_audit(const arb_audit_game *in, arb_solver *solver, uint64_t budget,
              arb_audit_finding *findings, int cap) {
  if (!in || in->nmoves < 0 || (in->nmoves && !in->moves) || cap < 0 || (cap && !findings))
    return -1;
  if (!budget) budget = ARB_AUDIT_DEFAULT_BUDGET;
  arb_game *g = arb_game_new(&in->start, ARB_RULES_FIDE);
  if (!g) return -1;
  out o = {findings, cap, 0};
  int loser = in->result == ARB_RESULT_WHITE_WINS   ? ARB_BLACK
              : in->result == ARB_RESULT_BLACK_WINS ? ARB_WHITE
                                                    : -1;
  int told[ARB_AUDIT_KIND_COUNT] = {0}, searches = 0, repeated = 0, ended_at = -1;
  arb_position prev = in->start;
  for (int i = 0; i <= in->nmoves; i++) {
    const arb_position *p = arb_game_position(g);
    arb_move played = i < in->nmoves ? in->moves[i] : ARB_MOVE_NONE;
    if (arb_game_outcome(g).result != ARB_RESULT_NONE) {
      if (i < in->nmoves) {
        arb_outcome oc = arb_game_outcome(g);
        arb_audit_finding *f =
            add(&o, ARB_AUDIT_PLAYED_ON, i, loser >= 0 ? loser : p->turn, p, ARB_MOVE_NONE, played,
                oc.termination == ARB_TERM_FIVEFOLD_REPETITION ? "FIDE 9.6.1"
                : oc.termination == ARB_TERM_SEVENTYFIVE_MOVES ? "FIDE 9.6.2"
                                                               : "FIDE 5.2.2",
                loser >= 0 ? 0.5 : 0);
        char mv[32] = "the start";
        if (i) numbered(&prev, in->moves[i - 1], mv, sizeof mv);
        say(f,
            "The game was over after %s: %s. The %d move%s played after it %s not count, and the "
            "result is a draw%s.",
            mv, ending_words(oc.termination), in->nmoves - i, in->nmoves - i == 1 ? "" : "s",
            in->nmoves - i == 1 ? "does" : "do", loser >= 0 ? ", not the loss recorded" : "");
        ended_at = i;
      }
      break;
    }
    if (i == in->nmoves) break;
    if (arb_game_repetitions(g) >= 2) repeated = 1;
    if ((int)p->turn == loser) {
      arb_move with;
      if (!told[ARB_AUDIT_CLAIM_THREEFOLD] && repeated &&
          claim_chance(g, ARB_CLAIM_THREEFOLD, played, &with)) {
        told[ARB_AUDIT_CLAIM_THREEFOLD] = 1;
        arb_audit_finding *f =
            add(&o, ARB_AUDIT_CLAIM_THREEFOLD, i, loser, p, with, played, "FIDE 9.2.1", 0.5);
        char s[ARB_SAN_MAX] = "";
        if (with != ARB_MOVE_NONE) arb_san_write(p, with, s, sizeof s);
        if (with == ARB_MOVE_NONE)
          say(f,
              "%s could have claimed a draw here: the position on the board had occurred for the "
              "third time. %s played on and lost.",
              side(loser), side(loser));
        else
          say(f,
              "%s could have claimed a draw here by writing %s on the scoresheet and claiming "
              "before playing it: the position after it occurred for the third time. %s played "
              "on and lost.",
              side(loser), s, side(loser));
      }
      if (!told[ARB_AUDIT_CLAIM_FIFTY] && p->halfmove_clock >= 99 &&
          claim_chance(g, ARB_CLAIM_FIFTY, played, &with)) {
        told[ARB_AUDIT_CLAIM_FIFTY] = 1;
        arb_audit_finding *f =
            add(&o, ARB_AUDIT_CLAIM_FIFTY, i, loser, p, with, played, "FIDE 9.3.1", 0.5);
        say(f,
            "%s could have claimed a draw here under the 50-move rule: %s50 moves by each player "
            "without a capture or a pawn move. %s played on and lost.",
            side(loser), with == ARB_MOVE_NONE ? "the last " : "with the move written, ",
            side(loser));
      }
      if (solver && !told[ARB_AUDIT_MISSED_RESCUE] && searches < RESCUE_SEARCHES &&
          arb_material(p, (arb_color)(loser)) + RESCUE_DEFICIT <=
              arb_material(p, (arb_color)(!loser))) {
        searches++;
        arb_solve_result r, m;
        /* a forced mate is a tactic missed, not a rule: only a draw that is no more than one */
        if (arb_solve(solver, p, ARB_SOLVE_DRAW, RESCUE_N, budget, &r) == ARB_OK &&
            r.verdict == ARB_SOLVE_FOUND &&
            arb_solve(solver, p, ARB_SOLVE_MATE, RESCUE_N, budget, &m) == ARB_OK &&
            m.verdict == ARB_SOLVE_NONE) {
          int among = 0;
          for (int k = 0; k < r.nkeys; k++)
            among |= r.keys[k] == played;
          if (!among) {
            told[ARB_AUDIT_MISSED_RESCUE] = 1;
            arb_audit_finding *f =
                add(&o, ARB_AUDIT_MISSED_RESCUE, i, loser, p, r.keys[0], played, "FIDE 5.2.1", 0.5);
            char line[160] = "";
            arb_position q = *p;
            for (int k = 0; k < r.line_len; k++) {
              char s[ARB_SAN_MAX];
              arb_san_write(&q, r.line[k], s, sizeof s);
              size_t l = strlen(line);
              snprintf(line + l, sizeof line - l, "%s%s", k ? " " : "", s);
              arb_undo u;
              arb_make_move(&q, r.line[k], &u);
            }
            char pl[32];
            numbered(p, played, pl, sizeof pl);
            say(f,
                "%s, %d points down, had a forced draw here: %s (%s%s), whatever %s answers. "
                "%s played %s instead and lost.",
                side(loser),
                arb_material(p, (arb_color)(!loser)) - arb_material(p, (arb_color)(loser)), line,
                arb_is_stalemate(&q) ? "stalemate" : "a dead position", "", side(!loser),
                side(loser), pl);
          }
        }
      }
    }
    prev = *p;
    if (arb_game_play(g, played) != ARB_OK) {
      arb_game_free(g);
      return -1;
    }
  }
  const arb_position *fin = arb_game_position(g);
  arb_outcome oc = arb_game_outcome(g);
  if (ended_at < 0 && oc.termination == ARB_TERM_STALEMATE && in->nmoves > 0) {
    int who = !fin->turn; /* who stalemated */
    arb_move last = in->moves[in->nmoves - 1];
    arb_solve_result r;
    int mate = solver && arb_solve(solver, &prev, ARB_SOLVE_MATE, 3, budget, &r) == ARB_OK &&
               r.verdict == ARB_SOLVE_FOUND;
    arb_move key = ARB_MOVE_NONE; /* a shortest mate */
    for (int k = 0; mate && k < r.nkeys && key == ARB_MOVE_NONE; k++)
      if (r.key_length[k] == r.length) key = r.keys[k];
    int ahead = arb_material(&prev, (arb_color)(who)) - arb_material(&prev, (arb_color)(!who));
    arb_move other = ARB_MOVE_NONE;
    if (ARB_MOVE_KIND(last) == ARB_MOVE_PROMOTION && ARB_MOVE_PROMO(last) == ARB_QUEEN) {
      for (int t = ARB_ROOK; t >= ARB_KNIGHT && other == ARB_MOVE_NONE; t--) {
        arb_move m =
            ARB_MOVE_MAKE_SPECIAL(ARB_MOVE_FROM(last), ARB_MOVE_TO(last), ARB_MOVE_PROMOTION, t);
        arb_position q = prev;
        arb_undo u;
        if (!arb_is_legal(&prev, m)) continue;
        arb_make_move(&q, m, &u);
        if (!arb_is_stalemate(&q)) other = m;
      }
    }
    if (mate || ahead >= WELL_AHEAD || other != ARB_MOVE_NONE) {
      arb_audit_kind k =
          other != ARB_MOVE_NONE ? ARB_AUDIT_STALEMATE_PROMOTION : ARB_AUDIT_STALEMATE_GIVEN;
      arb_audit_finding *f = add(&o, k, in->nmoves - 1, who, &prev,
                                 other != ARB_MOVE_NONE ? other : key, last, "FIDE 5.2.1", 0.5);
      char pl[32], best[ARB_SAN_MAX] = "";
      numbered(&prev, last, pl, sizeof pl);
      if (other != ARB_MOVE_NONE) {
        arb_san_write(&prev, other, best, sizeof best);
        say(f,
            "%s stalemated %s with %s: the game was drawn. Promoting to another piece, %s, would "
            "not have stalemated%s.",
            side(who), side(!who), pl, best, mate ? ", and a mate was there by force" : "");
      } else if (mate) {
        arb_san_write(&prev, key, best, sizeof best);
        say(f,
            "%s stalemated %s with %s and drew a won game: %s mated %s (FIDE 5.2.1: stalemate is "
            "a draw).",
            side(who), side(!who), pl, best,
            r.length == 1   ? "at once"
            : r.length == 2 ? "in two by force"
                            : "in three by force");
      } else {
        say(f,
            "%s, %d points ahead, stalemated %s with %s: stalemate is a draw, so half a point of "
            "a winning position was thrown away.",
            side(who), ahead, side(!who), pl);
      }
    }
  }
  if (ended_at < 0 && loser >= 0 && in->ending != ARB_AUDIT_END_OTHER &&
      oc.termination != ARB_TERM_CHECKMATE) {
    int winner = !loser;
    if (oc.result == ARB_RESULT_DRAW) {
      arb_audit_finding *f = add(&o, ARB_AUDIT_RESULT_NOT_LAWFUL, in->nmoves, loser, fin,
                                 ARB_MOVE_NONE, ARB_MOVE_NONE, "FIDE 5.2.2", 0.5);
      say(f, "The game ended drawn on the board: %s. It was recorded as a win for %s.",
          ending_words(oc.termination), side(winner));
    } else if (in->ending == ARB_AUDIT_END_TIME) {
      arb_flag_verdict v = arb_game_flag_fall(g, (arb_color)loser);
      if (v.result == ARB_RESULT_DRAW) {
        arb_audit_finding *f = add(&o, ARB_AUDIT_RESULT_NOT_LAWFUL, in->nmoves, loser, fin,
                                   ARB_MOVE_NONE, ARB_MOVE_NONE, "FIDE 6.9", 0.5);
        say(f,
            "%s lost on time, but %s could not checkmate by any series of legal moves: under "
            "the FIDE Laws the flag gives a draw.",
            side(loser), side(winner));
      }
    } else if (arb_cannot_mate(fin, (arb_color)winner) &&
               arb_rules_get(ARB_RULES_FIDE)->resign_draw_if_cannot_mate) {
      arb_audit_finding *f = add(&o, ARB_AUDIT_RESULT_NOT_LAWFUL, in->nmoves, loser, fin,
                                 ARB_MOVE_NONE, ARB_MOVE_NONE, "FIDE 5.1.2", 0.5);
      say(f,
          "%s resigned, but %s could not checkmate by any series of legal moves: under the "
          "FIDE Laws that resignation is a draw.",
          side(loser), side(winner));
    }
  }
  arb_game_free(g);
  return o.n;
}

/* ---- the streaming reviewer ---- */

struct arb_audit_reader {
  arb_pgn_reader *pgn;
  arb_solver *solver;
  uint64_t budget;
  arb_audit_callback cb;
  void *ctx;
  arb_audit_info info;
  arb_position start;
  arb_move moves[ARB_AUDIT_MAX_PLIES];
  int nmoves;
  arb_audit_finding findings[ARB_AUDIT_MAX_FINDINGS];
  int stopped;
};

static void copy_tag(char *dst, size_t n, const char *v, size_t vl) {
  snprintf(dst, n, "%.*s", (int)(vl < n ? vl : n - 1), v);
}

static int v_begin(void *ctx, uint64_t game, uint64_t line) {
  arb_audit_reader *r = ctx;
  memset(&r->info, 0, sizeof r->info);
  r->info.game = game;
  r->info.line = line;
  r->nmoves = 0;
  return 0;
}

static int v_tag(void *ctx, const char *name, size_t nl, const char *v, size_t vl) {
  arb_audit_reader *r = ctx;
  (void)nl;
  arb_audit_info *i = &r->info;
  if (!strcmp(name, "White"))
    copy_tag(i->white, sizeof i->white, v, vl);
  else if (!strcmp(name, "Black"))
    copy_tag(i->black, sizeof i->black, v, vl);
  else if (!strcmp(name, "Site"))
    copy_tag(i->site, sizeof i->site, v, vl);
  else if (!strcmp(name, "Date") || !strcmp(name, "UTCDate"))
    copy_tag(i->date, sizeof i->date, v, vl);
  else if (!strcmp(name, "Termination"))
    copy_tag(i->termination, sizeof i->termination, v, vl);
  return 0;
}

static int v_moves(void *ctx, const arb_position *start) {
  ((arb_audit_reader *)ctx)->start = *start;
  return 0;
}

static int v_move(void *ctx, const arb_pgn_move *m) {
  arb_audit_reader *r = ctx;
  if (m->depth || r->nmoves >= ARB_AUDIT_MAX_PLIES) return 0;
  if (m->move == ARB_MOVE_NULL) {
    snprintf(r->info.error, sizeof r->info.error, "a null move at ply %d", m->ply);
    return 1;
  }
  r->moves[r->nmoves++] = m->move;
  return 0;
}

static void v_error(void *ctx, const arb_pgn_error *e) {
  arb_audit_reader *r = ctx;
  if (!e->warning && !r->info.error[0])
    snprintf(r->info.error, sizeof r->info.error, "line %llu: %s",
             (unsigned long long)e->where.line, e->message);
}

static void v_end(void *ctx, const arb_pgn_game_end *end) {
  arb_audit_reader *r = ctx;
  arb_audit_info *i = &r->info;
  arb_result res = end->has_tag_result ? end->tag_result : end->movetext_result;
  snprintf(i->result, sizeof i->result, "%s",
           res == ARB_RESULT_WHITE_WINS   ? "1-0"
           : res == ARB_RESULT_BLACK_WINS ? "0-1"
           : res == ARB_RESULT_DRAW       ? "1/2-1/2"
                                          : "*");
  i->plies = end->plies;
  i->readable = !end->skipped && !end->errors && !i->error[0];
  if (end->skipped && !i->error[0])
    snprintf(i->error, sizeof i->error, "the variant '%s' is not reviewed", end->variant);
  int n = 0;
  if (i->readable && r->stopped) {
    i->readable = 0;
    snprintf(i->error, sizeof i->error, "not reviewed: the caller's limit of games was reached");
  }
  if (i->readable) {
    const char *t = i->termination;
    arb_audit_game g = {
        r->start, r->moves, r->nmoves, res,
        !strcmp(t, "Time forfeit") || !strcmp(t, "time forfeit") ? ARB_AUDIT_END_TIME
        : !t[0] || !strcmp(t, "Normal") || !strcmp(t, "normal")  ? ARB_AUDIT_END_UNKNOWN
                                                                 : ARB_AUDIT_END_OTHER};
    n = arb_audit(&g, r->solver, r->budget, r->findings, ARB_AUDIT_MAX_FINDINGS);
    if (n < 0) {
      i->readable = 0;
      snprintf(i->error, sizeof i->error, "the moves do not replay");
      n = 0;
    }
    if (n > ARB_AUDIT_MAX_FINDINGS) n = ARB_AUDIT_MAX_FINDINGS;
  }
  if (r->cb(r->ctx, i, r->findings, n)) r->stopped = 1;
}

arb_audit_reader *arb_audit_reader_new(arb_solver *solver, uint64_t budget, arb_audit_callback cb,
                                       void *ctx) {
  if (!cb) return NULL;
  arb_audit_reader *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->solver = solver;
  r->budget = budget;
  r->cb = cb;
  r->ctx = ctx;
  arb_pgn_visitor v = {r, v_begin, v_tag, v_moves, v_move, NULL, NULL, NULL, NULL, v_end, v_error};
  arb_pgn_options o = {ARB_PGN_NO_VARIATIONS | ARB_PGN_NO_RESULT_CHECK, ARB_RULES_FIDE, 0, 0};
  r->pgn = arb_pgn_reader_new(&o, &v);
  if (!r->pgn) {
    free(r);
    return NULL;
  }
  return r;
}

arb_status arb_audit_reader_feed(arb_audit_reader *r, const void *data, size_t len) {
  return r ? arb_pgn_reader_feed(r->pgn, data, len) : ARB_ERR_ARGUMENT;
}

arb_status arb_audit_reader_finish(arb_audit_reader *r) {
  return r ? arb_pgn_reader_finish(r->pgn) : ARB_ERR_ARGUMENT;
}

void arb_audit_reader_free(arb_audit_reader *r) {
  if (!r) return;
  arb_pgn_reader_free(r->pgn);
  free(r);
}
