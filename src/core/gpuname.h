/*
 * gpuname.h — the one way GPUs and nodes are named to users, so the
 * dashboard's screens, `run --explain`, the policies' summaries and the
 * exports read alike:
 *
 *   node/g2      GPU 2 of node (its device number on the node, from 0, as
 *                nvidia-smi numbers them)
 *   node/g0,g1   several GPUs of one node
 *   node         a node-level candidate or a placement on no GPU
 *
 * It only formats; where the node's name comes from is the caller's.
 */
#ifndef GP_GPUNAME_H
#define GP_GPUNAME_H

#include <stddef.h>

/* "node/gDEV", or the node's name alone when dev < 0. */
void gpu_name(char *buf, size_t len, const char *node, int dev);
/* "node/g0,g1" from a device list "0,1" (as placements record them), or
 * the node's name alone when the list is empty. */
void gpus_name(char *buf, size_t len, const char *node, const char *devs);

#endif
