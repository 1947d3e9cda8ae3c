/*
 * import_openb.c — being written; registered so the table is complete.
 */
#include "import.h"

static int openb_detect(const char *const *paths, size_t npaths)
{
    (void)paths;
    (void)npaths;
    return 0;
}

static int openb_run(store *st, const char *const *paths, size_t npaths,
                    const import_opts *opts, import_result *res, gp_err *err)
{
    (void)st, (void)paths, (void)npaths, (void)opts, (void)res;
    return gp_error(err, "openb: importer not built yet");
}

const importer import_openb = {
    .format = "openb",
    .summary = "",
    .inputs = "",
    .detect = openb_detect,
    .run = openb_run,
};
