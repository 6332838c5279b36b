// Arbiter's page — GPL-3.0-or-later, see /source.html.
//
// game.js: the game page's controller.  The server (arbiter serve) sends the whole game with
// every update; this file shows it — board, clocks, moves, offers, claims, the result in words
// — and sends what the player does.  The legal moves, the claims a player may make and the
// reason a game ended all come from the server, the only authority in a game; the page asks
// the rules module (rules.js) one thing only, while the opponent thinks: where a premove may
// go — every move of the player's that is legal after at least one reply of the opponent's.
//
// For tests the page writes what it shows on <body> (data-status, data-ply, data-turn,
// data-seat, data-result, data-version, data-sent): read-only, nothing can be played through
// them.

import { Board } from './board.js';
import { Clocks } from './clock.js';
import { loadSettings, saveSettings, cleanName } from './settings.js';
import { Socket } from './socket.js';
import { play as playSound } from './sound.js';
import { wasm, counted } from './rules.js';

const $ = (id) => document.getElementById(id);
const other = (c) => (c === 'white' ? 'black' : 'white');
const Cap = (c) => c[0].toUpperCase() + c.slice(1);
const CLAIM_WORDS = { threefold: 'threefold repetition', fifty: 'the 50-move rule' };

const gameId = location.pathname.split('/')[2] || '';
const token = location.hash.slice(1) || null;

let game = null;        // the latest game object from the server
let seat = null;        // 'white', 'black', or null for a spectator
let flipped = false;
let viewPly = null;     // null: live; else the ply looked at
let history = null;     // {fen: [], uci: [], san: []} from /api/games/ID/history
let pending = null;     // the move sent and not yet answered {id, uci}
let nextId = Date.now(); // move ids stay unique across reloads
let spectators = 0;     // connections watching, from the server's presence messages
let offset = 0;         // server time - performance.now(), from the latest state
let dead = false;       // the link leads to no game or no seat: the notice is shown
const settings = loadSettings();
let rules = null;       // the rules module, once loaded (premove destinations)
const premoveCache = { fen: null, dests: undefined };

const clocks = new Clocks({});
const board = new Board($('board'), {
  move: (uci) => (settings.confirm ? confirmMove(uci) : sendMove({ uci })),
  takeBack: () => redraw(),
  premove: (uci) => socket.raw({ t: 'premove', uci }),
  unpremove: () => socket.raw({ t: 'cancel_premove' }),
});

function flash(text, kind) {
  $('flash').textContent = text || '';
  $('flash').dataset.kind = kind || '';
}

function sendMove(move) {
  const id = nextId++;
  pending = { id, ...move };
  flash('');
  if (!socket.raw({ t: 'move', ...move, id, lag: socket.lag })) flash('Not connected: the move will be sent when the connection is back.', 'offline');
}

function confirmMove(uci) {
  // the move in SAN, as the server lists the legal moves (the page knows no rules)
  const san = game && game.san && (game.san[uci] || game.san[uci.slice(0, 4)]);
  $('confirm-text').textContent = `Play ${san || uci.slice(0, 2) + '–' + uci.slice(2, 4)}?`;
  $('confirm').classList.remove('hidden');
  $('confirm-yes').onclick = () => {
    $('confirm').classList.add('hidden');
    sendMove({ uci });
  };
  $('confirm-no').onclick = () => {
    $('confirm').classList.add('hidden');
    redraw();
  };
}

// ---- what the server says ----

