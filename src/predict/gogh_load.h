/*
 * gogh_load.h — the GOGH estimation nets a simulation uses, loaded from the
 * store: named ones, or those trained on the run's throughput table; and
 * trained nets stored, and trained on first use.  The CLI's `run`, `plan`
 * and `estimate`, the dashboard and `reproduce` share it.
 *
 * Ownership: the nets returned are freed with gogh_nets_free(); the
 * simulator borrows them (sim_config.nets).
 */
#ifndef GP_GOGH_LOAD_H
#define GP_GOGH_LOAD_H

#include "db/store.h"
#include "gogh_est.h"

/* Nets `name` ("none": *out NULL), else with name NULL those of table
 * `tput` named like it or its only ones (*out NULL when there are several
 * and none is named like it: the policies that need nets say so; nets
 * that do not fit the table are refused when an estimator is made of
 * them).  A table with no nets at all gets them here, the first time they
 * are looked for: trained with gogh_first_use_params() and stored under
 * the table's name (kept in memory only when the store cannot be
 * written; none when the table is too small to train on).  0, or -1 with
 * a message. */
int gogh_nets_find(store *st, const char *name, const tput_catalog *tput, gogh_nets **out,
                   gp_err *err);
/* The same, telling a training's progress to prog (NULL: to no one). */
int gogh_nets_find_shown(store *st, const char *name, const tput_catalog *tput,
                         const gogh_progress *prog, gogh_nets **out, gp_err *err);

/* What nets trained on first use get: the defaults with 60 epochs. */
void gogh_first_use_params(gogh_train_params *p);

/* Stores nets n, trained on table `tput` with parameters p to report rep,
 * under `name` (replacing nets of that name).  0, or -1 with a message. */
int gogh_nets_store(store *st, const char *name, const char *tput, const gogh_nets *n,
                    const gogh_train_params *p, const gogh_train_report *rep, gp_err *err);

#endif
