/* Arbiter — MIT licence, see LICENSE.
 *
 * winnable.c: "can this side ever checkmate?" with a proof either way.
 *
 * Material first (free), the locked-wall enumeration of dead.c (cheap where it applies), then a
 * cooperative search — both sides play for the mate of the loser — under one node budget, in
 * phases (the table in arb_winnability_of):
 * - limited discrepancy: lines as long as a proof may be that leave the best-ordered move at most
 *   k times; first along the "king walk" ordering (the winner's king comes close, checks that
 *   lead nowhere rank low), which settles most real positions in a few dozen nodes, later with
 *   checks first and more discrepancies, for the long helpmates of endgames (a pawn runs,
 *   promotes, then mates);
 * - probes that follow only the best two or three moves of each node, deepening two plies at a
 *   time (the mate is the winner's move, so only one parity of depth can end in it);
 * - the full search, iterative deepening with a table of positions already searched in vain.
 * The probes are incomplete on purpose: they only ever prove WINNABLE, and every line is
 * replayed to mate before it is believed.
 * Moves are ordered towards mate without making them: checks first (from bitboards), the
 * winner's captures and promotions, its pieces closing in on the loser's king and its pawns
 * running (fast when it has no queen or rook); the loser's king to the edge, its pieces around it,
 * no captures of the winner's material.  At the last ply only checking moves are tried.
 */
#include <stdlib.h>
#include <string.h>

#include "arbiter/status.h"
#include "board/board_internal.h"

#define TT_SIZE (1u << 17) /* remembered failures: (key, depth) found to have no helpmate */

typedef struct tt_entry {
  uint64_t key;
  uint8_t depth;
} tt_entry;

typedef struct search {
  int winner;
  int width;     /* > 0: only the best `width` moves of each node (a quick, incomplete probe) */
  int lds;       /* limited discrepancy: at most `disc` moves on a line other than the best */
  int king_walk; /* another move ordering (see score): 1 king walk, 2 also the loser's pawns run */
  int disc;
  int mate_len; /* plies of the line found */
  uint64_t nodes, budget;
  arb_move line[ARB_WIN_MAX_LINE];
  tt_entry *tt; /* TT_SIZE entries, or NULL (then nothing is remembered) */
} search;

static int distance(arb_square a, arb_square b) {
  int df = ARB_FILE_OF(a) - ARB_FILE_OF(b), dr = ARB_RANK_OF(a) - ARB_RANK_OF(b);
  if (df < 0) df = -df;
  if (dr < 0) dr = -dr;
  return df > dr ? df : dr;
}

/* How far a square is from the edge of the board (0 on the edge, 3 in the centre). */
static int centrality(arb_square s) {
  int f = ARB_FILE_OF(s), r = ARB_RANK_OF(s);
  int df = f < 4 ? f : 7 - f, dr = r < 4 ? r : 7 - r;
  return df < dr ? df : dr;
}

/* Ordering score: higher first.  m is legal (from the generator). */
static int score(const arb_position *p, const arb__check_info *ci, arb_move m, int winner_to_move,
                 int king_walk) {
  int s = 0;
  const arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
  const arb_piece_type type = ARB_PIECE_TYPE(p->board[from]);
  int check = arb__gives_check_quick(p, ci, m);
  if (check < 0) check = arb_gives_check(p, m); /* promotion, en passant, castling */
  /* (king_walk: a second ordering for the long mates where the winner's king must come close
   * first, and checks that lead nowhere would only delay it.) */
  if (check) s += king_walk && winner_to_move ? 20 : 100;
  if (ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION) s += 10 + (int)ARB_MOVE_PROMO(m);
  /* Head for a mating net: the loser's king goes to the edge, its pieces crowd around it and
   * leave the winner's pieces alone; the winner's pieces close in, its pawns run. */
  int loser = winner_to_move ? p->turn ^ 1 : p->turn;
  arb_square lk = arb__king_sq(p, loser);
  if (!winner_to_move) {
    if (ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING) return s;
    if (type == ARB_KING)
      s += 4 * (centrality(from) - centrality(to));
    else if (distance(to, lk) == 1)
      s += 6; /* self-block */
    /* (king_walk 2: the loser's pawns run, for a new piece to block its own king — a lone
     * bishop or knight can mate only so) */
    if (type == ARB_PAWN && king_walk == 2)
      s += 8 * (p->turn == ARB_WHITE ? ARB_RANK_OF(to) : 7 - ARB_RANK_OF(to));
    if (p->board[to]) s -= 40; /* capturing the winner's material helps no mate */
  } else {
    if (p->board[to]) s += 20;
    /* Without a queen or rook the mate usually needs a new queen first: the pawns run. */
    int needs_queen = !(p->by_color[p->turn] & (p->by_type[ARB_QUEEN] | p->by_type[ARB_ROOK]));
    if (type == ARB_PAWN)
      s += (needs_queen ? 30 : 3) * (p->turn == ARB_WHITE ? ARB_RANK_OF(to) : 7 - ARB_RANK_OF(to));
    else if (type == ARB_KING && king_walk)
      s += 60 * (distance(from, lk) - distance(to, lk));
    else
      s += 2 * (distance(from, lk) - distance(to, lk));
    if (ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION && ARB_MOVE_PROMO(m) == ARB_QUEEN && needs_queen)
      s += 100;
  }
  return s;
}

