/* Arbiter — MIT licence, see LICENSE.
 *
 * read.c: the streaming PGN reader.  Bytes are fed into a buffer; complete tokens are cut from
 * it and go through a small state machine (between games, tag section, movetext, skipping), which
 * replays the moves of the main line and of every variation.  A token that the chunk's end cuts
 * waits in the buffer; nothing else is kept between tokens except the open lines' positions.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/clock.h"
#include "arbiter/pgn.h"
#include "game/ending.h"
#include "notation/text.h"
#include "pgn/roster.h"
#include "rules/reach.h"

enum { ST_BETWEEN, ST_HEADER, ST_MOVES, ST_SKIP };
#define KEY_RING 256 /* main-line keys kept for repetitions (the 75-move rule stops at 150) */
#define MAX_GAME_ERRORS 64

/* One open line of play: the main line (stack[0]) or a variation. */
typedef struct line_state {
  arb_position pos;  /* the position reached */
  arb_position prev; /* the position before the last move (a variation starts from it) */
  int ply;           /* plies from the game's start to pos */
  uint8_t has_prev;  /* a move has been played in this line */
  uint8_t dead;      /* an error stopped this line: its remaining moves are skipped */
} line_state;

struct arb_pgn_reader {
  arb_pgn_options opt;
  arb_pgn_visitor v;
  const arb_rules *rules;
  arb_ruleset ruleset; /* the rules' number (opt.rules when valid, else FIDE) */

  /* Input buffer: unread bytes are buf[head, tail). */
  char *buf;
  size_t cap, head, tail;
  uint64_t base;         /* absolute offset of buf[0] */
  uint64_t line;         /* line of buf[head] */
  uint64_t line_start;   /* absolute offset where that line starts */
  int newlines;          /* newlines since the last token (2 or more: a blank line) */
  uint8_t bom_checked;   /* the stream's first bytes were checked for a byte order mark */
  size_t resume;         /* see token_at */
  uint64_t resume_at;    /* absolute offset of the token that resume belongs to */
  uint8_t resume_quoted; /* see token_at */
  char discard; /* inside an over-long comment: dropping bytes up to '}' ('{') or the line's
                   end (';', '%') */

  /* The game being read. */
  int state;
  uint64_t game, game_line;
  int game_errors, game_warnings;
  uint8_t user_skip; /* a callback asked to skip the rest of the game */
  uint8_t str_seen;  /* Seven Tag Roster tags seen in this header (bit per tag) */
  uint8_t has_fen, has_setup, setup_one, chess960, skipped, after_move;
  uint8_t variant_seen, termination_seen;
  uint8_t has_start;    /* the main line's start position is set up */
  uint32_t number_seen; /* last move number read (strict mode compares it) */
  char fen[128];
  char variant[48];
  char termination[32];
  int has_tag_result;
  arb_result tag_result;
  int has_mt_result;
  arb_result mt_result;
  uint8_t junk_reported;

  /* Lines of play. */
  line_state *stack;
  int depth, stack_cap;
  uint64_t overflow;        /* variations opened beyond ARB_PGN_MAX_DEPTH and not yet closed */
  arb_termination main_end; /* how the main line ended by itself, else NONE */
  uint8_t main_end_passed;  /* the main line went on after an automatic draw */
  int dead_ply;             /* the main line went on after a dead position reached at this ply
                               (FIDE 5.2.2 ended the game there), else -1 */
  arb_result main_end_result;
  uint8_t status_pending;   /* main_end not yet evaluated for the main line's position */
  uint64_t keys[KEY_RING];  /* repetition keys of the main line, indexed by ply */
  arb__dead_memo dead_memo; /* between the main line's dead-position tests (rules/reach.h) */

  /* Comments read between games: a game without tags that follows takes them as its starting
   * comments, a tag drops them.  Each is a held_place, a size_t length, then its bytes. */
  char *pending;
  size_t pending_len, pending_cap;
  const struct held_place *held; /* the one being given out (reports about it are there) */

  char *scratch; /* text conversion, sized for the token at hand: see scratch_for */
  size_t scratch_cap;
  uint8_t token_at_end; /* the token being processed runs to the end of the input */
  char msg[256];
  arb_pgn_stats stats;
};

/* ---- small helpers ---- */

static const char *const problem_names[] = {"",
                                            "syntax",
                                            "tag",
                                            "fen",
                                            "move_syntax",
                                            "move_illegal",
                                            "move_ambiguous",
                                            "not_strict",
                                            "null_move",
                                            "move_after_end",
                                            "variation",
                                            "result",
                                            "time_forfeit",
                                            "truncated",
                                            "limit"};

const char *arb_pgn_problem_name(arb_pgn_problem p) {
  return (unsigned)p < sizeof problem_names / sizeof *problem_names ? problem_names[p] : "";
}

static int is_ws(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* The tokenizer's classes of a byte: BLANK (is_ws, and NUL), NEWLINE, SYMBOL (a character of a
 * symbol token: letters, digits and _ + # = : - / . @, for moves, move numbers, results,
 * "e.p."), 0 anything else.  One lookup per byte. */
enum { BLANK = 1, NEWLINE = 2, SYMBOL = 3 };
static const uint8_t byte_class[256] = {
    1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 1, 1, 1, 0, 0, /* NUL, \t \n \v \f \r */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* */
    1, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 3, 0, 3, 3, 3, /* ' ' # + - . / */
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 3, 0, 0, /* 0-9 : = */
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, /* @ A-O */
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 3, /* P-Z _ */
    0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, /* a-o */
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, /* p-z */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* bytes 0x80-0xff: 0 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* */
};

static int is_sym(unsigned char c) { return byte_class[c] == SYMBOL; }

int arb_pgn_result_parse(const char *t, size_t n, arb_result *result) {
  if (n == 3 && memcmp(t, "1-0", 3) == 0)
    *result = ARB_RESULT_WHITE_WINS;
  else if (n == 3 && memcmp(t, "0-1", 3) == 0)
    *result = ARB_RESULT_BLACK_WINS;
  else if (n == 7 && memcmp(t, "1/2-1/2", 7) == 0)
    *result = ARB_RESULT_DRAW;
  else if (n == 1 && t[0] == '*')
    *result = ARB_RESULT_NONE;
  else
    return -1;
  return 0;
}

static int ieq(const char *a, size_t n, const char *b) {
  if (strlen(b) != n) return 0;
  for (size_t i = 0; i < n; i++) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = (char)(x + 32);
    if (x != y) return 0;
  }
  return 1;
}

int arb_pgn_variant_kind(const char *v, size_t n) {
  /* Compare without case, blanks, '-' and '_': "Chess 960" = "chess960" = "Chess-960". */
  char t[32];
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    char c = v[i];
    if (c == ' ' || c == '-' || c == '_' || c == '\t') continue;
    if (k == sizeof t) return -1;
    t[k++] = c;
  }
  static const char *const standard[] = {"", "standard", "fromposition", "normal", "chess"};
  static const char *const c960[] = {"chess960", "fischerandom",       "fischerrandom",       "frc",
                                     "960",      "fischerrandomchess", "chess960fromposition"};
  for (size_t i = 0; i < sizeof standard / sizeof *standard; i++)
    if (ieq(t, k, standard[i])) return 0;
  for (size_t i = 0; i < sizeof c960 / sizeof *c960; i++)
    if (ieq(t, k, c960[i])) return 1;
  return -1;
}

/* ---- locations and errors ---- */

/* Where a comment held between games stood (see hold_comment). */
typedef struct held_place {
  uint64_t line;
  uint32_t column;
} held_place;

static uint32_t column_of(const arb_pgn_reader *r, const char *p) {
  uint64_t abs = r->base + (uint64_t)(p - r->buf);
  return (uint32_t)(abs - r->line_start + 1);
}

