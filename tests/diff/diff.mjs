#!/usr/bin/env node
// Differential test: `arbiter query` against chessops (lichess's rules library).
//
// Plays seeded random games with chessops and, for every position along every game, asks one
// long-lived `arbiter query` process (JSON lines in, JSON lines out, in order) to describe the same
// position, then compares fen, turn, legal_uci, legal_san, check, checkmate, stalemate and
// insufficient_material exactly.
//
// usage: node diff.mjs --arbiter PATH [--games N] [--seed S] [--max-plies P] [--max-reports R]

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Chess } from 'chessops/chess';
import { parseFen, makeFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';
import { makeSquare, squareFile, squareRank } from 'chessops/util';

// ---------------------------------------------------------------------------------------------
// Command line

function usage(msg) {
  if (msg) process.stderr.write(`diff.mjs: ${msg}\n`);
  process.stderr.write(
    'usage: node diff.mjs --arbiter PATH_TO_ARBITER_BINARY [--games N] [--seed S] [--max-plies P]\n' +
      '                     [--max-reports R]\n',
  );
  process.exit(2);
}

const opts = { arbiter: null, games: 2000, seed: 1, maxPlies: 200, maxReports: 20 };
{
  const argv = process.argv.slice(2);
  const intArg = (name, v) => {
    if (v === undefined || !/^\d+$/.test(v)) usage(`${name} needs a non-negative integer`);
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.indexOf('=');
    const [key, inline] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const val = () => (inline !== undefined ? inline : argv[++i]);
    switch (key) {
      case '--arbiter': opts.arbiter = val(); break;
      case '--games': opts.games = intArg(key, val()); break;
      case '--seed': opts.seed = intArg(key, val()); break;
      case '--max-plies': opts.maxPlies = intArg(key, val()); break;
      case '--max-reports': opts.maxReports = intArg(key, val()); break;
      case '-h':
      case '--help':
        usage();
        break;
      default: usage(`unknown argument '${a}'`);
    }
  }
  if (!opts.arbiter) usage('--arbiter is required');
}

// ---------------------------------------------------------------------------------------------
// Deterministic PRNG (sfc32 seeded through splitmix32)

function makeRng(seed) {
  let s = seed >>> 0;
  const splitmix = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix(), b = splitmix(), c = splitmix(), d = splitmix();
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) next();
  return {
    float: () => next() / 4294967296,
    int: (n) => Math.floor((next() / 4294967296) * n),
    chance: (p) => next() / 4294967296 < p,
  };
}

// ---------------------------------------------------------------------------------------------
// Start positions

const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
// Half of the games start from the standard position, the rest from these (chosen uniformly).
const OTHER_STARTS = [
  // Kiwipete
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  // CPW perft position 3 (en passant discovered checks along the rank)
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  // CPW perft position 4 and its mirror
  'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
  'r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1',
  // CPW perft position 5 and 6
  'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8',
  'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10',
  // promotions galore
  'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1',
  // castling with rooks that can be captured
  'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1',
  // an en passant square on input that is not a legal capture (dropped on output)
  'rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2',
  // en passant that would expose the king along the rank (illegal, dropped on output)
  '8/8/8/K2Pp2q/8/8/8/7k w - e6 0 1',
  '8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1',
  // en passant that is legal (kept on output); the second one is the only answer to the check
  '8/8/1k6/8/2pP4/8/5BK1/8 b - d3 0 1',
  '8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1',
  // SAN disambiguation: file+rank with three queens; a pinned knight does not count
  '7k/8/8/8/Q1Q5/8/Q7/K7 w - - 0 1',
  '4k3/4r3/8/8/8/8/2N1N3/4K3 w - - 0 1',
  // a few thin endings (mates, stalemates, insufficient material)
  '8/8/4k3/8/1B6/8/3K4/1b6 w - - 0 1',
  '8/8/4k3/8/1B6/8/3K4/2b5 w - - 0 1',
  '8/8/4k3/8/8/8/3K4/1NN5 w - - 0 1',
  '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1',
  '8/5k2/8/8/8/8/1Q6/4K3 w - - 0 1',
];

