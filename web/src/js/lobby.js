// Arbiter's page — GPL-3.0-or-later, see /source.html.
//
// lobby.js: the lobby — a game against the computer (GET /api/computer for its levels, or how
// to get an engine), the open games anyone may join and the games in progress (GET /api/lobby,
// every few seconds), and making a game for a friend or for anyone — a time control (a preset
// or custom), the rules, a colour, the variant — with POST /api/games, then the seat links to
// open (in a new tab, so that they stay here) and to send, and a Cancel.

const PRESETS = [
  ['1+0', 'Bullet'], ['2+1', 'Bullet'], ['3+0', 'Blitz'], ['3+2', 'Blitz'], ['5+0', 'Blitz'],
  ['5+3', 'Blitz'], ['10+0', 'Rapid'], ['10+5', 'Rapid'], ['15+10', 'Rapid'],
  ['30+0', 'Classical'], ['30+20', 'Classical'], ['custom', 'Custom'], ['none', 'Untimed'],
];

export const RULES = [
  ['online', 'Online', 'As on lichess: the server declares threefold repetition and the 50-move rule itself, the first move of each side is free, a flag falls the moment the time runs out.'],
  ['fide', 'FIDE', 'The Laws of Chess: threefold and 50 moves are claimed by the player on move (a wrong claim gives the opponent 2 minutes); fivefold and 75 moves end the game.'],
  ['fide-rapid', 'FIDE rapid', 'Appendix A: as FIDE, but a wrong claim costs 1 minute.'],
  ['fide-blitz', 'FIDE blitz', 'Appendix B: as FIDE, but a wrong claim costs 1 minute.'],
  ['uscf', 'US Chess', 'Claims as FIDE; fivefold and 75 moves are only reported (the director decides); a lone minor piece cannot win on time.'],
  ['casual', 'Casual', 'Friendly play: FIDE’s automatic draws, claims without penalties.'],
];

const $ = (id) => document.getElementById(id);
let control = '5+3';

function pressed(group, el) {
  for (const b of group.querySelectorAll('button')) b.setAttribute('aria-pressed', b === el ? 'true' : 'false');
}

function presets() {
  const box = $('presets');
  for (const [tc, speed] of PRESETS) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'btn preset';
    b.dataset.tc = tc;
    b.innerHTML = `<span class="tc"></span><span class="speed"></span>`;
    b.querySelector('.tc').textContent = tc === 'custom' ? '…' : tc === 'none' ? '∞' : tc;
    b.querySelector('.speed').textContent = speed;
    b.setAttribute('aria-pressed', tc === control ? 'true' : 'false');
    b.addEventListener('click', () => {
      control = tc;
      pressed(box, b);
      $('custom').classList.toggle('hidden', tc !== 'custom');
    });
    box.append(b);
  }
  $('custom').classList.add('hidden');
}

function rules() {
  const box = $('rules');
  for (const [id, name, what] of RULES) {
    const l = document.createElement('label');
    l.className = 'rule';
    l.innerHTML = `<input type="radio" name="rules"><div><b></b><span></span></div>`;
    l.querySelector('input').value = id;
    l.querySelector('input').checked = id === 'online';
    l.querySelector('b').textContent = name;
    l.querySelector('span').textContent = what;
    box.append(l);
  }
}

// The control in the server's human grammar, with units: "5m+3s", "30s", "90m d5s", or the
// periods as typed ("40/90+30,30+30").
function customControl() {
  const periods = $('periods').value.trim();
  if (periods) return periods;
  const secs = Math.round(Number($('minutes').value) * 60);
  const inc = Number($('increment').value), d = Number($('delay').value);
  let text = secs % 60 ? `${secs}s` : `${secs / 60}m`;
  if (inc > 0) text += `+${inc}s`;
  if (d > 0) text += ` d${d}s`;
  return text;
}

function choice(group, attr) {
  return group.querySelector('[aria-pressed="true"]').dataset[attr];
}