static void report(arb_pgn_reader *r, arb_pgn_problem problem, const char *at, size_t at_len,
                   int ply, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void vreport(arb_pgn_reader *r, int warning, arb_pgn_problem problem, const char *at,
                    size_t at_len, int ply, const char *fmt, va_list ap) {
  if (warning) {
    r->stats.warnings++;
    if (r->game_warnings++ >= MAX_GAME_ERRORS) return;
  } else {
    r->stats.errors++;
    if (r->game_errors++ == 0 && r->state != ST_BETWEEN) r->stats.games_with_errors++;
    if (r->game_errors > MAX_GAME_ERRORS) return;
  }
  if (!r->v.error) return;
  vsnprintf(r->msg, sizeof r->msg, fmt, ap);
  /* Messages quote the input: keep them valid UTF-8 ('?' for any other byte). */
  unsigned char *m = (unsigned char *)r->msg;
  for (size_t i = 0; m[i];) {
    size_t k = m[i] < 0x80                    ? 1
               : m[i] >= 0xc2 && m[i] <= 0xdf ? 2
               : m[i] >= 0xe0 && m[i] <= 0xef ? 3
               : m[i] >= 0xf0 && m[i] <= 0xf4 ? 4
                                              : 0;
    size_t have = 0;
    while (have < k && m[i + have])
      have++;
    if (k == 0 || have < k || !arb_utf8_valid((const char *)m + i, k)) {
      m[i++] = '?';
      continue;
    }
    i += k;
  }
  arb_pgn_error e;
  e.problem = problem;
  e.warning = (uint8_t)warning;
  /* A held comment's text is no longer in the buffer: where it stood was kept with it. */
  e.where.line = r->held ? r->held->line : r->line;
  e.where.column = !at ? 0 : r->held ? r->held->column : column_of(r, at);
  e.where.game = r->state == ST_BETWEEN ? r->game + 1 : r->game;
  e.where.ply = ply;
  e.where.depth = r->depth;
  e.token = at;
  e.token_len = at_len;
  e.message = r->msg;
  r->v.error(r->v.ctx, &e);
}

static void report(arb_pgn_reader *r, arb_pgn_problem problem, const char *at, size_t at_len,
                   int ply, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(r, 0, problem, at, at_len, ply, fmt, ap);
  va_end(ap);
}

static void warn(arb_pgn_reader *r, arb_pgn_problem problem, const char *at, size_t at_len, int ply,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void warn(arb_pgn_reader *r, arb_pgn_problem problem, const char *at, size_t at_len, int ply,
                 const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(r, 1, problem, at, at_len, ply, fmt, ap);
  va_end(ap);
}

/* ---- text: UTF-8 check, Latin-1 conversion, whitespace folding ---- */

/* Scratch room for a token of n bytes: [0, 2n + 1] for UTF-8 output (Latin-1 doubles),
 * [2n + 2, 3n + 3] for a tag's unescaped value.  Grows as needed; NULL when memory runs out. */
static char *scratch_for(arb_pgn_reader *r, size_t n) {
  size_t need = 3 * n + 4;
  if (need > r->scratch_cap) {
    size_t cap = r->scratch_cap * 2 > need ? r->scratch_cap * 2 : need;
    char *p = realloc(r->scratch, cap);
    if (!p) return NULL;
    r->scratch = p;
    r->scratch_cap = cap;
  }
  return r->scratch;
}

/* Text as UTF-8: returned as is when valid, else converted from Latin-1 into r->scratch.
 * Control characters other than blanks become spaces when `fold` (comments) is set, and runs of
 * blanks then become one space, trimmed at both ends.  Returns the text and sets *len. */
static const char *as_text(arb_pgn_reader *r, const char *s, size_t n, int fold, size_t *len) {
  if (fold) {
    while (n && (unsigned char)s[0] <= ' ')
      s++, n--;
    while (n && (unsigned char)s[n - 1] <= ' ')
      n--;
  }
  /* One pass: any byte outside printable ASCII, or two blanks in a row, needs the slow path
   * (after trimming, a blank is never last, so s[i + 1] is inside the text). */
  int ascii = 1, plain = 1;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if ((unsigned char)(c - 0x21) < 0x5e) continue; /* '!' to '~' */
    if (c >= 0x80)
      ascii = 0;
    else if (c != ' ' || s[i + 1] == ' ')
      plain = 0;
  }
  int utf8 = ascii || arb_utf8_valid(s, n);
  if (utf8 && (plain || !fold)) {
    *len = n;
    return s;
  }
  char *o = scratch_for(r, n);
  if (!o) { /* out of memory: the text is dropped rather than passed on unconverted */
    *len = 0;
    return s;
  }
  size_t k = 0;
  int space = 1; /* drop leading blanks */
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (fold && (c < 0x20 || c == ' ' || c == 0x7f)) {
      if (!space) o[k++] = ' ';
      space = 1;
      continue;
    }
    space = 0;
    if (c >= 0x80 && !utf8) {
      o[k++] = (char)(0xc0 | (c >> 6));
      o[k++] = (char)(0x80 | (c & 0x3f));
    } else {
      o[k++] = (char)c;
    }
  }
  if (fold && k && o[k - 1] == ' ') k--;
  *len = k;
  return o;
}

/* ---- lines of play ---- */

static int ensure_stack(arb_pgn_reader *r, int depth) {
  if (depth < r->stack_cap) return 1;
  int cap = r->stack_cap ? r->stack_cap * 2 : 8;
  while (cap <= depth)
    cap *= 2;
  line_state *s = realloc(r->stack, (size_t)cap * sizeof *s);
  if (!s) return 0;
  r->stack = s;
  r->stack_cap = cap;
  return 1;
}

static int main_repetitions(const arb_pgn_reader *r, const line_state *L) {
  uint64_t k = r->keys[L->ply % KEY_RING];
  int back = L->pos.halfmove_clock;
  if (back > L->ply) back = L->ply;
  if (back >= KEY_RING) back = KEY_RING - 1;
  int n = 1;
  for (int d = 4; d <= back; d += 2)
    n += r->keys[(L->ply - d) % KEY_RING] == k;
  /* d = 2 can never repeat: the side to move changed twice but one move must be undone. */
  return n + (back >= 2 && r->keys[(L->ply - 2) % KEY_RING] == k);
}

/* The main line has reached a new position: its repetition key now, its automatic endings when
 * they are next asked (main_line_status) — by the next main-line move, which, when legal, shows
 * the position has a move without generating them, or by the game's end. */
static void main_line_moved(arb_pgn_reader *r) {
  line_state *L = &r->stack[0];
  r->keys[L->ply % KEY_RING] = arb__repetition_key(&L->pos);
  r->main_end = ARB_TERM_NONE;
  r->status_pending = 1;
}

/* Evaluates the automatic endings of the main line's current position, once; `mobile_known`:
 * a legal move from it has been found. */
static void main_line_status(arb_pgn_reader *r, int mobile_known) {
  if (!r->status_pending) return;
  r->status_pending = 0;
  line_state *L = &r->stack[0];
  int mobile = mobile_known || arb_has_legal_move(&L->pos);
  int check = !mobile && arb_in_check(&L->pos); /* only mate and stalemate ask */
  int reps = 1;
  if (mobile && L->pos.halfmove_clock >= 8) reps = main_repetitions(r, L);
  r->main_end = arb__automatic_ending(r->rules, &L->pos, check, mobile, reps, &r->main_end_result,
                                      &r->dead_memo);
}

/* ---- the game's beginning and end ---- */

static void reset_game(arb_pgn_reader *r) {
  r->game_errors = 0;
  r->game_warnings = 0;
  r->user_skip = 0;
  r->str_seen = 0;
  r->has_fen = r->has_setup = r->setup_one = r->chess960 = r->skipped = 0;
  r->variant_seen = r->termination_seen = 0;
  r->has_start = 0;
  r->after_move = 0;
  r->number_seen = 0;
  r->fen[0] = r->variant[0] = r->termination[0] = '\0';
  r->has_tag_result = r->has_mt_result = 0;
  r->tag_result = r->mt_result = ARB_RESULT_NONE;
  r->depth = 0;
  r->overflow = 0;
  r->main_end = ARB_TERM_NONE;
  r->main_end_result = ARB_RESULT_NONE;
  r->main_end_passed = 0;
  r->status_pending = 0;
  r->dead_ply = -1;
  r->junk_reported = 0;
  r->dead_memo.valid = 0;
}

static void begin_game(arb_pgn_reader *r) {
  reset_game(r);
  r->game++;
  r->stats.games++;
  r->game_line = r->line;
  r->state = ST_HEADER;
  if (r->v.begin_game && r->v.begin_game(r->v.ctx, r->game, r->line)) r->user_skip = 1;
}

