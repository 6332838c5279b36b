#!/usr/bin/env node
// Differential test: `arbiter pgn convert --to jsonl` against chessops's PGN parser.
//
// For every PGN file given, chessops parses the games, replays each main line from the game's
// start (FEN, Variant) with its own SAN reader and writes each move back in SAN; arbiter does the
// same with its reader and writer.  The games with at least one move must agree one for one: the
// same SAN sequence and the same final FEN.  Games either side rejects make the counts differ,
// which is reported too.
//
// usage: node pgn.mjs --arbiter PATH FILE...

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { makeFen } from 'chessops/fen';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { makeSan, parseSan } from 'chessops/san';

function usage(msg) {
  if (msg) process.stderr.write(`pgn.mjs: ${msg}\n`);
  process.stderr.write('usage: node pgn.mjs --arbiter PATH_TO_ARBITER_BINARY FILE...\n');
  process.exit(2);
}

let arbiter = null;
const files = [];
{
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--arbiter') arbiter = argv[++i];
    else if (argv[i] === '-h' || argv[i] === '--help') usage();
    else files.push(argv[i]);
  }
  if (!arbiter) usage('--arbiter is required');
  if (!files.length) usage('no PGN file given');
}

// chessops: [{san: [...], fen}] for the games it replays completely, with at least one move.
function chessopsGames(text) {
  const out = [];
  let rejected = 0;
  for (const game of parsePgn(text)) {
    const start = startingPosition(game.headers);
    if (start.isErr) {
      rejected++;
      continue;
    }
    const pos = start.unwrap();
    const san = [];
    let ok = true;
    for (const node of game.moves.mainline()) {
      const move = parseSan(pos, node.san);
      if (!move) {
        ok = false;
        break;
      }
      san.push(makeSan(pos, move));
      pos.play(move);
    }
    if (!ok) {
      rejected++;
      continue;
    }
    if (san.length) out.push({ san, fen: makeFen(pos.toSetup()) });
  }
  return { games: out, rejected };
}

// arbiter: the same, from `arbiter pgn convert --to jsonl` (games with problems are not written).
function arbiterGames(file) {
  // (chessops does not check results: neither do we here, so studies that end in mate with "*"
  // are compared too)
  const r = spawnSync(arbiter, ['pgn', 'convert', '--to', 'jsonl', '--no-result-check', '-q', file], {
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  if (r.status !== 0 && r.status !== 1) {
    throw new Error(`arbiter pgn convert ${file}: exit ${r.status} ${r.stderr}`);
  }
  const out = [];
  for (const line of r.stdout.split('\n')) {
    if (!line) continue;
    const g = JSON.parse(line);
    if (g.san.length) out.push({ san: g.san, fen: g.final });
  }
  return out;
}

let failures = 0;
let games = 0;
let plies = 0;
for (const file of files) {
  // PGN is bytes; chessops reads a string.  Latin-1 keeps every byte one character, and moves
  // are ASCII either way.
  const text = readFileSync(file, 'latin1');
  const ours = arbiterGames(file);
  const theirs = chessopsGames(text);
  let reported = 0;
  const report = (msg) => {
    failures++;
    if (reported++ < 5) process.stdout.write(`FAIL ${file}: ${msg}\n`);
  };
  if (ours.length !== theirs.games.length)
    report(`arbiter wrote ${ours.length} games with moves, chessops replayed ${theirs.games.length} (rejected ${theirs.rejected})`);
  const n = Math.min(ours.length, theirs.games.length);
  for (let i = 0; i < n; i++) {
    const a = ours[i];
    const b = theirs.games[i];
    games++;
    plies += b.san.length;
    const k = a.san.findIndex((s, j) => s !== b.san[j]);
    if (k >= 0 || a.san.length !== b.san.length) {
      const at = k >= 0 ? k : Math.min(a.san.length, b.san.length);
      report(`game ${i + 1} (with moves): ply ${at + 1}: arbiter ${a.san[at]} chessops ${b.san[at]}`);
    } else if (a.fen !== b.fen) {
      report(`game ${i + 1} (with moves): final FEN arbiter ${a.fen} chessops ${b.fen}`);
    }
  }
}
process.stdout.write(`${games} games, ${plies} plies compared; ${failures} differences\n`);
process.exit(failures ? 1 : 0);
