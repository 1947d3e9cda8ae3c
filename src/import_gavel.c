/*
 * import_gavel.c — being written; registered so the table is complete.
 */
#include "import.h"

static int gavel_detect(const char *const *paths, size_t npaths)
{
    (void)paths;
    (void)npaths;
    return 0;
}

static int gavel_run(store *st, const char *const *paths, size_t npaths,
                    const import_opts *opts, import_result *res, gp_err *err)
{
    (void)st, (void)paths, (void)npaths, (void)opts, (void)res;
    return gp_error(err, "gavel: importer not built yet");
}

const importer import_gavel = {
    .format = "gavel",
    .summary = "",
    .inputs = "",
    .detect = gavel_detect,
    .run = gavel_run,
};
