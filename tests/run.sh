#!/bin/sh
# Runs every test program of build dir $1, the layer check and the
# end-to-end scripts with program $2; prints one closing line
# "check: N passed, N failed".
B=${1:-build}
PROG=${2:-./gpuplan}
pass=0
fail=0
failed=""
# The dashboard keeps settings under $XDG_CONFIG_HOME: each test gets its
# own, so neither the user's nor one test's choices leak into another.
CONFIGS=$(mktemp -d /tmp/gpuplan-config-XXXXXX)
trap 'rm -rf "$CONFIGS"' EXIT
for t in "$B"/tests/test_*; do
    [ -x "$t" ] || continue
    if XDG_CONFIG_HOME="$CONFIGS/${t##*/}" "$t"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); failed="$failed $t"
    fi
done
# The layer rule of tests/layers.txt over the real include graph.
if sh tests/layers.sh; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); failed="$failed tests/layers.sh"
fi
for t in tests/e2e_*.sh; do
    [ -f "$t" ] || continue
    if XDG_CONFIG_HOME="$CONFIGS/${t##*/}" GPUPLAN="$PROG" sh "$t"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); failed="$failed $t"
    fi
done
[ -n "$failed" ] && echo "failed:$failed"
echo "check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
