// Arbiter — MIT licence, see LICENSE.
//
// web.test.mjs: the page in a real browser (Debian's chromium, driven by playwright-core)
// against a real `arbiter serve`: two browser contexts are two people, moves are made with the
// mouse on the board, and what is checked is what the page shows — the pieces where they are
// drawn, the result and its reason in words, the clocks — plus what the server recorded.
// Expected results and reasons come from the Laws (and lichess's rules for `online`), as in
// server.test.mjs.  Each test leaves a screenshot of its last state in ARBITER_SHOTS
// (build/web-shots by default), and no page may log an error.
//
// Run: ARBITER=build/release/arbiter ARBITER_WEB=web/dist node --test tests/js/web.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join as pathJoin } from 'node:path';
import { startServer, getJson, pgnCheck, cleanup, sleep, scratch } from './lib.mjs';
import { scene, Person, twoAtBoard, playClicks, PHONE, pageServer, WEB, gameIdOf } from './browser.mjs';


let server, browser;
pageServer((s, b) => ((server = s), (browser = b)));



test('the lobby: every preset, each rule set explained, a custom FIDE control, Chess960', () =>
  scene('lobby', async (meet) => {
    const a = meet(new Person(browser, 'Creator'));
    await a.open(`${server.base}/`);
    const presets = await a.page.locator('#presets button').evaluateAll((bs) => bs.map((b) => b.dataset.tc));
    for (const tc of ['1+0', '2+1', '3+0', '3+2', '5+0', '5+3', '10+0', '10+5', '15+10', '30+0', '30+20', 'custom'])
      assert.ok(presets.includes(tc), `preset ${tc}`);
    const rules = await a.page.locator('.rule').evaluateAll((ls) =>
      ls.map((l) => [l.querySelector('input').value, l.querySelector('span').textContent]));
    assert.deepEqual(rules.map((r) => r[0]), ['online', 'fide', 'fide-rapid', 'fide-blitz', 'uscf', 'casual']);
    for (const [, what] of rules) assert.ok(what.length > 20, 'each rule set says what changes');
    await a.shot('lobby-Creator-form');
    // a multi-period control in the FIDE form, as Black
    let links = await a.makeGame(server.base, { control: { periods: '40/90+30,30+30' }, rules: 'fide', color: 'black' });
    await a.shot('lobby-Creator-made');
    assert.match(links.you, /\/game\/[\w-]+#/);
    assert.match(links.opponent, /\/game\/[\w-]+#/);
    assert.notEqual(links.you, links.opponent);
    const id = new URL(links.you).pathname.split('/')[2];
    assert.equal(new URL(links.spectator).hash, '', 'the spectator link holds no seat');
    const g = await getJson(server, `/api/games/${id}`);
    assert.equal(g.body.control, '40/90m+30s,30m+30s');
    assert.equal(g.body.rules, 'fide');
    await a.openSeat();
    // the board is drawn before the server's first message says the seat and the game's state
    await a.waitData('seat', 'black', 8000);
    assert.equal(await a.data('status'), 'waiting');
    assert.match(await a.text('#status'), /Waiting for your opponent/);
    // Chess960: a back rank with the king between the rooks and the bishops on both colours
    links = await a.makeGame(server.base, { control: '3+2', variant: 'chess960' });
    const g960 = await getJson(server, `/api/games/${new URL(links.you).pathname.split('/')[2]}`);
    const rank = g960.body.initial_fen.split('/')[7].split(' ')[0];
    assert.equal(rank.length, 8);
    assert.deepEqual([...rank].sort().join(''), 'BBKNNQRR');
    const [r1, k, r2] = [rank.indexOf('R'), rank.indexOf('K'), rank.lastIndexOf('R')];
    assert.ok(r1 < k && k < r2, rank);
    assert.notEqual(rank.indexOf('B') % 2, rank.lastIndexOf('B') % 2, rank);
    assert.equal(g960.body.initial_fen.split('/')[0], rank.toLowerCase(), 'Black mirrors White');
  }));

test("fool's mate: 0-1 by checkmate on both pages, on a phone too, and the PGN replays", () =>
  scene('fools-mate', async (meet) => {
    const { white, black } = await twoAtBoard(browser, server.base, { control: '5+3' }, { b: PHONE });
    meet(white, black);
    assert.equal(await white.data('seat'), 'white');
    assert.equal(await black.data('seat'), 'black');
    // the phone: the board fits the screen's width, the panel below it
    const board = await black.page.locator('cg-board').boundingBox();
    assert.ok(board.x >= 0 && board.x + board.width <= PHONE.width, `board ${JSON.stringify(board)}`);
    const clock = await black.page.locator('#bottom-clock').boundingBox();
    assert.ok(clock.y > board.y + board.height, 'the clocks are below the board on a phone');
    // by clicks and by drags
    await white.clickMove('f2', 'f3');
    await black.waitPly(1);
    await black.dragMove('e7', 'e5');
    await white.waitPly(2);
    await white.dragMove('g2', 'g4');
    await black.waitPly(3);
    await black.clickMove('d8', 'h4');
    for (const p of [white, black]) {
      const end = await p.banner();
      assert.equal(end.result, '0-1');
      assert.equal(end.reason, 'Checkmate: Black wins');
      await p.expectPieces({ h4: 'black queen', d8: null, f3: 'white pawn', g4: 'white pawn' });
      assert.equal(await p.text('#moves'), '1.\nf3\ne5\n2.\ng4\nQh4#');
      // the checked king is marked
      await p.waitCount('cg-board square.check', 1);
    }
    // the PGN, downloaded with the page's button, replays clean through arbiter pgn check
    const [download] = await Promise.all([white.page.waitForEvent('download'), white.page.click('#pgn')]);
    const file = pathJoin(scratch(), 'game.pgn');
    await download.saveAs(file);
    const pgn = readFileSync(file, 'utf8');
    assert.match(pgn, /\[Result "0-1"\]/);
    // the movetext without its clock comments
    const moves = pgn.split('\n\n')[1].replace(/\{[^}]*\}/g, ' ').replace(/\d+\.\.\./g, ' ').replace(/\s+/g, ' ').trim();
    assert.equal(moves, '1. f3 e5 2. g4 Qh4# 0-1');
    assert.match(pgn, /\[%clk /, 'with the clocks');
    const check = pgnCheck(pgn);
    assert.match(check, /1 game/);
  }));

test('an illegal move is not possible: the piece goes back and nothing is sent', () =>
  scene('illegal', async (meet) => {
    const { white, black } = await twoAtBoard(browser, server.base);
    meet(white, black);
    const before = await white.sent();
    await white.dragMove('e2', 'e5'); // two squares too far
    await white.dragMove('g1', 'g3'); // not a knight's move
    await white.clickMove('e1', 'e2'); // onto its own pawn
    await white.dragMove('e7', 'e5'); // the opponent's pawn
    await white.expectPieces({ e2: 'white pawn', e5: null, g1: 'white knight', g3: null, e1: 'white king', e7: 'black pawn' });
    assert.equal(await white.sent(), before, 'no message went to the server');
    assert.equal(await white.data('ply'), '0');
    // and the legal one right after is played
    await white.dragMove('e2', 'e4');
    await black.waitPly(1);
    await black.expectPieces({ e4: 'white pawn', e2: null });
    // Black cannot move White's pieces either
    const b0 = await black.sent();
    await black.dragMove('d2', 'd4');
    await black.expectPieces({ d2: 'white pawn', d4: null });
    assert.equal(await black.sent(), b0);
  }));

test('promotion: the picker, an underpromotion to a knight, then always-queen', () =>
  scene('promotion', async (meet) => {
    const { white, black } = await twoAtBoard(browser, server.base, {
      control: '10+0', fen: '4k3/P6P/8/8/8/8/8/4K3 w - - 0 1',
    });
    meet(white, black);
    await white.dragMove('a7', 'a8');
    await white.page.waitForSelector('#promotion:not(.hidden)');
    assert.equal(await white.page.locator('#promo-pieces button').count(), 4);
    await white.shot('promotion-picker');
    await white.page.click('#promo-pieces button[data-role="knight"]');
    await black.waitPly(1);
    await black.expectPieces({ a8: 'white knight', a7: null });
    assert.match(await black.text('#moves'), /a8=N/);
    await black.clickMove('e8', 'd7');
    await white.waitPly(2);
    // always promote to a queen, in the settings panel
    await white.page.click('#open-settings');
    await white.page.check('#set-queen');
    await white.page.click('#close-settings');
    await white.clickMove('h7', 'h8');
    await black.waitPly(3);
    assert.ok(await white.page.locator('#promotion.hidden').count(), 'no picker with always-queen');
    await black.expectPieces({ h8: 'white queen', h7: null });
    assert.match(await white.text('#moves'), /h8=Q/);
    // the setting stays in the browser
    await white.page.reload();
    await white.waitPly(3);
    await white.page.click('#open-settings');
    assert.equal(await white.page.isChecked('#set-queen'), true);
    await white.page.click('#close-settings');
  }));

test('a premove is played the instant the opponent moves; a right click cancels one', () =>
  scene('premove', async (meet) => {
    const { white, black } = await twoAtBoard(browser, server.base, { control: '3+0' });
    meet(white, black);
    await white.clickMove('e2', 'e4');
    await black.waitPly(1);
    // White premoves d2-d4 while Black thinks: shown on White's board, not played
    await white.dragMove('d2', 'd4');
    await white.waitCount('cg-board square.current-premove', 2);
    await white.expectPieces({ d2: 'white pawn' });
    await black.clickMove('e7', 'e5');
    // the server plays it at once: ply 3 comes with no click from White
    await white.waitPly(3);
    await black.waitPly(3);
    await black.expectPieces({ d4: 'white pawn', d2: null });
    const g = await getJson(server, `/api/games/${gameIdOf(white.page)}`);
    assert.deepEqual(g.body.moves, ['e4', 'e5', 'd4']);
    await white.waitCount('cg-board square.current-premove', 0);
    // a premove cancelled with a right click is not played
    await black.clickMove('e5', 'd4');
    await white.waitPly(4);
    await black.dragMove('g8', 'f6'); // Black's premove
    await black.waitCount('cg-board square.current-premove', 2);
    await black.rightClick('a4');
    await black.waitCount('cg-board square.current-premove', 0);
    await white.clickMove('d1', 'd4');
    await black.waitPly(5);
    await sleep(300);
    assert.equal(await black.data('ply'), '5', 'the cancelled premove was not played');
    await black.expectPieces({ g8: 'black knight', f6: null, d4: 'white queen' });
    assert.equal(await black.page.locator('#board svg.cg-shapes g circle').count(), 0, 'no circle drawn by the right click');
  }));

test('a draw offered and accepted', () =>
  scene('draw-agreed', async (meet) => {
    const { white, black } = await twoAtBoard(browser, server.base, { control: '5+0' });
    meet(white, black);
    await playClicks(white, black, ['d2d4']);
    // with "confirm each move" on, a move waits for the confirmation: taken back, then played
    await black.page.click('#open-settings');
    await black.page.check('#set-confirm');
    await black.page.click('#close-settings');
    const sent = await black.sent();
    await black.dragMove('d7', 'd5');
    await black.page.waitForSelector('#confirm:not(.hidden)');
    await black.page.click('#confirm-no');
    await black.expectPieces({ d7: 'black pawn', d5: null });
    assert.equal(await black.sent(), sent, 'nothing sent before the confirmation');
    await black.dragMove('d7', 'd5');
    await black.page.click('#confirm-yes');
    await white.waitPly(2);
    await white.page.click('#draw');
    await black.page.waitForSelector('#offer:not(.hidden)');
    assert.equal(await black.text('#offer-text'), 'White offers a draw.');
    assert.equal(await white.page.isDisabled('#draw'), true, 'the offer shows as made');
    await black.page.click('#accept');
    for (const p of [white, black]) {
      const end = await p.banner();
      assert.equal(end.result, '1/2-1/2');
      assert.equal(end.reason, 'Draw by agreement');
    }
  }));

const KNIGHTS = ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1'];

test('threefold repetition: declared by the server under online', () =>
  scene('threefold-online', async (meet) => {
    const { white, black } = await twoAtBoard(browser, server.base, { control: '5+0', rules: 'online' });
    meet(white, black);
    await playClicks(white, black, KNIGHTS);
    await black.clickMove('f6', 'g8');
    for (const p of [white, black]) {
      const end = await p.banner();
      assert.equal(end.result, '1/2-1/2');
      assert.equal(end.reason, 'Draw: the same position occurred three times');
    }
  }));

test('threefold repetition: claimed with the button under fide, with the move that repeats', () =>
  scene('threefold-fide', async (meet) => {
    const { white, black } = await twoAtBoard(browser, server.base, { control: '10+0', rules: 'fide' });
    meet(white, black);
    await playClicks(white, black, KNIGHTS);
    // Black, on move, may claim: Ng8 would repeat the position a third time (FIDE 9.2.1.1)
    const claim = black.page.locator('#claims button');
    await claim.waitFor();
    assert.equal(await claim.innerText(), 'Claim a draw with Ng8 (threefold repetition)');
    assert.equal(await white.page.locator('#claims button').count(), 0, 'White is not on move');
    await claim.click();
    for (const p of [white, black]) {
      const end = await p.banner();
      assert.equal(end.result, '1/2-1/2');
      assert.equal(end.reason, 'Draw: the same position occurred three times, claimed by Black');
      // the move is written, not made (9.2.1.1): the board stays as it was
      await p.expectPieces({ f6: 'black knight', g8: null });
    }
  }));

test('resignation, with its confirmation, then a rematch with the colours swapped', () =>
  scene('resign', async (meet) => {
    const { white, black } = await twoAtBoard(browser, server.base, { control: '5+0' });
    meet(white, black);
    await playClicks(white, black, ['e2e4', 'c7c5']);
    await white.page.click('#resign');
    await white.page.click('#resign-no'); // thought better of it
    assert.equal(await white.data('status'), 'ongoing');
    await white.page.click('#resign');
    await white.page.click('#resign-yes');
    for (const p of [white, black]) {
      const end = await p.banner();
      assert.equal(end.result, '0-1');
      assert.equal(end.reason, 'White resigned: Black wins');
    }
    const oldId = gameIdOf(white.page);
    await white.page.click('#rematch');
    await black.page.waitForSelector('#rematch:has-text("Accept the rematch")');
    await black.page.click('#rematch');
    await white.page.waitForURL((u) => !u.pathname.includes(oldId));
    await black.page.waitForURL((u) => !u.pathname.includes(oldId));
    await white.waitData('status', 'ongoing');
    assert.equal(await white.data('seat'), 'black');
    assert.equal(await black.data('seat'), 'white');
  }));

test('abort before the first moves', () =>
  scene('abort', async (meet) => {
    const { white, black } = await twoAtBoard(browser, server.base, { control: '5+0' });
    meet(white, black);
    assert.equal(await white.page.isVisible('#resign'), false, 'abort, not resign, before the first moves');
    await white.page.click('#abort');
    for (const p of [white, black]) {
      const end = await p.banner();
      assert.equal(end.result, 'No result');
      assert.equal(end.reason, 'Game aborted by White');
    }
  }));

test('a short control: a flag falls and loses; a bare king draws on time', () =>
  scene('flag', async (meet) => {
    // 3 seconds a side, custom; online: the clocks start after the first two moves
    let { white, black } = await twoAtBoard(browser, server.base, { control: { minutes: 0.05, increment: 0 }, rules: 'online' });
    meet(white, black);
    await playClicks(white, black, ['e2e4', 'e7e5']);
    await white.page.waitForSelector('#bottom-clock.running');
    // tenths of a second under ten seconds, in the low-time colour
    assert.match(await white.text('#bottom-clock'), /^\d\.\d$/);
    assert.equal(await white.page.locator('#bottom-clock.low').count(), 1);
    for (const p of [white, black]) {
      const end = await p.banner(8000);
      assert.equal(end.result, '0-1');
      assert.equal(end.reason, 'White ran out of time: Black wins');
    }
    assert.equal(await white.text('#bottom-clock'), '0.0');
    await white.shot('flag-loss-White');
    await white.close();
    await black.close();
    // fide: White has the queen and flags, Black has a bare king and cannot mate (6.9)
    ({ white, black } = await twoAtBoard(browser, server.base, {
      control: { minutes: 0.05, increment: 0 }, rules: 'fide', fen: '8/8/8/4k3/8/8/8/3QK3 w - - 0 1',
    }));
    meet(white, black);
    for (const p of [white, black]) {
      const end = await p.banner(8000);
      assert.equal(end.result, '1/2-1/2');
      assert.equal(end.reason, 'Draw: White ran out of time, but Black cannot checkmate by any sequence of legal moves');
    }
  }));

test('reload mid-game: the same position, moves and clocks come back', () =>
  scene('reload', async (meet) => {
    const { white, black } = await twoAtBoard(browser, server.base, { control: '5+0' });
    meet(white, black);
    await playClicks(white, black, ['e2e4', 'e7e5', 'g1f3', 'b8c6']);
    const pieces = await white.pieces();
    const blackClock = await white.text('#top-clock');
    await white.page.reload();
    await white.waitPly(4);
    assert.deepEqual(await white.expectPieces(pieces), pieces);
    assert.equal(await white.text('#moves'), '1.\ne4\ne5\n2.\nNf3\nNc6');
    assert.equal(await white.text('#top-clock'), blackClock, "the stopped clock shows what it had");
    assert.equal(await white.data('turn'), 'white');
    // looking back with the move list and the arrow keys, then the game goes on
    await white.page.click('#moves .mv[data-ply="2"]');
    await white.expectPieces({ e5: 'black pawn', f3: null, g1: 'white knight' });
    await white.page.keyboard.press('ArrowLeft');
    await white.expectPieces({ e5: null, e7: 'black pawn', e4: 'white pawn' });
    await white.page.keyboard.press('End');
    await white.expectPieces({ f3: 'white knight', c6: 'black knight' });
    // and a move typed for the keyboard
    await white.page.fill('#typed-move', 'Bb5');
    await white.page.press('#typed-move', 'Enter');
    await black.waitPly(5);
    await black.expectPieces({ b5: 'white bishop', f1: null });
    // in UCI too
    await black.page.fill('#typed-move', 'a7a6');
    await black.page.press('#typed-move', 'Enter');
    await white.waitPly(6);
    await white.expectPieces({ a6: 'black pawn', a7: null });
    // a typed move that is not legal is refused in words, and nothing moves
    await white.page.fill('#typed-move', 'Qxf7');
    await white.page.press('#typed-move', 'Enter');
    await white.page.waitForSelector('#flash:has-text("Qxf7")');
    assert.equal(await white.data('ply'), '6');
  }));

test('the server restarted mid-game: both pages reconnect and the game goes on', () =>
  scene('restart', async (meet) => {
    const dir = scratch();
    let own = await startServer({ dir, args: ['--static', WEB] });
    const port = own.port;
    try {
      const { white, black } = await twoAtBoard(browser, own.base, { control: '10+0' });
      meet(white, black);
      await playClicks(white, black, ['d2d4', 'g8f6']);
      // while the server is down, a reconnection attempt may be refused: chromium logs that
      // itself (sometimes after the page is back online), and nothing else may appear
      for (const p of [white, black]) p.forgiveOutage();
      await own.kill9();
      own = await startServer({ dir, args: ['--static', WEB, '--port', String(port)] });
      for (const p of [white, black]) await p.page.waitForSelector('#conn.online', { timeout: 10000 });
      await white.waitPly(2);
      await playClicks(white, black, ['c2c4', 'e7e6']);
      for (const p of [white, black]) await p.expectPieces({ c4: 'white pawn', d4: 'white pawn', f6: 'black knight', e6: 'black pawn' });
      const g = await getJson(own, `/api/games/${gameIdOf(white.page)}`).catch((e) => {
        throw new Error(`${e.message}: ${e.cause}; server: ${own.log.join("")}`);
      });
      assert.deepEqual(g.body.moves, ['d4', 'Nf6', 'c4', 'e6']);
    } finally {
      await own.stop();
      cleanup(dir);
    }
  }));

test('a spectator sees the moves and cannot move', () =>
  scene('spectator', async (meet) => {
    const { white, black, links } = await twoAtBoard(browser, server.base, { control: '5+0' });
    meet(white, black);
    const watcher = meet(new Person(browser, 'Spectator'));
    await watcher.open(links.spectator);
    await watcher.waitData('seat', 'spectator');
    await playClicks(white, black, ['e2e4', 'c7c5']);
    await watcher.waitPly(2);
    await watcher.expectPieces({ e4: 'white pawn', c5: 'black pawn' });
    // White to move, and the spectator tries
    await watcher.dragMove('g1', 'f3');
    await watcher.clickMove('d2', 'd4');
    await watcher.expectPieces({ g1: 'white knight', f3: null, d2: 'white pawn' });
    assert.equal(await watcher.sent(), 0, 'a spectator sends nothing');
    // of the actions a spectator has only the PGN (issue 29)
    for (const id of ['#draw', '#resign', '#abort']) assert.equal(await watcher.page.isVisible(id), false);
    assert.equal(await watcher.page.isVisible('#pgn'), true);
    assert.equal(await watcher.page.isVisible('#typed'), false);
    assert.equal(await white.data('ply'), '2');
    // it goes on for the spectator to see
    await white.clickMove('g1', 'f3');
    await watcher.waitPly(3);
    await watcher.expectPieces({ f3: 'white knight' });
  }));
