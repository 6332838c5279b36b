# Arbiter — MIT licence, see LICENSE.
# Shared by the CLI test scripts (sourced): a scratch directory $T removed on exit, and
# check DESCRIPTION COMMAND... counting passes and failures; finish prints the tally and sets
# the exit status.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
pass=0
check() { # description, then a command that must succeed
  d=$1
  shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL: $d"; fail=$((fail + 1)); fi
}
finish() {
  echo "$pass passed, $fail failed"
  test "$fail" -eq 0
}
