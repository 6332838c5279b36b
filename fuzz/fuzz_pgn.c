/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_pgn.c: libFuzzer target for the streaming PGN reader and the export writer.
 *
 * The input bytes are a PGN file (all of them, the first byte included).  The first byte also
 * picks how the input is cut into chunks and whether null moves are allowed.  The input is read
 * in strict and in lenient mode, each time three ways: in one arb_pgn_reader_feed call, in three
 * chunks (the first cut at size * byte0 / 256) and in chunks of 1 + byte0 % 13 bytes.
 *
 * A visitor checks every callback argument:
 *  - game numbers count up from 1, callbacks come inside a game, begin_moves once per game,
 *    variation depths nest, comments, NAGs and moves carry the current depth;
 *  - tag names and values are NUL-terminated at their length, names are PGN symbol characters,
 *    values and comments are valid UTF-8;
 *  - every position (start, after each move, final) has exactly one king per side, a side to
 *    move of 0 or 1, its Polyglot key recomputed from scratch, and a board that agrees with the
 *    bitboards; the start and final positions also have no fatal problem and their FEN reads
 *    back;
 *  - each move is legal in `before` (or the null move, when allowed), `after` is `before` with
 *    the move made, its ply follows from the move counters, SAN writes for it, the suffix NAG
 *    is 0..6;
 *  - errors have a known problem, a message, a location in the game being read (or the next
 *    one, between games); a game has error callbacks exactly when end_game counts errors;
 * and hashes all of it (texts, positions, locations, error tokens).  The three ways of cutting
 * the input must give the same hash and statistics.
 *
 * The events also go to an arb_pgn_writer, which keeps the games without errors (like
 * `arbiter pgn convert`).  When the first read had no errors at all, the writer's text is read
 * again in the same mode: it must have no errors, the same games and main-line plies, and
 * writing it again must give the same text (export format is a fixed point).
 *
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"

typedef struct fuzz_visit {
  uint64_t hash;
  unsigned flags;
  uint64_t game;      /* number of the current (or last) game */
  int in_game;        /* between begin_game and end_game */
  int moves_started;  /* begin_moves was called for this game */
  int depth;          /* current variation depth */
  int game_errors;    /* error callbacks (not warnings) for the current game */
  uint64_t last_line; /* line of the last begin_game */
  arb_position start; /* this game's start position */
  /* Writing. */
  arb_pgn_writer *w;
  uint64_t games_written, plies_written;
  uint64_t errors;
} fuzz_visit;

static void mix(fuzz_visit *v, uint64_t x) {
  v->hash ^= x + UINT64_C(0x9E3779B97F4A7C15) + (v->hash << 6) + (v->hash >> 2);
}

static void mix_bytes(fuzz_visit *v, const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t h = UINT64_C(1469598103934665603);
  for (size_t i = 0; i < n; i++)
    h = (h ^ s[i]) * UINT64_C(1099511628211);
  mix(v, h);
  mix(v, n);
}

/* An oracle of its own, deliberately not the reader's code: the well-formed byte sequences of
 * the Unicode Standard's Table 3-7, row by row. */
static int valid_utf8(const unsigned char *s, size_t n) {
  static const struct {
    unsigned char lo0, hi0, lo1, hi1;
    int len;
  } rows[] = {
      {0xc2, 0xdf, 0x80, 0xbf, 2}, {0xe0, 0xe0, 0xa0, 0xbf, 3}, {0xe1, 0xec, 0x80, 0xbf, 3},
      {0xed, 0xed, 0x80, 0x9f, 3}, {0xee, 0xef, 0x80, 0xbf, 3}, {0xf0, 0xf0, 0x90, 0xbf, 4},
      {0xf1, 0xf3, 0x80, 0xbf, 4}, {0xf4, 0xf4, 0x80, 0x8f, 4},
  };
  size_t i = 0;
  while (i < n) {
    if (s[i] < 0x80) {
      i++;
      continue;
    }
    int len = 0;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0] && !len; r++)
      if (s[i] >= rows[r].lo0 && s[i] <= rows[r].hi0 && i + 1 < n && s[i + 1] >= rows[r].lo1 &&
          s[i + 1] <= rows[r].hi1)
        len = rows[r].len;
    if (!len || i + (size_t)len > n) return 0;
    for (int k = 2; k < len; k++)
      if (s[i + (size_t)k] < 0x80 || s[i + (size_t)k] > 0xbf) return 0;
    i += (size_t)len;
  }
  return 1;
}

