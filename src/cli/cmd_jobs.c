/*
 * cmd_jobs.c — `gpuplan jobs --shards N sweep inflation ...` (or `... plan
 * ...`): the command lines that run a sweep or a capacity plan as N shards
 * on engines that exist — one line per shard for GNU parallel (`parallel <
 * jobs.txt`), or a Slurm job-array script (`sbatch --array=0-(N-1)`).
 * Each shard starts from a copy of the database (the global --db), runs
 * `--shard I/N` into shard-I.db, and `gpuplan merge shard-*.db --into DB`
 * puts the runs (a plan's points) back together.
 *
 * Not here: the partition (plan/shard.h), the merge (cmd_merge.c).
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "core/strbuf.h"
#include "plan/shard.h"

#include <stdio.h>
#include <string.h>

static int jobs_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_jobs = {
    .name = "jobs",
    .usage = "--shards N [--slurm] [OPTIONS] sweep inflation SWEEP-OPTIONS\n"
             "       --shards N [--slurm] [OPTIONS] plan PLAN-OPTIONS",
    .summary = "Print the command lines that run a sweep or a plan in shards (GNU parallel, "
               "Slurm)",
    .notes = "Each shard copies the database (--db), runs its share of the jobs into "
             "PREFIX-I.db, and `gpuplan merge PREFIX-*.db --into DB` combines them; a plan is "
             "then read whole by the same plan command on DB. Without --slurm: one shell line "
             "per shard, for `parallel < FILE`; with it, a job-array script for sbatch.",
    .exec = jobs_exec,
};

typedef struct jobs_opts {
    int shards, slurm, cpus;
    const char *prefix, *program;
} jobs_opts;

/* A word for sh: as it is when it is plain, else in single quotes. */
static void put_word(strbuf *b, const char *w)
{
    int plain = *w != '\0';
    for (const char *c = w; *c && plain; c++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                       "_-+=./:,@%", *c) != NULL;
    if (plain) {
        strbuf_puts(b, w);
        return;
    }
    strbuf_puts(b, "'");
    for (const char *c = w; *c; c++)
        strbuf_puts(b, *c == '\'' ? "'\\''" : (char[2]){*c, '\0'});
    strbuf_puts(b, "'");
}

/* The sweep's own arguments, each quoted, after a space. */
static void put_args(strbuf *b, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        strbuf_puts(b, " ");
        put_word(b, argv[i]);
    }
}

/* One line per shard: copy, then run the shard. */
static void print_lines(FILE *out, const jobs_opts *o, const char *db, int argc, char **argv)
{
    for (int i = 0; i < o->shards; i++) {
        char shard_db[512], spec[64];
        snprintf(shard_db, sizeof shard_db, "%s%d.db", o->prefix, i);
        snprintf(spec, sizeof spec, "%d/%d", i, o->shards);
        strbuf b = STRBUF_INIT;
        strbuf_puts(&b, "cp -- ");
        put_word(&b, db);
        strbuf_puts(&b, " ");
        put_word(&b, shard_db);
        strbuf_puts(&b, " && ");
        put_word(&b, o->program);
        strbuf_puts(&b, " --db ");
        put_word(&b, shard_db);
        put_args(&b, argc, argv);
        strbuf_printf(&b, " --shard %s -j %d -q", spec, o->cpus);
        fprintf(out, "%s\n", strbuf_str(&b));
        strbuf_free(&b);
    }
}

/* A Slurm job-array script: task I runs shard I. */
static void print_slurm(FILE *out, const jobs_opts *o, const char *db, int argc, char **argv)
{
    strbuf b = STRBUF_INIT;
    strbuf_puts(&b, "cp -- ");
    put_word(&b, db);
    strbuf_printf(&b, " \"$shard_db\"\nexec ");
    put_word(&b, o->program);
    strbuf_puts(&b, " --db \"$shard_db\"");
    put_args(&b, argc, argv);
    strbuf_printf(&b, " --shard \"$i/%d\" -j \"${SLURM_CPUS_PER_TASK:-%d}\" -q\n", o->shards,
                  o->cpus);
    fprintf(out, "#!/bin/sh\n"
            "# A gpuplan %s in %d shards: sbatch this file, then, when every task is done,\n"
            "#   gpuplan merge %s*.db --into %s\n"
            "#SBATCH --job-name=gpuplan-%s\n"
            "#SBATCH --array=0-%d\n"
            "#SBATCH --cpus-per-task=%d\n"
            "#SBATCH --output=%s%%a.log\n"
            "set -eu\n"
            "i=$SLURM_ARRAY_TASK_ID\n"
            "shard_db=\"%s$i.db\"\n%s",
            argv[0], o->shards, o->prefix, db, argv[0], o->shards - 1, o->cpus, o->prefix,
            o->prefix, strbuf_str(&b));
    strbuf_free(&b);
}

/* Where the sharded command line starts: the first "sweep" or "plan" (or
 * what follows "--"); argc when there is none. */
static int find_sweep(int argc, char **argv, int *skip)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            *skip = 1;
            return i;
        }
        if (strcmp(argv[i], "sweep") == 0 || strcmp(argv[i], "plan") == 0) {
            *skip = 0;
            return i;
        }
    }
    *skip = 0;
    return argc;
}

static int check_sweep(int argc, char **argv)
{
    if (argc == 0 || (strcmp(argv[0], "sweep") != 0 && strcmp(argv[0], "plan") != 0))
        return cli_usage_error(&cmd_jobs, "expected the sweep or plan to shard: sweep "
                               "inflation --trace T --cluster C ..., or plan --trace T --gpu G "
                               "...");
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--shard") == 0 || strncmp(argv[i], "--shard=", 8) == 0)
            return cli_usage_error(&cmd_jobs, "the %s's --shard is what jobs adds", argv[0]);
    return EXIT_OK;
}

static int jobs_exec(cli_ctx *ctx, int argc, char **argv)
{
    jobs_opts o = {.shards = 0, .cpus = 1, .prefix = "shard-", .program = "gpuplan"};
    const cli_opt opts[] = {
        OPT_INT("shards", 0, "N", &o.shards, 1, SHARD_MAX, "how many shards", .required = 1),
        OPT_FLAG("slurm", 0, &o.slurm, "print a Slurm job-array script instead of one line "
                 "per shard"),
        OPT_INT("cpus", 0, "N", &o.cpus, 1, 4096, "cores of each shard (its -j; Slurm: "
                "--cpus-per-task)", .def = "1"),
        OPT_STRING("prefix", 0, "P", &o.prefix, "the shards' databases are P0.db, P1.db, ...",
                   .def = "shard-"),
        OPT_STRING("program", 0, "PATH", &o.program, "how the shards call gpuplan",
                   .def = "gpuplan"),
        OPT_END(),
    };
    int skip, at = find_sweep(argc, argv, &skip), code;
    if (cli_parse(ctx, &cmd_jobs, opts, at, argv, NULL, &code))
        return code;
    int n = argc - at - skip;
    char **sweep = argv + at + skip;
    if ((code = check_sweep(n, sweep)) != EXIT_OK)
        return code;
    if (o.slurm)
        print_slurm(ctx->out, &o, ctx->db_path, n, sweep);
    else
        print_lines(ctx->out, &o, ctx->db_path, n, sweep);
    return EXIT_OK;
}
