/* Arbiter — MIT licence, see LICENSE.
 *
 * attacks.c: building the attack tables (magic bitboards, or PEXT indexing when built for
 * BMI2), the between/line tables, and arb_init().
 */
#include <pthread.h>

#include "board/bitboard.h"
#include "board/board_internal.h"
#include "board/zobrist.h"

ARB_HIDDEN arb__tables arb__tab;

static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

/* The rays of one slider: ray[d][sq] every square from sq (not included) to the edge in
 * direction d, walked once; up[d]: the direction goes to higher squares. */
typedef struct rays {
  arb_bitboard ray[4][64];
  int up[4];
} rays;

static void rays_of(rays *out, const int dirs[4][2]) {
  for (int d = 0; d < 4; d++) {
    out->up[d] = dirs[d][1] * 8 + dirs[d][0] > 0;
    for (int sq = 0; sq < 64; sq++) {
      arb_bitboard ray = 0;
      int f = sq % 8 + dirs[d][0], r = sq / 8 + dirs[d][1];
      for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += dirs[d][0], r += dirs[d][1])
        ray |= ARB_BB(r * 8 + f);
      out->ray[d][sq] = ray;
    }
  }
}

/* Attacks of a slider on sq: each ray up to and including its first blocker (the nearest in
 * the ray's direction: the lowest square going up, the highest going down), used to fill the
 * tables (start-up: 107,648 of them). */
static arb_bitboard ray_attacks(const rays *rs, int sq, arb_bitboard occ) {
  arb_bitboard att = 0;
  for (int d = 0; d < 4; d++) {
    arb_bitboard ray = rs->ray[d][sq], blockers = ray & occ;
    if (blockers) {
      int first = rs->up[d] ? __builtin_ctzll(blockers) : 63 - __builtin_clzll(blockers);
      ray ^= rs->ray[d][first];
    }
    att |= ray;
  }
  return att;
}

/* Relevant occupancy: the rays without their last square and without the piece's own. */
static arb_bitboard relevant_mask(int sq, const int dirs[4][2]) {
  arb_bitboard m = 0;
  for (int d = 0; d < 4; d++) {
    int f = sq % 8 + dirs[d][0], r = sq / 8 + dirs[d][1];
    while (f + dirs[d][0] >= 0 && f + dirs[d][0] < 8 && r + dirs[d][1] >= 0 && r + dirs[d][1] < 8) {
      m |= ARB_BB(r * 8 + f);
      f += dirs[d][0];
      r += dirs[d][1];
    }
  }
  return m;
}

#if !ARB_USE_PEXT
static uint64_t xorshift(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * UINT64_C(2685821657736338717);
}
#endif

#if !ARB_USE_PEXT
/* Magic multipliers found once by arb__search_magics (scripts/gen_magics.c) and committed, so
 * start-up costs no search; each is verified while its table is filled, and a search runs for
 * any square whose committed number does not work. */
static const uint64_t known_magics[2][64] = {
#include "board/magics.inc"
};
#endif

/* Fills one slider's table.  With PEXT the index is the extracted occupancy; otherwise a
 * magic multiplier: the known one if it works, else one found by a deterministic search. */
