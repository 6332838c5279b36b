// Arbiter — MIT licence, see LICENSE.
//
// computer.test.mjs: the computer in a seat, over real WebSockets against a real `arbiter serve`
// with Debian's Stockfish in its engine pool: games to the end at level 1 and level 8, its time
// charged on its clock, draw offers answered, a resignation the referee rules on, the engine
// process killed with -9 mid-game and the game going on, no link to its seat, and a server
// without an engine saying how to get one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startServer, cleanup, request, join, getText, sleep, Client } from './lib.mjs';

async function create(server, body) {
  const res = await request(`${server.base}/api/games`, { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

// The human's moves: one of the legal moves the server lists ("dests"), picked by a seeded
// generator; a pawn reaching the last rank becomes a queen.
function pickMove(g, rand) {
  const moves = [];
  for (const [from, tos] of Object.entries(g.dests))
    for (let i = 0; i < tos.length; i += 2) moves.push(from + tos.slice(i, i + 2));
  moves.sort();
  const uci = moves[Math.floor(rand() * moves.length)];
  const rank = uci[3], fromRank = uci[1];
  // the piece, read from the FEN's board
  const board = g.fen.split(' ')[0].split('/');
  const row = board[8 - Number(fromRank)];
  let file = 0, piece = '';
  for (const ch of row) {
    if (/\d/.test(ch)) file += Number(ch);
    else { if (file === uci.charCodeAt(0) - 97) piece = ch; file++; }
  }
  return (piece === 'P' && rank === '8') || (piece === 'p' && rank === '1') ? `${uci}q` : uci;
}

function seeded(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

// The first game state, from message number `from` on, that matches pred.
function nextGame(client, pred, timeout, from) {
  return client.wait((m) => m.game && pred(m.game), timeout, from).then((m) => m.game);
}

// The human's turn (or the end) after the ply `after`.
function myTurn(client, seat, after, timeout = 20000) {
  return nextGame(client, (s) => s.status === 'over' || (s.status === 'ongoing' && s.turn === seat && s.ply > after && s.dests), timeout, 0);
}

// Plays random legal moves for the human until the game is over; returns the final game.
async function playOut(human, seat, rand, maxPlies = 400) {
  let ply = -1;
  for (let i = 0; i < maxPlies; i++) {
    const g = await myTurn(human, seat, ply);
    if (g.status === 'over') return g;
    const uci = pickMove(g, rand);
    const a = await human.request({ t: 'move', uci }, 5000);
    assert.equal(a.t, 'ack', `${uci}: ${JSON.stringify(a)}`);
    ply = g.ply + 1;
  }
  throw new Error('the game did not end');
}

test('GET /api/computer lists the eight levels and names the engine', async () => {
  const server = await startServer();
  try {
    const res = await request(`${server.base}/api/computer`);
    const j = await res.json();
    assert.equal(res.status, 200);
    assert.equal(j.engine, 'stockfish');
    assert.deepEqual(j.levels.map((l) => l.level), [1, 2, 3, 4, 5, 6, 7, 8]);
    for (const l of j.levels) assert.ok(l.what.length > 5 && l.elo > 0);
  } finally {
    await server.stop();
    cleanup(server.dir);
  }
});

test('a server without an engine says how to get one, and refuses a game against it', async () => {
  const server = await startServer({ args: ['--no-engine'] });
  try {
    const j = await (await request(`${server.base}/api/computer`)).json();
    assert.equal(j.engine, null);
    assert.match(j.how, /apt install stockfish/);
    const c = await create(server, { opponent: 'computer', level: 3 });
    assert.equal(c.status, 503);
    assert.equal(c.body.error.code, 'no_engine');
    assert.match(c.body.error.message, /stockfish/i);
    const bad = await create(server, { opponent: 'robot' });
    assert.equal(bad.status, 400);
  } finally {
    await server.stop();
    cleanup(server.dir);
  }
});

test('level 1 plays a whole game as Black; its seat has no link; the PGN names it', async () => {
  const server = await startServer();
  try {
    const c = await create(server, { opponent: 'computer', level: 1, color: 'white' });
    assert.equal(c.status, 201);
    assert.equal(c.body.black, null, 'nobody gets the computer\'s seat');
    assert.equal(c.body.opponent, undefined);
    assert.deepEqual(c.body.computer, { level: 1 });
    const bad = await create(server, { opponent: 'computer', level: 9 });
    assert.equal(bad.status, 400);
    const human = await join(server, c.body.id, c.body.you.split('#')[1]);
    const g0 = await human.waitGame((s) => s.status === 'ongoing');
    assert.equal(g0.players.black.computer, true);
    assert.equal(g0.players.black.level, 1);
    assert.equal(g0.players.black.connected, true);
    const end = await playOut(human, 'white', seeded(7));
    assert.equal(end.status, 'over');
    assert.notEqual(end.result, '*');
    const pgn = (await getText(server, `/api/games/${c.body.id}.pgn`)).body;
    assert.match(pgn, /\[Black "Stockfish level 1"\]/);
    assert.ok(end.moves.length >= 2);
    human.close();
  } finally {
    await server.stop();
    cleanup(server.dir);
  }
});

test('level 8 as White: its thinking is charged on its clock, and it wins against random moves', async () => {
  const server = await startServer();
  try {
    const c = await create(server, { opponent: 'computer', level: 8, color: 'black', control: '3+0', rules: 'fide-blitz' });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    const human = await join(server, c.body.id, c.body.you.split('#')[1]);
    // it moves first: a second of thought, on White's clock
    const g1 = await human.waitGame((s) => s.ply === 1, 10000);
    assert.ok(g1.clock.white_ms <= 180000 - 500, `White's clock after its first move: ${g1.clock.white_ms}`);
    const end = await playOut(human, 'black', seeded(3));
    assert.equal(end.result, '1-0', end.reason);
    human.close();
  } finally {
    await server.stop();
    cleanup(server.dir);
  }
});

test('a draw offer early is declined; a hopeless position makes it resign, ruled by the referee', async () => {
  const server = await startServer();
  try {
    const c = await create(server, { opponent: 'computer', level: 1, color: 'white' });
    const human = await join(server, c.body.id, c.body.you.split('#')[1]);
    await human.waitGame((s) => s.status === 'ongoing');
    await human.request({ t: 'move', uci: 'e2e4' });
    await human.waitGame((s) => s.ply === 2, 10000);
    const mark = human.messages.length;
    await human.request({ t: 'offer_draw' });
    const declined = await human.wait((m) => m.event && m.event.kind === 'decline_draw', 5000, mark);
    assert.equal(declined.event.by, 'black');
    assert.equal(human.game.status, 'ongoing');
    human.close();

    // Black (the computer) has a lone king against two queens and a rook
    const fen = '7k/8/8/8/8/Q7/QR6/K7 b - - 0 1';
    const r = await create(server, { opponent: 'computer', level: 1, color: 'white', fen });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const h2 = await join(server, r.body.id, r.body.you.split('#')[1]);
    const walk = ['a1b1', 'b1c1', 'c1d1', 'd1e1', 'e1f1'];
    let end = null, ply = -1;
    for (const uci of walk) {
      const g = await myTurn(h2, 'white', ply, 10000);
      if (g.status === 'over') { end = g; break; }
      const a = await h2.request({ t: 'move', uci });
      assert.equal(a.t, 'ack', JSON.stringify(a));
      ply = g.ply + 1;
    }
    end = end || (await nextGame(h2, (s) => s.status === 'over', 10000, 0));
    assert.equal(end.termination, 'resignation');
    assert.equal(end.result, '1-0');
    assert.match(end.reason, /Black resign/);
    h2.close();
  } finally {
    await server.stop();
    cleanup(server.dir);
  }
});

test('the engine killed with -9 mid-search is replaced, and the game goes on', async () => {
  const server = await startServer({ args: ['--engines', '1'] });
  try {
    const c = await create(server, { opponent: 'computer', level: 8, color: 'white' });
    const human = await join(server, c.body.id, c.body.you.split('#')[1]);
    await human.waitGame((s) => s.status === 'ongoing');
    await human.request({ t: 'move', uci: 'e2e4' });
    // level 8 thinks a second: kill its process while it does
    await sleep(300);
    const pids = execFileSync('pgrep', ['-P', String(server.proc.pid)], { encoding: 'utf8' }).trim().split('\n');
    assert.ok(pids.length >= 1 && pids[0], 'an engine process under the server');
    for (const pid of pids) process.kill(Number(pid), 'SIGKILL');
    const g = await human.waitGame((s) => s.ply === 2, 15000);
    assert.equal(g.status, 'ongoing');
    // and the next search goes to the new process too
    const uci = pickMove(g, seeded(1));
    await human.request({ t: 'move', uci });
    const g2 = await human.waitGame((s) => s.ply === 4, 15000);
    assert.equal(g2.status, 'ongoing');
    const after = execFileSync('pgrep', ['-P', String(server.proc.pid)], { encoding: 'utf8' }).trim().split('\n');
    assert.ok(after.every((p) => !pids.includes(p)), 'a fresh process');
    human.close();
  } finally {
    await server.stop();
    cleanup(server.dir);
  }
});

test('POST /api/engine/eval: the evaluation and best line in SAN, mate found, errors named', async () => {
  const server = await startServer();
  try {
    const post = async (body) => {
      const res = await request(`${server.base}/api/engine/eval`, { method: 'POST', body: JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    };
    // mate in one for White (Qh5xf7#-style: scholar's mate position)
    const m = await post({ moves: ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6'] });
    assert.equal(m.status, 200, JSON.stringify(m.body));
    assert.deepEqual(m.body.score, { mate: 1 });
    assert.equal(m.body.best, 'Qxf7#');
    const over = await post({ fen: '7k/6Q1/6K1/8/8/8/8/8 b - - 0 1' });
    assert.deepEqual(over.body, { over: 'checkmate' });
    const bad = await post({ moves: ['e4', 'Ke2'] });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /moves.*\[1\].*Ke2/);
  } finally {
    await server.stop();
    cleanup(server.dir);
  }
});

test('a server killed with -9 mid-game comes back, and the computer plays on', async () => {
  let server = await startServer();
  const dir = server.dir;
  try {
    const c = await create(server, { opponent: 'computer', level: 1, color: 'white', control: '5+3' });
    const token = c.body.you.split('#')[1];
    let human = await join(server, c.body.id, token);
    await human.waitGame((s) => s.status === 'ongoing');
    await human.request({ t: 'move', uci: 'e2e4' });
    await human.waitGame((s) => s.ply === 2, 10000);
    await human.request({ t: 'move', uci: 'd2d4' });
    await human.waitGame((s) => s.ply === 4, 10000);
    await server.kill9();
    server = await startServer({ dir });
    human = await join(server, c.body.id, token);
    const g = await myTurn(human, 'white', 3, 10000);
    assert.equal(g.ply, 4);
    await human.request({ t: 'move', uci: pickMove(g, seeded(5)) });
    const g2 = await myTurn(human, 'white', 5, 10000);
    assert.equal(g2.ply, 6, 'the computer moved after the restart');
    human.close();
  } finally {
    await server.stop();
    cleanup(dir);
  }
});

test('the names said in hello are the PGN\'s White and Black, kept across a kill -9', async () => {
  let server = await startServer();
  const dir = server.dir;
  try {
    const c = await create(server, { color: 'white' });
    const tok = (u) => u.split('#')[1];
    const hello = async (token, name) => {
      const cl = await new Client(server).open();
      cl.send({ t: 'hello', game: c.body.id, token, name });
      await cl.wait((m) => m.t === 'state');
      return cl;
    };
    const w = await hello(tok(c.body.white), 'Ada Lovelace');
    const b = await hello(tok(c.body.black), 'Émile Zola');
    await w.waitGame((s) => s.status === 'ongoing');
    await w.request({ t: 'move', uci: 'e2e4' });
    let pgn = (await getText(server, `/api/games/${c.body.id}.pgn`)).body;
    assert.match(pgn, /\[White "Ada Lovelace"\]/);
    assert.match(pgn, /\[Black "Émile Zola"\]/);
    w.close();
    b.close();
    await server.kill9();
    server = await startServer({ dir });
    pgn = (await getText(server, `/api/games/${c.body.id}.pgn`)).body;
    assert.match(pgn, /\[White "Ada Lovelace"\]/);
    assert.match(pgn, /\[Black "Émile Zola"\]/);
  } finally {
    await server.stop();
    cleanup(dir);
  }
});
