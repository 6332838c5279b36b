/* Arbiter — MIT licence, see LICENSE.
 *
 * diagnostic.c: the adaptive test over rules, tactics and endgames, and the endgame drills
 * against the table's perfect defence (diagnostic.h).
 */
#include <string.h>

#include "arbiter/diagnostic.h"
#include "arbiter/status.h"

static const char *const area_names[ARB_DIAG_AREAS] = {"rules", "tactics", "endgames"};

const char *arb_diag_area_name(arb_diag_area a) {
  return (unsigned)a < ARB_DIAG_AREAS ? area_names[a] : "";
}

void arb_diag_init(arb_diag *d) { memset(d, 0, sizeof *d); }

void arb_diag_skip(arb_diag *d, arb_diag_area area) {
  if (d && (unsigned)area < ARB_DIAG_AREAS) d->skipped |= 1u << area;
}

static int asked(const arb_diag *d, int area) { return !(d->skipped & (1u << area)); }

arb_status arb_diag_answer(arb_diag *d, arb_diag_area area, arb_irt_item item, int right) {
  if (!d || (unsigned)area >= ARB_DIAG_AREAS || !asked(d, area)) return ARB_ERR_ARGUMENT;
  if (d->n >= ARB_DIAG_MAX || arb_diag_done(d)) return ARB_ERR_GAME_OVER;
  d->area[d->n] = (int)area;
  d->item[d->n] = item;
  d->right[d->n] = right != 0;
  d->n++;
  return ARB_OK;
}

void arb_diag_estimate_of(const arb_diag *d, arb_diag_area area, arb_diag_estimate *e) {
  arb_irt_item items[ARB_DIAG_MAX];
  int right[ARB_DIAG_MAX], n = 0, r = 0;
  for (int i = 0; i < d->n; i++)
    if (d->area[i] == (int)area) {
      items[n] = d->item[i];
      right[n] = d->right[i];
      r += d->right[i];
      n++;
    }
  arb_irt_estimate(items, right, n, 0.0, ARB_DIAG_PRIOR_SD, &e->theta, &e->se);
  e->rating = arb_irt_rating(e->theta);
  e->rating_se = arb_irt_rating(e->se) - arb_irt_rating(0.0);
  e->answered = n;
  e->right = r;
}

int arb_diag_done(const arb_diag *d) {
  if (d->n >= ARB_DIAG_MAX) return 1;
  if (d->skipped == (1u << ARB_DIAG_AREAS) - 1) return 1;
  if (d->n < ARB_DIAG_MIN) return 0;
  for (int a = 0; a < ARB_DIAG_AREAS; a++) {
    if (!asked(d, a)) continue;
    arb_diag_estimate e;
    arb_diag_estimate_of(d, (arb_diag_area)a, &e);
    if (e.answered < ARB_DIAG_MIN_PER_AREA || e.se >= ARB_DIAG_PRECISE) return 0;
  }
  return 1;
}

arb_diag_area arb_diag_next_area(const arb_diag *d) {
  if (arb_diag_done(d)) return ARB_DIAG_AREAS;
  arb_diag_estimate e[ARB_DIAG_AREAS];
  for (int a = 0; a < ARB_DIAG_AREAS; a++)
    arb_diag_estimate_of(d, (arb_diag_area)a, &e[a]);
  int best = -1;
  for (int a = 0; a < ARB_DIAG_AREAS; a++) /* first the areas still short of answers */
    if (asked(d, a) && e[a].answered < ARB_DIAG_MIN_PER_AREA &&
        (best < 0 || e[a].answered < e[best].answered))
      best = a;
  if (best >= 0) return (arb_diag_area)best;
  for (int a = 0; a < ARB_DIAG_AREAS; a++)
    if (asked(d, a) && (best < 0 || e[a].se > e[best].se)) best = a;
  return (arb_diag_area)best;
}

int arb_diag_pick(const arb_diag *d, arb_diag_area area, const arb_irt_item *items, int n) {
  arb_diag_estimate e;
  arb_diag_estimate_of(d, area, &e);
  int best = -1;
  double most = -1;
  for (int i = 0; i < n; i++) {
    double info = arb_irt_information(&items[i], e.theta);
    if (info > most) most = info, best = i;
  }
  return best;
}

