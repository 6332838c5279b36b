/* Arbiter — MIT licence, see LICENSE.
 *
 * game.c: one game on the server.  Every change goes the same way (srv_game_apply): the
 * referee decides; what it accepted is queued to the store (the input event, the ending); then
 * the answers — an ack or an error for the
 * sender, an update for everyone, a premove notice for its owner — are queued behind that
 * write and leave only once it is committed (srv_game_release).  The referee decides every
 * rule; this file only translates and routes.
 */
#define _POSIX_C_SOURCE 200809L
#include "game.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *color_name(int c) { return c == ARB_WHITE ? "white" : "black"; }

void srv_game_log(const srv_server *sv, const srv_game *g, const char *fmt, ...) {
  if (sv->cfg.quiet) return;
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "arbiter serve: game %s: %s\n", g->row.id, line);
}

srv_game *srv_game_new(srv_server *sv, const srv_game_row *row) {
  srv_game *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->row = *row;
  arb_ruleset rules;
  uint32_t mode = row->chess960 ? ARB_FEN_READ_CHESS960 : 0;
  if (arb_rules_parse(row->rules, &rules) != ARB_OK ||
      arb_fen_read(&g->start, row->fen, mode, NULL) != ARB_OK ||
      (row->control[0] &&
       arb_tc_parse(row->control, strlen(row->control), ARB_TC_HUMAN, &g->tc, NULL) != ARB_OK) ||
      !(g->ref = arb_referee_new(rules))) {
    free(g);
    return NULL;
  }
  arb_fen_write(&g->start, g->initial_fen, sizeof g->initial_fen, 0);
  g->setup = (arb_ref_setup)ARB_REF_SETUP_INIT;
  g->setup.start = &g->start;
  g->setup.rules = rules;
  g->setup.control = row->control[0] ? &g->tc : NULL;
  g->setup.lag_compensation = (uint8_t)row->lag_compensation;
  g->setup.first_move_ms = row->first_move_ms;
  g->setup.sees_flags = 1; /* the server is the arbiter who sees every flag */
  /* a resignation or a flag asks whether the winner could ever mate: a few milliseconds at
   * most on the loop, whatever position a hostile client builds (SRV_SEARCH_BUDGET) */
  g->setup.search_budget = SRV_SEARCH_BUDGET;
  time_t secs = (time_t)(row->created_ms / 1000);
  struct tm tm;
  gmtime_r(&secs, &tm);
  strftime(g->date, sizeof g->date, "%Y.%m.%d", &tm);
  /* the PGN's Site: the server's --site, else "Arbiter" (a PGN without one names nowhere) */
  snprintf(g->site, sizeof g->site, "%s",
           sv->cfg.site && sv->cfg.site[0] ? sv->cfg.site : "Arbiter");
  size_t n = 0;
  g->tags[n++] = (arb_ref_tag){"Event", "Arbiter game"};
  if (g->site[0]) g->tags[n++] = (arb_ref_tag){"Site", g->site};
  g->tags[n++] = (arb_ref_tag){"Date", g->date};
  g->tags[n++] = (arb_ref_tag){"White", g->tag_names[ARB_WHITE]};
  g->tags[n++] = (arb_ref_tag){"Black", g->tag_names[ARB_BLACK]};
  g->tags[n++] = (arb_ref_tag){"GameId", g->row.id};
  g->setup.tags = g->tags;
  g->setup.tag_count = n;
  srv_game_name_tags(sv, g);
  if (row->computer) { /* the computer's seat is always there */
    g->seen[row->computer - 1] = 1;
    g->connected[row->computer - 1] = 1;
  }
  g->rematch_offer = -1;
  g->last_id[0] = g->last_id[1] = -1;
  for (int c = 0; c < 2; c++)
    srv_bucket_init(&g->offers[c], 3, 0);
  return g;
}

void srv_game_name_tags(srv_server *sv, srv_game *g) {
  for (int c = 0; c < 2; c++) {
    char *t = g->tag_names[c];
    size_t size = sizeof g->tag_names[c];
    if (g->row.computer == c + 1) {
      char prog[24];
      const char *e = sv->cfg.engine ? strrchr(sv->cfg.engine, '/') : NULL;
      snprintf(prog, sizeof prog, "%s", e ? e + 1 : sv->cfg.engine ? sv->cfg.engine : "Computer");
      if (prog[0] >= 'a' && prog[0] <= 'z') prog[0] = (char)(prog[0] - 'a' + 'A');
      snprintf(t, size, "%s level %d", prog, g->row.level);
    } else {
      snprintf(t, size, "%s", g->row.name[c][0] ? g->row.name[c] : c ? "Black" : "White");
    }
  }
}

