/*
 * plan_site.c — the plan's answer against the power envelope
 * (plan_site.h).
 */
#include "plan_site.h"

#include <stdio.h>

#include "core/strbuf.h"

void plan_site_capacity(const plan *pl, const plan_params *live, site_capacity *cap)
{
    site_capacity_of(&live->site, pl->p.per_server, pl->prof.max_w, cap);
}

void plan_site_answer(const plan *pl, const plan_params *live, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!site_has_budget(&live->site) || pl->grid)
        return;
    site_capacity cap;
    plan_site_capacity(pl, live, &cap);
    const char *limit = cap.limit == SITE_LIMIT_RACK ? "the racks" : "the site";
    strbuf b = STRBUF_INIT;
    strbuf_printf(&b, "site holds %d %s (%s bind%s); binding:", cap.gpus, pl->prof.name, limit,
                  cap.limit == SITE_LIMIT_RACK ? "" : "s");
    for (int j = 0; j < live->npolicies; j++) {
        int c = plan_best(pl, j, live);
        const plan_result *r = c >= 0 ? plan_result_at(pl, c, j) : NULL;
        if (!r)
            strbuf_printf(&b, " %s SLA (none swept meets it)", live->policies[j]);
        else if (plan_fits_site(pl, r, live))
            strbuf_printf(&b, " %s SLA (%d fit)", live->policies[j], r->gpus);
        else
            strbuf_printf(&b, " %s %s (%d needed)", live->policies[j], limit, r->gpus);
    }
    snprintf(buf, len, "%s", strbuf_str(&b));
    strbuf_free(&b);
}
