/*
 * cmd_peace.c — `gpuplan peace train|eval|choose`: PEACE's SM partitioning
 * under a power cap (SPEC §5.5) on a stored PEACE set.
 *
 *   train   trains the six models on a share of the co-location rows and
 *           stores them with the set (the error on held-out rows printed);
 *   eval    the paper's experiment: every policy's throughput sum under
 *           the controller, normalised to the Oracle, per power cap, for
 *           seen, unseen and three-workload co-locations (Figure 4);
 *   choose  one group of workloads under one cap: every configuration
 *           PEACE predicted, its choice, and what each policy reaches.
 *
 * Each subcommand is a cli_cmd of its own (its options a table), chosen
 * from the table below by the first argument.
 *
 * Not here: the models, policies and experiments (src/peace/).
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "core/strbuf.h"
#include "peace/peace_eval.h"
#include "peace/peace_load.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int peace_exec(cli_ctx *ctx, int argc, char **argv);
static void list_subcommands(FILE *out);

const cli_cmd cmd_peace = {
    .name = "peace",
    .usage = "train|eval|choose SET [OPTIONS]",
    .summary = "Partition a GPU's SMs among co-located workloads under a power cap (PEACE)",
    .notes = "SET is a PEACE set: workloads profiled alone at SM shares and clocks, and "
             "co-located ground truth (gpuplan list peace; the sample set peace-v100 is "
             "modelled, not measured).  'gpuplan peace SUBCOMMAND --help' describes each.",
    .exec = peace_exec,
    .help_epilogue = list_subcommands,
};

/* What every subcommand loads: the set, its index and its GPU. */
typedef struct loaded {
    peace_loaded p;             /* the set, its index, and its models when asked */
    catalog *cat;
    const gpu_profile *gpu;
} loaded;

static void loaded_free(loaded *l)
{
    peace_loaded_free(&l->p);
    catalog_free(l->cat);
}

/* Set `name`, and its models `model` when not NULL. */
static int load(cli_ctx *ctx, const char *name, const char *model, loaded *l, gp_err *err)
{
    memset(l, 0, sizeof *l);
    store *st = cli_store(ctx);
    if (!st)
        return gp_error(err, "no database");
    if (peace_load(st, name, NULL, model != NULL, model, &l->p, err) ||
        store_load_catalog(st, &l->cat, err))
        return -1;
    if (!(l->gpu = catalog_gpu(l->cat, l->p.set->gpu)))
        return gp_error(err, "PEACE set '%s' names GPU profile '%s', which is not in the "
                        "catalog", name, l->p.set->gpu);
    return 0;
}

/* Caps "60,100,200" (a --caps callback into a peace_eval_opts). */
static int parse_caps(void *value, const char *arg, gp_err *err)
{
    peace_eval_opts *o = value;
    char *copy = xstrdup(arg), *save = NULL;
    o->ncaps = 0;
    int rc = 0;
    for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
        double v;
        if (o->ncaps == PEACE_MAX_CAPS || parse_double(t, &v) || v <= 0)
            rc = -1;
        else
            o->caps_w[o->ncaps++] = v;
    }
    free(copy);
    if (rc || o->ncaps == 0)
        return gp_error(err, "expected watts separated by commas (at most %d), got '%s'",
                        PEACE_MAX_CAPS, arg);
    return 0;
}

/* Policies "peace,equal" (a --policy callback into a peace_eval_opts). */
static int parse_policies(void *value, const char *arg, gp_err *err)
{
    peace_eval_opts *o = value;
    char *copy = xstrdup(arg), *save = NULL;
    o->npol = 0;
    int rc = 0;
    for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
        const peace_policy *p = peace_policy_find(t);
        if (!p || o->npol == PEACE_MAX_POLICIES)
            rc = gp_error(err, "unknown policy '%s' (known: peace, oracle, equal, nopart, "
                          "mudi, muxflow, gslice)", t);
        else
            o->pol[o->npol++] = p;
    }
    free(copy);
    return rc;
}

