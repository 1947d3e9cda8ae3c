/*
 * policy_int.h — what policy.c defines beyond policy.h for the tests and the
 * benchmarks alone: the engine calls none of it, so it is not part of
 * policy.h's interface.
 */
#ifndef GP_POLICY_INT_H
#define GP_POLICY_INT_H

#include "policy.h"

/* Index of an option key, -1 when the policy has none by that name. */
int policy_option_index(const policy_ops *ops, const char *key);

#endif
