// Arbiter — MIT licence, see LICENSE.
// What the WebAssembly module's tests share: the module under test (ARBITER_WASM, the built
// build/wasm/arbiter.mjs), a seeded PRNG, and the independent oracle — chessops for the rules,
// repetitions counted from its FENs (FIDE 9.2.3's identity: placement, side to move, castling
// rights, and en passant only when the capture is legal, which is what chessops's FEN writes).

import { pathToFileURL } from 'node:url';
import { Chess as OpsChess } from 'chessops/chess';
import { parseFen, makeFen } from 'chessops/fen';
import { makeSan, parseSan } from 'chessops/san';
import { makeUci, parseUci, makeSquare } from 'chessops/util';

if (!process.env.ARBITER_WASM) throw new Error('ARBITER_WASM must name the built arbiter.mjs (tests/wasm/run.sh sets it)');
export const wasm = await import(pathToFileURL(process.env.ARBITER_WASM).href);
export const ARBITER = process.env.ARBITER || '';

// mulberry32: a small seeded generator (the games are the same on every run)
export function makeRng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n) => Math.floor(next() * n),
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

export function opsFrom(fen, chess960 = false) {
  const setup = parseFen(fen).unwrap();
  return OpsChess.fromSetup(setup).unwrap();
}

export const opsFen = (pos) => makeFen(pos.toSetup());

// FIDE 9.2.3's identity of a position: the first four FEN fields (chessops writes the en
// passant square only when the capture is legal).
export const identity = (pos) => opsFen(pos).split(' ').slice(0, 4).join(' ');

// Every legal move of a chessops position (promotions to each piece).
export function opsMoves(pos) {
  const out = [];
  for (const [from, dests] of pos.allDests()) {
    const promoting = pos.board.pawn.has(from) && (from >> 3) === (pos.turn === 'white' ? 6 : 1);
    for (const to of dests) {
      if (promoting) for (const promotion of ['queen', 'rook', 'bishop', 'knight']) out.push({ from, to, promotion });
      else out.push({ from, to });
    }
  }
  return out;
}

// UCI as Arbiter writes it: chessops's castling is king-takes-rook; standard chess writes the
// king's two-square step.
export function uciOf(pos, move, chess960) {
  const uci = makeUci(move);
  if (chess960 || !pos.board.king.has(move.from) || !pos.board[pos.turn].has(move.to)) return uci;
  const rank = uci[1];
  return uci.slice(0, 2) + (move.to % 8 > move.from % 8 ? 'g' : 'c') + rank;
}

export const isZeroing = (pos, move) => pos.board.pawn.has(move.from) || (pos.board[pos.turn === 'white' ? 'black' : 'white'].has(move.to));

export { OpsChess, parseFen, makeFen, makeSan, parseSan, makeUci, parseUci, makeSquare };
