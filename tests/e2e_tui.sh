#!/bin/sh
# End-to-end test of the interactive dashboard: drives the real binary in a
# private tmux server (send-keys) and asserts on the screen text
# (capture-pane), on a fresh database made from sample-data/.
#
#   open → run a comparison on cats-testbed → step three placements forward
#   and one back → the Step screen explains decision 2 → Cluster, drill into
#   the chosen GPU → a small planner sweep, a grid over two GPU models with
#   its frontier, and a long sweep cancelled → Help →
#   resize to 80x24, below the minimum, to 200x60 → Data → quit, terminal
#   restored; a GPU power cap with PEACE's split next to none (peace-mix),
#   the split shown in Cluster; then monochrome/ASCII (NO_COLOR, LANG=C, TERM=xterm) and
#   TERM=screen sessions; and a session ended by SIGABRT (what the engine's
#   xmalloc raises on out-of-memory), which must give the terminal back.
#
# Usage: GPUPLAN=./gpuplan sh tests/e2e_tui.sh  (run from the project root)
# Every wait polls the screen with a timeout, so a loaded machine only makes
# it slower.  Prints "e2e_tui: N failed" last; exits non-zero on failure.
set -u
NAME=e2e_tui
NEED=cats-testbed
WAIT_S=30
. tests/lib_tui.sh

# start W H ENV...: the dashboard in a fresh session; when it exits the
# shell records its exit code and the terminal modes, then waits.
start() {
    w=$1 h=$2
    shift 2
    end_session
    rm -f "$T/stty"
    rm -rf "$XDG_CONFIG_HOME"   # every start is from the defaults
    tm new-session -d -s tui -x "$w" -y "$h" \
        "env $* GPUPLAN_TUI_LOG='$T/tui.log' '$G'; echo \"EXITED rc=\$?\"; stty -a > '$T/stty'; sleep 600"
}
# expect_exit DESCRIPTION RC WHAT: the dashboard ended with status RC and
# left the terminal in the modes it found.
expect_exit() {
    expect "EXITED rc=$2" "$1: $3"
    end=$(( $(date +%s) + WAIT ))
    while [ ! -s "$T/stty" ] && [ "$(date +%s)" -lt "$end" ]; do sleep 0.2; done
    if grep -q -- '-icanon' "$T/stty" || grep -q -- '-echo ' "$T/stty"; then
        bad "$1: terminal left in raw mode"; cat "$T/stty"
    else
        ok "$1: terminal modes restored"
    fi
}
quit_clean() {  # quit_clean DESCRIPTION (says yes when q asks about unsaved work)
    keys q
    end=$(( $(date +%s) + WAIT ))
    while cap && ! grep -qF "EXITED rc=" "$T/screen" && [ "$(date +%s)" -lt "$end" ]; do
        if grep -qF "Quit and throw away" "$T/screen"; then keys y; break; fi
        sleep 0.2
    done
    expect_exit "$1" 0 "quits with status 0"
}
# tui_pid: the dashboard's process (the child of the shell in the pane).
tui_pid() {
    ps -o pid= --ppid "$(tm display-message -p -t tui '#{pane_pid}')" | tr -d ' '
}

# The database, made once from the sample sets (outside the TUI).
"$G" list >/dev/null 2>"$T/seed.err" || { cat "$T/seed.err"; bad "database created"; }

# --- main session: 120x40, tmux-256color, UTF-8 --------------------------
start 120 40 LANG=C.UTF-8 TERM=tmux-256color
expect "Compare setup" "opens on the Compare setup"
expect "[1] cats" "cats is picked by default"
expect "Run: cats-testbed on cats-testbed" "cats-testbed is the default input"
keys Enter
expect "3 runs ready at t=0" "comparison starts paused"
expect "Active GPUs" "charts shown"
expect "Fragmentation" "fragmentation chart"
expect "optimal*" "the Optimal row (CATS's optimum over the trace) is in the table"
expect "decision #0" "no decision yet"
keys Right
expect "decision #1" "one placement forward"
keys Right
expect "decision #2" "two placements forward"
keys Right
expect "decision #3" "three placements forward"
keys Left
expect "decision #2" "one placement back"
expect_not "decision #3" "the third decision is undone"
expect "cats (focus)" "cats is the focused policy"

