#!/bin/sh
# End-to-end test of the dashboard's everyday conveniences, through tmux:
#   mouse (a click on a tab, on a list row in another pane, the wheel),
#   settings kept in $XDG_CONFIG_HOME/gpuplan/settings from one start to the next,
#   the run table ordered by a column with the header marking it,
#   q asking before it throws away unsaved runs, S not saving twice,
#   Step's rejection reason at 80 columns, names cut with an ellipsis,
#   the import prompt (starts empty, Tab completes paths, a missing file
#   says so), a cluster made in Data, the frequency view's legend, and an
#   inflation run reopened against the share of tasks arrived.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_tui_everyday.sh  (run from the project root)
set -u
NAME=e2e_tui_everyday
NEED=cats-testbed
WAIT_S=30
. tests/lib_tui.sh
# mouse BUTTON X Y: an xterm (X10) mouse report, 0-based cell; 0 = left
# press, 3 = release, 64/65 = wheel up/down.
mouse() {
    tm send-keys -t tui -l "$(printf '\033[M%b%b%b' "\\$(printf %03o $((32 + $1)))" \
        "\\$(printf %03o $((33 + $2)))" "\\$(printf %03o $((33 + $3)))")"
}
click() { mouse 0 "$1" "$2"; mouse 3 "$1" "$2"; }
# col_of TEXT: the column where TEXT starts on the screen's first line showing it.
col_of() { cap; grep -m1 -F -- "$1" "$T/screen" | awk -v t="$1" '{ print index($0, t) - 1 }'; }
row_of() { cap; grep -n -m1 -F -- "$1" "$T/screen" | cut -d: -f1 | awk '{ print $1 - 1 }'; }
start() {
    w=$1 h=$2
    shift 2
    end_session
    tm new-session -d -s tui -x "$w" -y "$h" \
        "env $* GPUPLAN_TUI_LOG='$T/tui.log' '$G'; echo \"EXITED rc=\$?\"; sleep 600"
}

"$G" list >/dev/null 2>"$T/seed.err" || { cat "$T/seed.err"; bad "database created"; }

# --- mouse and settings ------------------------------------------------------
start 120 40 LANG=C.UTF-8 TERM=tmux-256color
expect "Compare setup" "opens on the Compare setup"
expect "Run: cats-testbed on cats-testbed" "the default input"
# A click on the pai-like row of the Clusters pane (not the focused pane).
x=$(col_of "32 nodes, 256 GPUs"); y=$(row_of "32 nodes, 256 GPUs")
click "$x" "$y"
expect "Run: cats-testbed on pai-like" "a click picks a row in another pane"
keys q
expect "EXITED rc=0" "quits at once with nothing to lose"
if grep -q "cluster = pai-like" "$T/config/gpuplan/settings" 2>/dev/null; then
    ok "the cluster is kept in the settings file"
else
    bad "settings file lacks the cluster"; cat "$T/config/gpuplan/settings"
fi
start 120 40 LANG=C.UTF-8 TERM=tmux-256color
expect "Run: cats-testbed on pai-like" "the next start begins with the kept cluster"
x=$(col_of "1 node, 6 GPUs"); y=$(row_of "1 node, 6 GPUs")
click "$x" "$y"
expect "Run: cats-testbed on cats-testbed" "and clicks back"
x=$(col_of "5 Data")
click "$x" 0
expect "Kinds" "a click on a tab opens its screen"
x=$(col_of "1 Compare")
click "$x" 0
expect "Compare setup" "and back"

# --- run table order, quitting with unsaved runs, saving once ---------------
keys Enter
expect "3 runs ready at t=0" "comparison starts"
keys Right
expect "decision #1" "one placement"
keys o
expect "Policy▲" "o orders by the first column, marked in the header"
keys o
expect "Dec▲" "o again: the next column"
keys O
expect "Dec▼" "O reverses it"
keys q
expect "Quit and throw away 3 unsaved runs" "q asks before throwing runs away"
keys n
expect "Dec▼" "n keeps the dashboard"
keys End
expect "ran to the end" "runs to the end"
keys S
expect "saved 3 runs" "S saves the finished runs"
keys S
expect "already saved (runs #" "S again does not save them twice"
"$G" --format csv list runs > "$T/runs.csv"
n=$(grep -c "^run," "$T/runs.csv")
[ "$n" -eq 3 ] && ok "three runs in the store" || { bad "$n runs stored"; cat "$T/runs.csv"; }
# The wheel moves the run table's cursor.
y=$(row_of "corrgpu   ")
mouse 65 10 "$y"
mouse 65 10 "$y"
keys Enter
expect "focus: " "the wheel moved the cursor, Enter focuses that run"
keys q
expect "EXITED rc=0" "saved runs: q quits without asking"

