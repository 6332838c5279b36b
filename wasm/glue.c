/* Arbiter — MIT licence, see LICENSE.
 *
 * glue.c: the WebAssembly module's exports (wasm/arbiter.mjs is their only caller).  A board
 * is an arb_game with play-on (moves may follow an automatic ending, as on an analysis board)
 * and two scratch buffers: `in`, where JavaScript writes a FEN or a move, and `out`, where each
 * call writes its answer as plain text (moves separated by blanks, fields by tabs), so that a
 * list of moves crosses into JavaScript as one string.  No rule is decided here: each function
 * chains the library's public calls and writes what they say.
 *
 * Ownership: wa_new allocates a board, wa_free releases it (NULL is a no-op); the game inside
 * belongs to the board.  Errors: negative arb_status codes; the message is in `out`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/arbiter.h"

#define WA_API __attribute__((visibility("default"), used))

enum { WA_IN = 512, WA_OUT = 16384 };

/* What wa_facts writes, in this order (JavaScript reads them by index). */
enum {
  F_CHECK,
  F_CHECKMATE,
  F_STALEMATE,
  F_INSUFFICIENT,
  F_DEAD,
  F_REPETITIONS,
  F_THREEFOLD,
  F_CAN_CLAIM_THREEFOLD,
  F_FIVEFOLD,
  F_FIFTY,
  F_CAN_CLAIM_FIFTY,
  F_SEVENTYFIVE,
  F_RESULT,
  F_TERMINATION,
  F_TURN,
  F_HALFMOVE,
  F_FULLMOVE,
  F_PLY,
  F_CHESS960,
  F_LEGAL,
  F_COUNT
};

typedef struct wa_board {
  arb_game *game;
  arb_ruleset rules;
  int32_t facts[F_COUNT];
  arb_move moves[ARB_MAX_MOVES];
  char in[WA_IN];
  char out[WA_OUT];
} wa_board;

WA_API wa_board *wa_new(void);
WA_API void wa_free(wa_board *b);
WA_API char *wa_in(wa_board *b);
WA_API char *wa_out(wa_board *b);
WA_API int32_t *wa_facts_at(wa_board *b);
WA_API int wa_names(wa_board *b);
WA_API int wa_load_fen(wa_board *b, unsigned flags, int rules);
WA_API int wa_load_960(wa_board *b, int number, int rules);
WA_API int wa_copy(wa_board *dst, const wa_board *src);
WA_API int wa_fen(wa_board *b, unsigned flags);
WA_API int wa_legal(wa_board *b, int what);
WA_API int wa_dests(wa_board *b);
WA_API int wa_premove_dests(wa_board *b);
WA_API int wa_play(wa_board *b);
WA_API int wa_play_squares(wa_board *b, int from, int to, int promotion);
WA_API int wa_san(wa_board *b);
WA_API int wa_undo(wa_board *b);
WA_API void wa_facts(wa_board *b);
WA_API int wa_winnability(wa_board *b, int side, double budget);
WA_API double wa_perft(wa_board *b, int depth);
WA_API int wa_chess960_number(wa_board *b);
WA_API int wa_turn(wa_board *b);

/* ---- the board ---- */

wa_board *wa_new(void) { return calloc(1, sizeof(wa_board)); }

void wa_free(wa_board *b) {
  if (!b) return;
  arb_game_free(b->game);
  free(b);
}

char *wa_in(wa_board *b) { return b->in; }
char *wa_out(wa_board *b) { return b->out; }
int32_t *wa_facts_at(wa_board *b) { return b->facts; }

static const arb_position *pos_of(const wa_board *b) { return arb_game_position(b->game); }

/* Appends text to out at *at (always room: callers bound what they write). */
static void put(wa_board *b, int *at, const char *text) {
  size_t n = strlen(text);
  if ((size_t)*at + n + 1 >= sizeof b->out) return;
  memcpy(b->out + *at, text, n + 1);
  *at += (int)n;
}

