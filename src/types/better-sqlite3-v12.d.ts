/**
 * Types for `better-sqlite3-v12`: better-sqlite3 12 installed under an npm alias for Node 20
 * (see src/orders/journal/sqlite-driver.ts), with the same API and types as better-sqlite3.
 */
declare module 'better-sqlite3-v12' {
  import Database from 'better-sqlite3';
  export default Database;
}
