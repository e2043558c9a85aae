/**
 * `JSON.parse(JSON.stringify(x))` without the text: a fresh copy of `x` holding only what JSON
 * keeps, built in one walk. A value with a `toJSON` method (a decimal, a date) is replaced by its
 * result; object properties that are undefined, functions or symbols are left out, and in arrays
 * they become null; numbers that are not finite become null and −0 becomes 0; key order is
 * `Object.keys`' (the order `JSON.stringify` writes and `JSON.parse` reads back). A bigint throws,
 * as in `JSON.stringify`.
 *
 * The router answers with this copy beside its text, so that an in-process client can take the
 * parsed value instead of parsing text it has just been given (a third of the cost of a
 * simulated venue call); the copy is taken when the answer is made, like the text, so nothing the
 * engine changes later shows through.
 */
export function jsonValue(x: unknown): unknown {
  switch (typeof x) {
    case 'string':
    case 'boolean':
      return x;
    case 'number':
      return Number.isFinite(x) ? (x === 0 ? 0 : x) : null;
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object': {
      if (x === null) return null;
      const withJson = x as { toJSON?: unknown };
      if (typeof withJson.toJSON === 'function') return jsonValue((withJson.toJSON as () => unknown)());
      // Strings, most of every answer (decimals on the wire), are taken without a call.
      if (Array.isArray(x)) {
        const out = new Array<unknown>(x.length);
        for (let i = 0; i < x.length; i++) {
          const item: unknown = x[i];
          out[i] = typeof item === 'string' ? item : (jsonValue(item) ?? null);
        }
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(x)) {
        const field = (x as Record<string, unknown>)[key];
        const v = typeof field === 'string' ? field : jsonValue(field);
        if (v !== undefined) out[key] = v;
      }
      return out;
    }
    default:
      // undefined, functions and symbols: left out (or null in an array).
      return undefined;
  }
}