static int fail(wa_board *b, arb_status st, const char *message) {
  snprintf(b->out, sizeof b->out, "%s\t0\t-1\t0\t%s", arb_status_name(st),
           message && message[0] ? message : arb_strerror(st));
  return (int)st;
}

/* The library's names, for JavaScript's tables, one group a line, '|'-separated:
 * terminations, their articles of the Laws, results, proofs, verdicts, FEN problems, rule sets. */
int wa_names(wa_board *b) {
  int at = 0;
  for (int t = 0; t < ARB_TERM_COUNT; t++) {
    put(b, &at, t ? "|" : "");
    put(b, &at, t ? arb_termination_name((arb_termination)t) : "none");
  }
  put(b, &at, "\n");
  for (int t = 0; t < ARB_TERM_COUNT; t++) {
    put(b, &at, t ? "|" : "");
    put(b, &at, arb_termination_article((arb_termination)t));
  }
  put(b, &at, "\n");
  for (int r = 0; r <= ARB_RESULT_DRAW; r++) {
    put(b, &at, r ? "|" : "");
    put(b, &at, arb_result_string((arb_result)r));
  }
  put(b, &at, "\n");
  for (int p = 0; p <= ARB_PROOF_PAWN_STRUCTURES; p++) {
    put(b, &at, p ? "|" : "");
    put(b, &at, p ? arb_win_proof_name((arb_win_proof)p) : "none");
  }
  put(b, &at, "\n");
  for (int v = 0; v <= ARB_WIN_UNWINNABLE; v++) {
    put(b, &at, v ? "|" : "");
    put(b, &at, arb_win_verdict_name((arb_win_verdict)v));
  }
  put(b, &at, "\n");
  for (int i = 0; i < ARB_FEN_PROBLEM_COUNT; i++) {
    put(b, &at, i ? "|" : "");
    put(b, &at, arb_fen_problem_name(1u << i));
  }
  put(b, &at, "\n");
  for (int r = 0; r < ARB_RULES_COUNT; r++) {
    put(b, &at, r ? "|" : "");
    put(b, &at, arb_rules_get((arb_ruleset)r)->name);
  }
  return at;
}

static int start(wa_board *b, const arb_position *pos, int rules) {
  if (rules < 0 || rules >= ARB_RULES_COUNT) return fail(b, ARB_ERR_ARGUMENT, "no such rules");
  arb_game *g = arb_game_new(pos, (arb_ruleset)rules);
  if (!g) return fail(b, ARB_ERR_NO_MEMORY, NULL);
  arb_game_set_play_on(g, 1);
  arb_game_free(b->game);
  b->game = g;
  b->rules = (arb_ruleset)rules;
  b->out[0] = 0;
  return ARB_OK;
}

/* flags: 1 Chess960, 2 accept every problem a FEN may have but the fatal ones, 4 standard
 * chess (no Chess960 castling rights).  On a failure out is "code TAB field TAB column TAB
 * problems TAB message" (as every failure here writes it: the status's name, the FEN field
 * and column of a syntax error, the bits of arb_fen_report.problems), and the board keeps what
 * it had. */
int wa_load_fen(wa_board *b, unsigned flags, int rules) {
  arb_position pos;
  arb_fen_report rep;
  uint32_t accept = (flags & 2 ? ARB_FEN_PROBLEMS_ALL : 0) |
                    (flags & 1 ? ARB_FEN_READ_CHESS960 : 0) |
                    (flags & 4 ? ARB_FEN_READ_STANDARD : 0);
  b->in[sizeof b->in - 1] = 0;
  arb_status st = arb_fen_read(&pos, b->in, accept, &rep);
  if (st != ARB_OK) {
    snprintf(b->out, sizeof b->out, "%s\t%d\t%d\t%u\t%s", arb_status_name(st), rep.field,
             rep.column, (unsigned)rep.problems, rep.message[0] ? rep.message : arb_strerror(st));
    return (int)st;
  }
  return start(b, &pos, rules);
}

