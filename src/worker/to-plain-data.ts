const MAX_DEPTH = 200;

/**
 * A structured-clonable copy of a result: plain objects, arrays, typed arrays, bigints and
 * primitives are kept; functions and class instances (e.g. a serializer snapshot's value codec
 * with its descriptor graph) are dropped. Results cross the worker boundary this way, because
 * postMessage rejects functions and the codec's graph is cyclic and large.
 */
export function toPlainData<T>(value: T): T {
  return strip(value, 0) as T;
}

function strip(value: unknown, depth: number): unknown {
  if (typeof value === 'function') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value;
  if (depth > MAX_DEPTH) throw new Error(`result nests deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((v) => strip(v, depth + 1));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const plain = strip(v, depth + 1);
    if (plain !== undefined || v === undefined) out[k] = plain;
  }
  return out;
}
