/* Arbiter — MIT licence, see LICENSE.
 *
 * endgame.c: exact endgame tables (endgame.h) by retrograde analysis.
 *
 * A position of a table is its men's squares and the side to move, with the strong side White:
 *
 *   index = stm * 64^(2+np) + ((wk * 64 + bk) * 64 + s0) [* 64 + s1]
 *
 * (np = 1 or 2 men besides the kings; s0, s1 their squares in the order of the material name).
 * One byte per index: 0 an illegal position (two men on a square, kings touching, a pawn on a
 * back rank, the side not to move in check), 1 a draw (or, while building, not yet decided),
 * 2 + d decided with mate in d plies (White to move: White mates in d plies; Black to move:
 * Black is mated in d plies; 2 + 0 is Black checkmated).  With a lone king Black can never win,
 * so White to move is a win or a draw and Black to move a loss or a draw.
 *
 * Building, ply by ply (breadth first, so the first ply at which a position is decided is its
 * distance):
 *   - every Black-to-move position gets a counter: its legal moves, or "never lost" when one of
 *     them captures (KK, KBK, KNK: dead draws) or it is stalemate; checkmates are ply 0;
 *   - from each Black-to-move loss found at ply d, every White move that leads to it is undone
 *     (an un-move: king step, slider or knight move backwards, pawn push backwards): each
 *     predecessor not yet won is won at ply d + 1;
 *   - from each White-to-move win at ply d, every Black king step that leads to it is undone;
 *     each predecessor's counter drops by one, and the one whose counter reaches 0 (all its
 *     moves lose) is lost at ply d + 1;
 *   - KPK: a promotion leaves the table: into KQK or KRK (built first, looked up), or KBK / KNK
 *     (draws); a White-to-move position whose best promotion mates in d plies is entered at
 *     ply d + 1 unless already won sooner.
 * Un-moves match moves one to one (a Black move from P to C is exactly one Black un-move from
 * C to P; White's men cannot be pinned by a lone king), which is what makes the counters exact.
 * The hot loops use the board layer's attack tables directly; the probe, the best moves and
 * the tests use the library's own legal move generator, and tests/test_endgame.c checks every
 * sampled position against its children through that generator.
 */
#include <stdlib.h>
#include <string.h>

#include "arbiter/endgame.h"
#include "arbiter/notation.h"
#include "arbiter/status.h"
#include "board/board_internal.h"

#define VAL_ILLEGAL 0
#define VAL_DRAW 1
#define VAL_PLY(d) ((uint8_t)(2 + (d)))
#define CNT_NEVER 255 /* a Black-to-move position that can never be lost */

struct arb_endgame {
  char name[8];
  int np;                 /* men besides the kings: 1 or 2 */
  arb_piece_type type[2]; /* their types, in index order */
  uint64_t half;          /* positions per side to move: 64^(2+np) */
  uint8_t *val;           /* [stm * half + index] */
  arb_endgame *sub[2];    /* KPK: the KQK and KRK tables its promotions lead to */
  arb_endgame_stats stats;
};

/* The men of a table position. */
typedef struct tpos {
  int stm, wk, bk, s[2];
} tpos;

static uint64_t index_of(const arb_endgame *eg, const tpos *m) {
  uint64_t i = (uint64_t)m->wk * 64 + (uint64_t)m->bk;
  for (int k = 0; k < eg->np; k++)
    i = i * 64 + (uint64_t)m->s[k];
  return (uint64_t)m->stm * eg->half + i;
}

static void men_of(const arb_endgame *eg, uint64_t idx, tpos *m) {
  m->stm = idx >= eg->half;
  uint64_t i = idx % eg->half;
  m->s[1] = 0;
  for (int k = eg->np - 1; k >= 0; k--) {
    m->s[k] = (int)(i & 63);
    i >>= 6;
  }
  m->bk = (int)(i & 63);
  m->wk = (int)(i >> 6);
}

/* Squares a White man of type t on sq attacks, occupancy occ. */
static inline arb_bitboard man_attacks(arb_piece_type t, int sq, arb_bitboard occ) {
  if (t == ARB_PAWN) return arb__tab.pawn[ARB_WHITE][sq];
  return arb__piece_attacks(t, (arb_square)sq, occ);
}

/* A growing list of indices (a ply's frontier). */
typedef struct ilist {
  uint32_t *v;
  size_t n, cap;
} ilist;

