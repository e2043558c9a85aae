/**
 * JSON encoding for order snapshots and events. A decimal anywhere in the value is written as
 * the tagged object `{"$dec": "<plain decimal string>"}` and revived as a `Dec`, so money is
 * never a JSON number (which every reader would parse into a float) and the codec needs no
 * knowledge of which fields are money: the order shape can change without touching the journal.
 * SQL can still read the value: `json_extract(snapshot, '$.filled."$dec"')`.
 */
import { Dec, dec, toWire } from '../../core/decimal.js';
import type { SnapshotCodec } from './types.js';

/** The tag key of an encoded decimal. */
export const DEC_TAG = '$dec';

interface TaggedDec {
  readonly [DEC_TAG]: string;
}

function isTaggedDec(value: unknown): value is TaggedDec {
  if (typeof value !== 'object' || value === null) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === DEC_TAG && typeof (value as TaggedDec)[DEC_TAG] === 'string';
}

/**
 * Encodes `value` as JSON with every `Dec` tagged. Throws TypeError on a non-finite number
 * (JSON would silently write null) so a corrupt value never reaches the store.
 */
export function encodeJson(value: unknown): string {
  return JSON.stringify(value, function (this: unknown, key: string, v: unknown): unknown {
    // JSON.stringify has already called Decimal#toJSON on `v`; the holder still has the Dec.
    const raw = (this as Record<string, unknown>)[key];
    if (Dec.isDecimal(raw)) return { [DEC_TAG]: toWire(raw) };
    if (typeof v === 'number' && !Number.isFinite(v)) {
      throw new TypeError(`journal: cannot encode non-finite number at ${JSON.stringify(key)}`);
    }
    return v;
  });
}

/** Decodes JSON written by {@link encodeJson}, reviving tagged decimals as `Dec`. */
export function decodeJson(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => (isTaggedDec(v) ? dec(v[DEC_TAG]) : v));
}

/**
 * The default snapshot codec: {@link encodeJson} / {@link decodeJson}. `decode` trusts the store
 * (it was written by `encode`); pass a validating codec to `openJournal` for stronger typing.
 */
export function decimalJsonCodec<O>(): SnapshotCodec<O> {
  return {
    encode: (order) => encodeJson(order),
    decode: (text) => decodeJson(text) as O,
  };
}

/** A decimal as stored in a TEXT column: plain notation, canonical (so UNIQUE compares values). */
export function decText(value: Dec): string {
  return toWire(value);
}

/** `decText` for a nullable value. */
export function decTextOrNull(value: Dec | null | undefined): string | null {
  return value == null ? null : decText(value);
}

/** Parses a TEXT decimal column. */
export function decFromText(text: string): Dec {
  return dec(text);
}

/** Parses a nullable TEXT decimal column. */
export function decFromTextOrNull(text: string | null): Dec | null {
  return text === null ? null : dec(text);
}
