// Arbiter — MIT licence, see LICENSE.
//
// lobby.test.mjs: a newcomer's first minutes at the lobby, in a real browser (Debian's chromium,
// playwright-core) against a real `arbiter serve` with Debian's Stockfish: playing the computer
// to the end at level 1 and at level 8 by mouse, an open game made by one person and joined by
// another with one click from the list, a spectator finding it in the games in progress, the
// ready card that restates the game and keeps its links (Open opens a new tab), Cancel, the
// refusals a person meets before a game is made, a server without an engine, and the phone.
// The person's moves are picked from `arbiter query`'s legal moves of the position the server
// reports (GET /api/games/ID), and made by clicking the squares.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startServer, getJson, cleanup, ARBITER } from './lib.mjs';
import { scene, Person, PHONE, pageServer, WEB, gameIdOf } from './browser.mjs';


let server, browser;
pageServer((s, b) => ((server = s), (browser = b)));


function seeded(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

// A legal move of the position (no promotion when another move exists: the page would ask
// which piece), chosen by the seeded generator.
function pick(fen, rand) {
  const q = JSON.parse(execFileSync(ARBITER, ['query'], { input: JSON.stringify({ fen }), encoding: 'utf8' }));
  const plain = q.legal_uci.filter((m) => m.length === 4);
  const moves = plain.length ? plain : q.legal_uci;
  return moves[Math.floor(rand() * moves.length)];
}

// Plays the person's side by mouse until the game ends; answers the final game (the API's).
async function playToEnd(p, id, rand, maxMoves = 300) {
  const seat = await p.data('seat');
  for (let i = 0; i < maxMoves; i++) {
    await p.page.waitForFunction(
      (s) => document.body.dataset.status === 'over' || (document.body.dataset.status === 'ongoing' && document.body.dataset.turn === s),
      seat, { timeout: 30000 });
    if ((await p.data('status')) === 'over') break;
    const g = (await getJson(server, `/api/games/${id}`)).body;
    if (g.status === 'over') break;
    const uci = pick(g.fen, rand);
    const ply = Number(await p.data('ply'));
    await p.clickMove(uci.slice(0, 2), uci.slice(2, 4));
    if (uci.length === 5) await p.page.click('.promotion [data-role="queen"], .promotion button >> nth=0').catch(() => {});
    await p.page.waitForFunction((n) => Number(document.body.dataset.ply) > n || document.body.dataset.status === 'over', ply, { timeout: 30000 });
  }
  await p.waitData('status', 'over', 30000);
  return (await getJson(server, `/api/games/${id}`)).body;
}

for (const [level, color] of [[1, 'white'], [8, 'black']])
  test(`play the computer at level ${level} as ${color}, by mouse, to the end`, () =>
    scene(`computer-${level}`, async (meet) => {
      const p = meet(new Person(browser, `level${level}`));
      await p.open(`${server.base}/`);
      await p.page.waitForSelector('#levels button');
      await p.page.click(`#levels button[data-level="${level}"]`);
      const what = await p.text('#level-what');
      assert.match(what, new RegExp(`Level ${level}: `));
      await p.page.selectOption('#comp-control', 'none');
      await p.page.click(`#comp-colors button[data-color="${color}"]`);
      await p.shot(`computer-${level}-lobby`);
      await p.page.click('#play-computer');
      await p.page.waitForSelector('cg-board');
      await p.waitData('status', 'ongoing', 10000);
      assert.equal(await p.data('seat'), color);
      const id = gameIdOf(p.page);
      const g = await playToEnd(p, id, seeded(level));
      assert.equal(g.status, 'over');
      assert.notEqual(g.result, '*');
      const other = color === 'white' ? 'black' : 'white';
      assert.equal(g.players[other].computer, true);
      assert.equal(g.players[other].level, level);
      if (level === 8) assert.equal(g.result, color === 'white' ? '0-1' : '1-0', `level 8 beats random moves: ${g.reason}`);
      const pgn = (await (await fetch(`${server.base}/api/games/${id}.pgn`)).text());
      assert.match(pgn, new RegExp(`\\[${other === 'white' ? 'White' : 'Black'} "Stockfish level ${level}"\\]`));
    }));

test('an open game: one person opens it to anyone, another joins from the list with one click, a third watches', () =>
  scene('open', async (meet) => {
    const a = meet(new Person(browser, 'Maker'));
    await a.open(`${server.base}/`);
    await a.page.click('button[data-tc="10+5"]');
    await a.page.check('input[name=rules][value="fide"]');
    await a.page.click('#colors button[data-color="white"]');
    await a.page.click('#make-open');
    await a.page.waitForSelector('cg-board');
    const id = gameIdOf(a.page);
    // the board is drawn before the server's first message says whose seat this page holds
    await a.waitData('seat', 'white', 8000);

    const b = meet(new Person(browser, 'Joiner'));
    await b.open(`${server.base}/`);
    const row = b.page.locator(`#open-games tr[data-game="${id}"]`);
    await row.waitFor({ timeout: 8000 });
    const cells = await row.locator('td').allInnerTexts();
    assert.equal(cells[0], '10m+5s');
    assert.equal(cells[1], 'FIDE');
    assert.equal(cells[3], 'Black', 'the seat still free');
    await b.shot('open-list');
    await row.locator('button').click();
    await b.page.waitForSelector('cg-board');
    assert.equal(gameIdOf(b.page), id);
    await b.waitData('status', 'ongoing', 8000);
    await a.waitData('status', 'ongoing', 8000);
    assert.equal(await b.data('seat'), 'black');

    // gone from the list, and a second joiner is told so
    const lobby = (await getJson(server, '/api/lobby')).body;
    assert.ok(!lobby.open.some((g) => g.id === id));
    const late = await fetch(`${server.base}/api/games/${id}/join`, { method: 'POST', body: '{}', headers: { Origin: server.base } });
    assert.equal(late.status, 409);

    // a spectator finds it among the games in progress
    const c = meet(new Person(browser, 'Spectator'));
    await c.open(`${server.base}/`);
    const watch = c.page.locator(`#playing-games tr[data-game="${id}"] a`);
    await watch.waitFor({ timeout: 8000 });
    await watch.click();
    await c.page.waitForSelector('cg-board');
    assert.equal(gameIdOf(c.page), id);
    await c.waitData('status', 'ongoing', 8000); // the server's word has come: a seat or none
    assert.notEqual(await c.data('seat'), 'white');
    assert.notEqual(await c.data('seat'), 'black');
  }));

test('an open game leaves the list when its maker leaves', async () => {
  const res = await fetch(`${server.base}/api/games`, { method: 'POST', body: JSON.stringify({ open: true, color: 'black' }), headers: { Origin: server.base } });
  const made = await res.json();
  // the maker never opened the seat: listed for a grace period, then not
  let lobby = (await getJson(server, '/api/lobby')).body;
  assert.ok(lobby.open.some((g) => g.id === made.id && g.color === 'white'));
  const p = new Person(browser, 'Leaver');
  await p.open(new URL(made.you, server.base).href);
  await p.page.waitForSelector('cg-board');
  await p.close(); // the tab is closed: its seat's connection goes
  await new Promise((r) => setTimeout(r, 21500));
  lobby = (await getJson(server, '/api/lobby')).body;
  assert.ok(!lobby.open.some((g) => g.id === made.id), 'a seek expires when its maker leaves');
});

test('the ready card restates the game, Open keeps the links in the lobby, Cancel aborts it', () =>
  scene('ready', async (meet) => {
    const a = meet(new Person(browser, 'Friend'));
    const links = await a.makeGame(server.base, { control: '15+10', rules: 'uscf', color: 'black', variant: 'chess960' });
    const restate = await a.text('#restate');
    assert.match(restate, /15m\+10s/);
    assert.match(restate, /US Chess/);
    assert.match(restate, /Chess960/);
    assert.match(restate, /you play Black/);
    await a.shot('ready-card');
    await a.openSeat();
    // the lobby's tab is still there with every link
    assert.equal(await a.lobby.inputValue('#opponent'), links.opponent);
    assert.ok(await a.lobby.isVisible('#made'));
    await a.lobby.click('#cancel');
    await a.lobby.waitForFunction(() => /Cancelled/.test(document.getElementById('cancelled').textContent));
    await a.waitData('status', 'over', 5000);
    const g = (await getJson(server, `/api/games/${gameIdOf(a.page)}`)).body;
    assert.equal(g.termination, 'aborted');
  }));

test('refused before the game is made: an empty position, a clock that starts at zero', async () => {
  // the public server's limits (the other tests' server lets short clocks through)
  const strict = await startServer({ args: ['--static', WEB], limits: 'default' });
  try {
    await scene('refusals', async (meet) => {
    const a = meet(new Person(browser, 'Careless'));
    await a.open(`${strict.base}/`);
    await a.page.click('#variants button[data-variant="position"]');
    await a.page.click('#make');
    assert.match(await a.text('#create-error'), /FEN/);
    assert.ok(await a.page.isHidden('#made'));
    await a.page.click('#variants button[data-variant="standard"]');
    await a.page.click('button[data-tc="custom"]');
    await a.page.fill('#minutes', '0');
    await a.page.fill('#increment', '5');
    a.forgive(/HTTP 400/);
    a.forgive(/status of 400/);
    await a.page.click('#make');
    await a.page.waitForFunction(() => document.getElementById('create-error').textContent.length > 0);
    assert.match(await a.text('#create-error'), /starts at 0/);
    assert.ok(await a.page.isHidden('#made'));
    });
  } finally {
    await strict.stop();
    cleanup(strict.dir);
  }
});

test('on a phone the lobby fits: nothing scrolls sideways', () =>
  scene('phone', async (meet) => {
    const a = meet(new Person(browser, 'Phone', PHONE));
    await a.open(`${server.base}/`);
    await a.page.waitForSelector('#levels button');
    const wide = await a.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(wide <= 0, `the page is ${wide}px wider than the phone`);
    await a.page.screenshot({ path: `${process.env.ARBITER_SHOTS || 'build/web-shots'}/phone-lobby-full.png`, fullPage: true });
  }));

test('a server without an engine says how to get one', async () => {
  const bare = await startServer({ args: ['--static', WEB, '--no-engine'] });
  const p = new Person(browser, 'NoEngine');
  try {
    await p.open(`${bare.base}/`);
    await p.page.waitForSelector('#no-engine:not(.hidden)');
    assert.match(await p.text('#no-engine'), /apt install stockfish/);
    assert.ok(await p.page.isHidden('#computer-form'));
    await p.shot('no-engine');
    p.assertClean();
  } finally {
    await p.close();
    await bare.stop();
    cleanup(bare.dir);
  }
});
