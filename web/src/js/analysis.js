// Arbiter's page — GPL-3.0-or-later, see /source.html.
//
// analysis.js: the analysis board — a finished game (/analysis?game=ID), or any PGN or FEN
// pasted, with its moves and variations; moves made on the board add variations.  For every
// position the server says what the laws say (POST /api/analysis, /api/analysis/position):
// repetitions, the 50/75-move count, the draws that could be claimed, dead or not and why, each
// side's chances to mate.  The engine's evaluation on request (POST /api/engine/eval), and the
// annotated game as PGN written by the server (POST /api/analysis/pgn).
//
// A move made on the board is answered at once by the rules module (rules.js: the library the
// server runs, compiled to WebAssembly): the new position, its SAN, its legal moves, check,
// mate, repetitions, claims and the dead position; the server's full words follow and replace
// the module's short ones.  Without the server (its analysis unreachable) the board still
// works from a FEN or the start, on the module alone; without the module, on the server alone.

import { Board } from '/js/board.js';
import { loadSettings } from '/js/settings.js';
import { wasm, counted, destsText } from '/js/rules.js';

const $ = (id) => document.getElementById(id);
const MAX_NODES = 601; // the server's bound: 600 moves in all, and the start

let board;
let tree = null; // the server's answer: {rules, start, tags, result, nodes, mainline}
let source = null; // what was analysed, as posted: {pgn} | {game} | {text} | {fen, moves}
let adds = []; // the moves added on the board, in order: {parent, move}
const evals = new Map(); // node id -> the engine's answer
let cur = 0;
let orientation = 'white';
let busy = false;
let rules = null; // the rules module (rules.js), or null

async function post(path, body) {
  let res;
  try {
    res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return { status: 0, json: { error: { message: 'the server did not answer' } } };
  }
  let json = null;
  try {
    json = await res.json();
  } catch {
    json = { error: { message: `the server answered ${res.status}` } };
  }
  return { status: res.status, json };
}

function setData(key, value) {
  document.body.dataset[key] = String(value);
}

function showError(message) {
  const e = $('load-error');
  e.textContent = message || '';
  e.classList.toggle('hidden', !message);
}

// ---- loading ----

async function analyse(src, note) {
  showError('');
  setData('status', 'loading');
  const ruleSet = $('rules').value;
  let { status, json } = await post('/api/analysis', { ...src, rules: ruleSet });
  if (status !== 200 && (status === 0 || status >= 500)) {
    // the server's analysis is out of reach: a FEN or the start on the rules module alone
    const local = localTree(src, ruleSet);
    if (local) {
      status = 200;
      json = local;
      note = `${note ? `${note} ` : ''}The server did not answer: the laws below are this browser's (its copy of the rules).`;
    }
  }
  if (status !== 200) {
    setData('status', 'error');
    showError(json.error ? json.error.message : `the server answered ${status}`);
    return false;
  }
  tree = json;
  source = src;
  adds = [];
  evals.clear();
  cur = 0;
  const tag = (k) => ((tree.tags || []).find(([n]) => n === k) || [])[1];
  if (note && tree.result !== '*') note += ` Result ${tree.result}${tag('Termination') ? ` (${tag('Termination')})` : ''}.`;
  $('source-note').textContent = note || '';
  const warn = (json.warnings || []).map((w) => w.message);
  if (warn.length) $('source-note').textContent += (note ? ' ' : '') + `Read with warnings: ${warn.join('; ')}`;
  const fenTag = (tree.tags || []).find(([k]) => k === 'FEN');
  orientation = 'white';
  if (fenTag && !tree.nodes[0].children.length) orientation = tree.nodes[0].laws.turn;
  setData('status', 'ready');
  go(0);
  return true;
}

