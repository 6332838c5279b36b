/* Arbiter — MIT licence, see LICENSE.
 *
 * play_cmd.c: `arbiter play` — a game in the terminal against a UCI engine (engine/uci.c) or a
 * second person at the same keyboard, decided by the library's referee (arbiter/referee.h):
 * clocks in real time under any time control (a flag falls the moment it is down), moves in SAN
 * or UCI with the referee's reason when one is refused, offers, claims with an intended move,
 * resignation, takebacks under casual rules, the result in words, the game saved as PGN with
 * %clk and %emt (also on Ctrl-C), hints from the engine, and another game after the end.
 *
 * On a terminal the screen is redrawn in place (the clock line, on the first row, ticks while a
 * person thinks); when stdout is not a terminal the output is plain lines, one board a turn.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "arbiter/arbiter.h"
#include "level.h"
#include "uci.h"
#include "util.h"

/* The one default rule set of terminal play, against an engine or between people
 * (docs/commands.md lists every command's). */
#define PLAY_DEFAULT_RULES ARB_RULES_CASUAL

/* Ctrl-C (or a closed terminal, or kill): the game is saved before the program ends. */
static volatile sig_atomic_t interrupted;
static void on_signal(int sig) { interrupted = sig; }

typedef struct play {
  arb_referee *ref;
  arb_ref_setup setup;
  arb_position start;
  arb_time_control tc;
  int timed;
  arb_ruleset rules;
  int human[2]; /* which sides a person plays */
  const char *color_choice;
  const char *engine_path;
  uci_engine *engine;
  uci_limits fixed;                 /* depth / movetime / nodes when given */
  int level;                        /* --level, 0 when none */
  int last_score_valid, last_score; /* the engine's last evaluation, its own point of view */
  int colour, unicode, flip;
  int live;    /* stdin and stdout are a terminal: redraw in place, the clock ticks */
  int cleared; /* live: the screen was cleared once */
  int echoed;  /* stdin is a terminal, which echoes what is typed */
  int64_t t0;
  int games; /* games started in this session */
  int saved; /* the present game is in the PGN file */
  char names[2][64];
  char elo_text[16];
  char tc_words[64];
  char date[16];
  arb_ref_tag tags[4];
  char pgn_path[512];
  char notes[4096]; /* live: what to say on the next screen */
  size_t nnotes;
  arb_ref_decision d; /* the last decision */
} play;

static const char *Color(int c) { return c == ARB_WHITE ? "White" : "Black"; }

/* "You (White)", "Stockfish 15.1 (Black)", or "White" when the name is the colour. */
static const char *side_label(const play *p, int c, char *buf, size_t n) {
  if (!strcmp(p->names[c], Color(c))) return Color(c);
  snprintf(buf, n, "%s (%s)", p->names[c], Color(c));
  return buf;
}