const RULE_NAME = Object.fromEntries(RULES.map(([id, name]) => [id, name]));
const VARIANT_NAME = { standard: 'standard chess', chess960: 'Chess960', position: 'from a position' };

async function post(path, body) {
  const res = await fetch(path, { method: 'POST', body: JSON.stringify(body) });
  const a = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(a.error ? a.error.message : `the server said ${res.status}`);
  return a;
}

// "10+5 · FIDE rules · standard chess · you play White"
function restate(a, variant) {
  const control = a.control ? a.control : 'untimed';
  const color = a.color === 'white' ? 'White' : 'Black';
  return `${control} · ${RULE_NAME[a.rules] || a.rules} rules · ${VARIANT_NAME[variant]} · you play ${color}`;
}

let made = null; // the game on the ready card: {id, token}

async function make(e, open = false) {
  if (e) e.preventDefault();
  $('create-error').textContent = '';
  const variant = choice($('variants'), 'variant');
  const body = {
    rules: document.querySelector('input[name=rules]:checked').value,
    color: choice($('colors'), 'color'),
    chess960: variant === 'chess960',
  };
  if (variant === 'position') {
    const fen = $('fen').value.trim();
    if (!fen) {
      $('create-error').textContent = 'Paste the starting position (its FEN) first, or choose Standard.';
      $('fen').focus();
      return;
    }
    body.fen = fen;
  }
  if (control === 'custom') body.control = customControl();
  else if (control !== 'none') body.control = control;
  if (open) body.open = true;
  $('make').disabled = $('make-open').disabled = true;
  try {
    const a = await post('/api/games', body);
    if (open) {
      // the maker waits on the seat's page; the game is listed while it is open there
      location.href = a.you;
      return;
    }
    const abs = (p) => new URL(p, location.href).href;
    made = { id: a.id, token: a.you.split('#')[1] };
    $('restate').textContent = restate(a, variant);
    $('you').value = abs(a.you);
    $('you-color').textContent = a.color;
    $('open-you').href = a.you;
    $('opponent').value = abs(a.opponent);
    $('spectator').value = abs(a.spectator);
    $('cancelled').textContent = '';
    $('cancel').disabled = false;
    $('made').classList.remove('hidden');
    $('create').classList.add('hidden');
    $('made').scrollIntoView({ block: 'start' });
  } catch (err) {
    $('create-error').textContent = `The game could not be made: ${err.message}`;
  } finally {
    $('make').disabled = $('make-open').disabled = false;
  }
}

async function cancel() {
  if (!made) return;
  $('cancel').disabled = true;
  try {
    await post(`/api/games/${made.id}/cancel`, { token: made.token });
    $('cancelled').textContent = 'Cancelled: the links now show an aborted game.';
  } catch (err) {
    $('cancelled').textContent = `Not cancelled: ${err.message}`;
    $('cancel').disabled = false;
  }
}

// ---- the computer ----

let level = 1;
let levels = [];

async function computer() {
  const sel = $('comp-rules');
  for (const [id, name] of RULES) {
    const o = document.createElement('option');
    o.value = id;
    o.textContent = name;
    sel.append(o);
  }
  let info;
  try {
    info = await (await fetch('/api/computer')).json();
  } catch {
    info = { engine: null, how: 'The server did not answer.' };
  }
  if (!info.engine) {
    $('no-engine').textContent = info.how;
    $('no-engine').classList.remove('hidden');
    $('computer-form').classList.add('hidden');
    return;
  }
  levels = info.levels;
  const box = $('levels');
  for (const l of levels) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'btn';
    b.dataset.level = l.level;
    b.textContent = l.level;
    b.title = `Level ${l.level}: ${l.what}`;
    b.setAttribute('aria-pressed', l.level === level ? 'true' : 'false');
    b.addEventListener('click', () => {
      level = l.level;
      pressed(box, b);
      describe();
    });
    box.append(b);
  }
  describe();
  for (const b of $('comp-colors').querySelectorAll('button'))
    b.addEventListener('click', () => pressed($('comp-colors'), b));
  $('play-computer').addEventListener('click', playComputer);
}