async function openGame(id) {
  // the game's rules, for the laws that depend on them (GET /api/games/ID)
  let rules = null;
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(id)}`);
    if (r.ok) {
      const j = await r.json();
      rules = j.rules || (j.game && j.game.rules) || null;
    }
  } catch {
    /* the analysis itself will say what is wrong */
  }
  if (rules && [...$('rules').options].some((o) => o.value === rules)) $('rules').value = rules;
  const ok = await analyse({ game: id }, `Game ${id}, under the ${$('rules').selectedOptions[0].text} rules.`);
  if (ok) {
    const last = tree.mainline[tree.mainline.length - 1];
    go(last);
  }
}

// ---- the tree ----

function node(id) {
  return tree.nodes[id];
}

function pathTo(id) {
  const ids = [];
  for (let n = node(id); n && n.parent !== null; n = node(n.parent)) ids.push(n.id);
  return ids.reverse();
}

function lineEnd(id) {
  let n = node(id);
  while (n.children.length) n = node(n.children[0]);
  return n.id;
}

async function addMove(uci) {
  if (busy) return;
  const here = node(cur);
  const known = here.children.find((c) => node(c).uci === uci);
  if (known !== undefined) return go(known);
  if (tree.nodes.length >= MAX_NODES) {
    flash('The analysis board holds at most 600 moves in all.');
    return go(cur);
  }
  if (rules) return addLocal(uci);
  busy = true;
  const moves = pathTo(cur).map((i) => node(i).uci).concat([uci]);
  const { status, json } = await post('/api/analysis/position', { fen: tree.start, moves, rules: tree.rules });
  busy = false;
  if (status !== 200) {
    flash(json.error ? json.error.message : `the server answered ${status}`);
    return go(cur);
  }
  const id = tree.nodes.length;
  const made = { ...json.node, id, parent: cur, children: [], mainline: false, added: true };
  tree.nodes.push(made);
  here.children.push(id);
  adds.push({ parent: cur, move: uci });
  go(id);
}

function flash(text) {
  $('flash').textContent = text;
}

// ---- the rules module's answers ----

// The game of the line to node id, as the server judges it: the moves from the start, a new
// game from where one ended; and the first ending met on the way ({ply, termination} or null).
function lineGame(id) {
  let game = new rules.Chess(tree.start, { rules: tree.rules, lenient: true });
  let afterEnd = null;
  for (const i of pathTo(id)) {
    const o = game.outcome();
    if (o) {
      afterEnd = afterEnd || { ply: node(i).ply - 1, termination: o.termination };
      const fen = game.fen();
      game.free();
      game = new rules.Chess(fen, { rules: tree.rules, lenient: true });
    }
    game.move(node(i).uci);
  }
  return { game, afterEnd };
}

// A node made by the module: the move uci played after node `parent`.
function localNode(parent, uci) {
  const { game, afterEnd } = lineGame(parent);
  try {
    let g = game;
    let ended = afterEnd;
    const o = g.outcome();
    if (o) {
      ended = ended || { ply: node(parent).ply, termination: o.termination };
      g = new rules.Chess(g.fen(), { rules: tree.rules, lenient: true });
      game.free();
    }
    const color = g.turn() === 'w' ? 'white' : 'black';
    const number = g.moveNumber();
    const m = g.move(uci);
    const made = {
      ply: node(parent).ply + 1, fen: g.fen(), san: m.san, uci: m.uci, move_number: number, color,
      label: `${number}${color === 'white' ? '.' : '...'}${m.san}`, laws: localLaws(g, ended),
    };
    if (g !== game) g.free();
    return made;
  } finally {
    game.free();
  }
}

const SIDE = { white: 'White', black: 'Black' };
const ENDING_WORDS = {
  checkmate: 'Checkmate', stalemate: 'Stalemate', insufficient_material: 'A dead position (insufficient material)',
  dead_position: 'A dead position', fivefold_repetition: 'The fivefold repetition', seventyfive_moves: 'The 75-move rule',
  threefold_repetition: 'Threefold repetition', fifty_moves: 'The 50-move rule',
};

const LOCAL_NOTE = {
  asked: "The laws as this browser's copy of the rules sees them; the server's full account follows when it answers.",
  alone: "The laws as this browser's copy of the rules sees them: the server did not answer.",
};
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// The laws of the game's position, in the shape of the server's, with short notes of the
// module's facts (the server's words replace them when they come).
function localLaws(g, afterEnd, alone = false) {
  const s = g.status();
  const claims = [];
  if (s.canClaimThreefold) claims.push({ reason: 'threefold', by: s.turn, now: s.threefold });
  if (s.canClaimFifty) claims.push({ reason: 'fifty', by: s.turn, now: s.fifty });
  const notes = [];
  const say = (topic, text, notable = false) => notes.push({ topic, text, notable });
  const o = s.outcome;
  if (o) say('ended', `${ENDING_WORDS[o.termination] || o.termination}: ${o.result} (Article ${o.article}).`, true);
  else if (s.check) say('status', `${SIDE[s.turn]} is in check.`, true);
  say('repetition', s.repetitions > 1 ? `This position has stood here ${s.repetitions} times.` : 'The first time this position stands here.', s.repetitions > 1);
  say('fifty', `${plural(s.halfmoves, 'ply', 'plies')} since the last capture or pawn move.`);
  if (s.canClaimThreefold) say('claim', `${SIDE[s.turn]} may claim a draw by threefold repetition (Article 9.2).`, true);
  if (s.canClaimFifty) say('claim', `${SIDE[s.turn]} may claim a draw by the 50-move rule (Article 9.3).`, true);
  if (s.deadPosition) say('dead', 'Dead position: neither side can checkmate (Article 5.2.2).', true);
  say('local', LOCAL_NOTE[alone ? 'alone' : 'asked']);
  return {
    local: true, turn: s.turn, check: s.check, checkmate: s.checkmate, stalemate: s.stalemate,
    legal: g.uciMoves(), dests: destsText(g.dests()), repetitions: { count: s.repetitions, at: [] },
    halfmove_clock: s.halfmoves, claims, fivefold: s.fivefold, seventyfive: s.seventyFive,
    outcome: o ? { result: o.result, termination: o.termination } : null, after_end: afterEnd,
    dead: { dead: s.deadPosition, why: '' }, notes,
  };
}

// The tree of a FEN or of the start, made by the module (the server's analysis out of reach).
function localTree(src, ruleSet) {
  if (!rules) return null;
  let fen = null;
  if (src.moves && !src.moves.length && !src.fen) fen = rules.START_FEN;
  else if (src.fen && !(src.moves || []).length) fen = src.fen;
  else if (src.text) fen = src.text.trim();
  if (!fen) return null;
  let g;
  try {
    g = new rules.Chess(fen, { rules: ruleSet });
  } catch {
    return null;
  }
  const root = { id: 0, parent: null, children: [], mainline: true, ply: 0, fen: g.fen(), laws: localLaws(g, null, true) };
  g.free();
  counted();
  return { rules: ruleSet, start: root.fen, tags: fen === rules.START_FEN ? [] : [['FEN', root.fen]], result: '*', nodes: [root], mainline: [0], warnings: [] };
}

// A move on the board, answered by the module at once; the server's words asked for after.
function addLocal(uci) {
  let made;
  try {
    made = localNode(cur, uci);
  } catch (e) {
    flash(e.message);
    return go(cur);
  }
  counted();
  const here = node(cur);
  const known = here.children.find((c) => node(c).uci === made.uci);
  if (known !== undefined) return go(known);
  const id = tree.nodes.length;
  tree.nodes.push({ ...made, id, parent: cur, children: [], mainline: false, added: true });
  here.children.push(id);
  adds.push({ parent: cur, move: made.uci });
  go(id);
  askWords(id);
}

// The server's laws of node id, replacing the module's when they come.
async function askWords(id) {
  const moves = pathTo(id).map((i) => node(i).uci);
  const { status, json } = await post('/api/analysis/position', { fen: tree.start, moves, rules: tree.rules });
  const n = node(id);
  if (!n || status !== 200 || !json.node) {
    // the module's laws stay, saying the server did not answer
    const local = n && n.laws.notes.find((x) => x.topic === 'local');
    if (local) local.text = LOCAL_NOTE.alone;
    if (n && cur === id) renderLaws(n);
    return;
  }
  n.laws = json.node.laws;
  // the words only: the board is left as it is (a piece the person holds stays in hand)
  if (cur === id) {
    renderLaws(n);
    setData('laws', 'server');
    setData('repetitions', n.laws.repetitions.count);
  }
  renderMoves();
}

// ---- showing a position ----

function go(id) {
  if (!tree || !node(id)) return;
  if (id !== cur) $('flash').textContent = '';
  cur = id;
  const n = node(id);
  const L = n.laws;
  board.show({
    fen: n.fen,
    turn: L.turn,
    lastMove: n.uci || null,
    check: L.check,
    orientation,
    movable: L.turn,
    dests: L.dests || {},
    viewOnly: false,
  });
  renderLaws(n);
  renderMoves();
  renderEval();
  setData('node', id);
  setData('laws', L.local ? 'local' : 'server');
  setData('ply', n.ply);
  setData('repetitions', L.repetitions.count);
  setData('nodes', tree.nodes.length);
}

function title(n) {
  return n.parent === null ? 'At the start' : `After ${n.label}`;
}

const TOPIC_MARK = {
  status: '+', ended: '■', repetition: '↻', fifty: '50', claim: '½', dead: '†', white: '○', black: '●',
};

function renderLaws(n) {
  const L = n.laws;
  $('laws-title').textContent = `${title(n)}: what the laws say`;
  const out = $('outcome');
  const over = L.outcome && L.after_end === null;
  out.classList.toggle('hidden', !over);
  out.textContent = over ? `${L.outcome.result} — ${L.outcome.termination.replaceAll('_', ' ')}` : '';
  const ul = $('notes');
  ul.replaceChildren();
  for (const note of L.notes) {
    const li = document.createElement('li');
    li.className = `note-${note.topic}${note.notable ? ' notable' : ''}`;
    li.dataset.topic = note.topic;
    const mark = document.createElement('span');
    mark.className = 'mark';
    mark.setAttribute('aria-hidden', 'true');
    mark.textContent = TOPIC_MARK[note.topic] || '·';
    const text = document.createElement('span');
    text.className = 'text';
    text.textContent = note.text;
    li.append(mark, text);
    ul.append(li);
  }
  $('fen').value = n.fen;
}

// The moves as PGN reads: the main line, each variation in brackets after the move it replaces;
// small marks for what the laws say there (a repetition, a draw to claim, a dead position).
function renderMoves() {
  const box = $('moves');
  box.replaceChildren();
  const line = (from, out, first) => {
    let p = from;
    let number = first;
    while (node(p).children.length) {
      const [main, ...vars] = node(p).children;
      out.append(moveEl(main, number), ' ');
      number = false;
      for (const v of vars) {
        const span = document.createElement('span');
        span.className = 'var';
        span.append(moveEl(v, true), ' ');
        line(v, span, false);
        out.append(span, ' ');
        number = true;
      }
      p = main;
    }
  };
  line(0, box, true);
  if (!node(0).children.length) {
    const empty = document.createElement('p');
    empty.className = 'note';
    empty.textContent = 'Move a piece to start a line.';
    box.append(empty);
  }
  // the current move kept in view inside the list (not by scrolling the page)
  const el = box.querySelector('.mv.current');
  if (el && (el.offsetTop < box.scrollTop || el.offsetTop + el.offsetHeight > box.scrollTop + box.clientHeight))
    box.scrollTop = el.offsetTop - box.clientHeight / 2;
}

function moveEl(id, number) {
  const n = node(id);
  const el = document.createElement('span');
  el.className = `mv${id === cur ? ' current' : ''}${n.added ? ' added' : ''}`;
  el.dataset.id = id;
  el.setAttribute('role', 'button');
  const white = n.color === 'white';
  el.textContent = white ? `${n.move_number}. ${n.san}` : number ? `${n.move_number}… ${n.san}` : n.san;
  const L = n.laws;
  const marks = [];
  if (L.repetitions.count >= 2) marks.push([`${L.repetitions.count}×`, `this position ${L.repetitions.count} times`]);
  if (L.claims.length) marks.push(['½', 'a draw can be claimed']);
  if (L.dead.dead) marks.push(['†', 'dead position']);
  for (const [m, t] of marks) {
    const s = document.createElement('sup');
    s.textContent = m;
    s.title = t;
    el.append(s);
  }
  el.addEventListener('click', () => go(id));
  return el;
}

// ---- the engine ----

function scoreText(s) {
  if (!s) return '';
  if (s.mate !== undefined) return `#${s.mate}`;
  const v = s.cp / 100;
  return `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
}

function renderEval() {
  const e = evals.get(cur);
  const line = $('eval-line');
  line.classList.remove('flash');
  if (!e) {
    $('eval-score').textContent = '';
    line.textContent = '';
    return;
  }
  if (e.error) {
    $('eval-score').textContent = '';
    line.textContent = e.error;
    line.classList.add('flash');
    return;
  }
  if (e.over) {
    $('eval-score').textContent = '';
    line.textContent = `Nothing to search: ${e.over}.`;
    return;
  }
  $('eval-score').textContent = `${scoreText(e.score)} (depth ${e.depth})`;
  line.textContent = e.pv && e.pv.length > 1 ? `Best: ${e.best}. Line: ${e.pv.join(' ')}` : e.best ? `Best: ${e.best}` : '';
}

async function evaluate() {
  const id = cur;
  const btn = $('evaluate');
  btn.disabled = true;
  $('eval-score').textContent = 'Thinking…';
  $('eval-line').textContent = '';
  const moves = pathTo(id).map((i) => node(i).uci);
  const { status, json } = await post('/api/engine/eval', { fen: tree.start, moves });
  btn.disabled = false;
  if (status === 200) evals.set(id, json);
  else evals.set(id, { error: json.error ? json.error.message : `the server answered ${status}` });
  if (cur === id) renderEval();
  else $('eval-score').textContent = '';
}

// ---- export ----

async function exportPgn() {
  const evs = [];
  for (const [id, e] of evals) if (e.score && id > 0) evs.push({ node: id, score: e.score, depth: e.depth, best: e.best, pv: e.pv });
  const body = { ...source, rules: tree.rules, add: adds, evals: evs, laws: $('export-laws').checked };
  const { status, json } = await post('/api/analysis/pgn', body);
  if (status !== 200) {
    flash(json.error ? json.error.message : `the server answered ${status}`);
    return;
  }
  const out = $('pgn-out');
  out.value = json.pgn;
  out.classList.remove('hidden');
  const url = URL.createObjectURL(new Blob([json.pgn], { type: 'application/x-chess-pgn' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'analysis.pgn';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  setData('exported', json.pgn.length);
}

// ---- start ----

function keys(e) {
  if (!tree || e.target.closest('textarea, input, select')) return;
  const n = node(cur);
  let to = null;
  if (e.key === 'ArrowLeft' && n.parent !== null) to = n.parent;
  else if (e.key === 'ArrowRight' && n.children.length) to = n.children[0];
  else if (e.key === 'ArrowUp' || e.key === 'Home') to = 0;
  else if (e.key === 'ArrowDown' || e.key === 'End') to = lineEnd(cur);
  else if (e.key === 'f') {
    orientation = orientation === 'white' ? 'black' : 'white';
    to = cur;
  } else return;
  e.preventDefault();
  go(to);
}

async function start() {
  rules = await wasm();
  const s = loadSettings();
  document.body.classList.add(`theme-${s.board}`, `pieces-${s.pieces}`);
  board = new Board($('board'), {
    move: (uci) => addMove(uci),
    premove: () => {},
    unpremove: () => {},
    takeBack: () => go(cur),
  });
  board.autoQueen = s.autoQueen;
  $('first').addEventListener('click', () => tree && go(0));
  $('prev').addEventListener('click', () => tree && node(cur).parent !== null && go(node(cur).parent));
  $('next').addEventListener('click', () => tree && node(cur).children.length && go(node(cur).children[0]));
  $('last').addEventListener('click', () => tree && go(lineEnd(cur)));
  $('flip').addEventListener('click', () => {
    orientation = orientation === 'white' ? 'black' : 'white';
    if (tree) go(cur);
  });
  $('analyse').addEventListener('click', () => {
    const text = $('paste').value;
    if (!text.trim()) return showError('Paste a PGN or a FEN first.');
    analyse({ text }, '');
  });
  $('new-board').addEventListener('click', () => analyse({ moves: [] }, ''));
  $('evaluate').addEventListener('click', evaluate);
  $('export-pgn').addEventListener('click', exportPgn);
  document.addEventListener('keydown', keys);
  const q = new URLSearchParams(location.search);
  if (q.get('game')) openGame(q.get('game'));
  else if (q.get('fen')) analyse({ text: q.get('fen') }, '');
  else analyse({ moves: [] }, '');
}

start();
