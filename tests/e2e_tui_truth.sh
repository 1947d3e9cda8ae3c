#!/bin/sh
# End-to-end test that the dashboard tells the same truth as the CLI and
# never freezes, driven through tmux (send-keys / capture-pane) on a fresh
# database made from sample-data/:
#
#   Compare's figures do not depend on how playback ended (played to the
#   end, or End after r) and equal `gpuplan run`'s for every policy (each
#   run its own span, no shared horizon); on every sample set, every column
#   the Compare table shares with `gpuplan run` agrees, live and reopened
#   from the store; rows of different power models are flagged and one
#   model can be chosen for all (as --power); the CLI's jct_vs_best_within_kappa
#   and SLA percentages that never contradict their verdict; editing max_w
#   derives CATS's slope again (CLI and the Data form); Step after f shows
#   the chosen server; a corrupt database shows the store's error; End runs
#   in slices: Esc cancels it and keys typed meanwhile are dropped; the
#   dashboard refuses to open without a terminal.
#
# Usage: GPUPLAN=./gpuplan sh tests/e2e_tui_truth.sh  (from the project root)
# Every wait polls the screen with a timeout; no assertion is on time.
set -u
NAME=e2e_tui_truth
NEED=pai-like
WAIT_S=60
. tests/lib_tui.sh
start() {       # start W H: the dashboard in a fresh session
    end_session
    tm new-session -d -s tui -x "$1" -y "$2" \
        "env LANG=C.UTF-8 TERM=tmux-256color GPUPLAN_DB='$GPUPLAN_DB' '$G'; echo \"EXITED rc=\$?\"; sleep 600"
}
quit_answering() {  # q, saying yes when it asks about unsaved runs
    keys q
    end=$(( $(date +%s) + WAIT ))
    while cap && ! grep -qF "EXITED rc=" "$T/screen" && [ "$(date +%s)" -lt "$end" ]; do
        if grep -qF "Quit and throw away" "$T/screen"; then keys y; break; fi
        sleep 0.2
    done
    expect "EXITED rc=0" "quits"
}
contains() {    # contains FILE TEXT DESCRIPTION
    if grep -qF -- "$2" "$1"; then ok "$3"; else bad "$3: no '$2' in:"; cat "$1"; fi
}

# The dashboard's number format (ui/chart.c chart_fmt), for comparing the
# CLI's full-precision metrics with the table's cells.
FMT_AWK='
function strip(s,   n) {
    if (index(s, ".") == 0) return s
    sub(/0+$/, "", s); sub(/\.$/, "", s); return s
}
function fmt(v,   a, u, s) {
    a = v < 0 ? -v : v
    if (a < 1e-9) return "0"
    if (a >= 1e3) {
        u = 0
        while (a >= 999.5 && u < 4) { a /= 1e3; v /= 1e3; u++ }
        s = sprintf(a < 9.95 ? "%.1f" : "%.0f", v)
        return strip(s) substr("kMGT", u, 1)
    }
    if (a >= 100) s = sprintf("%.0f", v)
    else if (a >= 10) s = sprintf("%.1f", v)
    else if (a >= 1) s = sprintf("%.2f", v)
    else s = sprintf("%.2g", v)
    if (index(s, "e")) { sub(/e-0/, "e-", s); return s }
    return strip(s)
}
# A duration as the table shows one (ui/chart.c chart_fmt_time): 45s, 2.5s,
# 02:15:00, and 1d_02:15:00 for 1d 02:15:00 (row() joins its two halves).
function fmt_time(v,   a, r, d, rest, s) {
    a = v < 0 ? -v : v
    if (a < 59.5) return strip(sprintf(a < 10 ? "%.1f" : "%.0f", v)) "s"
    r = int(a + 0.5); d = int(r / 86400); rest = r - d * 86400
    s = sprintf("%02d:%02d:%02d", int(rest / 3600), int(rest / 60) % 60, rest % 60)
    return (v < 0 ? "-" : "") (d > 0 ? d "d_" : "") s
}'

