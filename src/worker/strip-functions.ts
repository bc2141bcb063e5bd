const MAX_DEPTH = 200;

/**
 * A structured-clonable copy of plain data: functions (e.g. a serializer snapshot's value codec)
 * are dropped, typed arrays, bigints and primitives are kept. Results cross the worker boundary
 * this way, because postMessage rejects any object holding a function.
 */
export function stripFunctions<T>(value: T): T {
  return strip(value, 0) as T;
}

function strip(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date) return value;
  if (depth > MAX_DEPTH) throw new Error(`result nests deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((v) => strip(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'function') continue;
    out[k] = strip(v, depth + 1);
  }
  return out;
}
