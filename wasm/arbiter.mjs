// Arbiter — MIT licence, see LICENSE.
//
// arbiter.mjs: the laws of chess in JavaScript — Arbiter's C library compiled to WebAssembly
// (arbiter.wasm, built by `make wasm` from the library's own sources and glue.c) behind an API
// a chess.js or chessops user knows: a Chess object from a FEN, legal moves in SAN and UCI,
// destinations for a board (chessground's dests and premove dests), move and undo, the FEN,
// and what the laws say of the position — check, mate, stalemate, insufficient material, the
// exact dead position (the library's winnability search), repetitions, the 50- and 75-move
// rules, the draws a player may claim, the outcome — in standard chess and Chess960.
//
// The module is ready when its import resolves (top-level await): the wasm file is fetched
// next to this file in a browser, read from disk in node.  Every rule is the library's: this
// file only translates its answers.  Each Chess holds C memory: free() releases it at once,
// or it is released after the object is garbage-collected (FinalizationRegistry).

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

const WASM_URL = new URL('./arbiter.wasm', import.meta.url);

let X; // the instance's exports
let U8; // views of its memory, renewed when the memory grows
let I32;

function views() {
  U8 = new Uint8Array(X.memory.buffer);
  I32 = new Int32Array(X.memory.buffer);
}

async function instantiate() {
  const imports = { env: { emscripten_notify_memory_growth: () => views() } };
  if (WASM_URL.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return WebAssembly.instantiate(await readFile(WASM_URL), imports);
  }
  const response = fetch(WASM_URL, { credentials: 'same-origin' });
  if (WebAssembly.instantiateStreaming) {
    try {
      return await WebAssembly.instantiateStreaming(response, imports);
    } catch (e) {
      // a server that does not say application/wasm: compile from the bytes
      if (!(e instanceof TypeError)) throw e;
    }
  }
  const bytes = await (await fetch(WASM_URL, { credentials: 'same-origin' })).arrayBuffer();
  return WebAssembly.instantiate(bytes, imports);
}

X = (await instantiate()).instance.exports;
views();
X._initialize();

// ---- text across the boundary (the glue writes plain ASCII) ----

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const IN_SIZE = 512;

function readText(ptr) {
  const end = U8.indexOf(0, ptr);
  return decoder.decode(U8.subarray(ptr, end));
}

// A short ASCII text (a move): quicker by hand than through the decoder.
function readShort(ptr) {
  let s = '';
  for (let c = U8[ptr]; c !== 0; c = U8[++ptr]) s += String.fromCharCode(c);
  return s;
}

function writeText(ptr, text) {
  const n = text.length;
  if (n < 64) {
    let ascii = true;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c > 127 || c === 0) {
        ascii = false;
        break;
      }
      U8[ptr + i] = c;
    }
    if (ascii) {
      U8[ptr + n] = 0;
      return;
    }
  }
  const { written } = encoder.encodeInto(text, U8.subarray(ptr, ptr + IN_SIZE - 1));
  // a NUL inside the text ends it for C: keep what precedes it
  U8[ptr + written] = 0;
}

// ---- the library's names ----

const NAMES = (() => {
  const b = X.wa_new();
  X.wa_names(b);
  const lines = readText(X.wa_out(b)).split('\n').map((l) => l.split('|'));
  X.wa_free(b);
  const [terminations, articles, results, proofs, verdicts, problems, rules] = lines;
  return { terminations, articles, results, proofs, verdicts, problems, rules };
})();

const PROMOTION = { n: 2, b: 3, r: 4, q: 5 };
const COLORS = ['white', 'black'];

// wa_facts' order (glue.c)
const F = {
  check: 0, checkmate: 1, stalemate: 2, insufficient: 3, dead: 4, repetitions: 5, threefold: 6,
  canClaimThreefold: 7, fivefold: 8, fifty: 9, canClaimFifty: 10, seventyfive: 11, result: 12,
  termination: 13, turn: 14, halfmove: 15, fullmove: 16, ply: 17, chess960: 18, legal: 19,
};

/** What went wrong, with the library's words: code is its status name ("fen_syntax",
 * "fen_invalid", "move_illegal", "move_ambiguous", "move_syntax", "argument", ...). */
export class ArbiterError extends Error {
  constructor(code, message, extra = {}) {
    super(message);
    this.name = 'ArbiterError';
    this.code = code;
    Object.assign(this, extra);
  }
}