static int check_caps(const loaded *l, const peace_eval_opts *o, gp_err *err)
{
    for (int c = 0; c < o->ncaps; c++)
        if (peace_check_cap(l->p.set, l->gpu->idle_w, o->caps_w[c], err))
            return -1;
    return 0;
}

/* The options train and eval share: the models' training. */
#define TRAIN_OPTIONS(o) \
    OPT_DOUBLE("frac", 0, "F", &(o)->train_frac, 0, 1, \
               "share of the eligible co-location rows the models train on", \
               .min_open = 1, .def = "0.3, the paper's"), \
    OPT_INT("trees", 0, "N", &(o)->et.ntrees, 1, 10000, "Extra-Trees: trees per model", \
            .def = "100"), \
    OPT_INT("max-features", 0, "K", &(o)->et.max_features, 0, 64, \
            "Extra-Trees: features tried per split, 0 = all", .def = "0"), \
    OPT_INT("min-split", 0, "N", &(o)->et.min_samples_split, 2, 1000000, \
            "Extra-Trees: fewest rows a node needs to split", .def = "5"), \
    OPT_CALLBACK("seed", 0, "N", &(o)->seed, cli_parse_seed, \
                 "seed of the row sample and the trees", .def = "42")

/* ---- train -------------------------------------------------------------------------- */

static const cli_cmd cmd_peace_train = {
    .name = "peace train",
    .usage = "SET [--model NAME] [OPTIONS]",
    .summary = "Train PEACE's power and throughput models on a set and store them",
    .notes = "The models (one power and one throughput-sum model per representative clock) "
             "train on --frac of the set's partitioned co-location rows of --size workloads, "
             "or of those without --without's workload; their error is measured on the rows "
             "they did not see.",
};

static void print_train(cli_ctx *ctx, const char *set, const char *model,
                        const peace_models *m, size_t nheld, double mt, double mp, double s)
{
    table *t = table_new();
    static const char *const cols[] = {"set", "model", "clocks", "trained_rows", "held_out",
                                       "tput_mape_pct", "power_mape_pct", "train_s"};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
        table_col(t, cols[c], c >= 2);
    table_row(t);
    table_cell(t, "%s", set);
    table_cell(t, "%s", model);
    table_cell(t, "%d", m->nfreq);
    table_cell(t, "%zu", m->ntrain);
    table_cell(t, "%zu", nheld);
    table_cell(t, "%.2f", mt);
    table_cell(t, "%.2f", mp);
    table_cell(t, "%.3f", s);
    table_print(t, ctx->format, ctx->out, NULL);
    table_free(t);
}

static int store_models(cli_ctx *ctx, const char *set, const char *name, const peace_models *m,
                        const char *without, gp_err *err)
{
    store_peace_model sm;
    memset(&sm, 0, sizeof sm);
    strlcpy0(sm.name, name, sizeof sm.name);
    sm.params = xasprintf("trees=%d max_features=%d min_split=%d seed=%llu rows=%zu%s%s",
                          m->params.ntrees, m->params.max_features,
                          m->params.min_samples_split, (unsigned long long)m->params.seed,
                          m->ntrain, without ? " without=" : "", without ? without : "");
    sm.blob = peace_models_save(m, &sm.len);
    int rc = store_put_peace_model(cli_store(ctx), set, &sm, err);
    free(sm.params);
    free(sm.blob);
    return rc;
}