arb_diag_area arb_diag_weakest(const arb_diag *d) {
  int best = -1;
  double low = 0;
  for (int a = 0; a < ARB_DIAG_AREAS; a++) {
    if (!asked(d, a)) continue;
    arb_diag_estimate e;
    arb_diag_estimate_of(d, (arb_diag_area)a, &e);
    if (best < 0 || e.theta < low) low = e.theta, best = a;
  }
  return best < 0 ? ARB_DIAG_RULES : (arb_diag_area)best;
}

arb_irt_item arb_diag_quiz_item(int difficulty) {
  return (arb_irt_item){1.0, arb_irt_difficulty(900.0 + 250.0 * difficulty)};
}

arb_irt_item arb_diag_puzzle_item(int rating) {
  return (arb_irt_item){1.0, arb_irt_difficulty(rating)};
}

/* ---- drills ---- */

static const char *const drill_names[] = {"on", "mated", "drawn", "too_slow"};

const char *arb_drill_state_name(arb_drill_state s) {
  return (unsigned)s <= ARB_DRILL_TOO_SLOW ? drill_names[s] : "";
}

arb_status arb_drill_start(arb_drill *d, const arb_endgame *eg, const arb_position *pos,
                           int slack) {
  arb_endgame_result r;
  if (!d || !eg || !pos || slack < 0 || arb_endgame_probe(eg, pos, &r) != ARB_OK ||
      r.wdl != ARB_ENDGAME_WIN)
    return ARB_ERR_ARGUMENT;
  memset(d, 0, sizeof *d);
  d->pos = *pos;
  d->state = ARB_DRILL_ON;
  d->dtm = r.dtm;
  d->moves_allowed = r.dtm + slack;
  d->last_reply = ARB_MOVE_NONE;
  return ARB_OK;
}

arb_status arb_drill_move(arb_drill *d, const arb_endgame *eg, arb_move m) {
  if (!d || !eg) return ARB_ERR_ARGUMENT;
  if (d->state != ARB_DRILL_ON) return ARB_ERR_GAME_OVER;
  if (!arb_is_legal(&d->pos, m)) return ARB_ERR_MOVE_ILLEGAL;
  arb_undo u;
  arb_make_move(&d->pos, m, &u);
  d->moves_made++;
  d->last_reply = ARB_MOVE_NONE;
  if (arb_is_checkmate(&d->pos)) return d->state = ARB_DRILL_MATED, ARB_OK;
  arb_endgame_result r;
  /* a capture of the last piece leaves the table's material: a dead draw */
  if (arb_is_stalemate(&d->pos) || !arb_endgame_material_of(&d->pos) ||
      arb_endgame_probe(eg, &d->pos, &r) != ARB_OK || r.wdl != ARB_ENDGAME_LOSS || !r.nbest)
    return d->state = ARB_DRILL_DRAWN, ARB_OK;
  if (d->moves_made >= d->moves_allowed || d->pos.halfmove_clock >= 99)
    return d->state = ARB_DRILL_TOO_SLOW, ARB_OK;
  d->last_reply = r.best[0];
  arb_make_move(&d->pos, r.best[0], &u);
  if (arb_endgame_material_of(&d->pos) == NULL) d->state = ARB_DRILL_DRAWN; /* took the piece */
  return ARB_OK;
}