// ---------------------------------------------------------------------------------------------
// chessops side

function fenOf(pos) {
  return makeFen(pos.toSetup());
}

function posFromFen(fen) {
  return Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
}

const PROMOS = ['q', 'r', 'b', 'n'];
const PROMO_ROLE = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };

// All legal moves of `pos` as [{uci, move}], sorted by standard UCI (castling as the king's two-square
// move). chessops represents castling as king-takes-rook; it is converted here.
function legalMoves(pos) {
  const out = [];
  const ctx = pos.ctx();
  const own = pos.board[pos.turn];
  for (const [from, dests] of pos.allDests(ctx)) {
    const isPawn = pos.board.pawn.has(from);
    const isKing = pos.board.king.has(from);
    for (const to of dests) {
      if (isPawn && (squareRank(to) === 0 || squareRank(to) === 7)) {
        for (const p of PROMOS) {
          out.push({ uci: makeSquare(from) + makeSquare(to) + p, move: { from, to, promotion: PROMO_ROLE[p] } });
        }
      } else if (isKing && own.has(to)) {
        // castling: king takes own rook -> king two squares towards the rook (standard chess)
        const kTo = (from & ~7) + (to > from ? 6 : 2);
        if (squareFile(from) !== 4) throw new Error(`non-standard castling in ${fenOf(pos)}`);
        out.push({ uci: makeSquare(from) + makeSquare(kTo), move: { from, to } });
      } else {
        out.push({ uci: makeSquare(from) + makeSquare(to), move: { from, to } });
      }
    }
  }
  out.sort((x, y) => (x.uci < y.uci ? -1 : x.uci > y.uci ? 1 : 0));
  for (const m of out) m.san = makeSan(pos, m.move);
  return out;
}

function describe(pos, moves) {
  return {
    fen: fenOf(pos),
    turn: pos.turn,
    legal_uci: moves.map((m) => m.uci),
    legal_san: moves.map((m) => m.san),
    check: pos.isCheck(),
    checkmate: pos.isCheckmate(),
    stalemate: pos.isStalemate(),
    insufficient_material: pos.isInsufficientMaterial(),
  };
}

// Dead by force (FIDE 5.2.2), decided with chessops alone: every line of legal moves from pos
// ends, within `depth` plies and `budget` nodes, in chessops's insufficient material or in
// stalemate, and none in checkmate (e.g. a queen that must be taken).  false when unsure.
function deadByForce(pos, depth, budget) {
  const nodes = { left: budget };
  const walk = (p, d) => {
    if (p.isInsufficientMaterial()) return true;
    if (--nodes.left < 0) return false;
    const ctx = p.ctx();
    const dests = [...p.allDests(ctx)];
    const any = dests.some(([, t]) => t.nonEmpty());
    if (!any) return !p.isCheck(); // stalemate: a draw; checkmate: not dead
    if (d === 0) return false;
    for (const [from, ts] of dests) {
      for (const to of ts) {
        const promos = p.board.pawn.has(from) && (squareRank(to) === 0 || squareRank(to) === 7) ? Object.values(PROMO_ROLE) : [undefined];
        for (const promotion of promos) {
          const c = p.clone();
          c.play({ from, to, promotion });
          if (!walk(c, d - 1)) return false;
        }
      }
    }
    return true;
  };
  return walk(pos, depth);
}

const FIELDS = ['fen', 'turn', 'legal_uci', 'legal_san', 'check', 'checkmate', 'stalemate', 'insufficient_material'];

