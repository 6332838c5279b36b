// Arbiter — MIT licence, see LICENSE.
//
// analysis.test.mjs: the analysis board (/analysis) in a real browser (Debian's chromium,
// playwright-core), used as a person uses it: a PGN pasted, the moves stepped through with the
// arrow keys and by clicks, a variation added by dragging a piece, the engine asked (this
// server has none: the page says so), the annotated game exported; a finished game opened
// from its id on a phone.  What the page must show is known without the server: the position
// after 2...Ng8 and after 4...Ng8 of 1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1 Ng8 is the start
// position for the second and the third time (FIDE 9.2: the third time the player to move may
// claim a draw), and a pawn move sets the 50-move count to zero.  Screenshots in ARBITER_SHOTS.
//
// Run: tests/js/web.sh build/release/arbiter build/release analysis.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, cleanup, twoPlayers, play, pgnCheck } from './lib.mjs';
import { Person, PHONE, pageServer, WEB } from './browser.mjs';


const PGN = `[Event "Shuffling"]
[White "Ann"]
[Black "Bob"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2
`;

let server, browser;
pageServer((s, b) => ((server = s), (browser = b)), ['--no-engine']);

async function notes(p) {
  return p.page.locator('#notes').innerText();
}

async function press(p, key, times = 1) {
  for (let i = 0; i < times; i++) await p.page.keyboard.press(key);
}

test('a pasted PGN: step through it, see the repetitions, add a variation, export', async () => {
  const p = new Person(browser, 'Analyst');
  await p.open(`${server.base}/analysis`);
  await p.waitData('status', 'ready');
  await p.page.fill('#paste', PGN);
  await p.page.click('#analyse');
  await p.waitData('nodes', '9');
  assert.equal(await p.data('ply'), '0');
  // the arrow keys walk the main line
  await p.page.locator('#board').click({ position: { x: 1, y: 1 } }).catch(() => {});
  await p.page.focus('body');
  await press(p, 'ArrowRight', 4);
  await p.waitPly(4);
  assert.equal(await p.data('repetitions'), '2');
  let text = await notes(p);
  assert.match(text, /This position has occurred 2 times \(the start and after 2\.\.\.Ng8\)/);
  assert.match(text, /a third time lets the player to move claim a draw \(Article 9\.2\)/);
  await p.expectPieces({ g1: 'white knight', g8: 'black knight', f3: null });
  await p.shot('desktop-repetition-2');
  await press(p, 'ArrowRight', 4);
  await p.waitPly(8);
  assert.equal(await p.data('repetitions'), '3');
  text = await notes(p);
  assert.match(text, /occurred 3 times/);
  assert.match(text, /White may claim a draw now by threefold repetition \(Article 9\.2\.1\.2\)/);
  // the move list marks the repeated positions
  assert.equal(await p.page.locator('#moves .mv.current').innerText(), 'Ng83×½');
  await p.shot('desktop-repetition-3');
  // back to the start with ↑, then a click on 1...Nf6 in the move list
  await press(p, 'ArrowUp');
  await p.waitPly(0);
  await p.page.locator('#moves .mv', { hasText: 'Nf6' }).first().click();
  await p.waitPly(2);
  assert.match(await p.text('#laws-title'), /After 1\.\.\.Nf6/);
  // a variation by dragging: 2.e4 instead of 2.Ng1
  await p.dragMove('e2', 'e4');
  await p.waitData('nodes', '10');
  await p.waitPly(3);
  await p.expectPieces({ e4: 'white pawn', e2: null, f3: 'white knight' });
  // the rules module answered at once; the server's words follow
  await p.waitData('laws', 'server');
  text = await notes(p);
  assert.match(text, /Halfmove clock 0: a capture or a pawn move was just made/);
  assert.match(text, /This position has not occurred before/);
  const added = p.page.locator('#moves .mv.added');
  assert.equal(await added.count(), 1);
  assert.equal(await added.innerText(), '2. e4');
  // and a reply to it, by two clicks
  await p.clickMove('e7', 'e5');
  await p.waitData('nodes', '11');
  assert.equal(await p.page.locator('#moves .var').count(), 1);
  assert.match(await p.text('#moves .var'), /2\. e4\s*e5/);
  // the same move again is not a second variation: the page goes to the one it has
  await press(p, 'ArrowLeft');
  await p.waitPly(3);
  await p.dragMove('e7', 'e5');
  await p.waitPly(4);
  assert.equal(await p.data('nodes'), '11');
  await p.shot('desktop-variation');
  // the engine: this server has none, and the page says what to do
  p.forgive(/\/api\/engine\/eval|status of 503/);
  await p.page.click('#evaluate');
  await p.page.waitForFunction(() => /engine/i.test(document.getElementById('eval-line').textContent));
  assert.match(await p.text('#eval-line'), /Stockfish/);
  // the export: the server's PGN, with the variation and the laws' notes
  await press(p, 'ArrowUp');
  const [download] = await Promise.all([p.page.waitForEvent('download'), p.page.click('#export-pgn')]);
  const file = await download.path();
  const pgn = readFileSync(file, 'utf8');
  assert.equal(download.suggestedFilename(), 'analysis.pgn');
  assert.match(pgnCheck(pgn), /1 games, 0 with errors/);
  assert.match(pgn, /\[White "Ann"\]/);
  assert.match(pgn, /\(2\. e4 e5\)/);
  assert.match(pgn.replace(/\s+/g, ' '), /White may claim a draw now by threefold repetition/);
  assert.equal(await p.page.inputValue('#pgn-out'), pgn);
  await p.shot('desktop-export');
  p.assertClean();
  await p.close();
});

