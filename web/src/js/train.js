// Arbiter's page — GPL-3.0-or-later, see /source.html.
//
// train.js: the trainer (/train) — puzzles solved by moving on the board, the rules quiz, and
// the learner's figures, and the review of a played game for its rule mistakes.  The server
// decides: it sends the position and the opponent's moves, checks every move and answer, and
// says why a move is wrong.  The rules module (rules.js) answers what the board needs at once:
// a puzzle's legal destinations and check, and, once the puzzle is over, a board to play on
// from its end, both sides, with the moves in SAN and how the game would stand (nothing of it
// goes to the server).  The learner is an anonymous key kept in this browser (localStorage),
// made by POST /api/train/learner and carried to another device by the link
// /train#learner=KEY.

import { Board } from '/js/board.js';
import { wasm, counted, destsText } from '/js/rules.js';

const $ = (id) => document.getElementById(id);
const KEY = 'arbiter-learner';
const STORM_MS = 180000;
const STORM_PENALTY_MS = 10000;

let learner = null;
let board = null;
let tab = 'puzzles';
// the puzzle under way: {id, color, moves: the learner's moves so far, done, failed}
let puzzle = null;
// a run: {kind: 'streak'|'storm', count, misses, ends (storm), level (streak)}
let run = null;
let quiz = null;
let rules = null; // the rules module, or null
// the board played on after a puzzle: {game: the module's Chess, start: its FEN, lastMove}
let explore = null;

// What the page shows, written on <body> for tests: data-puzzle (loading, playing, solved,
// failed), data-quiz (loading, asked, right, wrong), data-diag (loading, asked, drill, answered,
// report) with data-diag-step counting the server's answers, data-review (loading, done, error).
function mark(key, value) {
  document.body.dataset[key] = value;
}

function headers() {
  const h = { 'Content-Type': 'application/json' };
  if (learner) h['X-Learner'] = learner;
  return h;
}

async function api(path, body) {
  const res = await fetch(path, body === undefined ? { headers: headers() } : { method: 'POST', headers: headers(), body: JSON.stringify(body) });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = new Error((data && data.error && data.error.message) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    err.code = data && data.error && data.error.code;
    throw err;
  }
  return data;
}