static const char *const term_text[ARB_TERM_COUNT] = {"",
                                                      "checkmate",
                                                      "stalemate",
                                                      "insufficient material",
                                                      "a dead position",
                                                      "fivefold repetition",
                                                      "the 75-move rule",
                                                      "threefold repetition",
                                                      "the 50-move rule",
                                                      "agreement",
                                                      "resignation",
                                                      "time forfeit"};

/* Ends the header: sets the start position up, or decides to skip the game. */
static void begin_moves(arb_pgn_reader *r, const char *at) {
  r->state = ST_MOVES;
  if (!ensure_stack(r, 0)) {
    r->state = ST_SKIP;
    return;
  }
  line_state *L = &r->stack[0];
  L->ply = 0;
  L->has_prev = 0;
  L->dead = 0;
  int kind = arb_pgn_variant_kind(r->variant, strlen(r->variant));
  if (kind < 0) {
    r->skipped = 1;
    r->state = ST_SKIP;
    r->stats.games_skipped++;
    return;
  }
  if (r->has_fen) {
    arb_fen_report rep;
    /* "From Position" games may have any material: a position with nine queens is playable. */
    uint32_t accept = ARB_FEN_TOO_MUCH_MATERIAL | (kind == 1 ? ARB_FEN_READ_CHESS960 : 0);
    if (arb_fen_read(&L->pos, r->fen, accept, &rep) != ARB_OK) {
      report(r, ARB_PGN_FEN, at, 0, 0, "bad FEN tag \"%s\": %s", r->fen, rep.message);
      L->dead = 1;
      r->state = ST_SKIP;
      return;
    }
    if ((!r->has_setup || !r->setup_one) && (r->opt.flags & ARB_PGN_STRICT))
      report(r, ARB_PGN_NOT_STRICT, at, 0, 0, "FEN tag without SetUp \"1\"");
  } else {
    if (r->has_setup && r->setup_one && (r->opt.flags & ARB_PGN_STRICT))
      report(r, ARB_PGN_NOT_STRICT, at, 0, 0,
             "SetUp \"1\" without a FEN tag (PGN standard 9.7.1: the FEN tag must follow)");
    if (kind == 1) {
      report(r, ARB_PGN_FEN, at, 0, 0, "a Chess960 game needs a FEN tag");
      L->dead = 1;
      r->state = ST_SKIP;
      return;
    }
    arb_position_startpos(&L->pos);
  }
  r->chess960 = L->pos.chess960;
  r->has_start = 1;
  if (r->opt.flags & ARB_PGN_NO_REPLAY) return;
  main_line_moved(r);
  if (r->v.begin_moves && r->v.begin_moves(r->v.ctx, &L->pos)) r->user_skip = 1;
}

static void end_game(arb_pgn_reader *r, const char *at) {
  if (r->state == ST_HEADER) begin_moves(r, at);
  if (r->depth > 0 || r->overflow > 0) {
    uint64_t open = (uint64_t)r->depth + (uint64_t)r->overflow;
    report(r, ARB_PGN_VARIATION, at, 0, 0, "%llu unclosed variation%s", (unsigned long long)open,
           open > 1 ? "s" : "");
    r->depth = 0;
    r->overflow = 0;
  }
  main_line_status(r, 0); /* when still pending */
  const line_state *L = r->stack_cap ? &r->stack[0] : NULL;
  int replayed = !r->skipped && L && !(r->opt.flags & ARB_PGN_NO_REPLAY) && r->state != ST_BETWEEN;
  int has_pos = replayed && r->has_start;
  if (!r->skipped && !(r->opt.flags & ARB_PGN_NO_RESULT_CHECK)) {
    if (!r->has_mt_result)
      report(r, ARB_PGN_RESULT, at, 0, 0, "no termination marker (1-0, 0-1, 1/2-1/2 or *)");
    else if (r->has_tag_result && r->tag_result != r->mt_result)
      report(r, ARB_PGN_RESULT, at, 0, 0, "the Result tag says %s but the movetext ends with %s",
             arb_result_string(r->tag_result), arb_result_string(r->mt_result));
    if (!r->has_tag_result && (r->opt.flags & ARB_PGN_STRICT))
      report(r, ARB_PGN_NOT_STRICT, at, 0, 0, "no Result tag");
    arb_result claimed = r->has_mt_result ? r->mt_result : r->tag_result;
    int decisive = claimed == ARB_RESULT_WHITE_WINS || claimed == ARB_RESULT_BLACK_WINS;
    if (has_pos && !L->dead && (r->has_mt_result || r->has_tag_result)) {
      if (r->dead_ply >= 0) {
        /* Played on after a dead position (warned at the move): the laws make it a draw. */
        if (decisive)
          report(r, ARB_PGN_RESULT, at, 0, r->dead_ply,
                 "scored %s, but the position after ply %d was dead: FIDE 5.2.2 makes the game "
                 "a draw (1/2-1/2)",
                 arb_result_string(claimed), r->dead_ply);
      } else if (r->main_end != ARB_TERM_NONE && claimed != r->main_end_result) {
        int hard = r->main_end <= ARB_TERM_DEAD_POSITION;
        if (hard)
          report(r, ARB_PGN_RESULT, at, 0, L->ply, "the game ended by %s (%s) but is scored %s",
                 term_text[r->main_end], arb_result_string(r->main_end_result),
                 arb_result_string(claimed));
        else if (!r->main_end_passed)
          warn(r, ARB_PGN_RESULT, at, 0, L->ply,
               "the game ended by %s (%s) under the %s rules but is scored %s",
               term_text[r->main_end], arb_result_string(r->main_end_result), r->rules->name,
               arb_result_string(claimed));
      } else if (r->main_end == ARB_TERM_NONE && decisive &&
                 ieq(r->termination, strlen(r->termination), "time forfeit")) {
        /* The clock layer's verdict for this flag fall under the rules in force (FIDE 6.9: a
         * draw when the winner could not mate by any sequence of legal moves). */
        arb_color flagged = claimed == ARB_RESULT_WHITE_WINS ? ARB_BLACK : ARB_WHITE;
        arb_flag_verdict v = arb_flag_fall(&L->pos, flagged, r->ruleset, -1, ARB_RESULT_NONE);
        if (v.result != ARB_RESULT_NONE && v.result != claimed)
          report(r, ARB_PGN_TIME_FORFEIT, at, 0, L->ply,
                 "scored %s on time, but under the %s rules this flag fall gives %s (%s)",
                 arb_result_string(claimed), r->rules->name, arb_result_string(v.result),
                 arb_flag_reason_name(v.reason));
      }
    }
  }
  if (r->v.end_game) {
    arb_pgn_game_end e;
    memset(&e, 0, sizeof e);
    e.game = r->game;
    e.first_line = r->game_line;
    e.tag_result = r->tag_result;
    e.has_tag_result = (uint8_t)r->has_tag_result;
    e.movetext_result = r->mt_result;
    e.has_movetext_result = (uint8_t)r->has_mt_result;
    if (has_pos) {
      e.final_position = &L->pos;
      e.plies = L->ply;
      if (r->main_end != ARB_TERM_NONE) {
        e.final_outcome.result = r->main_end_result;
        e.final_outcome.termination = r->main_end;
        e.final_outcome.automatic = 1;
        e.final_outcome.by = -1;
      }
    }
    e.errors = r->game_errors;
    e.warnings = r->game_warnings;
    e.skipped = r->skipped;
    e.chess960 = r->chess960;
    e.variant = r->variant;
    r->v.end_game(r->v.ctx, &e);
  }
  r->state = ST_BETWEEN;
  r->depth = 0;
  r->game_errors = 0;
  r->junk_reported = 0;
}

/* ---- tokens ---- */

static void copy_tag(char *dst, size_t size, const char *v, size_t n) {
  if (n >= size) n = size - 1;
  memcpy(dst, v, n);
  dst[n] = '\0';
}

/* A tag pair token t[0, n): '[' name '"' value '"' ']' with blanks allowed between. */
/* The name of the tag pair token t[0, n): t[*b, return value), empty when there is none. */
static size_t tag_name(const char *t, size_t n, size_t *b) {
  size_t i = 1;
  while (i < n && is_ws((unsigned char)t[i]))
    i++;
  *b = i;
  while (i < n && is_sym((unsigned char)t[i]) && t[i] != '.')
    i++;
  return i;
}

