/* Arbiter — MIT licence, see LICENSE.
 *
 * computer.c: the computer in a seat.  It plays through the referee as a person does — its
 * moves are events at the time its answer arrives, so its thinking is charged on its clock —
 * and the referee decides everything else.  What it chooses, it chooses from the engine's own
 * evaluations of its last searches:
 *   - a draw offered to it is accepted when it stands worse (-0.5 or less), or level (within
 *     0.3) after move 30; else declined;
 *   - it offers a draw with a move when its last six evaluations were all within 0.15 after
 *     move 40, at most every 20 moves;
 *   - it resigns when its last four evaluations were all -10 or worse (or it is being mated):
 *     then the referee rules as for a person (FIDE 5.1.2, and 6.9 / online rules when the
 *     winner could not mate);
 *   - an answer without a move (the engine failed three times over, its process replaced each
 *     time by the pool) ends nothing by itself: it is asked again, and after three failures in a
 *     row it resigns, which the referee words as a resignation.
 * A stale answer (the game moved on, was reloaded or ended) is dropped.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "strhash.h"

#define MATE_SCORE 100000

static uint64_t key_of(const char *id) {
  uint64_t h = srv_strhash(id);
  return h ? h : 1;
}

static int seat_of(const srv_game *g) { return g->row.computer - 1; }

static void event(srv_server *sv, srv_game *g, arb_ref_kind kind, const char *text, int64_t now) {
  arb_ref_state st;
  arb_referee_state_of(g->ref, &st);
  if (now < st.now) now = st.now;
  arb_ref_event ev = ARB_REF_EVENT_INIT(kind, now);
  ev.by = (int8_t)seat_of(g);
  if (text) {
    ev.text = text;
    ev.text_len = strlen(text);
  }
  srv_game_apply(sv, g, &ev, NULL, -1);
}

/* all of its last n evaluations satisfy lo <= score <= hi */
static int last_within(const srv_game *g, int n, int lo, int hi) {
  if (g->ncomp_scores < n) return 0;
  for (int i = 0; i < n; i++)
    if (g->comp_scores[i] < lo || g->comp_scores[i] > hi) return 0;
  return 1;
}

void srv_computer_turn(srv_server *sv, srv_game *g, int64_t now) {
  if (!g->row.computer || !g->started) return;
  arb_ref_state st;
  arb_referee_state_of(g->ref, &st);
  if (st.over || st.paused) return;
  int me = seat_of(g);
  if (st.draw_offer == (me ^ 1)) {
    int score = g->ncomp_scores ? g->comp_scores[0] : 0;
    int accept = g->ncomp_scores && (score <= -50 || (st.ply >= 60 && score <= 30));
    event(sv, g, accept ? ARB_REF_ACCEPT_DRAW : ARB_REF_DECLINE_DRAW, NULL, now);
    return; /* the event calls back here */
  }
  if ((int)st.turn != me || g->thinking || !sv->io.think) return;
  const arb_game *game = arb_referee_game(g->ref);
  int n = arb_game_ply_count(game);
  arb_move moves[1024];
  if (n > (int)(sizeof moves / sizeof *moves)) return; /* longer than the pool takes */
  for (int i = 0; i < n; i++)
    moves[i] = arb_game_move_at(game, i + 1);
  srv_think t = {0};
  t.game = g->row.id;
  t.key = key_of(g->row.id);
  t.seq = ++g->think_seq;
  t.start = arb_game_position_at(game, 0);
  t.moves = moves;
  t.nmoves = n;
  t.level = g->row.level;
  if (st.timed) {
    t.timed = 1;
    t.wtime = st.remaining_ms[ARB_WHITE] > 0 ? st.remaining_ms[ARB_WHITE] : 1;
    t.btime = st.remaining_ms[ARB_BLACK] > 0 ? st.remaining_ms[ARB_BLACK] : 1;
    t.winc = t.binc = g->tc.nperiods ? g->tc.periods[0].increment_ms : 0;
    int64_t own = st.remaining_ms[me];
    t.deadline_ms = (own > 0 ? own : 0) + 2000;
  }
  g->thinking = 1;
  sv->io.think(sv->io.ctx, &t);
}

void srv_computer_answer(srv_server *sv, srv_game *g, const srv_thought *a, int64_t now) {
  if (!g->row.computer || !g->thinking || a->seq != g->think_seq) return;
  g->thinking = 0;
  arb_ref_state st;
  arb_referee_state_of(g->ref, &st);
  int me = seat_of(g);
  if (st.over || (int)st.turn != me) return;
  if (!a->ok) {
    srv_game_log(sv, g, "the computer gave no move: %s", a->message);
    if (++g->think_failures >= 3) {
      event(sv, g, ARB_REF_RESIGN, NULL, now);
      return;
    }
    srv_computer_turn(sv, g, now);
    return;
  }
  g->think_failures = 0;
  if (a->has_score) {
    int s = a->mate ? (a->score > 0 ? MATE_SCORE - a->score : -MATE_SCORE - a->score) : a->score;
    memmove(g->comp_scores + 1, g->comp_scores, sizeof g->comp_scores - sizeof *g->comp_scores);
    g->comp_scores[0] = s;
    if (g->ncomp_scores < (int)(sizeof g->comp_scores / sizeof *g->comp_scores)) g->ncomp_scores++;
  }
  if (last_within(g, 4, -MATE_SCORE - 1000, -1000)) {
    event(sv, g, ARB_REF_RESIGN, NULL, now);
    return;
  }
  int ply = st.ply;
  event(sv, g, ARB_REF_MOVE, a->uci, now);
  arb_referee_state_of(g->ref, &st);
  if (st.ply == ply && !st.over) { /* refused: asked again, as a failure */
    srv_game_log(sv, g, "the referee refused the computer's %s", a->uci);
    if (++g->think_failures >= 3) {
      event(sv, g, ARB_REF_RESIGN, NULL, now);
      return;
    }
    srv_computer_turn(sv, g, now);
    return;
  }
  if (!st.over && st.ply >= 80 && st.ply - g->comp_offer_ply >= 40 && st.draw_offer < 0 &&
      last_within(g, 6, -15, 15)) {
    g->comp_offer_ply = st.ply;
    event(sv, g, ARB_REF_OFFER_DRAW, NULL, now);
  }
}