function onMessage(m) {
  if (dead) return; // the notice stays: what was still on its way is not shown
  if (m.missed) {
    // an update missed while the connection was down: the state that follows has the game
  } else if (m.t === 'state' || m.t === 'update') {
    if (m.ack !== undefined && pending && m.ack === pending.id) pending = null;
    const before = game;
    apply(m.game);
    if (m.t === 'update') hear(m.event, before, m.game);
    if (m.t === 'update' && m.event.kind === 'move' && m.event.premove && m.event.by === seat) board.clearPremove();
    if (before && !m.game.premove && before.premove) board.clearPremove();
  } else if (m.t === 'error' && (m.code === 'no_game' || (m.code === 'bad_message' && !game))) {
    deadLink('No such game', `There is no game at this address (${gameId ? '“' + gameId + '”' : 'no id'}): the link may be mistyped, cut short, or the game was never started and has expired.`);
  } else if (m.t === 'error' && m.code === 'bad_token') {
    deadLink('This link is not a seat of this game', 'The part after # in the link does not match either player of this game: it may have been cut short or changed. Ask for the link again, or watch the game.', true);
  } else if (m.t === 'error') {
    if (pending && m.id === pending.id) {
      pending = null;
      redraw(); // the piece goes back where the server says it is
    }
    flash(m.message);
  } else if (m.t === 'ack') {
    if (pending && m.id === pending.id) pending = null;
  } else if (m.t === 'premove') {
    if (!m.uci) board.clearPremove();
    if (m.dropped) flash('Your premove could not be played: the position had changed.');
  } else if (m.t === 'players') {
    spectators = m.spectators || 0;
    if (!game) return;
    game.players = { ...game.players, white: { ...game.players.white, ...m.white }, black: { ...game.players.black, ...m.black } };
    showPlayers();
  } else if (m.t === 'rematch') {
    location.href = m.url; // the new game, this seat's link
  }
}

function onStatus(s) {
  const el = $('conn');
  el.className = `conn ${s}`;
  el.textContent = s === 'online' ? 'connected' : s === 'offline' ? 'reconnecting…' : 'connecting';
  if (s === 'online' && $('flash').dataset.kind === 'offline') flash('');
  // a move sent while the connection was down goes again (the server answers a resend, never
  // plays it twice)
  if (s === 'online' && pending) setTimeout(() => pending && socket.raw({ t: 'move', ...pending, lag: socket.lag }), 50);
}

const socket = new Socket(gameId, token, onMessage, onStatus);
socket.name = cleanName(settings.name);

// A link that leads nowhere: a page that says so instead of a board that looks playable.
function deadLink(title, text, watch) {
  dead = true;
  socket.close();
  $('game').classList.add('hidden');
  $('conn').classList.add('hidden'); // nothing to be connected to
  $('notice').classList.remove('hidden');
  $('notice-title').textContent = title;
  $('notice-text').textContent = text;
  $('notice-watch').classList.toggle('hidden', !watch);
  $('notice-watch').href = `/game/${gameId}`;
  $('notice-watch').onclick = () => setTimeout(() => location.reload(), 0);
  document.title = `Arbiter — ${title}`;
  document.body.dataset.status = 'nogame';
}

// What an update says to hear or read: sounds, a declined offer told to the one who made it.
function hear(ev, before, g) {
  if (!ev) return;
  if (ev.kind === 'move') {
    const captured = before && count(before.fen) > count(g.fen);
    playSound(g.status === 'over' ? 'end' : g.check ? 'check' : captured ? 'capture' : 'move', settings.sound);
  } else if (g.status === 'over' && before && before.status !== 'over') {
    playSound('end', settings.sound);
  }
  if (ev.kind === 'decline_draw' && seat && ev.by === other(seat)) flash(`${Cap(ev.by)} declined your draw offer.`);
  if (ev.kind === 'away' && seat && ev.by === other(seat)) flash('');
}

const count = (fen) => fen.split(' ')[0].replace(/[^a-zA-Z]/g, '').length;

// ---- showing the game ----

