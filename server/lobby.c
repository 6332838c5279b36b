/* Arbiter — MIT licence, see LICENSE.
 *
 * lobby.c: the lobby's lists — open games waiting for an opponent (made with "open": true,
 * listed while their maker's seat is open in a page, or for SEEK_GRACE_MS after it left or
 * since the game was made), joined with one click (the free seat's link is handed to the
 * first who asks, and the game leaves the list), cancelled by their maker (the referee aborts
 * the game) — and the games in progress, for spectators.  The open seat's token is kept in
 * memory only: after a restart nobody is waiting any more, so nothing is listed.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "token.h"

#define SEEK_GRACE_MS 20000 /* a maker reloading the page keeps the seek */
#define LIST_MAX 50

static const char *color_name(int c) { return c == ARB_WHITE ? "white" : "black"; }

static int listed(const srv_game *g, int64_t now) {
  if (!g->open || g->started) return 0;
  int maker = g->open_seat ^ 1;
  if (g->connected[maker] > 0) return 1;
  int64_t since = g->seen[maker] ? g->idle_since_ms : g->row.created_ms;
  return now - since < SEEK_GRACE_MS;
}

static json_t *summary(const srv_game *g) {
  json_t *o = json_object();
  json_object_set_new(o, "id", json_string(g->row.id));
  json_object_set_new(o, "control", json_string(g->row.control));
  json_object_set_new(o, "rules", json_string(g->row.rules));
  const char *variant = g->row.chess960                     ? "chess960"
                        : strcmp(g->row.fen, ARB_FEN_START) ? "position"
                                                            : "standard";
  json_object_set_new(o, "variant", json_string(variant));
  return o;
}

int srv_lobby_get(srv_server *sv, int64_t now, char **body) {
  json_t *open = json_array(), *playing = json_array();
  for (size_t i = 0; i < sv->nbuckets; i++)
    for (srv_game *g = sv->buckets[i]; g; g = g->hnext) {
      if (listed(g, now) && json_array_size(open) < LIST_MAX) {
        json_t *o = summary(g);
        json_object_set_new(o, "color", json_string(color_name(g->open_seat)));
        json_object_set_new(o, "created_ms", json_integer(g->row.created_ms));
        json_array_append_new(open, o);
      } else if (g->started && json_array_size(playing) < LIST_MAX) {
        arb_ref_state st;
        arb_referee_state_of(g->ref, &st);
        if (st.over) continue;
        json_t *o = summary(g);
        json_object_set_new(o, "ply", json_integer(st.ply));
        json_object_set_new(o, "white", json_string(g->tag_names[ARB_WHITE]));
        json_object_set_new(o, "black", json_string(g->tag_names[ARB_BLACK]));
        json_object_set_new(o, "url", json_sprintf("/game/%s", g->row.id));
        json_array_append_new(playing, o);
      }
    }
  json_t *j = json_pack("{s:o,s:o}", "open", open, "playing", playing);
  *body = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  return *body ? 200 : 500;
}

int srv_lobby_join(srv_server *sv, const char *id, int64_t now, char **body) {
  srv_game *g = srv_server_lookup(sv, id);
  if (!g || !listed(g, now)) {
    *body = srv_write_http_error(
        "taken", g && g->started ? "somebody else took this game first"
                                 : "this game is no longer open: its maker left, or somebody "
                                   "else took it");
    return g ? 409 : 404;
  }
  g->open = 0; /* the first who asks gets it */
  json_t *j = json_object();
  json_object_set_new(j, "id", json_string(g->row.id));
  json_object_set_new(j, "color", json_string(color_name(g->open_seat)));
  json_object_set_new(j, "you", json_sprintf("/game/%s#%s", g->row.id, g->open_token));
  memset(g->open_token, 0, sizeof g->open_token);
  *body = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  srv_game_log(sv, g, "joined from the lobby");
  return *body ? 200 : 500;
}

int srv_lobby_cancel(srv_server *sv, const char *id, const char *text, size_t len, int64_t now,
                     char **body) {
  json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
  const char *token = json_string_value(json_object_get(j, "token"));
  srv_game *g = srv_server_find(sv, id, now);
  int seat = -1;
  if (g && token) {
    uint8_t h[SRV_SHA256_BYTES];
    srv_token_hash(token, strlen(token), h);
    for (int c = 0; c < 2; c++)
      if (srv_hash_equal(h, g->row.hash[c])) seat = c;
  }
  json_decref(j);
  if (!g || seat < 0) {
    *body = srv_write_http_error(g ? "bad_token" : "no_game",
                                 g ? "only a seat of this game can cancel it" : "no such game");
    return g ? 403 : 404;
  }
  if (g->started) {
    *body = srv_write_http_error("started", "the game has started: abort or resign it instead");
    return 409;
  }
  g->open = 0;
  srv_game_start(sv, g, now); /* then aborted at once, by the referee, as a seat may */
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_ABORT, now);
  ev.by = (int8_t)seat;
  srv_game_apply(sv, g, &ev, NULL, -1);
  *body = strdup("{\"cancelled\":true}");
  return *body ? 200 : 500;
}
