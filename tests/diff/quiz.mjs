#!/usr/bin/env node
// The rules quiz bank against chessops (lichess's rules library): every fact of an item that
// chessops can compute is computed again here, from the item's inputs, and compared with the
// answer Arbiter derived.  chessops knows movement, check, mate, stalemate, castling, en
// passant, promotion, repetition of positions (board, side, castling rights, legal en passant),
// the halfmove clock and lichess's "insufficient material to win on time"; it knows nothing of
// offers, touch-move, penalties or scoresheets, so those templates are checked only for
// well-formedness here (their answers rest on the over-the-board referee's own tests and the
// Laws' text).
//
// usage: node quiz.mjs FILE.jsonl

import { readFileSync } from 'node:fs';
import { Chess, castlingSide } from 'chessops/chess';
import { parseFen, makeFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';
import { parseSquare, parseUci, makeUci } from 'chessops/util';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node quiz.mjs FILE.jsonl\n');
  process.exit(2);
}

const items = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l, i) => ({ ...JSON.parse(l), line: i + 1 }));
let failures = 0;
const checked = {};
const fail = (it, msg) => {
  failures++;
  if (failures <= 30) process.stderr.write(`quiz.mjs: ${file}:${it.line}: ${it.id} (${it.template}): ${msg}\n`);
};

const position = (fen) => Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
const legalMoves = (pos) => {
  const out = [];
  for (const [from, tos] of pos.allDests()) {
    for (const to of tos) {
      const piece = pos.board.get(from);
      const promo = piece.role === 'pawn' && (to >> 3 === 0 || to >> 3 === 7);
      if (promo) for (const p of ['queen', 'rook', 'bishop', 'knight']) out.push({ from, to, promotion: p });
      else out.push({ from, to });
    }
  }
  return out;
};
const after = (pos, m) => {
  const p = pos.clone();
  p.play(m);
  return p;
};
// a move as the quiz writes one ("Ng1-f3", "e5xd6", "e7-e8=Q") read into squares
const moveText = (t) => {
  const m = /^[NBRQK]?([a-h][1-8])[-x]([a-h][1-8])(?:=([NBRQ]))?$/.exec(t);
  if (!m) return null;
  const roles = { N: 'knight', B: 'bishop', R: 'rook', Q: 'queen' };
  return { from: parseSquare(m[1]), to: parseSquare(m[2]), promotion: m[3] ? roles[m[3]] : undefined };
};
const isLegal = (pos, m) => {
  if (!m) return false;
  const piece = pos.board.get(m.from);
  if (piece && piece.role === 'pawn' && (m.to >> 3 === 0 || m.to >> 3 === 7) && !m.promotion) m = { ...m, promotion: 'queen' };
  return pos.isLegal(m);
};
const key = (pos) => makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');
const times = ['', 'Once', 'Twice', 'Three times', 'Four times', 'Five times'];
// the history of an item: the positions from start_fen through its moves
function history(it) {
  const ps = [position(it.start_fen || it.fen)];
  for (const u of it.moves || []) {
    const m = parseUci(u);
    const p = ps[ps.length - 1];
    if (!m || !p.isLegal(m)) throw new Error(`move ${u} is not legal for chessops`);
    ps.push(after(p, m));
  }
  return ps;
}
const occurrences = (ps) => ps.filter((p) => key(p) === key(ps[ps.length - 1])).length;

