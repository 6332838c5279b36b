// Arbiter's page — GPL-3.0-or-later, see /source.html.
//
// lobby.js: making a game — a time control (a preset or custom), the rules, a colour, the
// variant — with POST /api/games, then the seat links to open and to send.

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

async function make(e) {
  e.preventDefault();
  $('create-error').textContent = '';
  const variant = choice($('variants'), 'variant');
  const body = {
    rules: document.querySelector('input[name=rules]:checked').value,
    color: choice($('colors'), 'color'),
    chess960: variant === 'chess960',
  };
  if (variant === 'position' && $('fen').value.trim()) body.fen = $('fen').value.trim();
  if (control === 'custom') body.control = customControl();
  else if (control !== 'none') body.control = control;
  $('make').disabled = true;
  try {
    const res = await fetch('/api/games', { method: 'POST', body: JSON.stringify(body) });
    const a = await res.json();
    if (!res.ok) throw new Error(a.error ? a.error.message : `the server said ${res.status}`);
    const abs = (p) => new URL(p, location.href).href;
    $('you').value = abs(a.you);
    $('you-color').textContent = a.color;
    $('open-you').href = a.you;
    $('opponent').value = abs(a.opponent);
    $('spectator').value = abs(a.spectator);
    $('made').classList.remove('hidden');
    $('create').classList.add('hidden');
    window.scrollTo(0, 0);
  } catch (err) {
    $('create-error').textContent = `The game could not be made: ${err.message}`;
  } finally {
    $('make').disabled = false;
  }
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
}

init();