static int popcount64(uint64_t x) {
  int n = 0;
  for (; x; x &= x - 1)
    n++;
  return n;
}

/* The FEN of p, for failure messages (FUZZ_CHECK_CTX evaluates it only on failure). */
static const char *fen_of(const arb_position *p, char *buf) {
  arb_fen_write(p, buf, ARB_FEN_MAX, 0);
  return buf;
}

/* Sanity of a position the reader hands out; `full` adds the fatal problems and a FEN round
 * trip (start and final positions; the ones after each move are checked light, for speed). */
static void check_position(fuzz_visit *v, const arb_position *p, int full) {
  char fen[ARB_FEN_MAX];
  FUZZ_CHECK(p != NULL);
  FUZZ_CHECK_CTX(p->turn <= 1, fen_of(p, fen));
  FUZZ_CHECK_CTX(p->fullmove_number >= 1, fen_of(p, fen));
  for (int c = 0; c < 2; c++)
    FUZZ_CHECK_CTX(popcount64(p->by_type[ARB_KING] & p->by_color[c]) == 1, fen_of(p, fen));
  FUZZ_CHECK_CTX(p->key == arb_zobrist_compute(p), fen_of(p, fen));
  FUZZ_CHECK_CTX((p->by_color[0] & p->by_color[1]) == 0, fen_of(p, fen));
  FUZZ_CHECK_CTX((p->by_color[0] | p->by_color[1]) == p->by_type[0], fen_of(p, fen));
  for (int sq = 0; sq < 64; sq++) {
    arb_piece pc = p->board[sq];
    uint64_t bit = UINT64_C(1) << sq;
    if (pc == ARB_NO_PIECE) {
      FUZZ_CHECK_CTX(!(p->by_type[0] & bit), fen_of(p, fen));
    } else {
      int t = ARB_PIECE_TYPE(pc), c = ARB_PIECE_COLOR(pc);
      FUZZ_CHECK_CTX(t >= 1 && t <= 6 && c <= 1, fen_of(p, fen));
      FUZZ_CHECK_CTX((p->by_type[t] & bit) && (p->by_color[c] & bit), fen_of(p, fen));
    }
  }
  mix(v, p->key);
  mix(v, p->halfmove_clock);
  mix(v, p->fullmove_number);
  if (full) {
    int n = arb_fen_write(p, fen, sizeof fen, 0);
    FUZZ_CHECK(n > 0 && n < (int)sizeof fen);
    FUZZ_CHECK_CTX((arb_position_problems(p) & ARB_FEN_FATAL) == 0, fen);
    arb_position back;
    uint32_t accept = ARB_FEN_PROBLEMS_ALL | (p->chess960 ? ARB_FEN_READ_CHESS960 : 0);
    FUZZ_CHECK_CTX(arb_fen_read(&back, fen, accept, NULL) == ARB_OK, fen);
    FUZZ_CHECK_CTX(memcmp(back.board, p->board, sizeof back.board) == 0, fen);
    FUZZ_CHECK_CTX(back.turn == p->turn, fen);
  }
}

/* ---- visitor ---- */

static int on_begin_game(void *ctx, uint64_t game, uint64_t line) {
  fuzz_visit *v = ctx;
  FUZZ_CHECK(!v->in_game);
  FUZZ_CHECK(game == v->game + 1);
  FUZZ_CHECK(line >= 1 && line >= v->last_line);
  v->game = game;
  v->last_line = line;
  v->in_game = 1;
  v->moves_started = 0;
  v->depth = 0;
  v->game_errors = 0;
  mix(v, 0x100 + game);
  mix(v, line);
  if (v->w) arb_pgn_writer_begin_game(v->w);
  return 0;
}

