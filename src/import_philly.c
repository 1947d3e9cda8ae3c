/*
 * import_philly.c — being written; registered so the table is complete.
 */
#include "import.h"

static int philly_detect(const char *const *paths, size_t npaths)
{
    (void)paths;
    (void)npaths;
    return 0;
}

static int philly_run(store *st, const char *const *paths, size_t npaths,
                    const import_opts *opts, import_result *res, gp_err *err)
{
    (void)st, (void)paths, (void)npaths, (void)opts, (void)res;
    return gp_error(err, "philly: importer not built yet");
}

const importer import_philly = {
    .format = "philly",
    .summary = "",
    .inputs = "",
    .detect = philly_detect,
    .run = philly_run,
};