arb_status arb_drill_position(const arb_endgame *eg, int lo, int hi, uint64_t seed,
                              arb_position *out) {
  const char *mat = eg ? arb_endgame_material(eg) : NULL;
  if (!mat || !out || lo > hi) return ARB_ERR_ARGUMENT;
  for (int tries = 0; tries < 20000; tries++) {
    arb_position p;
    arb_position_clear(&p);
    int ok = 1;
    const char *m = mat;
    /* the strong side's men (after its K), then the lone king */
    for (int c = 0; *m && ok; m++) {
      if (*m == 'K' && m != mat) c = 1; /* the second K is the lone king */
      const char *l = strchr("PNBRQK", *m);
      if (!l) return ARB_ERR_ARGUMENT;
      arb_piece_type t = (arb_piece_type)(ARB_PAWN + (l - "PNBRQK"));
      int sq, guard = 0;
      do {
        sq = (int)(arb_select_rand(&seed) % 64);
      } while ((p.board[sq] || (t == ARB_PAWN && (sq < 8 || sq >= 56))) && ++guard < 64);
      if (guard >= 64)
        ok = 0;
      else
        arb_position_put(&p, (arb_square)sq, ARB_MAKE_PIECE(c, t));
    }
    if (!ok) continue;
    arb_position_set_turn(&p, ARB_WHITE);
    if (arb_position_validate(&p, 0, NULL) != ARB_OK) continue;
    arb_endgame_result r;
    if (arb_endgame_probe(eg, &p, &r) != ARB_OK || r.wdl != ARB_ENDGAME_WIN || r.dtm < lo ||
        r.dtm > hi)
      continue;
    *out = p;
    return ARB_OK;
  }
  return ARB_ERR_ARGUMENT;
}

int arb_diag_endgames(const arb_endgame *const tables[3], uint64_t seed, arb_diag_endgame *out) {
  static const struct {
    int table, lo, hi;
    double base, per;
  } drills[] = {{ARB_DIAG_TABLE_KQK, 1, 1, 650, 60},  {ARB_DIAG_TABLE_KQK, 2, 3, 650, 60},
                {ARB_DIAG_TABLE_KQK, 4, 6, 650, 60},  {ARB_DIAG_TABLE_KQK, 7, 10, 650, 60},
                {ARB_DIAG_TABLE_KRK, 2, 4, 950, 55},  {ARB_DIAG_TABLE_KRK, 5, 9, 950, 55},
                {ARB_DIAG_TABLE_KRK, 10, 16, 950, 55}};
  int n = 0;
  for (size_t i = 0; i < sizeof drills / sizeof drills[0]; i++) {
    const arb_endgame *eg = tables[drills[i].table];
    arb_position p;
    arb_endgame_result r;
    if (!eg ||
        arb_drill_position(eg, drills[i].lo, drills[i].hi, arb_select_rand(&seed), &p) != ARB_OK ||
        arb_endgame_probe(eg, &p, &r) != ARB_OK)
      continue;
    out[n++] = (arb_diag_endgame){ARB_DIAG_DRILL,
                                  drills[i].table,
                                  p,
                                  {1.0, arb_irt_difficulty(drills[i].base + drills[i].per * r.dtm)},
                                  1};
  }
  const arb_endgame *kpk = tables[ARB_DIAG_TABLE_KPK];
  for (int w = 0; kpk && w < 2; w++) /* one won and one drawn king-and-pawn ending */
    for (int tries = 0; tries < 4000; tries++) {
      int sq[3];
      for (int k = 0; k < 3; k++)
        sq[k] = (int)(arb_select_rand(&seed) % 64);
      if (sq[0] == sq[1] || sq[0] == sq[2] || sq[1] == sq[2] || sq[2] < 8 || sq[2] >= 56) continue;
      arb_position p;
      arb_position_clear(&p);
      arb_position_put(&p, (arb_square)sq[0], ARB_MAKE_PIECE(ARB_WHITE, ARB_KING));
      arb_position_put(&p, (arb_square)sq[1], ARB_MAKE_PIECE(ARB_BLACK, ARB_KING));
      arb_position_put(&p, (arb_square)sq[2], ARB_MAKE_PIECE(ARB_WHITE, ARB_PAWN));
      arb_position_set_turn(&p, ARB_WHITE);
      arb_endgame_result r;
      if (arb_position_validate(&p, 0, NULL) != ARB_OK || !arb_has_legal_move(&p) ||
          arb_endgame_probe(kpk, &p, &r) != ARB_OK || r.wdl == ARB_ENDGAME_LOSS ||
          (r.wdl == ARB_ENDGAME_WIN) != (w == 0))
        continue;
      out[n++] = (arb_diag_endgame){
          ARB_DIAG_WDL, ARB_DIAG_TABLE_KPK, p, {0.8, arb_irt_difficulty(1450)}, w == 0};
      break;
    }
  return n;
}
