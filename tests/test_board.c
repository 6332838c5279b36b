/* Arbiter — MIT licence, see LICENSE.
 *
 * test_board.c: the board layer — Polyglot keys, make/unmake, the legal generator against an
 * independent pseudo-legal generator, attacks, perft on small depths.
 */
#include "board/board_internal.h"
#include "test_util.h"

/* Published example keys of the Polyglot book format specification. */
Test(board, polyglot_known_keys) {
  static const struct {
    const char *moves;
    uint64_t key;
  } cases[] = {
      {"", UINT64_C(0x463b96181691fc9c)},
      {"e2e4", UINT64_C(0x823c9b50fd114196)},
      {"e2e4 d7d5", UINT64_C(0x0756b94461c50fb0)},
      {"e2e4 d7d5 e4e5", UINT64_C(0x662fafb965db29d4)},
      {"e2e4 d7d5 e4e5 f7f5", UINT64_C(0x22a48b5a8e47ff78)},
      {"e2e4 d7d5 e4e5 f7f5 e1e2", UINT64_C(0x652a607ca3f242c1)},
      {"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", UINT64_C(0x00fdd303c946bdd9)},
      {"a2a4 b7b5 h2h4 b5b4 c2c4", UINT64_C(0x3c8123ea7b067637)},
      {"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", UINT64_C(0x5c3f9b829b279560)},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arb_position p;
    arb_position_startpos(&p);
    char buf[128];
    strcpy(buf, cases[i].moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
      test_play(&p, tok);
    cr_expect_eq(p.key, cases[i].key, "after '%s': %016llx, want %016llx", cases[i].moves,
                 (unsigned long long)p.key, (unsigned long long)cases[i].key);
    cr_expect_eq(arb_zobrist_compute(&p), p.key);
  }
}

/* The start position, written out in position.c, is Chess960's placement 518 with the standard
 * castling notation, its FEN the standard one and its key the one computed from its pieces. */
Test(board, startpos_is_placement_518) {
  arb_position a, b;
  arb_position_startpos(&a);
  arb_position_chess960(&b, 518);
  b.chess960 = 0;
  cr_assert(memcmp(a.by_type, b.by_type, sizeof a.by_type) == 0);
  cr_assert(memcmp(a.by_color, b.by_color, sizeof a.by_color) == 0);
  cr_assert(memcmp(a.board, b.board, sizeof a.board) == 0);
  cr_assert_eq(a.castling_rooks, b.castling_rooks);
  cr_assert_eq(a.key, b.key);
  cr_assert_eq(a.key, arb_zobrist_compute(&a));
  cr_assert_eq(a.turn, b.turn);
  cr_assert_eq(a.ep_square, b.ep_square);
  cr_assert_eq(a.ep_target, b.ep_target);
  cr_assert_eq(a.chess960, 0);
  cr_assert_eq(a.halfmove_clock, b.halfmove_clock);
  cr_assert_eq(a.fullmove_number, b.fullmove_number);
  char fen[ARB_FEN_MAX];
  arb_fen_write(&a, fen, sizeof fen, 0);
  cr_assert_str_eq(fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

/* The Polyglot en passant rule: the file is hashed when a pawn of the side to move stands
 * beside the double-stepped pawn, even if the capture would be illegal. */
Test(board, polyglot_ep_pseudo_legal) {
  /* Black pawn d4 beside e4 after e2e4, but black's d-pawn is pinned along the rank? Use the
   * horizontal-pin case: capture illegal, yet Polyglot hashes the file. */
  arb_position p = test_fen("8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1");
  test_play(&p, "e2e4");
  cr_assert_neq(p.ep_square, ARB_NO_SQUARE);
  cr_assert_eq(arb_ep_legal(&p), 0, "capture exposes the king on the rank");
  cr_assert_eq(p.key, arb_zobrist_compute(&p));
  char fen[ARB_FEN_MAX];
  arb_fen_write(&p, fen, sizeof fen, 0);
  cr_assert_str_eq(fen, "8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1", "FEN omits an illegal ep square");
}

static int cmp_move(const void *a, const void *b) {
  return (int)*(const arb_move *)a - (int)*(const arb_move *)b;
}

/* Legal = pseudo-legal filtered by make + own-king test + unmake (castling: also the path). */
static void check_generators(const arb_position *p) {
  arb_move legal[ARB_MAX_MOVES], pseudo[ARB_MAX_MOVES], filtered[ARB_MAX_MOVES];
  int nl = arb_generate_legal(p, legal);
  int np = arb__generate_pseudo(p, pseudo);
  int nf = 0;
  const int us = p->turn;
  for (int i = 0; i < np; i++) {
    arb_move m = pseudo[i];
    if (ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING) {
      if (arb_in_check(p)) continue;
      arb_square k = ARB_MOVE_FROM(m), r = ARB_MOVE_TO(m);
      arb_square kto = arb__castle_king_to(us, k, r);
      int bad = 0;
      int step = kto > k ? 1 : -1;
      for (int s = k + step; kto != k && s != kto + step && !bad; s += step)
        if (s != kto && arb_attackers(p, (arb_square)s, (arb_color)(us ^ 1), p->by_type[0]))
          bad = 1;
      if (bad) continue;
    }
    arb_position q = *p;
    arb_undo u;
    arb_make_move(&q, m, &u);
    arb_square ksq = arb_king_square(&q, (arb_color)us);
    if (arb_attackers(&q, ksq, (arb_color)(us ^ 1), q.by_type[0])) continue;
    filtered[nf++] = m;
  }
  qsort(legal, (size_t)nl, sizeof legal[0], cmp_move);
  qsort(filtered, (size_t)nf, sizeof filtered[0], cmp_move);
  char fen[ARB_FEN_MAX];
  arb_fen_write(p, fen, sizeof fen, 0);
  cr_assert_eq(nl, nf, "%s: legal %d, filtered pseudo-legal %d", fen, nl, nf);
  for (int i = 0; i < nl; i++)
    cr_assert_eq(legal[i], filtered[i], "%s: move lists differ", fen);
  cr_assert_eq(arb_count_legal(p), nl, "%s: count", fen);
  cr_assert_eq(arb_has_legal_move(p), nl > 0, "%s: has_legal_move", fen);
}

Test(board, random_games_cross_checks) {
  uint64_t seed = 12345;
  int positions = 0;
  for (int game = 0; game < 400; game++) {
    arb_position p = test_fen(test_starts[game % TEST_STARTS]);
    for (int ply = 0; ply < 160; ply++) {
      check_generators(&p);
      positions++;
      arb_move moves[ARB_MAX_MOVES];
      int n = arb_generate_legal(&p, moves);
      if (n == 0) break;
      arb_move m = moves[test_rand(&seed) % (uint64_t)n];
      arb_position before = p;
      arb_undo u;
      arb_make_move(&p, m, &u);
      /* incremental key equals recomputed; gives_check agrees with the result */
      cr_assert_eq(p.key, arb_zobrist_compute(&p), "incremental key differs");
      cr_assert_eq(arb_gives_check(&before, m), arb_in_check(&p));
      /* unmake restores everything, byte for byte */
      arb_position back = p;
      arb_unmake_move(&back, m, &u);
      cr_assert(memcmp(&back, &before, sizeof back) == 0, "unmake did not restore the position");
      /* the FEN round trip keeps every field that FEN carries */
      char fen[ARB_FEN_MAX], fen2[ARB_FEN_MAX];
      arb_fen_write(&p, fen, sizeof fen, 0);
      arb_position r = test_fen(fen);
      arb_fen_write(&r, fen2, sizeof fen2, 0);
      cr_assert_str_eq(fen, fen2);
      if (p.ep_square == ARB_NO_SQUARE || arb_ep_legal(&p))
        cr_assert_eq(r.key, p.key, "%s: key after FEN round trip", fen);
    }
  }
  cr_assert_gt(positions, 20000);
}

/* arb_is_legal decides one move without generating the others: it must agree with membership
 * in the generated list for every encoding of a move (all 65536 on some positions, every
 * from-to-kind combination on more). */
static void check_is_legal(const arb_position *p, int every_encoding) {
  arb_move legal[ARB_MAX_MOVES];
  int nl = arb_generate_legal(p, legal);
  uint8_t in_list[65536 / 8];
  memset(in_list, 0, sizeof in_list);
  for (int i = 0; i < nl; i++)
    in_list[legal[i] >> 3] |= (uint8_t)(1u << (legal[i] & 7));
  char fen[ARB_FEN_MAX];
  arb_fen_write(p, fen, sizeof fen, 0);
  for (unsigned m = 0; m < 65536; m++) {
    if (!every_encoding && ((m >> 12) & 3) && (m >> 14) != ARB_MOVE_PROMOTION) continue;
    int want = (in_list[m >> 3] >> (m & 7)) & 1;
    if (arb_is_legal(p, (arb_move)m) != want)
      cr_assert_fail("%s: arb_is_legal(%04x) = %d, generator says %d", fen, m, !want, want);
  }
}

Test(board, is_legal_matches_generator) {
  uint64_t seed = 777;
  int positions = 0;
  for (int game = 0; game < 90; game++) {
    arb_position p = test_fen(test_starts[game % TEST_STARTS]);
    for (int ply = 0; ply < 120; ply++) {
      if (ply % 4 == 0) check_is_legal(&p, ply % 40 == 0), positions++;
      arb_move moves[ARB_MAX_MOVES];
      int n = arb_generate_legal(&p, moves);
      if (n == 0) break;
      arb_undo u;
      arb_make_move(&p, moves[test_rand(&seed) % (uint64_t)n], &u);
    }
  }
  cr_assert_gt(positions, 1000);
}

/* The generator's own check flags (arb__generate_checks, what the helpmate search uses) against
 * making each move, promotions, en passant and castling included; the same moves as
 * arb_generate_legal, in the same order. */
Test(board, generated_check_flags_match_make) {
  uint64_t seed = 777;
  int checking = 0, special = 0;
  for (int game = 0; game < 300; game++) {
    arb_position p = test_fen(test_starts[game % TEST_STARTS]);
    for (int ply = 0; ply < 200; ply++) {
      arb_move moves[ARB_MAX_MOVES], plain[ARB_MAX_MOVES];
      unsigned char checks[ARB_MAX_MOVES];
      arb__check_info ci;
      arb__check_info_init(&p, &ci);
      const int n = arb__generate_checks(&p, &ci, moves, checks);
      cr_assert_eq(n, arb_generate_legal(&p, plain));
      cr_assert(!memcmp(moves, plain, (size_t)n * sizeof moves[0]));
      if (n == 0) break;
      for (int i = 0; i < n; i++) {
        const int made = arb_gives_check(&p, moves[i]);
        checking += made;
        special += ARB_MOVE_KIND(moves[i]) != ARB_MOVE_NORMAL;
        if (checks[i] != made) {
          char fen[ARB_FEN_MAX], uci[8];
          arb_fen_write(&p, fen, sizeof fen, 0);
          arb_uci_write(&p, moves[i], uci, sizeof uci);
          cr_assert_fail("%s %s: flag %d, made %d", fen, uci, checks[i], made);
        }
      }
      arb_undo u;
      arb_make_move(&p, moves[test_rand(&seed) % (uint64_t)n], &u);
    }
  }
  cr_assert_gt(checking, 10000);
  cr_assert_gt(special, 1000);
}

Test(board, null_move_make_unmake) {
  arb_position p = test_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
  arb_position before = p;
  arb_undo u;
  arb_make_move(&p, ARB_MOVE_NULL, &u);
  cr_assert_eq(p.turn, ARB_BLACK);
  cr_assert_eq(p.key, arb_zobrist_compute(&p));
  arb_unmake_move(&p, ARB_MOVE_NULL, &u);
  cr_assert(memcmp(&p, &before, sizeof p) == 0);
}

Test(board, attackers_ignore_pins) {
  /* A09: the knight on e4 is pinned, yet it protects d6 (and attacks c5, f6...). */
  arb_position p = test_fen("4r3/2k5/3R4/8/4N3/8/8/4K3 b - - 0 1");
  arb_bitboard a = arb_attackers(&p, ARB_SQUARE(3, 5), ARB_WHITE, p.by_type[0]);
  cr_assert(a & (UINT64_C(1) << ARB_SQUARE(4, 3)), "pinned knight still attacks d6");
}

Test(board, perft_small) {
  static const struct {
    const char *fen;
    int depth;
    uint64_t nodes;
  } cases[] = {
      {ARB_FEN_START, 4, 197281},
      {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862},
      {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624},
      {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422333},
      {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arb_position p = test_fen(cases[i].fen);
    cr_expect_eq(arb_perft(&p, cases[i].depth), cases[i].nodes, "%s", cases[i].fen);
  }
}

/* An accepted position whose side not to move is in check (ARB_FEN_OPPONENT_IN_CHECK): the
 * check is already there, not given by the move, so perft's last two plies must not take the
 * children for out of check.  White to move, Black's king in check from a1, counted by hand:
 * 14 white moves; after the 5 king moves and the 6 rook moves along the a-file Black is still in
 * check (the h-pawn can neither block nor take: 2 king moves each, but Kxa7 and Kb8 after Ra7),
 * after Rb1 1 king move and 2 pawn moves, after Rc1 and Rd1 3 and 2: 10 + 12 + 3 + 5 + 5 = 35.
 * The second position is the one fuzz_fen found (perft 2 against the children counted one by
 * one). */
Test(board, perft_when_the_side_not_to_move_is_in_check) {
  arb_position p;
  arb_fen_report rep;
  cr_assert_eq(arb_fen_read(&p, "k7/7p/8/8/8/8/8/R3K3 w - - 0 1", ARB_FEN_PROBLEMS_ALL, &rep),
               ARB_OK);
  cr_assert_eq(arb_perft(&p, 1), 14u);
  cr_assert_eq(arb_perft(&p, 2), 35u);
  cr_assert_eq(
      arb_fen_read(&p, "r6r/1b2qk1b/8/8/7B/8/8/3RK2R b KQ - 0 1", ARB_FEN_PROBLEMS_ALL, &rep),
      ARB_OK);
  arb_move moves[ARB_MAX_MOVES];
  const int n = arb_generate_legal(&p, moves);
  uint64_t two = 0, three = 0;
  for (int i = 0; i < n; i++) {
    arb_position c = p;
    arb_undo u;
    arb_make_move(&c, moves[i], &u);
    arb_move replies[ARB_MAX_MOVES];
    const int k = arb_generate_legal(&c, replies);
    two += (uint64_t)k;
    for (int j = 0; j < k; j++) {
      arb_position g = c;
      arb_make_move(&g, replies[j], &u);
      arb_move third[ARB_MAX_MOVES];
      three += (uint64_t)arb_generate_legal(&g, third);
    }
  }
  cr_assert_eq(arb_perft(&p, 2), two);
  cr_assert_eq(arb_perft(&p, 3), three);
}

/* Chess960 start positions by number, against published placements and perft. */
Test(board, chess960_start_positions) {
  static const struct {
    int number;
    const char *fen;
  } known[] = {
      {0, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"},
      {518, ARB_FEN_START},
      {959, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1"},
  };
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    arb_position p;
    cr_assert_eq(arb_position_chess960(&p, known[i].number), ARB_OK);
    char fen[ARB_FEN_MAX];
    arb_fen_write(&p, fen, sizeof fen, 0);
    cr_assert_str_eq(fen, known[i].fen, "position %d", known[i].number);
    cr_assert_eq(p.chess960, 1);
  }
  /* all 960 are different and valid */
  char seen[960][9];
  for (int n = 0; n < 960; n++) {
    arb_position p;
    cr_assert_eq(arb_position_chess960(&p, n), ARB_OK);
    cr_assert_eq(arb_position_problems(&p), 0u, "position %d", n);
    for (int f = 0; f < 8; f++)
      seen[n][f] = " PNBRQK"[ARB_PIECE_TYPE(p.board[f])];
    seen[n][8] = '\0';
    for (int m = 0; m < n; m++)
      cr_assert_str_neq(seen[m], seen[n], "%d and %d", m, n);
  }
  arb_position p;
  cr_assert_eq(arb_position_chess960(&p, 960), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_position_chess960(&p, -1), ARB_ERR_ARGUMENT);
}

/* A position and its colour-flipped mirror have the same move tree. */
Test(board, mirror_same_tree) {
  uint64_t seed = 777;
  for (int game = 0; game < 60; game++) {
    arb_position p = test_fen(test_starts[game % TEST_STARTS]);
    for (int ply = 0; ply < 80; ply++) {
      arb_position m;
      arb_position_mirror(&p, &m);
      cr_assert_eq(m.key, arb_zobrist_compute(&m));
      cr_assert_eq(arb_position_problems(&m), arb_position_problems(&p));
      cr_assert_eq(arb_perft(&m, 2), arb_perft(&p, 2));
      cr_assert_eq(arb_in_check(&m), arb_in_check(&p));
      cr_assert_eq(arb_ep_legal(&m), arb_ep_legal(&p));
      arb_position back;
      arb_position_mirror(&m, &back);
      cr_assert(memcmp(&back, &p, sizeof p) == 0, "mirroring twice restores the position");
      arb_move moves[ARB_MAX_MOVES];
      int n = arb_generate_legal(&p, moves);
      if (!n) break;
      arb_undo u;
      arb_make_move(&p, moves[test_rand(&seed) % (uint64_t)n], &u);
    }
  }
}

/* The attack tables (magic or PEXT) against a plain ray walk, for random occupancies. */
static arb_bitboard walk(int sq, arb_bitboard occ, int rook) {
  static const int dirs[2][4][2] = {{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}},
                                    {{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
  arb_bitboard att = 0;
  for (int d = 0; d < 4; d++) {
    int f = sq % 8, r = sq / 8;
    for (;;) {
      f += dirs[rook][d][0];
      r += dirs[rook][d][1];
      if (f < 0 || f > 7 || r < 0 || r > 7) break;
      att |= UINT64_C(1) << (r * 8 + f);
      if (occ & (UINT64_C(1) << (r * 8 + f))) break;
    }
  }
  return att;
}

Test(board, slider_attacks_match_ray_walk) {
  uint64_t seed = 5;
  arb_init();
  for (int i = 0; i < 20000; i++) {
    arb_bitboard occ = test_rand(&seed) & test_rand(&seed);
    arb_square sq = (arb_square)(test_rand(&seed) & 63);
    cr_assert_eq(arb_piece_attacks(ARB_ROOK, sq, occ), walk(sq, occ, 1));
    cr_assert_eq(arb_piece_attacks(ARB_BISHOP, sq, occ), walk(sq, occ, 0));
    cr_assert_eq(arb_piece_attacks(ARB_QUEEN, sq, occ), walk(sq, occ, 1) | walk(sq, occ, 0));
  }
}

/* The small tables (the SAN reader's) against the same walk: every square with random
 * occupancies of every density, and every occupancy of a rank and of a file for each square on
 * it (the slider's own square set or not). */
Test(board, small_slider_attacks_match_ray_walk) {
  uint64_t seed = 11;
  arb_init();
  for (int i = 0; i < 60000; i++) {
    arb_bitboard occ = test_rand(&seed);
    for (int k = i % 4; k > 0; k--)
      occ &= test_rand(&seed);
    const arb_square sq = (arb_square)(i & 63);
    cr_assert_eq(arb__rook_attacks_small(sq, occ), walk(sq, occ, 1), "rook %d %016llx", sq,
                 (unsigned long long)occ);
    cr_assert_eq(arb__bishop_attacks_small(sq, occ), walk(sq, occ, 0), "bishop %d %016llx", sq,
                 (unsigned long long)occ);
  }
  for (int sq = 0; sq < 64; sq++)
    for (int bits = 0; bits < 256; bits++) {
      arb_bitboard rank = (arb_bitboard)bits << (sq & 56), file = 0;
      for (int r = 0; r < 8; r++)
        file |= (arb_bitboard)(bits >> r & 1) << (r * 8 + (sq & 7));
      cr_assert_eq(arb__rook_attacks_small((arb_square)sq, rank), walk(sq, rank, 1));
      cr_assert_eq(arb__rook_attacks_small((arb_square)sq, file), walk(sq, file, 1));
    }
}