static int on_tag(void *ctx, const char *name, size_t name_len, const char *value,
                  size_t value_len) {
  fuzz_visit *v = ctx;
  FUZZ_CHECK(v->in_game && !v->moves_started);
  FUZZ_CHECK(name && value && name_len > 0);
  FUZZ_CHECK(name[name_len] == '\0' && value[value_len] == '\0');
  for (size_t i = 0; i < name_len; i++)
    FUZZ_CHECK_CTX(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+#=:-/@",
                          name[i]) != NULL,
                   name);
  FUZZ_CHECK_CTX(valid_utf8((const unsigned char *)value, value_len), name);
  mix(v, 0x200);
  mix_bytes(v, name, name_len);
  mix_bytes(v, value, value_len);
  if (v->w) arb_pgn_writer_tag(v->w, name, name_len, value, value_len);
  return 0;
}

static int on_begin_moves(void *ctx, const arb_position *start) {
  fuzz_visit *v = ctx;
  FUZZ_CHECK(v->in_game && !v->moves_started);
  v->moves_started = 1;
  check_position(v, start, 1);
  v->start = *start;
  mix(v, 0x300);
  if (v->w) arb_pgn_writer_begin_moves(v->w);
  return 0;
}

static int on_move(void *ctx, const arb_pgn_move *m) {
  fuzz_visit *v = ctx;
  FUZZ_CHECK(v->in_game && v->moves_started);
  FUZZ_CHECK(m && m->before && m->after && m->san && m->san_len > 0);
  FUZZ_CHECK(m->depth == v->depth);
  /* `before` is the start or an earlier move's `after` (checked then); `after` equals `before`
   * with the move made (checked below). */
  check_position(v, m->after, 0);
  char buf[ARB_FEN_MAX];
  FUZZ_CHECK_CTX(m->move != ARB_MOVE_NONE, fen_of(m->before, buf));
  if (m->move == ARB_MOVE_NULL)
    FUZZ_CHECK_CTX(v->flags & ARB_PGN_ALLOW_NULL, fen_of(m->before, buf));
  else
    FUZZ_CHECK_CTX(arb_is_legal(m->before, m->move) == 1, fen_of(m->before, buf));
  arb_position next = *m->before;
  arb_undo undo;
  arb_make_move(&next, m->move, &undo);
  FUZZ_CHECK_CTX(fuzz_same_position(&next, m->after), fen_of(m->before, buf));
  /* The ply follows from the move counters (both count from the game's start). */
  long expect = 2 * ((long)m->before->fullmove_number - (long)v->start.fullmove_number) +
                ((long)m->before->turn - (long)v->start.turn) + 1;
  FUZZ_CHECK_CTX(m->ply >= 1 && m->ply == expect, fen_of(m->before, buf));
  char san[ARB_SAN_MAX];
  int n = arb_san_write(m->before, m->move, san, sizeof san);
  FUZZ_CHECK_CTX(n > 0 && n < (int)sizeof san, fen_of(m->before, buf));
  mix(v, 0x400 + m->move);
  mix(v, (uint64_t)m->ply);
  mix_bytes(v, m->san, m->san_len);
  if (v->w) arb_pgn_writer_move(v->w, m->before, m->move);
  return 0;
}

static int on_comment(void *ctx, const char *text, size_t len, int depth) {
  fuzz_visit *v = ctx;
  FUZZ_CHECK(v->in_game);
  FUZZ_CHECK(depth == v->depth);
  FUZZ_CHECK(text != NULL || len == 0);
  FUZZ_CHECK(valid_utf8((const unsigned char *)text, len));
  mix(v, 0x500 + (uint64_t)depth);
  mix_bytes(v, text, len);
  if (v->w) arb_pgn_writer_comment(v->w, text, len);
  return 0;
}

static int on_nag(void *ctx, int nag, int depth) {
  fuzz_visit *v = ctx;
  FUZZ_CHECK(v->in_game);
  FUZZ_CHECK(nag >= 0 && nag <= 255);
  FUZZ_CHECK(depth == v->depth);
  mix(v, 0x600 + (uint64_t)nag);
  if (v->w) arb_pgn_writer_nag(v->w, nag);
  return 0;
}

static int on_begin_variation(void *ctx, int depth) {
  fuzz_visit *v = ctx;
  FUZZ_CHECK(v->in_game);
  FUZZ_CHECK(depth == v->depth + 1 && depth <= ARB_PGN_MAX_DEPTH);
  v->depth = depth;
  mix(v, 0x700 + (uint64_t)depth);
  if (v->w) arb_pgn_writer_begin_variation(v->w);
  return 0;
}

