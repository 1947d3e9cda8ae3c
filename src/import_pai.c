/*
 * import_pai.c — being written; registered so the table is complete.
 */
#include "import.h"

static int pai_detect(const char *const *paths, size_t npaths)
{
    (void)paths;
    (void)npaths;
    return 0;
}

static int pai_run(store *st, const char *const *paths, size_t npaths,
                    const import_opts *opts, import_result *res, gp_err *err)
{
    (void)st, (void)paths, (void)npaths, (void)opts, (void)res;
    return gp_error(err, "pai: importer not built yet");
}

const importer import_pai = {
    .format = "pai",
    .summary = "",
    .inputs = "",
    .detect = pai_detect,
    .run = pai_run,
};
