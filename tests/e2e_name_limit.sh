#!/bin/sh
# End-to-end test of the limit on names: a name is at most 253 bytes
# (Kubernetes' limit for its objects' names), and a longer one is refused on
# every command that stores one, never cut (a cut name could be another
# entity's, which --replace would replace).
# Usage: GPUPLAN=./gpuplan sh tests/e2e_name_limit.sh  (run from the project root)
set -u
NAME=e2e_name_limit
. tests/lib_e2e.sh
no_samples

mkdir -p "$T/set"
printf 'name,gpu_model,gpu_count,cpu_milli,ram_mib\nn0,V100,4,32000,131072\n' \
    >"$T/set/nodes.csv"
printf 'name,arrival_s,duration_s,num_gpu,gpu_milli\nt0,0,100,1,1000\n' >"$T/set/tasks.csv"

P63=$(printf 'n%.0s' $(seq 1 253))     # 253 bytes: the longest name
expect_rc 0 "a 253-byte name" "$G" import --type native --name "$P63" "$T/set"
expect_rc 2 "a 254-byte name is refused" "$G" import --type native --name "${P63}a" "$T/set"
contains "$T/err" "--name: at most 253 bytes, got 254" "the refusal gives the limit"
# The old behaviour: "${P63}b" was cut to $P63 and replaced that trace.
expect_rc 2 "--replace with a longer name" "$G" import --type native --replace \
    --name "${P63}b" "$T/set"
"$G" --format csv list traces >"$T/traces"
if [ "$(grep -c "^trace,[0-9]*,$P63," "$T/traces")" -eq 1 ] &&
   [ "$(grep -c "^trace," "$T/traces")" -eq 1 ]; then
    ok "the 253-byte trace is the only one, untouched"
else
    bad "traces after the refused imports:"; cat "$T/traces"
fi
# A name taken from a long file name is refused too.
L=$(printf 'd%.0s' $(seq 1 255))
cp -r "$T/set" "$T/$L"
expect_rc 1 "a name from a 255-byte directory name" "$G" import --type native "$T/$L"
contains "$T/err" "a name is at most 253 bytes and this file's has 255; give one with --name" \
    "the refusal says to give --name"
expect_rc 0 "the same with --name" "$G" import --type native --name short "$T/$L"

# Every other command that stores a name.
expect_rc 2 "generate cluster" "$G" generate cluster --name "${P63}x" --gpus V100:4
contains "$T/err" "at most 253 bytes" "generate says the limit"
expect_rc 2 "profile" "$G" profile "${P63}x" --from V100
expect_rc 2 "snapshot" "$G" snapshot "$P63" --name "${P63}x"
expect_rc 2 "a run's policy label" "$G" run --trace "$P63" --cluster "$P63" \
    --policy "first:$(printf '0%.0s' $(seq 1 260))"
contains "$T/err" "a policy as written is at most 253 bytes" "run says the limit"
expect_rc 2 "estimate train" "$G" estimate train --tput x --name "${P63}x"
expect_rc 2 "peace train" "$G" peace train x --model "${P63}x"

# An operator's names: a Kubeflow pod's namespace/name of 112 bytes and a
# GKE node's of 102 stay whole through import, export and import again.
W=tests/fixtures/ops/whole
expect_rc 0 "kubectl lists with long names" "$G" import --name kf "$W/nodes.json" \
    "$W/pods.json" "$W/kubeflow-util.json"
"$G" --format csv show snapshot kf >"$T/kf.csv" 2>"$T/err"
if grep -q "bert-finetune-run-20261128-lr3e-5-bs32-warmup500-seed42-ablation-tokenizer-v2-worker-1" \
    "$T/kf.csv"; then
    ok "the pod's whole name is shown"
else
    bad "the pod's name is not whole:"; cat "$T/kf.csv" "$T/err"
fi
expect_rc 0 "export of the snapshot" "$G" export snapshot kf --out "$T/kf-out"
expect_rc 0 "its import" "$G" import --type native --name kf2 "$T/kf-out"
if [ "$(grep -c -- "-worker-" "$T/kf-out/tasks.csv")" -eq 2 ]; then
    ok "two workers exported, not one cut name"
else
    bad "tasks exported:"; cat "$T/kf-out/tasks.csv"
fi

e2e_finish