static int on_end_variation(void *ctx, int depth) {
  fuzz_visit *v = ctx;
  FUZZ_CHECK(v->in_game);
  FUZZ_CHECK(depth == v->depth && depth >= 1);
  v->depth = depth - 1;
  mix(v, 0x800 + (uint64_t)depth);
  if (v->w) arb_pgn_writer_end_variation(v->w);
  return 0;
}

static void on_end_game(void *ctx, const arb_pgn_game_end *e) {
  fuzz_visit *v = ctx;
  FUZZ_CHECK(v->in_game);
  FUZZ_CHECK(e && e->game == v->game);
  FUZZ_CHECK(e->first_line == v->last_line);
  FUZZ_CHECK(e->errors >= v->game_errors && (e->errors == 0) == (v->game_errors == 0));
  FUZZ_CHECK(e->warnings >= 0 && e->plies >= 0);
  FUZZ_CHECK(e->variant != NULL);
  FUZZ_CHECK(e->has_tag_result <= 1 && e->has_movetext_result <= 1 && e->skipped <= 1);
  if (e->final_position) {
    FUZZ_CHECK(!e->skipped);
    check_position(v, e->final_position, 1);
  } else {
    FUZZ_CHECK(e->plies == 0);
  }
  if (e->skipped) FUZZ_CHECK(!v->moves_started);
  mix(v, 0x900 + e->game);
  mix(v, e->first_line);
  mix(v, (uint64_t)e->tag_result * 16 + e->has_tag_result);
  mix(v, (uint64_t)e->movetext_result * 16 + e->has_movetext_result);
  mix(v, (uint64_t)e->final_outcome.result * 256 + e->final_outcome.termination);
  mix(v, (uint64_t)e->plies);
  mix(v, (uint64_t)e->errors * 65536 + (uint64_t)e->warnings);
  mix(v, (uint64_t)e->skipped * 2 + e->chess960);
  mix_bytes(v, e->variant, strlen(e->variant));
  if (v->w) {
    if (e->errors || e->skipped) {
      arb_pgn_writer_discard_game(v->w);
    } else {
      arb_result res = e->has_movetext_result ? e->movetext_result : e->tag_result;
      arb_pgn_writer_end_game(v->w, res);
      v->games_written++;
      v->plies_written += (uint64_t)e->plies;
    }
  }
  v->in_game = 0;
  v->depth = 0;
}

static void on_error(void *ctx, const arb_pgn_error *e) {
  fuzz_visit *v = ctx;
  FUZZ_CHECK(e != NULL);
  FUZZ_CHECK(e->problem >= ARB_PGN_SYNTAX && e->problem <= ARB_PGN_LIMIT);
  FUZZ_CHECK(arb_pgn_problem_name(e->problem)[0] != '\0');
  FUZZ_CHECK(e->warning <= 1);
  FUZZ_CHECK(e->message && e->message[0]);
  FUZZ_CHECK(e->token != NULL || e->token_len == 0);
  FUZZ_CHECK(e->where.line >= 1);
  FUZZ_CHECK(e->where.ply >= 0 && e->where.depth >= 0);
  FUZZ_CHECK_CTX(e->where.game == (v->in_game ? v->game : v->game + 1), e->message);
  if (v->in_game && !e->warning) v->game_errors++;
  if (!e->warning) v->errors++;
  mix(v, 0xA00 + (uint64_t)e->problem * 2 + e->warning);
  mix(v, e->where.line);
  mix(v, e->where.column);
  mix(v, e->where.game);
  mix(v, (uint64_t)e->where.ply * 4096 + (uint64_t)e->where.depth);
  mix_bytes(v, e->token, e->token_len);
  mix_bytes(v, e->message, strlen(e->message));
}

static const arb_pgn_visitor VISITOR = {
    NULL,   on_begin_game,      on_tag,           on_begin_moves, on_move, on_comment,
    on_nag, on_begin_variation, on_end_variation, on_end_game,    on_error};

/* ---- driving ---- */

/* Reads data in the chunks given by cuts (ascending offsets strictly inside the input, ended by
 * 0) or, when step > 0, in step-byte chunks.  Fills *v (a writer when w) and the stats. */
