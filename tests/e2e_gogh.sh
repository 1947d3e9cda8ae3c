#!/bin/sh
# End-to-end test of the allocation family on the gavel-like samples: the
# nets the first run trains, GOGH (P1+P2, P1, oracle), Gavel and the blind
# baseline side by side in `run` (every job runs; two runs agree to the
# digit), a round's explanation, a generated trace and cluster, the planner
# over a grid of two GPU models, and what the policies say they miss.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_gogh.sh  (run from the project root)
set -u
NAME=e2e_gogh
. tests/lib_e2e.sh

expect_rc 0 "samples" "$G" samples --set gavel-like "$T/samples"
export GPUPLAN_SAMPLES="$T/samples"

# A new database trains no nets (that is most of its making); the first
# command that looks for them trains and stores them.
expect_rc 0 "nets of a new database" "$G" --format csv estimate list
if grep -q "^gavel-like," "$T/out"; then bad "a new database trains no nets"
else ok "a new database trains no nets"; fi

P=gogh,gogh-p1,gogh-oracle,gavel,blind
expect_rc 0 "five policies" "$G" --format csv run --trace gavel-like --cluster gavel-like \
    --policy $P --no-save
cp "$T/out" "$T/first.csv"
expect_rc 0 "nets after the first run" "$G" --format csv estimate list
contains "$T/out" "gavel-like,gavel-like,18/4/4" "the first run trained and stored them"
cp "$T/first.csv" "$T/out"
cp "$T/out" "$T/first.csv"
for p in gogh gogh-p1 gogh-oracle gavel blind; do
    if awk -F, -v p=$p 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "failed") f = i }
                         $1 == p && $f == 0 { found = 1 } END { exit !found }' "$T/out"
    then ok "$p: every job ran"; else bad "$p: every job ran"; cat "$T/out"; fi
done
expect_rc 0 "again" "$G" --format csv run --trace gavel-like --cluster gavel-like \
    --policy $P --no-save
if cmp -s "$T/first.csv" "$T/out"; then ok "two runs agree to the digit"
else bad "two runs agree to the digit"; diff "$T/first.csv" "$T/out"; fi

expect_rc 0 "explain" "$G" run --trace gavel-like --cluster gavel-like --policy gogh \
    --explain --no-save
contains "$T/out" "gogh round 1 at 0 s:" "a round's decision"
contains "$T/out" "est it/s=" "estimated throughput"
contains "$T/out" "true it/s=" "true throughput"
contains "$T/out" "p1p2: " "the estimator's mode and the solve"
if grep -q "invalid placement" "$T/out"; then bad "no start is refused"; else ok "no start is refused"; fi

expect_rc 0 "generate trace" "$G" generate trace --tput gavel-like --jobs 20 --rate 2
contains "$T/out" "gavel-like-20" "trace named after the table"
expect_rc 0 "generate cluster" "$G" generate cluster --gpus K80:2,V100M16:2 --name kv4
expect_rc 0 "run on them" "$G" --format csv run --trace gavel-like-20 --cluster kv4 \
    --tput gavel-like --policy gogh-oracle,blind --no-save
contains "$T/out" "gogh-oracle," "GOGH on a generated trace"

expect_rc 0 "plan grid" "$G" --format csv plan --trace gavel-like-20 --tput gavel-like \
    --gpu K80 --gpu2 V100M16 --from 0 --to 2 --to2 2 --per-server 2 --policy gogh-oracle,blind
contains "$T/out" "2,2,gogh-oracle,20," "a mixed point ran every job"

expect_rc 1 "gogh without nets" "$G" run --trace gavel-like --cluster gavel-like --policy gogh \
    --gogh-nets none --no-save
contains "$T/err" "gpuplan estimate train --tput gavel-like" "says how to train"
expect_rc 1 "gogh without a table" "$G" run --trace gavel-like --cluster gavel-like \
    --policy gogh-oracle --tput none --no-save
contains "$T/err" "needs a throughput table" "says what it misses"
expect_rc 1 "unknown nets" "$G" run --trace gavel-like --cluster gavel-like --policy gogh \
    --gogh-nets nope --no-save
contains "$T/err" "no GOGH nets named 'nope'" "names the nets"

e2e_finish