static int ilist_push(ilist *l, uint32_t x) {
  if (l->n == l->cap) {
    size_t nc = l->cap ? l->cap * 2 : 4096;
    uint32_t *nv = realloc(l->v, nc * sizeof *nv);
    if (!nv) return 0;
    l->v = nv;
    l->cap = nc;
  }
  l->v[l->n++] = x;
  return 1;
}

static int parse_material(const char *material, int *np, arb_piece_type type[2]) {
  static const struct {
    const char *name;
    int np;
    arb_piece_type t0, t1;
  } known[] = {{"KQK", 1, ARB_QUEEN, ARB_NO_TYPE},
               {"KRK", 1, ARB_ROOK, ARB_NO_TYPE},
               {"KPK", 1, ARB_PAWN, ARB_NO_TYPE},
               {"KBNK", 2, ARB_BISHOP, ARB_KNIGHT}};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (!strcmp(material, known[i].name)) {
      *np = known[i].np;
      type[0] = known[i].t0;
      type[1] = known[i].t1;
      return (int)i;
    }
  return -1;
}

/* The value byte of a sub-table (KQK, KRK) position with Black to move, White's man on sq. */
static uint8_t sub_btm_value(const arb_endgame *sub, int wk, int bk, int sq) {
  tpos m = {ARB_BLACK, wk, bk, {sq, 0}};
  return sub->val[index_of(sub, &m)];
}

/* Pass 1: legality of every index, Black's move counters, the mates (into *mates), and for KPK
 * the promotions' seeds (seed[d] lists the White-to-move positions whose best promotion mates
 * in d plies). */
static int init_pass(arb_endgame *eg, uint8_t *cnt, ilist *mates, ilist *seed, int *max_seed) {
  const int np = eg->np;
  const int pawn = eg->type[0] == ARB_PAWN;
  const uint64_t per_kings = np == 1 ? 64 : 4096;
  for (int stm = 0; stm < 2; stm++)
    for (int wk = 0; wk < 64; wk++)
      for (int bk = 0; bk < 64; bk++) {
        uint64_t base = (uint64_t)stm * eg->half + ((uint64_t)wk * 64 + (uint64_t)bk) * per_kings;
        int kings_ok = wk != bk && !(arb__tab.king[wk] & ARB_BB(bk));
        for (uint64_t j = 0; j < per_kings; j++) {
          uint64_t idx = base + j;
          if (stm == ARB_BLACK) cnt[idx - eg->half] = CNT_NEVER;
          eg->val[idx] = VAL_ILLEGAL;
          if (!kings_ok) continue;
          int s[2] = {np == 1 ? (int)j : (int)(j >> 6), np == 1 ? -1 : (int)(j & 63)};
          arb_bitboard white = ARB_BB(wk), taken = ARB_BB(wk) | ARB_BB(bk);
          int ok = 1;
          for (int k = 0; k < np; k++) {
            if (taken & ARB_BB(s[k])) ok = 0;
            if (pawn && (ARB_RANK_OF(s[k]) == 0 || ARB_RANK_OF(s[k]) == 7)) ok = 0;
            taken |= ARB_BB(s[k]);
            white |= ARB_BB(s[k]);
          }
          if (!ok) continue;
          arb_bitboard occ = white | ARB_BB(bk);
          /* each man's attacks through the black king's square (a king cannot step back
           * along the line of a slider that checks it) */
          arb_bitboard a[2] = {0, 0}, all = arb__tab.king[wk];
          for (int k = 0; k < np; k++)
            all |= a[k] = man_attacks(eg->type[k], s[k], occ ^ ARB_BB(bk));
          int check = (all & ARB_BB(bk)) != 0;
          if (stm == ARB_WHITE) {
            if (check) continue; /* Black, not to move, in check */
            eg->val[idx] = VAL_DRAW;
            /* KPK: a pawn on the seventh rank may promote (to a queen or rook; a bishop or
             * knight is a dead draw) */
            if (pawn && ARB_RANK_OF(s[0]) == 6 && !(occ & ARB_BB(s[0] + 8))) {
              int best = -1;
              for (int q = 0; q < 2; q++) {
                uint8_t v = sub_btm_value(eg->sub[q], wk, bk, s[0] + 8);
                if (v >= VAL_PLY(0) && (best < 0 || v - 2 + 1 < best)) best = v - 2 + 1;
              }
              if (best >= 0) {
                if (!ilist_push(&seed[best], (uint32_t)idx)) return 0;
                if (best > *max_seed) *max_seed = best;
              }
            }
            continue;
          }
          eg->val[idx] = VAL_DRAW;
          arb_bitboard steps = arb__tab.king[bk] & ~arb__tab.king[wk];
          int never = 0;
          for (int k = 0; k < np; k++) {
            arb_bitboard others = arb__tab.king[wk] | (np == 2 ? a[1 - k] : 0);
            if ((steps & ARB_BB(s[k])) && !(others & ARB_BB(s[k]))) never = 1;
          }
          int n = arb__popcount(steps & ~white & ~all);
          if (never || (n == 0 && !check)) continue; /* a capture draws; stalemate */
          if (n == 0) {
            eg->val[idx] = VAL_PLY(0);
            if (!ilist_push(mates, (uint32_t)idx)) return 0;
            continue;
          }
          cnt[idx - eg->half] = (uint8_t)n;
        }
      }
  return 1;
}

