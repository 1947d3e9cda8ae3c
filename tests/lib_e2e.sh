# lib_e2e.sh — what the end-to-end scripts share; source it from the project
# root after setting NAME:  NAME=e2e_cli; . tests/lib_e2e.sh
# Gives: $G (the program), $T (a temporary directory removed on exit), a
# database $GPUPLAN_DB inside it, and the checks ok/bad/expect_rc/contains;
# e2e_finish prints the closing line and sets the exit status.
G=${GPUPLAN:-./gpuplan}
T=$(mktemp -d "/tmp/gpuplan-$NAME-XXXXXX")
trap 'rm -rf "$T"' EXIT
export GPUPLAN_DB="$T/db.sqlite"
export XDG_CONFIG_HOME="$T/config"
fails=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fails=$((fails + 1)); }
expect_rc() {   # expect_rc WANT DESCRIPTION CMD...
    want=$1; what=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ "$rc" -eq "$want" ]; then ok "$what"
    else bad "$what (exit $rc, wanted $want)"; cat "$T/err"; fi
}
contains() {    # contains FILE TEXT DESCRIPTION
    if grep -qF -- "$2" "$1"; then ok "$3"; else bad "$3: no '$2' in:"; cat "$1"; fi
}
# Starts from the built-in profiles only: an empty sample directory.
no_samples() {
    export GPUPLAN_SAMPLES="$T/no-samples"
    mkdir -p "$GPUPLAN_SAMPLES"
}
e2e_finish() {
    echo "$NAME: $fails failed"
    [ "$fails" -eq 0 ]
}
