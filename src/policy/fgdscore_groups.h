/*
 * fgdscore_groups.h — the nodes of a cluster state grouped by key (cs_key),
 * for the scoring policies of the fragmentation/power family (fgdscore.c):
 * nodes with equal keys get the same feasibility, scores and device choice,
 * so a decision evaluates one node per group, the one the rank tie-break
 * would pick among them (the lowest rank, then the lowest index).
 *
 * The groups are kept across decisions: an event changes one or two
 * nodes, and the state records which (cstate.changed), so a decision moves
 * those nodes between groups instead of grouping every node again.  A
 * decision then costs the number of distinct node states, not the number
 * of nodes: ten times the idle servers are still one group.
 *
 * Ownership: fgd_groups_new() returns a table owned by the caller (free
 * with fgd_groups_free()).  It follows one state at a time; given another
 * state (or another rank array) it groups that one from scratch.
 */
#ifndef GP_FGDSCORE_GROUPS_H
#define GP_FGDSCORE_GROUPS_H

#include <stddef.h>

#include "core/cstate.h"

typedef struct fgd_groups fgd_groups;

fgd_groups *fgd_groups_new(void);
void fgd_groups_free(fgd_groups *g);

/* The groups of cs's nodes now: fills rep[i] (the representative node) and
 * count[i] (how many nodes the group has) for each group, and returns how
 * many groups there are.  rep and count hold cs->nnodes entries.  rank
 * (NULL: by node index) orders the nodes for the representative.
 *
 * ordered = 0: the groups in no particular order, from the groups kept
 * since the last call.  ordered = 1: in the order of their lowest node
 * index, from one pass over every node (an explanation lists candidates
 * in node order).  A rank array with equal ranks makes the order of the
 * groups matter to the tie-break, so it always gets the ordered list. */
size_t fgd_groups_list(fgd_groups *g, const cstate *cs, const int *rank, int ordered, int *rep,
                       int *count);

/* Random's draw among every feasible node in index order, without
 * filtering every node: fgd_groups_filter() asks pass() once per group
 * (of its representative; the rank plays no part) and returns how many
 * nodes are in the groups that pass; fgd_groups_nth() then gives the k-th
 * of those nodes (0-based) in index order, walking blocks of nodes by
 * their per-group counts, or -1 when there are not that many.  The same
 * node as the k-th entry of a filter over every node in index order. */
size_t fgd_groups_filter(fgd_groups *g, const cstate *cs,
                         int (*pass)(const cstate *cs, int ni, const void *arg), const void *arg);
int fgd_groups_nth(const fgd_groups *g, size_t k);

#endif
