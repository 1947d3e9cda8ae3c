/*
 * site_envelope.c — how many GPUs a power envelope holds (site_envelope.h).
 * Pure.
 */
#include "site_envelope.h"

#include <math.h>

#include "core/util.h"

int site_has_budget(const site_envelope *e)
{
    return e && e->site_kw > 0;
}

double site_facility_w(const site_envelope *e, double it_peak_w)
{
    return it_peak_w * (e->pue >= 1 ? e->pue : 1);
}

/* Servers of peak w that a budget of budget_w holds (whole servers). */
static int servers_in(double budget_w, double w)
{
    return w > 0 ? (int)fmin(floor_tol(budget_w / w), 1e9) : 0;
}

void site_capacity_of(const site_envelope *e, int per_server, double gpu_max_w,
                      site_capacity *out)
{
    site_capacity c = {0};
    c.server_peak_w = per_server * gpu_max_w + e->host_w;
    c.site_it_w = e->site_kw * 1000 / (e->pue >= 1 ? e->pue : 1);
    c.site_servers = servers_in(c.site_it_w, c.server_peak_w);
    c.servers = c.site_servers;
    c.limit = SITE_LIMIT_SITE;
    if (e->rack_kw > 0) {
        c.per_rack = servers_in(e->rack_kw * 1000, c.server_peak_w);
        if (e->servers_per_rack > 0 && e->servers_per_rack < c.per_rack)
            c.per_rack = e->servers_per_rack;
        c.racks = servers_in(c.site_it_w, e->rack_kw * 1000);
        long in_racks = (long)c.racks * c.per_rack;
        if (in_racks < c.servers) {
            c.servers = (int)in_racks;
            c.limit = SITE_LIMIT_RACK;
        }
    }
    c.gpus = c.servers * per_server;
    /* the site's power left over holds a last, partly filled server (the
     * planner's clusters end with one); in racks, that power is stranded */
    double left = c.site_it_w - c.servers * c.server_peak_w - e->host_w;
    if (c.limit == SITE_LIMIT_SITE && left > 0 && gpu_max_w > 0) {
        int extra = (int)fmin(floor_tol(left / gpu_max_w), per_server - 1);
        if (extra > 0) {
            c.gpus += extra;
            c.servers++;
        }
    }
    *out = c;
}