/* Says something to the player: at once in plain output, on the next screen when live. */
static void say(play *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(play *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (!p->live) {
    vprintf(fmt, ap);
  } else if (p->nnotes < sizeof p->notes - 1) {
    int n = vsnprintf(p->notes + p->nnotes, sizeof p->notes - p->nnotes, fmt, ap);
    if (n > 0) p->nnotes += (size_t)n;
    if (p->nnotes > sizeof p->notes - 1) p->nnotes = sizeof p->notes - 1;
  }
  va_end(ap);
}

/* Live: what was said and not yet shown, printed as plain lines (before the program ends). */
static void flush_notes(play *p) {
  if (p->live && p->nnotes) fwrite(p->notes, 1, p->nnotes, stdout);
  p->nnotes = 0;
  p->notes[0] = 0;
}

static int term_cols(void) {
  struct winsize ws;
  if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
  return 80;
}

static void clock_text(int64_t ms, char *buf, size_t n) {
  if (ms < 0) ms = 0;
  if (ms < 10000)
    snprintf(buf, n, "%lld.%lld", (long long)(ms / 1000), (long long)(ms % 1000 / 100));
  else if (ms < 3600000)
    snprintf(buf, n, "%lld:%02lld", (long long)(ms / 60000), (long long)(ms / 1000 % 60));
  else
    snprintf(buf, n, "%lld:%02lld:%02lld", (long long)(ms / 3600000), (long long)(ms / 60000 % 60),
             (long long)(ms / 1000 % 60));
}

/* "Clocks: You 4:57 (running) | Stockfish 5:00" (timed games). */
static void clock_line(const play *p, char *buf, size_t n) {
  arb_ref_state s;
  arb_referee_state_of(p->ref, &s);
  int64_t now = arb_tool_now_ms() - p->t0;
  char w[32], b[32];
  clock_text(arb_clock_remaining(arb_referee_clock(p->ref), ARB_WHITE, now), w, sizeof w);
  clock_text(arb_clock_remaining(arb_referee_clock(p->ref), ARB_BLACK, now), b, sizeof b);
  snprintf(buf, n, "Clocks: %s %s%s | %s %s%s", p->names[0], w,
           s.running == ARB_WHITE && !s.over ? " (running)" : "", p->names[1], b,
           s.running == ARB_BLACK && !s.over ? " (running)" : "");
}

/* The terminal board's colours (xterm's 256-colour palette): mid-tone squares, so that white
 * pieces (231, white) and black pieces (16, black) both stand out on every square — a contrast
 * of at least 3:1 (WCAG's measure) for either piece on the light (137) and the dark (94)
 * squares, the last move's squares (100, 58) and a king in check (167). */
enum { SQ_LIGHT = 137, SQ_DARK = 94, SQ_LAST_LIGHT = 100, SQ_LAST_DARK = 58, SQ_CHECK = 167 };

static void draw_board(const play *p, FILE *out) {
  const arb_game *g = arb_referee_game(p->ref);
  const arb_position *pos = arb_game_position(g);
  int plies = arb_game_ply_count(g);
  arb_move last = plies ? arb_game_move_at(g, plies) : ARB_MOVE_NONE;
  int bottom_black = p->flip;
  static const char *const uni[7] = {" ", "♟", "♞", "♝", "♜", "♛", "♚"};
  static const char ascii[2][8] = {" PNBRQK", " pnbrqk"};
  fprintf(out, "\n");
  if (!p->colour) { /* plain text: the library's diagram */
    char text[ARB_DIAGRAM_TEXT_MAX];
    arb_diagram_text(pos,
                     ARB_DIAGRAM_COORDS | (p->unicode ? ARB_DIAGRAM_UNICODE : 0u) |
                         (bottom_black ? ARB_DIAGRAM_FLIP : 0u),
                     text, sizeof text);
    fputs(text, out);
    return;
  }
  /* a terminal with colours: the squares in colour, the last move and a king in check marked */
  arb_square ksq = arb_in_check(pos) ? arb_king_square(pos, (arb_color)pos->turn) : ARB_NO_SQUARE;
  for (int row = 0; row < 8; row++) {
    int rank = bottom_black ? row : 7 - row;
    fprintf(out, " %d ", rank + 1);
    for (int col = 0; col < 8; col++) {
      int file = bottom_black ? 7 - col : col;
      arb_square sq = ARB_SQUARE(file, rank);
      arb_piece pc = pos->board[sq];
      int light = (file + rank) % 2 == 1;
      int hl = last != ARB_MOVE_NONE && (ARB_MOVE_FROM(last) == sq || ARB_MOVE_TO(last) == sq);
      fprintf(out, "\033[1;48;5;%d;38;5;%dm",
              sq == ksq ? SQ_CHECK
              : hl      ? (light ? SQ_LAST_LIGHT : SQ_LAST_DARK)
              : light   ? SQ_LIGHT
                        : SQ_DARK,
              pc && ARB_PIECE_COLOR(pc) == ARB_WHITE ? 231 : 16);
      if (!pc)
        fprintf(out, "   ");
      else if (p->unicode) /* the solid glyphs, coloured */
        fprintf(out, " %s ", uni[ARB_PIECE_TYPE(pc)]);
      else
        fprintf(out, " %c ", ascii[ARB_PIECE_COLOR(pc)][ARB_PIECE_TYPE(pc)]);
      fprintf(out, "\033[0m");
    }
    fprintf(out, "\n");
  }
  fprintf(out, "   ");
  for (int col = 0; col < 8; col++)
    fprintf(out, " %c ", 'a' + (bottom_black ? 7 - col : col));
  fprintf(out, "\n");
}

/* The game's moves in SAN ("1. e4 e5 2. Nf3"); snprintf convention. */
static size_t moves_text(const arb_game *g, char *buf, size_t size) {
  size_t len = 0;
  int n = arb_game_ply_count(g);
  const arb_position *first = arb_game_position_at(g, 0);
  int black_first = first && first->turn == ARB_BLACK;
  unsigned num = first ? first->fullmove_number : 1;
  if (size) buf[0] = 0;
  for (int i = 1; i <= n; i++) {
    int black = (i % 2 == 0) != black_first;
    char part[64];
    unsigned mn = num + (unsigned)((i - 1 + black_first) / 2);
    if (!black)
      snprintf(part, sizeof part, "%s%u. %s", len ? " " : "", mn, arb_game_san_at(g, i));
    else if (i == 1)
      snprintf(part, sizeof part, "%u... %s", mn, arb_game_san_at(g, i));
    else
      snprintf(part, sizeof part, " %s", arb_game_san_at(g, i));
    size_t pl = strlen(part);
    if (len + pl < size) memcpy(buf + len, part, pl + 1);
    len += pl;
  }
  return len;
}

/* The draws the side to move may claim, and how: "with Nf3: type `claim Nf3`" when the claim
 * holds only by writing the move it intends (FIDE 9.2.1.1, 9.3.1). */
static void claim_hint(const play *p, const arb_ref_state *s, FILE *out) {
  const arb_game *g = arb_referee_game(p->ref);
  const arb_position *pos = arb_game_position(g);
  static const struct {
    arb_claim_reason reason;
    const char *words;
  } kinds[2] = {{ARB_CLAIM_THREEFOLD, "threefold repetition"},
                {ARB_CLAIM_FIFTY, "the 50-move rule"}};
  for (int k = 0; k < 2; k++) {
    if (!(s->claims & ARB_REF_CAN_CLAIM(kinds[k].reason))) continue;
    if (arb_game_claim_correct(g, kinds[k].reason, ARB_MOVE_NONE)) {
      fprintf(out, "%s may claim a draw by %s: type `claim`\n", p->names[s->turn], kinds[k].words);
      continue;
    }
    arb_move mv[ARB_MAX_MOVES];
    int n = arb_generate_legal(pos, mv), shown = 0;
    char list[128] = "", first[ARB_SAN_MAX] = "";
    for (int i = 0; i < n; i++) {
      if (!arb_game_claim_correct(g, kinds[k].reason, mv[i])) continue;
      char san[ARB_SAN_MAX];
      arb_san_write(pos, mv[i], san, sizeof san);
      if (!shown) snprintf(first, sizeof first, "%s", san);
      if (shown < 4) {
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s%s", shown ? " or " : "", san);
      }
      shown++;
    }
    if (shown)
      fprintf(out, "%s may claim a draw by %s with %s%s: type `claim %s`\n", p->names[s->turn],
              kinds[k].words, list, shown > 4 ? " (and others)" : "", first);
  }
}

static void status_lines(const play *p, FILE *out, int cols) {
  arb_ref_state s;
  arb_referee_state_of(p->ref, &s);
  const arb_game *g = arb_referee_game(p->ref);
  char mv[8192];
  size_t len = moves_text(g, mv, sizeof mv);
  if (len) {
    const char *show = mv;
    /* live: the last moves that fit the line, from a move number */
    if (p->live && len + 8 > (size_t)cols && len < sizeof mv) {
      show = mv + len - ((size_t)cols - 12);
      while (*show && !(show[-1] == ' ' && show[0] >= '1' && show[0] <= '9'))
        show++;
      fprintf(out, "Moves: ... %s\n", show);
    } else {
      fprintf(out, "Moves: %s\n", show);
    }
  }
  if (p->timed && !p->live) {
    char c[256];
    clock_line(p, c, sizeof c);
    fprintf(out, "%s\n", c);
  }
  if (s.over) {
    char words[256];
    arb_referee_end_words(p->ref, words, sizeof words);
    if (s.aborted)
      fprintf(out, "%s\n", words);
    else
      fprintf(out, "%s  %s\n", arb_result_string(s.outcome.result), words);
    return;
  }
  /* An open offer is addressed to the opponent of the side that made it: the side to move
   * sees its own offer standing (after a wrong claim, FIDE 9.1.2.3), not an offer to answer. */
  if (s.draw_offer >= 0 && s.draw_offer != (int)s.turn)
    fprintf(out, "%s offers a draw (accept / decline)\n", p->names[s.draw_offer]);
  else if (s.draw_offer >= 0)
    fprintf(out, "Your draw offer stands: %s may accept or decline it after your move\n",
            p->names[!s.turn]);
  if (s.claims) claim_hint(p, &s, out);
  if (arb_in_check(arb_game_position(g))) fprintf(out, "%s is in check\n", Color(s.turn));
}

/* The screen: live, redrawn in place from the top (each line cleared to its end, the rest of the
 * screen cleared after the prompt), the clock line first; plain, a board and the lines after
 * it.  prompt: the last line, without a newline.  keep: what was said stays for the next
 * screen too (shown while the engine thinks). */
static void render(play *p, const char *prompt, int keep) {
  if (!p->live) {
    draw_board(p, stdout);
    status_lines(p, stdout, 80);
    fputs(prompt, stdout);
    fflush(stdout);
    return;
  }
  int cols = term_cols();
  char *frame = NULL;
  size_t flen = 0;
  FILE *out = open_memstream(&frame, &flen);
  if (!out) return;
  if (p->timed) {
    char c[256];
    clock_line(p, c, sizeof c);
    fprintf(out, "%s\n", c);
  } else {
    char a[96], b[96];
    fprintf(out, "%s against %s, %s rules, no clock\n", side_label(p, 0, a, sizeof a),
            side_label(p, 1, b, sizeof b), arb_rules_get(p->rules)->name);
  }
  draw_board(p, out);
  status_lines(p, out, cols);
  if (p->nnotes) fwrite(p->notes, 1, p->nnotes, out);
  if (!keep) {
    p->nnotes = 0;
    p->notes[0] = 0;
  }
  fputs(prompt, out);
  fclose(out);
  fputs(p->cleared ? "\033[H" : "\033[H\033[2J", stdout);
  p->cleared = 1;
  for (size_t i = 0; i < flen; i++) {
    if (frame[i] == '\n') fputs("\033[K", stdout);
    fputc(frame[i], stdout);
  }
  fputs("\033[J", stdout);
  fflush(stdout);
  free(frame);
}

/* Live, timed: the clock line rewritten where it stands, the cursor put back. */
static void tick(const play *p) {
  char c[256];
  clock_line(p, c, sizeof c);
  printf("\0337\033[1;1H%s\033[K\0338", c);
  fflush(stdout);
}

static arb_ref_decision *event(play *p, arb_ref_event *ev) {
  ev->t = arb_tool_now_ms() - p->t0;
  arb_referee_event(p->ref, ev, &p->d);
  return &p->d;
}

static void help(play *p) {
  say(p, "Commands: a move (e4, Nf3, O-O, e7e8q), offer, accept, decline, claim [MOVE]\n"
         "(threefold or 50 moves, with the move you intend), resign, undo (casual rules),\n"
         "moves (the game's and the legal moves), hint (the engine's move), new (another game),\n"
         "board, flip, help, quit.  Ctrl-C saves the game and quits.\n");
}

/* Rebuilds the game without its last `plies` moves (casual rules), clocks as they were. */
static int takeback(play *p, int plies) {
  const arb_game *g = arb_referee_game(p->ref);
  int n = arb_game_ply_count(g) - plies;
  if (n < 0) return 0;
  arb_move moves[1024];
  if (n > 1024) return 0;
  for (int i = 0; i < n; i++)
    moves[i] = arb_game_move_at(g, i + 1);
  int64_t now = arb_tool_now_ms() - p->t0, left[2] = {0, 0};
  if (p->timed)
    for (int c = 0; c < 2; c++)
      left[c] = arb_clock_remaining(arb_referee_clock(p->ref), (arb_color)c, now);
  arb_referee *r = arb_referee_new(p->setup.rules);
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_START, now);
  ev.setup = &p->setup;
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  for (int i = 0; i < n; i++) {
    ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_MOVE, now);
    ev.move = moves[i];
    arb_referee_event(r, &ev, &d);
  }
  for (int c = 0; p->timed && c < 2; c++) {
    ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_ADJUST_TIME, now);
    ev.side = (int8_t)c;
    ev.set = 1;
    ev.ms = left[c];
    arb_referee_event(r, &ev, &d);
  }
  arb_referee_free(p->ref);
  p->ref = r;
  return 1;
}

