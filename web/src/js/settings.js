// Arbiter's page — GPL-3.0-or-later, see /source.html.
//
// settings.js: the player's settings, kept in the browser (localStorage).

const KEY = 'arbiter.settings';
const DEFAULTS = {
  autoQueen: false, premoves: true, confirm: false, board: 'brown', pieces: 'cburnett',
  sound: true, coords: true, name: '',
};

// A name as the server takes it in hello: at most 40 characters, no control characters.
export function cleanName(s) {
  // eslint-disable-next-line no-control-regex
  return [...String(s || '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim()].slice(0, 40).join('');
}

export function loadSettings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || '{}') };
  } catch {
    return { ...DEFAULTS };
  }
}

export function saveSettings(s) {
  try {
    localStorage.setItem(KEY, JSON.stringify(s));
  } catch {
    /* private browsing: kept for this page only */
  }
}