static void init_slider(arb__magic *mag, arb_bitboard *table, const int dirs[4][2],
                        const uint64_t *known) {
  arb_bitboard occs[4096], atts[4096];
  uint32_t offset = 0;
  rays rs;
  rays_of(&rs, dirs);
#if !ARB_USE_PEXT
  uint64_t seed = UINT64_C(0x9E3779B97F4A7C15);
  /* epoch[] remembers which attempt wrote a slot, so the table needs no clearing. */
  int epoch[4096];
  int attempt = 0;
  for (int i = 0; i < 4096; i++)
    epoch[i] = 0;
#else
  (void)known;
#endif
  for (int sq = 0; sq < 64; sq++) {
    arb__magic *m = &mag[sq];
    m->mask = relevant_mask(sq, dirs);
    int bits = arb__popcount(m->mask);
    m->shift = (uint32_t)(64 - bits);
    m->offset = offset;
    int n = 0;
    arb_bitboard b = 0;
    do {
      occs[n] = b;
      atts[n] = ray_attacks(&rs, sq, b);
      n++;
      b = (b - m->mask) & m->mask;
    } while (b);
#if ARB_USE_PEXT
    m->magic = 0;
    for (int i = 0; i < n; i++)
      table[offset + _pext_u64(occs[i], m->mask)] = atts[i];
#else
    for (int tries = 0;; tries++) {
      uint64_t magic;
      if (tries == 0 && known && known[sq]) {
        magic = known[sq];
      } else {
        do {
          magic = xorshift(&seed) & xorshift(&seed) & xorshift(&seed);
        } while (arb__popcount((m->mask * magic) >> 56) < 6);
      }
      attempt++;
      int i = 0;
      for (; i < n; i++) {
        uint32_t idx = (uint32_t)(((occs[i] & m->mask) * magic) >> m->shift);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          table[offset + idx] = atts[i];
        } else if (table[offset + idx] != atts[i]) {
          break;
        }
      }
      if (i == n) {
        m->magic = magic;
        break;
      }
    }
#endif
    offset += (uint32_t)n;
  }
}

void arb__search_magics(arb__magic *rook, arb_bitboard *rook_table, arb__magic *bishop,
                        arb_bitboard *bishop_table) {
  init_slider(rook, rook_table, rook_dirs, NULL);
  init_slider(bishop, bishop_table, bishop_dirs, NULL);
}

