/* Arbiter — MIT licence, see LICENSE.
 *
 * test_server.c: the play server's modules without a socket — SHA-256 against FIPS 180-2's
 * examples, base64url against RFC 4648's, tokens; the protocol parser's limits and the
 * writers' output; the session queue and rate limit; the SQLite store (round trip, tickets,
 * durability); and the game logic driven as the transport drives it, showing that nothing
 * leaves before the store has committed it and that a restart replays every stored game.
 */
#define _DEFAULT_SOURCE
#include <jansson.h>
#include <stdlib.h>
#include <unistd.h>

#include "game.h"
#include "protocol.h"
#include "server.h"
#include "session.h"
#include "sha256.h"
#include "store.h"
#include "test_util.h"
#include "token.h"

static void hex(const uint8_t *d, size_t n, char *out) {
  for (size_t i = 0; i < n; i++)
    sprintf(out + 2 * i, "%02x", d[i]);
}

Test(server, sha256_fips_examples) {
  static const struct {
    const char *msg;
    const char *digest;
  } v[] = {
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
      {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmn"
       "opqrsmnopqrstnopqrstu",
       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
  };
  uint8_t d[32];
  char h[65];
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    srv_sha256(v[i].msg, strlen(v[i].msg), d);
    hex(d, 32, h);
    cr_assert_str_eq(h, v[i].digest, "%s", v[i].msg);
  }
  char *million = malloc(1000000);
  memset(million, 'a', 1000000);
  srv_sha256(million, 1000000, d);
  free(million);
  hex(d, 32, h);
  cr_assert_str_eq(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

Test(server, base64url_and_tokens) {
  static const char *const rfc[][2] = {
      {"", ""},           {"f", "Zg"},          {"fo", "Zm8"},         {"foo", "Zm9v"},
      {"foob", "Zm9vYg"}, {"fooba", "Zm9vYmE"}, {"foobar", "Zm9vYmFy"}};
  char out[16];
  for (size_t i = 0; i < 7; i++) {
    srv_base64url((const uint8_t *)rfc[i][0], strlen(rfc[i][0]), out);
    cr_assert_str_eq(out, rfc[i][1]);
  }
  srv_base64url((const uint8_t[]){0xfb, 0xff}, 2, out);
  cr_assert_str_eq(out, "-_8", "the URL alphabet");
  char a[SRV_TOKEN_LEN + 1], b[SRV_TOKEN_LEN + 1];
  cr_assert_eq(srv_new_token(a), 0);
  cr_assert_eq(srv_new_token(b), 0);
  cr_assert_eq(strlen(a), 22, "16 bytes in base64url");
  cr_assert_str_neq(a, b);
  uint8_t ha[32], hb[32], ha2[32];
  srv_token_hash(a, strlen(a), ha);
  srv_token_hash(b, strlen(b), hb);
  srv_token_hash(a, strlen(a), ha2);
  cr_assert(srv_hash_equal(ha, ha2));
  cr_assert(!srv_hash_equal(ha, hb));
  char id[SRV_GAME_ID_LEN + 1];
  cr_assert_eq(srv_new_game_id(id), 0);
  cr_assert(srv_game_id_valid(id, strlen(id)));
  cr_assert(!srv_game_id_valid("abc", 3));
  cr_assert(!srv_game_id_valid("abcdefg!", 8));
}

Test(server, protocol_parsing) {
  srv_msg m;
  srv_parse_error e;
  const char *hello =
      "{\"t\":\"hello\",\"game\":\"abcdEFGH\",\"token\":\"0123456789abcdefABCDEF\",\"v\":4}";
  cr_assert_eq(srv_parse_client(hello, strlen(hello), &m, &e), 0, "%s", e.message);
  cr_assert_eq(m.type, SRV_MSG_HELLO);
  cr_assert_str_eq(m.game, "abcdEFGH");
  cr_assert_str_eq(m.token, "0123456789abcdefABCDEF");
  cr_assert_eq(m.version, 4);
  const char *move = "{\"t\":\"move\",\"uci\":\"e7e8q\",\"id\":12,\"lag\":80}";
  cr_assert_eq(srv_parse_client(move, strlen(move), &m, &e), 0);
  cr_assert_str_eq(m.uci, "e7e8q");
  cr_assert_eq(m.id, 12);
  cr_assert_eq(m.lag_ms, 80);
  static const struct {
    const char *text;
    const char *code;
  } bad[] = {
      {"nonsense", "json"},
      {"[1,2]", "bad_message"},
      {"{\"t\":5}", "bad_message"},
      {"{\"t\":\"jump\"}", "unknown_type"},
      {"{\"t\":\"move\"}", "bad_message"},
      {"{\"t\":\"move\",\"uci\":\"e2e9\"}", "bad_message"},
      {"{\"t\":\"move\",\"uci\":\"e7e8k\"}", "bad_message"},
      {"{\"t\":\"move\",\"uci\":\"e2e4\",\"id\":-1}", "bad_message"},
      {"{\"t\":\"move\",\"uci\":\"e2e4\",\"lag\":999999}", "bad_message"},
      {"{\"t\":\"hello\"}", "bad_message"},
      {"{\"t\":\"hello\",\"game\":\"short\"}", "bad_message"},
      {"{\"t\":\"hello\",\"game\":\"abcdEFGH\",\"token\":\"x\"}", "bad_message"},
      {"{\"t\":\"claim_draw\",\"reason\":\"boredom\"}", "bad_message"},
      {"{\"t\":\"settings\"}", "bad_message"},
      {"{\"t\":\"ping\",\"t\":\"ping\"}", "json"},
      {"{\"t\":\"ping\",\"x\":[[[[[1]]]]]}", "too_deep"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cr_assert_eq(srv_parse_client(bad[i].text, strlen(bad[i].text), &m, &e), -1, "%s", bad[i].text);
    cr_assert_str_eq(e.code, bad[i].code, "%s: %s", bad[i].text, e.message);
    cr_assert_neq(e.message[0], 0);
  }
  /* a string holding brackets is not nesting */
  const char *brackets = "{\"t\":\"ping\",\"x\":\"[[[[[[[[[[\"}";
  cr_assert_eq(srv_parse_client(brackets, strlen(brackets), &m, &e), 0);
  char *big = malloc(SRV_MAX_MESSAGE + 2);
  memset(big, ' ', SRV_MAX_MESSAGE + 1);
  cr_assert_eq(srv_parse_client(big, SRV_MAX_MESSAGE + 1, &m, &e), -1);
  cr_assert_str_eq(e.code, "too_big");
  free(big);
}

/* The message sent with every move is read without the JSON library when it has the usual
 * shape; whatever the text, the result (or the refusal, word for word) is the JSON library's:
 * texts made from the pieces of move messages, right and wrong, in any order, some with
 * blanks, escapes, duplicates and numbers JSON reads otherwise. */
Test(server, the_short_way_for_moves_reads_as_the_json_library) {
  static const char *const keys[] = {"t", "t", "uci", "uci", "id", "lag", "san", "x", "T", ""};
  static const char *const types[] = {"\"move\"",  "\"move\"",  "\"premove\"",
                                      "\"moves\"", "\"hello\"", "\"mov\\u0065\"",
                                      "5",         "null",      "\"ping\""};
  static const char *const ucis[] = {"\"e2e4\"", "\"e7e8q\"",     "\"a1h8\"", "\"h2h1n\"",
                                     "\"e2e9\"", "\"e7e8k\"",     "\"e2e\"",  "\"e2e4qq\"",
                                     "\"\"",     "\"e2\\u0065\"", "17",       "\"E2E4\""};
  static const char *const numbers[] = {"0",
                                        "7",
                                        "012",
                                        "-1",
                                        "1.5",
                                        "1e3",
                                        "80",
                                        "60000",
                                        "60001",
                                        "9007199254740992",
                                        "9007199254740993",
                                        "99999999999999999999",
                                        "\"3\"",
                                        "true",
                                        "00"};
  static const char *const others[] = {"\"Nf3\"", "1", "[1]", "{}", "\"\\n\""};
  uint64_t rng = 7;
  int fast_shaped = 0, refused = 0;
  for (int i = 0; i < 200000; i++) {
    char text[512];
    size_t n = 0;
    int blanks = test_rand(&rng) % 8 == 0;
    n += (size_t)snprintf(text + n, sizeof text - n, "%s{", blanks ? " " : "");
    /* half of them a move message's members in some order, mostly right; the rest anything */
    int likely = test_rand(&rng) % 2,
        members = likely ? 2 + (int)(test_rand(&rng) % 3) : (int)(test_rand(&rng) % 5);
    int order = (int)(test_rand(&rng) % 24), used[4] = {0};
    for (int k = 0; k < members; k++) {
      const char *key = keys[test_rand(&rng) % (sizeof keys / sizeof keys[0])];
      if (likely) { /* t, uci, id, lag: the order-th permutation, first `members` of it */
        int slot = (order >> (2 * k)) % (4 - k), pick = 0;
        for (int c = 0; c < 4; c++)
          if (!used[c] && slot-- == 0) pick = c;
        used[pick] = 1;
        static const char *const usual[] = {"t", "uci", "id", "lag"};
        key = usual[pick];
      }
      int right = likely && test_rand(&rng) % 10;
      const char *value;
      if (!strcmp(key, "t"))
        value =
            types[right ? test_rand(&rng) % 3 : test_rand(&rng) % (sizeof types / sizeof types[0])];
      else if (!strcmp(key, "uci"))
        value =
            ucis[right ? test_rand(&rng) % 4 : test_rand(&rng) % (sizeof ucis / sizeof ucis[0])];
      else if (!strcmp(key, "id") || !strcmp(key, "lag"))
        value = numbers[right ? test_rand(&rng) % 2
                              : test_rand(&rng) % (sizeof numbers / sizeof numbers[0])];
      else
        value = others[test_rand(&rng) % (sizeof others / sizeof others[0])];
      n += (size_t)snprintf(text + n, sizeof text - n, "%s\"%s\"%s:%s", k ? "," : "", key,
                            blanks && k == 1 ? " " : "", value);
    }
    int tail = (int)(test_rand(&rng) % 16);
    n += (size_t)snprintf(text + n, sizeof text - n, "%s",
                          tail == 0   ? ""
                          : tail == 1 ? "}x"
                          : tail == 2 ? "} "
                                      : "}");
    srv_msg a, b;
    srv_parse_error ea, eb;
    int ra = srv_parse_client(text, n, &a, &ea), rb = srv_parse_client_json(text, n, &b, &eb);
    cr_assert_eq(ra, rb, "%s: %d and %d", text, ra, rb);
    if (ra == 0) {
      cr_assert(!memcmp(&a, &b, sizeof a), "%s: read otherwise", text);
      fast_shaped += a.type == SRV_MSG_MOVE || a.type == SRV_MSG_PREMOVE;
    } else {
      cr_assert_str_eq(ea.code, eb.code, "%s", text);
      cr_assert_str_eq(ea.message, eb.message, "%s", text);
      refused++;
    }
  }
  cr_assert_gt(fast_shaped, 20000, "moves read: %d", fast_shaped);
  cr_assert_gt(refused, 5000);
}

Test(server, reason_words) {
  /* every ending in words, as the page shows them */
  static const struct {
    const char *fen;
    const char *const moves[4];
    arb_ruleset rules;
    arb_ref_kind last;
    int by;
    const char *words;
  } cases[] = {
      {NULL,
       {"f3", "e5", "g4", "Qh4#"},
       ARB_RULES_FIDE,
       ARB_REF_STATE,
       -1,
       "Checkmate: Black wins"},
      {"k7/2Q5/2K5/8/8/8/8/8 b - - 0 1",
       {NULL},
       ARB_RULES_FIDE,
       ARB_REF_STATE,
       -1,
       "Draw: stalemate (Black has no legal move and is not in check)"},
      {"8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
       {NULL},
       ARB_RULES_FIDE,
       ARB_REF_RESIGN,
       ARB_WHITE,
       "Draw: White resigned, but Black cannot checkmate by any sequence of legal moves"},
      {NULL, {"e4"}, ARB_RULES_FIDE, ARB_REF_RESIGN, ARB_BLACK, "Black resigned: White wins"},
      {NULL, {"e4"}, ARB_RULES_FIDE, ARB_REF_ABORT, ARB_BLACK, "Game aborted by Black"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arb_referee *r = arb_referee_new(cases[i].rules);
    arb_position p;
    arb_ref_setup su = ARB_REF_SETUP_INIT;
    if (cases[i].fen) {
      p = test_fen(cases[i].fen);
      su.start = &p;
    }
    arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_START, ARB_REF_NO_TIME);
    ev.setup = &su;
    arb_ref_decision d;
    arb_referee_event(r, &ev, &d);
    for (int k = 0; k < 4 && cases[i].moves[k]; k++) {
      ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_MOVE, ARB_REF_NO_TIME);
      ev.text = cases[i].moves[k];
      ev.text_len = strlen(ev.text);
      arb_referee_event(r, &ev, &d);
    }
    if (cases[i].last != ARB_REF_STATE) {
      ev = (arb_ref_event)ARB_REF_EVENT_INIT(cases[i].last, ARB_REF_NO_TIME);
      ev.by = (int8_t)cases[i].by;
      arb_referee_event(r, &ev, &d);
    }
    char words[192];
    srv_reason_words(r, words, sizeof words);
    cr_assert_str_eq(words, cases[i].words, "case %zu", i);
    arb_referee_free(r);
  }
}

Test(server, session_queue_and_rate) {
  srv_limits lim = {5.0, 10.0, 3, 1000};
  srv_session s;
  srv_session_init(&s, NULL, 0, &lim);
  for (int i = 0; i < 10; i++)
    cr_assert(srv_session_allow(&s, 0, &lim), "a burst of 10");
  cr_assert(!srv_session_allow(&s, 0, &lim), "the 11th at once is over the rate");
  cr_assert(!srv_session_allow(&s, 100, &lim), "0.5 tokens back after 100 ms");
  cr_assert(srv_session_allow(&s, 200, &lim), "one after 200 ms at 5 a second");
  srv_buf *b = srv_buf_new("hello", 5);
  for (int i = 0; i < 3; i++)
    cr_assert_eq(srv_session_push(&s, b, &lim), 0);
  cr_assert_eq(srv_session_push(&s, b, &lim), -1, "at most 3 waiting");
  cr_assert(s.overflow);
  cr_assert_eq(b->refs, 4);
  cr_assert_str_eq((const char *)srv_session_peek(&s)->data + SRV_PRE, "hello");
  srv_session_pop(&s);
  cr_assert_eq(s.count, 2);
  srv_session_clear(&s);
  cr_assert_eq(b->refs, 1);
  srv_buf_unref(b);
}

/* ---- the store ---- */

static char *temp_db(void) {
  char *dir = strdup("/tmp/arbiter-test-XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
  char *path = malloc(strlen(dir) + 16);
  sprintf(path, "%s/games.db", dir);
  free(dir);
  return path;
}

static int count_game(void *ctx, const srv_game_row *row) {
  (void)row;
  ++*(int *)ctx;
  return 0;
}

static int copy_event(void *ctx, const srv_event_row *row) {
  *(srv_event_row *)ctx = *row;
  return 0;
}

Test(server, store_round_trip) {
  char *path = temp_db();
  char err[256];
  srv_store *s = srv_store_open(path, err, sizeof err);
  cr_assert_not_null(s, "%s", err);
  srv_game_row g;
  memset(&g, 0, sizeof g);
  strcpy(g.id, "abcdEFGH");
  g.created_ms = 1234;
  g.hash[0][0] = 7;
  strcpy(g.rules, "online");
  strcpy(g.control, "3m+2s");
  strcpy(g.fen, ARB_FEN_START);
  uint64_t t1 = srv_store_put_game(s, &g);
  srv_event_row e;
  memset(&e, 0, sizeof e);
  strcpy(e.game, g.id);
  e.seq = 0;
  e.t = 5000;
  e.kind = ARB_REF_MOVE;
  e.by = ARB_WHITE;
  e.side = -1;
  strcpy(e.text, "e2e4");
  e.lag_ms = 30;
  e.client_id = 99;
  uint64_t t2 = srv_store_put_event(s, &e);
  cr_assert_gt(t2, t1, "tickets increase");
  srv_store_heartbeat(s, 6000);
  srv_store_flush(s);
  cr_assert_geq(srv_store_durable(s), t2);
  int n = 0;
  cr_assert_eq(srv_store_each_game(s, SRV_GAMES_UNDER_WAY, count_game, &n), 1);
  cr_assert_eq(n, 1);
  srv_game_row back;
  cr_assert_eq(srv_store_get_game(s, "abcdEFGH", &back), 1);
  cr_assert_str_eq(back.control, "3m+2s");
  cr_assert_eq(back.hash[0][0], 7);
  cr_assert_eq(back.created_ms, 1234);
  cr_assert_eq(srv_store_get_game(s, "nothere0", &back), 0);
  srv_event_row eb;
  cr_assert_eq(srv_store_each_event(s, g.id, copy_event, &eb), 1);
  cr_assert_eq(eb.kind, ARB_REF_MOVE);
  cr_assert_str_eq(eb.text, "e2e4");
  cr_assert_eq(eb.t, 5000);
  cr_assert_eq(eb.client_id, 99);
  cr_assert_eq(srv_store_last_heartbeat(s), 6000);
  /* held: nothing is committed */
  srv_store_hold(s, 1);
  uint64_t t3 = srv_store_end_game(s, g.id, "1-0", "checkmate", 9000);
  usleep(50000);
  cr_assert_lt(srv_store_durable(s), t3, "held");
  srv_store_hold(s, 0);
  srv_store_flush(s);
  cr_assert_geq(srv_store_durable(s), t3);
  n = 0;
  cr_assert_eq(srv_store_each_game(s, SRV_GAMES_UNDER_WAY, count_game, &n), 0,
               "finished: not among the unfinished");
  cr_assert_eq(srv_store_each_game(s, SRV_GAMES_ALL, count_game, &n), 1);
  srv_store_close(s);
  /* reopened: all there */
  s = srv_store_open(path, err, sizeof err);
  cr_assert_not_null(s);
  cr_assert_eq(srv_store_get_game(s, "abcdEFGH", &back), 1);
  cr_assert_eq(back.over, 1);
  cr_assert_str_eq(back.result, "1-0");
  srv_store_close(s);
  free(path);
}

/* ---- the logic, driven as the transport drives it ---- */

static int writable_calls;
static void note_writable(void *ctx, srv_session *s) {
  (void)ctx, (void)s;
  writable_calls++;
}

/* The JSON messages queued on s, taken off the queue. */
static json_t *drain(srv_session *s) {
  json_t *all = json_array();
  srv_buf *b;
  while ((b = srv_session_peek(s))) {
    json_t *m = json_loadb((const char *)b->data + SRV_PRE, b->len, 0, NULL);
    cr_assert_not_null(m);
    json_array_append_new(all, m);
    srv_session_pop(s);
  }
  return all;
}

static json_t *find_t(json_t *all, const char *t) {
  size_t i;
  json_t *m;
  json_array_foreach(all, i,
                     m) if (!strcmp(json_string_value(json_object_get(m, "t")), t)) return m;
  return NULL;
}

static void say(srv_server *sv, srv_session *s, const char *fmt, const char *a, const char *b,
                int64_t now) {
  char text[512];
  snprintf(text, sizeof text, fmt, a, b);
  cr_assert_eq(srv_server_message(sv, s, text, strlen(text), now), 0);
}

Test(server, nothing_leaves_before_it_is_stored_and_a_restart_replays) {
  char *path = temp_db();
  char err[256];
  srv_store *st = srv_store_open(path, err, sizeof err);
  cr_assert_not_null(st);
  srv_config cfg = {{100, 100, 100, 1 << 20}, 1, 0, "", 0, 0, 0, SRV_MIN_TIME_MS, NULL};
  srv_io io = {NULL, note_writable, NULL, NULL, NULL};
  srv_server *sv = srv_server_new(&cfg, &io, st);
  char *body;
  uint64_t ticket;
  const char *req = "{\"control\":\"5+0\",\"rules\":\"online\",\"color\":\"white\"}";
  cr_assert_eq(srv_server_create(sv, req, strlen(req), 1000, "127.0.0.1", &body, &ticket), 201);
  cr_assert_gt(ticket, 0, "the answer waits for the game's write");
  json_t *created = json_loads(body, 0, NULL);
  free(body);
  const char *id = json_string_value(json_object_get(created, "id"));
  const char *wt = strchr(json_string_value(json_object_get(created, "white")), '#') + 1;
  const char *bt = strchr(json_string_value(json_object_get(created, "black")), '#') + 1;
  srv_limits lim = cfg.limits;
  srv_session w, b;
  srv_session_init(&w, NULL, 1000, &lim);
  srv_session_init(&b, NULL, 1000, &lim);
  say(sv, &w, "{\"t\":\"hello\",\"game\":\"%s\",\"token\":\"%s\"}", id, wt, 1100);
  say(sv, &b, "{\"t\":\"hello\",\"game\":\"%s\",\"token\":\"%s\"}", id, bt, 1200);
  srv_store_flush(st);
  srv_server_release(sv);
  json_t *m = drain(&w);
  cr_assert_not_null(find_t(m, "state"));
  json_decref(m);
  json_decref(drain(&b));
  /* held store: the move is decided, but neither the ack nor the update leaves */
  srv_store_hold(st, 1);
  say(sv, &w, "{\"t\":\"move\",\"uci\":\"%s\",\"id\":%s}", "e2e4", "1", 2000);
  srv_server_release(sv);
  cr_assert_eq(w.count, 0, "no ack before the commit");
  cr_assert_eq(b.count, 0, "the opponent sees nothing before the commit");
  /* a refused move behind it waits too: its answer would show the uncommitted state */
  say(sv, &w, "{\"t\":\"move\",\"uci\":\"%s\",\"id\":%s}", "d2d4", "2", 2100);
  srv_server_release(sv);
  cr_assert_eq(w.count, 0);
  srv_store_hold(st, 0);
  srv_store_flush(st);
  srv_server_release(sv);
  m = drain(&w);
  cr_assert_eq(json_array_size(m), 2, "the update (acknowledging the move), the error, in order");
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(m, 0), "t")), "update");
  cr_assert_eq(json_integer_value(json_object_get(json_array_get(m, 0), "ack")), 1);
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(m, 1), "code")),
                   "not_your_turn");
  json_decref(m);
  m = drain(&b);
  json_t *u = find_t(m, "update");
  cr_assert_not_null(u);
  cr_assert_null(json_object_get(u, "ack"), "the ack is the mover's only");
  json_t *dests = json_object_get(json_object_get(u, "game"), "dests");
  cr_assert_str_eq(json_string_value(json_object_get(dests, "g8")), "f6h6", "Black to move");
  json_decref(m);
  say(sv, &b, "{\"t\":\"move\",\"uci\":\"%s\",\"id\":%s}", "e7e5", "1", 3000);
  say(sv, &w, "{\"t\":\"move\",\"uci\":\"%s\",\"id\":%s}", "g1f3", "3", 9000);
  srv_store_flush(st);
  srv_server_release(sv);
  srv_server_closed(sv, &w, 9500);
  srv_server_closed(sv, &b, 9500);
  srv_server_free(sv);
  /* "the server stops" here without ending the game; a new one loads it from the store */
  sv = srv_server_new(&cfg, &io, st);
  cr_assert_eq(srv_server_load(sv, 60000), 1);
  /* loading took 3 s (many games, say): that is a pause too, until the loop runs */
  srv_server_resume(sv, 63000);
  srv_store_flush(st);
  srv_game *g = NULL;
  for (size_t i = 0; i < sv->nbuckets && !g; i++)
    g = sv->buckets[i];
  cr_assert_not_null(g);
  arb_ref_state s;
  arb_referee_state_of(g->ref, &s);
  cr_assert_eq(s.ply, 3);
  /* online: Black's clock ran from 9 s; the server was last known alive then (no heartbeat),
   * so the 51 s it was down are a pause: Black still has its 5 minutes */
  cr_assert_eq(s.remaining_ms[ARB_BLACK], 300000);
  cr_assert_eq(s.running, ARB_BLACK);
  cr_assert_str_eq(g->last_uci[ARB_WHITE], "g1f3");
  cr_assert_eq(g->last_id[ARB_WHITE], 3, "resends are still recognised");
  cr_assert_eq(s.remaining_ms[ARB_BLACK], 300000, "at 63 s: the loading was not charged");
  /* the pause and resume are stored: a second restart replays them; alive until 65 s */
  srv_server_sweep(sv, 65000);
  srv_store_flush(st);
  srv_server_free(sv);
  sv = srv_server_new(&cfg, &io, st);
  cr_assert_eq(srv_server_load(sv, 70000), 1);
  srv_server_resume(sv, 70000);
  srv_store_flush(st);
  g = NULL;
  for (size_t i = 0; i < sv->nbuckets && !g; i++)
    g = sv->buckets[i];
  arb_referee_state_of(g->ref, &s);
  cr_assert_eq(s.ply, 3);
  cr_assert_eq(s.remaining_ms[ARB_BLACK], 300000 - 2000,
               "2 s ran from the resumption (63 s) until the last heartbeat (65 s)");
  srv_server_free(sv);
  json_decref(created);
  srv_store_close(st);
  free(path);
}
