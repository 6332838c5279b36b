/* Arbiter — MIT licence, see LICENSE.
 *
 * play_cmd.c: `arbiter play` — a game in the terminal against a UCI engine (engine/uci.c) or a
 * second person at the same keyboard, decided by the library's referee (arbiter/referee.h):
 * clocks in real time under any time control (a flag falls the moment it is down), moves in SAN
 * or UCI with the referee's reason when one is refused, offers, claims with an intended move,
 * resignation, takebacks under casual rules, the result in words, the game saved as PGN with
 * %clk and %emt.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arbiter/arbiter.h"
#include "level.h"
#include "uci.h"
#include "util.h"

typedef struct play {
  arb_referee *ref;
  arb_ref_setup setup;
  arb_position start;
  arb_time_control tc;
  int timed;
  int human[2]; /* which sides a person plays */
  uci_engine *engine;
  uci_limits fixed;                 /* depth / movetime / nodes when given */
  int last_score_valid, last_score; /* the engine's last evaluation, its own point of view */
  int colour, unicode, flip;
  int64_t t0;
  char names[2][64];
  char elo_text[16];
  arb_ref_decision d; /* the last decision */
} play;

static const char *Color(int c) { return c == ARB_WHITE ? "White" : "Black"; }

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

static void draw_board(const play *p) {
  const arb_game *g = arb_referee_game(p->ref);
  const arb_position *pos = arb_game_position(g);
  int plies = arb_game_ply_count(g);
  arb_move last = plies ? arb_game_move_at(g, plies) : ARB_MOVE_NONE;
  int bottom_black = p->flip;
  static const char *const uni[7] = {" ", "♟", "♞", "♝", "♜", "♛", "♚"};
  static const char ascii[2][8] = {" PNBRQK", " pnbrqk"};
  printf("\n");
  if (!p->colour) { /* plain text: the library's diagram */
    char text[ARB_DIAGRAM_TEXT_MAX];
    arb_diagram_text(pos,
                     ARB_DIAGRAM_COORDS | (p->unicode ? ARB_DIAGRAM_UNICODE : 0u) |
                         (bottom_black ? ARB_DIAGRAM_FLIP : 0u),
                     text, sizeof text);
    fputs(text, stdout);
    return;
  }
  /* a terminal with colours: the squares in colour, the last move and a king in check marked */
  arb_square ksq = arb_in_check(pos) ? arb_king_square(pos, (arb_color)pos->turn) : ARB_NO_SQUARE;
  for (int row = 0; row < 8; row++) {
    int rank = bottom_black ? row : 7 - row;
    printf(" %d ", rank + 1);
    for (int col = 0; col < 8; col++) {
      int file = bottom_black ? 7 - col : col;
      arb_square sq = ARB_SQUARE(file, rank);
      arb_piece pc = pos->board[sq];
      int light = (file + rank) % 2 == 1;
      int hl = last != ARB_MOVE_NONE && (ARB_MOVE_FROM(last) == sq || ARB_MOVE_TO(last) == sq);
      printf("\033[48;5;%dm\033[38;5;%dm",
             sq == ksq ? 167
             : hl      ? (light ? 186 : 143)
             : light   ? 223
                       : 137,
             pc && ARB_PIECE_COLOR(pc) == ARB_WHITE ? 231 : 16);
      if (!pc)
        printf("   ");
      else if (p->unicode) /* the solid glyphs, coloured */
        printf(" %s ", uni[ARB_PIECE_TYPE(pc)]);
      else
        printf(" %c ", ascii[ARB_PIECE_COLOR(pc)][ARB_PIECE_TYPE(pc)]);
      printf("\033[0m");
    }
    printf("\n");
  }
  printf("   ");
  for (int col = 0; col < 8; col++)
    printf(" %c ", 'a' + (bottom_black ? 7 - col : col));
  printf("\n");
}

static void status_line(const play *p) {
  arb_ref_state s;
  arb_referee_state_of(p->ref, &s);
  const arb_game *g = arb_referee_game(p->ref);
  int n = arb_game_ply_count(g);
  if (n) {
    printf("Moves:");
    for (int i = 1; i <= n; i++) {
      if (i % 2 == 1) printf(" %d.", (i + 1) / 2);
      printf(" %s", arb_game_san_at(g, i));
    }
    printf("\n");
  }
  if (p->timed) {
    int64_t now = arb_tool_now_ms() - p->t0;
    char w[32], b[32];
    clock_text(arb_clock_remaining(arb_referee_clock(p->ref), ARB_WHITE, now), w, sizeof w);
    clock_text(arb_clock_remaining(arb_referee_clock(p->ref), ARB_BLACK, now), b, sizeof b);
    printf("Clocks: %s %s%s | %s %s%s\n", p->names[0], w,
           s.running == ARB_WHITE ? " (running)" : "", p->names[1], b,
           s.running == ARB_BLACK ? " (running)" : "");
  }
  if (s.draw_offer >= 0) printf("%s offers a draw (accept / decline)\n", Color(s.draw_offer));
  if (s.claims) printf("%s may claim a draw (claim)\n", Color(s.turn));
  if (arb_in_check(arb_game_position(g)) && !s.over) printf("%s is in check\n", Color(s.turn));
}