// Random move choice, biased now and then towards mates, promotions, en passant and captures so
// that endings, promotions, en passant and mates actually occur.
function chooseMove(rng, pos, moves) {
  const pick = (arr) => arr[rng.int(arr.length)];
  if (rng.chance(0.6)) {
    const mates = moves.filter((m) => m.san.endsWith('#'));
    if (mates.length) return pick(mates);
  }
  if (rng.chance(0.5)) {
    const promos = moves.filter((m) => m.move.promotion);
    if (promos.length) return pick(promos);
  }
  if (rng.chance(0.7)) {
    const eps = moves.filter((m) => pos.board.pawn.has(m.move.from) && squareFile(m.move.from) !== squareFile(m.move.to) && !pos.board.occupied.has(m.move.to));
    if (eps.length) return pick(eps);
  }
  if (rng.chance(0.3)) {
    const castles = moves.filter((m) => m.san.startsWith('O-O'));
    if (castles.length) return pick(castles);
  }
  // In thin endings, steer into stalemate now and then (rare in random play otherwise).
  if (pos.board.occupied.size() <= 7 && rng.chance(0.3)) {
    const stalemating = moves.filter((m) => {
      const after = pos.clone();
      after.play(m.move);
      return after.isStalemate();
    });
    if (stalemating.length) return pick(stalemating);
  }
  if (rng.chance(0.3)) {
    const caps = moves.filter((m) => m.san.includes('x'));
    if (caps.length) return pick(caps);
  }
  return pick(moves);
}

// ---------------------------------------------------------------------------------------------
// arbiter side: one long-lived `arbiter query`, requests pipelined, answers matched in order

const child = spawn(opts.arbiter, ['query'], { stdio: ['pipe', 'pipe', 'pipe'] });
let childExited = false;
let childExitInfo = '';
let stderrTail = '';
let spawnError = null;
let rlClosed = false;
child.on('error', (e) => {
  spawnError = e;
  childExited = true;
  childExitInfo = `could not run '${opts.arbiter} query': ${e.message}`;
  rlClosed = true;
  wake();
});
child.on('exit', (code, signal) => {
  childExited = true;
  childExitInfo = signal ? `killed by signal ${signal}` : `exited with status ${code}`;
  wake();
});
child.stderr.setEncoding('utf8');
child.stderr.on('data', (d) => {
  stderrTail = (stderrTail + d).slice(-4000);
});
child.stdin.on('error', () => {}); // EPIPE when the child dies; reported via 'exit'

const pending = []; // FIFO of {req, line, expected, posRec}
let pendingHead = 0;
let lastAnswerAt = Date.now();
const fatals = []; // reasons the run must fail regardless of the counts
function addFatal(msg) {
  if (!fatals.includes(msg)) fatals.push(msg);
}

let passed = 0;
let failed = 0;
let reports = 0;
const fieldFailures = Object.create(null);
const stats = { requests: 0, fenReqs: 0, uciReqs: 0, sanReqs: 0, games: 0, positions: 0, mates: 0, stalemates: 0, insufficient: 0, promotions: 0, enPassant: 0, castles: 0 };

let waiter = null;
function wake() {
  if (waiter) {
    const w = waiter;
    waiter = null;
    w();
  }
}

function short(v) {
  return JSON.stringify(v);
}

function report(text) {
  if (reports < opts.maxReports) process.stdout.write((typeof text === 'function' ? text() : text) + '\n');
  else if (reports === opts.maxReports) process.stdout.write(`(further mismatch reports suppressed; --max-reports ${opts.maxReports})\n`);
  reports++;
}

function listDiff(exp, got) {
  if (!Array.isArray(got)) return '';
  const es = new Set(exp), gs = new Set(got);
  const missing = exp.filter((x) => !gs.has(x));
  const extra = got.filter((x) => !es.has(x));
  let s = '';
  if (missing.length) s += `\n      missing in arbiter: ${short(missing)}`;
  if (extra.length) s += `\n      extra in arbiter:   ${short(extra)}`;
  if (!missing.length && !extra.length && exp.length === got.length) {
    const i = exp.findIndex((x, k) => x !== got[k]);
    if (i >= 0) s += `\n      first difference at index ${i}: expected ${short(exp[i])}, got ${short(got[i])}`;
  }
  return s;
}