static void init_tables(void) {
  for (int sq = 0; sq < 64; sq++) {
    int f = sq % 8, r = sq / 8;
    static const int kn[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                 {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int kg[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                 {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    arb_bitboard n = 0, k = 0;
    for (int i = 0; i < 8; i++) {
      int nf = f + kn[i][0], nr = r + kn[i][1];
      if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) n |= ARB_BB(nr * 8 + nf);
      int kf = f + kg[i][0], kr = r + kg[i][1];
      if (kf >= 0 && kf < 8 && kr >= 0 && kr < 8) k |= ARB_BB(kr * 8 + kf);
    }
    arb__tab.knight[sq] = n;
    arb__tab.king[sq] = k;
    arb_bitboard b = ARB_BB(sq);
    arb__tab.pawn[ARB_WHITE][sq] = arb__east(arb__north(b)) | arb__west(arb__north(b));
    arb__tab.pawn[ARB_BLACK][sq] = arb__east(arb__south(b)) | arb__west(arb__south(b));
  }
  /* Each square's mask, offset, multiplier and shift as found; the lookups read the copies
   * below, arrays of their own (bitboard.h), so these are needed only here. */
  arb__magic rook[64], bishop[64];
#if ARB_USE_PEXT
  init_slider(rook, arb__tab.rook_table, rook_dirs, NULL);
  init_slider(bishop, arb__tab.bishop_table, bishop_dirs, NULL);
#else
  init_slider(rook, arb__tab.rook_table, rook_dirs, known_magics[0]);
  init_slider(bishop, arb__tab.bishop_table, bishop_dirs, known_magics[1]);
#endif
  for (int sq = 0; sq < 64; sq++) {
    arb__tab.rook_mask[sq] = rook[sq].mask;
    arb__tab.rook_rows[sq] = arb__tab.rook_table + rook[sq].offset;
    arb__tab.bishop_mask[sq] = bishop[sq].mask;
    arb__tab.bishop_rows[sq] = arb__tab.bishop_table + bishop[sq].offset;
#if !ARB_USE_PEXT
    arb__tab.rook_magic[sq] = rook[sq].magic;
    arb__tab.rook_shift[sq] = (uint8_t)rook[sq].shift;
    arb__tab.bishop_magic[sq] = bishop[sq].magic;
    arb__tab.bishop_shift[sq] = (uint8_t)bishop[sq].shift;
#endif
  }
  for (int sq = 0; sq < 64; sq++) { /* the small slider tables */
    const int f = sq % 8, r = sq / 8;
    arb_bitboard file = 0, diag = 0, anti = 0;
    for (int t = 0; t < 64; t++) {
      const int tf = t % 8, tr = t / 8;
      if (t == sq) continue;
      if (tf == f) file |= ARB_BB(t);
      if (tf - tr == f - r) diag |= ARB_BB(t);
      if (tf + tr == f + r) anti |= ARB_BB(t);
    }
    arb__tab.file_ex[sq] = file;
    arb__tab.diag_ex[sq] = diag;
    arb__tab.anti_ex[sq] = anti;
    arb__tab.rook_lines[sq] = file | (ARB_RANK_BB(r) ^ ARB_BB(sq));
    arb__tab.bishop_lines[sq] = diag | anti;
  }
  for (int o = 0; o < 64; o++) {
    const int occ = o << 1; /* the inner squares b..g */
    for (int f = 0; f < 8; f++) {
      int a = 0;
      for (int t = f + 1; t < 8; t++) {
        a |= 1 << t;
        if (occ >> t & 1) break;
      }
      for (int t = f - 1; t >= 0; t--) {
        a |= 1 << t;
        if (occ >> t & 1) break;
      }
      arb__tab.rank_attacks[o][f] = (uint8_t)a;
    }
  }
  for (int a = 0; a < 64; a++) {
    for (int b = 0; b < 64; b++) {
      arb__tab.between[a][b] = 0;
      arb__tab.line[a][b] = 0;
      if (a == b) continue;
      arb_bitboard ab = ARB_BB(a) | ARB_BB(b);
      if (arb__rook_attacks((arb_square)a, 0) & ARB_BB(b)) {
        arb__tab.line[a][b] =
            (arb__rook_attacks((arb_square)a, 0) & arb__rook_attacks((arb_square)b, 0)) | ab;
        arb__tab.between[a][b] =
            arb__rook_attacks((arb_square)a, ab) & arb__rook_attacks((arb_square)b, ab);
      } else if (arb__bishop_attacks((arb_square)a, 0) & ARB_BB(b)) {
        arb__tab.line[a][b] =
            (arb__bishop_attacks((arb_square)a, 0) & arb__bishop_attacks((arb_square)b, 0)) | ab;
        arb__tab.between[a][b] =
            arb__bishop_attacks((arb_square)a, ab) & arb__bishop_attacks((arb_square)b, ab);
      }
    }
  }
  for (int c = 0; c < 2; c++) /* castling (arb__castle) */
    for (int kf = 0; kf < 8; kf++)
      for (int rf = 0; rf < 8; rf++) {
        arb__castle *e = &arb__tab.castle[c][kf][rf];
        const int base = c == ARB_WHITE ? 0 : 56, k = base + kf, r = base + rf;
        const int kto = arb__castle_king_to(c, (arb_square)k, (arb_square)r),
                  rto = arb__castle_rook_to(c, (arb_square)k, (arb_square)r);
        e->kto = (uint32_t)kto;
        e->path = arb__tab.between[k][kto];
        e->empty =
            (arb__tab.between[k][kto] | ARB_BB(kto) | arb__tab.between[r][rto] | ARB_BB(rto)) &
            ~(ARB_BB(k) | ARB_BB(r));
      }
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

void arb_init(void) { pthread_once(&init_once, init_tables); }

arb_bitboard arb_piece_attacks(arb_piece_type type, arb_square sq, arb_bitboard occupied) {
  if (sq > 63) return 0;
  arb_init();
  return arb__piece_attacks(type, sq, occupied);
}

arb_bitboard arb_pawn_attacks(arb_color c, arb_square sq) {
  if (sq > 63 || (c != ARB_WHITE && c != ARB_BLACK)) return 0;
  arb_init();
  return arb__tab.pawn[c][sq];
}
