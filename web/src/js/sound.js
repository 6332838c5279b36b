// Arbiter's page — GPL-3.0-or-later, see /source.html.
//
// sound.js: the game's sounds, made with WebAudio (no sound files): a move, a capture, a
// check, low time and the end of the game.  Browsers start audio only after the person has
// touched the page, so the context is made at the first sound after a click or key.

let ctx = null;
let unlocked = false;
for (const ev of ['pointerdown', 'keydown'])
  addEventListener(ev, () => {
    unlocked = true;
  }, { capture: true });

// Each sound: [frequency Hz, start s, length s, gain] notes.
const SOUNDS = {
  move: [[520, 0, 0.07, 0.25]],
  capture: [[300, 0, 0.05, 0.35], [220, 0.04, 0.08, 0.3]],
  check: [[880, 0, 0.08, 0.22], [660, 0.09, 0.1, 0.22]],
  low: [[1000, 0, 0.05, 0.15]],
  end: [[523, 0, 0.15, 0.22], [659, 0.15, 0.15, 0.22], [784, 0.3, 0.3, 0.22]],
};

// Plays one of the sounds (a no-op when sound is off, or before the person touched the page).
// Answers the name played, or null, for tests (data-sound on <body>).
export function play(name, on) {
  if (!on || !SOUNDS[name]) return null;
  document.body.dataset.sound = name;
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  if (!unlocked) return name;
  try {
    ctx = ctx || new AudioContext();
    const t0 = ctx.currentTime;
    for (const [f, at, len, gain] of SOUNDS[name]) {
      const osc = ctx.createOscillator(), g = ctx.createGain();
      osc.frequency.value = f;
      osc.type = 'triangle';
      g.gain.setValueAtTime(gain, t0 + at);
      g.gain.exponentialRampToValueAtTime(0.001, t0 + at + len);
      osc.connect(g).connect(ctx.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + len + 0.02);
    }
  } catch {
    /* no audio here: silent */
  }
  return name;
}
