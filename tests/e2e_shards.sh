#!/bin/sh
# End-to-end test of sharded sweeps: `gpuplan jobs` prints the shard lines
# of a sweep in 4 shards, GNU parallel runs them, `gpuplan merge` puts the
# shards back into the database, and the merged runs equal those of the
# same sweep run whole (job by job).  Merging again adds nothing; a shard
# of another sweep is refused; the Slurm script asks for --array=0-3.
# A capacity plan goes the same way: its shards save their points, the
# merge puts them together, and the same plan on the merged database
# prints what the plan run whole prints, simulating nothing.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_shards.sh  (run from the project root)
set -u
NAME=e2e_shards
. tests/lib_e2e.sh
no_samples

for prog in parallel sqlite3; do
    if ! command -v $prog >/dev/null 2>&1; then
        echo "$NAME: skipped (no '$prog' program: install the Debian package $prog)"
        exit 0
    fi
done

cat >"$T/openb_node_list_sh.csv" <<'CSV'
sn,cpu_milli,memory_mib,gpu,model
n-0,64000,262144,2,T4
n-1,96000,393216,8,G2
n-2,96000,393216,8,G2
n-3,64000,262144,4,V100M16
CSV
{
    echo "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time"
    i=0
    while [ $i -lt 14 ]; do
        echo "p-$i,4000,8192,1,$((200 + 50 * i)),,BE,Running,$i,100,$i"
        i=$((i + 1))
    done
    echo "w-0,8000,16384,1,1000,,LS,Running,20,100,20"
    echo "w-1,16000,16384,2,1000,,LS,Running,21,100,21"
} >"$T/openb_pod_list_sh.csv"

G_ABS=$(cd "$(dirname "$G")" && pwd)/$(basename "$G")
SWEEP="sweep inflation --trace sh --cluster sh --policy fgd,bestfit,pwr,random --seeds 1-5 --placements"

# The database the shards start from, and a copy of it for the whole sweep.
expect_rc 0 "import" "$G" import --type openb --name sh "$T/openb_node_list_sh.csv" \
    "$T/openb_pod_list_sh.csv"
cp "$GPUPLAN_DB" "$T/whole.sqlite"
# shellcheck disable=SC2086
expect_rc 0 "the sweep whole" "$G" --db "$T/whole.sqlite" $SWEEP -q

cd "$T" || exit 1
# shellcheck disable=SC2086
expect_rc 0 "jobs for GNU parallel" "$G_ABS" --db db.sqlite jobs --shards 4 \
    --program "$G_ABS" $SWEEP
cp out jobs.txt
n=$(wc -l <jobs.txt)
if [ "$n" -eq 4 ]; then ok "one line per shard"; else bad "$n lines, wanted 4"; cat jobs.txt; fi
contains jobs.txt "--shard 3/4" "the last shard's line"
expect_rc 0 "parallel runs the shards" parallel --will-cite -j 2 --halt now,fail=1 <jobs.txt
for i in 0 1 2 3; do
    [ -f "shard-$i.db" ] && ok "shard-$i.db written" || bad "no shard-$i.db"
done

expect_rc 0 "merge" "$G_ABS" merge shard-0.db shard-1.db shard-2.db shard-3.db --into db.sqlite
contains out "merged 20 run(s) from 4 shard(s)" "every run merged"
contains out "jobs held: 20 of 20" "the sweep complete"
expect_rc 0 "merge again" "$G_ABS" merge shard-*.db --into db.sqlite
contains out "merged 0 run(s)" "a second merge adds nothing"
contains out "(20 already there)" "and says so"

# The runs, job by job, less what differs between any two runs (ids,
# creation times, wall times).
dump() {
    sqlite3 "$1" "SELECT x.job, r.name, r.policy, r.options, r.seed FROM run r
            JOIN sweep_run x ON x.run_id = r.id ORDER BY x.job;
        SELECT x.job, m.key, m.value FROM run_metric m JOIN sweep_run x ON x.run_id = m.run_id
            WHERE m.key <> 'wall_s' ORDER BY x.job, m.key;
        SELECT x.job, p.seq, p.t_s, p.frag, p.alloc_ratio, p.power_w, p.queued FROM run_point p
            JOIN sweep_run x ON x.run_id = p.run_id ORDER BY x.job, p.seq;
        SELECT x.job, d.seq, d.task_idx, d.node_idx, d.gpus FROM run_decision d
            JOIN sweep_run x ON x.run_id = d.run_id ORDER BY x.job, d.seq;"
}
dump whole.sqlite >whole.txt
dump db.sqlite >merged.txt
if [ -s whole.txt ] && cmp -s whole.txt merged.txt; then ok "merged runs equal the whole sweep's"
else bad "merged runs differ from the whole sweep's:"; diff whole.txt merged.txt | head; fi

