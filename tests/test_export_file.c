/*
 * test_export_file.c — files written whole or not at all (io/export_file.h):
 * the file appears only when closed, with nothing temporary left; a
 * discarded or failed write leaves the old file; a link is refused and its
 * target untouched; a device's write error is reported naming it; a
 * scratch file written by name is copied out byte for byte.
 */
#include "testutil.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/export_file.h"

/* The whole content of path (NULL when it cannot be read). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = xcalloc(1, 65536);
    size_t n = fread(buf, 1, 65535, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void assert_content(const char *path, const char *want)
{
    char *got = slurp(path);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
}

/* How many entries dir holds besides . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void test_written_on_close(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    char *path = xasprintf("%s/out.csv", dir);
    gp_err err = {{0}};
    FILE *f = out_file_open(path, &err);
    assert_non_null(f);
    fputs("a,b\n1,2\n", f);
    assert_int_equal(access(path, F_OK), -1);       /* not there until closed */
    assert_int_equal(out_file_close(f, path, &err), 0);
    assert_content(path, "a,b\n1,2\n");
    assert_int_equal(entries(dir), 1);
    free(path);
    tu_rmrf(dir);
    free(dir);
}

static void test_discard_keeps_old(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    tu_write(dir, "out.csv", "old\n");
    char *path = xasprintf("%s/out.csv", dir);
    gp_err err = {{0}};
    FILE *f = out_file_open(path, &err);
    assert_non_null(f);
    fputs("new, half written", f);
    out_file_discard(f, path);
    assert_content(path, "old\n");
    assert_int_equal(entries(dir), 1);
    free(path);
    tu_rmrf(dir);
    free(dir);
}

static void test_link_refused(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    tu_write(dir, "target", "precious\n");
    char *target = xasprintf("%s/target", dir), *link = xasprintf("%s/link", dir);
    assert_int_equal(symlink(target, link), 0);
    gp_err err = {{0}};
    assert_null(out_file_open(link, &err));
    tu_assert_contains(err.msg, "link: is a symbolic link");
    assert_content(target, "precious\n");
    free(target);
    free(link);
    tu_rmrf(dir);
    free(dir);
}

static void test_device_error_named(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0)
        skip();
    gp_err err = {{0}};
    FILE *f = out_file_open("/dev/full", &err);
    assert_non_null(f);
    fputs("anything", f);
    assert_int_equal(out_file_close(f, "/dev/full", &err), -1);
    tu_assert_contains(err.msg, "/dev/full: writing failed: No space left on device");
}

static void test_scratch_copied(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    char *path = xasprintf("%s/model.lp", dir);
    gp_err err = {{0}};
    out_scratch s;
    assert_int_equal(out_scratch_open(&s, &err), 0);
    assert_int_equal(out_scratch_size(&s), 0);
    FILE *by_name = fopen(s.name, "w");       /* as a library writing by name */
    assert_non_null(by_name);
    fputs("Minimize\n obj: x\nEnd\n", by_name);
    assert_int_equal(fclose(by_name), 0);
    assert_int_equal(out_scratch_size(&s), 21);
    assert_int_equal(out_scratch_save(&s, path, &err), 0);
    out_scratch_close(&s);
    assert_content(path, "Minimize\n obj: x\nEnd\n");
    free(path);
    tu_rmrf(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_written_on_close),
        cmocka_unit_test(test_discard_keeps_old),
        cmocka_unit_test(test_link_refused),
        cmocka_unit_test(test_device_error_named),
        cmocka_unit_test(test_scratch_copied),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
