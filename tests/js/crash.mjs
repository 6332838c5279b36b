// Arbiter — MIT licence, see LICENSE.
//
// crash.mjs: no acknowledged move is ever lost.  Scripted players play many games against one
// `arbiter serve` while the server is killed with `kill -9` at random moments and restarted on
// the same database.  After every restart each game must hold every move any client saw
// acknowledged or shown, in the same order, and its clocks must agree with what the clients
// last saw: the side not on move keeps exactly its time, and nobody's time went up.
//
// usage: ARBITER=build/release/arbiter node tests/js/crash.mjs [--cycles N] [--games G] [--seed S]
// Exit 0 when every check held, 1 otherwise (each failure printed).

import assert from 'node:assert/strict';
import { startServer, createGame, Client, sleep, scratch, cleanup, getJson } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const CYCLES = opt('--cycles', 5);
const GAMES = opt('--games', 12);
let seed = opt('--seed', Date.now() % 100000);
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};

// a game's events leave the log for the events table 40 events behind (not 16,384): the copy
// and the log's trimming happen all the time, under the kills too
const SERVER_ARGS = ['--quiet', '--rate', '1000', '--no-lag-compensation', '--debug-log-rows', '40'];
const dir = scratch();
let server = await startServer({ dir, args: SERVER_ARGS });
const failures = [];
let checkedMoves = 0;

// One player: keeps what it saw acknowledged or shown, moves at random when on move.
class Player {
  constructor(game, color, token) {
    Object.assign(this, { game, color, token, seen: [], version: -1, last: null });
  }

  async connect() {
    this.client = new Client(server);
    await this.client.open();
    const c = this.client;
    c.ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.v !== undefined && m.v > this.version) this.version = m.v;
      if (m.game) this.observe(m.game);
      if (m.game && m.game.turn === this.color && m.game.dests && m.game.status === 'ongoing')
        this.move(m.game);
    });
    const hello = { t: 'hello', game: this.game.id, token: this.token };
    if (this.version >= 0) hello.v = this.version;
    c.send(hello);
  }

  observe(g) {
    // the moves shown: a prefix of the game the server must keep
    if (g.moves.length >= this.seen.length) this.seen = g.moves.slice();
    this.last = g;
  }

  move(g) {
    const from = Object.keys(g.dests);
    const f = from[Math.floor(random() * from.length)];
    const tos = g.dests[f].match(/../g);
    const to = tos[Math.floor(random() * tos.length)];
    const promo = g.fen.split(' ')[0] && /[18]/.test(to[1]) && this.isPawn(g, f) ? 'q' : '';
    setTimeout(() => {
      try {
        this.client.send({ t: 'move', uci: f + to + promo, id: Date.now() });
      } catch {
        /* the server is down: the next state after reconnecting moves again */
      }
    }, Math.floor(random() * 20));
  }

  isPawn(g, sq) {
    const rows = g.fen.split(' ')[0].split('/');
    const rank = 8 - Number(sq[1]);
    let file = 0;
    for (const ch of rows[rank]) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        if (file === sq.charCodeAt(0) - 97) return ch === 'P' || ch === 'p';
        file++;
      }
    }
    return false;
  }
}

async function newGame() {
  const g = await createGame(server, { control: '30+0', rules: 'online', color: 'white' });
  const players = [new Player(g, 'white', g.whiteToken), new Player(g, 'black', g.blackToken)];
  for (const p of players) await p.connect();
  return { g, players };
}

let games = [];
for (let i = 0; i < GAMES; i++) games.push(await newGame());

for (let cycle = 1; cycle <= CYCLES; cycle++) {
  await sleep(200 + Math.floor(random() * 800));
  await server.kill9();
  for (const { players } of games) for (const p of players) p.client.ws.terminate();
  server = await startServer({ dir, args: SERVER_ARGS });
  // every move any client saw must be in the restarted server's game, in order
  for (const { g, players } of games) {
    const { status, body } = await getJson(server, `/api/games/${g.id}`);
    if (status !== 200) {
      failures.push(`cycle ${cycle}: game ${g.id} is gone (${status})`);
      continue;
    }
    for (const p of players) {
      try {
        assert.deepEqual(body.moves.slice(0, p.seen.length), p.seen);
        checkedMoves += p.seen.length;
      } catch {
        failures.push(`cycle ${cycle}: game ${g.id}: ${p.color} saw ${p.seen.join(' ')} but the ` +
                      `server has ${body.moves.join(' ')}`);
      }
      const last = p.last;
      if (last && last.clock && body.clock && last.moves.length === body.moves.length) {
        // nothing moved since: the side not on move keeps its time exactly; nobody gains
        const idle = body.turn === 'white' ? 'black' : 'white';
        if (body.clock[`${idle}_ms`] !== last.clock[`${idle}_ms`])
          failures.push(`cycle ${cycle}: game ${g.id}: ${idle}'s clock went from ` +
                        `${last.clock[`${idle}_ms`]} to ${body.clock[`${idle}_ms`]}`);
        for (const side of ['white', 'black'])
          if (body.clock[`${side}_ms`] > last.clock[`${side}_ms`])
            failures.push(`cycle ${cycle}: game ${g.id}: ${side} gained time`);
      }
    }
  }
  // finished games make way for new ones; the others go on
  const next = [];
  for (const game of games) {
    const { body } = await getJson(server, `/api/games/${game.g.id}`);
    if (body.status === 'over') next.push(await newGame());
    else {
      for (const p of game.players) await p.connect();
      next.push(game);
    }
  }
  games = next;
  process.stdout.write(`cycle ${cycle}/${CYCLES}: ${checkedMoves} move checks so far\n`);
}

await sleep(300);
await server.stop();
for (const { players } of games) for (const p of players) p.client.ws.terminate();
cleanup(dir);
if (failures.length) {
  for (const f of failures) console.error(f);
  console.error(`crash test: ${failures.length} failures (seed ${opt('--seed', 0)})`);
  process.exit(1);
}
console.log(`crash test: ${CYCLES} kill -9 restarts, ${checkedMoves} checks of acknowledged moves, none lost`);
