// Arbiter — MIT licence, see LICENSE.
//
// train.test.mjs: the trainer (/train and /api/train/) as people use it — its HTTP API from a
// plain client, and the page in a real browser (Debian's chromium, playwright-core) with moves
// made by the mouse.  The expected answers are the puzzles' own lines in lichess's CSV (proven
// by `arbiter puzzles check`, and every solver move agreed by Popeye: bench/puzzles_popeye.py)
// and the quiz bank's answers (re-derived by `arbiter quiz check`, cross-checked with chessops
// by tests/diff/quiz.mjs) — never what the server under test computes.  Screenshots of each
// scene go to ARBITER_SHOTS (build/web-shots).
//
// Run: ARBITER=build/release/arbiter ARBITER_WEB=web/dist node --test tests/js/train.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join as pathJoin } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, cleanup, sleep, scratch } from './lib.mjs';
import { launch, Person, PHONE } from './browser.mjs';

const top = fileURLToPath(new URL('../..', import.meta.url));
const WEB = process.env.ARBITER_WEB || pathJoin(top, 'web/dist');
const STARTER = pathJoin(top, 'data/puzzles/starter.csv');
const BANK = process.env.ARBITER_QUIZ || pathJoin(top, 'data/quiz/bank.jsonl');

// Puzzles of the starter set by id, as lichess's CSV gives them.
function puzzlesOf(ids) {
  const lines = readFileSync(STARTER, 'utf8').split('\n');
  const out = [lines[0]];
  for (const id of ids) {
    const l = lines.find((x) => x.startsWith(`${id},`));
    assert.ok(l, `the starter set has puzzle ${id}`);
    out.push(l);
  }
  return out.join('\n') + '\n';
}

function csvPuzzle(text, id) {
  const l = text.split('\n').find((x) => x.startsWith(`${id},`)).split(',');
  return { id, fen: l[1], moves: l[2].split(' '), rating: l[3], themes: l[7].split(' ') };
}