/* ---- the analysis board's evaluation ---- */

int srv_eval_read(const char *json, size_t len, srv_eval *e, char **err) {
  char msg[400];
  json_error_t jerr;
  memset(e, 0, sizeof *e);
  json_t *j = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
  json_t *fen = j ? json_object_get(j, "fen") : NULL,
         *moves = j ? json_object_get(j, "moves") : NULL;
  if (!json_is_object(j)) {
    snprintf(msg, sizeof msg, "the request must be a JSON object%s%s", j ? "" : ": ",
             j ? "" : jerr.text);
    goto bad;
  }
  arb_fen_report rep;
  if (fen && !json_is_null(fen)) {
    if (!json_is_string(fen) || arb_fen_read_n(&e->start, json_string_value(fen),
                                               json_string_length(fen), 0, &rep) != ARB_OK) {
      snprintf(msg, sizeof msg, "\"fen\": %s",
               json_is_string(fen) ? rep.message : "must be a string");
      goto bad;
    }
  } else {
    arb_fen_read(&e->start, ARB_FEN_START, 0, NULL);
  }
  e->pos = e->start;
  if (moves && !json_is_null(moves)) {
    if (!json_is_array(moves) || json_array_size(moves) > SRV_EVAL_MAX_PLY) {
      snprintf(msg, sizeof msg, "\"moves\" must be a list of at most %d moves", SRV_EVAL_MAX_PLY);
      goto bad;
    }
    for (size_t i = 0; i < json_array_size(moves); i++) {
      json_t *m = json_array_get(moves, i);
      arb_move mv;
      arb_san_error se;
      if (!json_is_string(m) || arb_move_read(&e->pos, json_string_value(m), json_string_length(m),
                                              0, &mv, &se) != ARB_OK) {
        snprintf(msg, sizeof msg, "\"moves\"[%zu]: %.40s is not a legal move here%s%s", i,
                 json_is_string(m) ? json_string_value(m) : "(not a string)",
                 json_is_string(m) && se.message[0] ? ": " : "",
                 json_is_string(m) ? se.message : "");
        msg[sizeof msg - 1] = 0;
        goto bad;
      }
      arb_undo u;
      arb_make_move(&e->pos, mv, &u);
      e->moves[e->nmoves++] = mv;
    }
  }
  e->over = !arb_has_legal_move(&e->pos);
  json_decref(j);
  return 0;
bad:
  json_decref(j);
  *err = srv_write_http_error("bad_request", msg);
  return 400;
}

char *srv_eval_write(const srv_eval *e, const srv_thought *a, int *status) {
  *status = 200;
  if (e->over)
    return strdup(arb_in_check(&e->pos) ? "{\"over\":\"checkmate\"}" : "{\"over\":\"stalemate\"}");
  if (!a || !a->ok) {
    *status = 503;
    return srv_write_http_error(a ? "engine_failed" : "no_engine",
                                a ? a->message
                                  : "this server has no chess engine: install Stockfish (Debian: "
                                    "sudo apt install stockfish), or start arbiter serve with "
                                    "--engine PATH");
  }
  json_t *j = json_object();
  int sign = e->pos.turn == ARB_WHITE ? 1 : -1;
  if (a->has_score)
    json_object_set_new(j, "score", json_pack("{s:i}", a->mate ? "mate" : "cp", sign * a->score));
  json_object_set_new(j, "depth", json_integer(a->depth));
  arb_position p = e->pos;
  arb_move mv;
  char san[ARB_SAN_MAX];
  if (arb_uci_read(&p, a->uci, strlen(a->uci), 0, &mv) == ARB_OK &&
      arb_san_write(&p, mv, san, sizeof san) > 0)
    json_object_set_new(j, "best", json_string(san));
  json_t *pv = json_array();
  const char *s = a->pv;
  while (*s && json_array_size(pv) < 24) {
    while (*s == ' ')
      s++;
    size_t n = strcspn(s, " ");
    if (!n || arb_uci_read(&p, s, n, 0, &mv) != ARB_OK ||
        arb_san_write(&p, mv, san, sizeof san) <= 0)
      break;
    json_array_append_new(pv, json_string(san));
    arb_undo u;
    arb_make_move(&p, mv, &u);
    s += n;
  }
  json_object_set_new(j, "pv", pv);
  char *text = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  return text;
}
