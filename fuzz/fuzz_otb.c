/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_otb.c: libFuzzer target for the over-the-board referee (arbiter/otb.h) and its JSON
 * codec (`arbiter referee --otb`, tools/otb.c).
 *
 * Input: when the first byte is '{', the bytes are a JSON-lines event stream for the codec,
 * whose answers must keep the contract of answer.c.  Otherwise
 * byte 0 picks the rules, supervision and board, byte 1 the start position, and every 4 bytes
 * are one event for the C API: kind, player, time step, and squares/piece/matter.  Checks after
 * every event: a refused event has a message; a game that is over stays over; the position
 * reads back as FEN; the record never shrinks and its entries are well formed; the counts of
 * illegal moves never go down.  At the end the as-played PGN must read back with no error.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "arbiter/arbiter.h"
#include "fuzz.h"
#include "otb.h"

static char *answer(void *ctx, const char *line, size_t len, long lineno) {
  return otb_answer(ctx, line, len, lineno);
}

static void json_stream(const uint8_t *data, size_t size) {
  otb_state *st = otb_state_new(ARB_OTB_FIDE);
  FUZZ_CHECK(st != NULL);
  fuzz_json_lines(data, size, answer, st);
  otb_state_free(st);
}

static const char *const starts[] = {
    ARB_FEN_START,
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "4r1k1/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
    "4k3/8/8/3p4/4PN2/8/8/4K3 w - - 0 1",
    "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
    "8/5P1k/5K2/8/8/8/8/8 w - - 0 1",
    "7k/8/8/8/8/8/8/R3K3 w Q - 0 1",
};