/* Strict mode: a tag's name t[name_b, name_e) starts with an upper-case letter. */
static void strict_tag_name(arb_pgn_reader *r, const char *t, size_t name_b, size_t name_e) {
  if ((r->opt.flags & ARB_PGN_STRICT) && !(t[name_b] >= 'A' && t[name_b] <= 'Z'))
    report(r, ARB_PGN_NOT_STRICT, t + name_b, name_e - name_b, 0,
           "tag names start with an upper-case letter");
}

static void tag_pair(arb_pgn_reader *r, const char *t, size_t n, size_t name_b, size_t name_e,
                     char *val, size_t k);

/* Room for the value of the tag pair token t[0, n): the scratch's upper half (scratch_for), or
 * NULL when memory runs out (reported). */
static char *tag_value_room(arb_pgn_reader *r, const char *t, size_t n) {
  if (scratch_for(r, n)) return r->scratch + 2 * n + 2;
  report(r, ARB_PGN_LIMIT, t, n, 0, "out of memory for a tag value");
  return NULL;
}

static void tag_token(arb_pgn_reader *r, const char *t, size_t n) {
  size_t name_b, name_e = tag_name(t, n, &name_b), i = name_e;
  if (name_e == name_b) {
    report(r, ARB_PGN_TAG, t, n, 0, "tag without a name");
    return;
  }
  strict_tag_name(r, t, name_b, name_e);
  while (i < n && is_ws((unsigned char)t[i]))
    i++;
  if (i >= n || t[i] != '"') {
    report(r, ARB_PGN_TAG, t + (i < n ? i : n - 1), 1, 0, "tag %.*s has no quoted value",
           (int)(name_e - name_b), t + name_b);
    return;
  }
  i++;
  /* Unescape \" and \\ into the scratch buffer's upper half (a backslash before anything else
   * is kept: "Analysis\ Analyse"). */
  char *val = tag_value_room(r, t, n);
  if (!val) return;
  size_t k = 0;
  int closed = 0;
  for (; i < n; i++) {
    char c = t[i];
    if (c == '\\' && i + 1 < n && (t[i + 1] == '"' || t[i + 1] == '\\')) {
      val[k++] = t[++i];
      continue;
    }
    if (c == '"') {
      closed = 1;
      i++;
      break;
    }
    if (c == '\n' || c == '\r') break;
    val[k++] = c;
  }
  if (!closed) {
    if (r->token_at_end)
      report(r, ARB_PGN_TRUNCATED, t, n, 0, "tag %.*s: the input ends inside its value",
             (int)(name_e - name_b), t + name_b);
    else
      report(r, ARB_PGN_TAG, t, n, 0, "tag %.*s: unterminated string", (int)(name_e - name_b),
             t + name_b);
    return;
  }
  while (i < n && is_ws((unsigned char)t[i]))
    i++;
  if (i >= n || t[i] != ']')
    report(r, r->token_at_end && i >= n ? ARB_PGN_TRUNCATED : ARB_PGN_TAG, t + (i < n ? i : n - 1),
           1, 0, "tag %.*s: missing ']'", (int)(name_e - name_b), t + name_b);
  tag_pair(r, t, n, name_b, name_e, val, k);
}

/* The tag pair token t[0, n) read: its name t[name_b, name_e), its value unescaped in
 * val[0, k), the scratch's upper half (scratch_for(r, n)).  Keeps what the reader needs, passes
 * the pair to the visitor. */
static void tag_pair(arb_pgn_reader *r, const char *t, size_t n, size_t name_b, size_t name_e,
                     char *val, size_t k) {
  /* Convert to UTF-8: the value must leave the scratch's upper half alone. */
  size_t vlen;
  char *value;
  if (arb_utf8_valid(val, k)) {
    value = val;
    vlen = k;
  } else {
    char *o = r->scratch;
    vlen = 0;
    for (size_t j = 0; j < k; j++) {
      unsigned char c = (unsigned char)val[j];
      if (c >= 0x80) {
        o[vlen++] = (char)(0xc0 | (c >> 6));
        o[vlen++] = (char)(0x80 | (c & 0x3f));
      } else {
        o[vlen++] = (char)c;
      }
    }
    value = o;
  }
  char name[64];
  size_t nl = name_e - name_b;
  if (nl >= sizeof name) nl = sizeof name - 1;
  memcpy(name, t + name_b, nl);
  name[nl] = '\0';
#define NAME_IS(lit) (nl == sizeof lit - 1 && memcmp(name, lit, sizeof lit - 1) == 0)
  /* A repeated tag keeps its first value, as the writer does. */
  int seen = 0, roster = arb__pgn_roster_index(name, nl);
  if (roster >= 0) {
    seen = (r->str_seen >> roster) & 1;
    r->str_seen |= (uint8_t)(1u << roster);
  }
  if (NAME_IS("FEN")) {
    seen = r->has_fen;
    if (!seen) {
      r->has_fen = 1;
      copy_tag(r->fen, sizeof r->fen, value, vlen);
    }
  } else if (NAME_IS("SetUp")) {
    seen = r->has_setup;
    if (!seen) {
      r->has_setup = 1;
      r->setup_one = vlen == 1 && value[0] == '1';
    }
  } else if (NAME_IS("Variant")) {
    seen = r->variant_seen;
    if (!seen) copy_tag(r->variant, sizeof r->variant, value, vlen);
    r->variant_seen = 1;
  } else if (NAME_IS("Termination")) {
    seen = r->termination_seen;
    if (!seen) copy_tag(r->termination, sizeof r->termination, value, vlen);
    r->termination_seen = 1;
  } else if (NAME_IS("Result") && !seen) {
    arb_result res;
    if (arb_pgn_result_parse(value, vlen, &res) == 0) {
      r->has_tag_result = 1;
      r->tag_result = res;
    } else if (!(r->opt.flags & ARB_PGN_NO_RESULT_CHECK)) {
      report(r, ARB_PGN_RESULT, t, n, 0, "Result tag \"%.*s\" is not 1-0, 0-1, 1/2-1/2 or *",
             (int)(vlen > 40 ? 40 : vlen), value);
    }
  }
  if (seen && (r->opt.flags & ARB_PGN_STRICT))
    report(r, ARB_PGN_NOT_STRICT, t, n, 0, "tag %s repeated: the first value counts", name);
#undef NAME_IS
  /* The value is NUL-terminated for the visitor: both buffers have room for it. */
  value[vlen] = '\0';
  if (r->v.tag && !r->user_skip && r->v.tag(r->v.ctx, name, nl, value, vlen)) r->user_skip = 1;
}

/* "[%illegal UCI FEN] ..." in the main line: an illegal move that stood over the board (FIDE
 * A.5.2, B.3; US Chess 11B) — written by arb_otb_write_pgn.  A warning, and play goes on from the
 * real position the comment gives. */
static void illegal_comment(arb_pgn_reader *r, const char *s, size_t len, const char *t, size_t n) {
  line_state *L = &r->stack[0];
  if (L->dead) return;
  size_t i = 10, j;
  while (i < len && s[i] == ' ')
    i++;
  j = i;
  while (j < len && s[j] != ' ' && s[j] != ']')
    j++;
  size_t uci_at = i, uci_len = j - i;
  while (j < len && s[j] == ' ')
    j++;
  size_t k = j;
  while (k < len && s[k] != ']')
    k++;
  arb_position p;
  arb_fen_report rep;
  if (k >= len || uci_len == 0 || uci_len > 5 ||
      arb_fen_read_n(&p, s + j, k - j, ARB_FEN_PROBLEMS_ALL, &rep) != ARB_OK) {
    report(r, ARB_PGN_SYNTAX, t, n, L->ply + 1, "[%%illegal] comment without a move and a FEN");
    return;
  }
  int ply = L->ply + 1;
  warn(r, ARB_PGN_MOVE_ILLEGAL, t, n, ply,
       "%u.%s %.*s: an illegal move that stood; play goes on from the position it left",
       (unsigned)L->pos.fullmove_number, L->pos.turn == ARB_WHITE ? "" : "..", (int)uci_len,
       s + uci_at);
  L->prev = L->pos;
  L->has_prev = 1;
  L->pos = p;
  L->ply = ply;
  r->number_seen = 0;
  r->stats.plies++;
  main_line_moved(r);
}