function apply(g) {
  game = g;
  seat = g.seat === 'spectator' ? null : g.seat;
  // the server keeps the seat's always-queen setting; tell it when it differs (a reload, a
  // restarted server)
  if (seat && g.auto_queen !== settings.autoQueen) socket.raw({ t: 'settings', auto_queen: settings.autoQueen });
  if (history && history.fen.length - 1 !== g.ply) history = null;
  if (viewPly !== null && viewPly >= g.ply) viewPly = null;
  document.title = g.status === 'over' ? `Arbiter — ${g.result === '*' ? 'no result' : g.result} · ${g.reason}`
    : g.status === 'waiting' ? 'Arbiter — waiting for the players' : `Arbiter — ${seat && g.turn === seat ? 'your move' : Cap(g.turn) + ' to move'}`;
  offset = g.server_ms - performance.now();
  $('title').textContent = `${ruleName(g.rules)} · ${g.control || 'untimed'}${g.chess960 ? ' · Chess960' : ''}`;
  redraw();
  clocks.set(g.clock, g.status === 'ongoing');
  showMoves();
  showPlayers();
  showStatus();
  showActions();
  tickCountdowns();
  const b = document.body.dataset;
  b.status = g.status;
  b.ply = String(g.ply);
  b.turn = g.turn;
  b.seat = g.seat;
  b.result = g.result;
  b.termination = g.termination;
  b.version = String(socket.version);
}

function ruleName(r) {
  return { online: 'Online', fide: 'FIDE', 'fide-rapid': 'FIDE rapid', 'fide-blitz': 'FIDE blitz', uscf: 'US Chess', casual: 'Casual' }[r] || r;
}

function orientation() {
  const base = seat || 'white';
  return flipped ? other(base) : base;
}

// The board: live (with the moves the seat may make) or a position looked back at.
function redraw() {
  if (!game) return;
  const bottom = orientation();
  clocks.setElements({ [bottom]: $('bottom-clock'), [other(bottom)]: $('top-clock') });
  if (viewPly !== null && history) {
    board.show({
      fen: history.fen[viewPly], turn: viewPly % 2 === 0 ? firstTurn() : other(firstTurn()),
      lastMove: viewPly ? history.uci[viewPly - 1] : null, check: false,
      orientation: bottom, movable: undefined, viewOnly: true, premoves: false,
    });
    return;
  }
  const live = game.status === 'ongoing';
  const premoves = settings.premoves && live;
  board.autoQueen = settings.autoQueen;
  board.show({
    fen: game.fen, turn: game.turn, lastMove: game.last_move, check: game.check,
    orientation: bottom,
    movable: live && seat ? seat : undefined,
    dests: live && seat === game.turn ? game.dests : undefined,
    premoves,
    premoveDests: premoves && seat && seat !== game.turn ? premoveDests() : undefined,
    viewOnly: !seat || !live,
  });
}

// Where the seat's premoves may go in the game's position (rules.js), once per position;
// undefined without the module (chessground then guesses from the pieces' moves).
function premoveDests() {
  if (!rules) return undefined;
  if (premoveCache.fen !== game.fen) {
    let c = null;
    try {
      c = new rules.Chess(game.fen, { chess960: !!game.chess960, lenient: true });
      premoveCache.dests = counted(c.premoveDests());
    } catch (e) {
      premoveCache.dests = undefined;
      console.warn(`premove destinations: ${e.message}`);
    } finally {
      if (c) c.free();
    }
    premoveCache.fen = game.fen;
  }
  return premoveCache.dests;
}

function firstTurn() {
  return game.initial_fen.split(' ')[1] === 'b' ? 'black' : 'white';
}

function showPlayers() {
  const bottom = orientation(), top = other(bottom);
  const name = (c) => {
    const p = game.players[c] || {};
    return `${p.name ? p.name + ' · ' : ''}${Cap(c)}${seat === c ? ' (you)' : ''}`;
  };
  $('bottom-name').textContent = name(bottom);
  $('top-name').textContent = name(top);
  $('bottom-dot').className = `dot${game.players[bottom].connected ? ' on' : ''}`;
  $('top-dot').className = `dot${game.players[top].connected ? ' on' : ''}`;
  const dot = (c) => (game.players[c].connected ? 'connected' : 'not connected');
  $('bottom-dot').title = dot(bottom);
  $('top-dot').title = dot(top);
  // the material each side has taken more of, beside its name (lichess's way: the difference)
  const mat = material(game.fen);
  $('bottom-material').textContent = mat[bottom];
  $('top-material').textContent = mat[top];
  // spectators: a label and how many watch
  const w = $('watching');
  w.classList.toggle('hidden', !!seat && spectators === 0);
  $('watching-label').textContent = seat ? '' : 'You are watching.';
  $('spectators').textContent = spectators ? `${spectators} watching` : '';
  document.body.dataset.spectators = String(spectators);
}

