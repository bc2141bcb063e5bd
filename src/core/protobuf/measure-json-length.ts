/**
 * The length of a value's JSON as the value-view caps count it, up to just past `limit`: each string its
 * length and 2 (escapes not counted), each other scalar its String() length, an array 2 and each element 1
 * more, an object 2 and each own enumerable member its key's length and 4. `member`, when given, may answer
 * a member's measure itself (a decoded message's JSON view, from its text instead of its object tree).
 */
export function measureJsonLength(v: unknown, limit: number, member?: (o: object, key: string, limit: number) => number | undefined): number {
  let total = 0;
  const walk = (x: unknown): void => {
    if (total > limit) return;
    if (typeof x === 'string') total += x.length + 2;
    else if (x === null || typeof x !== 'object') total += String(x).length;
    else if (Array.isArray(x)) {
      total += 2;
      for (const item of x) {
        walk(item);
        total++;
        if (total > limit) return;
      }
    } else {
      total += 2;
      // own enumerable keys, as Object.entries has them, without an array of pairs per object
      const o = x as Record<string, unknown>;
      for (const k in o) {
        if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
        total += k.length + 4;
        const known = member?.(o, k, limit - total);
        if (known === undefined) walk(o[k]);
        else total += known;
        if (total > limit) return;
      }
    }
  };
  walk(v);
  return total;
}
