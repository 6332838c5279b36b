// Arbiter — MIT licence, see LICENSE.
//
// lib.mjs: helpers for the tests that talk to a real `arbiter serve` on loopback — starting and
// stopping it (or killing it with -9), making games over HTTP, and WebSocket clients that wait
// for the message they expect.

import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as pathJoin } from 'node:path';
import { request as httpRequest } from 'node:http';
import WebSocket from 'ws';

export const ARBITER = process.env.ARBITER || 'build/release/arbiter';
// extra arguments for every server the tests start (e.g. "--loop poll")
const EXTRA = (process.env.ARBITER_SERVE_ARGS || '').split(' ').filter(Boolean);

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// HTTP without connection reuse: a fresh connection per request.  fetch() keeps idle
// connections per origin, and a test's server can get the port an earlier (killed) server had:
// a pooled connection to the dead one then fails the next request with "fetch failed".
export function request(url, { method = 'GET', body } = {}) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(body);
    const headers = data ? { 'content-length': data.length } : {};
    const req = httpRequest(url, { method, agent: false, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode, headers: res.headers, text: async () => text, json: async () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

// A scratch folder for one test's database.
export function scratch() {
  return mkdtempSync(pathJoin(tmpdir(), 'arbiter-serve-'));
}

// The public server's limits that these tests, which make many games from one address with
// one- and two-second clocks on purpose, step past: games per address a minute and the least
// starting time.  The limits themselves are tested with their defaults (hostile.test.mjs,
// which starts its servers with { limits: 'default' }).
const TEST_LIMITS = ['--create-rate', '0', '--min-time', '0', '--max-conns-per-ip', '0'];

// Starts the server (extra arguments appended); resolves once it listens.
export async function startServer({ dir = scratch(), args = [], limits = 'test' } = {}) {
  const portFile = pathJoin(dir, `port-${Date.now()}-${Math.random()}`);
  const db = pathJoin(dir, 'games.db');
  const log = [];
  const proc = spawn(
    ARBITER,
    ['serve', '--port', '0', '--port-file', portFile, '--db', db,
      ...(limits === 'test' ? TEST_LIMITS : []), ...EXTRA, ...args],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  proc.stderr.on('data', (d) => log.push(d.toString()));
  // never left listening when the test process goes, however it goes
  const reap = () => proc.kill('SIGKILL');
  process.on('exit', reap);
  const exited = new Promise((r) =>
    proc.on('exit', (code, signal) => {
      process.off('exit', reap);
      r({ code, signal });
    }));
  for (let i = 0; i < 200 && !existsSync(portFile); i++) await sleep(25);
  if (!existsSync(portFile)) {
    proc.kill('SIGKILL');
    throw new Error(`arbiter serve did not start:\n${log.join('')}`);
  }
  // the server writes the file whole (renamed into place), so a port that is not one is a fault
  const port = Number(readFileSync(portFile, 'utf8').trim());
  if (!(port > 0)) {
    proc.kill('SIGKILL');
    throw new Error(`arbiter serve wrote no port to ${portFile}:\n${log.join('')}`);
  }
  return {
    dir,
    db,
    port,
    proc,
    log,
    exited,
    base: `http://127.0.0.1:${port}`,
    async stop() {
      proc.kill('SIGTERM');
      return exited;
    },
    async kill9() {
      proc.kill('SIGKILL');
      return exited;
    },
  };
}

export function cleanup(dir) {
  rmSync(dir, { recursive: true, force: true });
}

export async function createGame(server, body = {}) {
  const res = await request(`${server.base}/api/games`, {
    method: 'POST',
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 201) throw new Error(`create failed ${res.status}: ${JSON.stringify(json)}`);
  const token = (url) => url.split('#')[1];
  return { ...json, whiteToken: token(json.white), blackToken: token(json.black) };
}

export async function getJson(server, path) {
  const res = await request(`${server.base}${path}`);
  return { status: res.status, body: await res.json() };
}

export async function getText(server, path) {
  const res = await request(`${server.base}${path}`);
  return { status: res.status, body: await res.text() };
}

// A WebSocket client that keeps every message and can wait for one.
export class Client {
  constructor(server, opts = {}) {
    this.server = server;
    this.messages = [];
    this.waiters = [];
    this.closed = null;
    this.nextId = 1;
    this.opts = opts;
  }

  open() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${this.server.port}/ws`, this.opts);
      this.ws = ws;
      ws.on('message', (data, binary) => {
        const m = binary ? { binary: true } : JSON.parse(data.toString());
        this.messages.push(m);
        this.waiters = this.waiters.filter((w) => !w.test(m) || (w.resolve(m), false));
      });
      ws.on('close', (code, reason) => {
        this.closed = { code, reason: reason.toString() };
        for (const w of this.waiters) w.reject(new Error(`closed ${code} while waiting`));
        this.waiters = [];
      });
      ws.on('open', () => resolve(this));
      ws.on('error', reject);
    });
  }

  send(obj) {
    this.ws.send(typeof obj === 'string' ? obj : JSON.stringify(obj));
  }

  // The first message (from `from` on) matching pred, waited for.
  wait(pred, timeout = 3000, from = 0) {
    const found = this.messages.slice(from).find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const w = { test: pred, resolve, reject };
      this.waiters.push(w);
      setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error(`timed out waiting; got: ${JSON.stringify(this.messages.slice(-3))}`));
      }, timeout);
    });
  }

  // Sends and waits for the answer: an ack (its own message, or "ack" in the update the action
  // made) or an error with this id.  Answers {t: 'ack'} or the error.
  async request(obj, timeout = 3000) {
    const id = this.nextId++;
    const mark = this.messages.length;
    this.send({ ...obj, id });
    const m = await this.wait(
      (x) => ((x.t === 'ack' || x.t === 'error') && x.id === id) || (x.t === 'update' && x.ack === id),
      timeout, mark);
    return m.t === 'update' ? { t: 'ack', id, update: m } : m;
  }

  // The latest game state seen (from state and update messages).
  get game() {
    for (let i = this.messages.length - 1; i >= 0; i--)
      if (this.messages[i].game) return this.messages[i].game;
    return null;
  }

  // Waits until a state or update shows a game matching pred.
  waitGame(pred, timeout = 3000) {
    return this.wait((m) => m.game && pred(m.game), timeout).then((m) => m.game);
  }

  close() {
    this.ws.close();
  }

  waitClosed(timeout = 3000) {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((resolve, reject) => {
      this.ws.on('close', () => resolve(this.closed));
      setTimeout(() => reject(new Error('not closed')), timeout);
    });
  }
}

// Opens a client and says hello for a seat (token) or as a spectator (no token).
export async function join(server, game, token, version) {
  const c = await new Client(server).open();
  const hello = { t: 'hello', game };
  if (token) hello.token = token;
  if (version !== undefined) hello.v = version;
  c.send(hello);
  await c.wait((m) => m.t === 'state');
  return c;
}

// Both seats of a new game, the game started.
export async function twoPlayers(server, body) {
  const g = await createGame(server, { color: 'white', ...body });
  const white = await join(server, g.id, g.whiteToken);
  const black = await join(server, g.id, g.blackToken);
  await white.waitGame((s) => s.status === 'ongoing');
  await black.waitGame((s) => s.status === 'ongoing');
  return { g, white, black };
}

// Plays the moves in turn, each acknowledged, starting with the side to move.
export async function play(white, black, moves) {
  let turn = white.game.turn === 'white' ? white : black;
  for (const uci of moves) {
    const a = await turn.request({ t: 'move', uci });
    if (a.t !== 'ack') throw new Error(`${uci}: ${JSON.stringify(a)}`);
    turn = turn === white ? black : white;
  }
}

export function pgnCheck(pgnText) {
  const dir = scratch();
  const file = pathJoin(dir, 'game.pgn');
  execFileSync('sh', ['-c', `cat > '${file}'`], { input: pgnText });
  try {
    return execFileSync(ARBITER, ['pgn', 'check', file], { encoding: 'utf8' });
  } finally {
    cleanup(dir);
  }
}