// {white: "♟♟ +2", black: ""}: for each kind of piece, what one side has more of than the
// other (captures, less the other's), and the points ahead (1, 3, 3, 5, 9).
function material(fen) {
  const board = fen.split(' ')[0];
  const n = { white: {}, black: {} };
  for (const ch of board) {
    if (!/[pnbrqk]/i.test(ch)) continue;
    const c = ch === ch.toUpperCase() ? 'white' : 'black', k = ch.toLowerCase();
    n[c][k] = (n[c][k] || 0) + 1;
  }
  const glyph = { q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' }, value = { q: 9, r: 5, b: 3, n: 3, p: 1 };
  const out = { white: '', black: '' };
  let score = 0;
  for (const k of ['q', 'r', 'b', 'n', 'p']) {
    const d = (n.white[k] || 0) - (n.black[k] || 0);
    score += d * value[k];
    if (d > 0) out.white += glyph[k].repeat(d);
    if (d < 0) out.black += glyph[k].repeat(-d);
  }
  if (score > 0) out.white += ` +${score}`;
  if (score < 0) out.black += ` +${-score}`;
  return out;
}

// Seconds until a server time, as the page counts them now.
const secondsTo = (serverMs) => Math.max(0, Math.ceil((serverMs - (performance.now() + offset)) / 1000));

// The countdowns: the first move, a player who left.  Every quarter second.
let lowSounded = false;
function tickCountdowns() {
  if (!game || dead) return;
  const fm = game.status === 'ongoing' && game.first_move;
  const el = $('first-move');
  if (el) {
    el.classList.toggle('hidden', !fm);
    if (fm) {
      const left = secondsTo(fm.by);
      const who = seat === fm.side ? 'You have' : `${Cap(fm.side)} has`;
      el.textContent = `${who} ${left} s to make a first move, or the game is aborted.`;
      el.classList.toggle('urgent', left <= 10);
      document.body.dataset.firstMove = String(left);
    }
  }
  const aw = game.status === 'ongoing' ? game.away : null;
  $('away').classList.toggle('hidden', !aw);
  if (aw) {
    const me = seat && aw.side !== seat;
    const waitS = aw.claim_at === null ? null : secondsTo(aw.claim_at);
    let text = `${Cap(aw.side)} left the game.`;
    if (me && aw.claim_at !== null)
      text += waitS > 0 ? ` If they do not come back, you can claim the ${aw.claim_result === '1/2-1/2' ? 'draw' : 'win'} in ${waitS} s.` : '';
    else if (me) text += ' Waiting for them to come back.';
    $('away-text').textContent = text;
    const claim = $('claim-abandoned');
    claim.classList.toggle('hidden', !(me && aw.claim_at !== null && waitS === 0));
    claim.textContent = aw.claim_result === '1/2-1/2' ? 'Claim a draw' : 'Claim the win';
  }
  // low time: once, when the player's own running clock passes under ten seconds
  if (seat && game.status === 'ongoing' && game.clock && game.clock.running === seat) {
    const ms = clocks.remaining(seat);
    if (ms !== null && ms < 10000 && !lowSounded) {
      lowSounded = true;
      playSound('low', settings.sound);
    }
    if (ms !== null && ms >= 10000) lowSounded = false;
  }
}
setInterval(tickCountdowns, 250);

function showMoves() {
  const box = $('moves');
  box.replaceChildren();
  const black = firstTurn() === 'black';
  const start = Number(game.initial_fen.split(' ')[5] || 1);
  const cells = black ? ['…', ...game.moves] : game.moves;
  for (let i = 0; i < cells.length; i += 2) {
    const no = document.createElement('span');
    no.className = 'no';
    no.textContent = `${start + i / 2}.`;
    box.append(no);
    for (let k = i; k < i + 2; k++) {
      const cell = document.createElement('span');
      if (k < cells.length) {
        const ply = black ? k : k + 1; // the ply this move makes
        cell.className = 'mv';
        cell.textContent = cells[k];
        if (cells[k] !== '…') {
          cell.dataset.ply = String(ply);
          cell.addEventListener('click', () => look(ply));
        }
        if ((viewPly === null ? game.ply : viewPly) === ply) cell.classList.add('current');
      }
      box.append(cell);
    }
  }
  if (viewPly === null) box.scrollTop = box.scrollHeight;
}

function showStatus() {
  const st = $('status');
  st.replaceChildren();
  st.className = 'status';
  const line = (cls, text) => {
    const s = document.createElement('span');
    s.className = cls;
    s.textContent = text;
    st.append(s);
  };
  if (game.status === 'waiting') {
    line('', seat ? 'Waiting for your opponent to open their link.' : 'Waiting for the players.');

  } else if (game.status === 'over') {
    st.classList.add('over');
    line('result', game.result === '*' ? 'No result' : game.result);
    line('', game.reason);
  } else {
    const mine = seat && game.turn === seat;
    line('', `${mine ? 'Your move' : Cap(game.turn) + ' to move'}${game.check ? ' — check' : ''}`);
    const fm = document.createElement('span');
    fm.className = 'note first-move hidden';
    fm.id = 'first-move';
    st.append(fm);
    if (game.must_play) line('note', `After the wrong claim, ${game.must_play} must be played (FIDE 9.5).`);
    if (viewPly !== null && history)
      line('note', `Looking back: ${viewPly ? 'after ' + history.san[viewPly - 1] : 'the starting position'}. » or End returns to the game.`);
  }
}

function showActions() {
  const live = game.status === 'ongoing', over = game.status === 'over';
  const me = seat, opp = me && other(me);
  const show = (id, on) => $(id).classList.toggle('hidden', !on);
  show('actions', true);
  for (const id of ['draw', 'abort', 'resign']) if (!me) show(id, false);
  show('analyse', over);
  $('analyse').href = `/analysis?game=${gameId}`;
  show('typed', !!me && live);
  if (me) show('draw', live);
  $('draw').disabled = game.draw_offer === me;
  $('draw').textContent = game.draw_offer === me ? 'Draw offered' : 'Offer a draw';
  if (me) show('abort', live && game.abortable);
  if (me) show('resign', live && !game.abortable && $('resign-confirm').classList.contains('hidden'));
  if (!live) show('resign-confirm', false);
  show('rematch', over && !!me);
  $('rematch').disabled = game.rematch.offer === me;
  $('rematch').textContent = game.rematch.offer === opp ? 'Accept the rematch'
    : game.rematch.offer === me ? 'Rematch offered' : 'Rematch';
  $('pgn').href = `/api/games/${gameId}.pgn`;
  $('pgn').setAttribute('download', `arbiter-${gameId}.pgn`);
  // the opponent's offer
  show('offer', live && !!me && game.draw_offer === opp);
  $('offer-text').textContent = `${Cap(opp || 'white')} offers a draw.`;
  // claims the side to move may make now, as the server lists them
  const box = $('claims');
  box.replaceChildren();
  if (live && me === game.turn)
    for (const c of game.claim_options || []) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'btn primary';
      b.textContent = c.uci ? `Claim a draw with ${c.san} (${CLAIM_WORDS[c.reason]})` : `Claim a draw (${CLAIM_WORDS[c.reason]})`;
      b.addEventListener('click', () => {
        const msg = { t: 'claim_draw', reason: c.reason };
        if (c.uci) msg.uci = c.uci;
        socket.raw(msg);
      });
      box.append(b);
    }
}

