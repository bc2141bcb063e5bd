import type { DecodedValue } from './snapshot-types';

/** Deepest nesting searched (values are built by depth-limited decoders). */
const MAX_VALUE_DEPTH = 64;

/**
 * The values inside `value` (itself included) that `match` accepts, in read order: list items,
 * map keys and values, tuple, POJO and row fields, TTL-wrapped values. A matched value is not searched
 * further. For example the frames of a `frame` scan, or the messages of a `decode` scan.
 */
export function findNestedValues<T extends DecodedValue>(value: DecodedValue | null | undefined, match: (v: DecodedValue) => v is T): T[] {
  const out: T[] = [];
  if (value !== null && value !== undefined) collect(value, match, out, 0);
  return out;
}

function collect<T extends DecodedValue>(v: DecodedValue, match: (v: DecodedValue) => v is T, out: T[], depth: number): void {
  if (match(v)) {
    out.push(v);
    return;
  }
  if (depth >= MAX_VALUE_DEPTH) return;
  switch (v.kind) {
    case 'list':
      for (const item of v.items) collect(item, match, out, depth + 1);
      return;
    case 'ttl':
      collect(v.value, match, out, depth + 1);
      return;
    case 'tuple':
      for (const f of v.fields) collect(f, match, out, depth + 1);
      return;
    case 'pojo':
    case 'row':
      for (const f of v.fields) collect(f.value, match, out, depth + 1);
      return;
    case 'map':
      for (const e of v.entries) {
        collect(e.key, match, out, depth + 1);
        collect(e.value, match, out, depth + 1);
      }
      return;
    default:
      return;
  }
}
