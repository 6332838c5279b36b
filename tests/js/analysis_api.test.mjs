// Arbiter — MIT licence, see LICENSE.
//
// analysis_api.test.mjs: the analysis board's API (POST /api/analysis, /api/analysis/position,
// /api/analysis/pgn) against a real `arbiter serve`.  What is expected comes from elsewhere:
// chessops (tests/diff's copy) replays real games and counts repetitions, the halfmove clock,
// check, mate, stalemate, insufficient material and the legal moves itself; the Laws' cases are
// positions checked by hand against the FIDE Laws of Chess (2023) — 9.2 and 9.3 claims, 9.6.1
// fivefold, 9.6.2 75 moves, 5.2.2 dead positions — and the exported PGN is read back by
// chessops's PGN parser and by `arbiter pgn check`.
//
// Run: tests/js/run.sh build/release/arbiter test analysis_api.test.mjs (chessops from
// tests/diff: scripts/npm.sh tests/diff)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer, cleanup, request, twoPlayers, play, pgnCheck } from './lib.mjs';

const chessops = (m) => import(new URL(`../diff/node_modules/chessops/dist/esm/${m}.js`, import.meta.url));
const { Chess } = await chessops('chess');
const { parseFen, makeFen } = await chessops('fen');
const { parseSan } = await chessops('san');
const { makeUci } = await chessops('util');
const { parsePgn, startingPosition } = await chessops('pgn');

const REAL = fileURLToPath(new URL('../data/pgn/real/', import.meta.url));

let server;
before(async () => {
  server = await startServer({ args: ['--no-engine'] });
});
after(async () => {
  await server.stop();
  cleanup(server.dir);
});

