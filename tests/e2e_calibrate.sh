#!/bin/sh
# End-to-end test of `gpuplan calibrate` on the operators' fixtures
# (tests/fixtures/ops/): the nvidia-smi readings of the A100 node imported
# with its kubectl lists fit CATS eq. 1; the catalog's error and the fit's
# are printed (table, csv, json); the fit saved as a profile is used by
# plan and by a run on a cluster of it; --save refuses to replace without
# --force; readings of two profiles need --gpu; readings that cannot be
# fitted (one reading; DCGM idle GPUs only) are refused with what varies;
# a pattern takes a series of snapshots (the H100s of a DCGM scrape and of
# nvidia-smi together).
# Calls the cli layer, through it power/power_fit.c and the store.
#
# Usage: GPUPLAN=./gpuplan sh tests/e2e_calibrate.sh  (run from the project root)
set -u
NAME=e2e_calibrate
. tests/lib_e2e.sh
no_samples
F=$PWD/tests/fixtures/ops

expect_rc 0 "k8s + nvidia-smi import" "$G" import --name lab "$F/nodes.json" "$F/pods.json" \
    "$F/gpu-a100-0.csv" "$F/hami-workshop.csv"

# Two profiles were read (A100, T4): which one is asked.
expect_rc 1 "readings of two profiles" "$G" calibrate --snapshot lab
contains "$T/err" "readings of several GPU profiles ('A100-40GB', 'T4'): name one with --gpu" \
    "the profiles read are named"

expect_rc 0 "calibrate the A100" "$G" calibrate --snapshot lab --gpu A100-40GB
echo "---- before (catalog) and after (fit) on the fixtures' A100 readings ----"
cat "$T/out"
echo "------------------------------------------------------------------------"
contains "$T/out" "GPU profile 'A100-40GB': 4 reading(s) from 1 snapshot(s)" "the readings counted"
contains "$T/out" "catalog           A100-40GB      50           0.2482                 4     58.82      244.1   128.1" \
    "the catalog profile's error: MAPE 58.82 %, largest 244.1 W"
contains "$T/out" "fit eq. 1                      38.9           0.1731                 4     43.31      137.2    81.7" \
    "eq. 1 fitted: MAPE 43.31 %, largest 137.2 W"
contains "$T/out" "alpha_w_per_mhz held at 0 by its bound" "an active bound is said"

expect_rc 0 "calibrate, csv" "$G" --format csv calibrate --snapshot lab --gpu A100-40GB
contains "$T/out" "fit eq. 1,,38.9,0.1731,,4,43.31,137.2,81.7," "csv row of the fit"
expect_rc 0 "calibrate, json" "$G" --format json calibrate --snapshot lab --gpu A100-40GB
contains "$T/out" '"mape_pct": 43.31' "json: MAPE a number"

# Saved, and the planner and the simulator use it.
expect_rc 0 "save the fit" "$G" calibrate --snapshot lab --gpu A100-40GB --save A100-lab
contains "$T/out" "A100-lab     38.9           0.1731" "the saved row names the profile"
expect_rc 0 "show the profile" "$G" profile gpu A100-lab
contains "$T/out" "idle_w           38.8972" "fitted idle_w stored"
contains "$T/out" "alpha_w_per_mhz  0.17" "fitted slope stored"
expect_rc 1 "no overwrite without --force" "$G" calibrate --snapshot lab --gpu A100-40GB \
    --save A100-lab
contains "$T/err" "a GPU profile named 'A100-lab' exists (--force replaces it)" "refused, and why"
expect_rc 0 "--force replaces" "$G" calibrate --snapshot lab --gpu A100-40GB --save A100-lab --force
expect_rc 0 "plan --gpu the fit" "$G" plan --trace lab-pending --gpu A100-lab --to 2
contains "$T/out" "fewest GPUs meeting SLA" "plan answers on the fitted profile"
expect_rc 0 "a cluster of it" "$G" cluster create calib --gpu A100-lab --servers 1 --per-server 2
expect_rc 0 "run on it" "$G" run --cluster calib --trace lab-pending --policy first
contains "$T/out" "first" "run on the fitted profile"

# Too few, and not telling the parameters apart.
expect_rc 0 "one H100 reading" "$G" import --name one "$F/h100-node.csv"
expect_rc 1 "one reading refused" "$G" calibrate --snapshot one
contains "$T/err" "too few readings" "says too few"
contains "$T/err" "1 reading(s): 0 idle, 1 active at 1 clock(s) (1980-1980 MHz)" "says what there is"
expect_rc 0 "DCGM of an EKS node" "$G" import --name eks "$F/ip-100-64-147-149.prom"
expect_rc 1 "idle GPUs only refused" "$G" calibrate --snapshot eks
contains "$T/err" "no GPU is active, so watts per MHz cannot be fitted; 7 reading(s): 7 idle, 0 active" \
    "says no GPU is active"
# A series of scrapes, one snapshot each, taken by a pattern: the EKS
# node's idle H100s (DCGM) and the loaded H100 (nvidia-smi) together.
expect_rc 0 "DCGM and nvidia-smi H100s by pattern" "$G" calibrate --snapshot 'eks*' \
    --snapshot one
echo "---- before (catalog) and after (fit) on the fixtures' H100 readings ----"
cat "$T/out"
echo "------------------------------------------------------------------------"
contains "$T/out" "GPU profile 'H100': 8 reading(s) from 2 snapshot(s); left out: 0 without power, 0 without utilization, 1 active without a clock" \
    "the readings counted, the one without a clock left out"
contains "$T/out" "catalog    H100         70           0.3182                 8      3.86       68.0    24.1" \
    "the catalog H100's error: MAPE 3.86 %, largest 68.0 W"
contains "$T/out" "fit eq. 1            68.29           0.2847                 8      1.31        2.6     1.2" \
    "the fit's: MAPE 1.31 %, largest 2.6 W"
contains "$T/err" "utilization at 2 value(s)" "the fit with utilization refused, with what varies"
expect_rc 1 "a pattern matching nothing" "$G" calibrate --snapshot 'nomatch-*'
contains "$T/err" "no snapshot matches 'nomatch-*'" "the pattern named"
expect_rc 1 "no such snapshot" "$G" calibrate --snapshot nosuch
expect_rc 2 "--snapshot required" "$G" calibrate
e2e_finish