function sameValue(a, b) {
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  return a === b;
}

function finishPosition(rec) {
  if (--rec.remaining > 0) return;
  if (rec.failed) failed++;
  else passed++;
}

function onAnswer(line) {
  lastAnswerAt = Date.now();
  if (pendingHead >= pending.length) {
    addFatal('arbiter wrote more answer lines than requests');
    report(`UNEXPECTED OUTPUT (no request pending): ${line.slice(0, 500)}`);
    return;
  }
  const p = pending[pendingHead];
  pending[pendingHead++] = undefined;
  if (pendingHead > 65536) {
    pending.splice(0, pendingHead);
    pendingHead = 0;
  }
  let ans;
  try {
    ans = JSON.parse(line);
  } catch (e) {
    ans = undefined;
  }
  const rec = p.posRec;
  if (ans === undefined || ans === null || typeof ans !== 'object' || Array.isArray(ans)) {
    rec.failed = true;
    addFatal('arbiter answered with a line that is not a JSON object');
    fieldFailures['(not JSON)'] = (fieldFailures['(not JSON)'] || 0) + 1;
    report(`MISMATCH #${reports + 1} (${p.kind})\n  request: ${p.line}\n  answer is not a JSON object: ${line.slice(0, 1000)}`);
    finishPosition(rec);
    return;
  }
  if (ans.error !== undefined && ans.error.code === 'game_over' && ans.error.termination === 'dead_position' &&
      typeof ans.error.fen === 'string' && deadByForce(posFromFen(ans.error.fen), 12, 20000)) {
    // the game was over by FIDE 5.2.2 where arbiter says, confirmed by chessops's own moves
    stats.deadByForce = (stats.deadByForce || 0) + 1;
    finishPosition(rec);
    return;
  }
  if (ans.error !== undefined) {
    rec.failed = true;
    addFatal('arbiter answered an "error" object for a valid request');
    fieldFailures['(error)'] = (fieldFailures['(error)'] || 0) + 1;
    report(`MISMATCH #${reports + 1} (${p.kind})\n  request: ${p.line}\n  arbiter answered an error for a valid request: ${short(ans.error)}\n  chessops: ${short(p.expected)}`);
    finishPosition(rec);
    return;
  }
  const bad = [];
  for (const f of FIELDS) {
    if (!sameValue(p.expected[f], ans[f])) bad.push(f);
  }
  if (bad.length) {
    rec.failed = true;
    for (const f of bad) fieldFailures[f] = (fieldFailures[f] || 0) + 1;
    const n = reports + 1;
    report(() => {
      let s = `MISMATCH #${n} (${p.kind})\n  request: ${p.line}`;
      if (p.kind !== 'fen') s += `\n  chessops fen of the final position: ${p.expected.fen}`;
      for (const f of bad) {
        s += `\n  field ${f}:\n    chessops: ${short(p.expected[f])}\n    arbiter:  ${f in ans ? short(ans[f]) : '(missing)'}`;
        if (Array.isArray(p.expected[f])) s += listDiff(p.expected[f], ans[f]);
      }
      return s;
    });
  }
  finishPosition(rec);
  if (pending.length - pendingHead < LOW_WATER) wake();
}

const rl = createInterface({ input: child.stdout, crlfDelay: Infinity });
rl.on('line', onAnswer);
rl.on('close', () => {
  rlClosed = true;
  wake();
});

const HIGH_WATER = 6000; // requests in flight before the producer pauses
const LOW_WATER = 2000;
const HANG_MS = Number(process.env.DIFF_HANG_MS) || 60000;

let outBuf = [];
let outBytes = 0;

function enqueue(kind, req, expected, posRec) {
  const line = typeof req === 'string' ? req : JSON.stringify(req);
  pending.push({ kind, line, expected, posRec });
  posRec.remaining++;
  stats.requests++;
  outBuf.push(line, '\n');
  outBytes += line.length + 1;
}

