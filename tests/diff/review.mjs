#!/usr/bin/env node
// `arbiter train review` against chessops and Stockfish: every finding Arbiter reports on a PGN
// file is checked again from the game itself, replayed by chessops (lichess's rules library):
//   claim_threefold   the position (or the one after the intended move) occurs a third time,
//                     and the claimant went on to lose;
//   claim_fifty       the halfmove clock reaches 100 (with the intended move, which neither
//                     captures nor moves a pawn);
//   stalemate_*       the game ends in stalemate by the finding's side; the other promotion is
//                     legal and does not stalemate; a mate said to be there is found by Stockfish
//                     (`go mate 3`) or, for a mate in one, by chessops;
//   missed_rescue     the rescuer is down in material and lost, the move played is not the key;
//   played_on         the position is insufficient material for chessops, a fifth occurrence or
//                     the 150th ply without capture or pawn move — or it is counted as resting on
//                     Arbiter's dead-position proof alone (reported, not failed);
//   result_not_lawful the result was decisive without a mate on the board.
// Any finding that does not hold fails the test: none may be invented.
//
// usage: node review.mjs ARBITER FILE.pgn [STOCKFISH]

import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { makeFen, parseFen } from 'chessops/fen';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { Chess } from 'chessops/chess';

const [arbiter, file, sf = '/usr/games/stockfish'] = process.argv.slice(2);
if (!arbiter || !file) {
  process.stderr.write('usage: node review.mjs ARBITER FILE.pgn [STOCKFISH]\n');
  process.exit(2);
}
const run = spawnSync(arbiter, ['train', 'review', '--json', file], { maxBuffer: 1 << 30, encoding: 'utf8' });
if (run.status !== 0) {
  process.stderr.write(`review.mjs: arbiter train review exited ${run.status}: ${run.stderr}\n`);
  process.exit(1);
}
const reports = run.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
const games = parsePgn(readFileSync(file, 'utf8'));
if (games.length !== reports.length) {
  process.stderr.write(`review.mjs: chessops reads ${games.length} games, arbiter ${reports.length}\n`);
  process.exit(1);
}
const haveSf = existsSync(sf);
const key = (pos) => makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');
const material = (pos, color) => {
  const v = { pawn: 1, knight: 3, bishop: 3, rook: 5, queen: 9, king: 0 };
  let m = 0;
  for (const sq of pos.board[color]) m += v[pos.board.get(sq).role];
  return m;
};
// Stockfish's `go mate n` from fen: resolves to true when it reports a mate for the side to move
// within n moves (stdin is kept open until its bestmove, or 20 s).
function stockfishMate(fen, n) {
  return new Promise((resolve) => {
    const p = spawn(sf, [], { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    const done = (v) => {
      clearTimeout(timer);
      p.kill();
      resolve(v);
    };
    const timer = setTimeout(() => done(false), 20000);
    p.stdout.on('data', (d) => {
      out += d;
      if (/bestmove/.test(out)) {
        const scores = [...out.matchAll(/score mate (-?\d+)/g)].map((m) => Number(m[1]));
        done(scores.length > 0 && scores[scores.length - 1] > 0 && scores[scores.length - 1] <= n);
      }
    });
    p.stdin.write(`uci\nposition fen ${fen}\ngo mate ${n}\n`);
  });
}

let failures = 0, verified = 0, byProofOnly = 0;
const counts = {};
const fail = (r, f, msg) => {
  failures++;
  if (failures <= 20) process.stderr.write(`review.mjs: game ${r.game} (${r.site}) ${f.kind} at ply ${f.ply}: ${msg}\n`);
};

for (let g = 0; g < games.length; g++) {
  const r = reports[g];
  if (!r.findings.length) continue;
  const start = startingPosition(games[g].headers).unwrap();
  const ps = [start.clone()];
  const played = [];
  let pos = start.clone();
  for (const node of games[g].moves.mainline()) {
    const m = parseSan(pos, node.san);
    if (!m) break;
    played.push(m);
    pos.play(m);
    ps.push(pos.clone());
  }
  const result = r.result;
  const lost = (side) => (side === 'white' ? result === '0-1' : result === '1-0');
  for (const f of r.findings) {
    counts[f.kind] = (counts[f.kind] || 0) + 1;
    const at = ps[f.ply];
    if (!at || key(at) !== key(Chess.fromSetup(parseFen(f.fen).unwrap()).unwrap())) {
      fail(r, f, 'the position is not the game\'s');
      continue;
    }
    const occurrences = (p, upto) => ps.slice(0, upto + 1).filter((q) => key(q) === key(p)).length;
    let ok = true, why = '';
    switch (f.kind) {
      case 'claim_threefold': {
        if (!f.move) ok = occurrences(at, f.ply) >= 3;
        else {
          const q = at.clone();
          q.play(parseUci(f.move));
          ok = occurrences(q, f.ply) + 1 >= 3 && at.turn === f.side;
        }
        ok = ok && lost(f.side);
        why = 'no third occurrence, or the claimant did not lose';
        break;
      }
      case 'claim_fifty': {
        const m = f.move && parseUci(f.move);
        const zeroing = m && (at.board.get(m.from).role === 'pawn' || at.board.has(m.to));
        ok = lost(f.side) && (at.halfmoves >= 100 || (m && !zeroing && at.halfmoves + 1 >= 100));
        why = `halfmoves ${at.halfmoves}`;
        break;
      }
      case 'stalemate_given':
      case 'stalemate_promotion': {
        const last = ps[ps.length - 1];
        ok = last.isStalemate() && f.ply === ps.length - 2 && at.turn === f.side && result === '1/2-1/2';
        why = 'the game does not end in that stalemate';
        if (ok && f.kind === 'stalemate_promotion') {
          const m = parseUci(f.move);
          const q = at.clone();
          ok = at.isLegal(m) && (q.play(m), !q.isStalemate());
          why = `${f.move} is illegal or stalemates too`;
        }
        if (ok && f.kind === 'stalemate_given' && f.move) {
          const q = at.clone();
          q.play(parseUci(f.move));
          if (q.isCheckmate()) break;
          if (haveSf) {
            ok = await stockfishMate(f.fen, 3);
            why = 'Stockfish finds no mate in 3';
          } else byProofOnly++;
        }
        break;
      }
      case 'missed_rescue': {
        const other = f.side === 'white' ? 'black' : 'white';
        ok = lost(f.side) && at.turn === f.side && material(at, f.side) + 3 <= material(at, other) &&
          at.isLegal(parseUci(f.move)) && f.move !== f.played;
        why = 'not the loser, not behind, or the key was played';
        break;
      }
      case 'played_on': {
        const n = occurrences(at, f.ply);
        if (!(at.isInsufficientMaterial() || n >= 5 || at.halfmoves >= 150)) byProofOnly++;
        ok = f.ply < ps.length - 1;
        why = 'no move was played after it';
        break;
      }
      case 'result_not_lawful': {
        ok = (result === '1-0' || result === '0-1') && !ps[ps.length - 1].isCheckmate();
        why = 'the result was not decisive, or a mate is on the board';
        break;
      }
      default:
        ok = false;
        why = 'an unknown kind';
    }
    if (ok) verified++;
    else fail(r, f, why);
  }
}
process.stdout.write(`review.mjs: ${games.length} games, findings ${JSON.stringify(counts)}: ${verified} hold (${byProofOnly} of them resting on Arbiter's own proof only)${haveSf ? '' : ', Stockfish not found: mates in 2-3 not checked'}\n`);
if (failures) {
  process.stdout.write(`review.mjs: FAILED: ${failures} finding(s) do not hold\n`);
  process.exit(1);
}
