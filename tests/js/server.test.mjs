// Arbiter — MIT licence, see LICENSE.
//
// server.test.mjs: `arbiter serve` over real WebSockets on loopback (npm `ws`), as a page or a
// bot would use it: whole games, every draw rule declared by the server (online) or claimed
// (fide), resignation and abort, flags to the millisecond, a draw on time when the opponent
// cannot mate, premoves, always-queen, reconnection with the missed updates, duplicate move
// ids, moves from the wrong seat or a spectator, and bad frames.  Expected results come from
// the Laws (and lichess's rules for `online`), not from the server's own code.
//
// Run: ARBITER=build/release/arbiter node --test tests/js/server.test.mjs

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, createGame, join, twoPlayers, play, getJson, getText, pgnCheck, Client, sleep,
  cleanup, request,
} from './lib.mjs';

const server = await startServer({ args: ['--no-lag-compensation'] });
after(async () => {
  await server.stop();
  cleanup(server.dir);
});

test('a whole game to mate, and its PGN replays clean', async () => {
  const { g, white, black } = await twoPlayers(server, { control: '5+3', rules: 'online' });
  assert.equal(white.game.seat, 'white');
  assert.equal(black.game.seat, 'black');
  assert.ok(white.game.dests, 'the side to move gets its legal moves');
  assert.equal(white.game.dests.e2, 'e3e4');
  assert.equal(black.game.dests, undefined, 'the other seat does not');
  await play(white, black, ['f2f3', 'e7e5', 'g2g4', 'd8h4']);
  const end = await white.waitGame((s) => s.status === 'over');
  assert.equal(end.result, '0-1');
  assert.equal(end.termination, 'checkmate');
  assert.equal(end.reason, 'Checkmate: Black wins');
  assert.deepEqual(end.moves, ['f3', 'e5', 'g4', 'Qh4#']);
  assert.equal(end.last_move, 'd8h4');
  assert.equal(end.check, true);
  assert.equal(end.clock.running, null, 'the clocks stopped');
  const pgn = await getText(server, `/api/games/${g.id}.pgn`);
  assert.equal(pgn.status, 200);
  assert.match(pgn.body, /\[Result "0-1"\]/);
  assert.match(pgn.body, /\[TimeControl "300\+3"\]/);
  assert.match(pgn.body, /1\. f3 \{ \[%clk 0:05:00\] \}/);
  assert.match(pgn.body, /2\.\.\. Qh4# \{ \[%clk/);
  pgnCheck(pgn.body); // throws on a finding
  white.close();
  black.close();
});

test('online: the server declares threefold, 50 moves and insufficient material', async () => {
  // threefold: the knights out and back twice
  let { white, black } = await twoPlayers(server, { control: '5+0', rules: 'online' });
  await play(white, black, ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1', 'f6g8']);
  let end = await black.waitGame((s) => s.status === 'over');
  assert.equal(end.termination, 'threefold_repetition');
  assert.equal(end.result, '1/2-1/2');
  assert.equal(end.reason, 'Draw: the same position occurred three times');
  white.close();
  black.close();
  // 50 moves: the 100th half-move without a capture or pawn move
  ({ white, black } = await twoPlayers(server, {
    rules: 'online', fen: '7k/8/8/8/8/8/R7/K7 w - - 99 80',
  }));
  await play(white, black, ['a2b2']);
  end = await white.waitGame((s) => s.status === 'over');
  assert.equal(end.termination, 'fifty_moves');
  white.close();
  black.close();
  // insufficient material: the last pawn falls, K+N v K remains
  ({ white, black } = await twoPlayers(server, { rules: 'online', fen: '7k/8/8/8/8/8/p7/KN6 w - - 0 1' }));
  await play(white, black, ['a1a2']);
  end = await white.waitGame((s) => s.status === 'over');
  assert.equal(end.termination, 'insufficient_material');
  assert.equal(end.reason, 'Draw: neither side has the material to checkmate');
  white.close();
  black.close();
});

test('fide: threefold is claimed, a wrong claim costs two minutes', async () => {
  const { white, black } = await twoPlayers(server, { control: '10+0', rules: 'fide' });
  await play(white, black, ['g1f3', 'g8f6', 'f3g1']);
  // Black claims naming Ng8: the start position would stand only a second time (9.5.3)
  const before = black.game.clock.white_ms;
  const wrong = await black.request({ t: 'claim_draw', reason: 'threefold', uci: 'f6g8' });
  assert.equal(wrong.t, 'ack');
  const after = await white.waitGame((s) => s.must_play === 'f6g8');
  assert.ok(after.clock.white_ms >= before + 119000, `White got 2 minutes: ${after.clock.white_ms}`);
  await play(white, black, ['f6g8', 'g1f3', 'g8f6', 'f3g1']);
  const s = await black.waitGame((x) => x.ply === 7);
  assert.equal(s.status, 'ongoing', 'FIDE: threefold is not automatic');
  assert.deepEqual(s.claims, ['threefold'], 'Black may claim with Ng8');
  const ok = await black.request({ t: 'claim_draw', reason: 'threefold', uci: 'f6g8' });
  assert.equal(ok.t, 'ack');
  const end = await white.waitGame((x) => x.status === 'over');
  assert.equal(end.termination, 'threefold_repetition');
  assert.equal(end.reason, 'Draw: the same position occurred three times, claimed by Black');
  white.close();
  black.close();
});

test('draw offers, resignation and abort', async () => {
  let { white, black } = await twoPlayers(server, { control: '5+0' });
  await play(white, black, ['e2e4', 'e7e5']);
  assert.equal((await white.request({ t: 'offer_draw' })).t, 'ack');
  await black.waitGame((s) => s.draw_offer === 'white');
  assert.equal((await black.request({ t: 'accept_draw' })).t, 'ack');
  let end = await white.waitGame((s) => s.status === 'over');
  assert.equal(end.termination, 'agreement');
  assert.equal(end.reason, 'Draw by agreement');
  white.close();
  black.close();
  ({ white, black } = await twoPlayers(server, { control: '5+0' }));
  await play(white, black, ['d2d4']);
  assert.equal((await white.request({ t: 'resign' })).t, 'ack');
  end = await black.waitGame((s) => s.status === 'over');
  assert.equal(end.result, '0-1');
  assert.equal(end.reason, 'White resigned: Black wins');
  const late = await white.request({ t: 'move', uci: 'e2e4' });
  assert.equal(late.code, 'game_over');
  white.close();
  black.close();
  // abort before each side has moved, not after
  ({ white, black } = await twoPlayers(server, { control: '5+0' }));
  await play(white, black, ['e2e4']);
  assert.equal(black.game.abortable, true);
  assert.equal((await black.request({ t: 'abort' })).t, 'ack');
  end = await white.waitGame((s) => s.status === 'over');
  assert.equal(end.termination, 'aborted');
  assert.equal(end.result, '*');
  assert.equal(end.reason, 'Game aborted by Black');
  white.close();
  black.close();
  ({ white, black } = await twoPlayers(server, { control: '5+0' }));
  await play(white, black, ['e2e4', 'e7e5']);
  const no = await white.request({ t: 'abort' });
  assert.equal(no.code, 'not_allowed');
  white.close();
  black.close();
});

test('the flag falls to the millisecond', async () => {
  // 2 s a side; online: the first moves are free, then White's clock runs from Black's move
  const { g, white, black } = await twoPlayers(server, { control: '2s', rules: 'online' });
  await play(white, black, ['e2e4', 'e7e5']);
  const running = await white.waitGame((s) => s.clock.running === 'white');
  const flagAt = running.clock.flag_at;
  assert.equal(running.clock.white_ms, 2000);
  const end = await black.waitGame((s) => s.status === 'over', 5000);
  assert.equal(end.termination, 'time_forfeit');
  assert.equal(end.result, '0-1');
  assert.equal(end.clock.white_ms, 0);
  assert.equal(end.reason, 'White ran out of time: Black wins');
  assert.ok(end.clock.server_ms > flagAt, 'declared after the flag time, not before');
  const moves = await getText(server, `/api/games/${g.id}.pgn`);
  assert.match(moves.body, /\[Termination "time forfeit"\]/);
  // a move after the flag is refused
  const late = await white.request({ t: 'move', uci: 'g1f3' });
  assert.equal(late.code, 'game_over');
  white.close();
  black.close();
});

test('a flag is a draw when the opponent cannot mate', async () => {
  // White has the queen, Black a bare king: White's flag is a draw.  online: lichess's
  // material rule, after the two free first moves
  let { white, black } = await twoPlayers(server, {
    control: '1s', rules: 'online', fen: '8/8/8/4k3/8/8/8/3QK3 w - - 0 1',
  });
  await play(white, black, ['d1d2', 'e5e6']);
  let end = await black.waitGame((s) => s.status === 'over', 5000);
  assert.equal(end.result, '1/2-1/2');
  assert.equal(end.termination, 'time_forfeit');
  assert.equal(end.reason, 'Draw: White ran out of time, but Black has too little material to win');
  white.close();
  black.close();
  // fide (6.9): the server sees the flag as an arbiter would; White's clock runs from the start
  ({ white, black } = await twoPlayers(server, {
    control: '1s', rules: 'fide', fen: '8/8/8/4k3/8/8/8/3QK3 w - - 0 1',
  }));
  end = await black.waitGame((s) => s.status === 'over', 5000);
  assert.equal(end.result, '1/2-1/2');
  assert.equal(
    end.reason,
    'Draw: White ran out of time, but Black cannot checkmate by any sequence of legal moves',
  );
  white.close();
  black.close();
  // and a loss when the opponent can: K+R v K+N, the rook side flags
  ({ white, black } = await twoPlayers(server, {
    control: '1s', rules: 'fide', fen: '8/8/8/8/4n3/7k/8/6RK w - - 0 1',
  }));
  end = await black.waitGame((s) => s.status === 'over', 5000);
  assert.equal(end.result, '0-1');
  white.close();
  black.close();
});

test('premoves: played at once at no cost, or dropped and the player told', async () => {
  const { white, black } = await twoPlayers(server, { control: '1+0', rules: 'online' });
  await play(white, black, ['e2e4', 'e7e5']);
  // Black sets a premove while White thinks
  black.send({ t: 'premove', uci: 'b8c6' });
  await black.wait((m) => m.t === 'premove' && m.uci === 'b8c6');
  assert.equal(white.messages.some((m) => m.t === 'premove'), false, 'a premove is private');
  const before = black.game.clock.black_ms;
  await white.request({ t: 'move', uci: 'g1f3' });
  const s = await white.waitGame((x) => x.ply === 4);
  assert.deepEqual(s.moves.slice(-2), ['Nf3', 'Nc6']);
  assert.equal(s.clock.black_ms, before, 'a premove costs nothing');
  assert.equal(s.turn, 'white');
  const u = await white.wait((m) => m.t === 'update' && m.event.premove === true);
  assert.equal(u.event.san, 'Nc6');
  assert.equal(u.event.by, 'black');
  // a premove that is illegal when its turn comes is dropped
  black.send({ t: 'premove', uci: 'c6d4' });
  await black.wait((m) => m.t === 'premove' && m.uci === 'c6d4');
  await white.request({ t: 'move', uci: 'd2d4' }); // the pawn lands on d4: Nd4 is still legal...
  const s2 = await black.waitGame((x) => x.ply >= 6);
  assert.equal(s2.moves[5], 'Nxd4');
  black.send({ t: 'premove', uci: 'd4e2' });
  await black.wait((m) => m.t === 'premove' && m.uci === 'd4e2');
  await white.request({ t: 'move', uci: 'f3d4' }); // ...but now the knight is gone
  const dropped = await black.wait((m) => m.t === 'premove' && m.dropped);
  assert.equal(dropped.dropped, 'illegal_move');
  const s3 = await black.waitGame((x) => x.ply === 7);
  assert.equal(s3.turn, 'black');
  // a premove on one's own turn is refused
  const own = await black.request({ t: 'premove', uci: 'g8f6' });
  assert.equal(own.code, 'not_allowed');
  white.close();
  black.close();
});

test('promotion: refused without a piece, a queen with always-queen, underpromotion kept', async () => {
  const fen = '8/P6k/8/8/8/8/8/K7 w - - 0 1';
  let { white, black } = await twoPlayers(server, { rules: 'online', fen });
  const no = await white.request({ t: 'move', uci: 'a7a8' });
  assert.equal(no.code, 'illegal_move');
  assert.match(no.message, /promote/);
  white.send({ t: 'settings', auto_queen: true });
  await white.wait((m) => m.t === 'state' && m.game.auto_queen === true);
  assert.equal((await white.request({ t: 'move', uci: 'a7a8' })).t, 'ack');
  const s = await black.waitGame((x) => x.ply === 1);
  assert.equal(s.moves[0], 'a8=Q');
  white.close();
  black.close();
  ({ white, black } = await twoPlayers(server, { rules: 'online', fen }));
  white.send({ t: 'settings', auto_queen: true });
  await white.wait((m) => m.t === 'state' && m.game.auto_queen === true);
  assert.equal((await white.request({ t: 'move', uci: 'a7a8n' })).t, 'ack');
  assert.equal((await black.waitGame((x) => x.ply === 1)).moves[0], 'a8=N');
  white.close();
  black.close();
});

test('a reconnecting client gets the updates it missed', async () => {
  const { g, white, black } = await twoPlayers(server, { control: '5+0' });
  await play(white, black, ['e2e4', 'e7e5']);
  const seen = black.messages.filter((m) => m.v !== undefined).pop().v;
  black.close();
  await white.wait((m) => m.t === 'players' && m.black.connected === false);
  await white.request({ t: 'move', uci: 'g1f3' });
  const again = await new Client(server).open();
  again.send({ t: 'hello', game: g.id, token: g.blackToken, v: seen });
  // (under the online rules Black's leaving is an update too: "away", then Nf3)
  const away = await again.wait((m) => m.t === 'update' && m.v === seen + 1);
  assert.equal(away.event.kind, 'away');
  const missed = await again.wait((m) => m.t === 'update' && m.v === seen + 2);
  assert.equal(missed.event.san, 'Nf3');
  // the event alone: the game as the spectators saw it then is not the seat's view
  assert.equal(missed.missed, true);
  assert.equal(missed.game, undefined);
  const state = await again.wait((m) => m.t === 'state');
  assert.equal(state.game.seat, 'black');
  assert.equal(state.v, seen + 2, 'away and Nf3 (then "back" follows)');
  assert.equal(state.game.turn, 'black');
  assert.ok(state.game.dests, 'the seat on move gets its moves again');
  await white.wait((m) => m.t === 'players' && m.black.connected === true);
  white.close();
  again.close();
});

test('typed moves in SAN; the history to look back through; the ways to claim', async () => {
  const { g, white, black } = await twoPlayers(server, { control: '10+0', rules: 'fide' });
  let a = await white.request({ t: 'move', san: 'Nf3' });
  assert.equal(a.t, 'ack');
  assert.equal(a.update.event.uci, 'g1f3');
  const bad = await black.request({ t: 'move', san: 'Nf4' });
  assert.equal(bad.t, 'error');
  assert.match(bad.message, /Nf4/, `the error names the move: ${bad.message}`);
  a = await black.request({ t: 'move', san: 'Nf6' });
  assert.equal(a.t, 'ack');
  await white.waitGame((x) => x.ply === 2);
  await play(white, black, ['f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1']);
  // Black on move: Ng8 would make the third occurrence (9.2.1.1), a claim by writing it
  let s = await black.waitGame((x) => x.ply === 7);
  assert.deepEqual(s.claim_options, [{ reason: 'threefold', uci: 'f6g8', san: 'Ng8' }]);
  await play(white, black, ['f6g8']);
  // White on move: the position stands a third time, a claim on it as it is
  s = await white.waitGame((x) => x.ply === 8);
  assert.deepEqual(s.claim_options, [{ reason: 'threefold', uci: null }]);
  // the positions before the first move and after each, for looking back
  const h = await getJson(server, `/api/games/${g.id}/history`);
  assert.equal(h.status, 200);
  assert.equal(h.body.fen.length, 9);
  assert.equal(h.body.fen[0], 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  assert.equal(h.body.fen[1], 'rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1');
  assert.equal(h.body.fen[8], 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5');
  assert.deepEqual(h.body.san, ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8']);
  assert.deepEqual(h.body.uci.slice(0, 2), ['g1f3', 'g8f6']);
  assert.equal((await getJson(server, '/api/games/nosuchgm/history')).status, 404);
  white.close();
  black.close();
});

test('a move sent twice with the same id is answered, not played twice', async () => {
  const { white, black } = await twoPlayers(server, { control: '5+0' });
  const mark = white.messages.length;
  const id = Number.MAX_SAFE_INTEGER; // ids up to 2^53 - 1
  white.send({ t: 'move', uci: 'e2e4', id });
  white.send({ t: 'move', uci: 'e2e4', id });
  await white.wait((m) => m.t === 'update' && m.ack === id, 3000, mark);
  const dup = await white.wait((m) => m.t === 'ack' && m.id === id && m.duplicate, 3000, mark);
  assert.ok(dup);
  await sleep(100);
  assert.equal(black.game.ply, 1);
  white.close();
  black.close();
});

test('no move from the wrong seat, a spectator, or a wrong token', async () => {
  const { g, white, black } = await twoPlayers(server, { control: '5+0' });
  const notYours = await black.request({ t: 'move', uci: 'e7e5' });
  assert.equal(notYours.code, 'not_your_turn');
  const watcher = await join(server, g.id);
  assert.equal(watcher.game.seat, 'spectator');
  assert.equal(watcher.game.dests, undefined);
  const refused = await watcher.request({ t: 'move', uci: 'e2e4' });
  assert.equal(refused.code, 'spectator');
  const other = await createGame(server, {});
  const impostor = await new Client(server).open();
  impostor.send({ t: 'hello', game: g.id, token: other.whiteToken });
  const bad = await impostor.wait((m) => m.t === 'error');
  assert.equal(bad.code, 'bad_token');
  const stillNo = await impostor.request({ t: 'move', uci: 'e2e4' });
  assert.equal(stillNo.code, 'spectator');
  assert.equal(white.game.ply, 0, 'nothing was played');
  // the spectator sees the game go on
  await play(white, black, ['e2e4']);
  const seen = await watcher.waitGame((s) => s.ply === 1);
  assert.deepEqual(seen.moves, ['e4']);
  for (const c of [white, black, watcher, impostor]) c.close();
});

test('bad frames are answered or closed, and the server goes on', async () => {
  const c = await new Client(server).open();
  c.send('not json');
  assert.equal((await c.wait((m) => m.t === 'error')).code, 'json');
  c.send(JSON.stringify({ t: 'teleport' }));
  assert.equal((await c.wait((m) => m.t === 'error' && m.code !== 'json')).code, 'unknown_type');
  c.send(JSON.stringify({ t: 'move', uci: 'e2e4' }));
  assert.equal((await c.wait((m) => m.code === 'no_hello')).code, 'no_hello');
  c.send('[[[[[[[[[[]]]]]]]]]]');
  assert.equal((await c.wait((m) => m.code === 'too_deep')).code, 'too_deep');
  c.send(JSON.stringify({ t: 'hello', game: 'nosuchgm' }));
  assert.equal((await c.wait((m) => m.code === 'no_game')).code, 'no_game');
  c.send(JSON.stringify({ t: 'move', uci: 'e2e9' }));
  assert.equal((await c.wait((m) => m.code === 'bad_message')).code, 'bad_message');
  // too big: closed with 1009
  c.send(JSON.stringify({ t: 'ping', pad: 'x'.repeat(9000) }));
  assert.equal((await c.waitClosed()).code, 1009);
  // binary: closed with 1003
  const b = await new Client(server).open();
  b.ws.send(Buffer.from([1, 2, 3]));
  assert.equal((await b.waitClosed()).code, 1003);
  // a flood: closed with 1008 once over the rate
  const f = await new Client(server).open();
  for (let i = 0; i < 300; i++) f.send({ t: 'ping' });
  assert.equal((await f.waitClosed()).code, 1008);
  // still serving
  const ok = await new Client(server).open();
  ok.send({ t: 'ping' });
  assert.equal((await ok.wait((m) => m.t === 'pong')).t, 'pong');
  ok.close();
  // a foreign Origin is refused before the WebSocket opens
  const foreign = new Client(server, { headers: { Origin: 'http://evil.example' } });
  await assert.rejects(foreign.open());
});

test('HTTP: bad requests are answered with what is wrong', async () => {
  let res = await request(`${server.base}/api/games`, { method: 'POST', body: '{"control":"banana"}' });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error.message, /control/);
  res = await request(`${server.base}/api/games`, { method: 'POST', body: '{"fen":"8/8/8/8/8/8/8/8 w - - 0 1"}' });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error.message, /king/);
  res = await request(`${server.base}/api/games`, { method: 'POST', body: 'x'.repeat(10000) });
  assert.equal(res.status, 413);
  assert.equal((await getJson(server, '/api/games/AAAAAAAA')).status, 404);
  assert.equal((await getJson(server, '/api/nothing')).status, 404);
  const g = await createGame(server, { chess960: true });
  const s = await getJson(server, `/api/games/${g.id}`);
  assert.equal(s.body.chess960, true);
  assert.equal(s.body.status, 'waiting');
});

test('a full game under fide, its PGN, and `arbiter serve --export`', async () => {
  const { g, white, black } = await twoPlayers(server, { control: '15+10', rules: 'fide' });
  // the Opera Game (Morphy, 1858) to mate
  await play(white, black, [
    'e2e4', 'e7e5', 'g1f3', 'd7d6', 'd2d4', 'c8g4', 'd4e5', 'g4f3', 'd1f3', 'd6e5', 'f1c4',
    'g8f6', 'f3b3', 'd8e7', 'b1c3', 'c7c6', 'c1g5', 'b7b5', 'c3b5', 'c6b5', 'c4b5', 'b8d7',
    'e1c1', 'a8d8', 'd1d7', 'd8d7', 'h1d1', 'e7e6', 'b5d7', 'f6d7', 'b3b8', 'd7b8', 'd1d8',
  ]);
  const end = await black.waitGame((s) => s.status === 'over');
  assert.equal(end.result, '1-0');
  assert.equal(end.reason, 'Checkmate: White wins');
  assert.equal(end.moves[22], 'O-O-O');
  const pgn = await getText(server, `/api/games/${g.id}.pgn`);
  assert.match(pgn.body, /17\. Rd8#\s\{ \[%clk/);
  assert.match(pgn.body, /\[TimeControl "900\+10"\]/);
  pgnCheck(pgn.body);
  white.close();
  black.close();
});

test('rematch: both ask, a new game with the colours swapped', async () => {
  const { g, white, black } = await twoPlayers(server, { control: '3+2', rules: 'online' });
  await play(white, black, ['e2e4']);
  await white.request({ t: 'resign' });
  await black.waitGame((s) => s.status === 'over');
  white.send({ t: 'rematch' });
  await black.waitGame((s) => s.rematch.offer === 'white');
  black.send({ t: 'rematch' });
  const forWhite = await white.wait((m) => m.t === 'rematch');
  const forBlack = await black.wait((m) => m.t === 'rematch');
  assert.equal(forWhite.game, forBlack.game);
  assert.notEqual(forWhite.url, forBlack.url, 'each seat gets its own link');
  const id = forWhite.game;
  const oldWhiteNowBlack = await join(server, id, forWhite.url.split('#')[1]);
  const oldBlackNowWhite = await join(server, id, forBlack.url.split('#')[1]);
  assert.equal(oldWhiteNowBlack.game.seat, 'black');
  assert.equal(oldBlackNowWhite.game.seat, 'white');
  const old = await getJson(server, `/api/games/${g.id}`);
  assert.equal(old.body.rematch.game, id);
  assert.equal((await getJson(server, `/api/games/${id}`)).body.control, '3m+2s');
  for (const c of [white, black, oldWhiteNowBlack, oldBlackNowWhite]) c.close();
});

test('a first move not made in time aborts the game', async () => {
  const { white, black } = await twoPlayers(server, {
    control: '3+0', rules: 'online', first_move_ms: 300,
  });
  const end = await black.waitGame((s) => s.status === 'over', 3000);
  assert.equal(end.termination, 'aborted');
  assert.equal(end.reason, 'Game aborted: White did not make a first move in time');
  white.close();
  black.close();
});

test('`arbiter serve --export` writes every stored game as PGN', async () => {
  const { execFileSync } = await import('node:child_process');
  const { readFileSync } = await import('node:fs');
  const { ARBITER } = await import('./lib.mjs');
  const { g, white, black } = await twoPlayers(server, { control: '5+0', rules: 'online' });
  await play(white, black, ['f2f3', 'e7e5', 'g2g4', 'd8h4']);
  await white.waitGame((s) => s.status === 'over');
  white.close();
  black.close();
  const file = `${server.dir}/export.pgn`;
  // the database is shared with the running server (SQLite WAL: readers do not block it)
  execFileSync(ARBITER, ['serve', '--export', file, '--db', server.db], { stdio: 'ignore' });
  const text = readFileSync(file, 'utf8');
  const mine = text.split('\n\n[Event').find((x) => x.includes(`[GameId "${g.id}"]`));
  assert.ok(mine, 'the game is in the export');
  assert.match(mine, /\[Result "0-1"\]/);
  assert.match(mine, /\[Termination "normal"\]/);
  assert.match(mine, /1\. f3 \{ \[%clk 0:05:00\] \} 1\.\.\. e5/);
  pgnCheck(text); // every game replays clean, results and terminations agree
});