static int train_exec(cli_ctx *ctx, int argc, char **argv)
{
    peace_eval_opts o;
    peace_eval_opts_default(&o, 0, 0);
    const char *model = "default", *without = NULL;
    int size = 2;
    const cli_opt opts[] = {
        OPT_NAME("model", 0, "NAME", &model, "name the models are stored under",
                 .def = "default"),
        OPT_INT("size", 0, "N", &size, 0, PEACE_MAX_COLOC,
                "train on co-locations of N workloads, 0 = every size",
                .def = "2, the paper's pairs"),
        OPT_STRING("without", 0, "WORKLOAD", &without,
                   "leave every row of this workload out (to judge it as unseen)"),
        TRAIN_OPTIONS(&o),
        OPT_END(),
    };
    cli_args rest = CLI_ARGS(1, 1, "SET");
    int code;
    if (cli_parse(ctx, &cmd_peace_train, opts, argc, argv, &rest, &code))
        return code;
    loaded l;
    gp_err err = {{0}};
    /* A store that cannot keep the models is said before training them. */
    if (load(ctx, rest.argv[0], NULL, &l, &err) ||
        store_check_writable(cli_store(ctx), &err)) {
        loaded_free(&l);
        return cli_fail(&err);
    }
    int w = without ? peace_set_workload(l.p.set, without) : -1;
    if (without && w < 0) {
        loaded_free(&l);
        return cli_usage_error(&cmd_peace_train, "--without: no workload '%s' in set '%s'",
                               without, l.p.set->name);
    }
    size_t *rows = xmalloc((l.p.set->nco + 1) * sizeof *rows);
    peace_row_filter f = {.n = size, .without = w, .with = -1};
    size_t n = peace_rows(l.p.ix, &f, rows), keep = peace_rows_sample(rows, n, o.train_frac, o.seed);
    peace_models m;
    double t0 = now_seconds();
    o.et.seed = o.seed;
    int rc = peace_models_train(&m, l.p.ix, rows, keep, &o.et, &err);
    double secs = now_seconds() - t0;
    if (rc == 0) {
        double mt, mp;
        peace_models_mape(&m, l.p.ix, rows + keep, n - keep, &mt, &mp);
        rc = store_models(ctx, l.p.set->name, model, &m, without, &err);
        if (rc == 0)
            print_train(ctx, l.p.set->name, model, &m, n - keep, mt, mp, secs);
        peace_models_free(&m);
    }
    free(rows);
    loaded_free(&l);
    return rc ? cli_fail(&err) : EXIT_OK;
}

/* ---- eval --------------------------------------------------------------------------- */

static const cli_cmd cmd_peace_eval = {
    .name = "peace eval",
    .usage = "SET [--setting seen|unseen|three|all] [--caps W,...] [OPTIONS]",
    .summary = "Every policy's throughput sum over the Oracle's, per power cap (PEACE Fig. 4)",
    .notes = "seen: models trained on --frac of the pair rows, every pair evaluated; unseen: "
             "for each workload, models trained without it, the pairs holding it evaluated; "
             "three: the same for groups of three.  Every policy runs under the same "
             "simulated frequency controller; the Oracle tries every split under it.",
};

static void add_eval_rows(table *t, const peace_eval_opts *o, const peace_eval_result *r)
{
    for (int k = 0; k < o->npol; k++)
        for (int c = 0; c < o->ncaps; c++) {
            const peace_eval_cell *cell = &r->cell[c][k];
            if (!cell->n)
                continue;
            table_row(t);
            table_cell(t, "%s", peace_setting_name(o->setting));
            table_cell(t, "%s", o->pol[k]->name);
            table_cell(t, "%g", o->caps_w[c]);
            table_cell(t, "%.4f", peace_eval_mean(cell));
            table_cell(t, "%.4f", cell->min);
            table_cell(t, "%zu", cell->n);
            table_cell(t, "%.2f", cell->violation_pct);
        }
}

