/*
 * power.c — choosing and evaluating a power model (power.h).
 */
#include "power.h"

#include <string.h>

int power_model_parse(const char *name)
{
    if (strcmp(name, "cats") == 0)
        return POWER_CATS;
    if (strcmp(name, "eopc") == 0)
        return POWER_EOPC;
    return -1;
}

const char *power_model_name(power_model m)
{
    return m == POWER_EOPC ? "eopc" : "cats";
}

void power_eval(power_model m, const cstate *cs, power_split *out)
{
    if (m == POWER_EOPC)
        power_eopc(cs, out);
    else
        power_cats(cs, out);
}
