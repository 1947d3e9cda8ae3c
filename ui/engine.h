/*
 * engine.h — the engine headers the screens use, in one place: the
 * simulator, the cluster state it exposes, policies with their
 * explanations, power models and run records.  The TUI drives simulations
 * only through runset.c (Compare, Step) and src/plan/plan.c (Planner); Step and
 * Cluster read a sim's state.  No engine file includes anything from ui/.
 */
#ifndef GP_UI_ENGINE_H
#define GP_UI_ENGINE_H

#include "core/cstate.h"
#include "policy/policy.h"
#include "power/power.h"
#include "core/run.h"
#include "sim/sim.h"

#endif
