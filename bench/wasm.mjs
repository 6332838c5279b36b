// Arbiter — MIT licence, see LICENSE.
// The WebAssembly module against chessops, in one node process: its size (raw and gzipped),
// the time to load it, perft on the standard test positions, and SAN — every legal move of
// every position of seeded random games written in SAN, and the games' moves read from SAN and
// played — plus the board's destinations (chessground's dests).  Best of RUNS runs each.
// usage: bench/wasm.sh [--runs N] [--games N]   (builds the module, installs chessops)

import { readFileSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const RUNS = opt('--runs', 3);
const GAMES = opt('--games', 200);

const top = fileURLToPath(new URL('..', import.meta.url));
const modulePath = process.env.ARBITER_WASM || `${top}build/wasm/arbiter.mjs`;
const ops = (file) => import(pathToFileURL(`${top}tests/wasm/node_modules/chessops/dist/esm/${file}.js`).href);
const { Chess: OpsChess } = await ops('chess');
const { parseFen } = await ops('fen');
const { makeSan, parseSan } = await ops('san');
const { perft: opsPerft } = await ops('debug');
const { chessgroundDests } = await ops('compat');

const t0 = performance.now();
const { Chess, START_FEN } = await import(pathToFileURL(modulePath).href);
const loadMs = performance.now() - t0;

function best(fn) {
  let min = Infinity;
  let result;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    result = fn();
    min = Math.min(min, performance.now() - t);
  }
  return { ms: min, result };
}

const rows = [];
function row(what, ours, theirs, unit) {
  rows.push([what, ours, theirs, unit]);
}

// ---- size ----
const wasmBytes = readFileSync(modulePath.replace(/\.mjs$/, '.wasm'));
const jsBytes = readFileSync(modulePath);
const gz = (b) => gzipSync(b, { level: 9 }).length;
const br = (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`arbiter.wasm ${kb(wasmBytes.length)} (gzip -9 ${kb(gz(wasmBytes))}, brotli ${kb(br(wasmBytes))}); ` +
  `arbiter.mjs ${kb(jsBytes.length)} (gzip -9 ${kb(gz(jsBytes))}); together gzipped ${kb(gz(wasmBytes) + gz(jsBytes))}`);
console.log(`loading the module (fetch/read, compile, instantiate, the library's tables): ${loadMs.toFixed(1)} ms`);

// ---- perft ----
const PERFT = [
  ['start', START_FEN, 5],
  ['kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 4],
  ['position 3', '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 5],
  ['position 4', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', 4],
  ['position 5', 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', 4],
];
let perftOurs = 0;
let perftTheirs = 0;
let perftNodes = 0;
for (const [name, fen, depth] of PERFT) {
  const c = new Chess(fen);
  const pos = OpsChess.fromSetup(parseFen(fen).unwrap()).unwrap();
  const a = best(() => c.perft(depth));
  const b = best(() => opsPerft(pos, depth));
  if (a.result !== b.result) throw new Error(`perft ${name} ${depth}: arbiter ${a.result}, chessops ${b.result}`);
  perftOurs += a.ms;
  perftTheirs += b.ms;
  perftNodes += a.result;
  row(`perft ${name} depth ${depth} (${a.result} nodes)`, a.ms, b.ms, 'ms');
  c.free();
}
row(`perft, all five (${perftNodes} nodes)`, perftOurs, perftTheirs, 'ms');

// ---- random games, their moves in SAN ----
let seed = 1;
const rand = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const games = [];
for (let g = 0; g < GAMES; g++) {
  const c = new Chess();
  const sans = [];
  for (let ply = 0; ply < 120; ply++) {
    const moves = c.moves();
    if (!moves.length) break;
    const san = moves[Math.floor(rand() * moves.length)];
    c.move(san);
    sans.push(san);
  }
  c.free();
  games.push(sans);
}
const positions = games.reduce((n, g) => n + g.length, 0);
const startPos = OpsChess.default();

// every legal move in SAN at every position, the game's move played after
const writeOurs = best(() => {
  let n = 0;
  for (const sans of games) {
    const c = new Chess();
    for (const san of sans) {
      n += c.moves().length;
      c.move(san);
    }
    c.free();
  }
  return n;
});
const writeTheirs = best(() => {
  let n = 0;
  for (const sans of games) {
    const pos = startPos.clone();
    for (const san of sans) {
      for (const [from, dests] of pos.allDests()) {
        for (const to of dests) {
          const promoting = pos.board.pawn.has(from) && (to >> 3 === 0 || to >> 3 === 7);
          if (promoting) for (const promotion of ['queen', 'rook', 'bishop', 'knight']) (makeSan(pos, { from, to, promotion }), n++);
          else (makeSan(pos, { from, to }), n++);
        }
      }
      pos.play(parseSan(pos, san));
    }
  }
  return n;
});
if (writeOurs.result !== writeTheirs.result) throw new Error(`SAN: ${writeOurs.result} moves against ${writeTheirs.result}`);
row(`SAN out: every legal move of ${positions} positions (${writeOurs.result} moves), games played`, writeOurs.ms, writeTheirs.ms, 'ms');

// the games read from SAN and played
const readOurs = best(() => {
  for (const sans of games) {
    const c = new Chess();
    for (const san of sans) c.move(san);
    c.free();
  }
  return positions;
});
const readTheirs = best(() => {
  for (const sans of games) {
    const pos = startPos.clone();
    for (const san of sans) pos.play(parseSan(pos, san));
  }
  return positions;
});
row(`SAN in: ${positions} moves read and played`, readOurs.ms, readTheirs.ms, 'ms');

// chessground's destinations at every position
const destsOurs = best(() => {
  let n = 0;
  for (const sans of games) {
    const c = new Chess();
    for (const san of sans) {
      n += c.dests().size;
      c.move(san);
    }
    c.free();
  }
  return n;
});
const destsTheirs = best(() => {
  let n = 0;
  for (const sans of games) {
    const pos = startPos.clone();
    for (const san of sans) {
      n += chessgroundDests(pos).size;
      pos.play(parseSan(pos, san));
    }
  }
  return n;
});
row(`dests (chessground) at ${positions} positions, games played`, destsOurs.ms, destsTheirs.ms, 'ms');

console.log(`\n${'what'.padEnd(78)} ${'arbiter.wasm'.padStart(13)} ${'chessops'.padStart(11)}  ratio`);
for (const [what, ours, theirs] of rows)
  console.log(`${what.padEnd(78)} ${ours.toFixed(1).padStart(10)} ms ${theirs.toFixed(1).padStart(8)} ms  ${(theirs / ours).toFixed(1)}x`);
console.log(`\n(best of ${RUNS} runs each; node ${process.version}; ratio = chessops's time / arbiter.wasm's)`);