async function analysis(body, path = '/api/analysis') {
  const res = await request(`${server.base}${path}`, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

// chessops's identity of a position for repetitions (FIDE 9.2.2): placement, side to move,
// castling rights, and the en passant square only when a capture there is legal (toSetup()
// gives the legal one)
const identity = (pos) => makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');

// Every legal move in UCI, as chessops generates them: castling (king onto its rook inside
// chessops) written as the king's two-square step, a promotion once per piece.
function legalUci(pos) {
  const out = [];
  const name = (sq) => 'abcdefgh'[sq & 7] + ((sq >> 3) + 1);
  for (const [from, to] of pos.allDests()) {
    const piece = pos.board.get(from);
    for (const sq of to) {
      const target = pos.board.get(sq);
      if (piece.role === 'king' && target && target.color === piece.color && target.role === 'rook') {
        out.push(name(from) + name((sq & 7) > (from & 7) ? (from & 56) + 6 : (from & 56) + 2));
      } else if (piece.role === 'pawn' && (sq >> 3 === 7 || sq >> 3 === 0)) {
        for (const p of 'qrbn') out.push(name(from) + name(sq) + p);
      } else {
        out.push(name(from) + name(sq));
      }
    }
  }
  return out.sort();
}

// chessops's UCI, with castling as the king's two-square step (as the server writes it in
// standard chess).
function uciOf(pos, move) {
  const piece = pos.board.get(move.from), target = pos.board.get(move.to);
  if (piece.role === 'king' && target && target.color === piece.color && target.role === 'rook') {
    const to = (move.to & 7) > (move.from & 7) ? (move.from & 56) + 6 : (move.from & 56) + 2;
    return makeUci({ from: move.from, to });
  }
  return makeUci(move);
}

// The main line of a node list, as ids.
function mainline(a) {
  return a.mainline.map((id) => a.nodes[id]);
}

// Games of a PGN file, split at their tag sections.
function games(file) {
  return readFileSync(file, 'utf8').split(/\n(?=\[Event )/).filter((g) => g.trim());
}

test('every main-line position of real games: the facts chessops computes itself', async () => {
  const pgns = games(`${REAL}lichess-jishanshaikh4-standard-first300.pgn`).slice(0, 40)
    .concat(games(`${REAL}pychess-dortmund.pgn`).slice(0, 20));
  let positions = 0, repeated = 0;
  for (const pgn of pgns) {
    if (Buffer.byteLength(JSON.stringify({ pgn })) > 8000) continue; // the HTTP body's bound
    const { status, body: a } = await analysis({ pgn });
    assert.equal(status, 200, JSON.stringify(a).slice(0, 300));
    const [game] = parsePgn(pgn);
    const pos = startingPosition(game.headers).unwrap();
    const seen = [identity(pos)];
    const line = mainline(a);
    let i = 0;
    for (const data of game.moves.mainline()) {
      const n = line[++i];
      assert.ok(n, `node ${i} of ${game.headers.get('White')} - ${game.headers.get('Black')}`);
      const move = parseSan(pos, data.san);
      assert.equal(n.uci, uciOf(pos, move));
      pos.play(move);
      seen.push(identity(pos));
      const L = n.laws;
      assert.equal(n.fen.split(' ').slice(0, 4).join(' '), identity(pos));
      const count = seen.filter((k) => k === identity(pos)).length;
      assert.equal(L.repetitions.count, count, `repetitions at ply ${i}`);
      // the plies where it stood, each one a position chessops calls the same
      assert.equal(L.repetitions.at.length, count);
      for (const at of L.repetitions.at) assert.equal(seen[at.ply], identity(pos));
      if (count > 1) repeated++;
      assert.equal(L.halfmove_clock, pos.halfmoves);
      assert.equal(L.check, pos.isCheck());
      assert.equal(L.checkmate, pos.isCheckmate());
      assert.equal(L.stalemate, pos.isStalemate());
      assert.equal(L.material !== 'sufficient', pos.isInsufficientMaterial());
      assert.deepEqual([...L.legal].sort(), legalUci(pos), `legal moves at ply ${i}`);
      positions++;
    }
  }
  assert.ok(positions > 3000, `${positions} positions`);
  assert.ok(repeated > 0, 'some positions repeated');
});

// 1.Nf3 Nf6 2.Ng1 Ng8, three times and more: the start position again at plies 4, 8, 12, 16.
const SHUFFLE = (k) => Array.from({ length: k }, (_, i) => ['Nf3', 'Nf6', 'Ng1', 'Ng8'][i % 4]);

test('threefold: the third time a claim now (9.2.1.2), one move before a claim by writing the move (9.2.1.1)', async () => {
  const { status, body: a } = await analysis({ moves: SHUFFLE(8) });
  assert.equal(status, 200);
  const line = mainline(a);
  // after 2...Ng8 the start position stands for the second time
  assert.equal(line[4].laws.repetitions.count, 2);
  assert.deepEqual(line[4].laws.repetitions.at.map((x) => x.ply), [0, 4]);
  assert.match(line[4].laws.notes.find((x) => x.topic === 'repetition').text, /occurred 2 times \(the start and after 2\.\.\.Ng8\)/);
  assert.deepEqual(line[4].laws.claims, []);
  // after 4.Ng1 Black may write 4...Ng8, which makes the start position the third time
  const c7 = line[7].laws.claims;
  assert.equal(c7.length, 1);
  assert.equal(c7[0].reason, 'threefold');
  assert.equal(c7[0].article, '9.2.1.1');
  assert.equal(c7[0].now, false);
  assert.deepEqual(c7[0].moves.map((m) => m.san), ['Ng8']);
  // after 4...Ng8: the third time; White, to move, may claim now
  const L = line[8].laws;
  assert.equal(L.repetitions.count, 3);
  assert.deepEqual(L.repetitions.at.map((x) => x.label), ['the start', '2...Ng8', '4...Ng8']);
  assert.deepEqual(L.claims.map((c) => [c.reason, c.article, c.now, c.by]), [['threefold', '9.2.1.2', true, 'white']]);
  assert.equal(L.outcome, null, 'under FIDE rules a threefold repetition is claimed, not declared');
  // under the online rules the server declares it
  const online = (await analysis({ moves: SHUFFLE(8), rules: 'online' })).body;
  assert.equal(mainline(online)[8].laws.outcome.termination, 'threefold_repetition');
});

test('fivefold ends the game by itself (9.6.1); moves after it are marked as after the end', async () => {
  const { status, body: a } = await analysis({ moves: SHUFFLE(18) });
  assert.equal(status, 200);
  const line = mainline(a);
  assert.equal(line[12].laws.fivefold, false);
  assert.equal(line[16].laws.repetitions.count, 5);
  assert.equal(line[16].laws.fivefold, true);
  assert.deepEqual(line[16].laws.outcome, { result: '1/2-1/2', termination: 'fivefold_repetition' });
  assert.match(line[16].laws.notes.find((x) => x.topic === 'repetition').text, /9\.6\.1/);
  assert.equal(line[16].laws.after_end, null);
  assert.deepEqual(line[17].laws.after_end, { ply: 16, termination: 'fivefold_repetition' });
});

test('the 50- and 75-move rules: a claim with a move at 99 (9.3.1), now at 100 (9.3.2), the end at 150 (9.6.2)', async () => {
  // king and rook against king: no capture or pawn move is possible for either side
  const fen99 = '4k3/8/8/8/8/8/R7/4K3 w - - 99 80';
  const { body: a } = await analysis({ fen: fen99, moves: ['Ra3'] });
  const [root, after] = mainline(a);
  const pos = Chess.fromSetup(parseFen(fen99).unwrap()).unwrap();
  let legal = 0;
  for (const [, to] of pos.allDests()) legal += to.size();
  // every legal move here is neither a capture nor a pawn move: each one completes the fifty
  const claim = root.laws.claims.find((c) => c.reason === 'fifty');
  assert.equal(claim.article, '9.3.1');
  assert.equal(claim.now, false);
  assert.equal(claim.moves.length, legal);
  assert.equal(after.laws.halfmove_clock, 100);
  assert.deepEqual(after.laws.claims.map((c) => [c.reason, c.article, c.now, c.by]), [['fifty', '9.3.2', true, 'black']]);
  assert.equal(after.laws.outcome, null);
  const b = (await analysis({ fen: '4k3/8/8/8/8/8/R7/4K3 w - - 149 80', moves: ['Ra3'] })).body;
  const end = mainline(b)[1].laws;
  assert.equal(end.halfmove_clock, 150);
  assert.equal(end.seventyfive, true);
  assert.deepEqual(end.outcome, { result: '1/2-1/2', termination: 'seventyfive_moves' });
  assert.match(end.notes.find((x) => x.topic === 'fifty').text, /9\.6\.2/);
});

test('dead positions and who can still mate (5.2.2), with the reason', async () => {
  // a king and a bishop against a king
  let L = (await analysis({ fen: '8/8/4k3/8/8/3BK3/8/8 w - - 0 1' })).body.nodes[0].laws;
  assert.equal(L.dead.dead, true);
  assert.equal(L.material, 'KBvK');
  assert.match(L.dead.why, /bishop/);
  assert.equal(L.winnable.white.verdict, 'unwinnable');
  assert.equal(L.winnable.black.verdict, 'unwinnable');
  // locked pawns: b4/b5, d4/d5, f4/f5, h4/h5; every square on the fourth rank a black pawn
  // attacks and every one on the fifth a white pawn attacks, so neither king can cross, and no
  // pawn can ever capture or move: no mate can ever happen
  L = (await analysis({ fen: '4k3/8/8/1p1p1p1p/1P1P1P1P/8/8/4K3 w - - 0 40' })).body.nodes[0].laws;
  assert.equal(L.material, 'sufficient');
  assert.equal(L.dead.dead, true);
  assert.ok(L.dead.why.length > 10);
  assert.match(L.notes.find((x) => x.topic === 'dead').text, /^Dead position: .*5\.2\.2/);
  // a rook against a lone king: White can mate, Black never (by material)
  L = (await analysis({ fen: '4k3/8/8/8/8/8/R7/4K3 w - - 0 1' })).body.nodes[0].laws;
  assert.equal(L.dead.dead, false);
  assert.equal(L.winnable.white.verdict, 'winnable');
  assert.ok(L.winnable.white.line.length > 0 && /#$/.test(L.winnable.white.line.at(-1)), 'a helpmate line ending in mate');
  assert.equal(L.winnable.black.verdict, 'unwinnable');
  assert.equal(L.winnable.black.proof, 'material');
  assert.match(L.winnable.black.text, /^Black cannot checkmate/);
  // the fool's mate: Black has mated, White never can
  const a = (await analysis({ moves: ['f3', 'e5', 'g4', 'Qh4#'] })).body;
  L = mainline(a)[4].laws;
  assert.equal(L.checkmate, true);
  assert.deepEqual(L.outcome, { result: '0-1', termination: 'checkmate' });
  assert.equal(L.winnable.black.verdict, 'winnable');
  assert.equal(L.winnable.white.verdict, 'unwinnable');
  assert.deepEqual(L.legal, []);
});

test('variations: from the PGN and added on the board, numbered after the source', async () => {
  const pgn = '1. e4 e5 (1... c5 2. Nf3 (2. c3) 2... d6) 2. Nf3 Nc6 *';
  const { status, body: a } = await analysis({ pgn, add: [{ parent: 2, move: 'f1c4' }, { parent: 9, move: 'Nf6' }] });
  assert.equal(status, 200);
  const san = (id) => a.nodes[id].san;
  // depth first, each line's continuation before its variations, then the added moves
  assert.deepEqual(a.nodes.slice(1).map((n) => n.san), ['e4', 'e5', 'Nf3', 'Nc6', 'c5', 'Nf3', 'd6', 'c3', 'Bc4', 'Nf6']);
  assert.deepEqual(a.mainline.map(san).slice(1), ['e4', 'e5', 'Nf3', 'Nc6']);
  assert.deepEqual(a.nodes[1].children.map(san), ['e5', 'c5']);
  assert.deepEqual(a.nodes[2].children.map(san), ['Nf3', 'Bc4']);
  assert.equal(a.nodes[9].added, true);
  assert.equal(a.nodes[10].parent, 9);
  assert.equal(a.nodes[10].label, '2...Nf6');
  // the one-position route answers the same laws for the same line
  const p = await analysis({ moves: ['e4', 'e5', 'Bc4', 'Nf6'] }, '/api/analysis/position');
  assert.equal(p.status, 200);
  assert.equal(p.body.node.fen, a.nodes[10].fen);
  assert.deepEqual(p.body.node.laws.legal, a.nodes[10].laws.legal);
  assert.deepEqual(p.body.node.laws.repetitions, a.nodes[10].laws.repetitions);
  assert.equal(p.body.node.san, 'Nf6');
});

test('export: the annotated game as PGN, read back by chessops and by arbiter pgn check', async () => {
  const body = {
    pgn: '[White "Ann"]\n[Black "Bob"]\n\n1. Nf3 {a first move} Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2',
    add: [{ parent: 2, move: 'd2d4' }],
    evals: [{ node: 1, score: { cp: 18 }, depth: 20, best: 'Nf6', pv: ['Nf6', 'c4', 'e6'] }],
  };
  const { status, body: r } = await analysis(body, '/api/analysis/pgn');
  assert.equal(status, 200);
  const text = r.pgn;
  assert.match(pgnCheck(text), /1 games, 0 with errors/);
  const [game] = parsePgn(text);
  assert.equal(game.headers.get('White'), 'Ann');
  assert.equal(game.headers.get('Result'), '1/2-1/2');
  assert.deepEqual([...game.moves.mainline()].map((m) => m.san), SHUFFLE(8));
  // the added variation 2.d4 beside 2.Ng1
  const second = game.moves.children[0].children[0];
  assert.deepEqual(second.children.map((c) => c.data.san), ['Ng1', 'd4']);
  const comments = [...game.moves.mainline()].map((m) => (m.comments || []).join(' ').replace(/\s+/g, ' '));
  assert.match(comments[0], /a first move/);
  assert.match(comments[0], /\[%eval 0\.18,20\]/);
  assert.match(comments[0], /1\.\.\.Nf6 2\.c4 e6/);
  assert.match(comments[3], /occurred 2 times/);
  assert.match(comments[7], /occurred 3 times/);
  assert.match(comments[7], /claim a draw now/);
  // without the laws' notes: only what the game had
  const bare = (await analysis({ ...body, laws: false, evals: [] }, '/api/analysis/pgn')).body.pgn;
  assert.doesNotMatch(bare, /occurred/);
  assert.match(bare, /a first move/);
});

test('a stored game by its id, under its rules', async () => {
  const { g, white, black } = await twoPlayers(server, { control: '5+3', rules: 'online' });
  await play(white, black, ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1', 'f6g8']);
  await white.waitGame((s) => s.status === 'over');
  white.close();
  black.close();
  const { status, body: a } = await analysis({ game: g.id, rules: 'online' });
  assert.equal(status, 200, JSON.stringify(a));
  const last = mainline(a).at(-1);
  assert.equal(last.ply, 8);
  assert.equal(last.laws.repetitions.count, 3);
  assert.equal(last.laws.outcome.termination, 'threefold_repetition');
  assert.equal(a.tags.find(([k]) => k === 'GameId')[1], g.id);
  assert.equal((await analysis({ game: 'nosuchgm' })).status, 404);
  assert.equal((await analysis({ game: '../../etc' })).status, 404);
});

test('bad requests: a clear error naming what and where', async () => {
  let r = await analysis({ pgn: '[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Bb5 Ke7 4. Kxe8 *' });
  assert.equal(r.status, 400);
  assert.equal(r.body.error.code, 'pgn_move_illegal');
  assert.equal(r.body.error.line, 4);
  assert.equal(r.body.error.ply, 7);
  assert.equal(r.body.error.move, 'Kxe8');
  assert.match(r.body.error.message, /line 4/);
  r = await analysis({ moves: ['e4', 'e5', 'e1g1'] });
  assert.equal(r.status, 400);
  assert.equal(r.body.error.where, 'moves[2]');
  assert.match(r.body.error.message, /castle.*3\.8\.2/);
  r = await analysis({ fen: '8/8/8/8/8/8/8/8 w - - 0 1' });
  assert.equal(r.body.error.code, 'fen_invalid');
  assert.ok(r.body.error.problems.includes('no_white_king'));
  r = await analysis('{"pgn": ');
  assert.equal(r.body.error.code, 'bad_json');
  r = await analysis({ moves: ['e4'], add: [{ parent: 7, move: 'e5' }] });
  assert.equal(r.body.error.code, 'bad_node');
  r = await analysis({ moves: ['e4'], add: [{ parent: 0, move: 'e2e4' }] });
  assert.equal(r.body.error.code, 'duplicate_move');
  r = await analysis({ rules: 'chaos' });
  assert.equal(r.body.error.code, 'bad_rules');
  r = await analysis({ text: '' });
  assert.equal(r.body.error.code, 'no_game');
  r = await analysis({}, '/api/analysis/nothing');
  assert.equal(r.status, 404);
  const get = await request(`${server.base}/api/analysis`);
  assert.equal(get.status, 405);
});

test('bounds: 600 moves in all, a search budget per request, deep variations, big bodies', async () => {
  // 601 plies of knight moves (the fivefold ends the game at ply 16; the rest reads as moves
  // after the end, a warning): too many
  let text = '';
  for (let i = 0; i < 601; i++) text += `${i % 2 ? '' : `${i / 2 + 1}. `}${SHUFFLE(601)[i]} `;
  let r = await analysis({ pgn: text + '*' });
  assert.equal(r.status, 413);
  assert.equal(r.body.error.code, 'too_many_moves');
  // 600 moves in the main line and variations
  const moves = SHUFFLE(600);
  const t0 = Date.now();
  r = await analysis({ moves });
  assert.equal(r.status, 200);
  assert.equal(r.body.nodes.length, 601);
  assert.ok(r.body.searched <= 400000);
  assert.ok(Date.now() - t0 < 5000, `${Date.now() - t0} ms`);
  r = await analysis({ moves, add: [{ parent: 0, move: 'e4' }] });
  assert.equal(r.status, 413);
  // variations nested 200 deep: 1. e4 (1. d4 (1. c4 (1. Nf3 ...
  const first = ['e4', 'd4', 'c4', 'Nf3', 'b3', 'g3', 'f4', 'b4', 'Nc3', 'a3', 'h3', 'a4', 'h4', 'd3', 'e3', 'c3', 'f3', 'g4', 'Na3', 'Nh3'];
  let deep = '1. e4 ';
  for (let i = 1; i < 20; i++) deep += `(1. ${first[i]} `;
  deep += ')'.repeat(19) + ' *';
  r = await analysis({ pgn: deep });
  assert.equal(r.status, 200);
  assert.equal(r.body.nodes[0].children.length, 20);
  r = await analysis({ pgn: '1. e4 ' + '('.repeat(3000) + ' *' });
  assert.equal(r.status, 400);
  // the HTTP body's bound (8 KB) answers 413 before the analysis reads anything
  r = await analysis({ pgn: `{${'x'.repeat(9000)}} 1. e4 *` });
  assert.equal(r.status, 413);
});

test('the searches of all requests share one budget: a flood gets the cheap proofs only', async () => {
  // pawn walls with the kings behind them (from the labelled community positions of
  // ../shared/data/dead): at 21 positions a request, whether each side can still mate takes
  // about 600,000 nodes in all, most positions a side's whole search (20,000 nodes) without an
  // answer — more than a request may spend
  const body = {
    fen: '8/5k1p/8/5p1P/p1p2PpP/P1P1p1P1/4P3/K7 b - - 0 60',
    moves: Array.from({ length: 20 }, (_, i) => ['Ke7', 'Kb1', 'Kf7', 'Ka1'][i % 4]),
  };
  const t0 = Date.now();
  const answers = await Promise.all(Array.from({ length: 12 }, () => analysis(body)));
  const seconds = (Date.now() - t0) / 1000;
  let searched = 0;
  for (const r of answers) {
    assert.equal(r.status, 200);
    assert.ok(r.body.searched <= 400000);
    searched += r.body.searched;
  }
  // at most the 2,000,000 nodes saved up and 1,000,000 a second
  assert.ok(searched <= 2000000 + 1000000 * (seconds + 1), `${searched} nodes in ${seconds} s`);
  // the first asked got its whole budget, later ones less (the flood drew it down), and every
  // answer is whole: both verdicts at every position
  const got = answers.map((r) => r.body.searched);
  assert.ok(got[0] >= 300000, `the first request searched ${got[0]}`);
  assert.ok(Math.min(...got) < got[0] / 2, `searched: ${got.join(' ')}`);
  for (const r of answers)
    for (const n of r.body.nodes) assert.ok(['winnable', 'unwinnable', 'unknown'].includes(n.laws.winnable.black.verdict));
});