// The learner: from the link's fragment (another device), from this browser, or a new one.
async function ensureLearner() {
  const m = /(?:^|[#&])learner=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (m) {
    localStorage.setItem(KEY, m[1]);
    history.replaceState(null, '', location.pathname);
  }
  learner = localStorage.getItem(KEY);
  if (learner) {
    try {
      await api('/api/train/state');
      return;
    } catch (e) {
      if (e.status !== 403) throw e;
      learner = null; // a key this server does not know (another server, a new database)
    }
  }
  const made = await api('/api/train/learner', {});
  learner = made.token;
  localStorage.setItem(KEY, learner);
}

function link() {
  return `${location.origin}/train#learner=${learner}`;
}

function turnOf(fen) {
  return fen.split(' ')[1] === 'b' ? 'black' : 'white';
}

function checkOf(san) {
  return /[+#]$/.test(san || '');
}

// ---- feedback ----

function say(el, kind, head, why, article) {
  el.className = `feedback ${kind}`;
  el.replaceChildren();
  const b = document.createElement('b');
  b.textContent = head;
  el.append(b);
  if (why) {
    const s = document.createElement('span');
    s.className = 'why';
    s.textContent = why;
    el.append(s);
  }
  if (article) {
    const s = document.createElement('span');
    s.className = 'article';
    s.textContent = article;
    el.append(s);
  }
}

function ratingText(r) {
  if (!r) return '';
  if (!r.rated) return 'Not rated (a hint, a run, or seen before).';
  const d = r.after - r.before;
  return `Your rating: ${r.after} (${d >= 0 ? '+' : ''}${d}).`;
}

async function badge() {
  try {
    const s = await api('/api/train/state');
    $('badge').textContent = `Puzzles ${s.puzzle.rating}${s.puzzle.provisional ? '?' : ''} · Quiz ${s.quiz.rating}${s.quiz.provisional ? '?' : ''}`;
    return s;
  } catch {
    return null;
  }
}

// ---- puzzles ----

function puzzleQuery() {
  const mode = $('mode').value;
  const q = new URLSearchParams();
  q.set('mode', mode === 'streak' || mode === 'storm' ? 'normal' : mode);
  if ($('theme').value && mode !== 'winordraw') q.set('theme', $('theme').value);
  let difficulty = $('difficulty').value;
  if (run && run.kind === 'streak') difficulty = ['easiest', 'easier', 'normal', 'harder', 'hardest'][Math.min(4, Math.floor(run.count / 4))];
  if (run && run.kind === 'storm') difficulty = run.count < 5 ? 'easiest' : run.count < 12 ? 'easier' : 'normal';
  q.set('difficulty', difficulty);
  return q.toString();
}

function goalText(p) {
  if (p.mode === 'winordraw') return 'Win if you can, draw if you must: find the best move.';
  const n = p.moves;
  if (p.goal === 'draw') return `Save the game: force a draw (stalemate or a dead position) in ${n} move${n > 1 ? 's' : ''}.`;
  return `Mate in ${n}.`;
}

async function nextPuzzle() {
  $('feedback').className = 'feedback hidden';
  $('prompt').textContent = 'Loading a puzzle…';
  mark('puzzle', 'loading');
  let p;
  try {
    p = await api(`/api/train/puzzle/next?${puzzleQuery()}`);
  } catch (e) {
    $('prompt').textContent = e.message;
    return;
  }
  if (p.none) {
    $('prompt').textContent = 'Nothing missed is due again: every puzzle you miss comes back after 1, 3, 7, 14 and 30 days.';
    mark('puzzle', 'none');
    return;
  }
  stopExplore();
  // played: the moves on the board since the position shown (the learner's and the replies)
  puzzle = { ...p, lastDests: p.dests, moves: [], played: [], done: false, failed: false };
  $('retry').classList.add('hidden');
  board.cg.setAutoShapes([]);
  board.cg.setShapes([]);
  // the position before the opponent's move, then the move, animated
  board.show({ fen: p.fen, turn: turnOf(p.fen), orientation: p.color, viewOnly: true });
  $('prompt').textContent = `${p.color === 'white' ? 'White' : 'Black'} to play. ${goalText(p)}`;
  $('puzzle-source').replaceChildren();
  if (p.game) {
    const a = document.createElement('a');
    a.href = p.game;
    a.target = '_blank';
    a.rel = 'noopener';
    a.textContent = 'From a lichess game';
    $('puzzle-source').append(`Puzzle ${p.id}, rated ${p.rating}. `, a);
  } else $('puzzle-source').textContent = `Puzzle ${p.id}, rated ${p.rating}.`;
  setTimeout(() => {
    if (puzzle.id !== p.id) return;
    board.cg.move(p.opponent_move.slice(0, 2), p.opponent_move.slice(2, 4));
    movable(p.fen_shown, p.dests, p.opponent_move, checkOf(p.opponent_san));
    mark('puzzleId', p.id);
    mark('puzzle', 'playing');
  }, 500);
}

function movable(fen, dests, last, check) {
  // the module's destinations and check when it is there (the server's otherwise)
  const here = local(fen);
  if (here) {
    dests = counted(destsText(here.dests()));
    check = here.isCheck();
    here.free();
  }
  board.show({ fen, turn: turnOf(fen), lastMove: last, check, orientation: puzzle.color, movable: puzzle.color, dests, viewOnly: false });
}

// The module's Chess of a FEN (null without the module, or for a FEN it refuses).
function local(fen) {
  if (!rules) return null;
  try {
    return new rules.Chess(fen, { lenient: true });
  } catch {
    return null;
  }
}

// ---- after a puzzle: play on from its end, both sides, on the module alone ----

// From the position the puzzle was shown in, with the moves played on the board since (the
// learner's, the replies, the solution shown): the game and the line are the puzzle's own.
function exploreFrom(p) {
  stopExplore();
  const game = local(p.fen_shown);
  if (!game) return;
  try {
    for (const uci of p.played) game.move(uci);
  } catch (e) {
    game.free();
    console.warn(`the puzzle's line: ${e.message}`);
    return;
  }
  explore = { game, start: p.fen_shown, lastMove: p.played[p.played.length - 1] || p.opponent_move, plies: p.played.length };
  $('explore').classList.remove('hidden');
  showExplore();
}

// Back to where the puzzle ended: the moves played on since taken back.
function exploreBack() {
  if (!explore) return;
  while (explore.game.history().length > explore.plies) explore.game.undo();
  const last = explore.game.history({ verbose: true }).pop();
  explore.lastMove = last ? last.uci : puzzle.opponent_move;
  showExplore();
}

function stopExplore() {
  if (explore) explore.game.free();
  explore = null;
  $('explore').classList.add('hidden');
  mark('explore', '0');
}

function showExplore() {
  const g = explore.game;
  const turn = g.turn() === 'w' ? 'white' : 'black';
  const s = g.status();
  board.show({ fen: g.fen(), turn, lastMove: explore.lastMove, check: s.check, orientation: puzzle.color, movable: turn, dests: counted(destsText(g.dests())), viewOnly: false });
  const sans = g.history();
  const played = sans.length - explore.plies;
  let line = '';
  let number = Number(explore.start.split(' ')[5]) || 1;
  let white = explore.start.split(' ')[1] !== 'b';
  sans.forEach((san, i) => {
    if (white) line += `${number}. `;
    else if (i === 0) line += `${number}… `;
    line += `${san} `;
    if (!white) number++;
    white = !white;
  });
  const o = s.outcome;
  const end = o ? ` ${o.result}: ${o.termination.replaceAll('_', ' ')} (Article ${o.article}).` : s.check ? ` ${turn === 'white' ? 'White' : 'Black'} is in check.` : '';
  $('explore-line').textContent = (line.trim() || 'Move a piece of either side.') + end;
  mark('explore', String(played));
}

function exploreMove(uci) {
  board.cg.setAutoShapes([]);
  try {
    const m = explore.game.move(uci);
    explore.lastMove = m.uci;
  } catch (e) {
    $('explore-line').textContent = e.message;
  }
  showExplore();
}


async function played(uci) {
  if (explore && puzzle && puzzle.done) return exploreMove(uci);
  if (!puzzle || puzzle.done) return;
  const moves = [...puzzle.moves, uci];
  let r;
  try {
    r = await api('/api/train/puzzle/move', { id: puzzle.id, moves, theme: $('theme').value || undefined, rated: run ? false : undefined });
  } catch (e) {
    say($('feedback'), 'wrong', 'The server did not take the move.', e.message);
    return;
  }
  if (!r.legal) {
    // an illegal move never reaches the board: chessground shows only legal destinations, so
    // this is a move typed or dropped oddly; say why and put the position back
    say($('feedback'), 'wrong', 'That move is illegal.', r.message, r.article ? `FIDE Laws, article ${r.article}` : '');
    board.show({ fen: board.cg.getFen(), turn: puzzle.color, orientation: puzzle.color, movable: puzzle.color, dests: puzzle.lastDests, viewOnly: false });
    return;
  }
  if (!r.correct) {
    puzzle.done = true;
    puzzle.failed = true;
    mark('puzzle', 'failed');
    const sol = (r.solution_san || []).join(' ');
    say($('feedback'), 'wrong', 'Not the move.', r.message, `The solution: ${sol}. ${ratingText(r.rating)}`);
    if (!run) $('retry').classList.remove('hidden');
    board.show({ fen: board.cg.getFen(), turn: turnOf(puzzle.fen_shown), orientation: puzzle.color, lastMove: uci, viewOnly: true });
    if (r.solution && r.solution[0]) board.cg.setAutoShapes([{ orig: r.solution[0].slice(0, 2), dest: r.solution[0].slice(2, 4), brush: 'green' }]);
    puzzle.played.push(uci);
    exploreFrom(puzzle);
    return runResult(false);
  }
  puzzle.moves = moves;
  if (r.done) {
    puzzle.done = true;
    mark('puzzle', 'solved');
    const what = r.goal === 'draw' ? 'Drawn: the rescue works.' : 'Checkmate. Solved!';
    say($('feedback'), 'right', what, puzzle.mode === 'winordraw' ? `The goal was ${r.goal === 'draw' ? 'a draw' : 'mate'}.` : '', ratingText(r.rating));
    board.show({ fen: r.fen, turn: turnOf(r.fen), orientation: puzzle.color, lastMove: uci, check: r.goal === 'mate', viewOnly: true });
    puzzle.played.push(uci);
    exploreFrom(puzzle);
    return runResult(true);
  }
  say($('feedback'), 'right', 'Right. Keep going.', '');
  mark('puzzle', 'reply');
  board.show({ fen: board.cg.getFen(), turn: turnOf(r.fen), orientation: puzzle.color, lastMove: uci, viewOnly: true });
  puzzle.played.push(uci, r.reply);
  setTimeout(() => {
    board.cg.move(r.reply.slice(0, 2), r.reply.slice(2, 4));
    puzzle.lastDests = r.dests;
    movable(r.fen, r.dests, r.reply, checkOf(r.reply_san));
    mark('puzzle', 'playing');
  }, 350);
}

// Another try at a missed puzzle, from the position after the opponent's move: the miss stands
// (the server rates a puzzle once), the moves are checked as before.
function retry() {
  if (!puzzle || !puzzle.failed) return;
  stopExplore();
  puzzle.done = false;
  puzzle.moves = [];
  puzzle.played = [];
  puzzle.lastDests = puzzle.dests;
  $('retry').classList.add('hidden');
  board.cg.setAutoShapes([]);
  say($('feedback'), 'right', 'Try again.', 'The miss stands; this try is not rated.');
  movable(puzzle.fen_shown, puzzle.dests, puzzle.opponent_move, checkOf(puzzle.opponent_san));
  mark('puzzle', 'playing');
}

async function hint() {
  if (!puzzle || puzzle.done) return;
  try {
    const r = await api('/api/train/puzzle/hint', { id: puzzle.id, moves: puzzle.moves });
    board.cg.setAutoShapes([{ orig: r.square, brush: 'paleGreen' }]);
    say($('feedback'), 'right', `Hint: move the piece on ${r.square}.`, 'This attempt is no longer rated.');
  } catch (e) {
    say($('feedback'), 'wrong', 'No hint.', e.message);
  }
}

// "Show the solution" gives up: the server sends the rest of the line and rates a miss; the
// page plays it out on the board.
async function solution() {
  if (!puzzle || puzzle.done) return;
  let r;
  try {
    r = await api('/api/train/puzzle/solution', { id: puzzle.id, moves: puzzle.moves, theme: $('theme').value || undefined, rated: run ? false : undefined });
  } catch (e) {
    say($('feedback'), 'wrong', 'No solution.', e.message);
    return;
  }
  puzzle.done = true;
  mark('puzzle', 'failed');
  say($('feedback'), 'wrong', `The solution: ${(r.solution_san || []).join(' ')}`, '', ratingText(r.rating));
  board.show({ fen: board.cg.getFen(), turn: puzzle.color, orientation: puzzle.color, viewOnly: true });
  const line = r.solution || [];
  line.forEach((m, i) => setTimeout(() => board.cg.move(m.slice(0, 2), m.slice(2, 4)), 500 * (i + 1)));
  // then the board to play on from the end of the solution
  const shown = puzzle;
  setTimeout(() => {
    if (puzzle !== shown || !puzzle.done) return;
    puzzle.played.push(...line);
    exploreFrom(puzzle);
  }, 500 * (line.length + 1));
  runResult(false);
}

// ---- runs: streak and storm (a run's puzzles are not rated) ----

function startRun(kind) {
  run = { kind, count: 0, misses: 0, ends: kind === 'storm' ? Date.now() + STORM_MS : 0 };
  $('run').classList.remove('hidden');
  $('run-label').textContent = 'solved';
  $('run-count').textContent = '0';
  if (kind === 'storm') tickStorm();
  else $('run-clock').textContent = 'until the first miss';
}

function stopRun() {
  run = null;
  $('run').classList.add('hidden');
}

function tickStorm() {
  if (!run || run.kind !== 'storm') return;
  const left = run.ends - Date.now();
  if (left <= 0) {
    const n = run.count;
    stopRun();
    puzzle.done = true;
    board.show({ fen: board.cg.getFen(), turn: puzzle.color, orientation: puzzle.color, viewOnly: true });
    say($('feedback'), 'right', `Time! ${n} puzzle${n === 1 ? '' : 's'} solved in 3 minutes.`, 'Choose Storm again for another run.');
    return;
  }
  const s = Math.ceil(left / 1000);
  $('run-clock').textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  setTimeout(tickStorm, 250);
}

function runResult(solved) {
  if (!run) return;
  if (solved) {
    run.count++;
    $('run-count').textContent = String(run.count);
  } else if (run.kind === 'streak') {
    const n = run.count;
    stopRun();
    say($('feedback'), 'wrong', `Streak over: ${n} in a row.`, $('feedback').querySelector('.why')?.textContent || '');
    return;
  } else {
    run.misses++;
    run.ends -= STORM_PENALTY_MS;
  }
  setTimeout(() => run && nextPuzzle(), solved ? 600 : 1500);
}

// ---- the quiz ----

async function nextQuestion() {
  $('quiz-feedback').className = 'feedback hidden';
  $('next-question').classList.add('hidden');
  $('choices').replaceChildren();
  $('question').textContent = 'Loading a question…';
  mark('quiz', 'loading');
  const q = new URLSearchParams();
  if ($('topic').value) q.set('topic', $('topic').value);
  if ($('quiz-mode').value === 'review') q.set('mode', 'review');
  try {
    quiz = await api(`/api/train/quiz/next?${q}`);
  } catch (e) {
    $('question').textContent = e.message;
    return;
  }
  if (quiz.none) {
    $('question').textContent = 'Nothing missed is due again: every item you miss comes back after 1, 3, 7, 14 and 30 days.';
    mark('quiz', 'none');
    quiz = null;
    return;
  }
  const meta = [quiz.topic, quiz.rules, (quiz.articles || []).join(', ')].filter(Boolean).join(' · ');
  $('quiz-meta').textContent = meta;
  mark('quiz', 'asked');
  $('question').textContent = quiz.question;
  if (quiz.fen) {
    const moving = quiz.kind === 'move';
    board.show({ fen: quiz.fen, turn: quiz.color || turnOf(quiz.fen), orientation: quiz.color || turnOf(quiz.fen), check: quiz.check, lastMove: lastOf(quiz), movable: moving ? quiz.color : undefined, dests: moving ? quiz.dests : undefined, viewOnly: !moving });
    const shapes = [];
    for (const s of quiz.squares || []) shapes.push({ orig: s, brush: 'yellow' });
    for (const [a, b] of quiz.arrows || []) shapes.push({ orig: a, dest: b, brush: 'blue' });
    board.cg.setAutoShapes(shapes);
  }
  if (quiz.kind === 'move') {
    const p = document.createElement('p');
    p.className = 'note';
    p.textContent = 'Answer by making the move on the board.';
    $('choices').append(p);
  } else {
    for (const c of quiz.choices || []) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'btn choice';
      b.textContent = c;
      b.addEventListener('click', () => answer(c, b));
      $('choices').append(b);
    }
  }
}

function lastOf(q) {
  return q.moves && q.moves.length ? q.moves[q.moves.length - 1] : null;
}

async function answer(given, button) {
  if (!quiz || quiz.answered) return;
  quiz.answered = true;
  let r;
  try {
    r = await api('/api/train/quiz/answer', { id: quiz.id, answer: given });
  } catch (e) {
    quiz.answered = false;
    say($('quiz-feedback'), 'wrong', 'The server did not take the answer.', e.message);
    return;
  }
  for (const b of $('choices').querySelectorAll('button')) {
    b.disabled = true;
    if (b.textContent === r.answer) b.classList.add('right');
  }
  if (button && !r.right) button.classList.add('wrong');
  mark('quiz', r.right ? 'right' : 'wrong');
  const articles = (r.articles || []).join(', ');
  say($('quiz-feedback'), r.right ? 'right' : 'wrong', r.right ? 'Right.' : `No: ${r.answer}.`, r.explanation, [articles, ratingText(r.rating)].filter(Boolean).join(' · '));
  if (quiz.kind === 'move') {
    board.cg.set({ movable: { color: undefined } });
    if (!r.right && typeof r.answer === 'string') board.cg.setAutoShapes([{ orig: r.answer.slice(0, 2), dest: r.answer.slice(2, 4), brush: 'green' }]);
  }
  $('next-question').classList.remove('hidden');
  badge();
}

async function topics() {
  const s = await badge();
  if (!s || !s.topics) return;
  const sel = $('topic');
  for (const t of s.topics) {
    const o = document.createElement('option');
    o.value = t.topic;
    o.textContent = `${t.topic} (${t.items})`;
    sel.append(o);
  }
}

// ---- progress ----

async function progress() {
  const s = await badge();
  if (!s) return;
  const box = $('ratings');
  box.replaceChildren();
  const line = (name, r, extra) => {
    const p = document.createElement('p');
    p.textContent = `${name}: ${r.rating}${r.provisional ? ` (provisional: rating deviation ${r.rd})` : ''}. ${extra}`;
    box.append(p);
  };
  line('Puzzles', s.puzzle, `${s.puzzle.solved} solved of ${s.puzzle.played} rated; ${s.due.puzzle} due for review.`);
  line('Rules quiz', s.quiz, `${s.quiz.right} right of ${s.quiz.answered}; ${s.due.quiz} due for review.`);
  chart($('chart'), [
    ...s.themes.map((t) => ({ name: t.theme, value: t.performance, note: `${t.solved}/${t.played}` })),
    ...(s.topics || []).filter((t) => t.answered).map((t) => ({ name: `quiz: ${t.topic}`, value: Math.round((1000 * t.right) / t.answered), note: `${t.right}/${t.answered}` })),
  ]);
  const weak = s.weak.length ? `Drill next: ${s.weak.join(', ')}.` : 'No weak theme yet: a theme is weak after three misses below your level.';
  $('weak').textContent = s.strong.length ? `${weak} Strong: ${s.strong.join(', ')}.` : weak;
  $('learner-link').value = link();
}

// A bar per theme (SVG, no library): its performance, or for the quiz topics the share right.
function chart(el, rows) {
  el.replaceChildren();
  if (!rows.length) {
    el.textContent = 'Nothing rated yet.';
    return;
  }
  const ns = 'http://www.w3.org/2000/svg';
  const h = 20;
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 320 ${rows.length * h + 4}`);
  const max = Math.max(...rows.map((r) => r.value), 1);
  rows.forEach((r, i) => {
    const y = i * h + 2;
    const t = document.createElementNS(ns, 'text');
    t.setAttribute('x', '0');
    t.setAttribute('y', String(y + 13));
    t.textContent = r.name;
    const bar = document.createElementNS(ns, 'rect');
    bar.setAttribute('x', '120');
    bar.setAttribute('y', String(y + 3));
    bar.setAttribute('height', '12');
    bar.setAttribute('width', String(Math.max(1, (110 * Math.max(0, r.value)) / max)));
    bar.setAttribute('fill', '#5a8f69');
    const v = document.createElementNS(ns, 'text');
    v.setAttribute('x', '236');
    v.setAttribute('y', String(y + 13));
    v.textContent = `${r.value} (${r.note})`;
    svg.append(t, bar, v);
  });
  el.append(svg);
}

// ---- the diagnostic ----

// {id, item, pending: the next item or the report, shown after the learner reads the answer}
let diag = null;
const AREA_WORDS = { rules: 'Rules', tactics: 'Tactics', endgames: 'Endgames' };

function showDiagItem(item) {
  diag.item = item;
  diag.busy = false;
  $('diag-intro').classList.add('hidden');
  $('diag-report').classList.add('hidden');
  $('diag-item').classList.remove('hidden');
  $('diag-feedback').classList.add('hidden');
  $('diag-next').classList.add('hidden');
  $('diag-meta').textContent = `Question ${item.number} · ${AREA_WORDS[item.area] || item.area}${item.moves_left ? ` · ${item.moves_left} moves left` : ''}`;
  $('diag-question').textContent = item.question;
  const box = $('diag-choices');
  box.replaceChildren();
  const moving = item.kind === 'move' || item.kind === 'drill';
  if (item.fen) {
    board.cg.setAutoShapes([]);
    board.show({ fen: item.fen, turn: item.color || turnOf(item.fen), orientation: item.color || turnOf(item.fen), check: item.check, lastMove: item.last_move, movable: moving ? item.color : undefined, dests: moving ? item.dests : undefined, viewOnly: !moving });
  }
  if (item.kind === 'choice') {
    for (const c of item.choices) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'choice';
      b.textContent = c;
      b.addEventListener('click', () => diagAnswer({ answer: c }, b));
      box.append(b);
    }
  } else {
    const p = document.createElement('p');
    p.className = 'note';
    p.textContent = item.kind === 'drill' ? 'Play on the board; the defence answers with its best move.' : 'Answer by making the move on the board.';
    box.append(p);
  }
  mark('diag', 'asked');
}

async function diagStart() {
  mark('diag', 'loading');
  try {
    const r = await api('/api/train/diagnostic/start', {});
    diag = { id: r.id, max: r.max };
    showDiagItem(r.item);
  } catch (e) {
    $('diag-question').textContent = `The diagnostic is not available: ${e.message}`;
    mark('diag', 'error');
  }
}

async function diagAnswer(body, button) {
  if (!diag || diag.busy) return;
  diag.busy = true;
  let r;
  try {
    r = await api('/api/train/diagnostic/answer', { id: diag.id, ...body });
  } catch (e) {
    diag.busy = false;
    say($('diag-feedback'), 'wrong', 'The server did not take the answer.', e.message);
    return;
  }
  mark('diagStep', String(Number(document.body.dataset.diagStep || 0) + 1));
  if (r.reply) { // a drill goes on: the defence's move
    const b = r.board;
    board.show({ fen: b.fen, turn: b.color, orientation: b.color, check: b.check, lastMove: r.reply, movable: b.color, dests: b.dests });
    diag.item.moves_left = r.moves_left;
    $('diag-meta').textContent = `Question ${diag.item.number} · ${AREA_WORDS[diag.item.area]} · ${r.moves_left} moves left`;
    diag.busy = false;
    mark('diag', 'drill');
    return;
  }
  for (const b of $('diag-choices').querySelectorAll('button')) {
    b.disabled = true;
    if (b.textContent === r.answer) b.classList.add('right');
  }
  if (button && !r.right) button.classList.add('wrong');
  board.cg.set({ movable: { color: undefined } });
  if (r.board) board.show({ fen: r.board.fen, turn: r.board.color, orientation: diag.item.color || r.board.color, viewOnly: true });
  if (!r.right && typeof r.answer === 'string' && /^[a-h][1-8][a-h][1-8]/.test(r.answer)) board.cg.setAutoShapes([{ orig: r.answer.slice(0, 2), dest: r.answer.slice(2, 4), brush: 'green' }]);
  say($('diag-feedback'), r.right ? 'right' : 'wrong', r.right ? 'Right.' : r.answer && diag.item.kind === 'choice' ? `No: ${r.answer}.` : 'Not this time.', r.explanation, (r.articles || []).join(', '));
  diag.pending = r.report ? { report: r.report } : { item: r.item };
  $('diag-next').textContent = r.report ? 'See the report' : 'Next';
  $('diag-next').classList.remove('hidden');
  mark('diag', 'answered');
}

function diagNext() {
  if (!diag || !diag.pending) return;
  const p = diag.pending;
  diag.pending = null;
  if (p.item) showDiagItem(p.item);
  else diagReport(p.report);
}

// The report: a bar per area on the rating scale, its uncertainty as a whisker (SVG).
function diagReport(rep) {
  diag.report = rep;
  $('diag-item').classList.add('hidden');
  $('diag-report').classList.remove('hidden');
  const ns = 'http://www.w3.org/2000/svg', lo = 600, hi = 2600, w = 200, x0 = 80;
  const X = (r) => x0 + (w * (Math.min(hi, Math.max(lo, r)) - lo)) / (hi - lo);
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 340 ${rep.areas.length * 34 + 26}`);
  const el = (name, attrs, text) => {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  for (const t of [1000, 1500, 2000]) {
    el('line', { x1: X(t), x2: X(t), y1: 4, y2: rep.areas.length * 34 + 6, stroke: '#ddd' });
    el('text', { x: X(t), y: rep.areas.length * 34 + 20, 'text-anchor': 'middle', 'font-size': 10, fill: '#888' }, t);
  }
  rep.areas.forEach((a, i) => {
    const y = i * 34 + 8;
    el('text', { x: 0, y: y + 14, 'font-size': 12 }, AREA_WORDS[a.area] || a.area);
    if (a.skipped) {
      el('text', { x: x0, y: y + 14, 'font-size': 11, fill: '#888' }, 'not asked on this server');
      return;
    }
    el('rect', { x: x0, y: y + 4, width: Math.max(1, X(a.rating) - x0), height: 14, fill: a.area === rep.next ? '#c0813a' : '#5a8f69', class: 'diag-bar', 'data-area': a.area });
    el('line', { x1: X(a.rating - a.rating_se), x2: X(a.rating + a.rating_se), y1: y + 11, y2: y + 11, stroke: '#333', 'stroke-width': 1.5 });
    el('text', { x: X(a.rating + a.rating_se) + 4, y: y + 15, 'font-size': 11 }, `${a.rating} ± ${a.rating_se}`);
  });
  $('diag-chart').replaceChildren(svg);
  const m = $('diag-missed');
  m.replaceChildren();
  for (const a of rep.areas) {
    if (a.skipped) continue;
    const p = document.createElement('p');
    p.textContent = `${AREA_WORDS[a.area]}: ${a.right} of ${a.answered} right${a.missed.length ? `; missed: ${a.missed.join(', ')}` : ''}.`;
    m.append(p);
  }
  $('diag-advice').textContent = rep.advice;
  mark('diag', 'report');
}

function diagTrain() {
  const next = diag && diag.report && diag.report.next;
  if (next === 'rules') show('quiz');
  else {
    if (next === 'endgames') $('theme').value = 'endgame';
    show('puzzles');
    nextPuzzle();
  }
}

// ---- the review of a game ----

const REVIEW_MAX = 8000; // the server reads at most 8 KB of request
const KIND_WORDS = {
  claim_threefold: 'A draw to claim: threefold repetition',
  claim_fifty: 'A draw to claim: the 50-move rule',
  stalemate_given: 'A win thrown to stalemate',
  stalemate_promotion: 'A stalemate by promoting to a queen',
  missed_rescue: 'A rescue missed',
  result_not_lawful: 'A result the laws would not give',
  played_on: 'Played on after the game was over',
};

// comments, variations and NAGs say nothing the review reads: dropped when the text is long
function shorten(pgn) {
  if (pgn.length <= REVIEW_MAX) return pgn;
  let t = pgn.replace(/\{[^}]*\}/g, '').replace(/;[^\n]*/g, '').replace(/\$\d+/g, '');
  for (let i = 0; i < 8 && /\([^()]*\)/.test(t); i++) t = t.replace(/\([^()]*\)/g, '');
  return t.replace(/[ \t]+/g, ' ');
}

