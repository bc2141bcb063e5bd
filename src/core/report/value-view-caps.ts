/**
 * How much of one decoded value a view shows: `dump` and the app's entry detail pane cut at the same
 * bounds, so memory follows what the user asked to see, not what a value declares. Each view says where
 * it cut; `dump --full-values` and the pane's "show the whole value" lift the caps.
 */
export interface ValueViewCaps {
  /** characters of the value's JSON rendering; a longer value is not rendered */
  valueChars: number;
  /** unknown fields listed per message */
  unknownFields: number;
  /** bytes of one unknown field shown as hex */
  unknownFieldBytes: number;
  /** bytes of one value's frame sent to a hex view */
  frameBytes: number;
  /** byte ranges (declared and unknown fields) a hex view colours */
  fieldRanges: number;
}

const MiB = 1024 * 1024;

export const VALUE_VIEW_CAPS: Readonly<ValueViewCaps> = { valueChars: MiB, unknownFields: 1000, unknownFieldBytes: 256, frameBytes: MiB, fieldRanges: 10_000 };
export const NO_VALUE_VIEW_CAPS: Readonly<ValueViewCaps> = { valueChars: Infinity, unknownFields: Infinity, unknownFieldBytes: Infinity, frameBytes: Infinity, fieldRanges: Infinity };

/** Whether v's JSON rendering fits in `limit` characters; a huge value is measured only up to just past the limit, never rendered. */
export function fitsJsonLimit(v: unknown, limit: number): boolean {
  return limit === Infinity || measureJsonLength(v, limit) <= limit;
}

/** The length of v's JSON, counted up to just past `limit`. */
function measureJsonLength(v: unknown, limit: number): number {
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
      for (const [k, item] of Object.entries(x)) {
        total += k.length + 4;
        walk(item);
        if (total > limit) return;
      }
    }
  };
  walk(v);
  return total;
}
