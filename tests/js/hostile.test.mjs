// Arbiter — MIT licence, see LICENSE.
//
// hostile.test.mjs: `arbiter serve` attacked from loopback by a client that has read its code,
// and run on a broken disk — each attack of the security review (issue "the play server under
// attack and under faults") reproduced with raw sockets and real WebSockets, and answered as
// the review asks: pipelined requests answered once each and in order, nothing a client does
// stalling another (a second client is served within 1 s throughout), no time the server
// spends on itself charged to a player, one server per database and per port, a database that
// cannot be written refused at start, a write that fails answered and the game kept as it was,
// and the limits a public server needs.  Servers here run with their default limits.
//
// Every loop is bounded; the whole file runs in well under a minute.
// Run: ARBITER=build/release/arbiter node --test tests/js/hostile.test.mjs

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { spawn, execFileSync } from 'node:child_process';
import { writeFileSync, readFileSync, mkdirSync, symlinkSync, chmodSync, statSync, openSync, writeSync, closeSync } from 'node:fs';
import { join as pathJoin } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  ARBITER, startServer, createGame, twoPlayers, join, play, getJson, request, Client, sleep,
  scratch, cleanup,
} from './lib.mjs';

const servers = [];
async function serve(opts = {}) {
  const s = await startServer({ limits: 'default', ...opts });
  servers.push(s);
  return s;
}
after(async () => {
  for (const s of servers) if (s.proc.exitCode === null) await s.stop();
});

// Sends bytes on one connection and gathers what comes back for ms (or until closed).
function raw(server, bytes, { ms = 600, chunks = null, gap = 0 } = {}) {
  return new Promise((resolve, reject) => {
    const sock = connect(server.port, '127.0.0.1');
    const got = [];
    let closed = false;
    sock.on('data', (d) => got.push(d));
    sock.on('error', () => {});
    sock.on('close', () => {
      closed = true;
      resolve({ data: Buffer.concat(got), closed: true });
    });
    sock.on('connect', async () => {
      try {
        if (chunks) {
          for (const c of chunks) {
            sock.write(c);
            if (gap) await sleep(gap);
          }
        } else {
          sock.write(bytes);
        }
      } catch (e) {
        reject(e);
      }
      setTimeout(() => {
        if (!closed) {
          sock.destroy();
          resolve({ data: Buffer.concat(got), closed: false });
        }
      }, ms);
    });
  });
}

function statuses(buf) {
  return [...buf.toString('latin1').matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
}

// How long a second client waits for GET /api/games/ID (the server's responsiveness).
async function probe(server, id) {
  const t0 = Date.now();
  const r = await request(`${server.base}/api/games/${id}`);
  assert.equal(r.status, 200);
  return Date.now() - t0;
}

const get = (path, extra = '') => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}\r\n`;
const post = (body, extra = '') =>
  `POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

test('pipelined and kept-alive requests are answered once each, in order, and stall nobody', async () => {
  const server = await serve();
  const g = await createGame(server, { control: '5+0' });
  // GET then POST in one write (the 138-byte attack): two answers, not 40 MB of them
  const before = (await getJson(server, '/api/games/' + g.id)).body;
  const t0 = Date.now();
  let r = await raw(server, get(`/api/games/${g.id}`) + post('{}'), { ms: 800 });
  assert.deepEqual(statuses(r.data), [200, 201]);
  assert.ok(r.data.length < 8000, `${r.data.length} bytes`);
  // POST then GET: one game made, not three
  r = await raw(server, post('{"control":"3+2"}') + get(`/api/games/${g.id}`), { ms: 800 });
  assert.deepEqual(statuses(r.data), [201, 200]);
  const ids = [...r.data.toString().matchAll(/"id":"([A-Za-z0-9_-]{8})"/g)].map((m) => m[1]);
  assert.equal(new Set(ids).size, 2, 'one new game and the one asked for');
  // ten requests in one write, split at odd places, on one kept-alive connection
  const many = Array.from({ length: 10 }, (_, i) => (i % 3 === 1 ? post('{}') : get(`/api/games/${g.id}`))).join('');
  const pieces = [];
  for (let i = 0; i < many.length; i += 7) pieces.push(many.slice(i, i + 7));
  r = await raw(server, null, { chunks: pieces, ms: 1000 });
  assert.deepEqual(statuses(r.data), [200, 201, 200, 200, 201, 200, 200, 201, 200, 200]);
  // meanwhile a second client was served at once
  assert.ok((await probe(server, g.id)) < 1000);
  assert.ok(Date.now() - t0 < 5000);
  assert.equal(before.id, g.id);
});

