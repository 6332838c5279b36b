// Arbiter's page — GPL-3.0-or-later, see /source.html.
//
// settings.js: the player's settings, kept in the browser (localStorage).

const KEY = 'arbiter.settings';
const DEFAULTS = { autoQueen: false, premoves: true, confirm: false, board: 'brown', pieces: 'cburnett' };

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
