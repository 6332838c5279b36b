// Arbiter — MIT licence, see LICENSE.
//
// wasm.test.mjs: the page answers at once from the rules module (/wasm/arbiter.mjs: the C
// library compiled to WebAssembly) where a round trip would be felt, and the server stays the
// authority in a game — in Debian's chromium, by mouse:
//   - the analysis board with the server's analysis API blocked: moves, SAN, the destinations,
//     mate, a draw to claim, all from the module;
//   - the analysis board with the server's words held back 1.5 s: the move is on the board and
//     in the list before they come, then they replace the module's;
//   - premoves on the game page: a piece offers only the squares a reply could make legal (not
//     chessground's guess from the piece's moves), and the premove is played by the server;
//   - after a puzzle, the board played on from its end with the trainer's API blocked.
// The expected answers are the Laws' (Fool's mate, threefold repetition by the knights, a
// bishop behind its own pawn), never what the module says.  Screenshots in ARBITER_SHOTS.
//
// Run: tests/js/web.sh build/release/arbiter build/release wasm.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join as pathJoin } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, cleanup, scratch, sleep } from './lib.mjs';
import { Person, pageServer, twoAtBoard, scene, WEB } from './browser.mjs';

const top = fileURLToPath(new URL('../..', import.meta.url));

let server, browser;
pageServer((s, b) => ((server = s), (browser = b)), ['--no-engine']);

// The squares chessground marks with a class (move-dest, premove-dest), as their names, once
// it has drawn them (at the next frames).
function marked(p, cls) {
  return p.page.evaluate(async (c) => {
    for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(r));
    return [...document.querySelectorAll(`cg-board square.${c}`)]
      .filter((e) => e.style.display !== 'none').map((e) => e.cgKey).sort();
  }, cls);
}

// A click on a square.
async function tap(p, sq) {
  const { x, y } = await p.square(sq);
  await p.page.mouse.click(x, y);
}

// Blocks every request whose path starts with prefix; the count of those refused.
async function block(p, prefix) {
  const seen = { count: 0 };
  await p.page.route((url) => url.pathname.startsWith(prefix), (route) => {
    seen.count++;
    return route.abort();
  });
  // chromium says so on the console, and the page asked on purpose
  p.forgive(new RegExp(`${prefix.replaceAll('/', '\\/')}.*(ERR_FAILED|ERR_ABORTED)`));
  p.forgive(/^console: Failed to load resource: net::ERR_FAILED$/);
  return seen;
}

