/*
 * jsonpos.c — locating a JSON path in raw text, for error positions (see
 * jsonpos.h).  Every scan stops at len, so even text jansson would refuse
 * is never read out of bounds; only the answers stop meaning anything.
 */
#include "jsonpos.h"
#include "core/strbuf.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#define NPOS ((size_t)-1)

void jsonpos_push_key(jsonpos_path *p, const char *key)
{
    assert(key && p->depth >= 0 && p->depth < JSONPOS_MAX_DEPTH);
    p->step[p->depth++] = (jsonpos_step){key, 0};
}

void jsonpos_push_index(jsonpos_path *p, size_t index)
{
    assert(p->depth >= 0 && p->depth < JSONPOS_MAX_DEPTH);
    p->step[p->depth++] = (jsonpos_step){NULL, index};
}

void jsonpos_pop(jsonpos_path *p)
{
    assert(p->depth > 0);
    p->depth--;
}

jsonpos_path jsonpos_key(const jsonpos_path *p, const char *key)
{
    jsonpos_path q = *p;
    jsonpos_push_key(&q, key);
    return q;
}

jsonpos_path jsonpos_index(const jsonpos_path *p, size_t index)
{
    jsonpos_path q = *p;
    jsonpos_push_index(&q, index);
    return q;
}

void jsonpos_format(const jsonpos_path *p, int first, jsonpos_style style, char *buf,
                    size_t len)
{
    assert(len > 0);
    strbuf b = STRBUF_INIT;
    if (style == JSONPOS_BRACKETS)
        strbuf_puts(&b, "$");
    for (int i = first; i < p->depth; i++) {
        const jsonpos_step *s = &p->step[i];
        if (!s->key)
            strbuf_printf(&b, "[%zu]", s->index);
        else if (style == JSONPOS_BRACKETS)
            strbuf_printf(&b, "[\"%s\"]", s->key);
        else
            strbuf_printf(&b, "%s%s", i > first ? "." : "", s->key);
    }
    strbuf_copy_to(&b, buf, len);
    strbuf_free(&b);
}

size_t jsonpos_skip_ws(const char *text, size_t len, size_t off)
{
    while (off < len && (text[off] == ' ' || text[off] == '\t' || text[off] == '\r' ||
                         text[off] == '\n'))
        off++;
    return off < len ? off : len;
}

/* From an opening quote to just past the closing one. */
static size_t skip_string(const char *t, size_t len, size_t i)
{
    for (i++; i < len && t[i] != '"'; i++)
        if (t[i] == '\\')
            i++;
    return i < len ? i + 1 : len;
}

static size_t skip_value(const char *t, size_t len, size_t i)
{
    if (i >= len)
        return len;
    if (t[i] == '"')
        return skip_string(t, len, i);
    if (t[i] != '{' && t[i] != '[') {
        while (i < len && !strchr(",]} \t\r\n", t[i]))
            i++;
        return i;
    }
    int depth = 0;
    while (i < len) {
        char c = t[i];
        if (c == '"') {
            i = skip_string(t, len, i);
            continue;
        }
        if (c == '{' || c == '[')
            depth++;
        else if ((c == '}' || c == ']') && --depth == 0)
            return i + 1;
        i++;
    }
    return len;
}

/* Whether the JSON string t[start, end) (quotes included) decodes to key.
 * Without a backslash the bytes are the string; otherwise jansson decodes
 * it (error paths only, so the cost does not matter). */
static int key_equals(const char *t, size_t start, size_t end, const char *key)
{
    if (end - start < 2)
        return 0;
    const char *raw = t + start + 1;
    size_t n = end - start - 2;
    if (!memchr(raw, '\\', n))
        return strlen(key) == n && memcmp(raw, key, n) == 0;
    json_t *s = json_loadb(t + start, end - start, JSON_DECODE_ANY, NULL);
    int eq = json_is_string(s) && strcmp(json_string_value(s), key) == 0;
    json_decref(s);
    return eq;
}

/* The offset of the value of the member whose name starts at name. */
static size_t member_value(const char *t, size_t len, size_t name)
{
    size_t colon = jsonpos_skip_ws(t, len, skip_string(t, len, name));
    return jsonpos_skip_ws(t, len, colon < len ? colon + 1 : len);
}

/* The offset of member `key`'s name in the object at obj, or NPOS. */
static size_t find_member(const char *t, size_t len, size_t obj, const char *key)
{
    if (obj >= len || t[obj] != '{')
        return NPOS;
    size_t i = jsonpos_skip_ws(t, len, obj + 1);
    while (i < len && t[i] == '"') {
        if (key_equals(t, i, skip_string(t, len, i), key))
            return i;
        i = jsonpos_skip_ws(t, len, skip_value(t, len, member_value(t, len, i)));
        if (i >= len || t[i] != ',')
            break;
        i = jsonpos_skip_ws(t, len, i + 1);
    }
    return NPOS;
}

/* The offset of element `index` of the array at arr, or NPOS. */
static size_t find_element(const char *t, size_t len, size_t arr, size_t index)
{
    if (arr >= len || t[arr] != '[')
        return NPOS;
    size_t i = jsonpos_skip_ws(t, len, arr + 1);
    for (size_t k = 0; k < index; k++) {
        i = jsonpos_skip_ws(t, len, skip_value(t, len, i));
        if (i >= len || t[i] != ',')
            return NPOS;
        i = jsonpos_skip_ws(t, len, i + 1);
    }
    return i < len && t[i] != ']' ? i : NPOS;
}

jsonpos_loc jsonpos_locate(const char *text, size_t len, const jsonpos_path *p)
{
    size_t root = jsonpos_skip_ws(text, len, 0);
    jsonpos_loc loc = {root, root, 0};
    for (int i = 0; i < p->depth; i++) {
        const jsonpos_step *s = &p->step[i];
        size_t at = s->key ? find_member(text, len, loc.value, s->key) :
                    find_element(text, len, loc.value, s->index);
        if (at == NPOS)
            break;
        loc.key = at;
        loc.value = s->key ? member_value(text, len, at) : at;
        loc.found = i + 1;
    }
    return loc;
}

void jsonpos_line_col(const char *text, size_t len, size_t off, long *line, long *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            (*col)++;                   /* not a UTF-8 continuation byte */
        }
    }
}

void jsonpos_strip_bom(char *text, size_t *len)
{
    if (*len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        memmove(text, text + 3, *len - 3 + 1);
        *len -= 3;
    }
}

const char *jsonpos_type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE: return "true";
    case JSON_FALSE: return "false";
    default: return "null";
    }
}

int jsonpos_vfail(const char *file, const char *text, size_t len, const jsonpos_path *p,
                  jsonpos_style style, gp_err *err, const char *fmt, va_list ap)
{
    char msg[GP_ERR_MAX / 2], where[GP_ERR_MAX / 4];
    vsnprintf(msg, sizeof msg, fmt, ap);
    jsonpos_format(p, 0, style, where, sizeof where);
    long line, col;
    jsonpos_line_col(text, len, jsonpos_locate(text, len, p).key, &line, &col);
    return gp_error(err, "%s:%ld:%ld: %s: %s", file, line, col, where[0] ? where : "$", msg);
}