# A shard of another sweep (other seeds) is refused.
cp db.sqlite other.db
# shellcheck disable=SC2086
expect_rc 0 "a shard of another sweep" "$G_ABS" --db other.db sweep inflation --trace sh \
    --cluster sh --policy fgd --seeds 7 --shard 0/2 -q
cp db.sqlite fresh.db
expect_rc 1 "shards of two sweeps refused" "$G_ABS" merge shard-0.db other.db --into fresh.db
contains err "shards of different sweeps" "the refusal says why"
expect_rc 1 "a database without sweeps refused" "$G_ABS" merge whole.sqlite.none --into fresh.db

# The Slurm script.
# shellcheck disable=SC2086
expect_rc 0 "jobs --slurm" "$G_ABS" --db db.sqlite jobs --shards 4 --slurm $SWEEP
contains out "#SBATCH --array=0-3" "a job array of 4"
contains out '--shard "$i/4"' "each task runs its shard"
expect_rc 0 "the script parses" sh -n out
expect_rc 2 "--shard 4/4 refused" "$G_ABS" --db db.sqlite $SWEEP --shard 4/4

# --- a capacity plan in 3 shards -------------------------------------------
PLAN="plan --trace sh --gpu G2 --from 2 --to 12 --step 2 --policy cats,first,hotcloud --format csv"
cp whole.sqlite plan.db
# shellcheck disable=SC2086
expect_rc 0 "the plan whole" "$G_ABS" --db whole.sqlite $PLAN -q
cp out plan_whole.csv
# shellcheck disable=SC2086
expect_rc 0 "jobs for a plan" "$G_ABS" --db plan.db jobs --shards 3 --prefix pshard- \
    --program "$G_ABS" $PLAN
cp out plan_jobs.txt
contains plan_jobs.txt "plan --trace sh" "the plan's lines"
contains plan_jobs.txt "--shard 2/3" "the last shard's line"
expect_rc 0 "parallel runs the plan's shards" parallel --will-cite -j 2 --halt now,fail=1 \
    <plan_jobs.txt
contains out "shard 0/3: 6 of 18 jobs simulated, 6 saved to pshard-0.db" "a shard says what it saved"
expect_rc 0 "merge the plan" "$G_ABS" merge pshard-0.db pshard-1.db pshard-2.db --into plan.db
contains out "merged 18 plan point(s) from 3 shard(s)" "every point merged"
contains out "jobs held: 18 of 18" "the plan complete"
# shellcheck disable=SC2086
expect_rc 0 "the plan on the merged database" "$G_ABS" --db plan.db $PLAN
contains err "18 of 18 results read from the database" "nothing simulated again"
if cmp -s plan_whole.csv out; then ok "the merged plan prints what the whole plan prints"
else bad "the merged plan differs:"; diff plan_whole.csv out | head; fi
expect_rc 0 "merge the plan again" "$G_ABS" merge pshard-*.db --into plan.db
contains out "merged 0 plan point(s)" "a second merge adds nothing"
expect_rc 1 "a plan's shard and a sweep's refused together" "$G_ABS" merge pshard-0.db \
    shard-0.db --into fresh.db
contains err "shards of different sweeps" "the refusal says why"
# shellcheck disable=SC2086
expect_rc 0 "jobs --slurm for a plan" "$G_ABS" --db plan.db jobs --shards 3 --slurm $PLAN
contains out "#SBATCH --job-name=gpuplan-plan" "named as a plan"
contains out "#SBATCH --array=0-2" "a job array of 3"
# shellcheck disable=SC2086
expect_rc 2 "plot refuses a shard" "$G_ABS" --db plan.db plot $PLAN --shard 0/3 --out p.svg
cd - >/dev/null || exit 1
e2e_finish
