#!/bin/sh
# End-to-end test of one vocabulary between the dashboard and the CLI
# (ui and cli layers), through tmux on cats-testbed:
#   the decision Step numbers #N is the one `run --explain` prints as #N
#   (same task, same GPU, named node/gN in both);
#   `?` on Step, Cluster and the Planner defines their columns and terms,
#   at 80x24 and at 160x48, under xterm-256color and the Linux console;
#   Step's term headers are shortened distinctly, with a legend line.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_tui_vocab.sh  (run from the project root)
set -u
NAME=e2e_tui_vocab
NEED=cats-testbed
WAIT_S=30
. tests/lib_tui.sh
# cats-testbed alone: seeding the other sample sets would take most of the
# test's time.
mkdir "$T/samples"
ln -s "$SAMPLES/cats-testbed" "$T/samples/cats-testbed"
export GPUPLAN_SAMPLES="$T/samples"
start() {
    w=$1 h=$2
    shift 2
    end_session
    rm -rf "$XDG_CONFIG_HOME"
    tm new-session -d -s tui -x "$w" -y "$h" \
        "env $* '$G'; echo \"EXITED rc=\$?\"; sleep 600"
}

"$G" list >/dev/null 2>"$T/seed.err" || { cat "$T/seed.err"; bad "database created"; }

# --- the decision numbered N on Step is #N in --explain --------------------
N=3
"$G" run --cluster cats-testbed --trace cats-testbed --policy cats --explain --no-save \
    > "$T/explain" 2>&1 || bad "run --explain"
line=$(grep "^#$N " "$T/explain")
task=$(printf '%s\n' "$line" | sed -n 's/^#[0-9]* t=[0-9.]* \([^:]*\):.*/\1/p')
where=$(printf '%s\n' "$line" | sed -n 's/.* -> \([^ ]*\) .*/\1/p')
if [ -n "$task" ] && [ -n "$where" ]; then
    ok "--explain's #$N: $task -> $where"
else
    bad "--explain has no decision #$N"; head -8 "$T/explain"
fi
grep -q '^#0 ' "$T/explain" && bad "--explain numbers from 0" || ok "--explain numbers from 1"
grep -q '/g-1' "$T/explain" && bad "a GPU named g-1" || ok "no GPU named g-1"

start 160 48 LANG=C.UTF-8 TERM=xterm-256color
expect "Compare setup" "opens on the Compare setup"
expect "[1] cats" "cats is picked by default"
keys Enter
expect "runs ready at t=0" "comparison starts paused"
i=0
while [ $i -lt $N ]; do keys Right; i=$((i + 1)); expect "decision #$((i))" "placement $i"; done
keys 2
expect "Decision #$N of cats" "Step shows decision #$N"
expect "Task $task at t=" "the same task as --explain's #$N"
expect "placed on $where" "on the same GPU, named as --explain names it"
expect_not "(#" "no second number beside the task"
# CATS's four terms: mean_sum_pct is shortened by the rule, not cut.
expect "mean_sum%" "mean_sum_pct's header shortened by the rule"
expect_not "mean_sum_p " "not cut at ten characters"
expect "dmu: util. gap" "the legend names dmu"

# --- ? defines the columns -------------------------------------------------
keys '?'
expect "Columns and terms" "Step's ? lists its terms"
expect "CATS delta_mu (sec. 3.5, Alg. 1 line 7)" "dmu defined per the paper"
expect "mean_sum_pct" "mean_sum_pct listed"
keys Escape
keys 3
expect "Servers x GPUs" "Cluster"
keys '?'
expect "share milli" "Cluster's ? defines its columns"
keys Escape
keys 4
keys '?'
expect "SLA viol %" "the Planner's ? defines its columns"
expect "CapEx \$" "CapEx defined"
end_session

# --- 80x24 on the Linux console without colour ------------------------------
start 80 24 LANG=C TERM=linux NO_COLOR=1
expect "Compare setup" "80x24 console: Compare setup"
keys Enter
expect "runs ready at t=0" "80x24: comparison starts"
keys Right
keys 2
expect "Decision #1 of cats" "80x24: Step"
keys '?'
expect "Columns and terms" "80x24: Step's ? starts with its terms"
expect "Decision #N" "80x24: the numbering is defined first"
# A definition wraps instead of being cut: its end is on screen below.
keys NPage
expect "the first eligible GPU" "80x24: CATS's score defined to its end, wrapped not cut"
end_session

echo "$NAME: $fails failed"
[ "$fails" -eq 0 ]