/* 1 when the loser is mated within `depth` plies from p; the line is written from `ply`. */
static int helpmate(search *s, const arb_position *p, int depth, int ply) {
  if (s->nodes++ >= s->budget) return 0;
  if (depth == 0) { /* mate: the loser to move, in check, without a move */
    s->mate_len = ply;
    return p->turn != s->winner && arb_in_check(p) && !arb_has_legal_move(p);
  }
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(p, moves);
  if (n == 0) {
    s->mate_len = ply;
    return p->turn != s->winner && arb_in_check(p);
  }
  if (!s->tt && s->nodes > 4096) s->tt = calloc(TT_SIZE, sizeof *s->tt); /* only for long runs */
  tt_entry *e = s->tt ? &s->tt[p->key & (TT_SIZE - 1)] : NULL;
  if (e && e->key == p->key && e->depth >= depth) return 0; /* searched in vain before */
  int winner_to_move = p->turn == s->winner;
  /* The mating move is the winner's: with one ply left only its checks can mate; with two
   * left the loser's move must leave a mate in one (any move may). */
  if (depth == 1 && !winner_to_move) return 0;
  int scores[ARB_MAX_MOVES];
  arb__check_info ci;
  arb__check_info_init(p, &ci);
  if (depth == 1) {
    /* Mate in one: only checks, no ordering needed. */
    for (int i = 0; i < n; i++) {
      int check = arb__gives_check_quick(p, &ci, moves[i]);
      if (check < 0) check = arb_gives_check(p, moves[i]);
      if (!check) continue;
      arb_position next = *p;
      arb_undo u;
      arb_make_move(&next, moves[i], &u);
      s->nodes++;
      if (!arb_has_legal_move(&next)) {
        s->line[ply] = moves[i];
        s->mate_len = ply + 1;
        return 1;
      }
    }
    return 0;
  }
  for (int i = 0; i < n; i++)
    scores[i] = score(p, &ci, moves[i], winner_to_move, s->king_walk);
  for (int i = 0; i < n; i++) {
    int best = i;
    for (int j = i + 1; j < n; j++)
      if (scores[j] > scores[best]) best = j;
    arb_move m = moves[best];
    int sc = scores[best];
    moves[best] = moves[i];
    scores[best] = scores[i];
    moves[i] = m;
    scores[i] = sc;
    if (s->width && i >= s->width) return 0; /* a probe: not a full search, remember nothing */
    if (s->lds && i > 0) {                   /* another move than the best: one discrepancy more */
      if (s->disc == 0) return 0;
      s->disc--;
    }
    arb_position next = *p;
    arb_undo u;
    arb_make_move(&next, m, &u);
    s->line[ply] = m;
    int found = helpmate(s, &next, depth - 1, ply + 1);
    if (s->lds && i > 0) s->disc++;
    if (found) return 1;
    if (s->nodes >= s->budget) return 0;
  }
  /* Searched to the end without a mate: remember it (a key collision can only cost a
   * helpmate proof, never make one up — every line is replayed). */
  if (e && !s->width) {
    e->key = p->key;
    e->depth = (uint8_t)depth;
  }
  return 0;
}

/* Replays the line: it must be legal and end with the loser checkmated. */
static int replay_mates(const arb_position *pos, const arb_move *line, int len, int winner) {
  arb_position p = *pos;
  for (int i = 0; i < len; i++) {
    if (!arb_is_legal(&p, line[i])) return 0;
    arb_undo u;
    arb_make_move(&p, line[i], &u);
  }
  return p.turn != winner && arb_is_checkmate(&p);
}

