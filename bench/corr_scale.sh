#!/bin/sh
# corr_scale.sh — how the correlation family's CPU time grows with the
# trace, against a reference build: Gavel-style traces of each size in
# CORR_TASKS, without series (2,000 arrivals an hour) and with each job's
# own series (`--series 100-600`, 5,900 an hour), run by each policy of
# CORR_POLICIES on 100,000 V100 (`run --no-save --tput none`).  CPU
# seconds are user + system time from /usr/bin/time, the median of
# CORR_RUNS runs; peak RSS in MiB; the load average before each run, since
# the machine may be shared.  The reference (argument 2, with its own
# sample data in CORR_REF_SAMPLES) runs the same commands on its own copy
# of the database, and the two CSV outputs must be identical.
#
#   sh bench/corr_scale.sh ./gpuplan [REF_GPUPLAN]
#
# Environment: CORR_TASKS (default "3000 30000"), CORR_POLICIES (default
# "cats corrgpu hotcloud"), CORR_RUNS (3), CORR_SERIES ("0 1"), CORR_DIR
# (work directory, default a new one under /tmp), CORR_ARGS and
# CORR_REF_ARGS (more `run` options for each build, e.g. CORR_ARGS=
# "--corr-grid absolute" to measure one reading against the other; the
# CSVs then differ by design).
set -e
NEW=${1:?usage: corr_scale.sh GPUPLAN [REF_GPUPLAN]}
REF=${2:-}
TASKS=${CORR_TASKS:-3000 30000}
POLICIES=${CORR_POLICIES:-cats corrgpu hotcloud}
RUNS=${CORR_RUNS:-3}
SERIES=${CORR_SERIES:-0 1}
DIR=${CORR_DIR:-$(mktemp -d /tmp/corr_scale.XXXXXX)}

"$NEW" --db "$DIR/new.db" generate cluster --gpus V100:100000 --per-node 8 -n big100k >/dev/null
for n in $TASKS; do
    "$NEW" --db "$DIR/new.db" generate trace --tput gavel-like --jobs "$n" --rate 2000 \
        -n "p$n" >/dev/null
    "$NEW" --db "$DIR/new.db" generate trace --tput gavel-like --jobs "$n" --rate 5900 \
        --series 100-600 -n "s$n" >/dev/null
done
[ -n "$REF" ] && cp "$DIR/new.db" "$DIR/ref.db"
RUNENV=
RUNARGS=${CORR_ARGS:-}

# one BIN DB TRACE POLICY: "cpu_s rss_mib load" of one run; its CSV in $DIR/out.csv
one() {
    load=$(cut -d' ' -f1 /proc/loadavg)
    env $RUNENV /usr/bin/time -f '%U %S %M' -o "$DIR/time" "$1" --db "$2" run --trace "$3" \
        --cluster big100k --policy "$4" --no-save --tput none --format csv $RUNARGS \
        >"$DIR/out.csv" 2>/dev/null
    awk -v l="$load" '{printf "%.2f %.0f %s\n", $1 + $2, $3 / 1024, l}' "$DIR/time"
}

# median BIN DB TRACE POLICY: "cpu_s rss_mib loads" over RUNS runs
median() {
    i=0
    : >"$DIR/runs"
    while [ $i -lt "$RUNS" ]; do
        one "$@" >>"$DIR/runs"
        i=$((i + 1))
    done
    sort -n "$DIR/runs" | awk '{c[NR] = $1; r[NR] = $2; l = l (NR > 1 ? "/" : "") $3}
        END {m = int((NR + 1) / 2); printf "%s %s %s\n", c[m], r[m], l}'
}

echo "policy,trace,tasks,series,cpu_s,rss_mib,load,ref_cpu_s,ref_load,ratio,same_csv"
for p in $POLICIES; do
    for s in $SERIES; do
        for n in $TASKS; do
            t=$([ "$s" = 1 ] && echo "s$n" || echo "p$n")
            set -- $(median "$NEW" "$DIR/new.db" "$t" "$p")
            cpu=$1 rss=$2 load=$3
            cp "$DIR/out.csv" "$DIR/new.csv"
            ref_cpu= ref_load= ratio= same=
            if [ -n "$REF" ]; then
                RUNENV=${CORR_REF_SAMPLES:+GPUPLAN_SAMPLES=$CORR_REF_SAMPLES}
                RUNARGS=${CORR_REF_ARGS:-}
                set -- $(median "$REF" "$DIR/ref.db" "$t" "$p")
                RUNENV=
                RUNARGS=${CORR_ARGS:-}
                ref_cpu=$1 ref_load=$3
                ratio=$(awk -v a="$cpu" -v b="$ref_cpu" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}')
                same=$(cmp -s "$DIR/out.csv" "$DIR/new.csv" && echo yes || echo NO)
            fi
            echo "$p,$t,$n,$s,$cpu,$rss,$load,$ref_cpu,$ref_load,$ratio,$same"
        done
    done
done
