// Arbiter — MIT licence, see LICENSE.
//
// presence.test.mjs: the game protocol's answers to the defects of issue 29 over real
// WebSockets against a real `arbiter serve`: the first-move deadline in the state, a player who
// left (announced, the other able to claim after the wait under the online rules, decided by
// the referee, kept over a restart), the count of spectators, move refusals in plain words
// with the library's reason, the player's name in hello, and the PGN's Site and clocks.
// Expected texts and figures come from the rules (lichess: a first move within 20 s for a
// blitz game, a win claimed against a player gone 15 s in bullet) and hand analysis of the
// positions, not from the code under test.
//
// Run: ARBITER=build/release/arbiter node --test tests/js/presence.test.mjs

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, createGame, join, twoPlayers, play, getText, cleanup, sleep, scratch } from './lib.mjs';

const servers = [];
async function server(opts) {
  const s = await startServer(opts);
  servers.push(s);
  return s;
}
after(async () => {
  for (const s of servers) {
    await s.stop().catch(() => {});
    cleanup(s.dir);
  }
});

test('the state carries the first-move deadline while it runs', async () => {
  const s = await server();
  // 3+2 online: 180 + 40 x 2 = 260 s estimated, blitz: lichess's 25 s for a first move
  const { white, black } = await twoPlayers(s, { control: '3+2', rules: 'online' });
  const g = white.game;
  assert.equal(g.first_move.side, 'white');
  assert.equal(g.first_move.by - g.clock.server_ms <= 25000, true);
  assert.ok(g.first_move.by - g.clock.server_ms > 24000, `${g.first_move.by - g.clock.server_ms} ms left`);
  await play(white, black, ['e2e4']);
  const after1 = await black.waitGame((x) => x.ply === 1);
  assert.equal(after1.first_move.side, 'black');
  await play(white, black, ['e7e5']);
  assert.equal((await white.waitGame((x) => x.ply === 2)).first_move, undefined, 'both have moved: no limit runs');
  white.close();
  black.close();
});

test('a player who left is announced; after the wait the other claims the win (online)', async () => {
  const dir = scratch();
  let s = await server({ dir });
  // 1+0 is bullet (60 s): the wait is 15 s
  const { g, white, black } = await twoPlayers(s, { control: '1+0', rules: 'online' });
  const watcher = await join(s, g.id);
  await watcher.wait((m) => m.t === 'players' && m.spectators === 1);
  await play(white, black, ['e2e4', 'e7e5']);
  const left = Date.now();
  black.close();
  const upd = await white.wait((m) => m.t === 'update' && m.event.kind === 'away');
  assert.equal(upd.event.by, 'black');
  assert.equal(upd.game.away.side, 'black');
  assert.equal(upd.game.away.claim_at - upd.game.away.since, 15000);
  assert.equal(upd.game.away.claim_result, '1-0');
  const pres = await white.wait((m) => m.t === 'players' && m.black.connected === false);
  assert.equal(pres.white.connected, true);
  // too early: refused with the time still to wait
  let a = await white.request({ t: 'claim_abandoned' });
  assert.equal(a.t, 'error');
  assert.equal(a.code, 'not_allowed');
  assert.match(a.message, /Black left \d+ s ago/);
  // a restart meanwhile keeps the away time (the server's down time is not counted)
  white.close();
  watcher.close();
  await s.stop();
  s = await server({ dir });
  const w2 = await join(s, g.id, g.whiteToken);
  // White, back, is no longer away (it left too when its page closed); Black still is
  const back = await w2.wait((m) => m.t === 'update' && m.event.kind === 'back');
  assert.equal(back.event.by, 'white');
  assert.equal(back.game.away.side, 'black', 'the referee still counts Black away');
  const wait = back.game.away.claim_at - back.game.server_ms;
  assert.ok(wait > 0 && wait <= 15000, `${wait}`);
  await sleep(wait + 200);
  a = await w2.request({ t: 'claim_abandoned' });
  assert.equal(a.t, 'ack', JSON.stringify(a));
  const end = a.update.game;
  assert.equal(end.status, 'over');
  assert.equal(end.result, '1-0');
  assert.equal(end.termination, 'abandonment');
  assert.equal(end.reason, 'Black left the game: White wins by the abandonment claim (online rules)');
  assert.ok(Date.now() - left >= 15000);
  const pgn = await getText(s, `/api/games/${g.id}.pgn`);
  assert.match(pgn.body, /\[Result "1-0"\]/);
  assert.match(pgn.body, /\[Termination "abandoned"\]/);
  assert.match(pgn.body, /\[Site "Arbiter"\]/);
  // every clock in whole seconds
  for (const clk of pgn.body.match(/%clk [^\]]+/g)) assert.match(clk, /^%clk \d+:\d\d:\d\d$/);
  w2.close();
});