static arb_ref_decision *event(play *p, arb_ref_event *ev) {
  ev->t = arb_tool_now_ms() - p->t0;
  arb_referee_event(p->ref, ev, &p->d);
  return &p->d;
}

static void help(void) {
  printf("Commands: a move (e4, Nf3, O-O, e7e8q), offer, accept, decline, claim [MOVE]\n"
         "(threefold or 50 moves, with the move you intend), resign, undo (casual rules),\n"
         "board, flip, help, quit.\n");
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

static void engine_move(play *p, arb_color side) {
  const arb_game *g = arb_referee_game(p->ref);
  int n = arb_game_ply_count(g);
  arb_move *mv = malloc((size_t)(n + 1) * sizeof *mv);
  for (int i = 0; i < n; i++)
    mv[i] = arb_game_move_at(g, i + 1);
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
  printf("%s (%s) is thinking...\n", p->names[side], Color(side));
  fflush(stdout);
  uci_result r;
  uci_status st = uci_go(p->engine, &p->start, mv, n, p->start.chess960, &lim, &r);
  free(mv);
  arb_ref_event ev;
  if (st == UCI_OK) {
    ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_MOVE, 0);
    ev.move = r.move;
    ev.by = (int8_t)side;
    arb_ref_decision *d = event(p, &ev);
    if (d->status == ARB_OK) printf("%s plays %s\n", p->names[side], d->san);
    if (r.has_score)
      p->last_score_valid = 1, p->last_score = r.mate ? (r.score > 0 ? 10000 : -10000) : r.score;
    return;
  }
  if (st == UCI_TIMEOUT) { /* the referee sees the flag itself */
    ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_STATE, 0);
    event(p, &ev);
    return;
  }
  printf("The engine failed (%s: %s); it resigns.\n", uci_status_name(st), r.message);
  ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_RESIGN, 0);
  ev.by = (int8_t)side;
  event(p, &ev);
}

/* Reads a line from stdin, or returns 0 when the flag falls first (deadline) or -1 at EOF. */
static int read_input(play *p, char *buf, size_t n) {
  for (;;) {
    int64_t dl = arb_referee_next_deadline(p->ref);
    int timeout = -1;
    if (dl != ARB_CLOCK_NEVER) {
      int64_t left = dl - (arb_tool_now_ms() - p->t0);
      timeout = left <= 0 ? 0 : left > 1000000 ? 1000000 : (int)left;
    }
    struct pollfd pf = {0, POLLIN, 0};
    int r = poll(&pf, 1, timeout);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) {
      arb_ref_decision d;
      arb_referee_tick(p->ref, arb_tool_now_ms() - p->t0, &d);
      if (d.ended) return 0;
      continue;
    }
    if (!fgets(buf, (int)n, stdin)) return -1;
    buf[strcspn(buf, "\r\n")] = 0;
    return 1;
  }
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
          "resign, undo (casual rules), board, flip, help, quit.  TC as in `arbiter referee`\n"
          "(5+3 is five minutes and three seconds a move; 90m+30s; 40/90m+30s,30m+30s).  Rules:\n"
          "casual by default against an engine, fide between people.  The clocks run in real\n"
          "time and a flag falls the moment it is down; the result is given in words and the game\n"
          "is saved as PGN with [%%clk] (--pgn, default arbiter-play-DATE-TIME.pgn).\n");
}