/* The game's moves, for uci_go (the caller frees). */
static arb_move *game_moves(const play *p, int *n) {
  const arb_game *g = arb_referee_game(p->ref);
  *n = arb_game_ply_count(g);
  arb_move *mv = malloc((size_t)(*n + 1) * sizeof *mv);
  if (!mv) return NULL;
  for (int i = 0; i < *n; i++)
    mv[i] = arb_game_move_at(g, i + 1);
  return mv;
}

static void engine_move(play *p, arb_color side) {
  int n;
  arb_move *mv = game_moves(p, &n);
  if (!mv) return;
  uci_limits lim = p->fixed;
  if (p->timed && !lim.depth && !lim.movetime && !lim.nodes) {
    int64_t now = arb_tool_now_ms() - p->t0;
    const arb_clock *c = arb_referee_clock(p->ref);
    lim.timed = 1;
    lim.wtime = arb_clock_remaining(c, ARB_WHITE, now);
    lim.btime = arb_clock_remaining(c, ARB_BLACK, now);
    int per = arb_clock_period(c, side);
    lim.winc = lim.binc = p->tc.periods[per].increment_ms;
    lim.deadline_ms = (side == ARB_WHITE ? lim.wtime : lim.btime) + 100;
  }
  char thinking[160];
  snprintf(thinking, sizeof thinking, "%s (%s) is thinking...", p->names[side], Color(side));
  if (p->live) {
    render(p, thinking, 1);
  } else {
    printf("%s\n", thinking);
    fflush(stdout);
  }
  uci_result r;
  uci_status st = uci_go(p->engine, &p->start, mv, n, p->start.chess960, &lim, &r);
  free(mv);
  arb_ref_event ev;
  if (st == UCI_OK) {
    ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_MOVE, 0);
    ev.move = r.move;
    ev.by = (int8_t)side;
    arb_ref_decision *d = event(p, &ev);
    if (d->status == ARB_OK) say(p, "%s plays %s\n", p->names[side], d->san);
    if (r.has_score)
      p->last_score_valid = 1, p->last_score = r.mate ? (r.score > 0 ? 10000 : -10000) : r.score;
    return;
  }
  if (st == UCI_TIMEOUT) { /* the referee sees the flag itself */
    ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_STATE, 0);
    event(p, &ev);
    return;
  }
  say(p, "The engine failed (%s: %s); it resigns.\n", uci_status_name(st), r.message);
  ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_RESIGN, 0);
  ev.by = (int8_t)side;
  event(p, &ev);
}

