#!/bin/sh
# Crash consistency: an import, an import replacing a trace and cluster, a
# run's save and a sweep are each killed with SIGKILL at random instants;
# after every kill the database must pass PRAGMA integrity_check, every row
# committed before the killed command must be unchanged (a digest over
# them; a replaced entity must still hold the same content, old or new),
# what the killed command wrote must be whole or absent (a trace with all
# its tasks and its cluster, a run with its metrics and one outcome per
# task), and gpuplan must open it.  A merge of a sweep's shard is killed
# the same way and then run again: each job must be held once, whole.
# Training is killed too: `estimate train` (GOGH's nets, each set with its
# six error rows or absent) and `peace train` (a PEACE set's models, all of
# them or none), CRASH_TRAIN_KILLS times each (default 3).
#
# The kill instant is drawn uniformly over the command's duration measured
# on an uninterrupted run; CRASH_SEED replays a draw (it is printed), and
# CRASH_KILLS sets the kills per command (default 6).
# Usage: GPUPLAN=./gpuplan sh tests/e2e_crash.sh  (run from the project root)
set -u
NAME=e2e_crash
. tests/lib_e2e.sh
no_samples

SEED=${CRASH_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
KILLS=${CRASH_KILLS:-6}
TRAIN_KILLS=${CRASH_TRAIN_KILLS:-3}
DB=$GPUPLAN_DB
echo "CRASH_SEED=$SEED CRASH_KILLS=$KILLS CRASH_TRAIN_KILLS=$TRAIN_KILLS"
command -v sqlite3 >/dev/null || { echo "$NAME: skipped (no sqlite3 program)"; exit 0; }

q() { sqlite3 "$DB" "$1"; }

# A native set twice the size of sample-data/pai-like (6000 tasks, 420k
# utilization samples; the copy's names get a suffix), so an import lasts
# long enough to be cut while it writes.
big="$T/big"
mkdir -p "$big"
cp sample-data/pai-like/nodes.csv "$big/"
for f in tasks util; do
    awk -F, -v OFS=, 'FNR == 1 { copy++; if (copy == 1) print; next }
                      { if (copy > 1) $1 = $1 "-" copy; print }' \
        "sample-data/pai-like/$f.csv" "sample-data/pai-like/$f.csv" >"$big/$f.csv"
done
TASKS=$(($(wc -l <"$big/tasks.csv") - 1))

# The committed base: what the killed commands read.
expect_rc 0 "import the base set" "$G" import --name base "$big"
expect_rc 0 "import the set to replace" "$G" import --name imp-r "$big"
expect_rc 0 "import openb-like" "$G" import sample-data/openb-like
expect_rc 0 "import gavel-like" "$G" import sample-data/gavel-like
expect_rc 0 "import a PEACE set" "$G" import --name plab sample-data/peace-v100

# --- the checks ------------------------------------------------------------

# The entity the command replaces (its rows are left out of the digest and
# its content compared instead), or empty.
REPLACED=
# A table whose rows the command may update in place (a PEACE set's
# models, retrained), left out of the digest; whole() checks it.
VOLATILE=
# How many models one `peace train` stores (counted after the first).
PEACE_MODELS=

# Marks what is committed now: each table's largest rowid ("-" for a table
# without rowid, whose rows belong to a parent row: the one their cascading
# foreign key names), and the rowids of rows named $REPLACED ("-": none).
mark() {
    for t in $(q "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"); do
        m=$(sqlite3 "$DB" "SELECT coalesce(max(rowid), 0) FROM \"$t\"" 2>/dev/null) || m=-
        skip=$(sqlite3 "$DB" "SELECT group_concat(rowid) FROM \"$t\" WHERE name = '$REPLACED'" \
               2>/dev/null)
        echo "$t $m ${skip:--}"
    done >"$T/mark"
}

# A digest of the rows that existed at the mark.
old_digest() {
    while read -r t m skip; do
        [ "$t" = "$VOLATILE" ] && continue
        if [ "$m" != - ]; then
            where="rowid <= $m AND rowid NOT IN (${skip#-})"
            order=rowid
        else
            fk=$(q "SELECT \"from\" || ' ' || \"table\" FROM pragma_foreign_key_list('$t')
                     WHERE on_delete = 'CASCADE' LIMIT 1")
            where=1
            if [ -n "$fk" ]; then
                pm=$(awk -v p="${fk#* }" '$1 == p { print $2 }' "$T/mark")
                pskip=$(awk -v p="${fk#* }" '$1 == p { print $3 }' "$T/mark")
                where="\"${fk%% *}\" <= ${pm:-0} AND \"${fk%% *}\" NOT IN (${pskip#-})"
            fi
            order="1, 2"
        fi
        echo "== $t"
        q "SELECT * FROM \"$t\" WHERE $where ORDER BY $order"
    done <"$T/mark" | md5sum
}

# Whatever a command left must be whole: every trace named imp* has all
# its tasks and its cluster; every run has metrics, and every run that is
# not an inflation run one outcome per task of its trace.
whole() {
    q "SELECT t.name FROM trace t WHERE t.name LIKE 'imp%' AND
           ((SELECT count(*) FROM task k WHERE k.trace_id = t.id) != $TASKS OR
            NOT EXISTS (SELECT 1 FROM cluster c WHERE c.name = t.name))"
    q "SELECT 'run ' || r.id FROM run r WHERE
           NOT EXISTS (SELECT 1 FROM run_metric m WHERE m.run_id = r.id) OR
           (r.name NOT LIKE 'inflation%' AND
            (SELECT count(*) FROM run_outcome o WHERE o.run_id = r.id) !=
            (SELECT count(*) FROM task k WHERE k.trace_id = r.trace_id))"
    q "SELECT 'nets ' || n.name FROM gogh_nets n WHERE length(n.nets) = 0 OR
           (SELECT count(*) FROM gogh_nets_error e WHERE e.nets_id = n.id) != 6"
    [ -z "$PEACE_MODELS" ] ||
        q "SELECT 'PEACE models of set ' || set_id FROM peace_model GROUP BY set_id
               HAVING count(*) != $PEACE_MODELS"
}

# What the replaced trace and cluster hold, as export writes it.
content() {
    [ -z "$REPLACED" ] && return
    { "$G" export trace "$REPLACED"; "$G" export cluster "$REPLACED"; } | md5sum
}

check_state() {   # check_state WHAT
    ic=$(q "PRAGMA integrity_check")
    [ "$ic" = ok ] || { bad "$1: integrity_check says: $ic"; return; }
    [ "$(old_digest)" = "$before" ] || { bad "$1: rows committed before it changed"; return; }
    [ "$(content)" = "$content_before" ] || { bad "$1: $REPLACED changed"; return; }
    partial=$(whole)
    [ -z "$partial" ] || { bad "$1: left partial data: $partial"; return; }
    "$G" list >"$T/list" 2>&1 || { bad "$1: gpuplan list fails afterwards"; cat "$T/list"; return; }
    ok "$1"
}

# --- killing ---------------------------------------------------------------

# A uniform instant in [0, $2) seconds, the $1-th draw of the seeded stream.
draw() {
    awk -v s="$SEED" -v n="$1" -v d="$2" 'BEGIN { srand(s * 1000 + n); printf "%.3f", rand() * d }'
}

# measure WHAT CMD...: runs it to completion (it must succeed), leaving its
# duration in $dur.
measure() {
    what=$1; shift
    t0=$(date +%s.%N)
    "$@" >"$T/out" 2>"$T/err"
    rc=$?
    dur=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    if [ $rc -eq 0 ]; then ok "$what (uninterrupted, ${dur}s)"; else bad "$what failed"; cat "$T/err"; fi
}

kills=0
draws=0
# crash WHAT CMD...: runs the command $KILLS times, each killed at a drawn
# instant (or finished before it), and checks the database after each.
crash() {
    what=$1; shift
    i=1
    while [ "$i" -le "$KILLS" ]; do
        mark
        before=$(old_digest)
        content_before=$(content)
        draws=$((draws + 1))
        at=$(draw "$draws" "$dur")
        "$@" >/dev/null 2>&1 &
        pid=$!
        sleep "$at"
        kill -9 "$pid" 2>/dev/null
        # (braces: the shell's "Killed" notice goes to /dev/null too)
        { wait "$pid"; } 2>/dev/null
        if [ $? -eq 137 ]; then
            kills=$((kills + 1))
            check_state "$what #$i killed at ${at}s"
        else
            check_state "$what #$i finished before ${at}s"
        fi
        i=$((i + 1))
    done
}

# one WHAT CMD...: the command once uninterrupted, then $KILLS times killed.
# (Set KILLS around it for a different count.)
one() {
    what=$1; shift
    mark
    before=$(old_digest)
    content_before=$(content)
    measure "$what" "$@"
    check_state "$what: the uninterrupted result"
    crash "$what" "$@"
}

one "import" sh -c 'exec "$0" import --name "imp$$" "$1"' "$G" "$big"
REPLACED=imp-r
one "import --replace" "$G" import --replace --name imp-r "$big"
REPLACED=
one "run" "$G" run --trace base --cluster base --policy first
one "sweep" "$G" sweep inflation --trace openb-like --cluster openb-like --seeds 1-40 \
    --policy fgd,bestfit,pwr -q

# --- training --------------------------------------------------------------
ALL_KILLS=$KILLS
KILLS=$TRAIN_KILLS
kills_before=$kills
one "estimate train" sh -c 'exec "$0" estimate train --tput gavel-like --name "est$$" \
    --hidden 8 --layers 1 --epochs 200' "$G"
echo "$NAME: estimate train: $((kills - kills_before)) of $KILLS killed"
VOLATILE=peace_model
measure "peace train (to count its models)" "$G" peace train plab --trees 20
PEACE_MODELS=$(q "SELECT count(*) FROM peace_model m JOIN peace_set s ON s.id = m.set_id
                  WHERE s.name = 'plab'")
kills_before=$kills
one "peace train" "$G" peace train plab --trees 20
echo "$NAME: peace train: $((kills - kills_before)) of $KILLS killed ($PEACE_MODELS models)"
VOLATILE=
KILLS=$ALL_KILLS

# --- merge ---------------------------------------------------------------
# A merge killed part-way, then run again to the end, holds each job of the
# shard's sweep once: every run with its metrics and its sweep tag.
merge_kills=0
G_ABS=$(cd "$(dirname "$G")" && pwd)/$(basename "$G")
# Seeds the sweep above did not run: a sweep of its own, which the
# database lacks whole.
"$G" jobs --shards 1 --program "$G_ABS" sweep inflation --trace openb-like --cluster openb-like \
    --seeds 101-300 --policy bestfit,pwr -q >"$T/jobs.txt" 2>/dev/null
(cd "$T" && sh jobs.txt >/dev/null 2>&1) && ok "a shard of 400 runs" || bad "the shard failed"
# The shard starts as a copy of the database: its new runs are those
# beyond the database's.  Killed sweeps above may have left runs without
# tags; only what the merge adds is judged.
S=$(($(sqlite3 "$T/shard-0.db" "SELECT count(*) FROM sweep_run") -
     $(q "SELECT count(*) FROM sweep_run")))
TAGS=$(($(q "SELECT count(*) FROM sweep_run") + S))
RUNS=$(($(q "SELECT count(*) FROM run") + S))
LAST=$(q "SELECT coalesce(max(id), 0) FROM run")
sqlite3 "$DB" ".backup '$T/target.db'"
measure "merge" "$G" merge "$T/shard-0.db" --into "$T/target.db"
i=1
while [ "$i" -le "$KILLS" ]; do
    sqlite3 "$DB" ".backup '$T/target.db'"
    rm -f "$T/target.db-wal" "$T/target.db-shm"
    draws=$((draws + 1))
    at=$(draw "$draws" "$dur")
    "$G" merge "$T/shard-0.db" --into "$T/target.db" >/dev/null 2>&1 &
    pid=$!
    sleep "$at"
    kill -9 "$pid" 2>/dev/null
    { wait "$pid"; } 2>/dev/null
    st=$?
    how="finished before"
    [ $st -eq 137 ] && { how="killed at"; kills=$((kills + 1)); merge_kills=$((merge_kills + 1)); }
    what="merge #$i $how ${at}s, then again"
    ic=$(sqlite3 "$T/target.db" "PRAGMA integrity_check")
    if [ "$ic" != ok ]; then bad "$what: integrity_check says: $ic"
    elif ! "$G" merge "$T/shard-0.db" --into "$T/target.db" >"$T/out" 2>"$T/err"; then
        bad "$what: the second merge failed"; cat "$T/err"
    else
        got=$(sqlite3 "$T/target.db" "SELECT (SELECT count(*) FROM sweep_run) || ' ' ||
            (SELECT count(*) FROM run) || ' ' ||
            (SELECT count(*) FROM run r WHERE r.id > $LAST AND
             (NOT EXISTS (SELECT 1 FROM sweep_run s WHERE s.run_id = r.id) OR
              NOT EXISTS (SELECT 1 FROM run_metric m WHERE m.run_id = r.id)))")
        if [ "$got" = "$TAGS $RUNS 0" ]; then ok "$what: $S runs added, each once and whole"
        else bad "$what: tags, runs, half runs = $got (wanted $TAGS $RUNS 0)"; fi
    fi
    i=$((i + 1))
done
echo "$NAME: merge: $merge_kills of $KILLS killed"

echo "$NAME: $kills of $draws commands killed (the rest finished first)"
e2e_finish