static void api_stream(const uint8_t *data, size_t size) {
  arb_otb *o = arb_otb_new();
  FUZZ_CHECK(o != NULL);
  arb_otb_setup s = ARB_OTB_SETUP_INIT;
  arb_position pos;
  arb_fen_read(&pos, starts[(size > 1 ? data[1] : 0) % 8], 0, NULL);
  s.start = &pos;
  uint8_t b0 = size ? data[0] : 0;
  s.rules = (arb_otb_rules)(b0 % ARB_OTB_RULES_COUNT);
  s.supervision = (arb_otb_supervision)((b0 >> 3) % 5);
  s.sensing = (arb_otb_sensing)((b0 >> 6) % 3);
  arb_time_control tc;
  if (b0 & 32) {
    arb_tc_parse("300+2", 5, ARB_TC_PGN, &tc, NULL);
    s.control = &tc;
  }
  arb_otb_decision *d = malloc(sizeof *d);
  FUZZ_CHECK(d != NULL);
  arb_otb_event ev = ARB_OTB_EVENT_INIT(ARB_OTB_START, 0);
  ev.setup = &s;
  FUZZ_CHECK(arb_otb_event_apply(o, &ev, d) == ARB_OK);
  int64_t t = 0;
  uint32_t nrec = arb_otb_record_count(o);
  int over = d->over;
  uint8_t ic[2] = {d->illegal_count[0], d->illegal_count[1]};
  static const char *const texts[] = {"e2e4", "e1g1", "a1a4", "e7e8", "e7e8q", "g1f3",
                                      "Nf3",  "e4d5", "0000", "zz",   "d8h4",  "e1e2"};
  static const char *const boards[] = {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR",
                                       "r3k2r/8/8/8/8/8/8/R4RK1",
                                       "4r1k1/8/8/8/R7/8/8/4K3",
                                       "4Q3/8/8/8/8/8/k7/4K3",
                                       "8/8/8/8/8/8/8/8",
                                       "x/y"};
  for (size_t i = 2; i + 4 <= size; i += 4) {
    const uint8_t *e = data + i;
    ev = (arb_otb_event)ARB_OTB_EVENT_INIT((arb_otb_kind)(1 + e[0] % (ARB_OTB_KIND_COUNT - 1)), 0);
    t += e[2] < 250 ? (int64_t)e[2] * 20 : -5;
    ev.t = t < 0 ? 0 : t;
    ev.by = (int8_t)((e[1] & 3) == 3 ? -1 : (e[1] & 1));
    ev.side = (int8_t)((e[1] >> 2) & 1);
    ev.source = (uint8_t)((e[1] >> 3) % 3);
    ev.squares[0] = (arb_square)(e[3] & 63);
    ev.squares[1] = (arb_square)((e[3] * 7u) & 63);
    ev.square_count = (uint8_t)(1 + (e[1] >> 7));
    ev.order = (uint8_t)((e[1] >> 5) % 3);
    ev.intent = (uint8_t)((e[3] >> 6) & 3);
    ev.piece = (arb_piece)(e[3] % 15);
    ev.hands = (uint8_t)(1 + (e[2] & 1));
    ev.other_hand = (uint8_t)((e[2] >> 1) & 1);
    ev.matter = (arb_otb_matter)(e[3] % ARB_OTB_M_COUNT);
    ev.ruling = (arb_otb_ruling)(e[3] % ARB_OTB_R_COUNT);
    ev.ply = e[3] % 8;
    ev.ms = (int64_t)(e[3] - 128) * 1000;
    ev.result = (arb_result)(e[3] % 4);
    ev.evident = e[3] & 1;
    ev.stable_ms = (e[2] & 4) ? ev.t : 0;
    if (ev.kind == ARB_OTB_BOARD) {
      ev.text = boards[e[3] % 6];
    } else {
      ev.text = texts[e[3] % 12];
    }
    ev.text_len = strlen(ev.text);
    if (ev.kind == ARB_OTB_CLAIM && (e[3] & 1)) ev.text = NULL, ev.text_len = 0;
    arb_status st = arb_otb_event_apply(o, &ev, d);
    FUZZ_CHECK((st == ARB_OK) == (d->status == ARB_OK));
    if (st != ARB_OK) FUZZ_CHECK(d->message[0] != 0);
    if (over) FUZZ_CHECK(d->over);
    over = d->over;
    arb_position p;
    FUZZ_CHECK_CTX(arb_fen_read(&p, d->fen, ARB_FEN_PROBLEMS_ALL, NULL) == ARB_OK, d->fen);
    uint32_t n = arb_otb_record_count(o);
    FUZZ_CHECK(n >= nrec);
    nrec = n;
    for (uint32_t k = 0; k < n; k++) {
      arb_otb_record_entry re;
      FUZZ_CHECK(arb_otb_record_at(o, k, &re) == ARB_OK);
      FUZZ_CHECK(re.uci[0] && re.fen_after[0]);
    }
    for (int c = 0; c < 2; c++)
      FUZZ_CHECK(d->illegal_count[c] >= ic[c]);
    ic[0] = d->illegal_count[0];
    ic[1] = d->illegal_count[1];
  }
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  FUZZ_CHECK(w != NULL);
  FUZZ_CHECK(arb_otb_write_pgn(o, 0, w) == ARB_OK);
  size_t len;
  const char *text = arb_pgn_writer_data(w, &len);
  arb_pgn_options opts = {0, ARB_RULES_FIDE, 0, 0};
  opts.flags = ARB_PGN_NO_RESULT_CHECK;
  arb_pgn_reader *r = arb_pgn_reader_new(&opts, NULL);
  FUZZ_CHECK(r != NULL);
  arb_pgn_reader_feed(r, text, len);
  arb_pgn_reader_finish(r);
  arb_pgn_stats stats;
  arb_pgn_reader_stats(r, &stats);
  FUZZ_CHECK_CTX(stats.errors == 0, text);
  arb_pgn_reader_free(r);
  arb_pgn_writer_free(w);
  free(d);
  arb_otb_free(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size && data[0] == '{')
    json_stream(data, size);
  else
    api_stream(data, size);
  return 0;
}