/* PEACE's margin over the best other baseline at each cap, in percent. */
static void print_margins(FILE *out, const peace_eval_opts *o, const peace_eval_result *r)
{
    int pk = -1;
    for (int k = 0; k < o->npol; k++)
        if (o->pol[k]->role == PEACE_ROLE_METHOD)
            pk = k;
    if (pk < 0)
        return;
    for (int c = 0; c < o->ncaps; c++) {
        double best = -1;
        const char *who = "";
        for (int k = 0; k < o->npol; k++) {
            double v = peace_eval_mean(&r->cell[c][k]);
            if (o->pol[k]->role == PEACE_ROLE_BASELINE && !isnan(v) && v > best) {
                best = v;
                who = o->pol[k]->name;
            }
        }
        double p = peace_eval_mean(&r->cell[c][pk]);
        if (best > 0 && !isnan(p))
            fprintf(out, "%s, cap %g W: peace %.1f %% of the Oracle, %+.1f %% over the next "
                    "best (%s, %.1f %%)\n", peace_setting_name(o->setting), o->caps_w[c],
                    100 * p, 100 * (p / best - 1), who, 100 * best);
    }
}

static int eval_one(const loaded *l, peace_eval_opts *o, table *t, FILE *notes, gp_err *err)
{
    peace_eval_result *r = xcalloc(1, sizeof *r);
    int rc = peace_eval(l->p.ix, o, r, err);
    if (rc == 0) {
        add_eval_rows(t, o, r);
        if (notes) {
            print_margins(notes, o, r);
            fprintf(notes, "%s: %zu groups, %zu trainings on %zu rows; MAPE on %zu held-out "
                    "rows: throughput sum %.2f %%, power %.2f %%; %.1f s training, %.1f s "
                    "policies\n", peace_setting_name(o->setting), r->groups, r->trainings,
                    r->train_rows, r->test_rows, r->tput_mape, r->power_mape, r->train_s,
                    r->eval_s);
        }
    }
    free(r);
    return rc;
}

static int eval_exec(cli_ctx *ctx, int argc, char **argv)
{
    peace_eval_opts o;
    peace_eval_opts_default(&o, 0, 0);
    const char *setting = "seen";
    const cli_opt opts[] = {
        OPT_STRING("setting", 0, "NAME", &setting, "seen, unseen, three or all", .def = "seen"),
        OPT_INT("train-size", 0, "N", &o.train_n, 0, PEACE_MAX_COLOC,
                "train on co-locations of N workloads, 0 = any",
                .def = "2 for seen and unseen, any for three"),
        OPT_CALLBACK("caps", 0, "W,...", &o, parse_caps, "power caps in watts",
                     .def = "60,100,200"),
        OPT_CALLBACK("policy", 0, "LIST", &o, parse_policies,
                     "policies (the Oracle is always run)", .def = "all seven"),
        TRAIN_OPTIONS(&o),
        OPT_END(),
    };
    cli_args rest = CLI_ARGS(1, 1, "SET");
    int code;
    if (cli_parse(ctx, &cmd_peace_eval, opts, argc, argv, &rest, &code))
        return code;
    int first = peace_setting_parse(setting), last = first;
    if (strcmp(setting, "all") == 0)
        first = 0, last = PEACE_NSETTINGS - 1;
    else if (first < 0)
        return cli_usage_error(&cmd_peace_eval, "--setting: expected seen, unseen, three or "
                               "all, got '%s'", setting);
    loaded l;
    gp_err err = {{0}};
    int rc = load(ctx, rest.argv[0], NULL, &l, &err);
    if (rc == 0)
        rc = check_caps(&l, &o, &err);
    if (rc == 0) {
        peace_ctrl_params_default(&o.ctrl, l.gpu->f_min_mhz, l.gpu->f_max_mhz);
        o.et.seed = o.seed;
        table *t = table_new();
        static const char *const cols[] = {"setting", "policy", "cap_w", "vs_oracle", "min",
                                           "groups", "cap_violation_pct"};
        for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
            table_col(t, cols[c], c >= 2);
        FILE *notes = ctx->format == FMT_TABLE ? stderr : NULL;
        for (int s = first; s <= last && rc == 0; s++) {
            o.setting = (peace_setting)s;
            rc = eval_one(&l, &o, t, notes, &err);
        }
        if (rc == 0)
            table_print(t, ctx->format, ctx->out, NULL);
        table_free(t);
    }
    loaded_free(&l);
    return rc ? cli_fail(&err) : EXIT_OK;
}

