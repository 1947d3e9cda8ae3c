#!/bin/sh
# End-to-end test of `gpuplan cluster create`: a cluster of identical
# servers from a few words, one group per --gpu, listed, shown and usable
# by a run; the mistakes a user makes are refused with a message.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_cluster.sh  (run from the project root)
set -u
NAME=e2e_cluster
. tests/lib_e2e.sh
no_samples

expect_rc 0 "24 H100 servers" "$G" cluster create big --gpu H100 --servers 24 --per-server 8
contains "$T/out" "cluster 'big': 24 servers, 192 GPUs" "what was made"
expect_rc 0 "list" "$G" --format csv list clusters
contains "$T/out" ",big,24,192," "listed with its servers and GPUs"
expect_rc 0 "two groups" "$G" cluster create mix --gpu H100 --servers 2 \
    --gpu A100-40GB --servers=3 --per-server 4 --cpus 64 --ram-gib 512
contains "$T/out" "cluster 'mix': 5 servers, 28 GPUs" "two groups"
expect_rc 0 "show" "$G" --format csv show cluster mix
contains "$T/out" "A100-40GB-04,A100-40GB,4,64000,524288" "a server of the second group"
contains "$T/out" "H100-00,H100,8,128000,1048576" "a server of the first, with the defaults"
expect_rc 1 "same name refused" "$G" cluster create big --gpu H100
contains "$T/err" "already exists" "refusal says why"
expect_rc 0 "--replace" "$G" cluster create big --gpu H100 --servers 2 --replace
contains "$T/out" "cluster 'big': 2 servers, 16 GPUs" "replaced"
expect_rc 1 "unknown GPU" "$G" cluster create z --gpu NoSuchGPU
contains "$T/err" "no GPU profile named 'NoSuchGPU'" "unknown model named"
expect_rc 2 "flag before --gpu" "$G" cluster create z --servers 3
contains "$T/err" "give --gpu MODEL first" "what to give first"
expect_rc 2 "'/' in the name" "$G" cluster create a/b --gpu H100
contains "$T/err" "cannot contain '/'" "slash refused"
expect_rc 2 "too many GPUs per server" "$G" cluster create z --gpu H100 --per-server 17
expect_rc 2 "no action" "$G" cluster
expect_rc 0 "help" "$G" cluster --help
contains "$T/out" "--per-server N" "help lists the group options"

# The new cluster runs like an imported one.
expect_rc 0 "import a trace" "$G" import sample-data/cats-testbed --name tb
expect_rc 0 "run on it" "$G" --format csv run --trace tb --cluster mix --policy first
contains "$T/out" "first," "the run has a row"
e2e_finish
