# Shared setup of the dashboard's end-to-end tests, which drive it in tmux
# (send-keys, capture-pane).  Source from the project root after setting
# NAME (the test's name), NEED (a sample set it needs) and WAIT_S (seconds
# to wait for a screen, overridden by $E2E_TUI_WAIT):
#   NAME=e2e_tui; NEED=cats-testbed; WAIT_S=30; . tests/lib_tui.sh
# Skips the test (exit 0, with a message) without tmux or the sample set.
# Gives: G (the program, absolute), SAMPLES, T (a scratch directory removed
# at exit), a private tmux server (tm), ok/bad counting into $fails, cap
# (the screen into $T/screen), show, wait_for, expect, expect_not, keys
# and end_session; the database, sample data and settings are the test's own.
G=${GPUPLAN:-./gpuplan}
case "$G" in /*) ;; *) G="$PWD/$G" ;; esac
SAMPLES=${GPUPLAN_SAMPLES:-$PWD/sample-data}
WAIT=${E2E_TUI_WAIT:-$WAIT_S}
if ! command -v tmux >/dev/null 2>&1; then
    echo "$NAME: skipped: tmux is not installed"
    echo "$NAME: 0 failed"
    exit 0
fi
if [ ! -d "$SAMPLES/$NEED" ]; then
    echo "$NAME: skipped: no $SAMPLES/$NEED sample set"
    echo "$NAME: 0 failed"
    exit 0
fi
T=$(mktemp -d "/tmp/gpuplan-$NAME-XXXXXX")
SOCK=gpuplan-$NAME-$$
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() {
    tm kill-server >/dev/null 2>&1
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK"
    rm -rf "$T"
}
trap cleanup EXIT INT TERM
export GPUPLAN_DB="$T/db.sqlite"
export GPUPLAN_SAMPLES="$SAMPLES"
export XDG_CONFIG_HOME="$T/config"   # no settings of the user's
fails=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fails=$((fails + 1)); }
cap() { tm capture-pane -p -t tui > "$T/screen" 2>/dev/null; }
show() { echo "---- screen ----"; cat "$T/screen"; echo "----------------"; }

# wait_for TEXT: polls the screen until it shows TEXT (fixed string).
wait_for() {
    end=$(( $(date +%s) + WAIT ))
    while :; do
        cap
        grep -qF -- "$1" "$T/screen" && return 0
        [ "$(date +%s)" -ge "$end" ] && return 1
        sleep 0.2
    done
}
expect() {      # expect TEXT DESCRIPTION
    if wait_for "$1"; then ok "$2"; else bad "$2: no '$1' on screen"; show; fi
}
expect_not() {  # expect_not TEXT DESCRIPTION (on the current screen)
    cap
    if grep -qF -- "$1" "$T/screen"; then bad "$2: '$1' on screen"; show; else ok "$2"; fi
}
keys() { tm send-keys -t tui "$@"; }

# end_session: ends the dashboard's session.  The server exits with its
# last session: wait until it has, or a new session can meet it on its way
# out ("server exited unexpectedly").
end_session() {
    tm kill-session -t tui >/dev/null 2>&1
    n=0
    while tm list-sessions >/dev/null 2>&1 && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
}
