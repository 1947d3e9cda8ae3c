#!/bin/sh
# End-to-end test of the files gpuplan writes when writing fails: every
# output (sweep --events and --out, run --timeline, solve --write-lp and
# --write-mps, export as JSON and CSV, JSON on stdout) to /dev/full fails
# naming the file; a file cut short by the file-size limit leaves the old
# file as it was and no temporary file behind, and a CSV set the previous
# set whole; a symbolic link at the
# path is refused and what it points to is left alone.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_writes.sh  (run from the project root)
set -u
NAME=e2e_writes
. tests/lib_e2e.sh
no_samples

cat >"$T/openb_node_list_w.csv" <<'EOF'
sn,cpu_milli,memory_mib,gpu,model
n-0,96000,393216,8,G2
n-1,96000,393216,8,G2
n-2,64000,262144,4,V100M16
EOF
{
    echo "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time"
    i=0
    while [ $i -lt 200 ]; do
        echo "p-$i,1000,2048,1,$((100 + 5 * (i % 100))),,BE,Running,$i,1000,$i"
        i=$((i + 1))
    done
} >"$T/openb_pod_list_w.csv"
expect_rc 0 "import openb" "$G" import --type openb --name w "$T/openb_node_list_w.csv" \
    "$T/openb_pod_list_w.csv"
mkdir -p "$T/set"
printf 'name,gpu_model,gpu_count,cpu_milli,ram_mib\nn0,A100-40GB,4,32000,131072\n' \
    >"$T/set/nodes.csv"
printf 'name,arrival_s,duration_s,num_gpu,gpu_milli\nt0,0,100,1,1000\nt1,5,50,2,1000\n' \
    >"$T/set/tasks.csv"
expect_rc 0 "import native" "$G" import --type native --name s "$T/set"

# full DESCRIPTION CMD...: CMD writes to /dev/full; it must fail naming it.
full() {
    what=$1; shift
    expect_rc 1 "$what to /dev/full" "$@"
    contains "$T/err" "/dev/full: writing failed: No space left on device" \
        "$what names the file and the error"
}
full "sweep --events" "$G" sweep inflation --trace w --cluster w --seeds 1 --no-save -q \
    --events /dev/full
full "sweep --out" "$G" sweep inflation --trace w --cluster w --seeds 1 --no-save -q \
    --out /dev/full
full "run --timeline" "$G" run --trace s --cluster s --policy first --no-save \
    --timeline /dev/full
full "solve --write-lp" "$G" solve corrgpu --trace s --cluster s --write-lp /dev/full
if grep -q "LP written" "$T/out"; then bad "solve says the LP was written"
else ok "solve does not say the LP was written"; fi
full "solve --write-mps" "$G" solve corrgpu --trace s --cluster s --write-mps /dev/full
full "export --format json --out" "$G" --format json export trace w --out /dev/full
expect_rc 1 "export JSON on a full stdout" sh -c "'$G' export trace w >/dev/full"
contains "$T/err" "stdout: writing failed" "a full stdout is named"
expect_rc 1 "a table on a full stdout" sh -c "'$G' list traces >/dev/full"
contains "$T/err" "stdout: writing failed: No space left on device" "list says stdout is full"

# The file-size limit cuts a write short (EFBIG once SIGXFSZ is ignored):
# the old file stays, no temporary file is left.
echo "old events" >"$T/events.tsv"
expect_rc 1 "sweep --events over the file-size limit" sh -c \
    "trap '' XFSZ; ulimit -f 64; exec '$G' sweep inflation --trace w --cluster w \
     --seeds 1-4 --no-save -q --events '$T/events.tsv'"
contains "$T/err" "$T/events.tsv: writing failed" "the message names the file"
contains "$T/events.tsv" "old events" "the old file is left as it was"
if ls -a "$T" | grep -q '\.tmp$'; then bad "a temporary file was left"; ls -a "$T"
else ok "no temporary file is left"; fi
expect_rc 0 "sweep --events without a limit" "$G" sweep inflation --trace w --cluster w \
    --seeds 1 --no-save -q --events "$T/events.tsv"
contains "$T/events.tsv" "policy	seed	event" "the new file replaced the old"

# A CSV set cut short by the file-size limit: its tasks.csv fits, its
# util.csv does not; the previous export is left whole (byte for byte) and
# imports, and no temporary file is left.
mkdir -p "$T/u1" "$T/u2"
printf 'name,arrival_s,duration_s,util_period_s\nt0,0,100,60\nt1,5,50,60\n' >"$T/u1/tasks.csv"
printf 'task,sample,pct\nt0,0,10\nt0,1,20\nt1,0,30\n' >"$T/u1/util.csv"
printf 'name,arrival_s,duration_s,util_period_s\nt0,0,200,60\nt1,5,80,60\n' >"$T/u2/tasks.csv"
awk 'BEGIN { print "task,sample,pct"; for (t = 0; t < 2; t++) for (i = 0; i < 8000; i++)
             printf "t%d,%d,%d\n", t, i, i % 100 }' >"$T/u2/util.csv"
expect_rc 0 "import the small set" "$G" import --name u1 "$T/u1"
expect_rc 0 "import the large set" "$G" import --name u2 "$T/u2"
expect_rc 0 "export the small set" "$G" export trace u1 --out "$T/uset"
cp -R "$T/uset" "$T/uset.before"
expect_rc 1 "export the large set over it past the file-size limit" sh -c \
    "trap '' XFSZ; ulimit -f 64; exec '$G' export trace u2 --out '$T/uset'"
contains "$T/err" "$T/uset/util.csv: writing failed" "the message names the file"
if diff -r "$T/uset.before" "$T/uset" >"$T/diff" 2>&1; then
    ok "the previous export is whole"
else
    bad "the previous export changed"; cat "$T/diff"
fi
if ls -a "$T/uset" | grep -q '\.tmp$'; then bad "a temporary file was left"; ls -a "$T/uset"
else ok "no temporary file is left in the set"; fi
expect_rc 0 "the previous export imports" "$G" import --name again "$T/uset"
contains "$T/out" "3 samples" "it is the small set, with its series"

# A file replaced keeps its permissions.
echo "old" >"$T/private.json"
chmod 600 "$T/private.json"
expect_rc 0 "export over a private file" "$G" --format json export trace w --out "$T/private.json"
case "$(ls -l "$T/private.json")" in
    -rw-------*) ok "the replaced file keeps mode 600" ;;
    *) bad "the replaced file's mode changed: $(ls -l "$T/private.json")" ;;
esac

# A symbolic link at the path is refused; its target is left alone.
echo "precious" >"$T/target"
ln -s "$T/target" "$T/link.json"
expect_rc 1 "export JSON to a symbolic link" "$G" --format json export trace w \
    --out "$T/link.json"
contains "$T/err" "$T/link.json: is a symbolic link" "the refusal names the link"
contains "$T/target" "precious" "the link's target is untouched"
mkdir -p "$T/csv"
ln -s "$T/target" "$T/csv/tasks.csv"
expect_rc 1 "export CSV over a symbolic link" "$G" --format csv export trace w --out "$T/csv"
contains "$T/err" "$T/csv/tasks.csv: is a symbolic link" "the CSV refusal names the link"
contains "$T/target" "precious" "the CSV link's target is untouched"
expect_rc 1 "run --timeline to a symbolic link" "$G" run --trace s --cluster s \
    --policy first --no-save --timeline "$T/link.json"
contains "$T/target" "precious" "the timeline link's target is untouched"

e2e_finish