/* The engine answers the open draw offer of its opponent: it accepts when its last evaluation
 * was level or worse for it. */
static void engine_answers_offer(play *p, arb_color engine_side) {
  int accept = p->last_score_valid && p->last_score <= 0;
  arb_ref_event ev = ARB_REF_EVENT_INIT(accept ? ARB_REF_ACCEPT_DRAW : ARB_REF_DECLINE_DRAW, 0);
  ev.by = (int8_t)engine_side;
  arb_ref_decision *d = event(p, &ev);
  if (accept && d->status != ARB_OK) { /* not allowed yet (FIDE 5.2.3): declined */
    accept = 0;
    ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_DECLINE_DRAW, 0);
    ev.by = (int8_t)engine_side;
    event(p, &ev);
  }
  say(p, "%s %s the draw (it accepts when its evaluation is 0.00 or worse for it)\n",
      p->names[engine_side], accept ? "accepts" : "declines");
}

/* hint: the engine's move in the position on the board (at full strength, half a second). */
static void hint(play *p) {
  const arb_game *g = arb_referee_game(p->ref);
  const arb_position *pos = arb_game_position(g);
  if (!p->engine) {
    say(p, "No engine to ask: hint needs --engine PROG (e.g. --engine stockfish).\n");
    return;
  }
  arb_move legal[ARB_MAX_MOVES];
  if (!arb_generate_legal(pos, legal)) {
    say(p, "No legal move here: %s.\n", arb_in_check(pos) ? "checkmate" : "stalemate");
    return;
  }
  if (p->level) uci_set_option(p->engine, "Skill Level", "20");
  int n;
  arb_move *mv = game_moves(p, &n);
  if (!mv) return;
  uci_limits lim = {0};
  lim.movetime = 500;
  uci_result r;
  uci_status st = uci_go(p->engine, &p->start, mv, n, p->start.chess960, &lim, &r);
  free(mv);
  if (p->level) {
    char skill[16];
    snprintf(skill, sizeof skill, "%d", eng_level_get(p->level)->skill);
    uci_set_option(p->engine, "Skill Level", skill);
  }
  if (st != UCI_OK) {
    say(p, "No hint: the engine failed (%s: %s).\n", uci_status_name(st), r.message);
    return;
  }
  char san[ARB_SAN_MAX], score[48] = "";
  arb_san_write(pos, r.move, san, sizeof san);
  if (r.has_score && r.mate)
    snprintf(score, sizeof score, r.score > 0 ? " (mate in %d)" : " (mated in %d)",
             r.score < 0 ? -r.score : r.score);
  else if (r.has_score)
    snprintf(score, sizeof score, " (%+.2f for %s)", r.score / 100.0, Color(pos->turn));
  say(p, "Hint: %s would play %s here%s.\n",
      uci_name(p->engine)[0] ? uci_name(p->engine) : p->engine_path, san, score);
}

