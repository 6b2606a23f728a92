// SQLite's C interface (Debian libsqlite3-dev), for BlueSQL and the store's hot paths.
#include <sqlite3.h>

// sqlite3_db_config is variadic, which Swift cannot call: double-quoted strings are read
// as identifiers only, never as string literals (a misspelt column is an error, not text).
static inline void bluesql_refuse_double_quoted_strings(sqlite3 *db) {
  sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (void *)0);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (void *)0);
}
