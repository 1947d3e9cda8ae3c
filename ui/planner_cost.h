/*
 * planner_cost.h — the Planner's rows that price energy and carbon: the
 * electricity price, the carbon intensity and the PUE (each a number or an
 * hourly series file, typed with Tab completing paths), the TCO's years
 * and the facility cost per kW-month.  They take what `gpuplan plan`'s
 * --usd-per-kwh, --carbon, --pue, --years and --usd-per-kw-month take and
 * set the plan's parameters through the same call (plan/plan_cost.h), so
 * the Planner's figures are plan's.
 *
 * Like the GPU prices, they are read when the results are: moving them
 * keeps the results current.  Not here: the other rows (scr_planner.c).
 */
#ifndef GP_PLANNER_COST_H
#define GP_PLANNER_COST_H

#include <stddef.h>

#include "app.h"

/* The rows, in the order the Planner shows them. */
enum {
    PCOST_PRICE, PCOST_CARBON, PCOST_PUE, PCOST_YEARS, PCOST_KW_MONTH, PCOST_NROWS
};

/* Sets up the prices once (no price, PUE 1) and puts them into the
 * plan's parameters. */
void planner_cost_ensure(app *a);
/* The row's value as shown. */
void planner_cost_value(const app *a, int row, char *buf, size_t len);
/* Left/Right: a constant moves by a step; a series stays (a message says
 * how to type a number). */
void planner_cost_step(app *a, int row, int dir);
/* Enter: a prompt for a number or (price, carbon, PUE) a series' path;
 * done hands the text to planner_cost_typed(). */
void planner_cost_prompt(app *a, int row, modal_done_fn done);
/* The text typed for the row: refused with a message (a file's
 * file:line:col, a number's range) and nothing changed, or set. */
void planner_cost_typed(app *a, int row, const char *text);
/* d: the row back to its default. */
void planner_cost_reset(app *a, int row);

#endif