keys 2
expect "Decision #2 of cats" "Step screen shows decision 2"
expect "Candidates (" "candidate table"
expect "rho" "CATS score term rho"
expect "score" "CATS score column"
expect "WIN" "the chosen candidate is marked"
expect "placed on testbed/g" "the placement"
expect "Cluster after the decision" "cluster state after the decision"
expect "util " "task utilization sparkline"
keys Right
expect "Decision #3 of cats" "Step: next decision"
keys Left
expect "Decision #2 of cats" "Step: back again"

keys c Enter
expect "Servers x GPUs" "Enter opens Cluster"
expect "view: allocation" "allocation view"
expect "testbed/" "the GPU detail pane"
expect "aggregate utilization ahead" "aggregate series of the GPU"
keys Enter
expect "whole series" "drilled into the GPU's tasks"
expect "j/k task" "drill keys on the status line"
keys Escape v
expect "view: utilization now" "v cycles the view"
keys v
expect "view: power state" "power-state view"
expect "asleep" "power legend"

keys 4
expect "What if" "Planner screen"
expect "Trace            cats-testbed" "planner trace"
keys r
expect "sweep done" "a small sweep finishes"
expect "<< fewest" "the smallest GPU count meeting the SLA is marked"
expect "fewest GPUs meeting SLA" "the answer line"
# o / O order the results by a column, marked in the header.
keys o o o
expect "SLA viol %▲" "o o o orders the results by SLA violations"
keys O
expect "SLA viol %▼" "O reverses it"
expect "results by SLA viol %, largest first" "and says so"
# the SLA column of the results shown (the right pane's third field)
cap
sed -n '/SLA viol %▼/,/└/p' "$T/screen" | awk -F'│' 'NR > 1 && $4 ~ /[0-9]/ { split($4, f, " "); print f[3] }' \
    > "$T/sla"
if [ "$(wc -l < "$T/sla")" -ge 4 ] && sort -rn "$T/sla" | cmp -s - "$T/sla"; then
    ok "the most violations first ($(head -1 "$T/sla") % ... $(tail -1 "$T/sla") %)"
else bad "the most violations first:"; cat "$T/sla"; show; fi
keys o o o o o
expect "results by GPU count and policy" "o past the last column: the table's own order"
# A grid over two models: the second model is the first profile listed, its
# count 0..2; the frontier chart and the cheapest point meeting the SLA.
keys End k k k k k k k k k k k k k k Right
expect "2nd GPU          A10" "a second GPU model is chosen"
keys j j Left Left Left Left Left Left
expect "2nd GPUs to      2" "its count range"
keys r
expect "frontier: SLA violations % vs cost" "the frontier chart"
expect "cheapest meeting SLA" "the grid's answer line"
expect "  2nd policy" "the grid's results name both counts"
expect "first 3+2" "First's cheapest point (the profiles have no known price: the first meeting)"
expect "3+2 \$?" "an unpriced grid point says so (\$?), never \$0"
keys PPage PPage PPage PPage PPage PPage NPage
expect "<< cheapest" "the cheapest point meeting the SLA is marked"
expect "frontier     " "frontier points are marked"
keys k k Left Home
expect "2nd GPU          none (one model)" "back to one model"
# A long sweep (pai-like, thousands of tasks): progress, then Esc cancels.
keys Right
expect "Trace            corrgpu-example" "trace slider moves"
keys Right Right Right
expect "Trace            pai-like" "pai-like chosen"
keys j j j j Right Right Right Right r
expect "Esc cancels" "long sweep shows progress"
keys Escape
expect "sweep cancelled" "Esc cancels the sweep"

