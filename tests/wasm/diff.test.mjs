// Arbiter — MIT licence, see LICENSE.
// The WebAssembly module against chess.js and chessops on seeded random games (node --test):
// at every ply the FEN, the legal moves in UCI and SAN, the board's destinations, check, mate,
// stalemate, insufficient material, repetitions, the 50- and 75-move counts, the draws that
// could be claimed and the outcome; the move played (given as SAN, UCI or squares) and its SAN;
// undo; at some plies the premove destinations and each side's winnability (a helpmate is
// replayed by chessops to mate, an unwinnable side never has mating material by chessops's
// rule).  Standard games are checked against both libraries, Chess960 games against chessops.
// Some games shuffle pieces back and forth (repetitions), some start from endings late in the
// 50- and 75-move counts.
//
// WASM_DIFF_GAMES (default 50) games of each kind; WASM_DIFF_SEED (default 1).  Each kind must
// have met the cases it is there for (mates, repetitions, claims, dead positions, ...).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Chess as ChessJs } from 'chess.js';
import { chessgroundDests } from 'chessops/compat';
import { wasm, makeRng, opsFrom, opsFen, identity, opsMoves, uciOf, isZeroing, makeSan, parseSan, makeSquare } from './lib.mjs';

const GAMES = Number(process.env.WASM_DIFF_GAMES || 50);
const SEED = Number(process.env.WASM_DIFF_SEED || 1);
const { Chess } = wasm;

const STARTS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
  'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8',
  'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1',
  'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1',
  '8/8/8/K2Pp2q/8/8/8/7k w - e6 0 1',
  '8/8/1k6/8/2pP4/8/5BK1/8 b - d3 0 1',
  '7k/8/8/8/Q1Q5/8/Q7/K7 w - - 0 1',
];
// late in the 50- and 75-move counts, few men: claims, automatic draws, dead positions
const ENDINGS = [
  '8/8/4k3/8/2R5/8/3K4/6b1 w - - 95 80',
  '8/5k2/8/8/8/2N5/3K4/6b1 b - - 97 90',
  '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1',
  '8/8/3k4/8/8/2Q5/3K4/8 w - - 145 120',
  '8/8/3k4/3r4/8/3R4/3K4/8 b - - 146 130',
  '6k1/8/6K1/8/8/8/8/1B6 w - - 98 70',
  '8/1p6/1P6/8/3k4/8/3K4/8 w - - 90 60',
  'k7/8/1K6/8/8/8/8/6B1 w - - 10 40',
  '2k5/8/8/8/8/8/8/4K2N w - - 99 90',
  '8/8/8/3b4/8/8/3B4/k1K5 w - - 120 100',
  // a locked wall of pawns: dead, though mating material is on the board
  'k7/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/K7 w - - 0 1',
];

function sorted(list) {
  return [...list].sort();
}

function destsText(map) {
  return sorted([...map].map(([from, to]) => `${from}:${sorted(to).join('')}`)).join(' ');
}

// chessground's premove destinations computed from chessops: the union, over every legal
// reply of the side to move, of the other side's destinations after it.
function opsPremoveDests(pos, chess960) {
  const union = new Map();
  for (const reply of opsMoves(pos)) {
    const after = pos.clone();
    after.play(reply);
    for (const [from, to] of chessgroundDests(after, { chess960 })) {
      const set = union.get(from) || new Set();
      for (const t of to) set.add(t);
      union.set(from, set);
    }
  }
  // every man of the waiting side is listed, with no destination when it has none
  if (union.size || opsMoves(pos).length)
    for (const sq of pos.board[pos.turn === 'white' ? 'black' : 'white']) if (!union.has(makeSquare(sq))) union.set(makeSquare(sq), new Set());
  return new Map([...union].map(([k, v]) => [k, [...v]]));
}

// A helpmate line, replayed by chessops, must end in mate of the other side.
function replaysToMate(pos, sans, winner) {
  const p = pos.clone();
  for (const san of sans) {
    const m = parseSan(p, san);
    if (!m) return `chessops cannot read ${san} after ${opsFen(p)}`;
    p.play(m);
  }
  if (!p.isCheckmate()) return `the line ends in ${opsFen(p)}, not a mate`;
  if (p.turn === winner) return `the line mates ${winner}, not its opponent`;
  return '';
}

// How often each case was met, over all games of a kind.
let seenCases = {};
function met(name) {
  seenCases[name] = (seenCases[name] || 0) + 1;
}