static void read_pgn(fuzz_visit *v, unsigned flags, arb_pgn_writer *w, const uint8_t *data,
                     size_t size, const size_t *cuts, size_t step, arb_pgn_stats *stats) {
  memset(v, 0, sizeof *v);
  v->flags = flags;
  v->w = w;
  arb_pgn_visitor vis = VISITOR;
  vis.ctx = v;
  arb_pgn_options opts;
  memset(&opts, 0, sizeof opts);
  opts.flags = flags;
  arb_pgn_reader *r = arb_pgn_reader_new(&opts, &vis);
  FUZZ_CHECK(r != NULL);
  size_t at = 0;
  if (step) {
    for (; at < size; at += step)
      FUZZ_CHECK(arb_pgn_reader_feed(r, data + at, size - at < step ? size - at : step) == ARB_OK);
  } else {
    for (int i = 0; cuts && cuts[i]; i++) {
      FUZZ_CHECK(arb_pgn_reader_feed(r, data + at, cuts[i] - at) == ARB_OK);
      at = cuts[i];
    }
    FUZZ_CHECK(arb_pgn_reader_feed(r, data + at, size - at) == ARB_OK);
  }
  FUZZ_CHECK(arb_pgn_reader_finish(r) == ARB_OK);
  FUZZ_CHECK(!v->in_game);
  arb_pgn_reader_stats(r, stats);
  FUZZ_CHECK(stats->bytes == size);
  FUZZ_CHECK(stats->games == v->game);
  FUZZ_CHECK(stats->errors >= v->errors); /* the reader reports 64 errors per game at most */
  FUZZ_CHECK(stats->games_with_errors <= stats->games && stats->games_skipped <= stats->games);
  arb_pgn_reader_free(r);
}

static void run_mode(const uint8_t *data, size_t size, unsigned flags) {
  unsigned b0 = size ? data[0] : 0;
  fuzz_visit whole, cut, small, again;
  arb_pgn_stats st_whole, st_cut, st_small, st_again;

  arb_pgn_writer *w = arb_pgn_writer_new(0);
  FUZZ_CHECK(w != NULL);
  read_pgn(&whole, flags, w, data, size, NULL, 0, &st_whole);

  size_t cuts[3] = {0, 0, 0};
  size_t c1 = size * b0 / 256, c2 = c1 + (size - c1) / 2;
  int k = 0;
  if (c1 > 0) cuts[k++] = c1;
  if (c2 > c1 && c2 < size) cuts[k++] = c2;
  read_pgn(&cut, flags, NULL, data, size, cuts, 0, &st_cut);
  read_pgn(&small, flags, NULL, data, size, NULL, 1 + b0 % 13, &st_small);
  FUZZ_CHECK(cut.hash == whole.hash && small.hash == whole.hash);
  FUZZ_CHECK(memcmp(&st_cut, &st_whole, sizeof st_whole) == 0);
  FUZZ_CHECK(memcmp(&st_small, &st_whole, sizeof st_whole) == 0);

  /* Re-read what the writer wrote. */
  size_t len;
  const char *text = arb_pgn_writer_data(w, &len);
  FUZZ_CHECK(text != NULL && text[len] == '\0');
  arb_pgn_writer *w2 = arb_pgn_writer_new(0);
  FUZZ_CHECK(w2 != NULL);
  read_pgn(&again, flags, w2, (const uint8_t *)text, len, NULL, 0, &st_again);
  if (st_whole.errors == 0) {
    FUZZ_CHECK_CTX(st_again.errors == 0, text);
    FUZZ_CHECK_CTX(st_again.games == whole.games_written, text);
    FUZZ_CHECK_CTX(st_again.plies == whole.plies_written, text);
    FUZZ_CHECK_CTX(again.games_written == whole.games_written, text);
    size_t len2;
    const char *text2 = arb_pgn_writer_data(w2, &len2);
    FUZZ_CHECK_CTX(len2 == len && memcmp(text, text2, len) == 0, text);
  }
  arb_pgn_writer_free(w2);
  arb_pgn_writer_free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536) return 0; /* the reader is linear; big inputs only slow the fuzzer down */
  unsigned extra = size && (data[0] & 0x80) ? ARB_PGN_ALLOW_NULL : 0;
  run_mode(data, size, ARB_PGN_STRICT | extra);
  run_mode(data, size, extra);
  return 0;
}