/* moves: the game's moves and, while it goes on, the legal moves in SAN. */
static int cmp_str(const void *a, const void *b) {
  return strcmp((const char *)a, (const char *)b);
}
static void list_moves(play *p) {
  const arb_game *g = arb_referee_game(p->ref);
  arb_ref_state s;
  arb_referee_state_of(p->ref, &s);
  char mv[8192];
  if (moves_text(g, mv, sizeof mv))
    say(p, "The game: %s%s%s\n", mv, s.over ? " " : "",
        s.over && !s.aborted ? arb_result_string(s.outcome.result) : "");
  else
    say(p, "No moves played yet.\n");
  if (s.over) return;
  const arb_position *pos = arb_game_position(g);
  arb_move legal[ARB_MAX_MOVES];
  int n = arb_generate_legal(pos, legal);
  char san[ARB_MAX_MOVES][ARB_SAN_MAX];
  for (int i = 0; i < n; i++)
    arb_san_write(pos, legal[i], san[i], sizeof san[i]);
  qsort(san, (size_t)n, sizeof san[0], cmp_str);
  char line[2048];
  size_t len = (size_t)snprintf(line, sizeof line, "Legal moves for %s (%d):", Color(pos->turn), n);
  for (int i = 0; i < n && len < sizeof line - ARB_SAN_MAX - 2; i++)
    len += (size_t)snprintf(line + len, sizeof line - len, " %s", san[i]);
  say(p, "%s\n", line);
}

/* Reads a line from stdin: 1, or 0 when the game changed by itself first (a flag fell), -1 at
 * EOF, -2 when interrupted (Ctrl-C).  Live and timed, the clock line ticks meanwhile. */
static int read_input(play *p, char *buf, size_t n) {
  for (;;) {
    if (interrupted) return -2;
    int64_t dl = arb_referee_next_deadline(p->ref);
    int64_t now = arb_tool_now_ms() - p->t0;
    int timeout = -1, is_tick = 0;
    if (dl != ARB_CLOCK_NEVER) {
      int64_t left = dl - now;
      timeout = left <= 0 ? 0 : left > 1000000 ? 1000000 : (int)left;
    }
    arb_ref_state s;
    arb_referee_state_of(p->ref, &s);
    if (p->live && p->timed && !s.over && s.running >= 0) {
      /* until the running clock's display changes: its seconds, or tenths under 10 s */
      int64_t r = arb_clock_remaining(arb_referee_clock(p->ref), (arb_color)s.running, now);
      int64_t step = r < 10000 ? 100 : 1000, wait = r > 0 ? r % step + 1 : 100;
      if (timeout < 0 || wait < timeout) timeout = (int)wait, is_tick = 1;
    }
    struct pollfd pf = {0, POLLIN, 0};
    int r = poll(&pf, 1, timeout);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) {
      arb_ref_decision d;
      arb_referee_tick(p->ref, arb_tool_now_ms() - p->t0, &d);
      if (d.ended) return 0;
      if (is_tick) tick(p);
      continue;
    }
    if (!fgets(buf, (int)n, stdin)) return interrupted ? -2 : -1;
    buf[strcspn(buf, "\r\n")] = 0;
    if (!p->echoed) printf("%s\n", buf); /* input from a file or a pipe: the transcript reads */
    return 1;
  }
}

/* Appends the present game to the PGN file (once a game). */
static void save_game(play *p) {
  if (p->saved || !p->ref) return;
  p->saved = 1;
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  if (w && arb_referee_write_pgn(p->ref, ARB_REF_PGN_EMT, w) == ARB_OK) {
    size_t len;
    const char *data = arb_pgn_writer_data(w, &len);
    FILE *f = fopen(p->pgn_path, "a");
    if (f && fwrite(data, 1, len, f) == len && !fclose(f))
      say(p, "Game saved in %s\n", p->pgn_path);
    else
      fprintf(stderr, "arbiter play: %s: cannot write\n", p->pgn_path);
  }
  arb_pgn_writer_free(w);
}

/* A game with the session's settings: colours (drawn again when random), names, tags, a new
 * referee, the engine told; 0 when the engine fails. */
static int start_game(play *p) {
  int me = !strcmp(p->color_choice, "black")    ? ARB_BLACK
           : !strcmp(p->color_choice, "random") ? (int)((time(NULL) + p->games) & 1)
                                                : ARB_WHITE;
  p->games++;
  p->human[0] = p->human[1] = 1;
  if (p->engine) p->human[!me] = 0;
  p->flip = me == ARB_BLACK && p->engine;
  for (int c = 0; c < 2; c++)
    snprintf(p->names[c], sizeof p->names[c], "%s",
             p->human[c]              ? (p->engine ? "You" : Color(c))
             : uci_name(p->engine)[0] ? uci_name(p->engine)
                                      : p->engine_path);
  p->last_score_valid = 0;
  if (p->engine && p->games > 1) {
    char err[256];
    if (uci_new_game(p->engine, p->start.chess960, err, sizeof err) != UCI_OK) {
      fprintf(stderr, "arbiter play: %s\n", err);
      return 0;
    }
  }
  time_t now = time(NULL);
  struct tm tm;
  localtime_r(&now, &tm);
  strftime(p->date, sizeof p->date, "%Y.%m.%d", &tm);
  p->tags[0] = (arb_ref_tag){"Event", "arbiter play"};
  p->tags[1] = (arb_ref_tag){"Date", p->date};
  p->tags[2] = (arb_ref_tag){"White", p->names[0]};
  p->tags[3] = (arb_ref_tag){"Black", p->names[1]};
  p->setup = (arb_ref_setup)ARB_REF_SETUP_INIT;
  p->setup.start = &p->start;
  p->setup.rules = p->rules;
  p->setup.control = p->timed ? &p->tc : NULL;
  p->setup.sees_flags = 1; /* the program sees the clock: a flag counts the moment it falls */
  p->setup.tags = p->tags;
  p->setup.tag_count = 4;
  arb_referee_free(p->ref);
  p->ref = arb_referee_new(p->rules);
  p->saved = 0;
  p->t0 = arb_tool_now_ms();
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_START, 0);
  ev.setup = &p->setup;
  event(p, &ev);
  char a[96], b[96];
  say(p, "Arbiter: %s against %s, %s rules, %s.  Type help for commands.\n",
      side_label(p, 0, a, sizeof a), side_label(p, 1, b, sizeof b), arb_rules_get(p->rules)->name,
      p->tc_words);
  if (p->level) {
    const eng_level *lv = eng_level_get(p->level);
    say(p,
        "Level %d of %d: %s (about %d Elo, a rough guide); Skill Level %d, at most %d ms and "
        "depth %d a move.\n",
        lv->level, ENG_LEVEL_MAX, lv->what, lv->elo, lv->skill, lv->movetime_ms, lv->depth);
  }
  say(p, "The game will be saved in %s (also on Ctrl-C).\n", p->pgn_path);
  return 1;
}