# row POLICY: the Compare table's cells of that policy's row, one per
# field (Policy Dec Done Queue GPUs avgGPU peak Wnow avgW kWh Frag JCTp50
# JCTp95 SLA Used CapEx$ Power); a duration of days is one field, 1d_02:15:00.
row() {
    sed -n "s/^│[ >]■\($1 .*\)│ *$/\1/p" "$T/screen" | head -1 |
        sed 's/\([0-9]d\) \([0-9][0-9]:\)/\1_\2/g'
}
# expected ID: the same cells from `gpuplan show run ID` (the CLI's metrics).
expected() {
    "$G" show run "$1" --format csv > "$T/show.csv" 2>&1
    awk -F, "$FMT_AWK"'
        { m[$1] = $2 }
        END {
            # GPUs without a price: the CapEx cell says so (unknown, N+?)
            capex = fmt(m["capex_usd"])
            if (m["unpriced_gpus"] > 0)
                capex = m["capex_usd"] == 0 ? "unknown" : capex "+?"
            printf "%s %s %s %s %s %s %s %s %s %s %s %s\n", m["decisions"],
                m["completed"] + m["failed_tasks"], fmt(m["avg_gpus"]), fmt(m["peak_gpus"]),
                fmt(m["avg_power_w"]), fmt(m["energy_j"] / 3.6e6),
                fmt_time(m["jct_p50_s"]), fmt_time(m["jct_p95_s"]), m["sla_violations"],
                m["unique_gpus"], capex, m["power_model"]
        }' "$T/show.csv"
}
# shown POLICY: the cells of its row the run's stored metrics also give
# (all but the instantaneous GPUs, W and Frag), in expected()'s order.
shown() {
    row "$1" | awk '{ print $2, $3, $6, $7, $9, $10, $12, $13, $14, $15, $16, $17 }'
}
# agree WHAT POLICY ID: the row of POLICY on screen equals run ID's metrics.
agree() {
    e=$(expected "$3")
    s=$(shown "$2")
    # a screen caught before the row is drawn (a reopened run's table on a
    # loaded machine, or under the sanitizers) has nothing to compare yet:
    # look again, up to 30 s
    n=0
    while [ -z "$s" ] && [ $n -lt 120 ]; do
        sleep 0.25
        s=$(shown "$2")
        n=$((n + 1))
    done
    if [ -n "$s" ] && [ "$s" = "$e" ]; then ok "$1: $2 agrees with gpuplan run ($s)"
    else bad "$1: $2 shows '$s', gpuplan run says '$e'"; show; fi
}
# cli_ids TRACE POLICIES: runs them with the CLI (saved); prints the run ids.
cli_ids() {
    "$G" run --trace "$1" --cluster "$1" --policy "$2" --format csv 2>/dev/null |
        awk -F, 'NR > 1 && $1 != "optimal" { print $NF }'
}
# pick TRACE: selects a trace (and its cluster) in the Compare setup, its
# Traces pane focused.
pick() {
    expect "Compare setup" "setup for $1"
    keys /
    expect "Search" "search prompt"
    keys "$1" Enter
    expect "Run: $1 on $1" "$1 chosen"
}

# The database, made once from the sample sets (outside the TUI).
"$G" list >/dev/null 2>"$T/seed.err" || { cat "$T/seed.err"; bad "database created"; }

# --- no terminal: a clear refusal, not escape codes into a file ------------
# (timeout: a dashboard that does open without a terminal never returns)
timeout 20 "$G" </dev/null >"$T/notty.out" 2>"$T/notty.err"
rc=$?
if [ "$rc" -eq 2 ] && [ ! -s "$T/notty.out" ]; then ok "no terminal: exit 2, nothing written"
else bad "no terminal: exit $rc, $(wc -c < "$T/notty.out") bytes written"; fi
contains "$T/notty.err" "the dashboard needs a terminal" "no terminal: says why"

# --- the CLI's names and percentages say what they mean ---------------------
"$G" run --trace pai-like --cluster pai-like --policy cats,hotcloud --no-save \
    >"$T/run.out" 2>&1
contains "$T/run.out" "jct_vs_best_within_kappa" "run: the mean-JCT SLA column is named for what it is"
if grep -q "within_sla" "$T/run.out"; then bad "run: no within_sla column"; else ok "run: no within_sla column"; fi
awk '$1 == "policy" { for (i = 1; i <= NF; i++) if ($i == "sla_viol") c = i }
     $1 == "cats" && $c == 1117' "$T/run.out" | grep -q . &&
    ok "run: cats's 1117 SLA violations next to its mean-JCT verdict" ||
    { bad "run: cats's 1117 violations"; cat "$T/run.out"; }
# 1 of 14 tasks over its SLA is 7.142857 %: against <= 7.14 it fails, so it
# may not print as 7.14.
"$G" plan --trace cats-testbed --gpu V100 --from 6 --to 6 --policy cats --sla-target 7.14 \
    --format csv >"$T/plan.csv" 2>&1
contains "$T/plan.csv" "6,cats,14,7.143," "plan: 7.143 % fails <= 7.14 % and says so in its digits"