keys '?'
expect "Keys of Planner" "Help lists the Planner's keys"
expect "run the sweep" "Help text from the key table"
expect "Everywhere" "global keys listed"
keys Escape
expect "What if" "Esc leaves Help"

tm resize-window -t tui -x 80 -y 24
expect "Util. threshold" "80x24 still draws the Planner"
expect_not "needs a terminal" "80x24 is big enough"
tm resize-window -t tui -x 70 -y 20
expect "needs a terminal of at least 80x24" "below 80x24: a clear message"
tm resize-window -t tui -x 200 -y 60
expect "What if" "200x60 redraws"
keys 1
expect "Active GPUs" "Compare at 200x60"
keys 5
expect "Saved runs" "Data screen"
expect "Traces" "Data kinds"
keys 1 S
expect "not finished" "saving needs finished runs"
keys End
expect "ran to the end" "End runs to the end"
keys S
expect "saved 3 runs" "runs saved"
keys 5 j j j j j j Tab
expect "#1" "the saved runs are listed"
keys Space Space Space Enter
expect "3 saved runs reopened" "saved runs reopen side by side in Compare"
expect "saved runs" "Compare shows them as saved runs"
keys r
expect "restarted at t=0" "r re-simulates the saved runs"
expect "paused" "restarted runs wait for space"
keys +
expect "speed: " "+ changes the speed"
keys Space
expect "playing" "space plays"
keys Space
expect "paused" "space pauses"
quit_clean "main session"

# --- a snapshot imported from the Data screen, shown in Cluster ------------------
mkdir "$T/labsnap"
cp "$SAMPLES"/cats-testbed/nodes.csv "$SAMPLES"/cats-testbed/tasks.csv \
   "$SAMPLES"/cats-testbed/util.csv "$T/labsnap/"
printf 'task,node,gpu,gpu_milli\nt1,testbed,0,1000\nt2,testbed,0,1000\nt3,testbed,1,1000\nt4,testbed,3,1000\n' \
    > "$T/labsnap/placements.csv"
start 120 40 LANG=C.UTF-8 TERM=tmux-256color
expect "Compare setup" "session for the snapshot"
keys 5 i
expect "Import: file or directory paths" "import prompt"
keys "$T/labsnap" Enter
expect "looks like: native" "format detected"
keys Enter
expect "snapshot 'labsnap'" "snapshot imported"
keys j j j j j Tab
expect "cluster labsnap at t=0s" "snapshot listed"
keys Enter
expect "snapshot labsnap of labsnap" "Cluster shows the snapshot"
expect "3 active" "three GPUs hold the four tasks"
expect "share 2000 milli" "two tasks share GPU 0"
keys Enter
expect ">t1" "drill into the snapshot GPU"
keys 5 d
expect "Delete snapshot 'labsnap'?" "delete asks first"
keys n
expect "Snapshots             1" "n keeps it"
keys d y
expect "deleted labsnap" "y deletes it"
quit_clean "snapshot session"

# --- PEACE: a GPU power cap, with and without PEACE's split --------------------
if [ -d "$SAMPLES/peace-mix" ]; then
    "$G" peace train peace-v100 --trees 10 >/dev/null 2>"$T/train.err" \
        || { cat "$T/train.err"; bad "PEACE models trained"; }
    start 120 40 LANG=C.UTF-8 TERM=tmux-256color
    expect "Compare setup" "PEACE session opens"
    keys / peace-mix Enter
    expect "Run: peace-mix on peace-mix" "the peace-mix trace and cluster"
    keys Tab Tab x a first:250 Enter
    expect "with first:250" "a First that co-locates (q 250 %) is picked"
    keys c
    expect "GPU power cap: W for every GPU" "c asks for a GPU power cap"
    keys V100=x Enter
    expect "is not watts" "a malformed cap is refused"
    keys c
    expect "GPU power cap: W for every GPU" "c asks again"
    keys 200 Enter
    expect "GPU cap 200 W (each capped" "c sets a typed GPU power cap"
    keys w
    expect "first:250@nopart" "w adds the run without PEACE"
    keys Enter
    expect "2 runs ready" "with and without PEACE side by side"
    expect "GPU cap 200 W" "the cap is on the info line"
    keys Right Right
    expect "decision #2" "two tasks placed"
    keys 3
    expect "SM split (peace):" "Cluster shows PEACE's split of the shared GPU"
    expect "(cap 200 W)" "and the cap"
    quit_clean "PEACE session"
