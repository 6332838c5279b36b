// Arbiter — MIT licence, see LICENSE.
//
// page.test.mjs: the game page's defects of issue 29 in a real browser (Debian's chromium via
// playwright-core) against a real `arbiter serve`: games are made over HTTP and their links
// opened as a person would; what is checked is what the page shows.  Each test leaves a
// screenshot in ARBITER_SHOTS (build/<preset>/web-shots/page), and no page may log an error
// (except the ones a test causes on purpose, forgiven by name).
//
// Run: sh tests/js/web.sh build/release/arbiter build/release page.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, createGame, cleanup, sleep, scratch } from './lib.mjs';
import { scene, Person, PHONE, pageServer, WEB } from './browser.mjs';


let server, browser;
pageServer((s, b) => ((server = s), (browser = b)));

// A game made over HTTP, both seats opened in the browser; answers {g, white, black}.
async function seated(meet, body, viewports = {}) {
  const g = await createGame(server, { color: 'white', ...body });
  const white = meet(new Person(browser, 'White', viewports.white));
  const black = meet(new Person(browser, 'Black', viewports.black));
  await white.open(`${server.base}${g.white}`);
  await black.open(`${server.base}${g.black}`);
  await white.waitData('status', 'ongoing');
  await black.waitData('status', 'ongoing');
  return { g, white, black };
}

const titleOf = (p) => p.page.title();

test('a first-move countdown runs while the first-move limit does', () =>
  scene('first-move', async (meet) => {
    const { white, black } = await seated(meet, { control: '3+2', rules: 'online' });
    const fm = await white.text('#first-move');
    assert.match(fm, /^You have (2[45]) s to make a first move, or the game is aborted\.$/);
    assert.match(await black.text('#first-move'), /^White has 2[45] s to make a first move/);
    await sleep(1300);
    const later = Number(await white.data('firstMove'));
    assert.ok(later <= 24, `the countdown runs: ${later}`);
    await white.clickMove('e2', 'e4');
    await black.waitPly(1);
    assert.match(await black.text('#first-move'), /^You have 2\d s to make a first move/);
    await black.clickMove('e7', 'e5');
    await white.waitPly(2);
    assert.equal(await white.shown('#first-move:not(.hidden)'), 0, 'gone once both have moved');
  }));

test('an opponent who left is announced; the claim button comes after the wait (online)', () =>
  scene('left', async (meet) => {
    const { g, white, black } = await seated(meet, { control: '1+0', rules: 'online' });
    await white.clickMove('e2', 'e4');
    await black.waitPly(1);
    await black.clickMove('e7', 'e5');
    await white.waitPly(2);
    await black.close();
    await white.page.waitForSelector('#away:not(.hidden)');
    assert.match(await white.text('#away-text'), /^Black left the game\. If they do not come back, you can claim the win in 1\d s\.$/);
    assert.equal(await white.shown('#claim-abandoned:not(.hidden)'), 0);
    await white.shot('left-White-waiting');
    await white.page.waitForSelector('#claim-abandoned:not(.hidden)', { timeout: 17000 });
    assert.equal(await white.text('#claim-abandoned'), 'Claim the win');
    await white.page.click('#claim-abandoned');
    const end = await white.banner();
    assert.equal(end.result, '1-0');
    assert.match(end.reason, /Black left the game: White wins by the abandonment claim \(online rules\)/);
    assert.match(await titleOf(white), /^Arbiter — 1-0 · Black left the game/);
    // after the game: the analysis link and the PGN
    const href = await white.page.getAttribute('#analyse', 'href');
    assert.equal(href, `/analysis?game=${g.id}`);
    assert.equal(await white.shown('#analyse:not(.hidden)'), 1);
    assert.equal(await white.shown('#pgn'), 1);
    black.page = null; // closed on purpose
  }));

test('a mangled seat link and an unknown game say so, with no board', () =>
  scene('bad-link', async (meet) => {
    const g = await createGame(server, { color: 'white' });
    const a = meet(new Person(browser, 'Unknown'));
    a.forgive(/HTTP 404/);
    await a.open(`${server.base}/game/zzzzzzzz#${g.whiteToken}`);
    await a.waitData('status', 'nogame');
    assert.equal(await a.text('#notice-title'), 'No such game');
    assert.equal(await a.shown('#game:not(.hidden)'), 0, 'no board that looks playable');
    assert.match(await titleOf(a), /No such game/);
    const b = meet(new Person(browser, 'Mangled'));
    await b.open(`${server.base}/game/${g.id}#${g.whiteToken.slice(0, -3)}abc`);
    await b.waitData('status', 'nogame');
    assert.equal(await b.text('#notice-title'), 'This link is not a seat of this game');
    assert.equal(await b.shown('#notice-watch:not(.hidden)'), 1);
    assert.equal(await b.shown('#game:not(.hidden)'), 0);
    assert.equal(await b.page.isVisible('#conn'), false, 'no "connected" to nothing');
  }));

