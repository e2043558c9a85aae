/**
 * The SQLite driver for this Node. better-sqlite3 12 and earlier derive their objects from
 * Node's internal `ObjectWrap`, whose destructor aborts the process on Node 24.19 and later when
 * a statement is finalised by a background GC (`Assertion failed: (env) != nullptr` in
 * `RemoveEnvironmentCleanupHook`, SIGABRT; seen here in the kill -9 test's child and a test
 * worker). better-sqlite3 13 is a Node-API build that does not, but needs Node 22 or later (on
 * Node 20 it crashes at its first query). So: 13 on Node 22 and later, 12 (installed under the
 * alias `better-sqlite3-v12`) on Node 20. Both have the same API.
 */
import type BetterSqlite3 from 'better-sqlite3';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

const driver = NODE_MAJOR >= 22 ? await import('better-sqlite3') : await import('better-sqlite3-v12');

/** The `Database` class of the driver this Node loads. */
export const Database: typeof BetterSqlite3 = driver.default;
/** A database connection. */
export type Database = BetterSqlite3.Database;
/** Which better-sqlite3 major this process runs (for logs and tests). */
export const SQLITE_DRIVER_MAJOR: 12 | 13 = NODE_MAJOR >= 22 ? 13 : 12;
