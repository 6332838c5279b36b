/* Arbiter — MIT licence, see LICENSE.
 *
 * test_book.c: Polyglot books read in place.  Keys and move fields are the format's own
 * (http://hgm.nubati.net/book_format.html, Debian's /usr/share/doc/polyglot/book_format.html):
 * the start position's key 463b96181691fc9c is its test vector, move fields are packed here by
 * hand from its bit table.  A book made by polyglot itself is checked in tests/cli/book.sh.
 */
#include "test_util.h"

/* One 16-byte entry, big-endian, as the format describes it. */
static void put_entry(uint8_t *p, uint64_t key, uint16_t move, uint16_t weight, uint32_t learn) {
  for (int i = 0; i < 8; i++)
    p[i] = (uint8_t)(key >> (56 - 8 * i));
  p[8] = (uint8_t)(move >> 8), p[9] = (uint8_t)move;
  p[10] = (uint8_t)(weight >> 8), p[11] = (uint8_t)weight;
  for (int i = 0; i < 4; i++)
    p[12 + i] = (uint8_t)(learn >> (24 - 8 * i));
}

/* The move field from the table: to file 0-2, to row 3-5, from file 6-8, from row 9-11,
 * promotion 12-14. */
static uint16_t field(int ff, int fr, int tf, int tr, int promo) {
  return (uint16_t)(promo << 12 | fr << 9 | ff << 6 | tr << 3 | tf);
}

#define START_KEY UINT64_C(0x463b96181691fc9c)

Test(book, start_key_and_entries) {
  arb_position pos;
  arb_position_startpos(&pos);
  cr_assert_eq(pos.key, START_KEY, "the format's test key");
  uint8_t bytes[5 * 16];
  put_entry(bytes, 1, field(0, 1, 0, 2, 0), 1, 0);               /* another key */
  put_entry(bytes + 16, START_KEY, field(4, 1, 4, 3, 0), 60, 7); /* e2e4 */
  put_entry(bytes + 32, START_KEY, field(3, 1, 3, 3, 0), 30, 0); /* d2d4 */
  put_entry(bytes + 48, START_KEY, field(4, 1, 4, 4, 0), 9, 0);  /* e2e5: not legal */
  put_entry(bytes + 64, UINT64_MAX, field(6, 0, 5, 2, 0), 5, 0); /* another key */
  cr_assert_eq(field(4, 1, 4, 3, 0), 0x031c, "e2e4 as the table packs it");
  arb_book book;
  arb_book_report rep;
  cr_assert_eq(arb_book_open(&book, bytes, sizeof bytes, &rep), ARB_OK, "%s", rep.message);
  cr_assert_eq(book.count, 5);
  arb_book_entry e[4];
  cr_assert_eq(arb_book_find(&book, &pos, e, 4), 3);
  cr_assert_eq(e[0].move, test_uci(&pos, "e2e4"));
  cr_assert_eq(e[0].weight, 60);
  cr_assert_eq(e[0].learn, 7);
  cr_assert_eq(e[0].key, START_KEY);
  cr_assert_eq(e[0].raw, 0x031c);
  cr_assert_eq(e[1].move, test_uci(&pos, "d2d4"));
  cr_assert_eq(e[2].move, ARB_MOVE_NONE, "an entry that is no legal move is kept, undecoded");
  cr_assert_eq(e[2].weight, 9);
  /* too small an array: the count anyway, the first entries written */
  arb_book_entry one[1];
  cr_assert_eq(arb_book_find(&book, &pos, one, 1), 3);
  cr_assert_eq(one[0].move, e[0].move);
  cr_assert_eq(arb_book_find(&book, &pos, NULL, 0), 3);
  /* a position not in the book */
  test_play(&pos, "g1f3");
  cr_assert_eq(arb_book_find(&book, &pos, e, 4), 0);
  cr_assert_eq(arb_book_pick(&book, &pos, 1, NULL), ARB_MOVE_NONE);
  cr_assert_eq(arb_book_lower_bound(&book, 0), 0);
  cr_assert_eq(arb_book_lower_bound(&book, 2), 1);
  cr_assert_eq(arb_book_lower_bound(&book, START_KEY + 1), 4);
  cr_assert_eq(arb_book_lower_bound(&book, UINT64_MAX), 4);
  cr_assert_eq(arb_book_entry_at(&book, 5, e), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_book_entry_at(&book, 4, e), ARB_OK);
  cr_assert_eq(e[0].key, UINT64_MAX);
}