/* A program name without a '/' that is not on PATH but in /usr/games (where Debian installs
 * stockfish, toga2, ...): that path, in buf; else the name as given. */
static const char *find_engine(const char *name, char *buf, size_t n) {
  if (strchr(name, '/')) return name;
  const char *path = getenv("PATH");
  for (const char *d = path ? path : ""; *d;) {
    size_t len = strcspn(d, ":");
    snprintf(buf, n, "%.*s/%s", (int)len, d, name);
    if (len && access(buf, X_OK) == 0) return name;
    d += len + (d[len] == ':');
  }
  snprintf(buf, n, "/usr/games/%s", name);
  return access(buf, X_OK) == 0 ? buf : name;
}

static void play_usage(FILE *out) {
  fprintf(out,
          "usage: arbiter play [--engine PROG [--engine-arg A]... [--option NAME=VALUE]...]\n"
          "                    [--color white|black|random] [--tc TC] [--rules R]\n"
          "                    [--level 1-8 | --elo N | --depth N | --movetime MS | --nodes N]\n"
          "                    [--fen FEN] [--pgn FILE] [--ascii] [--no-color]\n"
          "\n"
          "A game in the terminal against a UCI engine, or between two people at one keyboard\n"
          "(no --engine).  Moves in SAN or UCI; commands: offer, accept, decline, claim [MOVE],\n"
          "resign, undo (casual rules), moves, hint (the engine's move), new (another game, also\n"
          "after the end), board, flip, help, quit.  TC as in `arbiter referee` and `arbiter\n"
          "serve`: a bare number is minutes, an increment seconds (5+3 is five minutes and three\n"
          "seconds a move; 90m+30s; 40/90m+30s,30m+30s).  Rules: casual by default (claims\n"
          "without penalty, takebacks); --rules fide|fide-rapid|fide-blitz|uscf|online.  The\n"
          "clocks run in real time and a flag falls the moment it is down; on a terminal the\n"
          "board is redrawn in place and the clock ticks, otherwise plain lines are printed.\n"
          "The result is given in words and each game is saved as PGN with [%%clk] (--pgn,\n"
          "default arbiter-play-DATE-TIME.pgn, announced at the start), also on Ctrl-C.\n"
          "\n"
          "--level N (Stockfish's Skill Level, and a time and depth a move, as lichess's levels;\n"
          "the Elo is a rough guide):\n");
  for (int l = ENG_LEVEL_MIN; l <= ENG_LEVEL_MAX; l++) {
    const eng_level *lv = eng_level_get(l);
    fprintf(out, "  %d  ~%4d Elo  skill %2d, %4d ms, depth %2d  %s\n", lv->level, lv->elo,
            lv->skill, lv->movetime_ms, lv->depth, lv->what);
  }
}