// ---- looking back ----

async function look(ply) {
  if (!game) return;
  ply = Math.max(0, Math.min(ply, game.ply));
  if (ply === game.ply) {
    viewPly = null;
  } else {
    if (!history) {
      const res = await fetch(`/api/games/${gameId}/history`);
      history = await res.json();
    }
    viewPly = ply;
  }
  redraw();
  showMoves();
  showStatus();
}

// ---- the player's actions ----

function bind() {
  $('flip').addEventListener('click', () => {
    flipped = !flipped;
    redraw();
    showPlayers();
  });
  $('first').addEventListener('click', () => look(0));
  $('prev').addEventListener('click', () => look((viewPly === null ? game.ply : viewPly) - 1));
  $('next').addEventListener('click', () => look((viewPly === null ? game.ply : viewPly) + 1));
  $('last').addEventListener('click', () => look(game.ply));
  document.addEventListener('keydown', (e) => {
    if (!game || e.target.tagName === 'INPUT') return;
    const at = viewPly === null ? game.ply : viewPly;
    if (e.key === 'ArrowLeft') look(at - 1);
    else if (e.key === 'ArrowRight') look(at + 1);
    else if (e.key === 'Home') look(0);
    else if (e.key === 'End') look(game.ply);
    else return;
    e.preventDefault();
  });
  $('draw').addEventListener('click', () => socket.raw({ t: 'offer_draw' }));
  $('claim-abandoned').addEventListener('click', () => socket.raw({ t: 'claim_abandoned' }));
  $('accept').addEventListener('click', () => socket.raw({ t: 'accept_draw' }));
  $('decline').addEventListener('click', () => socket.raw({ t: 'decline_draw' }));
  $('abort').addEventListener('click', () => socket.raw({ t: 'abort' }));
  $('resign').addEventListener('click', () => {
    $('resign').classList.add('hidden');
    $('resign-confirm').classList.remove('hidden');
  });
  $('resign-no').addEventListener('click', () => {
    $('resign-confirm').classList.add('hidden');
    showActions();
  });
  $('resign-yes').addEventListener('click', () => {
    $('resign-confirm').classList.add('hidden');
    socket.raw({ t: 'resign' });
  });
  $('rematch').addEventListener('click', () => socket.raw({ t: 'rematch' }));
  $('typed').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('typed-move').value.trim();
    if (!text) return;
    $('typed-move').value = '';
    sendMove({ san: text });
  });
  // settings
  const apply = () => {
    const wrap = $('board-wrap');
    wrap.className = `board-wrap theme-${settings.board} pieces-${settings.pieces}`;
    board.autoQueen = settings.autoQueen;
    board.setCoordinates(settings.coords);
  };
  $('set-queen').checked = settings.autoQueen;
  $('set-premoves').checked = settings.premoves;
  $('set-confirm').checked = settings.confirm;
  $('set-board').value = settings.board;
  $('set-pieces').value = settings.pieces;
  $('set-sound').checked = settings.sound;
  $('set-coords').checked = settings.coords;
  $('set-name').value = settings.name;
  $('open-settings').addEventListener('click', () => $('settings').classList.remove('hidden'));
  $('close-settings').addEventListener('click', () => $('settings').classList.add('hidden'));
  $('settings').addEventListener('change', () => {
    const queen = $('set-queen').checked;
    const changed = queen !== settings.autoQueen;
    Object.assign(settings, {
      autoQueen: queen, premoves: $('set-premoves').checked, confirm: $('set-confirm').checked,
      board: $('set-board').value, pieces: $('set-pieces').value,
      sound: $('set-sound').checked, coords: $('set-coords').checked, name: cleanName($('set-name').value),
    });
    socket.name = settings.name; // said in the next hello (the server keeps a seat's first)
    saveSettings(settings);
    apply();
    if (changed && seat) socket.raw({ t: 'settings', auto_queen: queen });
    redraw();
  });
  apply();
}

bind();
wasm().then((m) => {
  rules = m;
  if (m) redraw();
});
