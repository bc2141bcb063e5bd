/**
 * A cheap sufficient test that two descriptor messages describe the same thing: the same prototype
 * and the same own enumerable properties with equal values, compared deeply (lists element-wise,
 * bytes byte-wise, sub-messages recursively). `true` means every rendering of the two (toJson,
 * toBinary) is equal; `false` only means "compare them the slow way" (NaN, -0 vs 0, a property set
 * to its default on one side only, or nesting deeper than the limit all answer false).
 */
import { haveSameBytes } from '../../io';

const MAX_DEPTH = 100;

export function haveSameContent(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > MAX_DEPTH) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && haveSameBytes(a, b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!(Array.isArray(a) && Array.isArray(b)) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!haveSameContent(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!haveSameContent((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}
