/*
 * repro_table.h — the papers `gpuplan reproduce` checks (repro.c's
 * table), one const repro_paper each, defined in repro_<paper>.c.  Only
 * the table and the definers include this.
 */
#ifndef GP_REPRO_TABLE_H
#define GP_REPRO_TABLE_H

#include "repro.h"

extern const repro_paper repro_corrgpu;
extern const repro_paper repro_cats;
extern const repro_paper repro_fgd;
extern const repro_paper repro_gogh;
extern const repro_paper repro_peace;

#endif