void srv_game_free(srv_server *sv, srv_game *g) {
  if (!g) return;
  if (sv->io.forget) sv->io.forget(sv->io.ctx, g);
  for (size_t i = 0; i < g->npending; i++) {
    for (int k = 0; k < 3; k++)
      srv_buf_unref(g->pending[i].buf[k]);
    srv_buf_unref(g->pending[i].ack_buf);
  }
  free(g->pending);
  for (int i = 0; i < SRV_RING; i++)
    srv_buf_unref(g->ring[i].buf);
  srv_jw_free(&g->sans);
  arb_referee_free(g->ref);
  free(g);
}

/* Brings the SAN list's JSON up to the game's ply (plies only ever grow on the server). */
static void grow_sans(srv_game *g) {
  const arb_game *game = arb_referee_game(g->ref);
  int plies = game && g->started ? arb_game_ply_count(game) : 0;
  if (!g->sans.len) {
    srv_jw_init(&g->sans);
    srv_jw_raw(&g->sans, "[", 1);
  }
  for (; g->sans_ply < plies; g->sans_ply++) {
    if (g->sans_ply) srv_jw_raw(&g->sans, ",", 1);
    g->sans.first = 1;
    const char *san = arb_game_san_at(game, g->sans_ply + 1);
    srv_jw_plain(&g->sans, san, strlen(san));
  }
}

void srv_game_view(srv_game *g, int viewer, int64_t now, srv_view *v) {
  memset(v, 0, sizeof *v);
  grow_sans(g);
  if (!g->sans.failed && g->sans.buf) {
    srv_jw_raw(&g->sans, "]", 1); /* closed for the view, reopened below */
    v->moves_json = g->sans.buf;
    v->moves_len = g->sans.len;
    v->moves_ply = g->sans_ply;
    g->sans.len--;
  }
  v->id = g->row.id;
  v->initial_fen = g->initial_fen;
  v->size_hint = g->update_len;
  v->version = g->version;
  v->ref = g->ref;
  v->setup = &g->setup;
  v->control = g->row.control;
  v->started = g->started;
  v->viewer = viewer;
  v->auto_queen = viewer >= 0 ? g->auto_queen[viewer] : 0;
  v->seat_auto_queen[0] = g->auto_queen[0];
  v->seat_auto_queen[1] = g->auto_queen[1];
  v->connected[0] = g->connected[0] > 0;
  v->connected[1] = g->connected[1] > 0;
  v->rematch_offer = g->rematch_offer;
  v->rematch_id = g->row.rematch_id[0] ? g->row.rematch_id : NULL;
  v->server_ms = now;
  v->computer = g->row.computer;
  v->level = g->row.level;
  for (int c = 0; c < 2; c++)
    v->names[c] = g->row.computer == c + 1 || g->row.name[c][0] ? g->tag_names[c] : NULL;
  for (srv_session *s = g->sessions; s; s = s->next)
    v->spectators += s->seat < 0;
}

void srv_game_rearm(srv_server *sv, srv_game *g) {
  if (!sv->io.arm) return;
  sv->io.arm(sv->io.ctx, g, g->started ? arb_referee_next_deadline(g->ref) : ARB_CLOCK_NEVER);
}

/* ---- the queue of messages waiting for the store ---- */

static srv_pending *pend(srv_server *sv, srv_game *g) {
  if (g->npending == g->cap_pending) {
    size_t cap = g->cap_pending ? 2 * g->cap_pending : 8;
    srv_pending *p = realloc(g->pending, cap * sizeof *p);
    if (!p) return NULL;
    g->pending = p;
    g->cap_pending = cap;
  }
  srv_pending *p = &g->pending[g->npending++];
  memset(p, 0, sizeof *p);
  p->ticket = srv_store_last_ticket(sv->store);
  if (!g->in_plist) {
    g->in_plist = 1;
    g->pnext = sv->plist;
    sv->plist = g;
  }
  return p;
}

