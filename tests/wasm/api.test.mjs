// Arbiter — MIT licence, see LICENSE.
// The WebAssembly module's API (node --test): errors carry the library's words — the same
// message `arbiter query` gives for the same input, for input chess.js and chessops refuse too —
// perft against the published counts and chessops, SAN in and out, undo, Chess960, the laws'
// answers on positions whose answer is known from the Laws, and C memory released (free, and
// the FinalizationRegistry after garbage collection).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Chess as ChessJs } from 'chess.js';
import { perft as opsPerft } from 'chessops/debug';
import { wasm, ARBITER, opsFrom, parseFen, makeFen, makeSan, OpsChess, parseSan } from './lib.mjs';

const { Chess, ArbiterError, START_FEN, names } = wasm;

// `arbiter query`'s error for each request (one process, JSON lines).
function queryErrors(requests) {
  const r = spawnSync(ARBITER, ['query'], { input: requests.map((q) => JSON.stringify(q)).join('\n') + '\n', encoding: 'utf8' });
  assert.equal(r.error, undefined, `arbiter query did not run: ${r.error}`);
  return r.stdout.trim().split('\n').map((line) => JSON.parse(line).error);
}

const BAD_FENS = [
  'rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', // a rank of 7 squares
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1', // no such piece
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', // no such side
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1', // no halfmove count
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1', // seven ranks
  '8/8/8/8/8/8/8/K7 w - - 0 1', // no black king
  'k7/8/8/8/8/8/8/KK6 w - - 0 1', // two white kings
  'k6P/8/8/8/8/8/8/K7 w - - 0 1', // a pawn on the last rank
  'k7/8/8/8/8/8/8/K6r b - - 0 1', // the side not to move in check (chess.js does not look)
  '',
];
const CHESS_JS_TAKES = new Set(['k7/8/8/8/8/8/8/K6r b - - 0 1']);

test('a FEN the library refuses: ArbiterError with the library\'s message, as arbiter query says it', { skip: !ARBITER && 'no ARBITER' }, () => {
  const errors = queryErrors(BAD_FENS.map((fen) => ({ fen })));
  BAD_FENS.forEach((fen, i) => {
    // an independent opinion: chessops refuses these too, and chess.js all but one
    assert.ok(parseFen(fen).isErr || OpsChess.fromSetup(parseFen(fen).unwrap()).isErr, `chessops takes ${fen}`);
    if (!CHESS_JS_TAKES.has(fen)) assert.throws(() => new ChessJs(fen), undefined, `chess.js takes ${fen}`);
    let caught = null;
    try {
      new Chess(fen);
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof ArbiterError, `${fen}: ${caught}`);
    assert.ok(caught instanceof Error);
    assert.equal(caught.code, errors[i].code, fen);
    assert.equal(caught.message, errors[i].message, fen);
    // the CLI counts columns from 1, the API (a string index) from 0
    if (errors[i].column !== undefined) assert.equal(caught.column, errors[i].column - 1, fen);
    if (errors[i].problems) assert.deepEqual(caught.problems, errors[i].problems.map((p) => p.problem), fen);
  });
});

test('lenient reading accepts what only a strict reader refuses, never a missing king', () => {
  const fen = 'k7/8/8/8/8/8/8/K6r b - - 0 1';
  assert.throws(() => new Chess(fen), { code: 'fen_invalid', problems: ['opponent_in_check'] });
  assert.equal(new Chess(fen, { lenient: true }).fen(), fen);
  assert.throws(() => new Chess('8/8/8/8/8/8/8/K7 w - - 0 1', { lenient: true }), { code: 'fen_invalid' });
  assert.throws(() => new Chess(42), { code: 'argument' });
});