static void comment_token(arb_pgn_reader *r, const char *t, size_t n) {
  int replay = r->state == ST_MOVES && r->depth == 0 && !(r->opt.flags & ARB_PGN_NO_REPLAY);
  int visit = r->v.comment && !r->user_skip && r->state != ST_BETWEEN;
  if (!replay && !visit) return;
  if (!visit) {
    /* Only an "[%illegal" command matters: folding (below) drops the leading blanks, control
     * characters and DELs and keeps every other byte, so a comment whose first other bytes are
     * not "[%illegal" cannot hold one — most comments ([%clk ...], [%eval ...]), not folded. */
    size_t i = 0;
    while (i < n && ((unsigned char)t[i] <= ' ' || t[i] == 0x7f))
      i++;
    if (n - i < 10 || memcmp(t + i, "[%illegal", 9) != 0) return;
  }
  /* The text as the visitor sees it (blanks and control characters folded): an "[%illegal"
   * command is recognised in it, so that a comment written back reads the same. */
  size_t len;
  const char *s = as_text(r, t, n, 1, &len);
  if (replay && len > 10 && !memcmp(s, "[%illegal ", 10)) illegal_comment(r, s, len, t, n);
  if (visit && r->v.comment(r->v.ctx, s, len, r->depth)) r->user_skip = 1;
}

/* Keeps a comment read between games (see process_token); bounded like one token. */
static void hold_comment(arb_pgn_reader *r, const char *t, size_t n) {
  const held_place at = {r->line, column_of(r, t)};
  const size_t head = sizeof at + sizeof n;
  size_t need = r->pending_len + head + n;
  if (need > 2 * (size_t)ARB_PGN_MAX_TOKEN) r->pending_len = 0, need = head + n;
  if (need > r->pending_cap) {
    char *p = realloc(r->pending, need);
    if (!p) return;
    r->pending = p;
    r->pending_cap = need;
  }
  memcpy(r->pending + r->pending_len, &at, sizeof at);
  memcpy(r->pending + r->pending_len + sizeof at, &n, sizeof n);
  memcpy(r->pending + r->pending_len + head, t, n);
  r->pending_len = need;
}

/* The comments held since the last game go to the game that has just begun without tags. */
static void release_comments(arb_pgn_reader *r) {
  size_t i = 0;
  while (i < r->pending_len) {
    held_place at;
    size_t n;
    memcpy(&at, r->pending + i, sizeof at);
    memcpy(&n, r->pending + i + sizeof at, sizeof n);
    i += sizeof at + sizeof n;
    r->held = &at;
    comment_token(r, r->pending + i, n);
    r->held = NULL;
    i += n;
  }
  r->pending_len = 0;
}

/* Resolves and plays one move token in the current line. */
static void move_token(arb_pgn_reader *r, const char *t, size_t n) {
  if (r->state == ST_SKIP || (r->opt.flags & ARB_PGN_NO_REPLAY)) return;
  if (r->overflow || (r->depth > 0 && (r->opt.flags & ARB_PGN_NO_VARIATIONS))) return;
  line_state *L = &r->stack[r->depth];
  if (L->dead) return;
  int ply = L->ply + 1;
  unsigned strict = r->opt.flags & ARB_PGN_STRICT;
  unsigned sflags = (r->opt.flags & ARB_PGN_ALLOW_NULL) ? ARB_SAN_ALLOW_NULL : 0;
  arb_move m = ARB_MOVE_NONE;
  arb_san_error err;
  /* Without an error record first (the common case needs none), again with one on failure.  A
   * legal move read shows the position before it has one: no mate or stalemate to look for. */
  arb_status st = arb_san_read(&L->pos, t, n, sflags | (strict ? ARB_SAN_STRICT : 0), &m, NULL);
  if (r->depth == 0) main_line_status(r, st == ARB_OK && m != ARB_MOVE_NULL);
  if (r->depth == 0 && r->main_end != ARB_TERM_NONE) {
    if (r->main_end == ARB_TERM_CHECKMATE || r->main_end == ARB_TERM_STALEMATE) {
      report(r, ARB_PGN_AFTER_END, t, n, ply, "move %.*s after the game ended by %s", (int)n, t,
             term_text[r->main_end]);
      L->dead = 1;
      return;
    }
    if (r->main_end == ARB_TERM_INSUFFICIENT_MATERIAL || r->main_end == ARB_TERM_DEAD_POSITION) {
      /* FIDE 5.2.2 ends the game at once, but servers play on (lichess does not look for
       * blocked pawn walls): the moves are legal, so a warning naming where the game was over,
       * and an error at the end only if a win is scored (see end_game).  The position stays
       * dead, so this is said once. */
      if (r->dead_ply < 0) {
        r->dead_ply = L->ply;
        warn(r, ARB_PGN_AFTER_END, t, n, ply,
             "move %.*s played after the game was over: the position after ply %d was dead "
             "(%s; FIDE 5.2.2 makes it a draw there)",
             (int)n, t, L->ply, term_text[r->main_end]);
      }
      r->main_end = ARB_TERM_NONE;
    }
  }
  if (r->depth == 0 && r->main_end != ARB_TERM_NONE) {
    /* Repetition and move-count endings are recent rules (fivefold and 75 moves: FIDE 2014):
     * older games rightly played on.  So do games on servers that recognise a dead position
     * only by material, past one that must be reached by force (a queen that must be taken).
     * Say so once, and go on. */
    if (!r->main_end_passed)
      warn(r, ARB_PGN_AFTER_END, t, n, ply,
           "move %.*s played after the game was drawn by %s under the %s rules", (int)n, t,
           term_text[r->main_end], r->rules->name);
    r->main_end = ARB_TERM_NONE;
    r->main_end_passed = 1;
  }
  if (st != ARB_OK)
    st = arb_san_read(&L->pos, t, n, sflags | (strict ? ARB_SAN_STRICT : 0), &m, &err);
  if (st != ARB_OK && strict) {
    /* Strict reading failed: a lenient reading that succeeds still fixes the move. */
    arb_san_error lerr;
    if (arb_san_read(&L->pos, t, n, sflags, &m, &lerr) == ARB_OK) {
      report(r, ARB_PGN_NOT_STRICT, t, n, ply, "%.*s: %s", (int)n, t, err.message);
      st = ARB_OK;
    } else {
      err = lerr;
      st = lerr.code;
    }
  }
  if (st != ARB_OK) {
    arb_pgn_problem p = st == ARB_ERR_MOVE_ILLEGAL     ? ARB_PGN_MOVE_ILLEGAL
                        : st == ARB_ERR_MOVE_AMBIGUOUS ? ARB_PGN_MOVE_AMBIGUOUS
                        : st == ARB_ERR_NULL_MOVE      ? ARB_PGN_NULL_MOVE
                                                       : ARB_PGN_MOVE_SYNTAX;
    const char *side = L->pos.turn == ARB_WHITE ? "" : "..";
    if (p == ARB_PGN_MOVE_ILLEGAL && !arb_has_legal_move(&L->pos))
      report(r, ARB_PGN_AFTER_END, t, n, ply, "%u.%s %.*s: no move is possible after %s",
             (unsigned)L->pos.fullmove_number, side, (int)n, t,
             arb_in_check(&L->pos) ? "checkmate" : "stalemate");
    else
      report(r, p, t, n, ply, "%u.%s %.*s: %s", (unsigned)L->pos.fullmove_number, side, (int)n, t,
             err.message);
    L->dead = 1;
    return;
  }
  if (strict && m != ARB_MOVE_NULL) {
    /* Export format marks every check and mate; strict SAN reading lets a missing mark pass. */
    char mark[2] = {0, 0};
    arb__check_suffix(&L->pos, m, mark);
    char last = t[n - 1];
    if (mark[0] && last != mark[0])
      report(r, ARB_PGN_NOT_STRICT, t, n, ply, "%.*s: %s not marked with '%c'", (int)n, t,
             mark[0] == '#' ? "checkmate" : "check", mark[0]);
  }
  if (strict && r->depth == 0) {
    if (L->pos.turn == ARB_WHITE && !r->number_seen)
      report(r, ARB_PGN_NOT_STRICT, t, n, ply, "White's move %.*s has no move number", (int)n, t);
    else if (r->number_seen && r->number_seen != L->pos.fullmove_number)
      report(r, ARB_PGN_NOT_STRICT, t, n, ply, "move number %u where %u is due",
             (unsigned)r->number_seen, (unsigned)L->pos.fullmove_number);
  }
  r->number_seen = 0;
  L->prev = L->pos;
  L->has_prev = 1;
  arb_undo u;
  arb_make_move(&L->pos, m, &u);
  L->ply = ply;
  r->after_move = 1;
  if (r->depth == 0) {
    r->stats.plies++;
    main_line_moved(r);
  }
  if (r->v.move && !r->user_skip) {
    arb_pgn_move pm;
    pm.move = m;
    pm.san = t;
    pm.san_len = n;
    pm.before = &L->prev;
    pm.after = &L->pos;
    pm.ply = ply;
    pm.depth = r->depth;
    if (r->v.move(r->v.ctx, &pm)) r->user_skip = 1;
  }
}