void srv_game_release(srv_server *sv, srv_game *g, uint64_t durable) {
  size_t done = 0;
  for (; done < g->npending && g->pending[done].ticket <= durable; done++) {
    srv_pending *p = &g->pending[done];
    if (p->to) {
      /* pushed, or overflowing: either way the transport must look at it */
      srv_session_push(p->to, p->buf[0], &sv->cfg.limits);
      if (sv->io.writable) sv->io.writable(sv->io.ctx, p->to);
    } else if (p->buf[2]) {
      for (srv_session *s = g->sessions; s; s = s->next) {
        srv_buf *b = s == p->ack_to && p->ack_buf ? p->ack_buf
                     : s->seat >= 0               ? p->buf[s->seat]
                                                  : p->buf[2];
        srv_session_push(s, b, &sv->cfg.limits);
        if (sv->io.writable) sv->io.writable(sv->io.ctx, s);
      }
    }
    for (int k = 0; k < 3; k++)
      srv_buf_unref(p->buf[k]);
    srv_buf_unref(p->ack_buf);
  }
  memmove(g->pending, g->pending + done, (g->npending - done) * sizeof *g->pending);
  g->npending -= done;
}

void srv_game_send_buf(srv_server *sv, srv_game *g, srv_session *to, srv_buf *b) {
  srv_pending *p = b ? pend(sv, g) : NULL;
  if (!p) return;
  srv_buf_ref(b);
  p->to = to;
  p->buf[0] = b;
  srv_game_release(sv, g, srv_store_durable(sv->store));
}

void srv_game_send(srv_server *sv, srv_game *g, srv_session *to, char *text) {
  srv_buf *b = srv_buf_take(text);
  srv_game_send_buf(sv, g, to, b);
  srv_buf_unref(b);
}

void srv_game_broadcast(srv_server *sv, srv_game *g, const srv_event_info *ev, srv_session *ack_to,
                        int64_t ack_id) {
  g->version++;
  srv_view v;
  srv_buf *out[4];
  arb_ref_state st;
  arb_referee_state_of(g->ref, &st);
  int64_t at = st.has_game ? st.now : g->row.created_ms; /* the event's time */
  srv_game_view(g, -1, at, &v);
  /* the sender's update carries "ack" with its id */
  int ack_seat = ack_to && ack_id >= 0 && ack_to->seat >= 0 ? ack_to->seat : -1;
  srv_write_updates(&v, ev, ack_seat, ack_id, out);
  if (out[2]) g->update_len = out[2]->len + 256;
  srv_pending *p = pend(sv, g);
  if (!p) {
    for (int k = 0; k < 4; k++)
      srv_buf_unref(out[k]);
    return;
  }
  for (int k = 0; k < 3; k++)
    p->buf[k] = out[k];
  if (ack_seat >= 0 && out[ack_seat]) { /* without memory for its own: it gets its seat's */
    p->ack_to = ack_to;
    p->ack_id = ack_id;
    p->ack_buf = out[3];
  } else {
    srv_buf_unref(out[3]);
  }
  /* the event, for a client that reconnects having missed it (a state-only broadcast, ev
   * NULL, leaves nothing: the state it will get says it all) */
  int slot = (int)(g->version % SRV_RING);
  srv_buf_unref(g->ring[slot].buf);
  g->ring[slot].v = g->version;
  g->ring[slot].buf = ev ? srv_write_missed(&v, ev) : NULL;
  srv_game_release(sv, g, srv_store_durable(sv->store));
}

void srv_game_send_state(srv_server *sv, srv_game *g, srv_session *to, int64_t now) {
  srv_view v;
  srv_game_view(g, to->seat >= 0 ? to->seat : -1, now, &v);
  srv_game_send(sv, g, to, srv_write_state(&v));
}

/* ---- storing ---- */

static void store_event(srv_server *sv, srv_game *g, const arb_ref_event *ev, int kind,
                        int64_t client_id) {
  srv_event_row r;
  memset(&r, 0, sizeof r);
  memcpy(r.game, g->row.id, sizeof r.game);
  r.seq = g->next_seq++;
  r.t = ev->t;
  r.kind = kind;
  r.by = ev->by;
  r.side = ev->side;
  if (ev->text) snprintf(r.text, sizeof r.text, "%.*s", (int)ev->text_len, ev->text);
  r.flags = ev->flags;
  r.lag_ms = ev->lag_ms;
  r.reason = (int)ev->reason;
  r.ms = ev->ms;
  r.set = ev->set;
  r.client_id = client_id;
  srv_store_put_event(sv->store, &r);
}