# --- profiles: editing max_w moves CATS's slope with it ---------------------
"$G" profile gpu H100 max_w=600 >"$T/prof.out" 2>&1
contains "$T/prof.out" "max_w 700 -> 600; alpha_w_per_mhz 0.318182 -> 0.267677" \
    "profile: max_w 700 -> 600 derives the slope again and shows it"
"$G" profile gpu H100 >"$T/prof.out" 2>&1
contains "$T/prof.out" "0.267677" "profile: the new slope is stored"
"$G" profile gpu T4 alpha_w_per_mhz=0.05 >/dev/null 2>&1
"$G" profile gpu T4 max_w=80 >"$T/prof.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && ok "profile: a measured slope is not guessed (exit 1)" || bad "profile: exit $rc"
contains "$T/prof.out" "was measured, not derived" "profile: says why and what to give"

# --- Compare: how playback ended does not change the figures ----------------
ids=$(cli_ids pai-like cats,hotcloud)
cats_id=$(echo "$ids" | sed -n 1p)
hot_id=$(echo "$ids" | sed -n 2p)
start 160 48
expect "Compare setup" "opens on the Compare setup"

# --- the Planner: a shown SLA never contradicts its verdict -----------------
# (the first sweep: cats-testbed on V100, cats, corrgpu and first)
keys 4
expect "What if" "Planner"
expect "Trace            cats-testbed" "the Planner plans for cats-testbed"
keys Home
for i in 1 2 3 4 5 6 7 8 9 10 11; do keys Down; done
keys Enter
sleep 0.5
keys BSpace BSpace BSpace BSpace BSpace BSpace 7.1 Enter
expect "<= 7.1% violations" "target 7.1 %"
keys r
expect "sweep done" "sweep finished"
expect " 7.14 " "7.142857 % shows as 7.14, not 7.1, against <= 7.1 %"
keys 1

keys x
pick pai-like
keys Tab Tab
keys Space Down Down Down Space
expect "with cats, hotcloud" "cats and hotcloud picked"
keys Enter
expect "2 runs ready at t=0" "comparison starts"
keys + + + + + + Space
expect "finished" "played to the end"
expect "t=1d 13:52:28 of ~1d 13:00:00" "played: the clock stops at the runs' end"
agree "played to the end" cats "$cats_id"
agree "played to the end" hotcloud "$hot_id"
keys r
expect "restarted at t=0" "restarted"
keys End
expect "ran to the end" "End"
expect "t=1d 13:52:28 of ~1d 13:00:00" "End: the clock stops at the runs' end"
agree "End" cats "$cats_id"
agree "End" hotcloud "$hot_id"

# --- every sample set: every shared column agrees with gpuplan run ----------
# (s: the setup, its Policies pane focused; Tab: the Traces pane.)
for set in cats-testbed corrgpu-example gavel-like openb-like pai-like peace-mix; do
    [ -d "$SAMPLES/$set" ] || continue
    ids=$(cli_ids $set cats,corrgpu,first)
    keys s Tab
    pick $set
    keys Tab Tab x Home Space Down Space Down Space
    expect "with cats, corrgpu, first" "$set: cats, corrgpu, first picked"
    keys Enter
    expect "3 runs ready at t=0" "$set: comparison starts"
    keys End
    expect "ran to the end" "$set: End"
    i=1
    for p in cats corrgpu first; do
        agree "$set" $p "$(echo "$ids" | sed -n ${i}p)"
        i=$((i + 1))
    done
done

# --- a saved run reopened shows the same figures ----------------------------
keys 5
expect "Kinds" "Data"
keys Down Down Down Down Down Down Tab
expect "Saved runs" "saved runs listed"
keys Home Space
sleep 0.3
keys Enter
expect "saved run" "a saved run reopened"
first_id=$("$G" list runs --format csv | awk -F, 'NR == 2 { print $2 }')
first_pol=$("$G" list runs --format csv | awk -F, 'NR == 2 { print $3 }')
agree "reopened" "$first_pol" "$first_id"

# --- power models: flagged when mixed, one for all on request ---------------
keys 1 s Tab
pick openb-like
keys Tab Tab x Home Space
for i in 1 2 3 4 5 6 7 8 9 10; do keys Down; done
keys Space
expect "with cats, fgd" "cats and fgd picked"
expect "MIXED models" "setup: mixed power models flagged before running"
keys Enter
expect "2 runs ready" "cats and fgd start"
keys End
expect "ran to the end" "End"
expect "WATTS FROM DIFFERENT POWER MODELS" "the run table warns of mixed power models"
cap
[ "$(row cats | awk '{print $17}')" = cats ] && [ "$(row fgd | awk '{print $17}')" = eopc ] &&
    ok "the Power column names each row's model" || { bad "Power column"; show; }
