// Arbiter's page — GPL-3.0-or-later, see /source.html.
//
// rules.js: the laws of chess in the page, for the answers that must come at once — Arbiter's
// own C library compiled to WebAssembly (/wasm/arbiter.mjs, MIT, built by `make wasm`), the
// same rules the server applies.  Where a game is played the server stays the only authority:
// the page asks the module only what it shows before the server could answer (an analysis
// board's moves, a premove's destinations, a puzzle's board after it is over).  When the module
// cannot be loaded the page does without it and asks the server, as before.
//
// For tests: <body data-wasm> is "loading", "ready" or "failed"; data-local counts the answers
// the module gave.

let loading = null;

// The module ({Chess, ...}), or null when it could not be loaded.
export function wasm() {
  if (!loading) {
    document.body.dataset.wasm = 'loading';
    loading = import('/wasm/arbiter.mjs').then(
      (m) => {
        document.body.dataset.wasm = 'ready';
        return m;
      },
      (e) => {
        document.body.dataset.wasm = 'failed';
        console.warn(`the rules module did not load (the server answers instead): ${e.message}`);
        return null;
      },
    );
  }
  return loading;
}

// Counts an answer given by the module (data-local).
export function counted(value) {
  const b = document.body.dataset;
  b.local = String(Number(b.local || 0) + 1);
  return value;
}

// chessground's dests (a Map of arrays) as board.js takes them: {"e2": "e3e4", ...}.
export function destsText(map) {
  const out = {};
  for (const [from, to] of map) out[from] = to.join('');
  return out;
}