function describe() {
  const l = levels.find((x) => x.level === level);
  $('level-what').textContent = l ? `Level ${l.level}: ${l.what} (about ${l.elo}).` : '';
}

async function playComputer() {
  $('computer-error').textContent = '';
  const body = { opponent: 'computer', level, rules: $('comp-rules').value, color: choice($('comp-colors'), 'color') };
  const c = $('comp-control').value;
  if (c !== 'none') body.control = c;
  $('play-computer').disabled = true;
  try {
    const a = await post('/api/games', body);
    location.href = a.you;
  } catch (err) {
    $('computer-error').textContent = `The game could not be made: ${err.message}`;
    $('play-computer').disabled = false;
  }
}

// ---- the lists ----

function cell(tr, text) {
  const td = document.createElement('td');
  td.textContent = text;
  tr.append(td);
  return td;
}

function fill(table, empty, rows, render) {
  const body = table.querySelector('tbody');
  body.replaceChildren();
  for (const r of rows) body.append(render(r));
  table.classList.toggle('has-rows', rows.length > 0);
  empty.classList.toggle('hidden', rows.length > 0);
}

async function join(id) {
  $('join-error').textContent = '';
  try {
    const a = await post(`/api/games/${id}/join`, {});
    location.href = a.you;
  } catch (err) {
    $('join-error').textContent = `Not joined: ${err.message}`;
    refresh();
  }
}

async function refresh() {
  let l;
  try {
    l = await (await fetch('/api/lobby')).json();
  } catch {
    return;
  }
  fill($('open-games'), $('no-open'), l.open, (g) => {
    const tr = document.createElement('tr');
    tr.dataset.game = g.id;
    cell(tr, g.control || 'untimed');
    cell(tr, RULE_NAME[g.rules] || g.rules);
    cell(tr, VARIANT_NAME[g.variant]);
    cell(tr, g.color === 'white' ? 'White' : 'Black');
    const b = document.createElement('button');
    b.className = 'btn primary small';
    b.textContent = 'Join';
    b.addEventListener('click', () => join(g.id));
    cell(tr, '').append(b);
    return tr;
  });
  fill($('playing-games'), $('no-playing'), l.playing, (g) => {
    const tr = document.createElement('tr');
    tr.dataset.game = g.id;
    cell(tr, g.white);
    cell(tr, g.black);
    cell(tr, g.control || 'untimed');
    cell(tr, String(Math.ceil(g.ply / 2)));
    const a = document.createElement('a');
    a.className = 'btn small';
    a.textContent = 'Watch';
    a.href = g.url;
    cell(tr, '').append(a);
    return tr;
  });
}

function init() {
  presets();
  rules();
  for (const group of [$('colors'), $('variants')])
    for (const b of group.querySelectorAll('button')) b.addEventListener('click', () => pressed(group, b));
  for (const b of document.querySelectorAll('[data-copy]'))
    b.addEventListener('click', async () => {
      const input = $(b.dataset.copy);
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
        b.textContent = 'Copied';
      } catch {
        b.textContent = 'Select and copy';
      }
    });
  $('variants').addEventListener('click', () =>
    $('position').classList.toggle('hidden', choice($('variants'), 'variant') !== 'position'));
  $('another').addEventListener('click', () => {
    $('made').classList.add('hidden');
    $('create').classList.remove('hidden');
  });
  $('create').addEventListener('submit', make);
  $('make-open').addEventListener('click', () => make(null, true));
  $('cancel').addEventListener('click', cancel);
  computer();
  refresh();
  // the lists are polled while they are what the person looks at: not in a hidden tab, nor
  // while the ready card waits for a friend (then the seat is open in another tab)
  setInterval(() => {
    if (!document.hidden && $('made').classList.contains('hidden')) refresh();
  }, 3000);
}

init();
