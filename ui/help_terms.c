/*
 * help_terms.c — the definitions behind the Help screen's "Columns and
 * terms" and Step's legend (see help_terms.h).  Only words live here: the
 * screens draw them.  A policy's score terms are named as its explain()
 * names them (src/policy), so a new term needs a line here too; Step's
 * legend leaves out a term it does not find.
 */
#include "help_terms.h"
#include "app.h"

#include <string.h>

static const help_term step_terms[] = {
    {"Decision #N", "", "the Nth placement decision of the focused policy, counted from 1; "
     "`gpuplan run --explain` prints the same decision as #N"},
    {"GPU", "", "a candidate: node/gN is GPU N of the node (its device number, from 0, as "
     "nvidia-smi counts); a node's name alone is a node-level candidate (the FGD family "
     "scores whole nodes and picks the GPU after)"},
    {"WIN / no", "", "WIN marks the chosen candidate; no one that was not eligible (its note "
     "says why)"},
    {"rho", "correlation",
     "CATS delta_g (sec. 3.5, Alg. 1 line 6, eq. 15) and CorrGPU's rho (sec. III, eq. 1): the Pearson "
     "correlation, -1 to 1, of the task's utilization series with the aggregate of the GPU's "
     "running tasks, over the shorter of the two; negative means their peaks fall apart"},
    {"dmu", "util. gap",
     "CATS delta_mu (sec. 3.5, Alg. 1 line 7): |mean u(G) - mean u(t)|, the gap between the mean "
     "utilization of the GPU's running tasks and the task's, as a fraction of one GPU (0 to 1)"},
    {"mean_sum_pct", "util. sum %",
     "the GPU's mean utilization plus the task's, in %: CATS's utilization threshold (sec. 4: "
     "100 %) admits the GPU when it is at most that"},
    {"score", "lowest wins",
     "CATS's score (sec. 3.5, Alg. 2 line 4): lambda1 * rho - lambda2 * dmu; with select=score the "
     "lowest eligible score wins, with the default first fit the first eligible GPU"},
    {"delta1_pct", "util. sum %",
     "CorrGPU's delta1 (Alg. 1 line 9): the mean of the GPU's aggregate utilization with the "
     "task added, in %, against the threshold q (sec. III: the sum of average utilizations below "
     "q = 100 %); rho first, then delta1 orders the candidates (line 22)"},
    {"mem_free_gib", "free GiB", "the GPU's memory free before the task, GiB"},
    {"sum_pct", "load %",
     "a threshold baseline's load with the task added, in % (CorrGPU sec. V Baselines: First "
     "sums first-second utilizations, Harmony peaks, the others means)"},
    {"q_pct", "threshold %", "the utilization threshold q the load is compared with"},
    {"fgd", "frag. score",
     "FGD's score of the node: trunc(100 * sigmoid((F before - F after) / 1000)), higher when "
     "the placement grows the node's expected fragmentation F less (PWR paper sec. II)"},
    {"pwr", "power score",
     "PWR's score of the node (PWR paper sec. IV): the watts the cluster would draw before minus "
     "after the placement, truncated; higher draws less"},
    {"bestfit", "fit score", "best fit's score: the weighted free resources the node would "
     "have left, per the largest node, reversed: higher is a tighter fit"},
    {"dotprod", "fit score", "Tetris's dot product of the node's free resources and the "
     "task's demand (each per the largest node), reversed: higher is a closer match"},
    {"gpupacking", "packing score", "GPU packing's score: 50 to 100 on GPUs already shared, "
     "33 to 50 on free GPUs of a used node, 0 to 33 on an idle node"},
    {"gpuclustering", "clustering score", "GPU clustering's score: the node's allocated share "
     "plus a bonus when it runs tasks of the same kind (more when only of that kind)"},
    {"pwr_norm", "normalized",
     "a score normalized to 0 to 1000 before weighting (min-max over the candidates for "
     "bestfit_norm)"},
    {"bestfit_norm", "normalized", "best fit's score normalized to 0 to 1000 (min-max)"},
    {"total", "highest wins",
     "the weighted sum of the policy's (normalized) scores, weights in per mille (PWR+FGD: "
     "alpha * PWR + (1 - alpha) * FGD, PWR paper eq. 5); the highest total wins"},
    {"rank", "tie order", "the node's place in the tie order: the lowest rank wins a tie"},
    {"F a -> b", "",
     "in a note: the node's expected GPU fragmentation F_n(M) = sum over task classes m of "
     "p_m * F_n(m) (PWR paper sec. II), in milli-GPU, before (a) and after (b) the placement"},
    {"est it/s", "estimated", "a GOGH or Gavel round's start: the throughput the policy "
     "estimated for the job on the GPU, iterations/s"},
    {"true it/s", "true", "the throughput the simulator runs the job at there"},
    {"min it/s", "required", "the job's required throughput (GOGH sec. 3: its SLA)"},
    {"state", "", "lower pane: active (runs tasks), idle (awake, none) or asleep"},
    {"memory GiB", "", "GPU memory used / total"},
    {"share", "", "milli-GPU allocated: 1000 is one whole GPU, less is a shared slice"},
    {"util%", "", "the aggregate utilization of the GPU's tasks now, %"},
    {"W", "", "the power model's watts for the GPU now (CATS eq. 1, or eopc)"},
};

