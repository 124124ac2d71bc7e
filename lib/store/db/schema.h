/* schema.h — the list of schema migrations (see schema.c). */
#ifndef AMD_STORE_SCHEMA_H
#define AMD_STORE_SCHEMA_H

extern const char *const amd_migrations[];
extern const int amd_migration_count;

#endif