static void store_end(srv_server *sv, srv_game *g, int64_t t) {
  arb_ref_state s;
  arb_referee_state_of(g->ref, &s);
  if (!s.over || g->ended_stored) return;
  g->ended_stored = 1;
  srv_store_end_game(sv->store, g->row.id, arb_result_string(s.outcome.result),
                     arb_termination_name(s.outcome.termination), t);
}

/* Whether an accepted event of this kind is broadcast as an update (a version). */
static int broadcasts(arb_ref_kind k) {
  return k != ARB_REF_STATE && k != ARB_REF_PREMOVE && k != ARB_REF_CANCEL_PREMOVE;
}

/* ---- applying events ---- */

void srv_game_apply(srv_server *sv, srv_game *g, arb_ref_event *ev, srv_session *from, int64_t id) {
  arb_ref_decision d;
  arb_referee_event(g->ref, ev, &d);
  int ok = d.status == ARB_OK;
  /* store first: the input event (or, when only a flag that fell before it changed the game,
   * that fall), the ending */
  if (ok)
    store_event(sv, g, ev, (int)ev->kind, ev->kind == ARB_REF_MOVE ? id : -1);
  else if (d.ended)
    store_event(sv, g, &(arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_TICK, ev->t), ARB_REF_TICK, -1);
  if (d.ended) store_end(sv, g, ev->t);
  /* then the answers, behind it */
  if (!ok && from) {
    /* a refused move is named in its answer ("Nf4: no legal move fits"), unless the referee's
     * message names it already */
    char msg[sizeof d.message + 64];
    if ((ev->kind == ARB_REF_MOVE || ev->kind == ARB_REF_PREMOVE) && ev->text_len && g->started)
      srv_refusal_words(arb_game_position(arb_referee_game(g->ref)), d.refusal, ev->text,
                        ev->text_len, d.message, msg, sizeof msg);
    else
      snprintf(msg, sizeof msg, "%s", d.message);
    srv_game_send(sv, g, from, srv_write_error(arb_ref_refusal_name(d.refusal), msg, id));
  }
  if (ok && ev->kind == ARB_REF_MOVE) {
    g->last_id[ev->by] = id;
    snprintf(g->last_uci[ev->by], sizeof g->last_uci[0], "%.*s", (int)ev->text_len, ev->text);
  }
  /* the sender's answer: "ack" in its update, or an ack of its own for what is not broadcast */
  if (ok && from && id >= 0 && !broadcasts(ev->kind))
    srv_game_send(sv, g, from, srv_write_ack(id, 0));
  if (d.ended && !ok) {
    srv_event_info info = {ARB_REF_TICK, -1, d.state.flag_side, 0, 0, &d};
    srv_game_broadcast(sv, g, &info, NULL, -1);
  }
  if (ok && broadcasts(ev->kind)) {
    /* a move answered by a premove is two updates, both carrying the state after both */
    srv_event_info info = {ev->kind, ev->by, ev->side, 0, ev->reason, &d};
    srv_game_broadcast(sv, g, &info, from, id);
    if (d.premove.played) {
      srv_event_info pre = {ARB_REF_MOVE, ev->by ^ 1, -1, 1, 0, &d};
      srv_game_broadcast(sv, g, &pre, NULL, -1);
    }
  }
  if (ok && ev->kind == ARB_REF_MOVE && d.premove.dropped) {
    for (srv_session *s = g->sessions; s; s = s->next)
      if (s->seat == (ev->by ^ 1))
        srv_game_send(sv, g, s, srv_write_premove("", arb_ref_refusal_name(d.premove.refusal)));
  }
  if (ok && (ev->kind == ARB_REF_PREMOVE || ev->kind == ARB_REF_CANCEL_PREMOVE)) {
    for (srv_session *s = g->sessions; s; s = s->next)
      if (s->seat == ev->by)
        srv_game_send(sv, g, s, srv_write_premove(d.state.premove[ev->by], NULL));
  }
  if (ok || d.ended) {
    if (ev->kind == ARB_REF_MOVE)
      srv_game_log(sv, g, "v%llu %s %s%s%s", (unsigned long long)g->version, color_name(ev->by),
                   d.san, d.premove.played ? ", premove " : "",
                   d.premove.played ? d.premove.san : "");
    else
      srv_game_log(sv, g, "v%llu %s%s%s", (unsigned long long)g->version,
                   ok ? arb_ref_kind_name(ev->kind) : "time", ev->by >= 0 && ok ? " by " : "",
                   ev->by >= 0 && ok ? color_name(ev->by) : "");
    if (d.ended) {
      char words[192];
      srv_reason_words(g->ref, words, sizeof words);
      srv_game_log(sv, g, "over: %s", words);
    }
  }
  srv_game_rearm(sv, g);
  if (g->row.computer && (ok || d.ended)) srv_computer_turn(sv, g, ev->t);
}