/* ---- choose ------------------------------------------------------------------------- */

static const cli_cmd cmd_peace_choose = {
    .name = "peace choose",
    .usage = "SET --workloads A+B[+C] --cap W [--model NAME]",
    .summary = "Choose an SM split for one group under one cap, and compare the policies",
};

/* Whether the set measured group g (every measured group has its
 * unpartitioned rows). */
static int measured(const peace_index *ix, const peace_combo *g)
{
    peace_combo probe = *g;
    double lo, hi;
    for (int i = 0; i < probe.n; i++)
        probe.share[i] = PEACE_NO_PARTITION;
    peace_combo_canon(&probe);
    return peace_truth_range(ix, &probe, &lo, &hi) == 0;
}

/* "A+B[+C]" into a group of the set's workloads that the set measured. */
static int parse_group(const loaded *l, const char *text, peace_combo *g, gp_err *err)
{
    const peace_set *s = l->p.set;
    char *copy = xstrdup(text), *save = NULL;
    memset(g, 0, sizeof *g);
    int rc = 0;
    for (char *t = strtok_r(copy, "+", &save); t && rc == 0; t = strtok_r(NULL, "+", &save)) {
        int w = peace_set_workload(s, t);
        if (w < 0)
            rc = gp_error(err, "--workloads: no workload '%s' in set '%s'", t, s->name);
        else if (g->n == PEACE_MAX_COLOC)
            rc = gp_error(err, "--workloads: at most %d workloads", PEACE_MAX_COLOC);
        else
            g->w[g->n++] = w;
    }
    free(copy);
    if (rc == 0 && g->n < 2)
        rc = gp_error(err, "--workloads: expected two or three workloads, e.g. A+B");
    peace_combo_canon(g);
    if (rc == 0 && !measured(l->p.ix, g))
        rc = gp_error(err, "PEACE set '%s' has no ground truth for %s ('gpuplan show peace "
                      "%s' lists the groups it measured)", s->name, text, s->name);
    return rc;
}

/* "ALBERT_train 70%, MobileNet_inf 30%" (allocated; the caller frees). */
static char *split_text(const peace_set *s, const peace_combo *c)
{
    strbuf b = STRBUF_INIT;
    for (int i = 0; i < c->n; i++) {
        strbuf_sep(&b, ", ");
        strbuf_printf(&b, "%s %d%%", s->wl[c->w[i]].name, c->share[i]);
    }
    return strbuf_take(&b);
}

static void choose_row(table *t, const loaded *l, const peace_policy *p, const peace_decision *d,
                       const peace_ctrl_result *r, double oracle)
{
    char *split = split_text(l->p.set, &d->split);
    table_row(t);
    table_cell(t, "%s", p->name);
    table_cell(t, "%s", split);
    free(split);
    table_cell(t, "%.0f", r->freq_mhz);
    table_cell(t, "%.1f", r->power_w);
    table_cell(t, "%.2f", r->tput_sum);
    table_cell(t, "%.4f", oracle > 0 ? r->tput_sum / oracle : NAN);
    table_cell(t, "%.2f", r->violation_pct);
    table_cell(t, "%s", d->why);
}