# --- 80 columns: Step's reason, ellipses --------------------------------------
start 80 24 LANG=C.UTF-8 TERM=tmux-256color
expect "Compare setup" "80x24 opens"
expect "openb-like   184 GPUs" "a row too long for its pane keeps its figure whole: words go, never digits"
expect "corr…mple 2 tasks" "a name cut in the middle keeps its ends"
keys Enter
expect "3 runs ready" "runs at 80x24"
keys Right Right Right Right Right
keys 2
expect "Decision #5 of cats" "five placements"
expect "rho 0.52 > 0" "Step's rejection reason is visible at 80 columns"
y=$(row_of "testbed/g1 ")
click 6 "$y"
keys Enter
expect "testbed/g1  V100" "a click on a candidate puts the cursor there (Enter opens its GPU)"
keys f
expect "f_max" "the frequency legend names the f_max level"
expect "of f range" "and the threshold of the levels below"
keys 1 q y
expect "EXITED rc=0" "y throws the runs away and quits"

# --- a settings file written by hand: specs come back, unknown names do not ---
mkdir -p "$T/config/gpuplan"
printf 'chart_style = ascii\npolicies = first, corrgpu:0.2, nosuchpolicy\n' \
    > "$T/config/gpuplan/settings"
start 120 40 LANG=C.UTF-8 TERM=tmux-256color
expect "with first, corrgpu:0.2" "picked policies and specs are restored"
expect_not "nosuchpolicy" "a policy not in this build is left out"
keys q
expect "EXITED rc=0" "quits"
grep -q "chart_style = ascii" "$T/config/gpuplan/settings" &&
    ok "an unchanged setting is not rewritten away" || bad "settings rewritten"

# --- import prompt and a new cluster in Data ----------------------------------
mkdir -p "$T/files/lab-set"
cp "$SAMPLES/cats-testbed/"*.csv "$T/files/lab-set/"
start 120 40 LANG=C.UTF-8 TERM=tmux-256color
expect "Compare setup" "opens again"
keys 5 i
expect "Import: file or directory paths" "the import prompt"
keys -l "$T/files/la"
keys Tab
expect "$T/files/lab-set/" "Tab completes the directory"
keys C-u
keys -l "$T/nosuch.csv"
keys Enter
expect "$T/nosuch.csv: no such file or directory" "a missing file says so"
keys i
expect "Import: file or directory paths" "the prompt again"
expect_not "nosuch" "it starts empty, not with the last paths"
keys Escape
keys c
expect "New cluster:" "c asks for a cluster"
keys -l "lab --gpu H100 --servers 3 --per-server 4"
keys Enter
expect "cluster 'lab': 3 servers, 12 GPUs" "the cluster is made"
"$G" --format csv list clusters > "$T/clusters.csv"
grep -q ",lab,3,12," "$T/clusters.csv" && ok "and stored" || { bad "not stored"; cat "$T/clusters.csv"; }
keys q
expect "EXITED rc=0" "quits"

# --- an inflation run reopened in Compare ----------------------------------------
"$G" sweep inflation --trace openb-like --cluster openb-like --policy bestfit >/dev/null 2>&1 ||
    bad "inflation sweep"
id=$("$G" --format csv list runs | grep "inflation bestfit" | cut -d, -f2)
start 120 40 LANG=C.UTF-8 TERM=tmux-256color
expect "Compare setup" "opens"
keys 5
expect "Kinds" "Data"
y=$(row_of "Saved runs")
x=$(col_of "Saved runs")
click "$x" "$y"
expect "─ Saved runs ─" "a click on a kind lists it"
keys Enter
expect "#$id" "the inflation run listed"
y=$(row_of "#$id")
x=$(col_of "#$id")
click "$x" "$y"
click "$x" "$y"                 # a double click is Enter: it reopens the run
expect "% of tasks arrived" "its charts run along the share of tasks arrived"
expect_not "294" "not along a 294-day time axis"
keys q
expect "EXITED rc=0" "quits"

echo "e2e_tui_everyday: $fails failed"
[ "$fails" -eq 0 ]