test('a pasted FEN and a bad PGN: the position shown, the error said where', async () => {
  const p = new Person(browser, 'Paster');
  await p.open(`${server.base}/analysis`);
  await p.waitData('status', 'ready');
  // king and bishop against king: dead (5.2.2)
  await p.page.fill('#paste', '8/8/4k3/8/8/3BK3/8/8 w - - 0 1');
  await p.page.click('#analyse');
  await p.page.waitForFunction(() => /Dead position/.test(document.getElementById('notes').textContent));
  assert.match(await notes(p), /only the kings and one bishop are left/);
  await p.expectPieces({ d3: 'white bishop', e3: 'white king', e6: 'black king' });
  p.forgive(/HTTP 400: .*\/api\/analysis|status of 400/);
  await p.page.fill('#paste', '1. e4 e5 2. Ke3 *');
  await p.page.click('#analyse');
  await p.waitData('status', 'error');
  assert.match(await p.text('#load-error'), /line 1.*Ke3/);
  p.assertClean();
  await p.close();
});

test('a finished game from its id, on a phone', async () => {
  const { g, white, black } = await twoPlayers(server, { control: '5+3', rules: 'fide' });
  await play(white, black, ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f3g1', 'c6b8', 'g1f3', 'b8c6', 'f3g1', 'c6b8']);
  white.send({ t: 'resign', id: 99 });
  await black.waitGame((s) => s.status === 'over');
  white.close();
  black.close();
  const p = new Person(browser, 'Phone', PHONE);
  await p.open(`${server.base}/analysis?game=${g.id}`);
  await p.waitData('ply', '10');
  // the last position, after 5...Nb8, is the one after 1...e5 (the knights home again, the same
  // rights), for the third time: plies 2, 6 and 10
  assert.equal(await p.data('repetitions'), '3');
  assert.match(await notes(p), /occurred 3 times \(after 1\.\.\.e5, after 3\.\.\.Nb8 and after 5\.\.\.Nb8\)/);
  assert.match(await p.text('#source-note'), new RegExp(`Game ${g.id}`));
  // nothing wider than the screen
  const wide = await p.page.evaluate(() => document.documentElement.scrollWidth);
  const over = await p.page.evaluate((w) => [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > w + 0.5).map((e) => `${e.tagName}#${e.id}.${e.className}`).slice(0, 5), PHONE.width);
  assert.ok(wide <= PHONE.width, `the page is ${wide} px wide: ${over.join(', ')}`);
  await p.shot('phone-game');
  await p.page.locator('#laws').scrollIntoViewIfNeeded();
  await p.shot('phone-laws');
  p.assertClean();
  await p.close();
});

test('the engine on request: the mate it sees, and in the exported PGN', async (t) => {
  // a server with the engine it finds (Debian's Stockfish: scripts/deps.sh test installs it)
  const withEngine = await startServer({ args: ['--static', WEB] });
  try {
    const res = await fetch(`${withEngine.base}/api/computer`);
    if (!(await res.json()).engine) return t.skip('no chess engine installed');
    const p = new Person(browser, 'Engine user');
    await p.open(`${withEngine.base}/analysis`);
    await p.waitData('status', 'ready');
    // the scholar's mate set up: after 3...Nf6?? White mates with Qxf7# (mate in one)
    await p.page.fill('#paste', '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 *');
    await p.page.click('#analyse');
    await p.waitData('nodes', '7');
    await p.page.focus('body');
    await press(p, 'ArrowDown');
    await p.waitPly(6);
    await p.page.click('#evaluate');
    await p.page.waitForFunction(() => /#1\b/.test(document.getElementById('eval-score').textContent), null, { timeout: 15000 });
    assert.match(await p.text('#eval-line'), /Best: Qxf7#/);
    await p.shot('desktop-engine');
    const [download] = await Promise.all([p.page.waitForEvent('download'), p.page.click('#export-pgn')]);
    const pgn = readFileSync(await download.path(), 'utf8');
    assert.match(pgnCheck(pgn), /1 games, 0 with errors/);
    assert.match(pgn, /\[%eval #1/);
    assert.match(pgn.replace(/\s+/g, ' '), /Engine, depth \d+: 4\.Qxf7#/);
    p.assertClean();
    await p.close();
  } finally {
    await withEngine.stop();
    cleanup(withEngine.dir);
  }
});