async function flush() {
  if (!outBuf.length) return;
  const chunk = outBuf.join('');
  outBuf = [];
  outBytes = 0;
  if (childExited) return;
  if (!child.stdin.write(chunk)) {
    // Pipe full: wait for 'drain', but keep an eye on the child dying or hanging.
    let drained = false;
    const onDrain = () => {
      drained = true;
    };
    child.stdin.once('drain', onDrain);
    const waitStart = Date.now();
    while (!drained && !childExited && !child.stdin.destroyed) {
      if (stalled(waitStart)) {
        addFatal(`arbiter neither read its input nor answered for ${HANG_MS / 1000} s (hung?)`);
        hung = true;
        break;
      }
      await new Promise((res) => {
        const done = () => {
          child.stdin.off('drain', done);
          child.stdin.off('close', done);
          child.off('exit', done);
          child.off('error', done);
          res();
        };
        child.stdin.once('drain', done);
        child.stdin.once('close', done);
        child.once('exit', done);
        child.once('error', done);
        setTimeout(done, 1000);
      });
    }
    child.stdin.off('drain', onDrain);
  }
}

function inFlight() {
  return pending.length - pendingHead;
}

async function waitBelow(n) {
  const waitStart = Date.now();
  while (inFlight() > n && !childExited && !fatalStop()) {
    await new Promise((res) => {
      waiter = res;
      setTimeout(res, 1000);
    });
    if (inFlight() > n && stalled(waitStart)) {
      addFatal(`arbiter gave no answer for ${HANG_MS / 1000} s with ${inFlight()} requests pending (hung?)`);
      hung = true;
      return;
    }
  }
}

let hung = false;
// True when no answer has arrived for HANG_MS since the later of the last answer and waitStart.
function stalled(waitStart) {
  return Date.now() - Math.max(lastAnswerAt, waitStart) > HANG_MS;
}
function fatalStop() {
  return hung;
}

// ---------------------------------------------------------------------------------------------
// Main loop

