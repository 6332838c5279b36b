#!/usr/bin/env node
// Differential test of the game tree: `arbiter pgn convert --tree` (read into an arb_tree,
// written back from it) against chessops's PGN parser.
//
// For every PGN file, chessops parses the original and arbiter's rewrite of it; every game
// arbiter wrote must hold what chessops read in the original: the same moves in the same tree
// (SAN normalised by replaying with chessops), the same NAGs, the same comments before and after
// each move and before the game (text with blanks folded), and the same comment commands
// (chessops's parseComment: %clk, %emt, %eval with depth, %csl/%cal shapes).  Games arbiter
// rejects (errors) are counted, not compared.
//
// usage: node tree.mjs --arbiter PATH FILE...

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseComment, parsePgn, startingPosition } from 'chessops/pgn';
import { makeSan, parseSan } from 'chessops/san';
import { parseUci } from 'chessops/util';

let arbiter = null;
const files = [];
{
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--arbiter') arbiter = argv[++i];
    else files.push(argv[i]);
  }
  if (!arbiter || !files.length) {
    process.stderr.write('usage: node tree.mjs --arbiter PATH_TO_ARBITER_BINARY FILE...\n');
    process.exit(2);
  }
}

// PGN is bytes: UTF-8 when valid, else ISO-8859-1 (as arbiter's reader takes it).
function decode(buf) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf).replace(/^\uFEFF/, '');
  } catch {
    return buf.toString('latin1');
  }
}

const fold = (s) => s.replace(/\}/g, '').replace(/\s+/g, ' ').trim();

// A node's comments as chessops reads them: the texts left (non-empty, folded) and the commands.
function annotations(comments) {
  const texts = [];
  const shapes = [];
  let clock, emt, evaluation;
  for (const c of comments || []) {
    const p = parseComment(c);
    const t = fold(p.text);
    if (t) texts.push(t);
    for (const s of p.shapes) if (s) shapes.push(`${s.color}${s.from}-${s.to}`);
    if (p.clock !== undefined) clock = Math.round(p.clock * 1000);
    if (p.emt !== undefined) emt = Math.round(p.emt * 1000);
    if (p.evaluation) {
      const e = p.evaluation;
      evaluation = ('mate' in e ? `#${e.mate}` : e.pawns.toFixed(2)) + (e.depth !== undefined ? `,${e.depth}` : '');
    }
  }
  return { texts: texts.join(' | '), shapes: shapes.sort().join(' '), clock, emt, evaluation };
}

// The tree as one canonical string: per node "san nags {before} {after} [commands]", children in
// order, variations in parentheses.
function canonical(game) {
  const start = startingPosition(game.headers);
  const out = [];
  out.push(`{${(game.comments || []).map(fold).filter((t) => t).join(' | ')}}`);
  const walk = (node, pos) => {
    node.children.forEach((child, i) => {
      const d = child.data;
      let san = d.san;
      let next = null;
      if (pos) {
        // (moves written in UCI, which arbiter reads too and writes in SAN)
        const move = parseSan(pos, d.san) ?? (/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(d.san) ? parseUci(d.san) : undefined);
        if (move) {
          san = makeSan(pos, move);
          next = pos.clone();
          next.play(move);
        }
      }
      const a = annotations(d.comments);
      const before = (d.startingComments || []).map(fold).filter((t) => t).join(' | ');
      out.push(`${i ? '(' : ''}${san} ${(d.nags || []).join(',')} {${before}} {${a.texts}} ` +
        `[${a.shapes};${a.clock ?? ''};${a.emt ?? ''};${a.evaluation ?? ''}]`);
      walk(child, next);
      if (i) out.push(')');
    });
  };
  walk(game.moves, start.isOk ? start.unwrap() : null);
  return out.join('\n');
}

const key = (g) => ['Event', 'Site', 'Date', 'Round', 'White', 'Black'].map((k) => g.headers.get(k) ?? '?').join('|');

let compared = 0, differences = 0, rejected = 0, nodes = 0;
for (const file of files) {
  const original = parsePgn(decode(readFileSync(file)));
  const r = spawnSync(arbiter, ['pgn', 'convert', '--tree', '--to', 'pgn', '--no-result-check', '--allow-null', '-q', file], {
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`arbiter pgn convert ${file}: exit ${r.status} ${r.stderr}`);
  const rewritten = parsePgn(r.stdout.toString('utf8'));
  // arbiter writes the games without errors, in order: each is the next original game that
  // reads the same, or (a difference) the next original game.
  const canon = original.map(canonical);
  let j = 0, reported = 0;
  for (const g of rewritten) {
    const c = canonical(g);
    let found = canon.indexOf(c, j);
    if (found < 0) {
      found = Math.min(j, original.length - 1);
      differences++;
      if (reported++ < 3) {
        const want = (canon[found] ?? '').split('\n');
        const got = c.split('\n');
        const at = got.findIndex((l, i) => l !== want[i]);
        process.stdout.write(`FAIL ${file}: game "${key(g)}": node ${at}: chessops read ${JSON.stringify(want[at])}, arbiter wrote ${JSON.stringify(got[at])}\n`);
      }
    }
    rejected += Math.max(0, found - j);
    j = found + 1;
    compared++;
    nodes += c.split('\n').length - 1;
  }
  rejected += original.length - j;
}
process.stdout.write(`${compared} games (${nodes} moves) compared, ${rejected} not written by arbiter (errors); ${differences} differences\n`);
process.exit(differences ? 1 : 0);
