/*
 * site_envelope.c — how many GPUs a power envelope holds (site_envelope.h).
 * Pure.
 */
#include "site_envelope.h"

#include <assert.h>
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

/* Servers of per_server GPUs that n GPUs fill, the last partly. */
static int servers_for(int n, int per_server)
{
    return (n + per_server - 1) / per_server;
}

/* The most GPUs of max_w, in servers of per_server with a host of host_w
 * each, that it_w watts hold (the last server partly filled). */
static int gpus_in(double it_w, int per_server, double max_w, double host_w)
{
    double server_w = per_server * max_w + host_w;
    int full = servers_in(it_w, server_w);
    double left = it_w - full * server_w - host_w;
    int extra = left > 0 && max_w > 0 ? (int)fmin(floor_tol(left / max_w), per_server - 1) : 0;
    return full * per_server + (extra > 0 ? extra : 0);
}

/* Servers of a model a rack holds: its budget over their peak, at most
 * its slots. */
static int rack_holds(const site_envelope *e, int per_server, double max_w)
{
    int n = servers_in(e->rack_kw * 1000, per_server * max_w + e->host_w);
    return e->servers_per_rack > 0 && e->servers_per_rack < n ? e->servers_per_rack : n;
}

void site_capacity_mix(const site_envelope *e, int per_server, double w1, int n1, double w2,
                       site_mix *out)
{
    assert(per_server > 0 && n1 >= 0);
    site_mix m = {-1, -1, -1, SITE_LIMIT_SITE};
    double it_w = e->site_kw * 1000 / (e->pue >= 1 ? e->pue : 1);
    int s1 = servers_for(n1, per_server);
    double left = it_w - (n1 * w1 + s1 * e->host_w);
    m.site_n2 = left >= -1e-9 * it_w ? gpus_in(fmax(left, 0), per_server, w2, e->host_w) : -1;
    m.n2 = m.site_n2;
    if (e->rack_kw > 0) {
        int racks = servers_in(it_w, e->rack_kw * 1000);
        int per1 = rack_holds(e, per_server, w1), per2 = rack_holds(e, per_server, w2);
        int racks1 = s1 == 0 ? 0 : per1 > 0 ? (s1 + per1 - 1) / per1 : racks + 1;
        m.rack_n2 = racks1 > racks ? -1 : (racks - racks1) * per2 * per_server;
        if (m.rack_n2 < m.n2) {
            m.n2 = m.rack_n2;
            m.limit = SITE_LIMIT_RACK;
        }
    }
    *out = m;
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