async function main() {
  const t0 = Date.now();
  const rng = makeRng(opts.seed);
  const positionsRng = makeRng(opts.seed ^ 0x5bd1e995);

  for (let g = 0; g < opts.games && !childExited && !fatalStop(); g++) {
    stats.games++;
    const startFen = rng.chance(0.5) ? START_FEN : OTHER_STARTS[rng.int(OTHER_STARTS.length)];
    const pos = posFromFen(startFen);
    const hist = []; // {fenBefore, uci, san}
    let uciJson = ''; // the UCI history as the inside of a JSON array
    for (let ply = 0; ; ply++) {
      const moves = legalMoves(pos);
      const expected = describe(pos, moves);
      const rec = { remaining: 0, failed: false };
      stats.positions++;
      if (expected.checkmate) stats.mates++;
      if (expected.stalemate) stats.stalemates++;
      if (expected.insufficient_material) stats.insufficient++;

      // Main request: the current FEN alone, or the game's start FEN plus the UCI history.
      if (ply === 0 || positionsRng.chance(0.5)) {
        enqueue('fen', { fen: expected.fen }, expected, rec);
        stats.fenReqs++;
      } else {
        // (built incrementally: the same as JSON.stringify({fen: startFen, moves: [uci...]}))
        enqueue('uci', `{"fen":${JSON.stringify(startFen)},"moves":[${uciJson}]}`, expected, rec);
        stats.uciReqs++;
      }
      // Now and then: the last k moves of the game as SAN (as chessops wrote it) from the FEN k
      // plies back; the answer must describe this same position.
      if (ply > 0 && positionsRng.chance(0.15)) {
        const k = 1 + positionsRng.int(Math.min(ply, 4));
        enqueue('san', { fen: hist[ply - k].fenBefore, moves: hist.slice(ply - k).map((h) => h.san) }, expected, rec);
        stats.sanReqs++;
      }

      // Arbiter's game layer ends a game at a dead position reached by force (a queen that must
      // be taken): such a game stops here too, decided by chessops (deadByForce).
      const over = moves.length === 0 || expected.insufficient_material || pos.halfmoves >= 150 ||
        (pos.board.occupied.size() <= 8 && moves.length <= 8 && deadByForce(pos, 6, 400));
      if (over || ply >= opts.maxPlies) break;
      const m = chooseMove(rng, pos, moves);
      if (m.move.promotion) stats.promotions++;
      if (m.san.startsWith('O-O')) stats.castles++;
      if (pos.board.pawn.has(m.move.from) && squareFile(m.move.from) !== squareFile(m.move.to) && !pos.board.occupied.has(m.move.to)) stats.enPassant++;
      hist.push({ fenBefore: expected.fen, uci: m.uci, san: m.san });
      uciJson += (uciJson ? ',"' : '"') + m.uci + '"';
      pos.play(m.move);
    }
    if (outBytes > 1 << 16 || inFlight() > LOW_WATER) await flush();
    if (inFlight() > HIGH_WATER) await waitBelow(LOW_WATER);
  }
  await flush();
  if (!childExited) child.stdin.end();

  // Wait for the remaining answers and for the process to exit.
  const waitStart = Date.now();
  await new Promise((res) => {
    const check = () => {
      if (childExited && rlClosed) return res();
      if (hung || stalled(waitStart)) {
        addFatal(`arbiter gave no answer for ${HANG_MS / 1000} s with ${inFlight()} requests pending (hung?)`);
        hung = true;
        return res();
      }
      setTimeout(check, 50);
    };
    check();
  });

  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (inFlight() > 0) {
    // Positions whose requests never got an answer count as failed.
    const recs = new Set();
    for (let i = pendingHead; i < pending.length; i++) recs.add(pending[i].posRec);
    for (const r of recs) {
      r.failed = true;
      r.remaining = 1;
      finishPosition(r);
    }
    if (spawnError) addFatal(childExitInfo);
    else if (childExited) addFatal(`arbiter ${childExitInfo} with ${inFlight()} requests unanswered`);
  } else if (childExited && childExitInfo !== 'exited with status 0' && !hung) {
    addFatal(`arbiter ${childExitInfo} at the end of its input (expected status 0)`);
  }

  process.stdout.write(
    `games ${stats.games}, positions ${stats.positions}, requests ${stats.requests} ` +
      `(fen ${stats.fenReqs}, fen+uci ${stats.uciReqs}, fen+san ${stats.sanReqs}); ` +
      `mates ${stats.mates}, stalemates ${stats.stalemates}, insufficient ${stats.insufficient}, dead by force (confirmed) ${stats.deadByForce || 0}, ` +
      `promotions ${stats.promotions}, en passant ${stats.enPassant}, castles ${stats.castles}; ` +
      `seed ${opts.seed}, ${secs} s\n`,
  );
  const ff = Object.entries(fieldFailures);
  if (ff.length) process.stdout.write(`mismatching fields: ${ff.map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
  if (fatals.length) {
    for (const f of fatals) process.stderr.write(`FATAL: ${f}\n`);
    if (stderrTail) process.stderr.write(`arbiter stderr (tail):\n${stderrTail}\n`);
  }
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  process.exitCode = failed > 0 || fatals.length ? 1 : 0;
  if (!childExited) child.kill();
}

// Safety net: if the event loop ever drains before main() finished (a promise that can never
// settle), do not let the run pass silently.
let finished = false;
process.on('exit', (code) => {
  if (!finished && code === 0) {
    process.stdout.write(`diff.mjs: stopped before finishing (${childExitInfo || 'arbiter stream stalled'})\n`);
    process.stdout.write(`${passed} passed, ${failed} failed\n`);
    process.exitCode = 1;
  }
});

main().then(() => {
  finished = true;
}).catch((e) => {
  finished = true;
  process.stderr.write(`diff.mjs: internal error: ${e && e.stack ? e.stack : e}\n`);
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  try {
    child.kill();
  } catch {}
  process.exit(1);
});