int arb_cmd_play(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  play p;
  memset(&p, 0, sizeof p);
  const char *engine = NULL, *tc = NULL, *fen = NULL, *pgn_path = NULL, *color = "white";
  const char *rules_name = NULL, *eargs[16] = {NULL};
  int neargs = 0, elo = 0, level = 0, strength = 0;
  char skill[16] = "";
  uci_option opts[32];
  size_t nopts = 0;
  p.unicode = 1;
  p.colour = isatty(1);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      play_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--ascii")) {
      p.unicode = 0;
    } else if (!strcmp(a, "--no-color")) {
      p.colour = 0;
    } else if (!v) {
      fprintf(stderr, "arbiter play: %s needs a value\n", a);
      return 2;
    } else if (!strcmp(a, "--engine")) {
      engine = argv[++i];
    } else if (!strcmp(a, "--engine-arg") && neargs < 15) {
      eargs[neargs++] = argv[++i];
    } else if (!strcmp(a, "--option") && nopts < 28) { /* room for --level and --elo */
      const char *o = argv[++i], *eq = strchr(o, '=');
      if (!eq) return fprintf(stderr, "arbiter play: --option NAME=VALUE\n"), 2;
      opts[nopts++] = (uci_option){strndup(o, (size_t)(eq - o)), eq + 1};
    } else if (!strcmp(a, "--color") || !strcmp(a, "--colour")) {
      color = argv[++i];
      if (strcmp(color, "white") && strcmp(color, "black") && strcmp(color, "random")) {
        fprintf(stderr, "arbiter play: %s %s: the colour you play is white, black or random\n", a,
                color);
        for (size_t k = 0; k < nopts; k++)
          free((void *)(uintptr_t)opts[k].name);
        return 2;
      }
    } else if (!strcmp(a, "--tc")) {
      tc = argv[++i];
    } else if (!strcmp(a, "--rules")) {
      rules_name = argv[++i];
    } else if (!strcmp(a, "--level")) {
      level = atoi(argv[++i]), strength = 1;
      if (!eng_level_get(level)) return fprintf(stderr, "arbiter play: --level 1 to 8\n"), 2;
    } else if (!strcmp(a, "--elo")) {
      elo = atoi(argv[++i]), strength = 1;
    } else if (!strcmp(a, "--depth")) {
      p.fixed.depth = atoi(argv[++i]), strength = 1;
    } else if (!strcmp(a, "--movetime")) {
      p.fixed.movetime = atoll(argv[++i]), strength = 1;
    } else if (!strcmp(a, "--nodes")) {
      p.fixed.nodes = strtoull(argv[++i], NULL, 10), strength = 1;
    } else if (!strcmp(a, "--fen")) {
      fen = argv[++i];
    } else if (!strcmp(a, "--pgn")) {
      pgn_path = argv[++i];
    } else {
      fprintf(stderr, "arbiter play: unexpected argument '%s'\n", a);
      play_usage(stderr);
      return 2;
    }
  }
  size_t user_opts = nopts; /* the --option names, strdup'd; those after them are literals */
  int rc = 2;
  p.rules = PLAY_DEFAULT_RULES;
  if (rules_name && arb_rules_parse(rules_name, &p.rules) != ARB_OK) {
    fprintf(stderr, "arbiter play: unknown rules '%s'\n", rules_name);
    goto done;
  }
  if (strength && !engine) {
    fprintf(stderr, "arbiter play: --level, --elo, --depth, --movetime and --nodes set the "
                    "engine's strength: they need --engine PROG\n");
    goto done;
  }
  if (fen) {
    arb_fen_report rep;
    if (arb_fen_read(&p.start, fen, 0, &rep) != ARB_OK) {
      fprintf(stderr, "arbiter play: --fen: %s\n", rep.message);
      goto done;
    }
  } else {
    arb_position_startpos(&p.start);
  }
  snprintf(p.tc_words, sizeof p.tc_words, "no clock");
  if (tc) {
    arb_tc_report rep = {0, ""};
    if (arb_tc_parse(tc, strlen(tc), ARB_TC_AUTO, &p.tc, &rep) != ARB_OK) {
      fprintf(stderr, "arbiter play: --tc %s: %s\n", tc, rep.message);
      goto done;
    }
    p.timed = p.tc.kind == ARB_TC_PERIODS || p.tc.kind == ARB_TC_SANDCLOCK;
    if (p.timed && arb_tc_write(&p.tc, ARB_TC_HUMAN, p.tc_words, sizeof p.tc_words) < 0)
      snprintf(p.tc_words, sizeof p.tc_words, "%s", tc);
  }
  p.color_choice = color;
  char found[512];
  if (engine) engine = find_engine(engine, found, sizeof found);
  p.engine_path = engine;
  p.level = level;
  rc = 1;
  if (engine) {
    if (level) {
      const eng_level *lv = eng_level_get(level);
      snprintf(skill, sizeof skill, "%d", lv->skill);
      opts[nopts++] = (uci_option){"Skill Level", skill};
      p.fixed.movetime = lv->movetime_ms;
      p.fixed.depth = lv->depth;
    }
    if (elo) {
      opts[nopts++] = (uci_option){"UCI_LimitStrength", "true"};
      snprintf(p.elo_text, sizeof p.elo_text, "%d", elo);
      opts[nopts++] = (uci_option){"UCI_Elo", p.elo_text};
    }
    uci_config c = {0};
    c.cmd = engine;
    c.args = eargs;
    c.options = opts;
    c.option_count = nopts;
    char err[256];
    p.engine = uci_start(&c, err, sizeof err);
    if (!p.engine) {
      fprintf(stderr, "arbiter play: %s\n", err);
      goto done;
    }
    if (level && !uci_has_option(p.engine, "Skill Level"))
      printf("(the engine has no Skill Level: --level %d only limits its time and depth)\n", level);
    if (elo && !uci_has_option(p.engine, "UCI_Elo"))
      printf("(the engine has no UCI_Elo: --elo is ignored; try --depth or --movetime)\n");
    if (uci_new_game(p.engine, p.start.chess960, err, sizeof err) != UCI_OK) {
      fprintf(stderr, "arbiter play: %s\n", err);
      goto done;
    }
    if (!p.timed && !p.fixed.depth && !p.fixed.movetime && !p.fixed.nodes) p.fixed.movetime = 1000;
  }
  if (pgn_path) {
    snprintf(p.pgn_path, sizeof p.pgn_path, "%s", pgn_path);
  } else {
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(p.pgn_path, sizeof p.pgn_path, "arbiter-play-%Y%m%d-%H%M%S.pgn", &tm);
  }
  const char *term = getenv("TERM");
  p.live = isatty(0) && isatty(1) && !(term && !strcmp(term, "dumb"));
  p.echoed = isatty(0);
  /* Ctrl-C, a closed terminal, kill: the game is saved first (no SA_RESTART: poll returns) */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  if (!start_game(&p)) goto done;
  rc = 0;
  int quit = 0;
  char line[256];
  for (;;) {
    if (interrupted) break;
    arb_ref_state s;
    arb_referee_state_of(p.ref, &s);
    if (s.over && !p.saved) {
      save_game(&p);
      say(&p, "The game is over: new for another game, hint, moves, board, flip or quit.\n");
    }
    if (!s.over && !p.human[s.turn]) {
      engine_move(&p, s.turn);
      continue;
    }
    char prompt[160], who[96];
    snprintf(prompt, sizeof prompt, "%s > ",
             s.over ? "Game over" : side_label(&p, s.turn, who, sizeof who));
    render(&p, prompt, 0);
    int r = read_input(&p, line, sizeof line);
    if (r == -2) break;
    if (r == 0) {
      if (!p.live) printf("\n");
      continue; /* the flag fell: the loop ends the game */
    }
    if (r < 0 || !strcmp(line, "quit") || !strcmp(line, "exit")) {
      if (r < 0 && !p.live) printf("\n"); /* after the prompt */
      quit = 1;
      break;
    }
    char *cmd = line;
    while (*cmd == ' ')
      cmd++;
    if (!*cmd) continue;
    char *arg = strchr(cmd, ' ');
    if (arg) {
      *arg++ = 0;
      while (*arg == ' ')
        arg++;
      if (!*arg) arg = NULL;
    }
    arb_ref_decision *d;
    arb_ref_event ev;
    /* what works during and after a game */
    if (!strcmp(cmd, "help")) {
      help(&p);
      continue;
    } else if (!strcmp(cmd, "board")) {
      continue;
    } else if (!strcmp(cmd, "flip")) {
      p.flip = !p.flip;
      continue;
    } else if (!strcmp(cmd, "moves")) {
      list_moves(&p);
      continue;
    } else if (!strcmp(cmd, "hint")) {
      hint(&p);
      continue;
    } else if (!strcmp(cmd, "new")) {
      if (!s.over) {
        say(&p, "Game left unfinished.\n");
        save_game(&p);
      }
      if (!start_game(&p)) {
        rc = 1;
        break;
      }
      continue;
    }
    if (s.over) {
      say(&p, "%s: the game is over; new for another game, hint, moves, board, flip or quit.\n",
          cmd);
      continue;
    }
    if (!strcmp(cmd, "resign")) {
      ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_RESIGN, 0);
      ev.by = (int8_t)s.turn;
      event(&p, &ev);
    } else if (!strcmp(cmd, "offer")) {
      ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_OFFER_DRAW, 0);
      ev.by = (int8_t)s.turn;
      d = event(&p, &ev);
      if (d->status != ARB_OK)
        say(&p, "%s\n", d->message);
      else if (d->ended)
        ; /* it met the opponent's offer: agreed */
      else if (p.engine)
        engine_answers_offer(&p, (arb_color)!s.turn);
      /* between people the status line puts it to the opponent after the move */
    } else if (!strcmp(cmd, "accept") || !strcmp(cmd, "decline")) {
      ev = (arb_ref_event)ARB_REF_EVENT_INIT(
          !strcmp(cmd, "accept") ? ARB_REF_ACCEPT_DRAW : ARB_REF_DECLINE_DRAW, 0);
      ev.by = (int8_t)s.turn;
      d = event(&p, &ev);
      if (d->status != ARB_OK) say(&p, "%s\n", d->message);
    } else if (!strcmp(cmd, "claim")) {
      /* the reason that holds (with the intended move, FIDE 9.2.1.1 / 9.3.1); else threefold,
       * and the referee rules on a wrong claim */
      const arb_game *g = arb_referee_game(p.ref);
      arb_move intended = ARB_MOVE_NONE;
      if (arg &&
          arb_move_read(arb_game_position(g), arg, strlen(arg), 0, &intended, NULL) != ARB_OK) {
        say(&p, "%s: not a legal move here\n", arg);
        continue;
      }
      ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_CLAIM_DRAW, 0);
      ev.by = (int8_t)s.turn;
      ev.reason = arb_game_claim_correct(g, ARB_CLAIM_FIFTY, intended) &&
                          !arb_game_claim_correct(g, ARB_CLAIM_THREEFOLD, intended)
                      ? ARB_CLAIM_FIFTY
                      : ARB_CLAIM_THREEFOLD;
      ev.move = intended;
      d = event(&p, &ev);
      if (d->status != ARB_OK) {
        say(&p, "%s\n", d->message);
      } else if (!d->verdict.correct) {
        /* what follows a wrong claim, as the referee decided it: time for the opponent only
         * when there is a clock and the rules give it, the move named still to be played, and
         * the claim standing as a draw offer to the opponent (FIDE 9.1.2.3) */
        arb_color opp = (arb_color)!s.turn;
        char penalty[64] = "";
        if (d->time_added_to >= 0 && d->time_added_ms > 0)
          snprintf(penalty, sizeof penalty, ": %s gets %lld seconds", Color(d->time_added_to),
                   (long long)(d->time_added_ms / 1000));
        say(&p, "The claim is not correct%s%s.\n", penalty,
            d->verdict.must_play ? (penalty[0] ? ", and the move you named must be played"
                                               : ": the move you named must be played")
                                 : "");
        if (d->ended) {
          say(&p, "It counts as a draw offer (FIDE 9.1.2.3) and meets %s's: agreed.\n",
              p.names[opp]);
        } else if (d->verdict.became_offer) {
          say(&p, "It counts as a draw offer to %s (FIDE 9.1.2.3).\n", p.names[opp]);
          if (p.engine && !p.human[opp])
            engine_answers_offer(&p, opp);
          else
            say(&p, "%s may accept or decline it after your move.\n", Color(opp));
        }
      }
    } else if (!strcmp(cmd, "undo")) {
      if (p.rules != ARB_RULES_CASUAL)
        say(&p, "Takebacks only under casual rules (--rules casual).\n");
      else if (!takeback(&p, p.engine ? 2 : 1))
        say(&p, "Nothing to take back.\n");
    } else {
      ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_MOVE, 0);
      ev.by = (int8_t)s.turn;
      ev.text = cmd;
      ev.text_len = strlen(cmd);
      ev.flags = 0;
      d = event(&p, &ev);
      if (d->status != ARB_OK)
        say(&p, "%s: %s (type help for the commands)\n", cmd,
            d->message[0] ? d->message : "not a move");
    }
  }
  if (p.live) printf("\n");
  if (!p.saved) {
    arb_ref_state s;
    arb_referee_state_of(p.ref, &s);
    if (interrupted)
      say(&p, "Interrupted: the game is left unfinished.\n");
    else if (quit && !s.over)
      say(&p, "Game left unfinished.\n");
    save_game(&p);
  }
  flush_notes(&p);
  if (interrupted) rc = 128 + interrupted;
done:
  uci_quit(p.engine);
  arb_referee_free(p.ref);
  for (size_t i = 0; i < user_opts; i++)
    free((void *)(uintptr_t)opts[i].name); /* strdup'd by --option */
  return rc;
}
