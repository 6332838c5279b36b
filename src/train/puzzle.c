/* Arbiter — MIT licence, see LICENSE.
 *
 * puzzle.c: lichess puzzle CSV records and their proof by the solver (train.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/game.h"
#include "arbiter/status.h"
#include "arbiter/train.h"

static const char header[] =
    "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags";

const char *arb_puzzle_csv_header(void) { return header; }

static const char *const verdict_names[] = {"ok",        "second_solution", "no_solution",
                                            "unchecked", "unknown",         "bad"};

const char *arb_puzzle_verdict_name(arb_puzzle_verdict v) {
  return (unsigned)v < sizeof verdict_names / sizeof verdict_names[0] ? verdict_names[v] : "";
}

/* The next field of a CSV line from *at (RFC 4180: a quoted field may hold commas and doubled
 * quotes), unquoted into out.  Returns 0, or -1 when it does not fit or a quote is unclosed. */
static int next_field(const char *line, size_t len, size_t *at, char *out, size_t size) {
  size_t i = *at, o = 0;
  int quoted = i < len && line[i] == '"';
  if (quoted) i++;
  for (; i < len; i++) {
    char c = line[i];
    if (quoted && c == '"') {
      if (i + 1 < len && line[i + 1] == '"') {
        i++;
      } else {
        quoted = 2; /* closed */
        i++;
        break;
      }
    } else if (!quoted && c == ',') {
      break;
    }
    if (o + 1 >= size) return -1;
    out[o++] = c;
  }
  if (quoted == 1) return -1;
  if (quoted == 2 && i < len && line[i] != ',') return -1;
  out[o] = 0;
  *at = i < len ? i + 1 : len + 1;
  return 0;
}

static int to_int(const char *s, int *v) {
  char *end;
  long x = strtol(s, &end, 10);
  if (!*s || *end || x < -1000000 || x > 1000000) return -1;
  *v = (int)x;
  return 0;
}

arb_status arb_puzzle_csv_read(const char *line, size_t len, arb_puzzle *p, char *err,
                               size_t err_size) {
  static const char *const names[10] = {"PuzzleId",        "FEN",        "Moves",   "Rating",
                                        "RatingDeviation", "Popularity", "NbPlays", "Themes",
                                        "GameUrl",         "OpeningTags"};
  char field[10][512];
  size_t at = 0;
  memset(p, 0, sizeof *p);
  while (len && (line[len - 1] == '\r' || line[len - 1] == '\n'))
    len--;
  if (len >= 8 && !memcmp(line, "PuzzleId", 8)) {
    snprintf(err, err_size, "the header");
    return ARB_ERR_ARGUMENT;
  }
  int nf = 0;
  for (; nf < 10 && at <= len; nf++)
    if (next_field(line, len, &at, field[nf], sizeof field[nf])) {
      snprintf(err, err_size, "%s: too long, or a quote is not closed", names[nf]);
      return ARB_ERR_ARGUMENT;
    }
  if (nf < 8) {
    snprintf(err, err_size, "%d fields, not 10 (%s)", nf, header);
    return ARB_ERR_ARGUMENT;
  }
  if (at <= len) {
    snprintf(err, err_size, "more than 10 fields");
    return ARB_ERR_ARGUMENT;
  }
  for (; nf < 10; nf++)
    field[nf][0] = 0;
#define COPY(dst, i)                                                                               \
  do {                                                                                             \
    if (strlen(field[i]) >= sizeof(dst)) {                                                         \
      snprintf(err, err_size, "%s: too long", names[i]);                                           \
      return ARB_ERR_ARGUMENT;                                                                     \
    }                                                                                              \
    strcpy(dst, field[i]);                                                                         \
  } while (0)
  COPY(p->id, 0);
  COPY(p->fen, 1);
  COPY(p->themes, 7);
  COPY(p->game_url, 8);
  COPY(p->openings, 9);
#undef COPY
  if (!p->id[0]) {
    snprintf(err, err_size, "PuzzleId: empty");
    return ARB_ERR_ARGUMENT;
  }
  for (char *m = field[2], *next; *m; m = next) {
    while (*m == ' ')
      m++;
    if (!*m) break;
    next = m + strcspn(m, " ");
    if (*next) *next++ = 0;
    size_t n = strlen(m);
    if (n < 4 || n > 5 || p->nmoves == ARB_PUZZLE_MAX_MOVES) {
      snprintf(err, err_size, "Moves: '%.12s' is not a UCI move, or more than %d moves", m,
               ARB_PUZZLE_MAX_MOVES);
      return ARB_ERR_ARGUMENT;
    }
    memcpy(p->moves[p->nmoves++], m, n + 1);
  }
  if (p->nmoves < 2) {
    snprintf(err, err_size, "Moves: the opponent's move and at least one solver move");
    return ARB_ERR_ARGUMENT;
  }
  int *ints[4] = {&p->rating, &p->rating_deviation, &p->popularity, &p->plays};
  for (int i = 0; i < 4; i++)
    if (to_int(field[3 + i], ints[i])) {
      snprintf(err, err_size, "%s: '%.16s' is not a whole number", names[3 + i], field[3 + i]);
      return ARB_ERR_ARGUMENT;
    }
  return ARB_OK;
}