int arb_cmd_play(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  play p;
  memset(&p, 0, sizeof p);
  const char *engine = NULL, *tc = NULL, *fen = NULL, *pgn_path = NULL, *color = "white";
  const char *rules_name = NULL, *eargs[16] = {NULL};
  int neargs = 0, elo = 0, level = 0;
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
      char *o = strdup(argv[++i]), *eq = strchr(o, '=');
      if (!eq) return fprintf(stderr, "arbiter play: --option NAME=VALUE\n"), 2;
      *eq = 0;
      opts[nopts++] = (uci_option){o, eq + 1};
    } else if (!strcmp(a, "--color") || !strcmp(a, "--colour")) {
      color = argv[++i];
    } else if (!strcmp(a, "--tc")) {
      tc = argv[++i];
    } else if (!strcmp(a, "--rules")) {
      rules_name = argv[++i];
    } else if (!strcmp(a, "--level")) {
      level = atoi(argv[++i]);
      if (level < 1 || level > 8) return fprintf(stderr, "arbiter play: --level 1 to 8\n"), 2;
    } else if (!strcmp(a, "--elo")) {
      elo = atoi(argv[++i]);
    } else if (!strcmp(a, "--depth")) {
      p.fixed.depth = atoi(argv[++i]);
    } else if (!strcmp(a, "--movetime")) {
      p.fixed.movetime = atoll(argv[++i]);
    } else if (!strcmp(a, "--nodes")) {
      p.fixed.nodes = strtoull(argv[++i], NULL, 10);
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
  arb_ruleset rules = engine ? ARB_RULES_CASUAL : ARB_RULES_FIDE;
  if (rules_name && arb_rules_parse(rules_name, &rules) != ARB_OK)
    return fprintf(stderr, "arbiter play: unknown rules '%s'\n", rules_name), 2;
  if (fen) {
    arb_fen_report rep;
    if (arb_fen_read(&p.start, fen, 0, &rep) != ARB_OK)
      return fprintf(stderr, "arbiter play: --fen: %s\n", rep.message), 2;
  } else {
    arb_position_startpos(&p.start);
  }
  if (tc) {
    arb_tc_report rep = {0, ""};
    if (arb_tc_parse(tc, strlen(tc), ARB_TC_AUTO, &p.tc, &rep) != ARB_OK)
      return fprintf(stderr, "arbiter play: --tc %s: %s\n", tc, rep.message), 2;
    p.timed = p.tc.kind == ARB_TC_PERIODS || p.tc.kind == ARB_TC_SANDCLOCK;
  }
  int me = !strcmp(color, "black")    ? ARB_BLACK
           : !strcmp(color, "random") ? (int)(time(NULL) & 1)
                                      : ARB_WHITE;
  p.human[0] = p.human[1] = 1;
  size_t user_opts = nopts; /* the --option names, strdup'd; those after them are literals */
  if (engine) {
    p.human[!me] = 0;
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
    if (!p.engine) return fprintf(stderr, "arbiter play: %s\n", err), 1;
    if (level && !uci_has_option(p.engine, "Skill Level"))
      printf("(the engine has no Skill Level: --level %d only limits its time and depth)\n", level);
    if (elo && !uci_has_option(p.engine, "UCI_Elo"))
      printf("(the engine has no UCI_Elo: --elo is ignored; try --depth or --movetime)\n");
    if (uci_new_game(p.engine, p.start.chess960, err, sizeof err) != UCI_OK)
      return fprintf(stderr, "arbiter play: %s\n", err), 1;
    if (!p.timed && !p.fixed.depth && !p.fixed.movetime && !p.fixed.nodes) p.fixed.movetime = 1000;
  }
  p.flip = me == ARB_BLACK && engine;
  for (int c = 0; c < 2; c++)
    snprintf(p.names[c], sizeof p.names[c], "%s",
             p.human[c]              ? (engine ? "You" : Color(c))
             : uci_name(p.engine)[0] ? uci_name(p.engine)
                                     : engine);
  p.setup = (arb_ref_setup)ARB_REF_SETUP_INIT;
  p.setup.start = &p.start;
  p.setup.rules = rules;
  p.setup.control = p.timed ? &p.tc : NULL;
  p.setup.sees_flags = 1; /* the program sees the clock: a flag counts the moment it falls */
  char date[16];
  time_t now = time(NULL);
  struct tm tm;
  localtime_r(&now, &tm);
  strftime(date, sizeof date, "%Y.%m.%d", &tm);
  arb_ref_tag tags[4] = {
      {"Event", "arbiter play"}, {"Date", date}, {"White", p.names[0]}, {"Black", p.names[1]}};
  p.setup.tags = tags;
  p.setup.tag_count = 4;
  p.ref = arb_referee_new(rules);
  p.t0 = arb_tool_now_ms();
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_START, 0);
  ev.setup = &p.setup;
  event(&p, &ev);
  printf("Arbiter: %s (White) against %s (Black), %s rules%s%s.  Type help for commands.\n",
         p.names[0], p.names[1], arb_rules_get(rules)->name, tc ? ", " : "", tc ? tc : "");
  int quit = 0;
  char line[256];
  for (;;) {
    arb_ref_state s;
    arb_referee_state_of(p.ref, &s);
    if (s.over) break;
    if (!p.human[s.turn]) {
      engine_move(&p, s.turn);
      continue;
    }
    draw_board(&p);
    status_line(&p);
    printf("%s (%s) > ", p.names[s.turn], Color(s.turn));
    fflush(stdout);
    int r = read_input(&p, line, sizeof line);
    if (r == 0) {
      printf("\n");
      continue; /* the flag fell: the loop ends with the result */
    }
    if (r < 0 || !strcmp(line, "quit") || !strcmp(line, "exit")) {
      quit = 1;
      break;
    }
    char *cmd = line;
    while (*cmd == ' ')
      cmd++;
    if (!*cmd) continue;
    char *arg = strchr(cmd, ' ');
    if (arg) *arg++ = 0;
    arb_ref_decision *d;
    if (!strcmp(cmd, "help")) {
      help();
    } else if (!strcmp(cmd, "board")) {
      continue;
    } else if (!strcmp(cmd, "flip")) {
      p.flip = !p.flip;
    } else if (!strcmp(cmd, "resign")) {
      ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_RESIGN, 0);
      ev.by = (int8_t)s.turn;
      event(&p, &ev);
    } else if (!strcmp(cmd, "offer")) {
      ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_OFFER_DRAW, 0);
      ev.by = (int8_t)s.turn;
      d = event(&p, &ev);
      if (d->status != ARB_OK) {
        printf("%s\n", d->message);
      } else if (engine) {
        /* the engine accepts when its last evaluation was level or worse for it */
        int accept = p.last_score_valid && p.last_score <= 0;
        ev = (arb_ref_event)ARB_REF_EVENT_INIT(accept ? ARB_REF_ACCEPT_DRAW : ARB_REF_DECLINE_DRAW,
                                               0);
        ev.by = (int8_t)!s.turn;
        d = event(&p, &ev);
        printf("%s %s the draw (it accepts when its evaluation is 0.00 or worse for it)\n",
               p.names[!s.turn], accept && d->status == ARB_OK ? "accepts" : "declines");
      } else {
        printf("Draw offered: %s may accept or decline after your move.\n", Color(!s.turn));
      }
    } else if (!strcmp(cmd, "accept") || !strcmp(cmd, "decline")) {
      ev = (arb_ref_event)ARB_REF_EVENT_INIT(
          !strcmp(cmd, "accept") ? ARB_REF_ACCEPT_DRAW : ARB_REF_DECLINE_DRAW, 0);
      ev.by = (int8_t)s.turn;
      d = event(&p, &ev);
      if (d->status != ARB_OK) printf("%s\n", d->message);
    } else if (!strcmp(cmd, "claim")) {
      /* the reason that holds (with the intended move, FIDE 9.2.1.1 / 9.3.1); else threefold,
       * and the referee rules on a wrong claim */
      const arb_game *g = arb_referee_game(p.ref);
      arb_move intended = ARB_MOVE_NONE;
      if (arg &&
          arb_move_read(arb_game_position(g), arg, strlen(arg), 0, &intended, NULL) != ARB_OK) {
        printf("%s: not a legal move here\n", arg);
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
      if (d->status != ARB_OK)
        printf("%s\n", d->message);
      else if (!d->verdict.correct)
        printf("The claim is not correct: %s gets %u seconds%s.\n", Color(!s.turn),
               (unsigned)d->verdict.penalty_s,
               d->verdict.must_play ? ", and the move you named must be played" : "");
    } else if (!strcmp(cmd, "undo")) {
      if (rules != ARB_RULES_CASUAL)
        printf("Takebacks only under casual rules (--rules casual).\n");
      else if (!takeback(&p, engine ? 2 : 1))
        printf("Nothing to take back.\n");
    } else {
      ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_MOVE, 0);
      ev.by = (int8_t)s.turn;
      ev.text = cmd;
      ev.text_len = strlen(cmd);
      ev.flags = 0;
      d = event(&p, &ev);
      if (d->status != ARB_OK)
        printf("%s: %s (type help for the commands)\n", cmd,
               d->message[0] ? d->message : "not a move");
    }
  }
  char words[256];
  arb_referee_end_words(p.ref, words, sizeof words);
  draw_board(&p);
  status_line(&p);
  arb_ref_state s;
  arb_referee_state_of(p.ref, &s);
  if (s.over)
    printf("%s  %s\n", arb_result_string(s.outcome.result), words);
  else if (quit)
    printf("Game left unfinished.\n");
  char path[256];
  if (!pgn_path) {
    strftime(path, sizeof path, "arbiter-play-%Y%m%d-%H%M%S.pgn", &tm);
    pgn_path = path;
  }
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  if (w && arb_referee_write_pgn(p.ref, ARB_REF_PGN_EMT, w) == ARB_OK) {
    size_t len;
    const char *data = arb_pgn_writer_data(w, &len);
    FILE *f = fopen(pgn_path, "a");
    if (f && fwrite(data, 1, len, f) == len && !fclose(f))
      printf("Game saved in %s\n", pgn_path);
    else
      fprintf(stderr, "arbiter play: %s: cannot write\n", pgn_path);
  }
  arb_pgn_writer_free(w);
  uci_quit(p.engine);
  arb_referee_free(p.ref);
  for (size_t i = 0; i < user_opts; i++)
    free((void *)(uintptr_t)opts[i].name); /* strdup'd by --option */
  return 0;
}