function showFinding(f, li) {
  for (const x of document.querySelectorAll('#review-findings .finding')) x.classList.toggle('selected', x === li);
  board.show({ fen: f.fen, turn: turnOf(f.fen), orientation: f.side, viewOnly: true });
  const shapes = [];
  if (f.played) shapes.push({ orig: f.played.slice(0, 2), dest: f.played.slice(2, 4), brush: 'red' });
  if (f.move) shapes.push({ orig: f.move.slice(0, 2), dest: f.move.slice(2, 4), brush: 'green' });
  board.cg.setAutoShapes(shapes);
}

async function review() {
  const status = $('review-status'), out = $('review-findings');
  out.textContent = '';
  let pgn = $('review-pgn').value.trim();
  const game = /([A-Za-z0-9_-]{6,})\/?(?:#.*)?$/.exec($('review-game').value.trim());
  mark('review', 'loading');
  status.textContent = 'Reviewing…';
  try {
    if (!pgn && game) {
      const res = await fetch(`/api/games/${game[1]}.pgn`);
      if (!res.ok) throw new Error('no game with that link on this server');
      pgn = await res.text();
    }
    if (!pgn) throw new Error('paste a game, open a file, or give a game\'s link first');
    const r = await api('/api/train/review', { pgn: shorten(pgn) });
    let first = null, total = 0;
    for (const g of r.games) {
      const h = document.createElement('h3');
      h.textContent = `${g.white || '?'} – ${g.black || '?'}, ${g.result}`;
      out.append(h);
      if (g.error) {
        const p = document.createElement('p');
        p.className = 'note';
        p.textContent = `Not reviewed: ${g.error}`;
        out.append(p);
        continue;
      }
      if (!g.findings.length) {
        const p = document.createElement('p');
        p.className = 'note';
        p.textContent = 'No rule mistakes: the laws gave nothing away in this game.';
        out.append(p);
      }
      const ol = document.createElement('ol');
      for (const f of g.findings) {
        total++;
        const li = document.createElement('li');
        li.className = 'finding';
        li.dataset.kind = f.kind;
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'linkish';
        b.textContent = `Move ${f.move_number}${f.side === 'black' ? '…' : '.'} ${KIND_WORDS[f.kind] || f.kind}`;
        const p = document.createElement('p');
        p.textContent = f.text;
        const a = document.createElement('span');
        a.className = 'article';
        a.textContent = `${f.article} · ${f.points === 1 ? 'a whole point' : 'half a point'}`;
        li.append(b, p, a);
        b.addEventListener('click', () => showFinding(f, li));
        ol.append(li);
        if (!first) first = [f, li];
      }
      out.append(ol);
    }
    status.textContent = total ? `${total} rule mistake${total === 1 ? '' : 's'} found. Click one to see it on the board.` : 'Reviewed.';
    if (first) showFinding(...first);
    mark('review', 'done');
  } catch (e) {
    status.textContent = e.message;
    mark('review', 'error');
  }
}

// ---- tabs ----

function show(name) {
  tab = name;
  for (const b of document.querySelectorAll('.tab[data-tab]')) b.setAttribute('aria-selected', b.dataset.tab === name ? 'true' : 'false');
  for (const p of ['puzzles', 'quiz', 'diagnostic', 'review', 'progress']) $(`pane-${p}`).classList.toggle('hidden', p !== name);
  // a hidden board has no size: its arrows would be drawn at NaN
  if (name === 'progress') board.cg.setAutoShapes([]);
  const hidden = $('board-wrap').classList.contains('hidden');
  $('board-wrap').classList.toggle('hidden', name === 'progress');
  if (hidden && name !== 'progress') board.cg.redrawAll();
  document.body.dataset.tab = name;
  if (name === 'puzzles') {
    if (puzzle) movableAgain();
    else nextPuzzle();
  } else if (name === 'quiz') {
    if (!quiz || quiz.answered) nextQuestion();
  } else if (name === 'diagnostic') {
    if (diag && diag.item && !diag.report) showDiagItem(diag.item);
    else if (!diag) board.show({ fen: 'start', orientation: 'white', viewOnly: true });
  } else if (name === 'review') {
    board.cg.setAutoShapes([]);
    board.show({ fen: 'start', orientation: 'white', viewOnly: true });
  } else progress();
}

function movableAgain() {
  if (explore) showExplore();
  else if (puzzle.done) board.show({ fen: board.cg.getFen(), turn: puzzle.color, orientation: puzzle.color, viewOnly: true });
  else nextPuzzle();
}

async function main() {
  wasm().then((m) => (rules = m));
  board = new Board($('board'), {
    move: (uci) => (tab === 'quiz' ? answer(uci, null) : tab === 'diagnostic' ? diagAnswer({ move: uci }, null) : played(uci)),
    premove: () => {},
    unpremove: () => {},
    takeBack: () => {
      if (tab === 'puzzles' && puzzle && !puzzle.done) movable(puzzle.fen_shown, puzzle.dests, puzzle.opponent_move, false);
    },
  });
  try {
    await ensureLearner();
  } catch (e) {
    $('prompt').textContent = `The trainer is not available: ${e.message}`;
    return;
  }
  for (const b of document.querySelectorAll('.tab[data-tab]')) b.addEventListener('click', () => show(b.dataset.tab));
  $('next-puzzle').addEventListener('click', () => nextPuzzle());
  $('hint').addEventListener('click', hint);
  $('retry').addEventListener('click', retry);
  $('explore-back').addEventListener('click', exploreBack);
  $('solution').addEventListener('click', solution);
  $('next-question').addEventListener('click', nextQuestion);
  $('topic').addEventListener('change', nextQuestion);
  $('quiz-mode').addEventListener('change', nextQuestion);
  $('theme').addEventListener('change', () => nextPuzzle());
  $('difficulty').addEventListener('change', () => nextPuzzle());
  $('mode').addEventListener('change', () => {
    const m = $('mode').value;
    stopRun();
    if (m === 'streak' || m === 'storm') startRun(m);
    nextPuzzle();
  });
  $('copy-link').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(link());
      $('copy-link').textContent = 'Copied';
    } catch {
      $('learner-link').select();
    }
  });
  $('review-go').addEventListener('click', review);
  $('diag-start').addEventListener('click', diagStart);
  $('diag-next').addEventListener('click', diagNext);
  $('diag-again').addEventListener('click', diagStart);
  $('diag-train').addEventListener('click', diagTrain);
  $('review-file').addEventListener('change', async () => {
    const f = $('review-file').files[0];
    if (f) $('review-pgn').value = await f.text();
  });
  await topics();
  const start = location.hash.replace('#', '');
  show(['quiz', 'diagnostic', 'review', 'progress'].includes(start) ? start : 'puzzles');
}

main();
