/*
 * cmd_table.h — the commands of `gpuplan` (cli.c's cli_commands[]), one
 * const cli_cmd each, defined in cmd_<name>.c.  Only the table and the
 * definers include this: the rest of the program goes through the table.
 */
#ifndef GP_CMD_TABLE_H
#define GP_CMD_TABLE_H

#include "cli.h"

extern const cli_cmd cmd_import;
extern const cli_cmd cmd_list;
extern const cli_cmd cmd_show;
extern const cli_cmd cmd_export;
extern const cli_cmd cmd_delete;
extern const cli_cmd cmd_profile;
extern const cli_cmd cmd_samples;
extern const cli_cmd cmd_run;
extern const cli_cmd cmd_sweep;
extern const cli_cmd cmd_plan;
extern const cli_cmd cmd_snapshot;
extern const cli_cmd cmd_calibrate;
extern const cli_cmd cmd_solve;
extern const cli_cmd cmd_peace;
extern const cli_cmd cmd_estimate;
extern const cli_cmd cmd_generate;
extern const cli_cmd cmd_plot;
extern const cli_cmd cmd_cluster;
extern const cli_cmd cmd_reproduce;
extern const cli_cmd cmd_jobs;
extern const cli_cmd cmd_merge;

#endif