test('under FIDE rules nobody claims a game the opponent left', async () => {
  const s = await server();
  const { white, black } = await twoPlayers(s, { control: '5+3', rules: 'fide' });
  await play(white, black, ['e2e4', 'e7e5']);
  black.close();
  await white.wait((m) => m.t === 'players' && m.black.connected === false);
  assert.equal(white.game.away, undefined);
  const a = await white.request({ t: 'claim_abandoned' });
  assert.equal(a.t, 'error');
  assert.match(a.message, /only the online rules/);
  white.close();
});

test('move refusals name the move in SAN and the reason from the library', async () => {
  const s = await server();
  // 1. e4 e5 2. d4 Bb4+ : White is in check from the bishop on b4
  const { white, black } = await twoPlayers(s, { rules: 'online' });
  await play(white, black, ['e2e4', 'e7e5', 'd2d4', 'f8b4']);
  let a = await white.request({ t: 'move', uci: 'g1f3' });
  assert.equal(a.t, 'error');
  assert.equal(a.message, 'Nf3 is illegal: your king is in check from the bishop on b4 and this move does not stop it');
  assert.doesNotMatch(a.message, /g1f3|no legal move fits/);
  a = await white.request({ t: 'move', san: 'Nf3' });
  assert.match(a.message, /^Nf3 is illegal: .*bishop on b4/);
  a = await white.request({ t: 'move', uci: 'f1c3' });
  assert.match(a.message, /^Bc3 is illegal: /);
  white.close();
  black.close();
});

test('hello takes a name of at most 40 characters, without control characters', async () => {
  const s = await server();
  const g = await createGame(s, { color: 'white' });
  const { Client } = await import('./lib.mjs');
  const c = await new Client(s).open();
  c.send({ t: 'hello', game: g.id, token: g.whiteToken, name: 'Ann\u0007' });
  let m = await c.wait((x) => x.t === 'error');
  assert.equal(m.code, 'bad_message');
  assert.match(m.message, /name/);
  c.send({ t: 'hello', game: g.id, token: g.whiteToken, name: 'é'.repeat(41) });
  m = await c.wait((x) => x.t === 'error', 3000, c.messages.indexOf(m) + 1);
  assert.match(m.message, /40 characters/);
  c.send({ t: 'hello', game: g.id, token: g.whiteToken, name: 'é'.repeat(40) });
  m = await c.wait((x) => x.t === 'state');
  assert.equal(m.game.seat, 'white');
  c.close();
});

test('a server stopped while both players are connected: nobody counted away, a clean exit', async () => {
  const dir = scratch();
  let s = await server({ dir });
  const { g, white, black } = await twoPlayers(s, { control: '5+0', rules: 'online' });
  await play(white, black, ['e2e4', 'e7e5']);
  const r = await s.stop();
  assert.deepEqual(r, { code: 0, signal: null }, s.log.join(''));
  s = await server({ dir });
  const w = await join(s, g.id, g.whiteToken);
  assert.equal(w.game.away, undefined, 'the server stopping is not the players leaving');
  w.close();
});

test('a seat that came and left before its opponent arrived is away from the start', async () => {
  const s = await server();
  const g = await createGame(s, { color: 'white', rules: 'online' });
  const w = await join(s, g.id, g.whiteToken);
  w.close();
  await sleep(100);
  const b = await join(s, g.id, g.blackToken);
  const m = await b.wait((x) => x.t === 'update' && x.event.kind === 'away');
  assert.equal(m.event.by, 'white');
  assert.equal(m.game.away.side, 'white');
  assert.equal(m.game.away.claim_at, null, 'no claim before each side has moved');
  b.close();
});