arb_win_verdict arb_winnability_of(const arb_position *pos, arb_color side, uint64_t budget,
                                   arb_winnability *out) {
  memset(out, 0, sizeof *out);
  if (arb_cannot_mate_by_material(pos, side)) {
    out->verdict = ARB_WIN_UNWINNABLE;
    out->proof = ARB_PROOF_MATERIAL;
    return out->verdict;
  }
  /* Locked walls next: cheap when they hold (a few thousand positions), and the search below
   * could never finish there. */
  if (arb_cannot_mate(pos, side)) {
    out->verdict = ARB_WIN_UNWINNABLE;
    out->proof = ARB_PROOF_LOCKED_WALLS;
    return out->verdict;
  }
  search s;
  s.tt = NULL; /* 2 MB, allocated once a search runs long; without it the search still runs */
  s.winner = side;
  s.nodes = 0;
  s.width = s.lds = s.disc = s.mate_len = s.king_walk = 0;
  s.budget = budget ? budget : 500000;
  /* The mate is the winner's move: only depths of the right parity can end in one. */
  const int first = pos->turn == side ? 1 : 2;
  /* Quick probes first, which follow only the best few moves of each side (most real positions
   * have a short helpmate that the ordering finds at once); then long lines that leave the best
   * move at most `disc` times (limited discrepancy: a promotion and a mate far away); then the
   * full search. */
  static const struct {
    int width, lds, king_walk, max_depth, max_disc;
    uint64_t budget;
  } phases[] = {
      /* Long lines along the king-walk ordering, at most two other moves: most real positions
       * fall here in a few dozen nodes (measured: median 82 nodes on lost-on-time positions). */
      {2, 1, 1, 31, 2, 8000},
      {2, 0, 0, 30, 0, 5000},                    /* short mates along the checks-first order */
      {3, 1, 0, ARB_WIN_MAX_LINE - 1, 3, 60000}, /* long lines, checks first */
      {3, 1, 1, ARB_WIN_MAX_LINE - 1, 3, 30000}, /* long lines, king walk */
      {3, 1, 2, ARB_WIN_MAX_LINE - 1, 3, 60000}, /* long lines, the loser's pawns run too */
      {3, 0, 0, 20, 0, 50000},                   /* wider probes */
      {0, 0, 0, ARB_WIN_MAX_LINE - 1, 0, 0}};    /* the full search with what is left */
  for (size_t ph = 0; ph < sizeof phases / sizeof phases[0]; ph++) {
    s.width = phases[ph].width;
    s.lds = phases[ph].lds;
    s.king_walk = phases[ph].king_walk;
    uint64_t stop = phases[ph].budget ? s.nodes + phases[ph].budget : s.budget;
    if (stop > s.budget) stop = s.budget;
    uint64_t full_budget = s.budget;
    s.budget = stop;
    /* Deepening by depth, or (limited discrepancy) by the number of discrepancies at full depth. */
    for (int step = 0; s.nodes < s.budget; step++) {
      int depth = s.lds ? phases[ph].max_depth : first + 2 * step;
      if (s.lds && step > phases[ph].max_disc) break;
      if (!s.lds && depth > phases[ph].max_depth) break;
      s.disc = step;
      s.mate_len = 0;
      if (!helpmate(&s, pos, depth, 0)) continue;
      int len = s.mate_len;
      if (len <= 0 || !replay_mates(pos, s.line, len, side))
        break; /* never trust a line unchecked */
      out->verdict = ARB_WIN_WINNABLE;
      out->proof = ARB_PROOF_HELPMATE;
      out->line_len = len;
      memcpy(out->line, s.line, (size_t)len * sizeof s.line[0]);
      out->nodes = s.nodes;
      free(s.tt);
      return out->verdict;
    }
    s.budget = full_budget;
  }
  out->nodes = s.nodes;
  free(s.tt);
  return out->verdict;
}

const char *arb_win_verdict_name(arb_win_verdict v) {
  switch (v) {
  case ARB_WIN_WINNABLE: return "winnable";
  case ARB_WIN_UNWINNABLE: return "unwinnable";
  default: return "unknown";
  }
}

const char *arb_win_proof_name(arb_win_proof p) {
  switch (p) {
  case ARB_PROOF_HELPMATE: return "helpmate";
  case ARB_PROOF_MATERIAL: return "material";
  case ARB_PROOF_LOCKED_WALLS: return "locked_walls";
  default: return "";
  }
}