class Game {
  constructor(label, fen, chess960) {
    this.label = label;
    this.chess960 = chess960;
    this.ours = chess960 ? Chess.chess960(fen) : new Chess(fen);
    const start = this.ours.fen();
    this.ops = opsFrom(start);
    this.cjs = chess960 ? null : new ChessJs(start);
    this.seen = [identity(this.ops)];
    // the halfmove clock counted here (chessops stops counting at 150)
    this.hm = this.ops.halfmoves;
    this.sans = [];
    // chess.js counts a position with an en passant square no legal capture uses as different
    // from the same position without it (FIDE 9.2.3 does not): its threefold is compared only
    // in games where that never happened
    this.epAside = false;
    this.failures = [];
  }

  fail(what, got, want) {
    this.failures.push(`${this.label}: ${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}; after ${this.sans.join(' ') || '(the start)'}`);
  }

  same(what, got, want) {
    if (JSON.stringify(got) !== JSON.stringify(want)) this.fail(what, got, want);
  }

  // chessops's FEN, with the halfmove clock counted here
  fen() {
    return opsFen(this.ops).replace(/ \d+ (\d+)$/, ` ${this.hm} $1`);
  }

  check(deep) {
    const { ours, ops, cjs, chess960 } = this;
    const fen = this.fen();
    this.same('fen', ours.fen(), fen);
    if (cjs) this.same('chess.js fen', cjs.fen(), fen);

    const moves = opsMoves(ops);
    const uci = ours.uciMoves();
    const san = ours.moves();
    this.same('legal moves (UCI)', sorted(uci), sorted(moves.map((m) => uciOf(ops, m, chess960))));
    const sanOf = new Map(moves.map((m) => [uciOf(ops, m, chess960), makeSan(ops, m)]));
    this.same('legal moves (SAN)', uci.map((u) => san[uci.indexOf(u)]), uci.map((u) => sanOf.get(u)));
    if (cjs && (deep || this.sans.length % 4 === 0)) {
      // chess.js generates its moves slowly: every fourth ply
      const theirs = cjs.moves({ verbose: true });
      this.same('legal moves (chess.js SAN)', sorted(san), sorted(theirs.map((m) => m.san)));
      this.same('legal moves (chess.js UCI)', sorted(uci), sorted(theirs.map((m) => m.lan)));
    }
    this.same('dests', destsText(ours.dests()), destsText(chessgroundDests(ops, { chess960 })));

    const s = ours.status();
    const checkmate = ops.isCheckmate();
    const hm = this.hm;
    this.same('turn', s.turn, ops.turn);
    this.same('check', s.check, ops.isCheck());
    this.same('checkmate', s.checkmate, checkmate);
    this.same('stalemate', s.stalemate, ops.isStalemate());
    this.same('legal move count', s.legalMoves, moves.length);
    this.same('halfmoves', s.halfmoves, hm);
    this.same('move number', s.moveNumber, ops.fullmoves);
    if (cjs) {
      this.same('check (chess.js)', s.check, cjs.isCheck());
      this.same('insufficient material (chess.js)', s.insufficientMaterial, cjs.isInsufficientMaterial());
      this.same('fifty moves (chess.js: no mate exception)', s.fifty || (checkmate && hm >= 100), cjs.isDrawByFiftyMoves());
    }
    const bothInsufficient = ops.hasInsufficientMaterial('white') && ops.hasInsufficientMaterial('black');
    if (s.insufficientMaterial && !bothInsufficient) this.fail('insufficient material chessops does not see', s.insufficientMaterial, bothInsufficient);
    if (bothInsufficient && !s.deadPosition) this.fail('dead position (chessops: neither side has mating material)', s.deadPosition, true);

    // repetitions, from chessops's FENs
    const me = this.seen[this.seen.length - 1];
    const count = (id) => this.seen.reduce((n, x) => n + (x === id), 0);
    const reps = count(me);
    this.same('repetitions', s.repetitions, reps);
    this.same('threefold', s.threefold, reps >= 3);
    this.same('fivefold', s.fivefold, reps >= 5);
    if (cjs && !this.epAside) this.same('threefold (chess.js)', s.threefold, cjs.isThreefoldRepetition());
    this.same('fifty moves', s.fifty, hm >= 100 && !checkmate);
    this.same('seventy-five moves', s.seventyFive, hm >= 150 && !checkmate);

    // the draws the side to move could claim: now, or with a move written first
    const over = s.outcome !== null;
    const window = this.seen.slice(-(hm + 1));
    let byMove = false;
    if (!over && new Set(window).size < window.length) {
      for (const m of moves) {
        if (isZeroing(ops, m)) continue;
        const after = ops.clone();
        after.play(m);
        if (count(identity(after)) + 1 >= 3) {
          byMove = true;
          break;
        }
      }
    }
    this.same('can claim threefold', s.canClaimThreefold, !over && ((reps >= 3 && moves.length > 0) || byMove));
    const quiet = moves.some((m) => !isZeroing(ops, m));
    this.same('can claim fifty', s.canClaimFifty, !over && ((hm >= 100 && moves.length > 0) || (hm >= 99 && quiet)));

    if (s.checkmate) met('checkmate');
    if (s.stalemate) met('stalemate');
    if (s.insufficientMaterial) met('insufficient material');
    if (s.deadPosition && !s.insufficientMaterial) met('dead position beyond material');
    if (reps >= 3) met('threefold');
    if (reps >= 5) met('fivefold');
    if (byMove && reps < 3) met('threefold claimable with a move');
    if (hm >= 100) met('fifty moves');
    if (hm === 99 && s.canClaimFifty) met('fifty moves claimable with a move');
    if (hm >= 150) met('seventy-five moves');
    if (s.outcome) met(`outcome ${s.outcome.termination}`);

    // the outcome: what must end the game (FIDE rules), and nothing else may
    const o = s.outcome && { result: s.outcome.result, winner: s.outcome.winner, termination: s.outcome.termination };
    if (checkmate) this.same('outcome at mate', o, { result: ops.turn === 'white' ? '0-1' : '1-0', winner: ops.turn === 'white' ? 'black' : 'white', termination: 'checkmate' });
    else if (ops.isStalemate()) this.same('outcome at stalemate', o, { result: '1/2-1/2', winner: null, termination: 'stalemate' });
    else {
      const holds = [];
      if (reps >= 5) holds.push('fivefold_repetition');
      if (hm >= 150) holds.push('seventyfive_moves');
      if (s.insufficientMaterial) holds.push('insufficient_material');
      const may = holds.concat(s.deadPosition ? ['dead_position', 'insufficient_material'] : []);
      if (holds.length && (!o || !may.includes(o.termination))) this.fail('outcome', o && o.termination, holds);
      if (o && (!may.includes(o.termination) || o.result !== '1/2-1/2' || o.winner !== null)) this.fail('outcome', o, may);
    }

    if (deep) {
      this.same('premove dests', destsText(ours.premoveDests()), destsText(opsPremoveDests(ops, chess960)));
      for (const color of ['white', 'black']) {
        const w = ours.winnability(color);
        if (ops.hasInsufficientMaterial(color) && w.verdict !== 'unwinnable')
          this.fail(`winnability of ${color} (chessops: no mating material)`, w.verdict, 'unwinnable');
        met(`winnability ${w.verdict}`);
        if (w.verdict === 'winnable') {
          const why = replaysToMate(ops, w.lineSan, color);
          if (why) this.fail(`${color}'s helpmate ${w.lineSan.join(' ')}`, why, '');
        }
        if (w.verdict === 'unwinnable' && w.line.length) this.fail('an unwinnable verdict with a line', w.line, []);
      }
    }
  }