/* The retrograde passes. */
static int propagate(arb_endgame *eg, uint8_t *cnt, ilist *cur, ilist *seed, int max_seed) {
  ilist next = {NULL, 0, 0};
  int ok = 1;
  for (int d = 0; ok && (cur->n || d < max_seed); d++) {
    next.n = 0;
    for (size_t f = 0; ok && f < cur->n; f++) {
      tpos m;
      men_of(eg, cur->v[f], &m);
      arb_bitboard occ = ARB_BB(m.wk) | ARB_BB(m.bk);
      for (int k = 0; k < eg->np; k++)
        occ |= ARB_BB(m.s[k]);
      if (m.stm == ARB_BLACK) {
        /* Black is mated in d plies: undo each White move into it; the position before, White to
         * move, wins in d + 1 */
        tpos p = m;
        p.stm = ARB_WHITE;
        arb_bitboard from = arb__tab.king[m.wk] & ~occ & ~arb__tab.king[m.bk];
        while (ok && from) {
          p.wk = arb__pop_lsb(&from);
          uint64_t pi = index_of(eg, &p);
          if (eg->val[pi] == VAL_DRAW) {
            eg->val[pi] = VAL_PLY(d + 1);
            ok = ilist_push(&next, (uint32_t)pi);
          }
        }
        p.wk = m.wk;
        for (int k = 0; ok && k < eg->np; k++) {
          int sq = m.s[k];
          if (eg->type[k] == ARB_PAWN) {
            from = 0;
            if (ARB_RANK_OF(sq) >= 2 && !(occ & ARB_BB(sq - 8))) {
              from |= ARB_BB(sq - 8);
              if (ARB_RANK_OF(sq) == 3 && !(occ & ARB_BB(sq - 16))) from |= ARB_BB(sq - 16);
            }
          } else {
            from = arb__piece_attacks(eg->type[k], (arb_square)sq, occ) & ~occ;
          }
          while (ok && from) {
            p.s[k] = arb__pop_lsb(&from);
            uint64_t pi = index_of(eg, &p);
            if (eg->val[pi] == VAL_DRAW) {
              eg->val[pi] = VAL_PLY(d + 1);
              ok = ilist_push(&next, (uint32_t)pi);
            }
          }
          p.s[k] = sq;
        }
      } else {
        /* White mates in d plies: undo each Black king step into it */
        tpos p = m;
        p.stm = ARB_BLACK;
        arb_bitboard from = arb__tab.king[m.bk] & ~occ & ~arb__tab.king[m.wk];
        while (ok && from) {
          p.bk = arb__pop_lsb(&from);
          uint64_t pi = index_of(eg, &p);
          uint8_t *c = &cnt[pi - eg->half];
          if (eg->val[pi] == VAL_DRAW && *c != CNT_NEVER && --*c == 0) {
            eg->val[pi] = VAL_PLY(d + 1);
            ok = ilist_push(&next, (uint32_t)pi);
          }
        }
      }
    }
    /* promotions that mate in d + 1 plies, where nothing quicker was found */
    if (ok && d + 1 <= max_seed)
      for (size_t f = 0; ok && f < seed[d + 1].n; f++) {
        uint32_t pi = seed[d + 1].v[f];
        if (eg->val[pi] == VAL_DRAW) {
          eg->val[pi] = VAL_PLY(d + 1);
          ok = ilist_push(&next, pi);
        }
      }
    ilist t = *cur;
    *cur = next;
    next = t;
  }
  free(next.v);
  return ok;
}