const bank = readFileSync(BANK, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

// a mate in 2 for Black (the opponent's Qe3, then ...Rxh2+ Kxh2 Rh8#) and a stalemate trap
// (Kh8 then ...Qf8+ Kh7 Be4#, where the natural ...Qf8?? or a queen move next to the king
// would stalemate)
const MATE = 'kgwCjB', TRAP = '7GtU3O';
let server, browser, dir, csv;

before(async () => {
  dir = scratch();
  csv = puzzlesOf([MATE, TRAP]);
  writeFileSync(pathJoin(dir, 'puzzles.csv'), csv);
  // the quiz: one choice item and one move item of the bank, so that the page is asked them
  const choice = bank.find((q) => q.kind === 'choice' && q.fen && q.topic === 'castling');
  const move = bank.find((q) => q.kind === 'move');
  assert.ok(choice && move, 'the bank has a castling choice item and a move item');
  writeFileSync(pathJoin(dir, 'quiz.jsonl'), [choice, move].map((q) => JSON.stringify(q)).join('\n') + '\n');
  server = await startServer({ dir, args: ['--static', WEB, '--puzzles', pathJoin(dir, 'puzzles.csv'), '--quiz', pathJoin(dir, 'quiz.jsonl')] });
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  if (dir) cleanup(dir);
});

async function api(path, { learner, body } = {}) {
  const headers = { 'content-type': 'application/json', connection: 'close' };
  if (learner) headers['x-learner'] = learner;
  const res = await fetch(`${server.base}${path}`, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

async function nextOf(learner, want, query = '') {
  // the server picks near the learner's rating among the two; ask until it gives the one wanted
  for (let i = 0; i < 40; i++) {
    const r = await api(`/api/train/puzzle/next?${query}`, { learner });
    assert.equal(r.status, 200);
    if (r.json.id === want) return r.json;
  }
  throw new Error(`puzzle ${want} never came`);
}

// ---- the API ----

test('API: a learner solves a puzzle move by move, rated once, remembered', async () => {
  const made = await api('/api/train/learner', { body: {} });
  assert.equal(made.status, 201);
  const learner = made.json.token;
  assert.match(made.json.link, /^\/train#learner=/);
  const want = csvPuzzle(csv, MATE);
  const p = await nextOf(learner, MATE, 'theme=middlegame');
  assert.equal(p.fen, want.fen);
  assert.equal(p.opponent_move, want.moves[0]);
  assert.equal(p.color, 'black');
  assert.equal(p.goal, 'mate');
  assert.equal(p.moves, 2);
  assert.ok(p.dests.h8.includes('h2'), 'the rook on h8 may take on h2');
  const one = await api('/api/train/puzzle/move', { learner, body: { id: MATE, moves: [want.moves[1]] } });
  assert.equal(one.json.correct, true);
  assert.equal(one.json.done, false);
  assert.equal(one.json.reply, want.moves[2]);
  const two = await api('/api/train/puzzle/move', { learner, body: { id: MATE, moves: [want.moves[1], want.moves[3]] } });
  assert.equal(two.json.correct, true);
  assert.equal(two.json.done, true);
  assert.equal(two.json.rating.rated, true);
  assert.ok(two.json.rating.after > two.json.rating.before, 'a solve raises the rating');
  // the same puzzle again is not rated twice
  const again = await api('/api/train/puzzle/move', { learner, body: { id: MATE, moves: [want.moves[1], want.moves[3]] } });
  assert.equal(again.json.rating, undefined, 'a puzzle finished is not finished again');
  const state = await api('/api/train/state', { learner });
  assert.equal(state.json.puzzle.played, 1);
  assert.equal(state.json.puzzle.solved, 1);
  assert.equal(state.json.puzzle.rating, two.json.rating.after);
  // the learner, and the puzzle's own new rating, survive a restart (written through the store)
  const rated = (await nextOf(learner, MATE, 'theme=middlegame')).rating;
  assert.notEqual(rated, Number(want.rating), 'the puzzle was rated by the attempt');
  await server.stop();
  server = await startServer({ dir, args: ['--static', WEB, '--puzzles', pathJoin(dir, 'puzzles.csv'), '--quiz', pathJoin(dir, 'quiz.jsonl')] });
  const after = await api('/api/train/state', { learner });
  assert.equal(after.json.puzzle.rating, two.json.rating.after);
  assert.equal((await nextOf(learner, MATE, 'theme=middlegame')).rating, rated);
});

test('API: a wrong move is explained and the solution shown; hints, giving up, runs unrated', async () => {
  const learner = (await api('/api/train/learner', { body: {} })).json.token;
  const want = csvPuzzle(csv, MATE);
  await nextOf(learner, MATE, 'theme=middlegame');
  const wrong = await api('/api/train/puzzle/move', { learner, body: { id: MATE, moves: ['a7a6'] } });
  assert.equal(wrong.json.correct, false);
  assert.equal(wrong.json.legal, true);
  assert.match(wrong.json.message, /a6 does not force mate/);
  assert.deepEqual(wrong.json.solution, want.moves.slice(1));
  assert.equal(wrong.json.rating.rated, true);
  assert.ok(wrong.json.rating.after < wrong.json.rating.before);
  // an illegal move (a rook through its own pawn) is named, with its article
  const illegal = await api('/api/train/puzzle/move', { learner, body: { id: MATE, moves: ['a8a5'] } });
  assert.equal(illegal.json.legal, false);
  assert.ok(illegal.json.message.length > 10, illegal.json.message);
  assert.match(illegal.json.article, /^3\./);
  // a hint names the square of the piece to move, and the attempt is no longer rated
  const other = (await api('/api/train/learner', { body: {} })).json.token;
  await nextOf(other, MATE, 'theme=middlegame');
  const hint = await api('/api/train/puzzle/hint', { learner: other, body: { id: MATE, moves: [] } });
  assert.equal(hint.json.square, want.moves[1].slice(0, 2));
  const solved = await api('/api/train/puzzle/move', { learner: other, body: { id: MATE, moves: [want.moves[1], want.moves[3]] } });
  assert.equal(solved.json.done, true);
  assert.equal(solved.json.rating.rated, false, 'a hinted solve is not rated');
  // giving up: the rest of the line, a miss
  const third = (await api('/api/train/learner', { body: {} })).json.token;
  await nextOf(third, MATE, 'theme=middlegame');
  const gave = await api('/api/train/puzzle/solution', { learner: third, body: { id: MATE, moves: [want.moves[1]] } });
  assert.deepEqual(gave.json.solution, [want.moves[3]]);
  assert.equal(gave.json.rating.rated, true);
  assert.ok(gave.json.rating.after < gave.json.rating.before);
  // a run's puzzle (streak, storm) is not rated
  const fourth = (await api('/api/train/learner', { body: {} })).json.token;
  await nextOf(fourth, MATE, 'theme=middlegame');
  const run = await api('/api/train/puzzle/move', { learner: fourth, body: { id: MATE, moves: [want.moves[1], want.moves[3]], rated: false } });
  assert.equal(run.json.done, true);
  assert.equal(run.json.rating.rated, false);
  // bad requests: a clear error, never a crash
  for (const body of [{}, { id: MATE }, { id: MATE, moves: 'h8h2' }, { id: 'nope', moves: ['h8h2'] }, { id: MATE, moves: ['h8h2', 'h8h2', 'h8h2'] }]) {
    const r = await api('/api/train/puzzle/move', { learner, body });
    assert.ok(r.status >= 400 && r.status < 500, JSON.stringify(body));
    assert.ok(r.json.error.message, JSON.stringify(r.json));
  }
  assert.equal((await api('/api/train/state', { learner: 'A'.repeat(43) })).status, 403);
});

test('API: "win or draw?" serves the stalemate trap with its goal unsaid', async () => {
  const learner = (await api('/api/train/learner', { body: {} })).json.token;
  const r = await api('/api/train/puzzle/next?mode=winordraw', { learner });
  assert.equal(r.json.id, TRAP, 'only the trap is a win-or-draw puzzle here');
  assert.equal(r.json.goal, undefined);
  assert.equal(r.json.themes, undefined);
  const want = csvPuzzle(csv, TRAP);
  const done = await api('/api/train/puzzle/move', { learner, body: { id: TRAP, moves: [want.moves[1], want.moves[3]] } });
  assert.equal(done.json.done, true);
  assert.equal(done.json.goal, 'mate');
});

test('API: the quiz hides its answer and checks the one given', async () => {
  const learner = (await api('/api/train/learner', { body: {} })).json.token;
  const q = await api('/api/train/quiz/next?topic=castling', { learner });
  assert.equal(q.status, 200);
  assert.equal(q.json.answer, undefined);
  assert.equal(q.json.explanation, undefined);
  const item = bank.find((x) => x.id === q.json.id);
  const wrongChoice = item.choices.find((c) => c !== item.answer);
  const no = await api('/api/train/quiz/answer', { learner, body: { id: item.id, answer: wrongChoice } });
  assert.equal(no.json.right, false);
  assert.deepEqual(no.json.answer, item.answer);
  assert.equal(no.json.explanation, item.explanation);
  const state = await api('/api/train/state', { learner });
  const topic = state.json.topics.find((t) => t.topic === 'castling');
  assert.deepEqual([topic.answered, topic.right], [1, 0]);
  assert.equal(state.json.due.quiz, 0, 'a miss comes back tomorrow, not now');
});

test('API: the review of a PGN; no PGN, a text that is no game', async () => {
  const games = readFileSync(pathJoin(top, 'tests/data/review/mistakes.pgn'), 'utf8').split(/\n(?=\[Event )/);
  const r = await api('/api/train/review', { body: { pgn: games[3] } }); // Qf7 stalemate, Qb8# was there
  assert.equal(r.status, 200);
  assert.equal(r.json.games.length, 1);
  const [f] = r.json.games[0].findings;
  assert.deepEqual([f.kind, f.side, f.ply, f.san, f.played_san], ['stalemate_given', 'white', 0, 'Qb8#', 'Qf7']);
  const none = await api('/api/train/review', { body: {} });
  assert.equal(none.status, 400);
  assert.equal(none.json.error.code, 'bad_request');
  const junk = await api('/api/train/review', { body: { pgn: '1. e4 e5 2. Ke3 *' } });
  assert.equal(junk.status, 200);
  assert.match(junk.json.games[0].error, /Ke3/);
});

test('API: the diagnostic refuses what is not an answer', async () => {
  const start = await api('/api/train/diagnostic/start', { body: {} });
  assert.equal(start.status, 201);
  assert.ok(['rules', 'tactics', 'endgames'].includes(start.json.item.area));
  const forged = await api('/api/train/diagnostic/answer', { body: { id: 'AAAAAAAAAAAAAAAAAAAAAA', answer: 'x' } });
  assert.equal(forged.status, 404);
  assert.equal(forged.json.error.code, 'no_diagnostic');
  const empty = await api('/api/train/diagnostic/answer', { body: { id: start.json.id } });
  assert.equal(empty.status, 400);
  const bogus = await api('/api/train/diagnostic/nothing', { body: {} });
  assert.equal(bogus.status, 404);
});

// ---- the page ----

async function scene(name, people, body) {
  try {
    await body();
  } finally {
    for (const p of people) if (p.page) await p.shot(`train-${name}-${p.name}`).catch(() => {});
  }
  for (const p of people) p.assertClean();
  for (const p of people) await p.close();
}

// Waits until the page shows this puzzle, its opponent's move played, the board taking moves.
async function playing(person, id) {
  await person.page.waitForFunction((want) => document.body.dataset.puzzle === 'playing' && document.body.dataset.puzzleId === want, id, { timeout: 5000 });
}

async function waitData(person, key, value, timeout = 5000) {
  await person.page.waitForFunction(([k, v]) => document.body.dataset[k] === v, [key, value], { timeout });
}

test('page: solve a puzzle by mouse, see the rating change; a wrong move is explained, then tried again', async () => {
  const me = new Person(browser, 'solver');
  await scene('solve', [me], async () => {
    const want = csvPuzzle(csv, MATE);
    // pick the mate-in-2 theme so that the page is given this puzzle
    await me.open(`${server.base}/train`);
    await me.page.selectOption('#theme', 'middlegame');
    await playing(me, MATE);
    assert.match(await me.page.textContent('#prompt'), /Black to play\. Mate in 2\./);
    // the opponent's move was played on the board: the queen on e3
    await me.expectPieces({ e3: 'white queen', d2: null });
    await me.clickMove(want.moves[1].slice(0, 2), want.moves[1].slice(2, 4));
    await waitData(me, 'puzzle', 'reply');
    await waitData(me, 'puzzle', 'playing');
    await me.expectPieces({ h2: 'white king', h1: null });
    await me.dragMove(want.moves[3].slice(0, 2), want.moves[3].slice(2, 4));
    await waitData(me, 'puzzle', 'solved');
    const fb = await me.page.textContent('#feedback');
    assert.match(fb, /Checkmate\. Solved!/);
    assert.match(fb, /Your rating: \d+ \(\+\d+\)/);
    await me.shot('train-solve-solved');
    // the next one (the same puzzle again, the only mate in 2): a wrong move
    await me.page.click('#next-puzzle');
    await playing(me, MATE);
    await me.clickMove('a7', 'a6');
    await waitData(me, 'puzzle', 'failed');
    const why = await me.page.textContent('#feedback');
    assert.match(why, /Not the move\./);
    assert.match(why, /a6 does not force mate/);
    assert.match(why, /The solution: Rxh2\+ Kxh2 Rh8#/);
    // try again: solved this time, the miss standing (not rated twice)
    await me.page.click('#retry');
    await waitData(me, 'puzzle', 'playing');
    await me.clickMove(want.moves[1].slice(0, 2), want.moves[1].slice(2, 4));
    await waitData(me, 'puzzle', 'reply');
    await waitData(me, 'puzzle', 'playing');
    await me.clickMove(want.moves[3].slice(0, 2), want.moves[3].slice(2, 4));
    await waitData(me, 'puzzle', 'solved');
    assert.doesNotMatch(await me.page.textContent('#feedback'), /Your rating: \d+ \(\+/);
    // the progress tab: the rating and the link to carry it to another device
    await me.page.click('button[data-tab=progress]');
    await me.page.waitForFunction(() => document.querySelector('#learner-link').value.includes('#learner='));
    const linkText = await me.page.inputValue('#learner-link');
    const ratings = await me.page.textContent('#ratings');
    assert.match(ratings, /Puzzles: \d+/);
    // another device: the link opens the same learner
    const other = new Person(browser, 'other-device', PHONE);
    await other.open(linkText);
    await other.page.click('button[data-tab=progress]');
    await other.page.waitForFunction(() => /solved of/.test(document.querySelector('#ratings').textContent));
    assert.equal(await other.page.textContent('#ratings'), ratings);
    await other.shot('train-solve-phone-progress');
    other.assertClean();
    await other.close();
  });
});

test('page: win or draw?, a streak ended by a miss, and the quiz answered by click and by move', async () => {
  const me = new Person(browser, 'quiz');
  await scene('quiz', [me], async () => {
    await me.open(`${server.base}/train`);
    await waitData(me, 'puzzle', 'playing');
    await me.page.selectOption('#mode', 'winordraw');
    await playing(me, TRAP);
    const prompt = await me.page.textContent('#prompt');
    assert.match(prompt, /Win if you can, draw if you must/);
    assert.doesNotMatch(prompt, /[Mm]ate in/);
    const trap = csvPuzzle(csv, TRAP);
    await me.clickMove(trap.moves[1].slice(0, 2), trap.moves[1].slice(2, 4));
    await waitData(me, 'puzzle', 'reply');
    await waitData(me, 'puzzle', 'playing');
    await me.clickMove(trap.moves[3].slice(0, 2), trap.moves[3].slice(2, 4));
    await waitData(me, 'puzzle', 'solved');
    assert.match(await me.page.textContent('#feedback'), /The goal was mate\./);
    // a streak: the first miss ends it
    await me.page.selectOption('#mode', 'streak');
    await me.page.selectOption('#theme', 'middlegame');
    await playing(me, MATE);
    assert.equal(await me.page.isVisible('#run'), true);
    await me.clickMove('a7', 'a6');
    await waitData(me, 'puzzle', 'failed');
    await me.page.waitForFunction(() => /Streak over: 0 in a row/.test(document.querySelector('#feedback').textContent));
    // the quiz: a choice by click
    await me.page.click('button[data-tab=quiz]');
    await me.page.selectOption('#topic', 'castling');
    await waitData(me, 'quiz', 'asked');
    const id = await me.page.evaluate(() => document.querySelector('#quiz-meta').textContent);
    assert.match(id, /castling/);
    const choice = bank.find((q) => q.kind === 'choice' && q.topic === 'castling');
    assert.equal(await me.page.textContent('#question'), choice.question);
    await me.page.click(`.choice >> text="${choice.answer}"`);
    await waitData(me, 'quiz', 'right');
    assert.ok((await me.page.textContent('#quiz-feedback')).includes(choice.explanation));
    await me.shot('train-quiz-answered');
    // a move item, answered on the board
    const move = bank.find((q) => q.kind === 'move');
    if (move.topic === choice.topic) await me.page.click('#next-question');
    else await me.page.selectOption('#topic', move.topic);
    await waitData(me, 'quiz', 'asked');
    assert.equal(await me.page.textContent('#question'), move.question);
    await me.clickMove(move.answer.slice(0, 2), move.answer.slice(2, 4));
    if (move.answer.length === 5) await me.page.click(`#promo-pieces button[data-role="${{ q: 'queen', r: 'rook', b: 'bishop', n: 'knight' }[move.answer[4]]}"]`);
    await waitData(me, 'quiz', 'right');
    // nothing was missed, so nothing is due again
    await me.page.selectOption('#topic', '');
    await me.page.selectOption('#quiz-mode', 'review');
    await waitData(me, 'quiz', 'none');
    assert.match(await me.page.textContent('#question'), /Nothing missed is due again/);
  });
});

// The review: three games of tests/data/review/mistakes.pgn pasted — a threefold claim White
// missed before being mated, a stalemate by promoting to a queen where a rook would not
// stalemate, and a clean mate — then a fourth game opened from a file.  What each game holds is
// written in its Event tag from the Laws; the page must list exactly that, and show it on the
// board.
const MISTAKES = readFileSync(pathJoin(top, 'tests/data/review/mistakes.pgn'), 'utf8')
  .split(/\n(?=\[Event )/)
  .map((g) => g.trim());

test('page: a game reviewed for its rule mistakes, pasted and from a file', async () => {
  const me = new Person(browser, 'review');
  await scene('review', [me], async () => {
    await me.open(`${server.base}/train#review`);
    await me.page.fill('#review-pgn', [MISTAKES[0], MISTAKES[2], MISTAKES[8]].join('\n\n'));
    await me.page.click('#review-go');
    await waitData(me, 'review', 'done', 15000);
    const kinds = await me.page.$$eval('#review-findings .finding', (els) => els.map((e) => e.dataset.kind));
    assert.deepEqual(kinds, ['claim_threefold', 'stalemate_promotion']);
    const text = await me.page.textContent('#review-findings');
    assert.match(text, /White could have claimed a draw here: the position on the board had occurred for the third time/);
    assert.match(text, /f8=R, would not have stalemated/);
    assert.match(text, /No rule mistakes/);
    // the second finding on the board: the pawn on f7 before 1.f8=Q
    await me.page.click('#review-findings .finding[data-kind=stalemate_promotion] button');
    await me.page.waitForFunction(() => document.querySelector('#review-findings .finding.selected[data-kind=stalemate_promotion]'));
    await me.page.waitForFunction(() => document.querySelectorAll('cg-board piece').length === 3 && !document.querySelector('cg-board piece.fading, cg-board piece.anim'));
    await me.shot('train-review');
    // a file: the lone king's win on time
    const file = pathJoin(dir, 'flag.pgn');
    writeFileSync(file, MISTAKES[6] + '\n');
    await me.page.fill('#review-pgn', '');
    await me.page.setInputFiles('#review-file', file);
    await me.page.waitForFunction(() => document.querySelector('#review-pgn').value.includes('Time forfeit'));
    await me.page.click('#review-go');
    await waitData(me, 'review', 'done', 15000);
    assert.deepEqual(await me.page.$$eval('#review-findings .finding', (els) => els.map((e) => e.dataset.kind)), ['result_not_lawful']);
    assert.match(await me.page.textContent('#review-findings'), /FIDE 6\.9/);
    // nothing to review: said so
    await me.page.fill('#review-pgn', '');
    await me.page.click('#review-go');
    await waitData(me, 'review', 'error');
    assert.match(await me.page.textContent('#review-status'), /paste a game/);
  });
});

// The diagnostic (on a server with the whole starter set and quiz bank), answered by a person
// who clicks the first choice and makes the first legal move the board offers (so mostly
// wrong): it runs to its report within 18 to 30 questions, and the report's figures add up to
// the questions asked.
test('page: a whole diagnostic to its report', async () => {
  const full = await startServer({ dir: scratch(), args: ['--static', WEB, '--puzzles', STARTER, '--quiz', BANK] });
  const me = new Person(browser, 'diagnostic');
  try {
  await scene('diagnostic', [me], async () => {
    let dests = null;
    await me.open(`${full.base}/train#diagnostic`);
    // what the server sends the page: the legal moves of the board shown
    me.page.on('response', async (res) => {
      if (!/\/api\/train\/diagnostic\//.test(res.url())) return;
      try {
        const j = await res.json();
        dests = (j.board && j.reply && j.board.dests) || (j.item && j.item.dests) || dests;
      } catch {}
    });
    await me.page.click('#diag-start');
    let questions = 0;
    for (let guard = 0; guard < 600; guard++) {
      await me.page.waitForFunction(() => ['asked', 'drill', 'answered', 'report'].includes(document.body.dataset.diag));
      const state = await me.page.evaluate(() => document.body.dataset.diag);
      if (state === 'report') break;
      if (state === 'answered') {
        questions++;
        await me.page.click('#diag-next');
        await me.page.waitForFunction(() => document.body.dataset.diag !== 'answered');
        continue;
      }
      const step = await me.page.evaluate(() => Number(document.body.dataset.diagStep || 0));
      if (await me.page.isVisible('#diag-choices .choice')) await me.page.click('#diag-choices .choice >> nth=0');
      else {
        const from = Object.keys(dests)[0];
        await me.clickMove(from, dests[from].slice(0, 2));
        // a pawn's move to the last rank asks for a piece first (the dialog may take a frame)
        await me.page.waitForFunction(
          (s) => Number(document.body.dataset.diagStep || 0) > s || !document.getElementById('promotion').classList.contains('hidden'),
          step, { timeout: 5000 });
        if (await me.page.isVisible('#promotion')) await me.page.click('#promo-pieces button[data-role="queen"]');
      }
      await me.page.waitForFunction((s) => Number(document.body.dataset.diagStep || 0) > s, step, { timeout: 5000 });
      if (questions === 2 && state === 'asked') await me.shot('train-diagnostic-question');
    }
    assert.equal(await me.page.evaluate(() => document.body.dataset.diag), 'report');
    assert.ok(questions >= 18 && questions <= 30, `${questions} questions`);
    assert.equal(await me.page.$$eval('#diag-chart .diag-bar', (b) => b.length), 3);
    const lines = await me.page.$$eval('#diag-missed p', (ps) => ps.map((p) => p.textContent));
    const asked = lines.map((l) => Number(/of (\d+) right/.exec(l)[1])).reduce((a, b) => a + b, 0);
    assert.equal(asked, questions, lines.join(' | '));
    assert.ok((await me.page.textContent('#diag-advice')).length > 20);
    await me.shot('train-diagnostic-report');
  });
  } finally {
    await full.stop(); /* a failure must not leave the server holding the test runner */
    cleanup(full.dir);
  }
});
