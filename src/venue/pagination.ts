/**
 * Cursor pagination for the venue client's lists: {@link walkPages} follows `nextCursor` page by
 * page and fails with CLIENT_PROTOCOL on a repeated cursor or past a page bound, never
 * truncating silently, so recovery and the operator commands never take a partial list of our
 * orders for the whole.
 */
import { VenueError } from './errors.js';

/** The default bound on pages fetched by one walk. */
export const DEFAULT_MAX_PAGES = 100;

/** Options of a pagination walk. */
export interface PageOptions {
  /** Bound on pages fetched; past it with more pages left, the walk fails. Default 100. */
  maxPages?: number;
  signal?: AbortSignal;
}

function paginationError(endpoint: string, reason: string): VenueError {
  return new VenueError({ code: 'CLIENT_PROTOCOL', message: `${endpoint}: pagination: ${reason}`, endpoint });
}

/**
 * Yields pages from `fetchPage`, starting at cursor `start`, following `nextCursor` until it
 * returns null. Never truncates silently: a cursor that repeats, or more than `maxPages` pages,
 * fails the walk with `CLIENT_PROTOCOL` after the pages already yielded, so a reconciliation
 * never mistakes a partial list for the whole.
 */
export async function* walkPages<P>(
  endpoint: string,
  fetchPage: (cursor: string | undefined) => Promise<P>,
  nextCursor: (page: P) => string | null,
  start: string | undefined,
  maxPages: number = DEFAULT_MAX_PAGES,
): AsyncGenerator<P, void, void> {
  if (!Number.isSafeInteger(maxPages) || maxPages < 1)
    throw new RangeError('maxPages must be an integer ≥ 1');
  const seen = new Set<string>(start === undefined ? [] : [start]);
  let cursor = start;
  for (let n = 1; n <= maxPages; n++) {
    const page = await fetchPage(cursor);
    yield page;
    const next = nextCursor(page);
    if (next === null) return;
    if (seen.has(next)) throw paginationError(endpoint, `cursor ${next} repeated`);
    seen.add(next);
    cursor = next;
  }
  throw paginationError(endpoint, `more than ${maxPages} pages`);
}