/* A table position as an arb_position (for the example FENs). */
static void position_of(const arb_endgame *eg, const tpos *m, arb_position *pos) {
  arb_position_clear(pos);
  arb_position_put(pos, (arb_square)m->wk, ARB_MAKE_PIECE(ARB_WHITE, ARB_KING));
  arb_position_put(pos, (arb_square)m->bk, ARB_MAKE_PIECE(ARB_BLACK, ARB_KING));
  for (int k = 0; k < eg->np; k++)
    arb_position_put(pos, (arb_square)m->s[k], ARB_MAKE_PIECE(ARB_WHITE, eg->type[k]));
  arb_position_set_turn(pos, (arb_color)m->stm);
  arb_position_validate(pos, 0, NULL);
}

static void compute_stats(arb_endgame *eg) {
  arb_endgame_stats *s = &eg->stats;
  memset(s, 0, sizeof *s);
  uint64_t at[2] = {0, 0};
  int maxp[2] = {-1, -1};
  for (uint64_t i = 0; i < 2 * eg->half; i++) {
    uint8_t v = eg->val[i];
    if (v == VAL_ILLEGAL) continue;
    int stm = i >= eg->half;
    s->positions[stm]++;
    if (v == VAL_DRAW) {
      s->draws[stm]++;
      continue;
    }
    if (stm == ARB_WHITE)
      s->wins[0]++;
    else
      s->losses[1]++;
    if (v - 2 > maxp[stm]) maxp[stm] = v - 2, at[stm] = i;
  }
  for (int stm = 0; stm < 2; stm++) {
    s->longest[stm] = maxp[stm] < 0 ? -1 : stm == ARB_WHITE ? (maxp[stm] + 1) / 2 : maxp[stm] / 2;
    s->longest_fen[stm][0] = 0;
    if (maxp[stm] < 0) continue;
    tpos m;
    arb_position pos;
    men_of(eg, at[stm], &m);
    position_of(eg, &m, &pos);
    arb_fen_write(&pos, s->longest_fen[stm], sizeof s->longest_fen[stm], 0);
  }
}

arb_endgame *arb_endgame_new(const char *material, arb_status *st) {
  arb_status dummy;
  if (!st) st = &dummy;
  *st = ARB_ERR_ARGUMENT;
  int np;
  arb_piece_type type[2];
  if (!material || parse_material(material, &np, type) < 0) return NULL;
  arb_init();
  *st = ARB_ERR_NO_MEMORY;
  arb_endgame *eg = calloc(1, sizeof *eg);
  if (!eg) return NULL;
  strcpy(eg->name, material);
  eg->np = np;
  eg->type[0] = type[0];
  eg->type[1] = type[1];
  eg->half = (uint64_t)1 << (6 * (2 + np));
  if (type[0] == ARB_PAWN) {
    arb_status sst;
    eg->sub[0] = arb_endgame_new("KQK", &sst);
    eg->sub[1] = arb_endgame_new("KRK", &sst);
    if (!eg->sub[0] || !eg->sub[1]) {
      arb_endgame_free(eg);
      return NULL;
    }
  }
  eg->val = malloc(2 * eg->half);
  uint8_t *cnt = malloc(eg->half);
  ilist cur = {NULL, 0, 0};
  ilist seed[256];
  memset(seed, 0, sizeof seed);
  int max_seed = 0;
  int ok = eg->val && cnt && init_pass(eg, cnt, &cur, seed, &max_seed) &&
           propagate(eg, cnt, &cur, seed, max_seed);
  free(cnt);
  free(cur.v);
  for (int i = 0; i < 256; i++)
    free(seed[i].v);
  if (!ok) {
    arb_endgame_free(eg);
    return NULL;
  }
  compute_stats(eg);
  *st = ARB_OK;
  return eg;
}

void arb_endgame_free(arb_endgame *eg) {
  if (!eg) return;
  arb_endgame_free(eg->sub[0]);
  arb_endgame_free(eg->sub[1]);
  free(eg->val);
  free(eg);
}

const char *arb_endgame_material(const arb_endgame *eg) { return eg->name; }

void arb_endgame_stats_of(const arb_endgame *eg, arb_endgame_stats *out) { *out = eg->stats; }

const char *arb_endgame_wdl_name(arb_endgame_wdl wdl) {
  return wdl == ARB_ENDGAME_WIN ? "win" : wdl == ARB_ENDGAME_LOSS ? "loss" : "draw";
}

