/*
 * site_envelope.h — a facility's power envelope (docs/site-and-cost.md): a
 * site budget in kW of facility power, the PUE that turns IT power into
 * it, and optionally a per-rack IT budget with servers per rack.  How many
 * GPUs it holds, and which budget stops more.
 *
 * Peak, not average, decides what fits: a server is provisioned at its
 * GPUs' maximum watts (the profile's max_w, the board power limit the GPU
 * holds over its control window; millisecond transients above it ride on
 * the supplies' headroom, not on the budget) plus its host's peak watts.
 * A rack budget strands power: a rack holds min(slots, rack budget /
 * server peak) servers, and the site's IT power feeds floor(site IT /
 * rack budget) racks.  Pure: no I/O.
 */
#ifndef GP_SITE_ENVELOPE_H
#define GP_SITE_ENVELOPE_H

typedef struct site_envelope {
    double site_kw;             /* facility power budget; 0 = none */
    double pue;                 /* the largest PUE of the hours, >= 1 */
    double rack_kw;             /* IT power budget of a rack; 0 = none */
    int servers_per_rack;       /* slots of a rack (with rack_kw); 0 = any */
    double host_w;              /* a server's peak beside its GPUs (CPUs, fans, NICs) */
} site_envelope;

typedef enum site_limit {
    SITE_LIMIT_SITE,            /* the site budget */
    SITE_LIMIT_RACK,            /* the racks: power stranded in each */
} site_limit;

/* What the envelope holds of servers of per_server GPUs of gpu_max_w. */
typedef struct site_capacity {
    double server_peak_w;       /* per_server x gpu_max_w + host_w */
    double site_it_w;           /* site budget / PUE */
    int site_servers;           /* what the site budget alone holds */
    int racks, per_rack;        /* with a rack budget (else 0) */
    int servers, gpus;          /* the most it holds (the last server of the
                                 * site alone may be partly filled) */
    site_limit limit;           /* the budget that stops more */
} site_capacity;

/* 1 when e has a site budget. */
int site_has_budget(const site_envelope *e);

/* The capacity; e must have a site budget. */
void site_capacity_of(const site_envelope *e, int per_server, double gpu_max_w,
                      site_capacity *out);

/* Two GPU models in servers of per_server GPUs each, as a grid of mixed
 * clusters builds them: n1 GPUs of the first model fill its servers (the
 * last partly), then the second model's.  A rack holds servers of one
 * model, so each rack's budget is filled by alike servers: the first
 * model's servers take the racks they need, the second's the rest.  What
 * the envelope holds of the second model beside n1 of the first. */
typedef struct site_mix {
    int n2;                     /* the most GPUs of the second model; -1: n1
                                 * alone is over the envelope */
    int site_n2, rack_n2;       /* what the site's power and the racks each
                                 * allow (rack_n2 -1 without a rack budget) */
    site_limit limit;           /* the budget that stops more */
} site_mix;

/* The capacity line's point at n1; e must have a site budget.  The site
 * alone holds n2 when n1 x w1 + n2 x w2 + a host per server is within
 * its IT power (the second model's last server partly filled, as in
 * site_capacity_of); the racks, when the second model's servers fit the
 * racks the first model's leave. */
void site_capacity_mix(const site_envelope *e, int per_server, double w1, int n1, double w2,
                       site_mix *out);

/* Provisioned facility watts of a cluster whose servers' peak IT watts sum
 * to it_peak_w: it_peak_w x PUE. */
double site_facility_w(const site_envelope *e, double it_peak_w);

#endif