function squareIndex(name) {
  if (typeof name !== 'string' || !/^[a-h][1-8]$/.test(name)) return -1;
  return name.charCodeAt(0) - 97 + 8 * (name.charCodeAt(1) - 49);
}

function parseDests(text) {
  const dests = new Map();
  if (!text) return dests;
  for (const item of text.split(',')) {
    const to = [];
    for (let i = 3; i < item.length; i += 2) to.push(item.slice(i, i + 2));
    dests.set(item.slice(0, 2), to);
  }
  return dests;
}

function ending(result, winner, t) {
  return { result, winner, termination: NAMES.terminations[t], article: NAMES.articles[t] };
}

function moveOf(uci, san, color) {
  const m = { color, from: uci.slice(0, 2), to: uci.slice(2, 4), san, uci };
  if (uci.length > 4) m.promotion = uci[4];
  return m;
}

// the constructor's argument for a copy or a Chess960 start: C memory, no position yet
const BARE = Symbol('bare');

const registry = new FinalizationRegistry((ptr) => X.wa_free(ptr));

/** A position and the moves that led to it, under a rule set (FIDE by default).  Moves may
 * follow an automatic ending (as on an analysis board); outcome() says how the position
 * stands. */
export class Chess {
  #b = 0;
  #in = 0;
  #out = 0;
  #facts = 0;
  #fresh = false;
  #history = [];
  #rules = 'fide';

  /** new Chess(fen = START_FEN, {chess960, rules, lenient}); throws ArbiterError with the
   * library's message for a FEN it refuses (lenient: accept every problem but a missing or
   * extra king and too many men). */
  constructor(fen = START_FEN, options = {}) {
    this.#alloc();
    if (fen === BARE) return;
    try {
      this.load(fen, options);
    } catch (e) {
      this.free();
      throw e;
    }
  }