static void open_variation(arb_pgn_reader *r, const char *t) {
  r->after_move = 0;
  int replay = !(r->opt.flags & ARB_PGN_NO_REPLAY) && r->state == ST_MOVES;
  if (r->overflow || r->depth >= ARB_PGN_MAX_DEPTH) {
    if (!r->overflow)
      report(r, ARB_PGN_LIMIT, t, 1, 0, "variations nested deeper than %d are not replayed",
             ARB_PGN_MAX_DEPTH);
    r->overflow++;
    return;
  }
  if (!ensure_stack(r, r->depth + 1)) {
    r->overflow++;
    return;
  }
  line_state *P = &r->stack[r->depth];
  line_state *V = &r->stack[r->depth + 1];
  r->depth++;
  V->dead = 1;
  V->has_prev = 0;
  V->ply = P->ply;
  if (replay && !(r->opt.flags & ARB_PGN_NO_VARIATIONS)) {
    if (!P->has_prev) {
      if (!P->dead) report(r, ARB_PGN_VARIATION, t, 1, 0, "a variation before the first move");
    } else if (!P->dead) {
      /* The variation replaces the line's last move.  (In a dead line the last move written was
       * not understood, so its alternatives cannot be placed either.) */
      V->pos = P->prev;
      V->ply = P->ply - 1;
      V->dead = 0;
    }
  }
  if (r->v.begin_variation && !r->user_skip && r->v.begin_variation(r->v.ctx, r->depth))
    r->user_skip = 1;
}

static void close_variation(arb_pgn_reader *r, const char *t) {
  r->after_move = 0;
  if (r->overflow) {
    r->overflow--;
    return;
  }
  if (r->depth == 0) {
    report(r, ARB_PGN_VARIATION, t, 1, 0, "')' without an open variation");
    return;
  }
  if (r->v.end_variation && !r->user_skip && r->v.end_variation(r->v.ctx, r->depth))
    r->user_skip = 1;
  r->depth--;
}

static void nag_token(arb_pgn_reader *r, const char *t, size_t n) {
  int v = 0;
  if (t[0] == '$') {
    if (n == 1 || n > 4) {
      report(r, ARB_PGN_SYNTAX, t, n, 0, "bad NAG %.*s (NAGs are $0 to $255)", (int)(n > 8 ? 8 : n),
             t);
      return;
    }
    for (size_t i = 1; i < n; i++)
      v = v * 10 + (t[i] - '0');
    if (v > 255) {
      report(r, ARB_PGN_SYNTAX, t, n, 0, "NAG %.*s out of range (0 to 255)", (int)n, t);
      return;
    }
  } else {
    static const char *const marks[] = {"!", "?", "!!", "??", "!?", "?!"};
    for (int i = 0; i < 6; i++)
      if (strlen(marks[i]) == n && memcmp(marks[i], t, n) == 0) v = i + 1;
    if (!v) {
      report(r, ARB_PGN_SYNTAX, t, n, 0, "unknown annotation %.*s", (int)(n > 8 ? 8 : n), t);
      return;
    }
  }
  if (r->v.nag && !r->user_skip && r->state == ST_MOVES && r->v.nag(r->v.ctx, v, r->depth))
    r->user_skip = 1;
}

static void result_token(arb_pgn_reader *r, const char *t, arb_result res) {
  /* A result inside a variation says how that line ends: not the game's end. */
  if (r->depth > 0 || r->overflow) return;
  r->has_mt_result = 1;
  r->mt_result = res;
  end_game(r, t);
}

/* The number written by the digits that start t (saturated), and in *len how many there are. */
static uint32_t number_at(const char *t, size_t n, size_t *len) {
  size_t i = 0;
  uint32_t num = 0;
  while (i < n && t[i] >= '0' && t[i] <= '9') {
    if (num < 100000000u) num = num * 10 + (uint32_t)(t[i] - '0');
    i++;
  }
  *len = i;
  return num;
}

/* A move number read in movetext (0 counts as 1): strict reading compares it with the next
 * move's. */
static void number_read(arb_pgn_reader *r, uint32_t num) {
  r->number_seen = num ? num : 1;
  r->after_move = 0;
}

/* A symbol token in movetext: move number, result, move, or "e.p.". */
static void symbol_token(arb_pgn_reader *r, const char *t, size_t n) {
  arb_result res;
  if ((t[0] == '0' || t[0] == '1') && arb_pgn_result_parse(t, n, &res) == 0) {
    result_token(r, t, res);
    return;
  }
  if (t[0] >= '0' && t[0] <= '9' && !(n >= 3 && memcmp(t, "0-0", 3) == 0) &&
      !(n == 4 && memcmp(t, "0000", 4) == 0)) {
    size_t i;
    uint32_t num = number_at(t, n, &i);
    if (i == n || t[i] == '.') {
      if (i == n && (r->opt.flags & ARB_PGN_STRICT))
        report(r, ARB_PGN_NOT_STRICT, t, n, 0, "move number %.*s without a period", (int)n, t);
      number_read(r, num);
      return; /* the caller continues after the dots */
    }
  }
  if (t[0] == '.') { /* "..." apart from its number: "1 ... e5" */
    if (r->opt.flags & ARB_PGN_STRICT)
      report(r, ARB_PGN_NOT_STRICT, t, n, 0, "periods apart from their move number");
    return;
  }
  if (r->after_move &&
      ((n == 4 && memcmp(t, "e.p.", 4) == 0) || (n == 2 && memcmp(t, "ep", 2) == 0))) {
    if (r->opt.flags & ARB_PGN_STRICT)
      report(r, ARB_PGN_NOT_STRICT, t, n, r->stack[r->depth].ply, "\"%.*s\" is not part of SAN",
             (int)n, t);
    return;
  }
  move_token(r, t, n);
}

/* ---- the tokenizer ---- */

/* Length of the token starting at p, or 0 when more input is needed to know it.  Sets *kind:
 * '[' tag, '{' comment, ';' line comment, '%' escape line, '(' ')' '$' '!' '*', 's' symbol,
 * 'j' junk. */
/* Length of the token starting at p, or 0 when more input is needed to know it.  Sets *kind:
 * '[' tag, '{' comment, ';' line comment, '%' escape line, '(' ')' '$' '!' '*', 's' symbol,
 * 'j' junk.  A token waiting for more input is not scanned again from its start:
 * r->resume remembers how far the scan got (and r->resume_quoted the tag's quoting state), so
 * feeding a long token byte by byte stays linear.  No token grows beyond ARB_PGN_MAX_TOKEN. */
