/*
 * import_table.h — the importers of import.c's importers[], one const
 * importer each, defined in import_<format>.c.  Only the table and the
 * definers include this: the rest of the program goes through the table.
 * (The native set's importer is in import.h: seeding a database and the
 * tests call it by name.)
 */
#ifndef GP_IMPORT_TABLE_H
#define GP_IMPORT_TABLE_H

#include "import.h"

extern const importer import_openb;
extern const importer import_genai;
extern const importer import_gavel;
extern const importer import_philly;
extern const importer import_pai;
extern const importer import_peace;
extern const importer import_k8s;
extern const importer import_smi;
extern const importer import_dcgm;
extern const importer import_promrange;

#endif