  #alloc() {
    const b = X.wa_new();
    if (!b) throw new ArbiterError('no_memory', 'out of memory');
    this.#b = b;
    this.#in = X.wa_in(b);
    this.#out = X.wa_out(b);
    this.#facts = X.wa_facts_at(b) >> 2;
    registry.register(this, b, this);
  }

  /** The Chess960 start position numbered n (0..959; 518 is the standard one). */
  static chess960(n, options = {}) {
    const c = new Chess(BARE);
    try {
      c.#check(X.wa_load_960(c.#b, Number.isInteger(n) ? n : -1, c.#rulesIndex(options.rules)));
    } catch (e) {
      c.free();
      throw e;
    }
    c.#rules = options.rules || 'fide';
    c.#history = [];
    c.#fresh = false;
    return c;
  }

  #ptr() {
    if (!this.#b) throw new ArbiterError('argument', 'this Chess has been freed');
    return this.#b;
  }

  #rulesIndex(rules = 'fide') {
    const i = NAMES.rules.indexOf(rules);
    if (i < 0) throw new ArbiterError('argument', `no such rules: ${rules} (${NAMES.rules.join(', ')})`);
    return i;
  }

  // A status below 0 becomes an ArbiterError from the glue's "code TAB field TAB column TAB
  // problems TAB message".
  #check(status) {
    if (status >= 0) return status;
    const [code, field, column, bits, message] = readText(this.#out).split('\t');
    const extra = {};
    if (code.startsWith('fen_')) {
      extra.field = Number(field);
      extra.column = Number(column);
      extra.problems = NAMES.problems.filter((_, i) => (Number(bits) >>> i) & 1);
    }
    throw new ArbiterError(code, message, extra);
  }

  /** Sets the board to a FEN (options as the constructor's); the history starts again. */
  load(fen, options = {}) {
    if (typeof fen !== 'string') throw new ArbiterError('argument', 'a FEN is a string');
    const rules = this.#rulesIndex(options.rules);
    writeText(this.#in, fen);
    const flags = (options.chess960 ? 1 : 0) | (options.lenient ? 2 : 0);
    this.#check(X.wa_load_fen(this.#ptr(), flags, rules));
    this.#rules = options.rules || 'fide';
    this.#history = [];
    this.#fresh = false;
  }

  /** Back to the standard start (the rules kept). */
  reset() {
    this.load(START_FEN, { rules: this.#rules });
  }

  /** A copy with the same start, moves and rules (its own C memory). */
  clone() {
    const c = new Chess(BARE);
    try {
      c.#check(X.wa_copy(c.#b, this.#ptr()));
    } catch (e) {
      c.free();
      throw e;
    }
    c.#rules = this.#rules;
    c.#history = this.#history.slice();
    c.#fresh = false;
    return c;
  }

  /** Releases the C memory now; the object is unusable afterwards.  Safe to call twice. */
  free() {
    if (!this.#b) return;
    registry.unregister(this);
    X.wa_free(this.#b);
    this.#b = 0;
  }

  get rules() {
    return this.#rules;
  }

  // ---- the position ----

  #f(i) {
    if (!this.#fresh) {
      X.wa_facts(this.#ptr());
      this.#fresh = true;
    }
    return I32[this.#facts + i];
  }

  /** The FEN (en passant square only when the capture is legal, as chess.js and chessops
   * write it; enPassant: 'always' after every double step); shredder: castling as files; epd:
   * four fields. */
  fen(options = {}) {
    const flags = (options.shredder ? 1 : 0) | (options.epd ? 2 : 0) | (options.enPassant === 'always' ? 4 : 0);
    X.wa_fen(this.#ptr(), flags);
    return readText(this.#out);
  }

  /** 'w' or 'b' (chess.js). */
  turn() {
    return X.wa_turn(this.#ptr()) ? 'b' : 'w';
  }

  get chess960() {
    return this.#f(F.chess960) === 1;
  }

  /** The Chess960 start number of this position when it is one (518 the standard start), else -1. */
  chess960Number() {
    return X.wa_chess960_number(this.#ptr());
  }

  /** The piece on a square ({type: 'p'..'k', color: 'w'|'b'}) or null, from the FEN. */
  get(square) {
    const i = squareIndex(square);
    if (i < 0) return null;
    return this.board()[7 - (i >> 3)][i & 7];
  }

  /** The board as chess.js gives it: 8 ranks from the 8th, each 8 squares from the a-file,
   * {square, type, color} or null. */
  board() {
    const rows = this.fen().split(' ')[0].split('/');
    return rows.map((row, r) => {
      const out = [];
      for (const ch of row) {
        if (ch >= '1' && ch <= '8') for (let k = 0; k < Number(ch); k++) out.push(null);
        else {
          const file = out.length;
          const lower = ch.toLowerCase();
          out.push({ square: String.fromCharCode(97 + file) + (8 - r), type: lower, color: ch === lower ? 'b' : 'w' });
        }
      }
      return out;
    });
  }

  // ---- moves ----

  /** The legal moves in SAN (chess.js); {verbose: true}: as objects (from, to, san, uci,
   * piece, captured, promotion, flags as booleans); {square}: only those from that square. */
  moves(options = {}) {
    if (!options.verbose && !options.square) {
      if (X.wa_legal(this.#ptr(), 1) === 0) return [];
      return readText(this.#out).split(' ');
    }
    const color = this.turn();
    const list = [];
    if (X.wa_legal(this.#ptr(), 2) === 0) return list;
    for (const line of readText(this.#out).split('\n')) {
      const [uci, san, info, piece, captured] = line.split('\t');
      if (options.square && uci.slice(0, 2) !== options.square) continue;
      if (!options.verbose) {
        list.push(san);
        continue;
      }
      const m = moveOf(uci, san, color);
      const bits = Number(info);
      m.piece = piece.toLowerCase();
      if (captured !== '-') m.captured = captured.toLowerCase();
      m.capture = (bits & 1) !== 0;
      m.enPassant = (bits & 2) !== 0;
      m.castling = (bits & 4) !== 0;
      m.check = (bits & 64) !== 0;
      list.push(m);
    }
    return list;
  }

  /** The legal moves in UCI (castling e1g1; king-takes-rook in Chess960), the order of moves(). */
  uciMoves() {
    if (X.wa_legal(this.#ptr(), 0) === 0) return [];
    return readText(this.#out).split(' ');
  }

  /** Destinations by origin for a board UI (chessground's dests): Map('e2' => ['e3', 'e4'], ...);
   * standard castling both onto the king's square and onto the rook's. */
  dests() {
    X.wa_dests(this.#ptr());
    return parseDests(readText(this.#out));
  }

  /** The premoves of the side not to move, as dests(): each of its moves that is legal after
   * at least one legal reply of the side to move — what chessground's premovable.customDests
   * takes; every one of its men has an entry, [] when it can have no premove (chessground
   * guesses from the piece's moves for a square missing from the map).  Empty when the side to
   * move has no legal move. */
  premoveDests() {
    X.wa_premove_dests(this.#ptr());
    return parseDests(readText(this.#out));
  }

  #play(color, status) {
    if (status < 0) this.#check(status);
    const m = moveOf(readShort(this.#out), readShort(this.#out + 8), color);
    this.#history.push(m);
    this.#fresh = false;
    return m;
  }

  /** Plays a move: SAN ('Nf3', leniently read: 'O-O', '0-0', 'e8=Q', 'exd6 e.p.'), UCI
   * ('g1f3'), or {from, to, promotion}.  Returns the move played ({color, from, to, san, uci,
   * promotion}); throws ArbiterError ('move_illegal', 'move_ambiguous', 'move_syntax') with the
   * library's reason. */
  move(move) {
    const b = this.#ptr();
    if (typeof move === 'string') {
      writeText(this.#in, move);
      return this.#play(this.turn(), X.wa_play(b));
    }
    if (!move || typeof move !== 'object') throw new ArbiterError('argument', 'a move is a string or {from, to, promotion}');
    const from = squareIndex(move.from);
    const to = squareIndex(move.to);
    const promotion = move.promotion === undefined || move.promotion === null ? 0 : PROMOTION[String(move.promotion).toLowerCase()];
    if (from < 0 || to < 0 || promotion === undefined)
      throw new ArbiterError('move_syntax', `not a move: ${JSON.stringify(move)}`);
    return this.#play(this.turn(), X.wa_play_squares(b, from, to, promotion));
  }

  /** The SAN of a legal move (given as move() takes it) without playing it. */
  san(move) {
    if (typeof move !== 'string') {
      if (!move || typeof move !== 'object') throw new ArbiterError('argument', 'a move is a string or {from, to, promotion}');
      const promotion = move.promotion === undefined || move.promotion === null ? '' : String(move.promotion).toLowerCase();
      if (squareIndex(move.from) < 0 || squareIndex(move.to) < 0 || (promotion && !PROMOTION[promotion]))
        throw new ArbiterError('move_syntax', `not a move: ${JSON.stringify(move)}`);
      move = move.from + move.to + promotion; // UCI, which the library reads as such
    }
    writeText(this.#in, move);
    this.#check(X.wa_san(this.#ptr()));
    return readShort(this.#out + 8);
  }

  /** Takes back the last move and returns it, or null at the start. */
  undo() {
    if (!this.#history.length) return null;
    this.#check(X.wa_undo(this.#ptr()));
    this.#fresh = false;
    return this.#history.pop();
  }

  /** The moves played since the start: SAN, or {verbose: true} the move objects. */
  history(options = {}) {
    return options.verbose ? this.#history.map((m) => ({ ...m })) : this.#history.map((m) => m.san);
  }

  // ---- the laws ----

  isCheck() {
    return this.#f(F.check) === 1;
  }
  inCheck() {
    return this.isCheck();
  }
  isCheckmate() {
    return this.#f(F.checkmate) === 1;
  }
  isStalemate() {
    return this.#f(F.stalemate) === 1;
  }
  /** Neither side has mating material: K v K, K+B v K, K+N v K, bishops all on one colour. */
  isInsufficientMaterial() {
    return this.#f(F.insufficient) === 1;
  }
  /** Neither side can checkmate by any sequence of legal moves (FIDE 5.2.2), proven by the
   * library's winnability search for each side within budget nodes (0: its default). */
  isDeadPosition(budget = 0) {
    if (this.isInsufficientMaterial()) return true;
    return this.winnability('white', budget).verdict === 'unwinnable' && this.winnability('black', budget).verdict === 'unwinnable';
  }
  /** How often the current position has stood on the board (FIDE 9.2.3's identity), now included. */
  repetitions() {
    return this.#f(F.repetitions);
  }
  isThreefoldRepetition() {
    return this.#f(F.threefold) === 1;
  }
  isFivefoldRepetition() {
    return this.#f(F.fivefold) === 1;
  }
  /** The position has stood three times, or a legal move would make it so (FIDE 9.2.1). */
  canClaimThreefold() {
    return this.#f(F.canClaimThreefold) === 1;
  }
  /** 50 moves each without capture or pawn move (not mate), or a move would complete them (9.3). */
  canClaimFifty() {
    return this.#f(F.canClaimFifty) === 1;
  }
  canClaimDraw() {
    return this.canClaimThreefold() || this.canClaimFifty();
  }
  isFiftyMoves() {
    return this.#f(F.fifty) === 1;
  }
  isSeventyFiveMoves() {
    return this.#f(F.seventyfive) === 1;
  }
  halfmoves() {
    return this.#f(F.halfmove);
  }
  moveNumber() {
    return this.#f(F.fullmove);
  }

  /** How the game stands under its rules: null while it goes on, else {result: '1-0' | '0-1'
   * | '1/2-1/2', winner: 'white' | 'black' | null, termination: 'checkmate', 'stalemate',
   * 'insufficient_material', 'dead_position', 'fivefold_repetition', 'seventyfive_moves', ...,
   * article: the article of the FIDE Laws it rests on ('5.1.1', ...)}.  {claimDraw: true}: also
   * the draws the side to move could claim (50 moves, threefold). */
  outcome(options = {}) {
    const t = this.#f(F.termination);
    if (t) {
      const r = this.#f(F.result);
      return ending(NAMES.results[r], r === 1 ? 'white' : r === 2 ? 'black' : null, t);
    }
    if (options.claimDraw) {
      if (this.canClaimFifty()) return ending('1/2-1/2', null, NAMES.terminations.indexOf('fifty_moves'));
      if (this.canClaimThreefold()) return ending('1/2-1/2', null, NAMES.terminations.indexOf('threefold_repetition'));
    }
    return null;
  }
  /** '1-0', '0-1', '1/2-1/2' or '*'. */
  result(options = {}) {
    const o = this.outcome(options);
    return o ? o.result : '*';
  }
  isGameOver(options = {}) {
    return this.outcome(options) !== null;
  }
  isDraw(options = {}) {
    const o = this.outcome(options);
    return o !== null && o.winner === null;
  }

  /** Everything above in one object (one call into C, and the exact dead-position search). */
  status() {
    const f = (i) => this.#f(i);
    const insufficient = f(F.insufficient) === 1;
    return {
      turn: COLORS[f(F.turn)],
      check: f(F.check) === 1,
      checkmate: f(F.checkmate) === 1,
      stalemate: f(F.stalemate) === 1,
      insufficientMaterial: insufficient,
      deadPosition: insufficient || this.isDeadPosition(),
      repetitions: f(F.repetitions),
      threefold: f(F.threefold) === 1,
      canClaimThreefold: f(F.canClaimThreefold) === 1,
      fivefold: f(F.fivefold) === 1,
      fifty: f(F.fifty) === 1,
      canClaimFifty: f(F.canClaimFifty) === 1,
      seventyFive: f(F.seventyfive) === 1,
      halfmoves: f(F.halfmove),
      moveNumber: f(F.fullmove),
      ply: f(F.ply),
      legalMoves: f(F.legal),
      outcome: this.outcome(),
    };
  }

  /** Whether color ('white'|'black' or 'w'|'b') can ever checkmate: {verdict: 'winnable' |
   * 'unwinnable' | 'unknown', proof ('helpmate', 'material', 'locked_walls', ...), nodes,
   * line: the helpmate in UCI, lineSan: the same in SAN}. */
  winnability(color, budget = 0) {
    const side = color === 'white' || color === 'w' ? 0 : color === 'black' || color === 'b' ? 1 : -1;
    if (side < 0) throw new ArbiterError('argument', `not a colour: ${color}`);
    this.#check(X.wa_winnability(this.#ptr(), side, Math.max(0, Number(budget) || 0)));
    const [head, sans] = readText(this.#out).split('\t');
    const [verdict, proof, nodes, ...line] = head.split(' ');
    return {
      color: COLORS[side],
      verdict: NAMES.verdicts[Number(verdict)],
      proof: NAMES.proofs[Number(proof)],
      nodes: Number(nodes),
      line,
      lineSan: sans ? sans.split(' ') : [],
    };
  }

  /** The number of leaf positions depth plies ahead. */
  perft(depth) {
    if (!Number.isInteger(depth) || depth < 0) throw new ArbiterError('argument', 'perft depth is a whole number >= 0');
    return X.wa_perft(this.#ptr(), depth);
  }
}

/** The names the library uses: terminations, results, proofs, verdicts, FEN problems, rules. */
export const names = Object.freeze({
  terminations: NAMES.terminations.slice(1),
  proofs: NAMES.proofs.slice(1),
  verdicts: NAMES.verdicts.slice(),
  fenProblems: NAMES.problems.slice(),
  rules: NAMES.rules.slice(),
});
