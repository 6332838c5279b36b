#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# `arbiter svg`: well-formed SVG (xmllint, when installed), the marks on the right squares,
# flipped coordinates, text diagrams, -o, and bad arguments refused with exit 2.
# usage: svg.sh ARBITER
set -u
A=$1
. "$(dirname "$0")/lib.sh"

"$A" svg --help >"$T/help" 2>&1
check "svg --help exits 0" test $? -eq 0
check "svg --help prints usage" grep -q "usage: arbiter svg" "$T/help"

"$A" svg --moves e4,e5,Qh5,Nc6,Bc4,Nf6,Qxf7 --arrow c4f7,h5f7:red --circle e8:blue \
  --square d5,e6 --size 300 -o "$T/mate.svg"
check "svg -o exits 0" test $? -eq 0
if command -v xmllint >/dev/null 2>&1; then
  check "the SVG is well-formed XML" xmllint --noout "$T/mate.svg"
  "$A" svg --flip --no-coords >"$T/flip.svg"
  check "the flipped SVG is well-formed XML" xmllint --noout "$T/flip.svg"
else
  echo "note: xmllint not installed (libxml2-utils): XML well-formedness not checked"
fi
check "the last move's squares" sh -c "grep -o 'class=\"square [a-z0-9 ]*\"' '$T/mate.svg' | grep lastmove | grep -c . | grep -qx 2"
check "h5 is tinted as the last move" grep -q 'class="square light lastmove h5"' "$T/mate.svg"
check "the mated king's square glows" grep -q 'class="square light check e8"' "$T/mate.svg"
check "marked squares" sh -c "grep -q 'square light marked d5' '$T/mate.svg' && grep -q 'square light marked e6' '$T/mate.svg'"
check "two arrows and a circle" sh -c "test \$(grep -o '<g class=\"arrow' '$T/mate.svg' | wc -l) -eq 3"
check "the size" grep -q 'width="300" height="300"' "$T/mate.svg"

# coordinates: a..h under the board from the left, h..a when flipped
letters() { grep -o '>[a-h]</text>' "$1" | cut -c2 | tr -d '\n'; }
"$A" svg >"$T/start.svg"
"$A" svg --flip >"$T/flipc.svg"
check "files a to h from the left" test "$(letters "$T/start.svg")" = "abcdefgh"
check "files h to a when flipped" test "$(letters "$T/flipc.svg")" = "hgfedcba"

# text diagrams, written out by hand
"$A" svg --text --moves "e4 c5" >"$T/text"
printf '%s\n' "8 r n b q k b n r" "7 p p . p p p p p" "6 . . . . . . . ." "5 . . p . . . . ." \
  "4 . . . . P . . ." "3 . . . . . . . ." "2 P P P P . P P P" "1 R N B Q K B N R" \
  "  a b c d e f g h" >"$T/want"
check "the ASCII diagram" cmp -s "$T/text" "$T/want"
"$A" svg --unicode --flip --fen "4k3/8/8/8/8/8/8/4K2R w K - 0 1" >"$T/text"
printf '%s\n' "1 ♖ · · ♔ · · · ·" "2 · · · · · · · ·" "3 · · · · · · · ·" "4 · · · · · · · ·" \
  "5 · · · · · · · ·" "6 · · · · · · · ·" "7 · · · · · · · ·" "8 · · · ♚ · · · ·" \
  "  h g f e d c b a" >"$T/want"
check "the Unicode diagram from Black" cmp -s "$T/text" "$T/want"

for args in "--fen nonsense" "--moves e4,e4" "--arrow e2e9" "--arrow e2e4:pink" \
  "--square z9" "--size 5" "--circle e4e5" "--bogus"; do
  # shellcheck disable=SC2086
  "$A" svg $args >/dev/null 2>"$T/err"
  check "svg $args exits 2" test $? -eq 2
  check "svg $args says why" test -s "$T/err"
done
finish