else
    ok "PEACE session skipped: no $SAMPLES/peace-mix"
fi

# --- GOGH, its oracle and the blind baseline on the gavel-like samples ----------
if [ -d "$SAMPLES/gavel-like" ]; then
    start 120 40 LANG=C.UTF-8 TERM=tmux-256color
    expect "Compare setup" "GOGH session opens"
    keys / gavel-like Enter
    expect "Run: gavel-like on gavel-like" "the gavel-like trace and cluster"
    keys Tab Tab x a gogh Enter a gogh-oracle Enter a blind Enter
    expect "with gogh, gogh-oracle, blind" "GOGH, its oracle and blind are picked"
    keys Enter
    expect "3 runs ready" "three allocation runs side by side"
    keys Right Right
    expect "decision #2" "two starts"
    keys 2
    expect "gogh round " "Step shows the round"
    expect "est it/s" "estimated throughput"
    expect "true it/s" "true throughput"
    expect "objective" "the round's objective"
    keys 1 End
    expect "finished" "the runs play to the end"
    # The energy `gpuplan run` prints for the same runs (26.428, 26.522 kWh).
    expect "26.4" "GOGH's energy as in the CLI"
    expect "26.5" "the oracle's energy as in the CLI"
    quit_clean "GOGH session"
else
    ok "GOGH session skipped: no $SAMPLES/gavel-like"
fi

# --- monochrome, ASCII, TERM=xterm -----------------------------------------
start 100 30 NO_COLOR=1 LANG=C LC_ALL=C TERM=xterm
expect "Compare setup" "monochrome ASCII session opens"
keys Enter e
expect "finished" "runs to the end without colour"
expect "* cats" "series are told apart by marker"
expect_not "⣀" "no braille without UTF-8"
keys 3
expect "view: allocation" "Cluster in ASCII"
quit_clean "monochrome session"

# --- TERM=screen ---------------------------------------------------------------
start 120 40 LANG=C.UTF-8 TERM=screen
expect "Compare setup" "TERM=screen session opens"
keys 5 e
expect "Edit GPU profile" "Data: edit a profile"
keys Down Down Down Down Down Down Down Down Enter C-u 1234 Enter
expect "1234" "a new price typed"
expect "(modified)" "the form knows it changed"
keys s
expect "profile saved" "the profile is saved"
expect "\$1234" "the listing shows the new price"
keys Escape
quit_clean "TERM=screen session"

# --- killed by SIGABRT while drawing ------------------------------------------
start 100 30 LANG=C.UTF-8 TERM=tmux-256color
expect "Compare setup" "session for the abort"
pid=$(tui_pid)
if [ -n "$pid" ] && kill -ABRT "$pid"; then
    expect_exit "SIGABRT" 134 "dies of SIGABRT (status 134)"
    if [ "$(tm display-message -p -t tui '#{alternate_on}')" = 0 ]; then
        ok "SIGABRT: the alternate screen is left"
    else
        bad "SIGABRT: still on the alternate screen"
    fi
else
    bad "SIGABRT: no dashboard process to signal"
fi

if [ -s "$T/tui.log" ]; then
    bad "something wrote to stdout/stderr behind the screen:"; cat "$T/tui.log"
else
    ok "nothing written to stdout/stderr behind the screen"
fi

echo "e2e_tui: $fails failed"
[ "$fails" -eq 0 ]