int wa_load_960(wa_board *b, int number, int rules) {
  arb_position pos;
  arb_status st = arb_position_chess960(&pos, number);
  if (st != ARB_OK) return fail(b, st, "a Chess960 start position is numbered 0 to 959");
  return start(b, &pos, rules);
}

/* dst becomes a copy of src: the same start, rules and moves. */
int wa_copy(wa_board *dst, const wa_board *src) {
  int st = start(dst, arb_game_position_at(src->game, 0), (int)src->rules);
  if (st != ARB_OK) return st;
  int n = arb_game_ply_count(src->game);
  for (int i = 1; i <= n; i++) {
    st = arb_game_play(dst->game, arb_game_move_at(src->game, i));
    if (st != ARB_OK) return fail(dst, (arb_status)st, NULL);
  }
  return ARB_OK;
}

/* flags: arb_fen_write's (1 Shredder castling letters, 2 EPD's four fields, 4 the en passant
 * square after every double step). */
int wa_fen(wa_board *b, unsigned flags) {
  return arb_fen_write(pos_of(b), b->out, sizeof b->out, flags & 7u);
}

int wa_chess960_number(wa_board *b) { return arb_position_chess960_number(pos_of(b)); }

/* The side to move: 0 White, 1 Black. */
int wa_turn(wa_board *b) { return pos_of(b)->turn; }

/* ---- moves ---- */

static char piece_letter(arb_piece p) { return p ? "?PNBRQK"[ARB_PIECE_TYPE(p)] : '-'; }

/* The legal moves, in the library's order, blank-separated: what 0 UCI, 1 SAN, 2 one move a
 * line: "UCI TAB SAN TAB info TAB piece TAB captured" (arb_move_info's bits; the pieces as
 * upper-case letters, '-' for none).  Returns the count. */
int wa_legal(wa_board *b, int what) {
  const arb_position *p = pos_of(b);
  int n = arb_generate_legal(p, b->moves);
  int at = 0;
  b->out[0] = 0;
  for (int i = 0; i < n; i++) {
    arb_move m = b->moves[i];
    char uci[8], san[ARB_SAN_MAX], line[48];
    if (what != 1) arb_uci_write(p, m, uci, sizeof uci);
    if (what != 0) arb_san_write(p, m, san, sizeof san);
    if (what == 2) {
      unsigned info = arb_move_info(p, m);
      arb_square to = ARB_MOVE_TO(m);
      arb_piece taken = ARB_NO_PIECE;
      if (info & ARB_MOVE_IS_EN_PASSANT)
        taken = ARB_MAKE_PIECE(p->turn ^ 1, ARB_PAWN);
      else if (info & ARB_MOVE_IS_CAPTURE)
        taken = p->board[to];
      snprintf(line, sizeof line, "%s%s\t%s\t%u\t%c\t%c", i ? "\n" : "", uci, san, info,
               piece_letter(p->board[ARB_MOVE_FROM(m)]), piece_letter(taken));
      put(b, &at, line);
    } else {
      if (i) put(b, &at, " ");
      put(b, &at, what == 0 ? uci : san);
    }
  }
  return n;
}

/* Adds the destinations of the moves (legal in p) to to[origin]: a promotion once, standard
 * castling both as the king's two-square step (its UCI) and as king-takes-rook (a board UI
 * lets the king be dropped on either). */
static void add_dests(const arb_position *p, const arb_move *moves, int n, uint64_t to[64]) {
  for (int i = 0; i < n; i++) {
    arb_move m = moves[i];
    to[ARB_MOVE_FROM(m)] |= 1ull << ARB_MOVE_TO(m);
    if (ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING) {
      char uci[8];
      arb_uci_write(p, m, uci, sizeof uci);
      to[ARB_MOVE_FROM(m)] |= 1ull << ((uci[2] - 'a') + 8 * (uci[3] - '1'));
    }
  }
}

