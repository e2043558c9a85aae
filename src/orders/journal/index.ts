/**
 * The durable order journal (SQLite). Rule: journal before IO — every intent, id and state
 * change is committed (fsynced) before the venue call that depends on it is made.
 */
export { DEFAULT_GROUP_COMMIT_MS, openJournal } from './open-journal.js';
export type { JournalOptions } from './open-journal.js';
export { Journal } from './journal.js';
export type { Durability, JournalStats } from './group-commit.js';
export { RELAXED_EVENTS, durabilityOf, journalWriteAhead } from './registry-adapter.js';
export type { FillEffectLike, TransitionRecordLike } from './registry-adapter.js';
export { StoreLockedError, lockDatabasePath, readStoreLock, storeLockHeld } from './store-lock.js';
export type { LockHolder } from './store-lock.js';
export {
  JournalClosedError,
  JournalConflictError,
  JournalError,
  JournalFailedError,
  JournalInputError,
  JournalReadOnlyError,
  JournalSchemaError,
} from './errors.js';
export type { JournalConflictKind } from './errors.js';
export { DEC_TAG, decimalJsonCodec, decodeJson, encodeJson } from './codec.js';
export { SCHEMA_VERSION } from './schema.js';
export { Database, SQLITE_DRIVER_MAJOR } from './sqlite-driver.js';
export { FILL_MARKOUT_HORIZONS_S, isFillMarkoutHorizon, markoutKind } from './fill-history.js';
export type {
  FillHistoryFilter,
  FillHistoryRow,
  FillMarkInput,
  FillMarkKind,
  FillMarkoutHorizon,
} from './fill-history.js';
export type { MigrationReport } from './schema.js';
export type { ControlAction, ControlChange, ControlChangeInput } from './control-log.js';
export type {
  FillInput,
  FillRecord,
  JournalEvent,
  JournalOrder,
  SnapshotCodec,
  StoredOrder,
  TerminalStates,
  TransitionRow,
  WriteResult,
} from './types.js';
