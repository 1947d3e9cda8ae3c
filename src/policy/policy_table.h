/*
 * policy_table.h — the policies of the registry (policy.c's table), one
 * const policy_ops each, defined in policy_<name>.c.  Only the table and
 * the definers include this: the rest of the program finds a policy
 * through policy_nth() and policy_find() (policy.h).
 */
#ifndef GP_POLICY_TABLE_H
#define GP_POLICY_TABLE_H

#include "policy.h"

extern const policy_ops policy_cats;
extern const policy_ops policy_corrgpu;
extern const policy_ops policy_first;
extern const policy_ops policy_hotcloud;
extern const policy_ops policy_harmony;
extern const policy_ops policy_fgd;
extern const policy_ops policy_bestfit;
extern const policy_ops policy_dotprod;
extern const policy_ops policy_gpupacking;
extern const policy_ops policy_gpuclustering;
extern const policy_ops policy_random;
extern const policy_ops policy_pwr;
extern const policy_ops policy_pwr_fgd;
extern const policy_ops policy_gogh;
extern const policy_ops policy_gogh_p1;
extern const policy_ops policy_gogh_oracle;
extern const policy_ops policy_gavel;
extern const policy_ops policy_blind;

#endif