/* Writes destinations by origin: "e2 e3e4,g1 f3h3,..."; each origin in `every` is written even
 * without a destination ("b1 ").  Returns the count of origins written. */
static int write_dests(const uint64_t to[64], uint64_t every, char *out) {
  size_t at = 0;
  int origins = 0;
  for (int sq = 0; sq < 64; sq++) {
    if (!to[sq] && !(every >> sq & 1)) continue;
    if (origins++) out[at++] = ',';
    out[at++] = (char)('a' + sq % 8);
    out[at++] = (char)('1' + sq / 8);
    out[at++] = ' ';
    for (int d = 0; d < 64; d++)
      if (to[sq] >> d & 1) {
        out[at++] = (char)('a' + d % 8);
        out[at++] = (char)('1' + d / 8);
      }
  }
  out[at] = 0; /* at most 64 * (4 + 128) bytes: out has room */
  return origins;
}

int wa_dests(wa_board *b) {
  const arb_position *p = pos_of(b);
  uint64_t to[64] = {0};
  add_dests(p, b->moves, arb_generate_legal(p, b->moves), to);
  return write_dests(to, 0, b->out);
}

/* The premoves of the side not to move: every move of its that is legal after at least one
 * legal reply of the side to move (the union over those replies), as wa_dests writes them, and
 * every square of its men even when none can go anywhere (a board UI then knows they cannot,
 * rather than guessing). */
int wa_premove_dests(wa_board *b) {
  const arb_position *p = pos_of(b);
  int n = arb_generate_legal(p, b->moves);
  uint64_t to[64] = {0};
  for (int i = 0; i < n; i++) {
    arb_position q = *p;
    arb_undo u;
    arb_make_move(&q, b->moves[i], &u);
    arb_move mine[ARB_MAX_MOVES];
    add_dests(&q, mine, arb_generate_legal(&q, mine), to);
  }
  return write_dests(to, n ? p->by_color[p->turn ^ 1] : 0, b->out);
}

/* The move m, legal in the current position, as play() writes it, into out. */
static void describe(wa_board *b, arb_move m) {
  const arb_position *p = pos_of(b);
  arb_uci_write(p, m, b->out, 8);
  arb_san_write(p, m, b->out + 8, ARB_SAN_MAX);
}

/* Plays m; out holds its UCI at 0 and its SAN at 8 (the SAN the game wrote when it played the
 * move), each NUL-terminated. */
static int play(wa_board *b, arb_move m) {
  char uci[8];
  arb_uci_write(pos_of(b), m, uci, sizeof uci);
  arb_status st = arb_game_play(b->game, m);
  if (st != ARB_OK) return fail(b, st, NULL);
  memcpy(b->out, uci, sizeof uci);
  snprintf(b->out + 8, ARB_SAN_MAX, "%s", arb_game_san_at(b->game, arb_game_ply_count(b->game)));
  return (int)m;
}

/* Plays the move written in `in`, SAN or UCI (the library's lenient reading); out is the move
 * played (as play() writes it), or why not. */
int wa_play(wa_board *b) {
  arb_move m;
  arb_san_error err;
  b->in[sizeof b->in - 1] = 0;
  arb_status st = arb_move_read(pos_of(b), b->in, strlen(b->in), 0, &m, &err);
  if (st != ARB_OK) return fail(b, st, err.message);
  return play(b, m);
}

/* Plays the move from `from` to `to` (promotion ARB_KNIGHT .. ARB_QUEEN or 0; castling as the
 * king's step or king-takes-rook). */
int wa_play_squares(wa_board *b, int from, int to, int promotion) {
  if (from < 0 || from > 63 || to < 0 || to > 63 || promotion < 0 || promotion > ARB_QUEEN)
    return fail(b, ARB_ERR_ARGUMENT, NULL);
  arb_move m;
  arb_status st = arb_move_from_squares(pos_of(b), (arb_square)from, (arb_square)to, promotion, &m);
  if (st != ARB_OK) return fail(b, st, "no legal move goes from there to there");
  return play(b, m);
}