"$G" run --trace openb-like --cluster openb-like --policy cats,fgd --no-save \
    >"$T/mixed.out" 2>"$T/mixed.err"
contains "$T/mixed.err" "different power models" "run: the CLI warns of mixed power models"
ids=$("$G" run --trace openb-like --cluster openb-like --policy cats,fgd --power cats \
      --format csv 2>/dev/null | awk -F, 'NR > 1 && $1 != "optimal" { print $NF }')
keys s p
expect "power: all cats" "p: every run measured with cats"
keys Enter
expect "2 runs ready" "restarted with one model"
keys End
expect "ran to the end" "End"
expect_not "WATTS FROM DIFFERENT" "one model: no warning"
agree "--power cats" cats "$(echo "$ids" | sed -n 1p)"
agree "--power cats" fgd "$(echo "$ids" | sed -n 2p)"

# --- Step after f: the cursor and the cluster pane follow the new focus -----
keys s p p
expect "power: each policy's own" "power back to each policy's own"
keys x Home
for i in 1 2 3 4 5 6 7 8 9 10; do keys Down; done
keys Space Down Space
expect "with fgd, pwr" "fgd and pwr picked"
keys Enter
expect "2 runs ready" "fgd and pwr start"
keys Right Right Right Right Right
expect "decision #5" "five placements"
keys 2
expect "Decision #5 of fgd" "Step shows fgd's decision 5"
expect "Cluster after the decision: node ob-node-14" "fgd placed on ob-node-14"
keys f
expect "Decision #5 of pwr" "f focuses pwr"
expect "Cluster after the decision: node ob-node-14" "after f: the chosen server, not the first candidate's"

# --- the Data form: max_w derives the slope again ---------------------------
keys 5
expect "Kinds" "Data"
keys Home Tab Home e
expect "Edit GPU profile A10" "the GPU profile form"
keys Down Down Enter
expect "max_w:" "max_w prompt"
keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace 600 Enter
expect "max_w 150 -> 600; alpha_w_per_mhz 0.0707965 -> 0.336283" \
    "Data form: the slope follows max_w, old -> new shown"
keys Escape
expect "Discard the changes" "leaving the form asks first"
keys y

quit_answering

# --- End on a long run: slices, Esc cancels, keys typed meanwhile dropped ---
"$G" generate trace --tput gavel-like --jobs 10000 --rate 100 --name long >/dev/null 2>&1
"$G" generate cluster --gpus V100:1024 --per-node 8 --name long >/dev/null 2>&1
start 160 48
expect "Compare setup" "reopened"
keys /
expect "Search" "search prompt"
keys long Enter
expect "Run: long on long" "the long trace chosen"
keys Tab Tab x Home Down Down Space
expect "with first" "first picked"
keys Enter
expect "1 run ready" "long run ready"
keys End
expect "Running to the end" "End shows its progress"
keys q j
sleep 0.5
keys Escape
expect "stopped at" "Esc cancels End"
cap
dec=$(row first | awk '{print $2}')
[ -n "$dec" ] && [ "$dec" -lt 10000 ] && ok "cancelled part way ($dec of 10000 decisions)" ||
    { bad "cancelled part way: '$dec'"; show; }
expect_not "EXITED" "q typed during End did not quit"
keys End
expect "ran to the end" "End again runs to the end"
agree "long, End after a cancel" first "$(cli_ids long first | sed -n 1p)"
quit_answering

# --- a corrupt database: the store's error, not an empty list ---------------
cp "$GPUPLAN_DB" "$T/bad.sqlite"
page=$(sqlite3 "$T/bad.sqlite" "select rootpage from sqlite_master where name = 'cluster'")
size=$(sqlite3 "$T/bad.sqlite" "pragma page_size")
if [ -n "$page" ] && [ -n "$size" ]; then
    head -c "$size" /dev/zero | tr '\0' '\377' |
        dd of="$T/bad.sqlite" bs="$size" seek=$((page - 1)) conv=notrunc 2>/dev/null
    GPUPLAN_DB="$T/bad.sqlite" "$G" list clusters >"$T/bad.out" 2>&1
    contains "$T/bad.out" "malformed" "the CLI reports the corrupt cluster table"
    GPUPLAN_DB="$T/bad.sqlite"
    start 160 48
    expect "malformed" "the TUI shows the store's error where the clusters would be"
    expect_not "(none in the database)" "no list claims to be empty"
    keys q
    GPUPLAN_DB="$T/db.sqlite"
else
    bad "corrupt database: no sqlite3 to find the cluster table's page"
fi

echo "$NAME: $fails failed"
[ "$fails" -eq 0 ]
