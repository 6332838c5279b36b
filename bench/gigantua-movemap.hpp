// Arbiter — MIT licence, see LICENSE.
//
// gigantua-movemap.hpp: a stand-in for Gigantua's Movemap.hpp, for building that peer outside
// the tree (bench/gigantua.sh) from a copy whose Movemap.hpp is missing — our code store has
// every file of github.com/Gigantua/Gigantua but that one.  Written here from the call sites in
// Gigantua's Chess_Base.hpp, Movegen.hpp and Movelist.hpp, not from the file itself: the
// attack lookups under the names they use (Chess_Lookup::Lookup_Pext, the one Chess_Base.hpp
// picks), PEXT slider tables (one 64-bit attack set per occupancy index, 840 KB as ours), king
// and knight tables, each square's full rook and bishop lines, the squares from a king to a
// checker (PinBetween) and behind the king away from it (CheckBetween), and the macros those
// files expect.  With a complete checkout of Gigantua this file is not used.
#pragma once
#include <cstdint>
#include <immintrin.h>

#define _ForceInline __attribute__((always_inline)) inline
#define _Inline inline
#define _NoInline __attribute__((noinline))
#define _Compiletime __attribute__((always_inline)) static constexpr
#define Bitcount(X) __builtin_popcountll(X)

namespace Chess_Lookup {
struct Slider {
  uint64_t mask;   // the squares whose occupancy matters (the line's last square left out)
  uint64_t *table; // attack sets, indexed by pext(occupancy, mask)
};

inline uint64_t RookMask[64], BishopMask[64]; // full lines on an empty board
inline uint64_t PinBetween[64 * 64];          // king (excluded) to enemy (included) on a line
inline uint64_t CheckBetween[64 * 64];        // behind the king, away from the enemy, to the edge
inline uint64_t KingAtk[64], KnightAtk[64];
inline Slider RookS[64], BishopS[64];
inline uint64_t RookTable[102400], BishopTable[5248];

inline const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
inline const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

inline bool on_board(int f, int r) { return f >= 0 && f <= 7 && r >= 0 && r <= 7; }

// The squares a slider on sq attacks along dirs, stopping at the first occupied square.
inline uint64_t ray_walk(int sq, uint64_t occ, const int (*dirs)[2]) {
  uint64_t a = 0;
  for (int d = 0; d < 4; d++)
    for (int f = sq % 8 + dirs[d][0], r = sq / 8 + dirs[d][1]; on_board(f, r);
         f += dirs[d][0], r += dirs[d][1]) {
      a |= 1ull << (r * 8 + f);
      if (occ >> (r * 8 + f) & 1) break;
    }
  return a;
}

// The line squares but the last of each direction.
inline uint64_t relevant(int sq, const int (*dirs)[2]) {
  uint64_t m = 0;
  for (int d = 0; d < 4; d++)
    for (int f = sq % 8 + dirs[d][0], r = sq / 8 + dirs[d][1];
         on_board(f + dirs[d][0], r + dirs[d][1]); f += dirs[d][0], r += dirs[d][1])
      m |= 1ull << (r * 8 + f);
  return m;
}

inline void fill(Slider *s, uint64_t *table, const int (*dirs)[2]) {
  uint64_t *t = table;
  for (int sq = 0; sq < 64; sq++) {
    s[sq].mask = relevant(sq, dirs);
    s[sq].table = t;
    const uint64_t n = 1ull << __builtin_popcountll(s[sq].mask);
    for (uint64_t i = 0; i < n; i++)
      t[i] = ray_walk(sq, _pdep_u64(i, s[sq].mask), dirs);
    t += n;
  }
}

inline bool init_all() {
  fill(RookS, RookTable, rook_dirs);
  fill(BishopS, BishopTable, bishop_dirs);
  for (int sq = 0; sq < 64; sq++) {
    RookMask[sq] = ray_walk(sq, 0, rook_dirs);
    BishopMask[sq] = ray_walk(sq, 0, bishop_dirs);
    const int f = sq % 8, r = sq / 8;
    for (int df = -2; df <= 2; df++)
      for (int dr = -2; dr <= 2; dr++) {
        const int adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
        if (!on_board(f + df, r + dr) || (adf == 0 && adr == 0)) continue;
        const uint64_t to = 1ull << ((r + dr) * 8 + f + df);
        if (adf <= 1 && adr <= 1) KingAtk[sq] |= to;
        if (adf * adr == 2) KnightAtk[sq] |= to;
      }
  }
  for (int k = 0; k < 64; k++)
    for (int e = 0; e < 64; e++) {
      const int kf = k % 8, kr = k / 8, ef = e % 8, er = e / 8;
      const int df = (ef > kf) - (ef < kf), dr = (er > kr) - (er < kr);
      if (k == e || !(kf == ef || kr == er || ef - kf == er - kr || ef - kf == kr - er)) continue;
      for (int f = kf + df, r = kr + dr;; f += df, r += dr) {
        PinBetween[k * 64 + e] |= 1ull << (r * 8 + f);
        if (f == ef && r == er) break;
      }
      for (int f = kf - df, r = kr - dr; on_board(f, r); f -= df, r -= dr)
        CheckBetween[k * 64 + e] |= 1ull << (r * 8 + f);
    }
  return true;
}
inline const bool initialised = init_all();

namespace Lookup_Pext {
_ForceInline uint64_t Rook(uint64_t sq, uint64_t occ) {
  return RookS[sq].table[_pext_u64(occ, RookS[sq].mask)];
}
_ForceInline uint64_t Bishop(uint64_t sq, uint64_t occ) {
  return BishopS[sq].table[_pext_u64(occ, BishopS[sq].mask)];
}
_ForceInline uint64_t Queen(uint64_t sq, uint64_t occ) { return Rook(sq, occ) | Bishop(sq, occ); }
// Through the first piece on each line: what stands behind it.
_ForceInline uint64_t Rook_Xray(uint64_t sq, uint64_t occ) {
  return Rook(sq, occ & ~Rook(sq, occ));
}
_ForceInline uint64_t Bishop_Xray(uint64_t sq, uint64_t occ) {
  return Bishop(sq, occ & ~Bishop(sq, occ));
}
_ForceInline uint64_t King(uint64_t sq) { return KingAtk[sq]; }
_ForceInline uint64_t Knight(uint64_t sq) { return KnightAtk[sq]; }
} // namespace Lookup_Pext
} // namespace Chess_Lookup