static const help_term cluster_terms[] = {
    {"node/gN", "", "GPU N of the node (its device number, from 0), as on every screen"},
    {"view", "", "v cycles what each cell shows: allocation (a digit: tasks on the GPU; the "
     "shade: share allocated), utilization now (? when no monitor read it), power state, "
     "frequency (f range: f_min to f_max) or memory used"},
    {"0 <1/3 <2/3 full over", "", "the shade's levels of the view's value, from none to "
     "more than the GPU has (over: the tasks ask above 100 %)"},
    {"model W", "", "watts from the power model (CATS eq. 1, or eopc)"},
    {"measured", "", "what a monitor read for the GPU in a snapshot (nvidia-smi, DCGM)"},
    {"share milli", "", "milli-GPU allocated on the GPU: 1000 is one whole GPU"},
    {"FGD frag", "", "a snapshot's FGD fragmentation: the idle milli-GPU its own tasks, as "
     "the typical ones, could not use (PWR paper sec. II, F_datacenter), and its share of the "
     "idle GPU"},
    {"aggregate utilization ahead", "", "the sum of the GPU's tasks' utilization series from "
     "now on"},
    {"time left", "", "task list: how long the task still runs at its current rate"},
    {"cap W: ...", "", "a run under a GPU power cap (Compare's c, run --gpu-cap): clamped to N "
     "MHz is the clock where the GPU's power curve meets the cap (CATS eq. 1; "
     "docs/power-cap.md); PEACE split where PEACE's controller holds the GPU; no effect where "
     "the cap is at or above the profile's maximum draw"},
};

static const help_term compare_terms[] = {
    {"$energy", "USD", "what the run's energy cost up to now: sum over the hours h of the trace's "
     "clock of kWh_IT(h) x PUE(h) x price(h) (docs/site-and-cost.md), the figure gpuplan run "
     "--usd-per-kwh prints as energy_usd; - until a price is set with E"},
    {"CO2e", "kg", "what the run's energy emitted: sum over h of kWh_IT(h) x PUE(h) x "
     "carbon(h) / 1000, run --carbon's co2e_kg; - until a carbon intensity is set with E"},
    {"TCO$", "USD", "the run's cost of ownership over N years: its GPUs' price + its hourly "
     "draw repeated over the years, priced hour by hour + the facility cost per kW-month x "
     "peak IT x max PUE x 12 N (docs/site-and-cost.md), run --years's tco_usd; +? when a "
     "GPU's price is unknown; - until E sets a price and the years"},
    {"E", "", "the energy setting: a price (USD/kWh), a carbon intensity (gCO2e/kWh) and a "
     "PUE, each a number or an hourly series file (CSV hour,VALUE, repeating over the run), "
     "the TCO's years and USD per kW-month, as run --usd-per-kwh, --carbon, --pue, --years "
     "and --usd-per-kw-month take them; kept in the settings file"},
};

static const help_term planner_terms[] = {
    {"GPUs", "", "the cluster's GPU count of the row (added to a snapshot's, from it)"},
    {"2nd", "", "a grid's count of the second GPU model"},
    {"SLA viol %", "", "the share of tasks whose JCT broke their SLA (CorrGPU sec. V: JCT over "
     "kappa times the run alone), %"},
    {"mean JCT", "", "the mean job completion time: wait plus run"},
    {"avg W", "", "the cluster's mean power draw over the run, watts"},
    {"CapEx $", "", "the GPUs' price (the price slider, else the profile's); $? when a GPU "
     "has no known price"},
    {"Cost $", "", "the GPUs' price plus, with an energy price, the energy of the average "
     "draw (x PUE) over the years (else the simulated span) and the facility cost: "
     "plan's cost_usd, the TCO with years"},
    {"CO2e t", "", "with a carbon intensity: tonnes CO2e of that energy (plan's co2e_t)"},
    {"over site", "", "the row's peak draw is over the site's power envelope (a grid: its "
     "second model's GPUs over the capacity line at its first model's count)"},
    {"SLA", "", "the row against the SLA target: << fewest is the policy's fewest GPUs "
     "meeting it, meets another that does, << stable the answer of a curve that is not "
     "monotonic"},
    {"frontier / << cheapest", "", "a grid: points on the policy's cost frontier, and its "
     "cheapest point meeting the SLA"},
};

const help_term *help_terms(int scr, size_t *n)
{
    switch (scr) {
    case SCR_STEP:
        *n = sizeof step_terms / sizeof *step_terms;
        return step_terms;
    case SCR_COMPARE:
        *n = sizeof compare_terms / sizeof *compare_terms;
        return compare_terms;
    case SCR_CLUSTER:
        *n = sizeof cluster_terms / sizeof *cluster_terms;
        return cluster_terms;
    case SCR_PLANNER:
        *n = sizeof planner_terms / sizeof *planner_terms;
        return planner_terms;
    default:
        *n = 0;
        return NULL;
    }
}

const help_term *help_step_term(const char *name)
{
    for (size_t i = 0; i < sizeof step_terms / sizeof *step_terms; i++)
        if (strcmp(step_terms[i].name, name) == 0)
            return &step_terms[i];
    return NULL;
}