Test(book, castling_is_king_takes_rook_and_promotions) {
  arb_position pos = test_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  char san[ARB_SAN_MAX];
  arb_move m = arb_book_decode(&pos, field(4, 0, 7, 0, 0)); /* e1h1 */
  cr_assert_eq(ARB_MOVE_KIND(m), ARB_MOVE_CASTLING);
  arb_san_write(&pos, m, san, sizeof san);
  cr_assert_str_eq(san, "O-O");
  m = arb_book_decode(&pos, field(4, 0, 0, 0, 0)); /* e1a1 */
  arb_san_write(&pos, m, san, sizeof san);
  cr_assert_str_eq(san, "O-O-O");
  cr_assert_eq(arb_book_decode(&pos, field(4, 0, 6, 0, 0)), ARB_MOVE_NONE,
               "e1g1 is a king step the king cannot make, not castling, in a Polyglot book");
  cr_assert_eq(arb_book_encode(&pos, test_uci(&pos, "e1g1")), field(4, 0, 7, 0, 0));
  arb_position b = test_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  m = arb_book_decode(&b, field(4, 7, 7, 7, 0)); /* e8h8 */
  arb_san_write(&b, m, san, sizeof san);
  cr_assert_str_eq(san, "O-O");
  m = arb_book_decode(&b, field(4, 7, 0, 7, 0)); /* e8a8 */
  arb_san_write(&b, m, san, sizeof san);
  cr_assert_str_eq(san, "O-O-O");

  arb_position p = test_fen("3r4/2P5/8/8/8/8/k7/4K3 w - - 0 1");
  static const char *const pushes[] = {"c7c8n", "c7c8b", "c7c8r", "c7c8q"};
  static const char *const takes[] = {"c7d8n", "c7d8b", "c7d8r", "c7d8q"};
  for (int k = 1; k <= 4; k++) { /* 1 knight, 2 bishop, 3 rook, 4 queen */
    cr_assert_eq(arb_book_decode(&p, field(2, 6, 2, 7, k)), test_uci(&p, pushes[k - 1]));
    cr_assert_eq(arb_book_decode(&p, field(2, 6, 3, 7, k)), test_uci(&p, takes[k - 1]));
  }
  cr_assert_eq(arb_book_decode(&p, field(2, 6, 2, 7, 0)), ARB_MOVE_NONE, "promotion missing");
  cr_assert_eq(arb_book_decode(&p, field(2, 6, 2, 7, 5)), ARB_MOVE_NONE, "no piece 5");
  cr_assert_eq(arb_book_decode(&p, field(4, 0, 4, 1, 1)), ARB_MOVE_NONE, "Ke2 promotes nothing");
  cr_assert_eq(arb_book_decode(&p, 0), ARB_MOVE_NONE, "a1a1");
  cr_assert_eq(arb_book_encode(&p, ARB_MOVE_NULL), 0);
}

/* Every legal move of random games survives encode then decode. */
Test(book, encode_decode_round_trip) {
  uint64_t seed = 18;
  for (size_t s = 0; s < TEST_STARTS; s++) {
    arb_position pos = test_fen(test_starts[s]);
    for (int ply = 0; ply < 60; ply++) {
      arb_move moves[ARB_MAX_MOVES];
      int n = arb_generate_legal(&pos, moves);
      if (!n) break;
      for (int i = 0; i < n; i++)
        cr_assert_eq(arb_book_decode(&pos, arb_book_encode(&pos, moves[i])), moves[i]);
      arb_undo u;
      arb_make_move(&pos, moves[test_rand(&seed) % (uint64_t)n], &u);
    }
  }
}

