/**
 * Where each party of a firm keeps its journal: its own `storePath` when configured; else the
 * primary (the first party) keeps `store.path`, so a daemon that grows from one party to several
 * keeps its journal, and every other party uses `store.path` with its name before the extension
 * (`ledger-mm.sqlite` → `ledger-mm.b.sqlite`). One journal per party: each party's orders are
 * recovered with its own key, and one process holds each store.
 */
import path from 'node:path';

/** The journal of party `index` (0 is the primary). */
export function partyStorePath(
  storePath: string,
  identity: { readonly name: string; readonly storePath?: string },
  index: number,
): string {
  if (identity.storePath !== undefined) return identity.storePath;
  if (index === 0) return storePath;
  const ext = path.extname(storePath);
  return `${storePath.slice(0, storePath.length - ext.length)}.${identity.name}${ext}`;
}
