/*
 * import_genai.c — being written; registered so the table is complete.
 */
#include "import.h"

static int genai_detect(const char *const *paths, size_t npaths)
{
    (void)paths;
    (void)npaths;
    return 0;
}

static int genai_run(store *st, const char *const *paths, size_t npaths,
                    const import_opts *opts, import_result *res, gp_err *err)
{
    (void)st, (void)paths, (void)npaths, (void)opts, (void)res;
    return gp_error(err, "genai: importer not built yet");
}

const importer import_genai = {
    .format = "genai",
    .summary = "",
    .inputs = "",
    .detect = genai_detect,
    .run = genai_run,
};
