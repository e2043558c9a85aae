/**
 * The `store` config section: the path of the SQLite order journal, which one process at a time
 * may hold. The journal records every order transition before the venue IO that depends on it.
 */
import type { SchemaOf } from '../define.js';
import { PATH } from '../formats.js';

export interface StoreConfig {
  /** Absolute after loading. */
  readonly path: string;
}

export const storeSchema: SchemaOf<StoreConfig> = {
  path: {
    doc: 'The SQLite order journal. One process per store. Relative to the working directory.',
    format: PATH,
    default: './var/ledger-mm.sqlite',
    env: 'LEDGER_MM_STORE_PATH',
  },
};