void srv_game_start(srv_server *sv, srv_game *g, int64_t t) {
  if (g->started) return;
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_START, t);
  ev.setup = &g->setup;
  g->started = 1;
  srv_game_apply(sv, g, &ev, NULL, -1);
}

int srv_game_replay(srv_game *g, const srv_event_row *e) {
  g->next_seq = e->seq + 1;
  arb_ref_decision d;
  if (e->kind == ARB_REF_TICK) {
    arb_referee_tick(g->ref, e->t, &d);
    if (!d.ended) return -1;
    g->version++;
    return 0;
  }
  if ((unsigned)e->kind >= ARB_REF_TICK) return -1;
  arb_ref_event ev = ARB_REF_EVENT_INIT((arb_ref_kind)e->kind, e->t);
  ev.by = (int8_t)e->by;
  ev.side = (int8_t)e->side;
  if (e->text[0]) {
    ev.text = e->text;
    ev.text_len = strlen(e->text);
  }
  ev.flags = e->flags;
  ev.lag_ms = e->lag_ms;
  ev.reason = (arb_claim_reason)e->reason;
  ev.ms = e->ms;
  ev.set = (uint8_t)e->set;
  if (ev.kind == ARB_REF_START) {
    ev.setup = &g->setup;
    g->started = g->seen[0] = g->seen[1] = 1;
  }
  arb_referee_event(g->ref, &ev, &d);
  if (d.status != ARB_OK) return -1;
  if (broadcasts(ev.kind)) g->version += 1 + d.premove.played;
  if (ev.kind == ARB_REF_MOVE && ev.by >= 0) {
    g->last_id[ev.by] = e->client_id;
    snprintf(g->last_uci[ev.by], sizeof g->last_uci[0], "%s", e->text);
  }
  if (d.state.over) g->ended_stored = 1;
  return 0;
}

char *srv_game_pgn(srv_game *g) {
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  if (!w) return NULL;
  arb_referee *tmp = NULL;
  const arb_referee *ref = g->ref;
  if (!g->started) { /* a game still waiting for its players: no moves yet */
    tmp = arb_referee_new(g->setup.rules);
    arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_START, g->row.created_ms);
    ev.setup = &g->setup;
    arb_ref_decision d;
    if (tmp) arb_referee_event(tmp, &ev, &d);
    ref = tmp;
  }
  char *text = NULL;
  size_t len;
  if (ref && arb_referee_write_pgn(ref, 0, w) == ARB_OK) {
    const char *data = arb_pgn_writer_data(w, &len);
    if ((text = malloc(len + 1))) memcpy(text, data, len + 1);
  }
  arb_referee_free(tmp);
  arb_pgn_writer_free(w);
  return text;
}

char *srv_game_history(srv_game *g) {
  const arb_game *game = g->started ? arb_referee_game(g->ref) : NULL;
  int plies = game ? arb_game_ply_count(game) : 0;
  srv_jw w;
  srv_jw_init(&w);
  srv_jw_open(&w, '{');
  char fen[ARB_FEN_MAX], uci[8];
  srv_jw_key(&w, "fen");
  srv_jw_open(&w, '[');
  for (int i = 0; i <= plies; i++) {
    arb_fen_write(game ? arb_game_position_at(game, i) : &g->start, fen, sizeof fen, 0);
    srv_jw_plain(&w, fen, strlen(fen));
  }
  srv_jw_close(&w, ']');
  srv_jw_key(&w, "uci");
  srv_jw_open(&w, '[');
  for (int i = 1; i <= plies; i++) {
    int n = arb_uci_write(arb_game_position_at(game, i - 1), arb_game_move_at(game, i), uci,
                          sizeof uci);
    srv_jw_plain(&w, uci, (size_t)n);
  }
  srv_jw_close(&w, ']');
  srv_jw_key(&w, "san");
  srv_jw_open(&w, '[');
  for (int i = 1; i <= plies; i++)
    srv_jw_plain(&w, arb_game_san_at(game, i), strlen(arb_game_san_at(game, i)));
  srv_jw_close(&w, ']');
  srv_jw_close(&w, '}');
  return srv_jw_take(&w);
}