/* The covering table's name and the strong side (-1 when none covers pos). */
static const char *material_and_side(const arb_position *pos, int *strong) {
  arb_bitboard own[2] = {pos->by_color[ARB_WHITE] & ~pos->by_type[ARB_KING],
                         pos->by_color[ARB_BLACK] & ~pos->by_type[ARB_KING]};
  if (arb__popcount(pos->by_type[ARB_KING] & pos->by_color[ARB_WHITE]) != 1 ||
      arb__popcount(pos->by_type[ARB_KING] & pos->by_color[ARB_BLACK]) != 1)
    return NULL;
  int c;
  if (own[0] && !own[1])
    c = ARB_WHITE;
  else if (own[1] && !own[0])
    c = ARB_BLACK;
  else
    return NULL;
  *strong = c;
  arb_bitboard m = own[c];
  if (arb__popcount(m) == 1) {
    if (m & pos->by_type[ARB_QUEEN]) return "KQK";
    if (m & pos->by_type[ARB_ROOK]) return "KRK";
    if (m & pos->by_type[ARB_PAWN]) return "KPK";
    return NULL;
  }
  if (arb__popcount(m) == 2 && arb__popcount(m & pos->by_type[ARB_BISHOP]) == 1 &&
      arb__popcount(m & pos->by_type[ARB_KNIGHT]) == 1)
    return "KBNK";
  return NULL;
}

const char *arb_endgame_material_of(const arb_position *pos) {
  int strong;
  return material_and_side(pos, &strong);
}

/* The value of pos for its side to move, looked up in eg (or its sub-tables); the dead draws
 * captures and minor promotions lead to.  Returns 0 when no table covers pos. */
static int value_of(const arb_endgame *eg, const arb_position *pos, int *wdl, int *plies) {
  int strong;
  const char *name = material_and_side(pos, &strong);
  const arb_endgame *t = NULL;
  if (name) {
    if (!strcmp(name, eg->name))
      t = eg;
    else
      for (int k = 0; k < 2; k++)
        if (eg->sub[k] && !strcmp(name, eg->sub[k]->name)) t = eg->sub[k];
  }
  if (!t) {
    if (!arb_is_insufficient_material(pos)) return 0;
    *wdl = ARB_ENDGAME_DRAW;
    *plies = -1;
    return 1;
  }
  arb_position q;
  const arb_position *p = pos;
  if (strong == ARB_BLACK) {
    arb_position_mirror(pos, &q);
    p = &q;
  }
  tpos m;
  m.stm = p->turn;
  m.wk = arb__lsb(p->by_type[ARB_KING] & p->by_color[ARB_WHITE]);
  m.bk = arb__lsb(p->by_type[ARB_KING] & p->by_color[ARB_BLACK]);
  m.s[1] = 0;
  for (int k = 0; k < t->np; k++)
    m.s[k] = arb__lsb(p->by_type[t->type[k]] & p->by_color[ARB_WHITE]);
  uint8_t v = t->val[index_of(t, &m)];
  if (v == VAL_ILLEGAL) return 0;
  if (v == VAL_DRAW) {
    *wdl = ARB_ENDGAME_DRAW;
    *plies = -1;
  } else {
    *wdl = m.stm == ARB_WHITE ? ARB_ENDGAME_WIN : ARB_ENDGAME_LOSS;
    *plies = v - 2;
  }
  return 1;
}

arb_status arb_endgame_probe(const arb_endgame *eg, const arb_position *pos,
                             arb_endgame_result *out) {
  int strong;
  const char *name = material_and_side(pos, &strong);
  if (!name || strcmp(name, eg->name) || pos->castling_rooks) return ARB_ERR_ARGUMENT;
  int wdl, plies;
  if (!value_of(eg, pos, &wdl, &plies)) return ARB_ERR_FEN_INVALID;
  out->wdl = (arb_endgame_wdl)wdl;
  out->plies = plies;
  out->dtm = wdl == ARB_ENDGAME_DRAW ? -1 : wdl == ARB_ENDGAME_WIN ? (plies + 1) / 2 : plies / 2;
  out->nbest = 0;
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(pos, moves);
  for (int i = 0; i < n; i++) {
    arb_position c = *pos;
    arb_undo u;
    arb_make_move(&c, moves[i], &u);
    int cw, cp;
    if (!value_of(eg, &c, &cw, &cp)) return ARB_ERR_FEN_INVALID; /* cannot happen */
    int keep = wdl == ARB_ENDGAME_DRAW  ? cw == ARB_ENDGAME_DRAW
               : wdl == ARB_ENDGAME_WIN ? cw == ARB_ENDGAME_LOSS && cp == plies - 1
                                        : cw == ARB_ENDGAME_WIN && cp == plies - 1;
    if (keep && out->nbest < ARB_ENDGAME_MAX_BEST) out->best[out->nbest++] = moves[i];
  }
  return ARB_OK;
}