  // Plays a chessops move in all three, giving it to ours as SAN, UCI or squares in turn.
  play(move, how) {
    const { ours, ops, cjs, chess960 } = this;
    const san = makeSan(ops, move);
    const uci = uciOf(ops, move, chess960);
    const before = ours.fen();
    this.same(`SAN of ${uci}, not played`, ours.san(uci), san);
    let played;
    try {
      if (how === 0) played = ours.move(san);
      else if (how === 1) played = ours.move(uci);
      else played = ours.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] });
    } catch (e) {
      this.fail(`move ${san} (${['SAN', 'UCI', 'squares'][how]})`, e.message, 'played');
      return false;
    }
    this.same(`the move's SAN (${san})`, played.san, san);
    this.same(`the move's UCI (${san})`, played.uci, uci);
    this.same(`the move's colour (${san})`, played.color, ops.turn[0]);
    const doubleStep = ops.board.pawn.has(move.from) && Math.abs(move.to - move.from) === 16;
    this.hm = isZeroing(ops, move) ? 0 : this.hm + 1;
    ops.play(move);
    if (cjs) cjs.move(san);
    const id = identity(ops);
    if (doubleStep && id.endsWith(' -')) {
      const file = move.to & 7;
      const them = ops.board[ops.turn].intersect(ops.board.pawn);
      if ((file > 0 && them.has(move.to - 1)) || (file < 7 && them.has(move.to + 1))) this.epAside = true;
    }
    this.seen.push(id);
    this.sans.push(san);
    this.same('history', ours.history(), this.sans);
    return before;
  }
}