test('a spectator: the label, the count, the PGN button; refusals in words; a declined offer told', () =>
  scene('spectator', async (meet) => {
    const { g, white, black } = await seated(meet, { rules: 'online' });
    const s = meet(new Person(browser, 'Spectator'));
    await s.open(`${server.base}/game/${g.id}`);
    await s.waitData('seat', 'spectator');
    assert.equal(await s.text('#watching-label'), 'You are watching.');
    await s.waitData('spectators', '1');
    assert.equal(await s.text('#spectators'), '1 watching');
    await white.waitData('spectators', '1');
    assert.equal(await s.shown('#pgn'), 1, 'the PGN button for spectators too');
    assert.equal(await s.shown('#resign:not(.hidden)'), 0);
    // a typed illegal move, refused in words: 1. e4 e5 2. d4 Bb4+ 3. Nf3?
    let ply = 0;
    for (const [p, mv] of [[white, 'e4'], [black, 'e5'], [white, 'd4'], [black, 'Bb4+']]) {
      await p.page.fill('#typed-move', mv);
      await p.page.press('#typed-move', 'Enter');
      await s.waitPly(++ply);
      await white.waitPly(ply);
      await black.waitPly(ply);
    }
    await white.page.fill('#typed-move', 'Nf3');
    await white.page.press('#typed-move', 'Enter');
    await white.page.waitForFunction(() => document.getElementById('flash').textContent.length > 0);
    assert.equal(await white.text('#flash'),
      'Nf3 is illegal: your king is in check from the bishop on b4 and this move does not stop it');
    // a draw offer declined: the offerer is told
    await white.page.click('#draw');
    await black.page.waitForSelector('#offer:not(.hidden)');
    await black.page.click('#decline');
    await white.page.waitForFunction(() => /declined your draw offer/.test(document.getElementById('flash').textContent));
    assert.equal(await white.text('#flash'), 'Black declined your draw offer.');
  }));

test('settings: a name in the players\' bar, the blue board, coordinates off, sounds; the move confirmation in SAN', () =>
  scene('settings', async (meet) => {
    const g = await createGame(server, { color: 'white' });
    const white = meet(new Person(browser, 'White'));
    await white.open(`${server.base}/`);
    await white.page.evaluate(() => localStorage.setItem('arbiter.settings',
      JSON.stringify({ name: 'Ann', board: 'blue', confirm: true, coords: false, sound: true })));
    await white.open(`${server.base}${g.white}`);
    const black = meet(new Person(browser, 'Black'));
    await black.open(`${server.base}${g.black}`);
    await white.waitData('status', 'ongoing');
    // the blue board is blue: the light squares #dee3e6, and no brown picture
    const bg = await white.page.evaluate(() => getComputedStyle(document.querySelector('cg-board')));
    const look = await white.page.evaluate(() => {
      const st = getComputedStyle(document.querySelector('cg-board'));
      return { color: st.backgroundColor, image: st.backgroundImage };
    });
    void bg;
    assert.equal(look.color, 'rgb(222, 227, 230)');
    assert.match(look.image, /conic-gradient/);
    assert.doesNotMatch(look.image, /svg/);
    assert.equal(await white.shown('#board coords'), 0, 'coordinates off');
    // the name from the settings, said in hello, in the players' bar of both pages
    await white.page.waitForFunction(() => /Ann/.test(document.getElementById('bottom-name').textContent));
    assert.equal(await white.text('#bottom-name'), 'Ann · White (you)');
    await black.page.waitForFunction(() => /Ann/.test(document.getElementById('top-name').textContent));
    assert.equal(await black.text('#top-name'), 'Ann · White');
    // the confirmation names the move in SAN
    await white.clickMove('g1', 'f3');
    await white.page.waitForSelector('#confirm:not(.hidden)');
    assert.equal(await white.text('#confirm-text'), 'Play Nf3?');
    await white.page.click('#confirm-yes');
    await black.waitPly(1);
    // the mover's page sounds the move when its own page has it (not when the opponent's does)
    await white.waitData('sound', 'move');
    assert.equal(await white.data('sound'), 'move');
  }));

