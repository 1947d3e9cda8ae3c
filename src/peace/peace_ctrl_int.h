/*
 * peace_ctrl_int.h — what peace_ctrl.c defines beyond peace_ctrl.h for the
 * tests and the benchmarks alone: the engine calls none of it, so it is not
 * part of peace_ctrl.h's interface.
 */
#ifndef GP_PEACE_CTRL_INT_H
#define GP_PEACE_CTRL_INT_H

#include "peace_ctrl.h"

/* One action of the controller: the clock after acting on mean reading
 * mean_w at clock f (exposed for tests and hand-worked traces). */
double peace_ctrl_step(const peace_ctrl_params *p, double f, double mean_w, double cap_w);

#endif