static int choose_run(cli_ctx *ctx, const loaded *l, const peace_env *env, const peace_combo *g,
                      double cap, gp_err *err)
{
    table *t = table_new();
    static const char *const cols[] = {"policy", "split", "mhz", "power_w", "tput_sum",
                                       "vs_oracle", "cap_violation_pct", "why"};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
        table_col(t, cols[c], c >= 2 && c <= 6);
    peace_decision d;
    peace_ctrl_result oracle, r;
    int rc = peace_policy_run(&peace_policy_oracle, env, g, cap, &d, &oracle, err);
    const peace_policy *p;
    for (size_t i = 0; rc == 0 && (p = peace_policy_nth(i)); i++) {
        if (g->n > p->max_workloads || (p->needs_models && !env->models))
            continue;
        rc = peace_policy_run(p, env, g, cap, &d, &r, err);
        if (rc == 0)
            choose_row(t, l, p, &d, &r, oracle.tput_sum);
    }
    if (rc == 0)
        table_print(t, ctx->format, ctx->out, NULL);
    if (rc == 0 && oracle.floor_over_cap)
        fprintf(stderr, "gpuplan: note: at its lowest clock (%g MHz) this group still draws "
                "more than %g W with every split; the controller cannot hold the cap\n",
                env->ctrl.f_min, cap);
    table_free(t);
    return rc;
}

static int choose_exec(cli_ctx *ctx, int argc, char **argv)
{
    const char *workloads = NULL, *model = "default";
    double cap = 0;
    const cli_opt opts[] = {
        OPT_STRING("workloads", 0, "A+B[+C]", &workloads, "the co-located workloads",
                   .required = 1),
        OPT_DOUBLE("cap", 0, "W", &cap, 0, 10000, "the GPU's power cap", .min_open = 1,
                   .required = 1),
        OPT_STRING("model", 0, "NAME", &model, "PEACE's stored models", .def = "default"),
        OPT_END(),
    };
    cli_args rest = CLI_ARGS(1, 1, "SET");
    int code;
    if (cli_parse(ctx, &cmd_peace_choose, opts, argc, argv, &rest, &code))
        return code;
    loaded l;
    gp_err err = {{0}};
    peace_combo g;
    int rc = load(ctx, rest.argv[0], model, &l, &err);
    if (rc == 0)
        rc = parse_group(&l, workloads, &g, &err);
    if (rc == 0)
        rc = peace_check_cap(l.p.set, l.gpu->idle_w, cap, &err);
    if (rc == 0) {
        peace_env env = {.ix = l.p.ix, .models = &l.p.models};
        peace_ctrl_params_default(&env.ctrl, l.gpu->f_min_mhz, l.gpu->f_max_mhz);
        rc = choose_run(ctx, &l, &env, &g, cap, &err);
    }
    loaded_free(&l);
    return rc ? cli_fail(&err) : EXIT_OK;
}

/* ---- the subcommands ---------------------------------------------------------------- */

typedef struct subcommand {
    const cli_cmd *cmd;
    int (*exec)(cli_ctx *ctx, int argc, char **argv);
} subcommand;

static const subcommand subcommands[] = {
    {&cmd_peace_train, train_exec},
    {&cmd_peace_eval, eval_exec},
    {&cmd_peace_choose, choose_exec},
};
#define NSUB (sizeof subcommands / sizeof *subcommands)

static void list_subcommands(FILE *out)
{
    fprintf(out, "Subcommands:\n");
    for (size_t i = 0; i < NSUB; i++)
        cli_help_row(out, subcommands[i].cmd->name + strlen("peace "),
                     subcommands[i].cmd->summary, 12);
}

static int peace_exec(cli_ctx *ctx, int argc, char **argv)
{
    for (size_t i = 0; argc > 1 && i < NSUB; i++)
        if (strcmp(argv[1], subcommands[i].cmd->name + strlen("peace ")) == 0)
            return subcommands[i].exec(ctx, argc - 1, argv + 1);
    const cli_opt opts[] = {OPT_END()};
    cli_args rest = CLI_ARGS(0, -1, NULL);
    int code;
    if (cli_parse(ctx, &cmd_peace, opts, argc, argv, &rest, &code))
        return code;
    if (rest.argc == 0)
        return cli_usage_error(&cmd_peace, "expected a subcommand: train, eval or choose");
    return cli_usage_error(&cmd_peace, "unknown subcommand '%s' (expected train, eval or "
                           "choose)", rest.argv[0]);
}
