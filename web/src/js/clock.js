// Arbiter's page — GPL-3.0-or-later, see /source.html.
//
// clock.js: both clocks counting down smoothly from the server's figures.  The server says how
// much each side had at the moment it wrote the message and whose clock runs; the page counts
// the running side down from the moment the message arrived (the server's clock is the only
// one that counts: the next message corrects any drift).

export function formatMs(ms) {
  if (ms === null || ms === undefined) return '—';
  ms = Math.max(0, ms);
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1); // tenths under 10 s
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export class Clocks {
  constructor(elements) {
    this.el = elements; // {white: element, black: element}
    this.base = null;
    this.frame = () => {
      this.draw();
      this.raf = requestAnimationFrame(this.frame);
    };
    this.raf = requestAnimationFrame(this.frame);
  }

  setElements(elements) {
    this.el = elements;
    this.draw();
  }

  // clock: the game object's clock (or null when untimed); running only while the game goes on
  set(clock, ongoing) {
    this.base = clock ? { ...clock, at: performance.now(), ongoing } : null;
    this.draw();
  }

  remaining(side) {
    const b = this.base;
    if (!b) return null;
    const ms = b[`${side}_ms`];
    if (ms === null) return null;
    return b.ongoing && b.running === side ? ms - (performance.now() - b.at) : ms;
  }

  draw() {
    for (const side of ['white', 'black']) {
      const e = this.el[side];
      if (!e) continue;
      if (!this.base) {
        e.textContent = 'untimed';
        e.className = 'clock none';
        continue;
      }
      const ms = this.remaining(side);
      const text = formatMs(ms);
      if (e.textContent !== text) e.textContent = text;
      e.className = 'clock' + (this.base.ongoing && this.base.running === side ? ' running' : '') +
        (ms !== null && ms < 10000 ? ' low' : '');
    }
  }
}