static size_t token_at(arb_pgn_reader *r, const char *p, const char *end, int final, int *kind) {
  const unsigned char c = (unsigned char)*p;
  const int more = !final && end - p <= (long)ARB_PGN_MAX_TOKEN; /* may wait for more input */
  /* The remembered progress belongs to the token that starts at resume_at, if this is it. */
  const uint64_t at = r->base + (uint64_t)(p - r->buf);
  const char *from = p + 1 + (at == r->resume_at ? r->resume : 0);
  const char *q;
  r->resume = 0;
  r->resume_at = at;
  switch (c) {
  case '[': {
    /* Up to ']' outside quotes, or to the end of the line for a broken tag. */
    *kind = '[';
    int quoted = from > p + 1 ? r->resume_quoted : 0;
    r->resume_quoted = 0;
    for (q = from; q < end; q++) {
      if (quoted) {
        if (*q == '\\' && (q + 1 == end || q[1] == '"' || q[1] == '\\')) {
          if (q + 1 == end) break; /* decide when the next byte is known */
          q++;
        } else if (*q == '"') {
          quoted = 0;
        } else if (*q == '\n') {
          return (size_t)(q - p);
        }
      } else if (*q == '"') {
        quoted = 1;
      } else if (*q == ']') {
        return (size_t)(q + 1 - p);
      } else if (*q == '\n') {
        return (size_t)(q - p);
      }
    }
    if (!more) return (size_t)(end - p);
    r->resume = (size_t)(q - p - 1);
    r->resume_quoted = (uint8_t)quoted;
    return 0;
  }
  case '{':
  case ';':
  case '%':
    *kind = c;
    q = memchr(from, c == '{' ? '}' : '\n', (size_t)(end - from));
    if (q) return (size_t)(q + (c == '{') - p);
    if (!more) return (size_t)(end - p);
    r->resume = (size_t)(end - p - 1);
    return 0;
  case '(':
  case ')':
  case '*': *kind = c; return 1;
  default: break;
  }
  if (c == '$' || c == '!' || c == '?') {
    *kind = c == '$' ? '$' : '!';
    for (q = from; q < end && (c == '$' ? (*q >= '0' && *q <= '9') : (*q == '!' || *q == '?')); q++)
      ;
  } else if (is_sym(c)) {
    *kind = 's';
    for (q = from; q < end && is_sym((unsigned char)*q); q++)
      ;
    /* "a8(Q)": a promotion in parentheses belongs to the move. */
    if (q < end && q[0] == '(') {
      if (end - q >= 3 && q[2] == ')' && q[1] && strchr("QRBNqrbn", q[1]))
        return (size_t)(q + 3 - p); /* the ')' ends the token, whatever follows */
      else if (end - q < 3 && more) {
        r->resume = (size_t)(q - p - 1);
        return 0;
      }
    }
  } else {
    /* Junk: up to the next blank or a character that starts a real token. */
    *kind = 'j';
    for (q = from; q < end; q++) {
      unsigned char d = (unsigned char)*q;
      if (d == ' ' || d == '\n' || d == '\t' || d == '\r' || d == '[' || d == '{' || d == '(' ||
          d == ')')
        break;
    }
  }
  if (q == end && more) {
    r->resume = (size_t)(end - p - 1);
    return 0;
  }
  return (size_t)(q - p);
}

/* Counts the newlines inside a token (tags and comments may span lines). */
static void advance_lines(arb_pgn_reader *r, const char *p, size_t n) {
  const char *q = p, *e = p + n;
  while ((q = memchr(q, '\n', (size_t)(e - q))) != NULL) {
    r->line++;
    q++;
    r->line_start = r->base + (uint64_t)(q - r->buf);
  }
}

/* A symbol token in movetext, a move number glued to its move ("1.e4") split after the dots. */
static void symbol_text(arb_pgn_reader *r, const char *t, size_t n) {
  size_t i;
  uint32_t num = number_at(t, n, &i);
  if (i > 0 && i < n && t[i] == '.') {
    number_read(r, num); /* a move number and its dots: not read again by symbol_token */
    while (i < n && t[i] == '.')
      i++;
    if (i < n && (r->opt.flags & ARB_PGN_STRICT))
      report(r, ARB_PGN_NOT_STRICT, t, n, 0, "move number glued to its move: %.*s",
             (int)(n > 16 ? 16 : n), t);
    if (i < n) symbol_token(r, t + i, n - i);
  } else {
    symbol_token(r, t, n);
  }
}

/* Whether t looks like the start of a tag pair: '[', a name, a '"'. */
static int looks_like_tag(const char *t, size_t n) {
  size_t b, i = tag_name(t, n, &b);
  if (i == b) return 0;
  while (i < n && is_ws((unsigned char)t[i]))
    i++;
  return i < n && t[i] == '"';
}

/* The game-boundary part of a tag token: a tag after movetext starts the next game, and so does
 * a Seven Tag Roster tag seen already in this header when a blank line comes before it (a game
 * with tags and no movetext).  Between games, only something that looks like a tag starts a
 * game (a stray '[' is junk).  Returns 0 when the token is junk and must be dropped. */
static int tag_start(arb_pgn_reader *r, const char *t, size_t n, int blank_before) {
  if (r->state == ST_HEADER && blank_before) {
    size_t b, e = tag_name(t, n, &b);
    int roster = arb__pgn_roster_index(t + b, e - b);
    if (roster >= 0 && ((r->str_seen >> roster) & 1)) end_game(r, t);
  }
  if (r->state == ST_MOVES || r->state == ST_SKIP) end_game(r, t);
  if (r->state == ST_BETWEEN) {
    if (!looks_like_tag(t, n)) {
      if (!r->junk_reported) report(r, ARB_PGN_SYNTAX, t, n, 0, "unexpected text between games");
      r->junk_reported = 1;
      r->game_errors = 0;
      return 0;
    }
    r->pending_len = 0; /* comments before a tag section belong to no game */
    begin_game(r);
  }
  return 1;
}

/* Processes one complete token. */
static void process_token(arb_pgn_reader *r, const char *t, size_t n, int kind, int blank_before) {
  int at_line_start = r->base + (uint64_t)(t - r->buf) == r->line_start;
  if (kind == '%' && at_line_start) return; /* escape line: ignored */
  if (kind == '[') {
    if (tag_start(r, t, n, blank_before)) tag_token(r, t, n);
    return;
  }
  if (r->state == ST_BETWEEN) {
    if (kind == '{' || kind == ';') {
      /* Text between games, or the starting comment of a game without tags: kept until it is
       * known which. */
      size_t b = kind == '{' && n >= 2 && t[n - 1] == '}' ? 1 : 0;
      hold_comment(r, t + 1, n - 1 - b);
      return;
    }
    if (kind == '%') return;
    if (kind == 'j' || kind == ')' || kind == '$' || kind == '!') {
      if (!r->junk_reported) report(r, ARB_PGN_SYNTAX, t, n, 0, "unexpected text between games");
      r->junk_reported = 1;
      r->game_errors = 0;
      return;
    }
    /* Movetext without tags: a game of its own, and the comments before it are its own. */
    begin_game(r);
    begin_moves(r, t);
    release_comments(r);
  }
  if (r->state == ST_HEADER) begin_moves(r, t);
  switch (kind) {
  case '{':
    if (n < 2 || t[n - 1] != '}') {
      report(r, ARB_PGN_TRUNCATED, t, 1, 0, "comment not closed before the end of the input");
      comment_token(r, t + 1, n - 1);
    } else {
      comment_token(r, t + 1, n - 2);
    }
    break;
  case ';': comment_token(r, t + 1, n - 1); break;
  case '%': report(r, ARB_PGN_SYNTAX, t, 1, 0, "'%%' escape not at the start of a line"); break;
  case '(': open_variation(r, t); break;
  case ')': close_variation(r, t); break;
  case '$':
  case '!': nag_token(r, t, n); break;
  case '*': result_token(r, t, ARB_RESULT_NONE); break;
  case 's': symbol_text(r, t, n); break;
  default:
    if (r->state != ST_SKIP)
      report(r, ARB_PGN_SYNTAX, t, n, 0, "unexpected text \"%.*s\"", (int)(n > 16 ? 16 : n), t);
    if (r->state == ST_MOVES) r->stack[r->depth].dead = 1;
    break;
  }
}

/* The common tag pair at p ('['): '[' name ' ' '"' value '"' ']', whole in the buffer, of an
 * ordinary length, its value without a backslash or a line end.  Does what token_at,
 * process_token and tag_token do for it, reading it once; returns where it stopped: p when the
 * text is not that, left to them. */
static char *tag_line(arb_pgn_reader *r, char *p, const char *end, int final) {
  const char *limit = end - p > (long)ARB_PGN_MAX_TOKEN ? p + ARB_PGN_MAX_TOKEN : end;
  size_t name_b;
  const size_t name_e = tag_name(p, (size_t)(limit - p), &name_b);
  const char *q = p + name_e;
  if (name_b != 1 || name_e == 1 || limit - q < 2 || q[0] != ' ' || q[1] != '"') return p;
  const char *v = q + 2;
  for (q = v; q < limit && *q != '"' && *q != '\\' && *q != '\n' && *q != '\r'; q++)
    ;
  if (limit - q < 2 || q[0] != '"' || q[1] != ']') return p;
  const size_t n = (size_t)(q + 2 - p), k = (size_t)(q - v);
  const int blank = r->newlines >= 2;
  r->newlines = 0;
  r->token_at_end = final && p + n == end;
  if (tag_start(r, p, n, blank)) {
    strict_tag_name(r, p, 1, name_e);
    char *val = tag_value_room(r, p, n);
    if (val) tag_pair(r, p, n, 1, name_e, memcpy(val, v, k), k);
  }
  return p + n;
}