test('a move the library refuses: ArbiterError with its reason, as arbiter query says it; the board unchanged', { skip: !ARBITER && 'no ARBITER' }, () => {
  const cases = [
    { fen: START_FEN, move: 'Nd4' }, // no legal move fits
    { fen: START_FEN, move: 'Zz9' }, // not a move
    { fen: START_FEN, move: 'e2e5' }, // UCI, illegal
    { fen: 'k7/8/8/8/8/8/8/KN1N4 w - - 0 1', move: 'Nc3' }, // ambiguous: b1 or d1
    // still ambiguous (chess.js's permissive reading takes it for Nbc3)
    { fen: 'k7/8/8/8/8/8/8/KN1N4 w - - 0 1', move: 'N1c3', chessJsTakes: true },
  ];
  const errors = queryErrors(cases.map((c) => ({ fen: c.fen, moves: [c.move] })));
  cases.forEach((c, i) => {
    const chess = new Chess(c.fen);
    assert.throws(() => chess.move(c.move), (e) => {
      assert.ok(e instanceof ArbiterError);
      assert.equal(e.code, errors[i].code, c.move);
      assert.equal(e.message, errors[i].message, c.move);
      return true;
    });
    // chess.js and chessops refuse them too
    if (!c.chessJsTakes) assert.throws(() => new ChessJs(c.fen).move(c.move));
    assert.equal(parseSan(opsFrom(c.fen), c.move), undefined);
    assert.equal(chess.fen(), c.fen);
    assert.deepEqual(chess.history(), []);
  });
  const chess = new Chess();
  assert.throws(() => chess.move({ from: 'e2', to: 'e5' }), { code: 'move_illegal' });
  assert.throws(() => chess.move({ from: 'e2', to: 'z9' }), { code: 'move_syntax' });
  assert.throws(() => chess.move({ from: 'e2', to: 'e4', promotion: 'k' }), { code: 'move_syntax' });
  assert.throws(() => chess.move(null), { code: 'argument' });
  assert.throws(() => chess.san('e5'), { code: 'move_illegal' });
  const promo = new Chess('k7/4P3/8/8/8/8/8/K7 w - - 0 1');
  assert.throws(() => promo.move({ from: 'e7', to: 'e8' }), { code: 'move_illegal' });
  assert.equal(promo.move({ from: 'e7', to: 'e8', promotion: 'n' }).san, 'e8=N');
});

