#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# No test may call a program that the set-up does not install (a test once ran Stockfish,
# which scripts/deps.sh installed only for `make bench`, and failed on fresh machines only).
# Checked statically, on any machine:
#   - every `need PROGRAM PACKAGE` in the test scripts names a package of `deps.sh --list test`;
#   - every program the tests name by its path (/usr/games/..., /usr/bin/...) is shipped by a
#     package of that list (dpkg -S);
#   - every npm package that Node runs in the tests admits Debian bookworm's Node.js (18.19):
#     its "engines" range, read from the lockfiles.
# The clean-room test (`make test-fresh`) checks the same on a real fresh machine.
# usage: deps.sh SOURCE_DIR
set -u
top=$(cd "$1" && pwd)
. "$top/tests/cli/lib.sh"
pkgs=$(sh "$top/scripts/deps.sh" --list test)
in_list() { echo "$pkgs" | grep -qx "$1"; }

for p in $(grep -rhoE '^ *need +[^ ]+ +[a-z0-9.+-]+' "$top/tests" --include='*.sh' | awk '{print $3}' | sort -u); do
  check "need ... $p: $p is in deps.sh's test set" in_list "$p"
done

paths=$(grep -rhoE "/usr/(games|bin)/[a-z0-9][a-z0-9.+_-]*" "$top/tests" --include='*.sh' --include='*.mjs' \
  --exclude-dir=node_modules | sort -u)
for path in $paths; do
  case $path in /usr/bin/env) continue ;; esac
  owner=$(dpkg -S "$path" 2>/dev/null | head -1 | cut -d: -f1)
  if [ -z "$owner" ]; then
    echo "FAIL: the tests run $path, which no installed package ships: add its package to deps.sh's test set"
    fail=$((fail + 1))
  else
    check "$path comes from $owner, in deps.sh's test set" in_list "$owner"
  fi
done

# npm: Debian bookworm's nodejs is 18.19; a package that refuses it breaks `make test` there.
# Known exceptions, each with its reason:
#   @lichess-org/chessground (web/): its files are copied into the page; Node never runs it.
#   @badrap/result (chessops's dependency, tests/diff): declares ">= 22" but uses nothing newer
#     than Node 18 has; the chessops tests pass on Debian's Node in `make test-fresh`.
if command -v node >/dev/null 2>&1; then
  out=$(node - "$top" <<'JS'
const fs = require('fs');
const top = process.argv[2];
const debian = [18, 19, 0];
const allowed = new Set(['node_modules/@lichess-org/chessground', 'node_modules/@badrap/result']);
const ver = (s) => s.replace(/^v/, '').split('.').map((x) => parseInt(x, 10) || 0).concat([0, 0, 0]).slice(0, 3);
const cmp = (a, b) => { for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i]; return 0; };
// a small semver range check: "A || B", each a list of ">=x", ">x", "<=x", "<x", "^x", "~x", "x"
function admits(range, v) {
  return range.split('||').some((alt) => {
    const parts = alt.trim().replace(/([<>=^~]+)\s+/g, '$1').split(/\s+/).filter(Boolean);
    return parts.every((p) => {
      const m = /^([<>=^~]*)(.*)$/.exec(p);
      const op = m[1], w = ver(m[2]);
      if (m[2] === '*' || m[2] === 'x') return true;
      if (op === '>=') return cmp(v, w) >= 0;
      if (op === '>') return cmp(v, w) > 0;
      if (op === '<=') return cmp(v, w) <= 0;
      if (op === '<') return cmp(v, w) < 0;
      if (op === '^') return v[0] === w[0] && cmp(v, w) >= 0;
      if (op === '~') return v[0] === w[0] && v[1] === w[1] && cmp(v, w) >= 0;
      return v[0] === w[0];
    });
  });
}
for (const dir of ['tests/js', 'tests/diff', 'tests/wasm', 'web']) {
  const lock = JSON.parse(fs.readFileSync(`${top}/${dir}/package-lock.json`, 'utf8'));
  for (const [name, p] of Object.entries(lock.packages)) {
    const range = p.engines && p.engines.node;
    if (!range || allowed.has(name)) continue;
    console.log(`${admits(range, debian) ? 'ok' : 'FAIL'} ${dir}: ${name || '(the project)'} ${p.version || ''} wants node ${range}`);
  }
}
JS
)
  echo "$out" | grep -v '^ok' | grep . && fail=$((fail + $(echo "$out" | grep -c '^FAIL')))
  pass=$((pass + $(echo "$out" | grep -c '^ok')))
else
  echo "FAIL: node is not installed (Debian package nodejs): run 'sh scripts/deps.sh test'"
  fail=$((fail + 1))
fi
finish