test('a phone: nothing scrolls sideways, the coordinates stay on the board', () =>
  scene('phone', async (meet) => {
    const { white } = await seated(meet, { control: '5+3' }, { white: PHONE });
    const m = await white.page.evaluate(() => {
      const board = document.querySelector('cg-board').getBoundingClientRect();
      const files = [...document.querySelectorAll('#board coords.files coord')].map((c) => c.getBoundingClientRect());
      const ranks = [...document.querySelectorAll('#board coords.ranks coord')].map((c) => c.getBoundingClientRect());
      return {
        scroll: document.documentElement.scrollWidth, width: innerWidth, board,
        wide: [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
          .slice(0, 5).map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`).join(', '),
        files: files.map((r) => [r.left, r.right, r.top, r.bottom]), ranks: ranks.map((r) => [r.left, r.right, r.top, r.bottom]),
      };
    });
    assert.ok(m.scroll <= m.width, `the page is ${m.scroll} px wide in a ${m.width} px window: ${m.wide}`);
    assert.equal(m.files.length, 8);
    const sq = m.board.width / 8;
    m.files.forEach(([l, r], i) => {
      assert.ok(l >= m.board.left + i * sq - 1 && r <= m.board.left + (i + 1) * sq + 1, `file ${i} on its square`);
    });
    for (const [l, r, t, b] of [...m.files, ...m.ranks]) {
      assert.ok(l >= m.board.left - 1 && r <= m.board.right + 1, 'a coordinate inside the board across');
      assert.ok(t >= m.board.top - 1 && b <= m.board.bottom + 1, 'a coordinate inside the board down');
    }
  }));

test('under ten seconds the running clock stays distinct; captured material; a dark page', () =>
  scene('low-time', async (meet) => {
    // 9 s sudden death under FIDE rules: White's clock runs from the start
    const g = await createGame(server, { color: 'white', control: '9s', rules: 'fide' });
    const white = meet(new Person(browser, 'White'));
    // a system that asks for dark pages
    white.ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'dark' });
    white.page = await white.ctx.newPage();
    white.watch(white.page);
    await white.open(`${server.base}${g.white}`);
    const black = meet(new Person(browser, 'Black'));
    await black.open(`${server.base}${g.black}`);
    await white.waitData('status', 'ongoing');
    const look = (p, id) => p.page.evaluate((i) => {
      const e = document.getElementById(i), st = getComputedStyle(e);
      return { cls: e.className, bg: st.backgroundColor, fg: st.color };
    }, id);
    const running = await look(white, 'bottom-clock'), stopped = await look(white, 'top-clock');
    assert.match(running.cls, /running/);
    assert.match(running.cls, /low/);
    assert.doesNotMatch(stopped.cls, /running/);
    assert.notEqual(running.bg, stopped.bg, 'the running clock is filled, the stopped one is not');
    assert.equal(stopped.bg, 'rgba(0, 0, 0, 0)');
    // the dark page: a dark background, light ink
    const page = await white.page.evaluate(() => {
      const st = getComputedStyle(document.documentElement);
      return { bg: st.backgroundColor, ink: st.color };
    });
    assert.equal(page.bg, 'rgb(22, 21, 18)');
    assert.equal(page.ink, 'rgb(230, 227, 222)');
    // 1. e4 d5 2. exd5: White is a pawn up, shown beside White's name
    let ply = 0;
    for (const [p, mv] of [[white, 'e4'], [black, 'd5'], [white, 'exd5']]) {
      await p.page.fill('#typed-move', mv);
      await p.page.press('#typed-move', 'Enter');
      ply++;
      await white.waitPly(ply);
      await black.waitPly(ply);
    }
    assert.equal(await white.text('#bottom-material'), '♟ +1');
    assert.equal(await white.text('#top-material'), '');
    assert.equal(await black.text('#top-material'), '♟ +1', 'on the opponent\'s page, White is on top');
    assert.equal(await white.data('sound'), 'capture');
  }));

test('"not connected" goes away once the connection is back', () =>
  scene('reconnect', async (meet) => {
    const dir = scratch();
    let own = await startServer({ dir, args: ['--static', WEB] });
    const port = own.port;
    try {
      const g = await createGame(own, { color: 'white', rules: 'casual' });
      const white = meet(new Person(browser, 'White'));
      const black = meet(new Person(browser, 'Black'));
      await white.open(`${own.base}${g.white}`);
      await black.open(`${own.base}${g.black}`);
      await white.waitData('status', 'ongoing');
      for (const p of [white, black]) p.forgiveOutage();
      await own.kill9();
      await white.page.waitForSelector('#conn.offline');
      // a move made while the server is away: the page says it is not connected
      await white.page.fill('#typed-move', 'e4');
      await white.page.press('#typed-move', 'Enter');
      assert.match(await white.text('#flash'), /^Not connected/);
      own = await startServer({ dir, args: ['--static', WEB, '--port', String(port)] });
      await white.page.waitForSelector('#conn.online', { timeout: 10000 });
      await white.waitPly(1, 5000); // the move went when the connection came back
      assert.equal(await white.text('#flash'), '', 'the notice is gone');
    } finally {
      await own.stop();
      cleanup(dir);
    }
  }));