Test(book, pick_by_weight) {
  arb_position pos;
  arb_position_startpos(&pos);
  uint8_t bytes[4 * 16];
  put_entry(bytes, START_KEY, field(4, 1, 4, 3, 0), 3, 0);       /* e2e4: 3 */
  put_entry(bytes + 16, START_KEY, field(3, 1, 3, 3, 0), 0, 0);  /* d2d4: never */
  put_entry(bytes + 32, START_KEY, field(4, 1, 4, 4, 0), 50, 0); /* not legal: never */
  put_entry(bytes + 48, START_KEY, field(2, 1, 2, 3, 0), 1, 0);  /* c2c4: 1 */
  arb_book book;
  cr_assert_eq(arb_book_open(&book, bytes, sizeof bytes, NULL), ARB_OK);
  arb_move e4 = test_uci(&pos, "e2e4"), c4 = test_uci(&pos, "c2c4");
  int count_e4 = 0, trials = 8000;
  for (int s = 0; s < trials; s++) {
    arb_book_entry e;
    arb_move m = arb_book_pick(&book, &pos, (uint64_t)s, &e);
    cr_assert(m == e4 || m == c4, "only weighted legal moves");
    cr_assert_eq(e.move, m);
    cr_assert_eq(arb_book_pick(&book, &pos, (uint64_t)s, NULL), m, "deterministic");
    count_e4 += m == e4;
  }
  /* 3:1 — 6000 expected, binomial sd about 39 */
  cr_assert(count_e4 > 5800 && count_e4 < 6200, "e4 chosen %d times of %d", count_e4, trials);
  /* no weights at all: nothing to choose */
  put_entry(bytes, START_KEY, field(4, 1, 4, 3, 0), 0, 0);
  put_entry(bytes + 48, START_KEY, field(2, 1, 2, 3, 0), 0, 0);
  cr_assert_eq(arb_book_pick(&book, &pos, 5, NULL), ARB_MOVE_NONE);
}

Test(book, damaged_files_name_the_offset) {
  uint8_t bytes[3 * 16 + 8];
  put_entry(bytes, 5, 0x031c, 1, 0);
  put_entry(bytes + 16, 9, 0x031c, 1, 0);
  put_entry(bytes + 32, 7, 0x031c, 1, 0);
  arb_book book = {NULL, 99};
  arb_book_report rep;
  cr_assert_eq(arb_book_open(&book, bytes, 40, &rep), ARB_ERR_BOOK_FORMAT);
  cr_assert_eq(rep.offset, 32);
  cr_assert(strstr(rep.message, "truncated") && strstr(rep.message, "offset 32"), "%s",
            rep.message);
  cr_assert_eq(book.count, 99, "book untouched on error");
  cr_assert_eq(arb_book_open(&book, bytes, 48, &rep), ARB_ERR_BOOK_FORMAT);
  cr_assert_eq(rep.offset, 32);
  cr_assert(strstr(rep.message, "unsorted") && strstr(rep.message, "offset 32"), "%s", rep.message);
  cr_assert_eq(arb_book_open(&book, bytes, 32, &rep), ARB_OK);
  cr_assert_str_eq(rep.message, "");
  cr_assert_eq(arb_book_open(&book, NULL, 0, &rep), ARB_OK, "an empty book");
  cr_assert_eq(book.count, 0);
  cr_assert_eq(arb_book_open(&book, NULL, 16, &rep), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_book_open(NULL, bytes, 16, &rep), ARB_ERR_ARGUMENT);
  cr_assert_str_eq(arb_status_name(ARB_ERR_BOOK_FORMAT), "book_format");
}