const checks = {
  'only-move': (it, pos) => {
    const ms = legalMoves(pos);
    if (!pos.isCheck() || ms.length !== 1 || makeUci(ms[0]) !== it.answer) return `chessops: ${ms.length} legal moves, check ${pos.isCheck()}`;
  },
  'mate-in-one': (it, pos) => {
    const mates = legalMoves(pos).filter((m) => after(pos, m).isCheckmate()).map(makeUci);
    if (mates.length !== 1 || mates[0] !== it.answer) return `chessops mates: ${mates}`;
  },
  'promotion-mate': (it, pos) => {
    const mates = legalMoves(pos).filter((m) => after(pos, m).isCheckmate()).map(makeUci);
    if (mates.length !== 1 || mates[0] !== it.answer || !/[qrbn]$/.test(it.answer)) return `chessops mates: ${mates}`;
  },
  'mate-or-stalemate': (it, pos) => {
    const want = pos.isCheckmate() ? 'Checkmate' : pos.isStalemate() ? 'Stalemate' : pos.isCheck() ? 'Check, but not checkmate' : 'Neither';
    if (!it.answer.startsWith(want)) return `chessops: ${want}`;
  },
  'which-stalemates': (it, pos) => {
    const st = it.choices.filter((c) => isLegal(pos, moveText(c)) && after(pos, moveText(c)).isStalemate());
    if (st.length !== 1 || st[0] !== it.answer) return `chessops stalemating choices: ${st}`;
  },
  'which-illegal': (it, pos) => {
    const bad = it.choices.filter((c) => !isLegal(pos, moveText(c)));
    if (bad.length !== 1 || bad[0] !== it.answer) return `chessops illegal choices: ${bad}`;
  },
  'why-illegal': (it, pos) => {
    const m = parseUci(it.move);
    const legal = isLegal(pos, m);
    if (legal !== it.answer.startsWith('Nothing')) return `chessops: legal ${legal}`;
  },
  'castling-now': (it, pos) => {
    const m = parseUci(it.move);
    const king = pos.board.kingOf(pos.turn);
    const side = m.to > m.from ? 'h' : 'a';
    const legal = [...pos.dests(king)].some((to) => castlingSide(pos, { from: king, to }) === side);
    if (legal !== (it.answer === 'Yes')) return `chessops: castling ${side}-side legal ${legal}`;
  },
  'castling-after-check': (it, pos) => checks['castling-now'](it, pos),
  'castling-960': (it, pos) => {
    const p = after(pos, parseUci(it.move));
    const m = /^King ([a-h][1-8]), rook ([a-h][1-8])$/.exec(it.answer);
    const k = p.board.get(parseSquare(m[1])), r = p.board.get(parseSquare(m[2]));
    if (!k || k.role !== 'king' || !r || r.role !== 'rook') return 'chessops puts king and rook elsewhere';
  },
  'en-passant-now': (it, pos) => {
    const legal = isLegal(pos, parseUci(it.move));
    if (legal !== it.answer.startsWith('Yes')) return `chessops: legal ${legal}`;
  },
  'en-passant-find': (it, pos) => {
    const m = parseUci(it.answer);
    if (!isLegal(pos, m) || m.to !== pos.epSquare || pos.board.get(m.from).role !== 'pawn') return 'chessops: not an en passant capture';
    const eps = legalMoves(pos).filter((x) => x.to === pos.epSquare && pos.board.get(x.from).role === 'pawn');
    if (eps.length !== 1) return `chessops: ${eps.length} en passant captures`;
  },
  'promotion-choice': (it, pos) => {
    const m = parseUci(it.move);
    const n = ['queen', 'rook', 'bishop', 'knight'].filter((p) => pos.isLegal({ ...m, promotion: p })).length;
    if (n !== 4) return `chessops: ${n} promotions`;
  },
  'threefold-count': (it) => {
    const n = occurrences(history(it));
    if (times[n] !== it.answer) return `chessops counts ${n}`;
  },
  fivefold: (it) => {
    const n = occurrences(history(it));
    const ended = !it.answer.startsWith('Play goes on unless');
    if (ended !== n >= 5 || n < 3) return `chessops counts ${n}`;
  },
  'declared-draw': (it) => {
    const n = occurrences(history(it));
    if (n !== 3) return `chessops counts ${n}`;
  },
  'threefold-claim': (it, pos) => {
    const ps = history(it);
    const now = occurrences(ps);
    const third = legalMoves(pos).some((m) => occurrences([...ps, after(pos, m)]) >= 3);
    const yes = it.answer.startsWith('Yes');
    if (yes !== (now >= 3 || third)) return `chessops: now ${now}, a move making a third ${third}`;
  },
  'fifty-claim': (it, pos) => {
    const m = parseUci(it.move);
    const zeroing = pos.board.get(m.from).role === 'pawn' || pos.board.has(m.to);
    const ok = !zeroing && pos.halfmoves + 1 >= 100;
    if (ok !== it.answer.startsWith('Yes')) return `chessops: halfmoves ${pos.halfmoves}, zeroing ${zeroing}`;
  },
  'last-move': (it, pos) => {
    const p = after(pos, parseUci(it.move));
    if (p.isCheckmate() !== / wins: the checkmate counts$/.test(it.answer)) return `chessops: mate ${p.isCheckmate()}`;
    if (!p.isCheckmate() && p.halfmoves < 100) return 'chessops: the count was reset';
  },
  'dead-or-alive': (it, pos) => {
    if (pos.isInsufficientMaterial() && !it.answer.startsWith('Drawn at once')) return 'chessops: insufficient material, yet alive';
  },
  'online-flag': (it, pos) => {
    const other = it.clock.flag === 'white' ? 'black' : 'white';
    const draw = pos.hasInsufficientMaterial(other);
    if (draw !== it.answer.startsWith('Draw')) return `chessops (lichess's rule): ${other} insufficient ${draw}`;
  },
};

for (const it of items) {
  let pos;
  try {
    pos = position(it.fen);
    if (it.start_fen) {
      const ps = history(it);
      if (key(ps[ps.length - 1]) !== key(pos)) throw new Error('the moves do not lead to the fen');
    }
  } catch (e) {
    fail(it, `chessops cannot read it: ${e.message}`);
    continue;
  }
  if (it.kind === 'move') {
    const m = parseUci(it.answer);
    if (!m || !pos.isLegal(m)) fail(it, `the answer ${it.answer} is not a legal move for chessops`);
    else void makeSan(pos, m);
  } else if (!Array.isArray(it.choices) || !it.choices.includes(it.answer)) {
    fail(it, 'the answer is not one of the choices');
  }
  if (!it.explanation || !it.question || !it.articles.length) fail(it, 'no question, explanation or article');
  // the occurrences an explanation states ("...: 4 times (FIDE 9.2.3") are chessops's count
  const stated = /: (\d+) times? \(FIDE 9\.2\.3/.exec(it.explanation);
  if (stated && it.start_fen && Number(stated[1]) !== occurrences(history(it)))
    fail(it, `the explanation counts ${stated[1]}, chessops ${occurrences(history(it))}`);
  const c = checks[it.template];
  if (!c) continue;
  let why;
  try {
    why = c(it, pos);
  } catch (e) {
    why = `chessops: ${e.message}`;
  }
  if (why) fail(it, why);
  else checked[it.template] = (checked[it.template] || 0) + 1;
}
const n = Object.values(checked).reduce((a, b) => a + b, 0);
process.stdout.write(`quiz.mjs: ${items.length} items read, ${n} answers recomputed by chessops and equal: ${JSON.stringify(checked)}\n`);
if (failures) {
  process.stdout.write(`quiz.mjs: FAILED: ${failures} item(s) disagree\n`);
  process.exit(1);
}