/* The common tokens of movetext from p, while the game is in its movetext: blanks, symbols
 * and {comments}, each whole in the buffer and of an ordinary length (no resumed scan).  Does
 * what token_at and process_token do for them, without their general dispatch; returns where
 * it stopped, at the first byte it leaves to them. */
static char *movetext_run(arb_pgn_reader *r, char *p, const char *end, int final) {
  while (p < end && r->state == ST_MOVES) {
    const unsigned char c = (unsigned char)*p;
    const int cls = byte_class[c];
    if (cls == BLANK) {
      p++;
    } else if (cls == SYMBOL) {
      char *q = p + 1;
      while (q < end && byte_class[(unsigned char)*q] == SYMBOL)
        q++;
      if (q == end || *q == '(' || (size_t)(q - p) > ARB_PGN_MAX_TOKEN) break;
      r->newlines = 0;
      r->token_at_end = 0;
      symbol_text(r, p, (size_t)(q - p));
      p = q;
    } else if (c == '{') {
      char *q = memchr(p + 1, '}', (size_t)(end - p - 1));
      if (!q || (size_t)(q + 1 - p) > ARB_PGN_MAX_TOKEN) break;
      size_t n = (size_t)(q + 1 - p);
      r->newlines = 0;
      r->token_at_end = final && q + 1 == end;
      comment_token(r, p + 1, n - 2);
      advance_lines(r, p, n);
      p += n;
    } else {
      break;
    }
  }
  return p;
}

/* Tokenizes buf[head, tail); at the end of the input (final) every remaining byte is used. */
static void run(arb_pgn_reader *r, int final) {
  char *p = r->buf + r->head, *end = r->buf + r->tail;
  if (!r->bom_checked) {
    if (end - p < 3 && !final) return;
    r->bom_checked = 1;
    if (end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
  }
  while (p < end) {
    if (r->discard) {
      char *q;
      if (r->discard == ' ') { /* the rest of an over-long symbol: up to a blank */
        for (q = p; q < end && !is_ws((unsigned char)*q) && *q != '\n'; q++)
          ;
        if (q == end) q = NULL;
      } else {
        q = memchr(p, r->discard == '{' ? '}' : '\n', (size_t)(end - p));
      }
      char *stop = q ? q + (r->discard == '{') : end;
      advance_lines(r, p, (size_t)(stop - p));
      p = stop;
      if (q) r->discard = 0;
      continue;
    }
    unsigned char c = (unsigned char)*p;
    if (byte_class[c] == BLANK) {
      do
        p++;
      while (p < end && byte_class[(unsigned char)*p] == BLANK);
      continue;
    }
    if (c == '\n') {
      r->line++;
      r->newlines++;
      p++;
      r->line_start = r->base + (uint64_t)(p - r->buf);
      continue;
    }
    /* A byte order mark between concatenated files. */
    if (c == 0xEF && end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
      p += 3;
      continue;
    }
    if (r->state == ST_MOVES && !r->resume) {
      char *q = movetext_run(r, p, end, final);
      if (q != p) {
        p = q;
        continue;
      }
    }
    if (c == '[' && !r->resume) {
      char *q = tag_line(r, p, end, final);
      if (q != p) {
        p = q;
        continue;
      }
    }
    int kind;
    size_t n = token_at(r, p, end, final, &kind);
    if (n == 0) break;
    int blank = r->newlines >= 2;
    r->newlines = 0;
    if (n > ARB_PGN_MAX_TOKEN &&
        (kind == '{' || kind == ';' || kind == '%' || kind == '[' || kind == 's' || kind == 'j')) {
      /* Longer than any real token: reported and dropped, up to its natural end. */
      int closed = p + n < end || final;
      if (kind == '{') closed = p[n - 1] == '}';
      if (kind == '[') {
        closed = p[n - 1] == ']' || (p + n < end && p[n] == '\n') || final;
        if (tag_start(r, p, n, blank))
          report(r, ARB_PGN_LIMIT, p, 1, 0, "tag longer than %u bytes: dropped",
                 (unsigned)ARB_PGN_MAX_TOKEN);
      } else {
        report(r, ARB_PGN_LIMIT, p, 1, 0, "%s longer than %u bytes: dropped",
               kind == 's' || kind == 'j' ? "token" : "comment", (unsigned)ARB_PGN_MAX_TOKEN);
        if (r->state == ST_MOVES && (kind == 's' || kind == 'j')) r->stack[r->depth].dead = 1;
      }
      if (kind == '{') advance_lines(r, p, n);
      p += n;
      if (!closed) r->discard = kind == '{' ? '{' : kind == 's' || kind == 'j' ? ' ' : ';';
      continue;
    }
    r->token_at_end = final && p + n == end;
    process_token(r, p, n, kind, blank);
    if (kind == '{') advance_lines(r, p, n); /* other tokens end before a line end */
    p += n;
  }
  r->head = (size_t)(p - r->buf);
}

/* ---- public entry points ---- */

arb_pgn_reader *arb_pgn_reader_new(const arb_pgn_options *opts, const arb_pgn_visitor *visitor) {
  arb_init();
  arb_pgn_reader *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  if (opts) r->opt = *opts;
  if (visitor) r->v = *visitor;
  r->ruleset = arb_rules_get(r->opt.rules) ? r->opt.rules : ARB_RULES_FIDE;
  r->rules = arb_rules_get(r->ruleset);
  r->cap = 1u << 16;
  r->buf = malloc(r->cap);
  if (!r->buf || !scratch_for(r, 1024) || !ensure_stack(r, 0)) {
    arb_pgn_reader_free(r);
    return NULL;
  }
  r->line = r->opt.first_line ? r->opt.first_line : 1;
  r->game = r->opt.first_game ? r->opt.first_game - 1 : 0;
  r->state = ST_BETWEEN;
  return r;
}

void arb_pgn_reader_free(arb_pgn_reader *r) {
  if (!r) return;
  free(r->buf);
  free(r->scratch);
  free(r->stack);
  free(r->pending);
  free(r);
}

arb_status arb_pgn_reader_feed(arb_pgn_reader *r, const void *data, size_t len) {
  const char *d = data;
  r->stats.bytes += len;
  while (len > 0) {
    /* Compact: move the unread tail to the front. */
    if (r->head > 0) {
      size_t keep = r->tail - r->head;
      memmove(r->buf, r->buf + r->head, keep);
      r->base += r->head;
      r->head = 0;
      r->tail = keep;
    }
    if (r->tail == r->cap) {
      /* One token fills the buffer: grow (a token is bounded, see token_at). */
      size_t cap = r->cap * 2;
      char *b = realloc(r->buf, cap);
      if (!b) return ARB_ERR_NO_MEMORY;
      r->buf = b;
      r->cap = cap;
    }
    size_t room = r->cap - r->tail, k = len < room ? len : room;
    memcpy(r->buf + r->tail, d, k);
    r->tail += k;
    d += k;
    len -= k;
    run(r, 0);
  }
  return ARB_OK;
}

arb_status arb_pgn_reader_finish(arb_pgn_reader *r) {
  run(r, 1);
  r->discard = 0;
  r->resume = 0;
  r->resume_quoted = 0;
  if (r->state == ST_HEADER || r->state == ST_MOVES || r->state == ST_SKIP) {
    end_game(r, r->buf + r->tail);
  }
  /* A new input starts afresh. */
  r->head = r->tail = 0;
  r->base = 0;
  r->line = r->opt.first_line ? r->opt.first_line : 1;
  r->line_start = 0;
  r->game = r->opt.first_game ? r->opt.first_game - 1 : 0;
  r->newlines = 0;
  r->bom_checked = 0;
  r->state = ST_BETWEEN;
  r->pending_len = 0;
  return ARB_OK;
}

void arb_pgn_reader_stats(const arb_pgn_reader *r, arb_pgn_stats *s) { *s = r->stats; }
