/*
 * extratrees_int.h — what extratrees.c defines beyond extratrees.h for the
 * tests and the benchmarks alone: the engine calls none of it, so it is not
 * part of extratrees.h's interface.
 */
#ifndef GP_EXTRATREES_INT_H
#define GP_EXTRATREES_INT_H

#include "extratrees.h"

int et_ntrees(const et_model *m);
size_t et_nnodes(const et_model *m);    /* over all trees */

#endif