/* The move in `in` (SAN or UCI), not played: out is the move as play() writes it, or why it is
 * no move. */
int wa_san(wa_board *b) {
  arb_move m;
  arb_san_error err;
  b->in[sizeof b->in - 1] = 0;
  arb_status st = arb_move_read(pos_of(b), b->in, strlen(b->in), 0, &m, &err);
  if (st != ARB_OK) return fail(b, st, err.message);
  describe(b, m);
  return (int)m;
}

int wa_undo(wa_board *b) {
  arb_status st = arb_game_undo(b->game);
  if (st != ARB_OK) return fail(b, st, "no move to take back");
  return ARB_OK;
}

/* ---- the laws ---- */

void wa_facts(wa_board *b) {
  const arb_position *p = pos_of(b);
  arb_game_facts f;
  arb_game_facts_of(b->game, &f);
  arb_outcome o = arb_game_outcome(b->game);
  int32_t *x = b->facts;
  x[F_CHECK] = arb_in_check(p);
  x[F_CHECKMATE] = f.checkmate;
  x[F_STALEMATE] = f.stalemate;
  x[F_INSUFFICIENT] = f.insufficient_material;
  x[F_DEAD] = f.dead_position;
  x[F_REPETITIONS] = f.repetitions;
  x[F_THREEFOLD] = f.threefold;
  x[F_CAN_CLAIM_THREEFOLD] = f.can_claim_threefold;
  x[F_FIVEFOLD] = f.fivefold;
  x[F_FIFTY] = f.fifty;
  x[F_CAN_CLAIM_FIFTY] = f.can_claim_fifty;
  x[F_SEVENTYFIVE] = f.seventyfive;
  x[F_RESULT] = (int32_t)o.result;
  x[F_TERMINATION] = (int32_t)o.termination;
  x[F_TURN] = p->turn;
  x[F_HALFMOVE] = p->halfmove_clock;
  x[F_FULLMOVE] = (int32_t)p->fullmove_number;
  x[F_PLY] = arb_game_ply_count(b->game);
  x[F_CHESS960] = p->chess960;
  x[F_LEGAL] = arb_count_legal(p);
}

/* Whether `side` can ever checkmate: out is "verdict proof nodes UCI..." (the helpmate line as
 * UCI, then TAB and the same line in SAN).  budget 0: the library's default. */
int wa_winnability(wa_board *b, int side, double budget) {
  if (side != ARB_WHITE && side != ARB_BLACK) return fail(b, ARB_ERR_ARGUMENT, NULL);
  arb_winnability w;
  const arb_position *p = pos_of(b);
  uint64_t nodes = budget > 0 ? (uint64_t)budget : 0;
  arb_winnability_of(p, (arb_color)side, nodes, &w);
  int at = 0;
  char head[64];
  snprintf(head, sizeof head, "%d %d %.0f", (int)w.verdict, (int)w.proof, (double)w.nodes);
  put(b, &at, head);
  arb_position q = *p;
  for (int i = 0; i < w.line_len; i++) {
    char uci[8];
    arb_uci_write(&q, w.line[i], uci, sizeof uci);
    put(b, &at, " ");
    put(b, &at, uci);
    arb_undo u;
    arb_make_move(&q, w.line[i], &u);
  }
  put(b, &at, "\t");
  q = *p;
  for (int i = 0; i < w.line_len; i++) {
    char san[ARB_SAN_MAX];
    arb_san_write(&q, w.line[i], san, sizeof san);
    if (i) put(b, &at, " ");
    put(b, &at, san);
    arb_undo u;
    arb_make_move(&q, w.line[i], &u);
  }
  return (int)w.verdict;
}

/* The leaf count to `depth` (a double: exact up to 2^53, past any depth one waits for). */
double wa_perft(wa_board *b, int depth) {
  if (depth < 0) return -1;
  return (double)arb_perft(pos_of(b), depth);
}
