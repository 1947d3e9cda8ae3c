/*
 * pathcomp.c — file path completion for prompts (pathcomp.h).
 */
#include "pathcomp.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The directory to list and the name prefix of the word, with ~/ made
 * $HOME/ for listing (the text keeps what the user typed). */
static void split_word(const char *word, char *dir, size_t dlen, const char **base)
{
    const char *slash = strrchr(word, '/');
    const char *home = getenv("HOME");
    *base = slash ? slash + 1 : word;
    if (!slash) {
        snprintf(dir, dlen, ".");
        return;
    }
    int n = (int)(slash - word) + 1;
    if (word[0] == '~' && word[1] == '/' && home)
        snprintf(dir, dlen, "%s%.*s", home, n - 1, word + 1);
    else
        snprintf(dir, dlen, "%.*s", n, word);
}

static int is_dir(const char *dir, const char *name)
{
    char p[4096];
    struct stat sb;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* Inserts add at *cursor if it fits. */
static void insert(char *text, size_t cap, size_t *cursor, const char *add)
{
    size_t len = strlen(text), n = strlen(add);
    if (len + n + 1 > cap)
        return;
    memmove(text + *cursor + n, text + *cursor, len - *cursor + 1);
    memcpy(text + *cursor, add, n);
    *cursor += n;
}

int path_complete(char *text, size_t cap, size_t *cursor, char *shown, size_t cap_shown)
{
    size_t start = *cursor;
    while (start > 0 && text[start - 1] != ' ')
        start--;
    char word[1024], dir[2048];
    snprintf(word, sizeof word, "%.*s", (int)(*cursor - start), text + start);
    const char *base;
    split_word(word, dir, sizeof dir, &base);
    size_t blen = strlen(base);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    char common[256] = "", only[256] = "";
    int matches = 0;
    if (shown && cap_shown)
        shown[0] = '\0';
    for (struct dirent *e; (e = readdir(d));) {
        const char *nm = e->d_name;
        if (strncmp(nm, base, blen) != 0 || !strcmp(nm, ".") || !strcmp(nm, ".."))
            continue;
        if (nm[0] == '.' && base[0] != '.')
            continue;           /* hidden files only when asked for */
        if (matches++ == 0) {
            snprintf(common, sizeof common, "%s", nm);
            snprintf(only, sizeof only, "%s", nm);
        } else {
            size_t k = 0;
            while (common[k] && common[k] == nm[k])
                k++;
            common[k] = '\0';
        }
        if (shown && cap_shown) {
            size_t l = strlen(shown);
            snprintf(shown + l, cap_shown - l, "%s%s", l ? " " : "", nm);
        }
    }
    closedir(d);
    if (matches == 0)
        return 0;
    char add[300];
    if (matches == 1)
        snprintf(add, sizeof add, "%s%s", only + blen, is_dir(dir, only) ? "/" : " ");
    else
        snprintf(add, sizeof add, "%s", common + blen);
    insert(text, cap, cursor, add);
    return matches;
}