test('undo: the move back, null at the start; history', () => {
  const c = new Chess();
  assert.equal(c.undo(), null);
  const m = c.move('e4');
  assert.deepEqual(m, { color: 'w', from: 'e2', to: 'e4', san: 'e4', uci: 'e2e4' });
  c.move('e7e5');
  c.move({ from: 'g1', to: 'f3' });
  assert.deepEqual(c.history(), ['e4', 'e5', 'Nf3']);
  assert.deepEqual(c.history({ verbose: true }).map((x) => x.uci), ['e2e4', 'e7e5', 'g1f3']);
  assert.equal(c.undo().san, 'Nf3');
  assert.equal(c.fen(), 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
  c.undo();
  c.undo();
  assert.equal(c.fen(), START_FEN);
  assert.equal(c.undo(), null);
});

test('perft: the published counts (chessprogramming.org), and chessops on the same positions', () => {
  const known = [
    [START_FEN, [1, 20, 400, 8902, 197281, 4865609]],
    ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', [1, 48, 2039, 97862, 4085603]],
    ['8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', [1, 14, 191, 2812, 43238, 674624]],
    ['r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', [1, 6, 264, 9467, 422333]],
    ['rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', [1, 44, 1486, 62379, 2103487]],
  ];
  for (const [fen, counts] of known) {
    const c = new Chess(fen);
    counts.forEach((n, depth) => assert.equal(c.perft(depth), n, `${fen} depth ${depth}`));
    assert.equal(c.perft(3), opsPerft(opsFrom(fen), 3), fen);
    c.free();
  }
  // Chess960 start 0 (bbqnnrkr): chessops counts it
  const c960 = Chess.chess960(0);
  const ops960 = opsFrom(c960.fen());
  for (let d = 1; d <= 3; d++) assert.equal(c960.perft(d), opsPerft(ops960, d));
  assert.throws(() => c960.perft(-1), { code: 'argument' });
});

test('Chess960: start numbers, castling both ways written king-takes-rook, X-FEN', () => {
  assert.equal(Chess.chess960(518).fen(), START_FEN);
  assert.equal(Chess.chess960(518).chess960Number(), 518);
  assert.throws(() => Chess.chess960(960), { code: 'argument' });
  assert.throws(() => Chess.chess960(1.5), { code: 'argument' });
  // king on b1, rooks a1 and e1: castling to both sides, king-takes-rook in UCI
  const fen = 'r1k4r/8/8/8/8/8/8/RK2R3 w KQkq - 0 1';
  const c = new Chess(fen, { chess960: true });
  assert.equal(c.chess960, true);
  const castles = c.moves({ verbose: true }).filter((m) => m.castling).map((m) => [m.uci, m.san]);
  assert.deepEqual(castles.sort(), [['b1a1', 'O-O-O'], ['b1e1', 'O-O']]);
  // (a2 is attacked by the rook on a8)
  assert.deepEqual([...c.dests().get('b1')].sort(), ['a1', 'b2', 'c1', 'c2', 'e1']);
  assert.equal(c.move('O-O').uci, 'b1e1');
  // chessops plays the same castling to the same position
  const ops = opsFrom(fen);
  ops.play(parseSan(ops, 'O-O'));
  assert.equal(c.fen(), makeFen(ops.toSetup()));
  assert.equal(c.fen(), 'r1k4r/8/8/8/8/8/8/R4RK1 b kq - 1 1');
  assert.equal(c.clone().fen(), c.fen());
  assert.deepEqual(c.clone().history(), ['O-O']);
});

test('dests and premove dests as chessground takes them', () => {
  const c = new Chess('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  const d = c.dests();
  // standard castling: onto the king's square and onto the rook's
  assert.deepEqual([...d.get('e1')].sort(), ['c1', 'd1', 'd2', 'e2', 'f1', 'f2', 'g1', 'h1', 'a1'].sort());
  // after 1.e4, Black to move, White's premoves: e4 takes on d5 or f5 after ...d5 or ...f5,
  // and goes to e5 unless ...e5 blocks it, never e6; the queen to h5; the king to e2
  const p = new Chess();
  p.move('e4');
  const pre = p.premoveDests();
  assert.deepEqual([...pre.get('e4')].sort(), ['d5', 'e5', 'f5']);
  assert.ok(pre.get('d1').includes('h5'));
  assert.deepEqual(pre.get('e1'), ['e2']);
  assert.ok(!pre.has('e7'));
  // every white man is listed: the rook in its corner with no premove at all
  assert.deepEqual(pre.get('a1'), []);
  assert.equal(pre.size, 16);
});

test('the laws on positions whose answer the Laws give', () => {
  // Fool's mate
  const m = new Chess();
  for (const x of ['f3', 'e5', 'g4', 'Qh4#']) m.move(x);
  // the articles of the FIDE Laws (2023) each ending rests on
  assert.deepEqual(m.outcome(), { result: '0-1', winner: 'black', termination: 'checkmate', article: '5.1.1' });
  assert.equal(m.isCheckmate(), true);
  assert.equal(m.isGameOver(), true);
  assert.equal(m.result(), '0-1');
  assert.deepEqual(m.moves(), []);
  assert.throws(() => m.move('e4'), { code: 'move_illegal' });
  // stalemate
  const s = new Chess('k7/2Q5/1K6/8/8/8/8/8 b - - 0 1');
  assert.equal(s.isStalemate(), true);
  assert.deepEqual(s.outcome(), { result: '1/2-1/2', winner: null, termination: 'stalemate', article: '5.2.1' });
  // king and bishop against king: insufficient, dead
  const kb = new Chess('k7/8/8/8/8/8/8/KB6 w - - 0 1');
  assert.equal(kb.isInsufficientMaterial(), true);
  assert.equal(kb.isDeadPosition(), true);
  assert.equal(kb.outcome().termination, 'insufficient_material');
  // a locked wall of pawns: mating material, but dead (the library proves it)
  const wall = new Chess('k7/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/K7 w - - 0 1');
  assert.equal(wall.isInsufficientMaterial(), false);
  assert.equal(wall.isDeadPosition(), true);
  assert.equal(wall.winnability('white').verdict, 'unwinnable');
  assert.equal(wall.status().deadPosition, true);
  // threefold by knight moves: claimable at the third occurrence, fivefold ends the game
  const r = new Chess();
  const shuffle = ['Nf3', 'Nf6', 'Ng1', 'Ng8'];
  for (let i = 0; i < 8; i++) r.move(shuffle[i % 4]);
  assert.equal(r.repetitions(), 3);
  assert.equal(r.isThreefoldRepetition(), true);
  assert.equal(r.canClaimThreefold(), true);
  assert.equal(r.isGameOver(), false);
  assert.deepEqual(r.outcome({ claimDraw: true }), { result: '1/2-1/2', winner: null, termination: 'threefold_repetition', article: '9.2' });
  for (let i = 0; i < 8; i++) r.move(shuffle[i % 4]);
  assert.equal(r.repetitions(), 5);
  assert.equal(r.isFivefoldRepetition(), true);
  assert.equal(r.outcome().termination, 'fivefold_repetition');
  assert.equal(r.outcome().article, '9.6.1');
  // a move that would repeat for the third time: claimable before it is played (9.2.1.1)
  const b = new Chess();
  for (const x of ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1']) b.move(x);
  assert.equal(b.repetitions(), 2);
  assert.equal(b.canClaimThreefold(), true);
  // 50 and 75 moves
  const f = new Chess('k7/8/8/8/8/8/1R6/K7 w - - 99 80');
  assert.equal(f.canClaimFifty(), true);
  assert.equal(f.isFiftyMoves(), false);
  f.move('Rb3');
  assert.equal(f.isFiftyMoves(), true);
  assert.equal(f.isGameOver(), false);
  const s75 = new Chess('k7/8/8/8/8/8/1R6/K7 w - - 149 100');
  s75.move('Rb3');
  assert.equal(s75.outcome().termination, 'seventyfive_moves');
  assert.equal(s75.outcome().article, '9.6.2');
  // under the online rules a threefold repetition ends the game at once
  const online = new Chess(START_FEN, { rules: 'online' });
  for (let i = 0; i < 8; i++) online.move(shuffle[i % 4]);
  assert.equal(online.outcome().termination, 'threefold_repetition');
  assert.throws(() => new Chess(START_FEN, { rules: 'blitz' }), { code: 'argument' });
  assert.ok(names.rules.includes('fide-blitz'));
});

test('winnability: a helpmate line chessops replays to mate', () => {
  const c = new Chess('8/8/4k3/8/8/8/3PP3/4K3 w - - 0 1');
  const w = c.winnability('white');
  assert.equal(w.verdict, 'winnable');
  assert.equal(w.proof, 'helpmate');
  const ops = opsFrom(c.fen());
  for (const san of w.lineSan) ops.play(parseSan(ops, san));
  assert.equal(ops.isCheckmate(), true);
  assert.equal(ops.turn, 'black');
  assert.deepEqual(c.winnability('b'), { color: 'black', verdict: 'unwinnable', proof: 'material', nodes: 0, line: [], lineSan: [] });
  assert.throws(() => c.winnability('green'), { code: 'argument' });
});

test('moves: SAN, verbose, by square, UCI; get and board as chess.js has them', () => {
  const c = new Chess();
  const ours = c.moves({ verbose: true });
  const theirs = new ChessJs().moves({ verbose: true });
  assert.deepEqual(ours.map((m) => m.san).sort(), theirs.map((m) => m.san).sort());
  for (const m of ours) {
    const t = theirs.find((x) => x.san === m.san);
    assert.equal(m.from, t.from);
    assert.equal(m.to, t.to);
    assert.equal(m.piece, t.piece);
    assert.equal(m.color, t.color);
  }
  assert.deepEqual(c.moves({ square: 'g1' }).sort(), ['Nf3', 'Nh3']);
  assert.deepEqual(c.uciMoves().length, 20);
  assert.deepEqual(c.get('e1'), { square: 'e1', type: 'k', color: 'w' });
  assert.equal(c.get('e4'), null);
  assert.deepEqual(c.board(), new ChessJs().board());
  const x = new Chess('r3k3/1P6/8/3pP3/8/8/8/4K3 w q d6 0 1');
  const ep = x.moves({ verbose: true }).find((m) => m.san === 'exd6');
  assert.deepEqual([ep.capture, ep.enPassant, ep.captured], [true, true, 'p']);
  const promo = x.moves({ verbose: true }).find((m) => m.san === 'bxa8=Q+');
  assert.deepEqual([promo.promotion, promo.captured, promo.check], ['q', 'r', true]);
  assert.equal(x.san('b7a8q'), 'bxa8=Q+');
  assert.equal(x.san({ from: 'b7', to: 'b8', promotion: 'r' }), makeSan(opsFrom(x.fen()), { from: 49, to: 57, promotion: 'rook' }));
  assert.equal(x.fen(), 'r3k3/1P6/8/3pP3/8/8/8/4K3 w q d6 0 1');
  assert.equal(x.fen({ epd: true }), 'r3k3/1P6/8/3pP3/8/8/8/4K3 w q d6');
});

test('C memory: free() releases it at once, and the registry after garbage collection', () => {
  const c = new Chess();
  c.free();
  c.free();
  assert.throws(() => c.fen(), { code: 'argument' });
  // a child node with --expose-gc: many boards made and dropped, the wasm memory stays put
  const script = `
    const { Chess } = await import(${JSON.stringify(new URL(`file://${process.env.ARBITER_WASM}`).href)});
    const grow = () => { for (let i = 0; i < 2000; i++) new Chess().move('e4'); };
    const size = () => process.memoryUsage().rss;
    for (let round = 0; round < 3; round++) { grow(); globalThis.gc(); await new Promise((r) => setTimeout(r, 50)); }
    const before = size();
    for (let round = 0; round < 10; round++) { grow(); globalThis.gc(); await new Promise((r) => setTimeout(r, 50)); }
    for (let i = 0; i < 2000; i++) { const c = new Chess(); c.move('e4'); c.free(); }
    console.log(JSON.stringify({ before, after: size() }));`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const { before, after } = JSON.parse(r.stdout);
  // 20,000 boards of about 18 KB each, not freed, would be 360 MB more: the process did not
  // grow with them (it does by that much with a registry that frees nothing)
  assert.ok(after - before < 64 << 20, `the process grew from ${before} to ${after} bytes`);
});