/* Appends a CSV field, quoted when it must be. */
static size_t put_field(char *buf, size_t size, size_t at, const char *s, int comma) {
  int quote = strchr(s, ',') || strchr(s, '"');
  char tmp[600];
  size_t n = 0;
  if (comma && n + 1 < sizeof tmp) tmp[n++] = ',';
  if (quote) tmp[n++] = '"';
  for (const char *c = s; *c && n + 3 < sizeof tmp; c++) {
    if (*c == '"') tmp[n++] = '"';
    tmp[n++] = *c;
  }
  if (quote) tmp[n++] = '"';
  if (at < size) {
    size_t room = size - at - 1;
    memcpy(buf + at, tmp, n < room ? n : room);
    buf[at + (n < room ? n : room)] = 0;
  }
  return at + n;
}

int arb_puzzle_csv_write(const arb_puzzle *p, char *buf, size_t size) {
  char moves[ARB_PUZZLE_MAX_MOVES * 6 + 1] = "", nums[4][16];
  for (int i = 0; i < p->nmoves; i++) {
    if (i) strcat(moves, " ");
    strcat(moves, p->moves[i]);
  }
  snprintf(nums[0], sizeof nums[0], "%d", p->rating);
  snprintf(nums[1], sizeof nums[1], "%d", p->rating_deviation);
  snprintf(nums[2], sizeof nums[2], "%d", p->popularity);
  snprintf(nums[3], sizeof nums[3], "%d", p->plays);
  const char *f[10] = {p->id,   p->fen,  moves,     nums[0],     nums[1],
                       nums[2], nums[3], p->themes, p->game_url, p->openings};
  if (size) buf[0] = 0;
  size_t at = 0;
  for (int i = 0; i < 10; i++)
    at = put_field(buf, size, at, f[i], i > 0);
  return (int)at;
}

int arb_puzzle_has_theme(const arb_puzzle *p, const char *theme) {
  size_t n = strlen(theme);
  if (!n || strchr(theme, ' ')) return 0; /* one theme, not a list */
  for (const char *t = p->themes; (t = strstr(t, theme)); t += n)
    if ((t == p->themes || t[-1] == ' ') && (t[n] == 0 || t[n] == ' ')) return 1;
  return 0;
}

static arb_status bad(arb_puzzle_check *out, int ply, const char *fmt, const char *what) {
  out->verdict = ARB_PUZZLE_BAD;
  out->ply = ply;
  snprintf(out->message, sizeof out->message, fmt, what);
  return ARB_OK;
}