// The move a game of this kind plays next.
function choose(rng, kind, pos, moves, g) {
  if (kind === 'random' && rng.chance(0.5)) {
    // a mate when there is one, half of the time: random play rarely finds one
    const mate = moves.find((m) => {
      const after = pos.clone();
      after.play(m);
      return after.isCheckmate();
    });
    if (mate) return mate;
  }
  if (kind === 'shuffle' && g.sans.length > 8) {
    // back and forth: the reverse of this side's last move when legal, else a quiet move
    const quiet = moves.filter((m) => !isZeroing(pos, m));
    const last = g.lastOf[pos.turn];
    if (last && rng.chance(0.8)) {
      const back = quiet.find((m) => m.from === last.to && m.to === last.from && !m.promotion);
      if (back) return back;
    }
    if (quiet.length && rng.chance(0.9)) return rng.pick(quiet);
  }
  if (kind === 'ending' && rng.chance(0.85)) {
    const quiet = moves.filter((m) => !isZeroing(pos, m));
    if (quiet.length) return rng.pick(quiet);
  }
  return rng.pick(moves);
}

function playGames(kind, count, seed) {
  const rng = makeRng(seed);
  const failures = [];
  let plies = 0;
  for (let n = 0; n < count && failures.length < 10; n++) {
    let fen;
    let chess960 = false;
    if (kind === 'chess960') {
      fen = rng.int(960);
      chess960 = true;
    } else if (kind === 'ending') fen = rng.pick(ENDINGS);
    else fen = n % 2 ? rng.pick(STARTS) : STARTS[0];
    const g = new Game(`${kind} game ${n + 1} (${chess960 ? `Chess960 #${fen}` : fen})`, fen, chess960);
    g.lastOf = { white: null, black: null };
    const maxPlies = kind === 'random' ? 160 : 220;
    for (let ply = 0; ; ply++) {
      g.check(ply % 16 === 5 || ply === maxPlies);
      plies++;
      const moves = opsMoves(g.ops);
      if (!moves.length || ply >= maxPlies || g.failures.length) break;
      const move = choose(rng, kind, g.ops, moves, g);
      g.lastOf[g.ops.turn] = move;
      const before = g.play(move, ply % 3);
      if (before === false) break;
      if (rng.chance(0.03)) {
        // a move taken back and played again
        const undone = g.ours.undo();
        g.same('undo returns the move', undone && undone.san, g.sans[g.sans.length - 1]);
        g.same('the FEN after undo', g.ours.fen(), before);
        g.ours.move(undone.uci);
        g.same('the FEN after the move again', g.ours.fen(), g.fen());
      }
    }
    g.ours.free();
    failures.push(...g.failures.slice(0, 2));
  }
  return { failures, plies };
}

// What each kind of game is there to meet.
const CASES = {
  random: ['checkmate', 'winnability winnable', 'outcome checkmate'],
  shuffle: ['threefold', 'fivefold', 'threefold claimable with a move', 'outcome fivefold_repetition', 'fifty moves'],
  ending: ['fifty moves', 'fifty moves claimable with a move', 'seventy-five moves', 'outcome seventyfive_moves',
    'insufficient material', 'outcome insufficient_material', 'winnability unwinnable', 'dead position beyond material'],
  chess960: ['winnability winnable'],
};

for (const [kind, seed] of [['random', SEED], ['shuffle', SEED + 1], ['ending', SEED + 2], ['chess960', SEED + 3]]) {
  test(`${GAMES} ${kind} games: arbiter.wasm agrees with chessops${kind === 'chess960' ? '' : ' and chess.js'} at every ply`, (t) => {
    seenCases = {};
    const { failures, plies } = playGames(kind, GAMES, seed);
    assert.deepEqual(failures, []);
    assert.ok(plies > GAMES * 10, `only ${plies} positions checked`);
    t.diagnostic(`${plies} positions; met: ${JSON.stringify(seenCases)}`);
    for (const c of CASES[kind]) assert.ok(seenCases[c] > 0, `no ${c} in the ${kind} games`);
  });
}