test('a stall of the loop is not charged to the player on move', async () => {
  // --debug-stall: GET /api/debug/stall holds the loop 1.5 s, as a slow disk or a long search
  const server = await serve({ args: ['--debug-stall', '1500', '--no-lag-compensation', '--create-rate', '0'] });
  const { white, black } = await twoPlayers(server, { control: '1+0', rules: 'fide' });
  await play(white, black, ['e2e4']);
  const start = (await black.waitGame((s) => s.clock.running === 'black')).clock.black_ms;
  // Black thinks 100 ms and moves while the loop is stalled
  const stall = request(`${server.base}/api/debug/stall`);
  await sleep(100);
  const t0 = Date.now();
  const a = await black.request({ t: 'move', uci: 'e7e5' }, 5000);
  assert.equal(a.t, 'ack');
  assert.ok(Date.now() - t0 > 1000, 'the move was answered after the stall');
  await stall;
  const used = start - a.update.game.clock.black_ms;
  assert.ok(used < 600, `Black was charged ${used} ms for a 100 ms move during a 1.5 s stall`);
  white.close();
  black.close();
});

test('one server per port and per database', async () => {
  const server = await serve();
  const g = await createGame(server, {});
  // the same database: refused, and the first one's games are untouched
  const second = spawn(ARBITER, ['serve', '--port', '0', '--db', server.db], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  second.stderr.on('data', (d) => (err += d));
  const code = await new Promise((r) => second.on('exit', r));
  assert.equal(code, 1);
  assert.match(err, /in use by another arbiter serve/);
  assert.equal((await getJson(server, `/api/games/${g.id}`)).status, 200);
  // the same port: refused with the reason, not "listening" and spinning
  const dir = scratch();
  const third = spawn(ARBITER, ['serve', '--port', String(server.port), '--db', pathJoin(dir, 'x.db')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err3 = '';
  third.stderr.on('data', (d) => (err3 += d));
  assert.equal(await new Promise((r) => third.on('exit', r)), 1);
  assert.match(err3, /cannot listen .*address already in use/);
  assert.doesNotMatch(err3, /listening/);
  cleanup(dir);
});

async function refused(db, pattern) {
  const p = spawn(ARBITER, ['serve', '--port', '0', '--db', db], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  p.stderr.on('data', (d) => (err += d));
  const code = await new Promise((r) => p.on('exit', r));
  assert.equal(code, 1, err);
  assert.match(err, pattern);
}

test('a database that is empty, damaged, another program\'s or read-only is refused at start', async () => {
  const dir = scratch();
  // a 0-byte file: not silently a new, empty database
  writeFileSync(pathJoin(dir, 'empty.db'), '');
  await refused(pathJoin(dir, 'empty.db'), /empty file/);
  // a file that is not SQLite at all
  writeFileSync(pathJoin(dir, 'junk.db'), randomBytes(8192));
  await refused(pathJoin(dir, 'junk.db'), /not a database|damaged/);
  // a real database with games, one page of it overwritten
  const s = await startServer({ dir });
  for (let i = 0; i < 30; i++) await createGame(s, { control: '5+0' });
  await s.stop();
  const size = statSync(s.db).size;
  const fd = openSync(s.db, 'r+');
  writeSync(fd, randomBytes(4096), 0, 4096, Math.floor(size / 4096 / 2) * 4096);
  closeSync(fd);
  await refused(s.db, /damaged|malformed|not a database/);
  // read-only: no move could be stored.  As a user, the file's mode makes it so; root ignores
  // modes, so there the folder is bind-mounted read-only (as a disk remounted read-only is)
  const ro = pathJoin(dir, 'ro');
  mkdirSync(ro);
  const t = await startServer({ dir: ro });
  await createGame(t, {});
  await t.stop();
  if (process.getuid() !== 0) {
    chmodSync(t.db, 0o444);
    await refused(t.db, /cannot be written/);
  } else {
    execFileSync('mount', ['--bind', ro, ro]);
    try {
      execFileSync('mount', ['-o', 'remount,bind,ro', ro]);
      await refused(t.db, /cannot be written/);
    } finally {
      execFileSync('umount', [ro]);
    }
  }
  cleanup(dir);
});

test('a write that fails: the mover is told, the game stays as it was, SIGTERM still stops it', async () => {
  // a file size limit the database outgrows: every commit then fails (EFBIG), like a full disk
  const dir = scratch();
  const db = pathJoin(dir, 'games.db');
  const portFile = pathJoin(dir, 'port');
  const proc = spawn('sh', ['-c', `ulimit -f 400; exec "$0" "$@"`, ARBITER, 'serve', '--port', '0', '--port-file', portFile,
    '--db', db, '--create-rate', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (d) => (log += d));
  const exited = new Promise((r) => proc.on('exit', (code, signal) => r({ code, signal })));
  for (let i = 0; i < 200; i++) {
    try { readFileSync(portFile); break; } catch { await sleep(25); }
  }
  const port = Number(readFileSync(portFile, 'utf8').trim());
  const server = { port, base: `http://127.0.0.1:${port}`, proc };
  const { white, black } = await twoPlayers(server, { control: '5+0', rules: 'uscf' });
  // knights to and fro (US Chess rules: repetitions end nothing by themselves, so the game goes
  // on however few bytes a move takes on disk), until the disk is full
  const shuffle = ['g1f3', 'g8f6', 'f3g1', 'f6g8'];
  let refusedAt = -1, ply = 0;
  for (let i = 0; i < 4000 && refusedAt < 0; i++) {
    const c = i % 2 ? black : white;
    const a = await c.request({ t: 'move', uci: shuffle[i % 4] }, 8000);
    if (a.t === 'error') refusedAt = i;
    else ply++;
  }
  assert.ok(refusedAt >= 0, 'the disk filled up');
  const mover = refusedAt % 2 ? black : white;
  const err = mover.messages.findLast((m) => m.t === 'error');
  assert.equal(err.code, 'not_stored');
  const st = await mover.waitGame((s) => s.moves.length === ply, 5000);
  assert.equal(st.moves.length, ply, 'the game is as it was stored');
  assert.match(log, /did not store/);
  // the game can still be read, and the server still answers
  assert.equal((await request(`${server.base}/api/games/nothere1`)).status, 404);
  proc.kill('SIGTERM');
  const t0 = Date.now();
  const { code } = await exited;
  assert.ok(Date.now() - t0 < 15000, 'SIGTERM stopped it');
  assert.ok(code === 0 || code === 1);
  white.close();
  black.close();
  cleanup(dir);
});

test('games made per address are limited; games nobody started expire and are not reloaded', async () => {
  const dir = scratch();
  const server = await serve({ dir, args: ['--expire-unstarted', '3s'] });
  const made = [];
  let limited = null;
  for (let i = 0; i < 40 && !limited; i++) {
    const r = await request(`${server.base}/api/games`, { method: 'POST', body: '{}' });
    if (r.status === 201) made.push((await r.json()).id);
    else limited = r;
  }
  assert.equal(made.length, 20, 'the default: 20 a minute');
  assert.equal(limited.status, 429);
  assert.equal(limited.headers['retry-after'], '60');
  assert.equal((await limited.json()).error.code, 'rate');
  // ... and none of it stalled another client
  assert.ok((await probe(server, made[0])) < 1000);
  // nobody started them: after 3 s they are gone, from memory and from the store
  await sleep(4500);
  assert.equal((await getJson(server, `/api/games/${made[0]}`)).status, 404);
  await server.stop();
  // a restart loads only games under way
  const again = await serve({ dir, args: ['--create-rate', '0'] });
  const { g, white, black } = await twoPlayers(again, { control: '5+0' });
  await play(white, black, ['e2e4']);
  for (let i = 0; i < 30; i++) await createGame(again, {});
  white.close();
  black.close();
  await again.stop();
  const third = await serve({ dir });
  await sleep(200);
  assert.match(third.log.join(''), /\(1 unfinished games resumed;/);
  assert.equal((await getJson(third, `/api/games/${g.id}`)).body.status, 'ongoing');
});

test('CONNECT and other methods are refused at once; slow requests time out; big headers get 431', async () => {
  const server = await serve({ args: ['--request-timeout', '2'] });
  const g = await createGame(server, {});
  // 300 CONNECTs at once: each refused and closed (405, or 503 past 256 connections from one
  // address); nobody locked out
  const socks = await Promise.all(Array.from({ length: 300 }, () =>
    raw(server, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', { ms: 1500 })));
  assert.ok(socks.every((r) => [405, 503].includes(statuses(r.data)[0]) && r.closed), 'all refused and closed');
  assert.ok(socks.filter((r) => statuses(r.data)[0] === 405).length >= 256);
  assert.ok((await probe(server, g.id)) < 1000);
  const del = await raw(server, `DELETE /api/games/${g.id} HTTP/1.1\r\nHost: x\r\n\r\n`);
  assert.deepEqual(statuses(del.data), [405]);
  assert.match(del.data.toString(), /Allow: GET, HEAD, POST/);
  // slowloris: a head that never ends is answered 408 and closed
  const slow = await raw(server, null, { chunks: ['GET / HTTP/1.1\r\n', 'Host: x\r\n', 'X-A: 1\r\n', 'X-B: 2\r\n'], gap: 400, ms: 3500 });
  assert.deepEqual(statuses(slow.data), [408]);
  assert.ok(slow.closed);
  // over 8 KB of header fields: 431, with the documented error shape
  const big = await raw(server, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(9000)}\r\n\r\n`);
  assert.deepEqual(statuses(big.data), [431]);
  assert.match(big.data.toString(), /\{"error":\{"code":"header_too_big"/);
  // a body over 8 KB: 413 with the error shape
  const r = await request(`${server.base}/api/games`, { method: 'POST', body: 'x'.repeat(10000) });
  assert.equal(r.status, 413);
  assert.equal((await r.json()).error.code, 'too_big');
  // request smuggling shapes: both lengths, two lengths, an unknown coding
  const both = await raw(server, 'POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}');
  assert.deepEqual(statuses(both.data), [400]);
  const gz = await raw(server, 'POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n');
  assert.deepEqual(statuses(gz.data), [501]);
});

test('connections from one address are limited; the others are still served', async () => {
  const server = await serve();
  const g = await createGame(server, {});
  const socks = [];
  for (let i = 0; i < 256; i++) {
    const s = connect(server.port, '127.0.0.1');
    s.on('error', () => {});
    await new Promise((r) => s.on('connect', r));
    socks.push(s);
  }
  const over = await raw(server, get(`/api/games/${g.id}`));
  assert.deepEqual(statuses(over.data), [503]);
  assert.ok(over.closed);
  socks.pop().destroy();
  await sleep(100);
  assert.deepEqual(statuses((await raw(server, get(`/api/games/${g.id}`))).data), [200]);
  for (const s of socks) s.destroy();
});

test('a chunked POST is read; cross-site POSTs and WebSockets are refused', async () => {
  const server = await serve();
  const body = '{"control":"3+2"}';
  const chunked = `POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n${body.slice(0, 5)}\r\n${(body.length - 5).toString(16)}\r\n${body.slice(5)}\r\n0\r\n\r\n`;
  const r = await raw(server, chunked);
  assert.deepEqual(statuses(r.data), [201]);
  assert.match(r.data.toString(), /"control":"3m\+2s"/);
  // another site's page
  const evil = await raw(server, post('{}', 'Origin: http://evil.example\r\n'));
  assert.deepEqual(statuses(evil.data), [403]);
  const sneaky = await raw(server, post('{}', 'Sec-Fetch-Site: cross-site\r\n'));
  assert.deepEqual(statuses(sneaky.data), [403]);
  const own = await raw(server, `POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nOrigin: http://127.0.0.1:${server.port}\r\nContent-Length: 2\r\n\r\n{}`);
  assert.deepEqual(statuses(own.data), [201]);
  const foreign = new Client(server, { headers: { Origin: 'http://evil.example' } });
  await assert.rejects(foreign.open());
});

test('time controls out of bounds are refused with the reason', async () => {
  const server = await serve();
  for (const [control, why] of [['0+0', /at least 15 s/], ['0+2', /starts at 0 loses on the first move/],
    ['1+99999999', /at most an hour/], ['10s+0', /at least 15 s/]]) {
    const r = await request(`${server.base}/api/games`, { method: 'POST', body: JSON.stringify({ control }) });
    assert.equal(r.status, 400, control);
    assert.match((await r.json()).error.message, why, control);
  }
  assert.equal((await request(`${server.base}/api/games`, { method: 'POST', body: '{"control":"1+0"}' })).status, 201);
});

test('static files are never served from outside their folder', async () => {
  const dir = scratch();
  const web = pathJoin(dir, 'web');
  mkdirSync(web);
  writeFileSync(pathJoin(web, 'index.html'), '<title>page</title>');
  writeFileSync(pathJoin(dir, 'secret.txt'), 'secret');
  symlinkSync('/etc/passwd', pathJoin(web, 'passwd.txt'));
  symlinkSync(pathJoin(dir, 'secret.txt'), pathJoin(web, 'secret.txt'));
  symlinkSync('index.html', pathJoin(web, 'alias.html'));
  const server = await serve({ args: ['--static', web] });
  assert.equal((await request(`${server.base}/passwd.txt`)).status, 404);
  assert.equal((await request(`${server.base}/secret.txt`)).status, 404);
  assert.equal((await request(`${server.base}/alias.html`)).status, 200, 'a link inside the folder is fine');
  for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '//etc/passwd'])
    assert.deepEqual(statuses((await raw(server, get(p))).data), [404], p);
  const page = await request(`${server.base}/`);
  assert.equal(page.status, 200);
  assert.match(page.headers['content-security-policy'], /default-src 'none'/);
  assert.ok(page.headers['last-modified']);
  const again = await raw(server, get('/', `If-Modified-Since: ${page.headers['last-modified']}\r\n`));
  assert.deepEqual(statuses(again.data), [304]);
});

// A WebSocket opened by hand, to send frames no library would.
async function rawWs(server) {
  const key = randomBytes(16).toString('base64');
  const sock = connect(server.port, '127.0.0.1');
  await new Promise((r) => sock.on('connect', r));
  const got = [];
  sock.on('data', (d) => got.push(d));
  sock.on('error', () => {});
  const closed = new Promise((r) => sock.on('close', r));
  sock.write(`GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  await sleep(100);
  return { sock, got, closed, data: () => Buffer.concat(got) };
}

// The close code of the first close frame in buf after the 101 answer.
function closeCode(buf) {
  const at = buf.indexOf('\r\n\r\n') + 4;
  for (let i = at; i + 3 < buf.length;) {
    const op = buf[i] & 0x0f, len = buf[i + 1] & 0x7f;
    const off = len === 126 ? 4 : 2;
    const n = len === 126 ? buf.readUInt16BE(i + 2) : len;
    if (op === 8) return buf.readUInt16BE(i + off);
    i += off + n;
  }
  return null;
}

test('unmasked, reserved, oversized and bad frames are closed with the code RFC 6455 gives', async () => {
  const server = await serve();
  const cases = [
    ['an unmasked text frame', Buffer.from([0x81, 0x02, 0x7b, 0x7d]), 1002],
    ['a reserved bit', Buffer.from([0xc1, 0x80, 1, 2, 3, 4]), 1002],
    ['an unknown opcode', Buffer.from([0x83, 0x80, 1, 2, 3, 4]), 1002],
    ['a continuation of nothing', Buffer.from([0x80, 0x80, 1, 2, 3, 4]), 1002],
    ['a claimed 100 MB frame', Buffer.from([0x81, 0xff, 0, 0, 0, 0, 6, 0, 0, 0, 1, 2, 3, 4]), 1009],
    ['a binary frame', Buffer.from([0x82, 0x80, 1, 2, 3, 4]), 1003],
    ['text that is not UTF-8', Buffer.from([0x81, 0x82, 0, 0, 0, 0, 0xc3, 0x28]), 1007],
  ];
  for (const [what, frame, code] of cases) {
    const ws = await rawWs(server);
    assert.match(ws.data().toString('latin1'), /^HTTP\/1\.1 101/, what);
    ws.sock.write(frame);
    await Promise.race([ws.closed, sleep(3000)]);
    assert.equal(closeCode(ws.data()), code, what);
    ws.sock.destroy();
  }
  // a masked ping is answered with a pong carrying its payload
  const ws = await rawWs(server);
  const mask = [9, 8, 7, 6];
  const payload = Buffer.from('hi').map((b, i) => b ^ mask[i % 4]);
  ws.sock.write(Buffer.concat([Buffer.from([0x89, 0x82, ...mask]), payload]));
  await sleep(200);
  const buf = ws.data();
  const at = buf.indexOf('\r\n\r\n') + 4;
  assert.deepEqual([...buf.subarray(at, at + 4)], [0x8a, 0x02, 0x68, 0x69]);
  ws.sock.destroy();
});

test('draw offers are limited per seat, across all its connections', async () => {
  const server = await serve({ args: ['--create-rate', '0'] });
  const { g, white, black } = await twoPlayers(server, { control: '5+0', rules: 'fide' });
  const extra = await Promise.all(Array.from({ length: 19 }, () => join(server, g.id, g.whiteToken)));
  const seats = [white, ...extra];
  let offered = 0, limited = 0;
  for (let round = 0; round < 5; round++)
    for (const c of seats) {
      const a = await c.request({ t: 'offer_draw' });
      if (a.t === 'error' && a.code === 'rate') limited++;
      else offered++;
      if (a.t === 'ack') await black.request({ t: 'decline_draw' });
    }
  assert.ok(offered <= 3, `${offered} offers went through in a moment`);
  assert.equal(offered + limited, 100);
  for (const c of [...seats, black]) c.close();
});

test('resignations in positions built to make the winnability search slow stall nobody', async () => {
  // Black's "can it ever mate" is not settled in the library's default 500,000 nodes here (a
  // community position); under fide each resignation asks it
  const fen = 'k1bK4/1p1p4/1PpPp3/2P1Pp2/2p1pP2/2p1P3/2P5/8 w - - 0 1';
  const server = await serve({ args: ['--create-rate', '0'] });
  const games = [];
  for (let i = 0; i < 20; i++) games.push(await twoPlayers(server, { control: '5+0', rules: 'fide', fen }));
  const t0 = Date.now();
  const resigned = games.map(({ white }) => white.request({ t: 'resign' }, 5000));
  const waited = await probe(server, games[0].g.id);
  const answers = await Promise.all(resigned);
  assert.ok(waited < 1000, `a second client waited ${waited} ms`);
  assert.ok(Date.now() - t0 < 1500, `20 resignations took ${Date.now() - t0} ms`);
  for (const a of answers) {
    assert.equal(a.t, 'ack');
    // not proven unwinnable within the server's budget: the resignation loses (FIDE 5.1.2)
    assert.equal(a.update.game.result, '0-1');
  }
  for (const { white, black } of games) white.close(), black.close();
});

test('a rematch made while a seat was away reaches it after a restart', async () => {
  const dir = scratch();
  let server = await serve({ dir, args: ['--create-rate', '0'] });
  const { g, white, black } = await twoPlayers(server, { control: '5+0' });
  await white.request({ t: 'resign' });
  white.send({ t: 'rematch' });
  await black.waitGame((s) => s.rematch.offer === 'white');
  white.close(); // White goes away; Black accepts
  black.send({ t: 'rematch' });
  const forBlack = await black.wait((m) => m.t === 'rematch');
  black.close();
  await server.stop();
  server = await serve({ dir });
  const back = await new Client(server).open();
  back.send({ t: 'hello', game: g.id, token: g.whiteToken });
  const link = await back.wait((m) => m.t === 'rematch');
  assert.equal(link.game, forBlack.game);
  const seat = await join(server, link.game, link.url.split('#')[1]);
  assert.equal(seat.game.seat, 'black', 'White of the old game is Black of the rematch');
  // a wrong token learns nothing
  const other = await new Client(server).open();
  other.send({ t: 'hello', game: g.id, token: 'A'.repeat(22) });
  await other.wait((m) => m.t === 'state');
  await sleep(100);
  assert.ok(!other.messages.some((m) => m.t === 'rematch'));
  for (const c of [back, seat, other]) c.close();
});