test('the analysis board on the rules module alone: the server\'s analysis blocked', () =>
  scene('wasm-analysis-offline', async (meet) => {
    const p = meet(new Person(browser, 'offline'));
    await p.open('about:blank');
    const blocked = await block(p, '/api/analysis');
    await p.page.goto(`${server.base}/analysis`);
    await p.waitData('wasm', 'ready');
    await p.waitData('status', 'ready');
    assert.ok(blocked.count >= 1, 'the page asked the server first');
    assert.equal(await p.data('laws'), 'local');
    assert.match(await p.text('#source-note'), /server did not answer/);
    // Fool's mate by mouse; after 2.g4 the queen on d8 may go to e7, f6, g5 and h4 only
    for (const [from, to] of [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4']]) {
      const ply = Number(await p.data('ply'));
      await p.clickMove(from, to);
      await p.waitPly(ply + 1);
    }
    await tap(p, 'd8');
    assert.deepEqual(await marked(p, 'move-dest'), ['e7', 'f6', 'g5', 'h4']);
    await tap(p, 'h4');
    await p.waitPly(4);
    assert.equal((await p.text('#moves')).replace(/\s+/g, ' ').trim(), '1. f3 e5 2. g4 Qh4#');
    assert.equal(await p.page.inputValue('#fen'), 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3');
    assert.match(await p.text('#outcome'), /0-1 — checkmate/);
    assert.match(await p.text('#notes'), /Checkmate: 0-1 \(Article 5\.1\.1\)/);
    assert.match(await p.text('#notes'), /the server did not answer/);
    assert.equal(await p.data('laws'), 'local');
    await p.shot('wasm-analysis-mate');
    // from the start again, a knight dance: after 4.Ng1 Black may claim a draw by playing
    // 4...Ng8, the start position's third time (FIDE 9.2.1.1)
    await p.page.focus('body');
    await p.page.keyboard.press('ArrowUp');
    await p.waitPly(0);
    const dance = [['g1', 'f3'], ['g8', 'f6'], ['f3', 'g1'], ['f6', 'g8'], ['g1', 'f3'], ['g8', 'f6'], ['f3', 'g1']];
    for (const [i, [from, to]] of dance.entries()) {
      await p.dragMove(from, to);
      await p.waitPly(i + 1);
    }
    assert.equal(await p.data('repetitions'), '2');
    assert.match(await p.text('#notes'), /Black may claim a draw by threefold repetition/);
    await p.dragMove('f6', 'g8');
    await p.waitPly(8);
    assert.equal(await p.data('repetitions'), '3');
    assert.match(await p.text('#moves'), /4\. Ng12×½ Ng83×½/);
    assert.equal(await p.data('nodes'), '13');
    assert.ok(Number(await p.data('local')) >= 13, `the module answered ${await p.data('local')} times`);
    // every move asked the server for its words too, and was refused
    assert.ok(blocked.count >= 12, `${blocked.count} requests to the analysis API`);
    await p.shot('wasm-analysis-threefold');
  }));

test('a move on the analysis board is there at once; the server\'s words replace the module\'s', () =>
  scene('wasm-analysis-words', async (meet) => {
    const p = meet(new Person(browser, 'patient'));
    await p.open(`${server.base}/analysis`);
    await p.waitData('status', 'ready');
    assert.equal(await p.data('laws'), 'server');
    // the server's answer for a position held back 1.5 s
    const held = [];
    await p.page.route((url) => url.pathname === '/api/analysis/position', async (route) => {
      held.push(Date.now());
      await sleep(1500);
      await route.continue();
    });
    const t0 = Date.now();
    await p.dragMove('e2', 'e4');
    await p.waitPly(1, 1000);
    assert.equal(await p.data('laws'), 'local', 'shown before the server answered');
    assert.equal((await p.text('#moves')).trim(), '1. e4');
    assert.equal(await p.page.inputValue('#fen'), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
    assert.ok(Date.now() - t0 < 1500, 'before the held answer could come');
    await p.expectPieces({ e4: 'white pawn', e2: null });
    await p.shot('wasm-analysis-local-words');
    await p.waitData('laws', 'server', 5000);
    assert.equal(held.length, 1);
    assert.match(await p.text('#notes'), /Halfmove clock 0: a capture or a pawn move was just made/);
    await p.shot('wasm-analysis-server-words');
  }));

test('without the rules module the page asks the server, as before', () =>
  scene('wasm-missing', async (meet) => {
    const p = meet(new Person(browser, 'no-module'));
    await p.open('about:blank');
    await block(p, '/wasm/');
    p.forgive(/the rules module did not load/);
    await p.page.goto(`${server.base}/analysis`);
    await p.waitData('wasm', 'failed');
    await p.waitData('status', 'ready');
    await p.dragMove('e2', 'e4');
    await p.waitPly(1);
    assert.equal(await p.data('laws'), 'server');
    assert.match(await p.text('#notes'), /Halfmove clock 0/);
    assert.equal(await p.data('local'), null);
  }));

test('premoves: only where a reply could make them legal, and the server plays them', () =>
  scene('wasm-premove', async (meet) => {
    const { white, black } = await twoAtBoard(browser, server.base, { control: '5+0' });
    meet(white, black);
    await white.waitData('wasm', 'ready');
    await white.clickMove('e2', 'e4');
    await black.waitPly(1);
    await white.waitPly(1);
    // Black to move: White's bishop on f1 may go along the open diagonal; g2 and h3 are behind
    // its own pawn, which no reply of Black's can remove (chessground alone would offer them)
    await tap(white, 'f1');
    assert.deepEqual(await marked(white, 'premove-dest'), ['a6', 'b5', 'c4', 'd3', 'e2']);
    // the rook in its corner has no premove at all
    await tap(white, 'a1');
    assert.deepEqual(await marked(white, 'premove-dest'), []);
    // the e4 pawn: forward unless ...e5 blocks it, and a capture on d5 or f5 after ...d5 or ...f5
    await tap(white, 'e4');
    assert.deepEqual(await marked(white, 'premove-dest'), ['d5', 'e5', 'f5']);
    await white.shot('wasm-premove-dests');
    await tap(white, 'e4');
    assert.ok(Number(await white.data('local')) >= 1);
    // a premove set: Bc4, played by the server when Black moves
    await white.clickMove('f1', 'c4');
    await white.waitCount('cg-board square.current-premove', 2);
    await black.clickMove('e7', 'e5');
    await white.waitPly(3);
    await black.waitPly(3);
    await black.expectPieces({ c4: 'white bishop', f1: null });
  }));

test('after a puzzle: play on from its end on the rules module, the trainer\'s API blocked', async () => {
  // one puzzle: a mate in 2 for Black (lichess kgwCjB: Qe3, then ...Rxh2+ Kxh2 Rh8#)
  const lines = readFileSync(pathJoin(top, 'data/puzzles/starter.csv'), 'utf8').split('\n');
  const dir = scratch();
  writeFileSync(pathJoin(dir, 'puzzles.csv'), `${lines[0]}\n${lines.find((l) => l.startsWith('kgwCjB,'))}\n`);
  const trainer = await startServer({ dir, args: ['--static', WEB, '--puzzles', pathJoin(dir, 'puzzles.csv')] });
  try {
    await scene('wasm-train', async (meet) => {
      const p = meet(new Person(browser, 'explorer'));
      await p.open(`${trainer.base}/train`);
      await p.page.waitForFunction(() => document.body.dataset.puzzle === 'playing' && document.body.dataset.puzzleId === 'kgwCjB', null, { timeout: 8000 });
      // the destinations come from the module: the rook on h8 may take on h2 (the solution)
      await tap(p, 'h8');
      const rook = await marked(p, 'move-dest');
      assert.ok(rook.includes('h2'), `the rook's destinations: ${rook}`);
      await tap(p, 'h8');
      // a wrong move: ...a6 does not mate
      await p.clickMove('a7', 'a6');
      await p.waitData('puzzle', 'failed');
      await p.page.waitForSelector('#explore:not(.hidden)');
      assert.equal((await p.text('#explore-line')).trim(), '20… a6');
      // from now on the server is out of reach: the board is the module's alone
      const blocked = await block(p, '/api/train');
      await p.clickMove('d3', 'c2'); // 21.Bc2
      await p.waitData('explore', '1');
      await p.clickMove('a6', 'a5'); // 21...a5
      await p.waitData('explore', '2');
      await p.expectPieces({ c2: 'white bishop', a5: 'black pawn', a6: null });
      assert.equal((await p.text('#explore-line')).trim(), '20… a6 21. Bc2 a5');
      await p.shot('wasm-train-explore');
      // and on to the mate the puzzle wanted, each move judged by the module
      for (const [i, [from, to]] of [['a3', 'b5'], ['h8', 'h2'], ['h1', 'h2'], ['a8', 'h8']].entries()) {
        await p.clickMove(from, to);
        await p.waitData('explore', String(3 + i));
      }
      assert.equal((await p.text('#explore-line')).trim(), '20… a6 21. Bc2 a5 22. Nb5 Rxh2+ 23. Kxh2 Rh8# 0-1: checkmate (Article 5.1.1).');
      await p.expectPieces({ h8: 'black rook', a8: null, h2: 'white king' });
      await p.shot('wasm-train-explore-mate');
      await p.page.click('#explore-back');
      await p.waitData('explore', '0');
      assert.equal((await p.text('#explore-line')).trim(), '20… a6');
      await p.expectPieces({ a6: 'black pawn', c2: null, d3: 'white bishop', h1: 'white king' });
      assert.equal(blocked.count, 0, 'nothing was asked of the server');
    });
  } finally {
    await trainer.stop();
    cleanup(trainer.dir);
    cleanup(dir);
  }
});
