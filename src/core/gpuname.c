/*
 * gpuname.c — GPU and node names as users see them (see gpuname.h).
 */
#include "gpuname.h"

#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>

void gpu_name(char *buf, size_t len, const char *node, int dev)
{
    if (dev < 0)
        snprintf(buf, len, "%s", node);
    else
        snprintf(buf, len, "%s/g%d", node, dev);
}

void gpus_name(char *buf, size_t len, const char *node, const char *devs)
{
    strbuf b = STRBUF_INIT;
    strbuf_puts(&b, node);
    const char *p = devs;
    for (int k = 0; p && *p; k++) {
        char *end;
        long dev = strtol(p, &end, 10);
        if (end == p)
            break;
        strbuf_printf(&b, "%sg%ld", k ? "," : "/", dev);
        p = *end == ',' ? end + 1 : end;
    }
    strbuf_copy_to(&b, buf, len);
    strbuf_free(&b);
}
