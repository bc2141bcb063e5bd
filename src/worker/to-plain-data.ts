import { DecodeError } from '../core/io';

/** Deepest result sent to the page: a decoded value or schema nested deeper is refused as a limit of this inspector. */
export const MAX_RESULT_DEPTH = 200;

/**
 * A structured-clonable copy of a result: plain objects, arrays, typed arrays, bigints and
 * primitives are kept; functions and class instances (e.g. a serializer snapshot's value codec
 * with its descriptor graph) are dropped. Results cross the worker boundary this way, because
 * postMessage rejects functions and the codec's graph is cyclic and large. Data nested deeper than
 * MAX_RESULT_DEPTH (a deeply nested value of the input) is a `limit-exceeded` DecodeError; a cycle of
 * plain objects can only be our own (results are built from the input, never linked back) and is an
 * internal error.
 */
export function toPlainData<T>(value: T): T {
  return strip(value, 0, new Set()) as T;
}

function strip(value: unknown, depth: number, ancestors: Set<object>): unknown {
  if (typeof value === 'function') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return undefined;
  if (ancestors.has(value)) throw new Error('toPlainData: the result holds a cycle of plain objects');
  if (depth > MAX_RESULT_DEPTH) {
    throw new DecodeError({
      code: 'limit-exceeded',
      detail: `expected a result nested at most ${MAX_RESULT_DEPTH} levels deep (this inspector's cap for what the page shows), found deeper: a value or schema of the input nests too deeply to show`,
    });
  }
  ancestors.add(value);
  let out: unknown;
  if (Array.isArray(value)) out = value.map((v) => strip(v, depth + 1, ancestors));
  else {
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const plain = strip(v, depth + 1, ancestors);
      if (plain !== undefined || v === undefined) copy[k] = plain;
    }
    out = copy;
  }
  ancestors.delete(value);
  return out;
}