arb_status arb_puzzle_check_record(arb_solver *s, const arb_puzzle *p, uint64_t budget,
                                   arb_puzzle_check *out) {
  if (!s || !p || !out) return ARB_ERR_ARGUMENT;
  memset(out, 0, sizeof *out);
  arb_position pos, line[ARB_PUZZLE_MAX_MOVES + 1];
  arb_move moves[ARB_PUZZLE_MAX_MOVES];
  arb_fen_report rep;
  if (arb_fen_read(&pos, p->fen, 0, &rep) != ARB_OK)
    return bad(out, 0, "the FEN: %.140s", rep.message);
  line[0] = pos;
  for (int i = 0; i < p->nmoves; i++) {
    if (arb_uci_read(&line[i], p->moves[i], strlen(p->moves[i]), 0, &moves[i]) != ARB_OK)
      return bad(out, i, "%s is not a legal move there", p->moves[i]);
    line[i + 1] = line[i];
    arb_undo u;
    arb_make_move(&line[i + 1], moves[i], &u);
  }
  /* how the line ends: the solver (to move after the opponent's first move) mates, or a draw */
  const arb_position *end = &line[p->nmoves];
  int solver = line[1].turn;
  if (!arb_has_legal_move(end) && arb_in_check(end) && end->turn != solver)
    out->goal = ARB_SOLVE_MATE;
  else if (!arb_has_legal_move(end) || arb_is_dead_position(end))
    out->goal = ARB_SOLVE_DRAW;
  else {
    out->verdict = ARB_PUZZLE_UNCHECKED;
    snprintf(out->message, sizeof out->message,
             "the line ends in neither mate nor a draw: a judgement, not a proof");
    return ARB_OK;
  }
  if (p->nmoves % 2) { /* the opponent's move last: the line ends with the opponent's move */
    out->verdict = ARB_PUZZLE_UNCHECKED;
    snprintf(out->message, sizeof out->message, "the line ends with the opponent's move");
    return ARB_OK;
  }
  int k = p->nmoves / 2;
  out->length = k;
  arb_solve_result *rp = malloc(sizeof *rp); /* large: not on the stack */
  if (!rp) return ARB_ERR_NO_MEMORY;
#define r (*rp)
  for (int i = 0; i < k; i++) {
    int ply = 1 + 2 * i, left = k - i;
    if (arb_solve(s, &line[ply], out->goal, left, budget, &r) != ARB_OK) {
      free(rp);
      return bad(out, ply, "%s", "the position cannot be searched");
    }
    if (!r.keys_complete || r.verdict == ARB_SOLVE_UNKNOWN) {
      out->verdict = ARB_PUZZLE_UNKNOWN;
      out->ply = ply;
      snprintf(out->message, sizeof out->message, "the node budget ran out at ply %d", ply);
      goto done;
    }
    int found = 0;
    for (int j = 0; j < r.nkeys; j++)
      found |= r.keys[j] == moves[ply];
    if (!found) {
      out->verdict = ARB_PUZZLE_NO_SOLUTION;
      out->ply = ply;
      snprintf(out->message, sizeof out->message, "%s does not force %s within %d moves",
               p->moves[ply], out->goal == ARB_SOLVE_MATE ? "mate" : "a draw", left);
      goto done;
    }
    if (left == 1) {
      out->last_alternatives = r.nkeys - 1;
      continue;
    }
    for (int j = 0; j < r.nkeys; j++)
      if (r.keys[j] != moves[ply]) {
        out->verdict = ARB_PUZZLE_SECOND;
        out->ply = ply;
        arb_uci_write(&line[ply], r.keys[j], out->other, sizeof out->other);
        snprintf(out->message, sizeof out->message, "%s also forces %s within %d moves", out->other,
                 out->goal == ARB_SOLVE_MATE ? "mate" : "a draw", left);
        goto done;
      }
  }
  out->verdict = ARB_PUZZLE_OK;
done:
#undef r
  free(rp);
  return ARB_OK;
}

/* ---- a learner's move, judged ---- */

int arb_puzzle_move_right(const arb_position *p, arb_move m, arb_move expected, int final,
                          arb_solve_goal goal) {
  if (m == expected) return 1;
  if (!final) return 0;
  arb_position q = *p;
  arb_undo u;
  arb_make_move(&q, m, &u);
  if (!arb_has_legal_move(&q)) return goal == ARB_SOLVE_DRAW || arb_in_check(&q);
  return goal == ARB_SOLVE_DRAW && arb_is_dead_position(&q);
}

const char *arb_puzzle_why_wrong(arb_solver *s, const arb_position *p, arb_move m,
                                 arb_solve_goal goal, int left, uint64_t budget, char *buf,
                                 size_t size) {
  char san[ARB_SAN_MAX];
  arb_san_write(p, m, san, sizeof san);
  arb_position after = *p;
  arb_undo u;
  arb_make_move(&after, m, &u);
  if (!arb_has_legal_move(&after) && !arb_in_check(&after)) {
    snprintf(buf, size, "%s is stalemate: the game is only drawn%s", san,
             goal == ARB_SOLVE_MATE ? ", and there was a mate" : "");
    return buf;
  }
  if (goal == ARB_SOLVE_MATE && arb_is_dead_position(&after)) {
    snprintf(buf, size, "after %s nobody can mate any more: a dead position, drawn", san);
    return buf;
  }
  const char *what = goal == ARB_SOLVE_MATE ? "mate" : "a draw";
  arb_move replies[ARB_MAX_MOVES];
  int n = arb_generate_legal(&after, replies);
  arb_solve_result r;
  for (int i = 0; s && i < n && left > 1; i++) {
    arb_position x = after;
    arb_make_move(&x, replies[i], &u);
    if (arb_solve(s, &x, goal, left - 1, budget ? budget : 200000, &r) == ARB_OK &&
        r.verdict == ARB_SOLVE_NONE) {
      char rs[ARB_SAN_MAX];
      arb_san_write(&after, replies[i], rs, sizeof rs);
      snprintf(buf, size, "%s does not force %s: %s answers it, and %s is no longer forced", san,
               what, rs, what);
      return buf;
    }
  }
  snprintf(buf, size, "%s does not force %s within %d move%s", san, what, left,
           left == 1 ? "" : "s");
  return buf;
}

const char *arb_puzzle_kind_theme(const arb_puzzle *p) {
  static const char *const kinds[] = {"stalemateTrap", "stalemateRescue", "underPromotion",
                                      "mateIn1",       "mateIn2",         "mateIn3",
                                      "mateIn4",       "enPassant",       "castling"};
  for (size_t k = 0; p && k < sizeof kinds / sizeof kinds[0]; k++)
    if (arb_puzzle_has_theme(p, kinds[k])) return kinds[k];
  return "tactics";
}
