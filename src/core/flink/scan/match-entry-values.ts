/**
 * Values a wrapped value codec records while entries are decoded wait in a pending list until their
 * entry is yielded. A heap key group decodes whole state chunks (wanted or not) before yielding their
 * entries, and offsets restart per file and per Snappy block, so each entry takes exactly the values
 * whose frames lie in its own value range of its own stream: values of another stream or before the
 * range belong to no later entry and are passed over, values after it wait for later entries. A
 * forward pointer keeps this linear.
 */
export interface EntryValueMatcher<T> {
  /** Calls `visit` for each pending value inside the entry's value range (every pending value when the entry has no range). */
  take(entry: { readonly file?: string | undefined; readonly valueRange?: { readonly offset: number; readonly length: number } | undefined }, visit: (value: T) => void): void;
  /** Forgets every pending value (a new stream starts). */
  reset(): void;
}

/** `offsetOf`: where the value's frame starts (absolute, as StateEntry.valueRange); `fileOf`: its stream, undefined when unknown (taken as the entry's). */
export function createEntryValueMatcher<T>(pending: T[], offsetOf: (value: T) => number, fileOf: (value: T) => string | undefined = () => undefined): EntryValueMatcher<T> {
  let head = 0;
  return {
    take(entry, visit) {
      const range = entry.valueRange;
      for (; head < pending.length; head++) {
        const value = pending[head]!;
        const file = fileOf(value);
        const sameStream = file === undefined || file === entry.file;
        const at = offsetOf(value);
        if (range !== undefined && sameStream && at >= range.offset + range.length) break;
        if (range !== undefined && (!sameStream || at < range.offset)) continue;
        visit(value);
      }
      // drop what was passed (at once when nothing waits, else in large steps: linear, not quadratic)
      if (head === pending.length) pending.length = head = 0;
      else if (head >= 4096) {
        pending.splice(0, head);
        head = 0;
      }
    },
    reset() {
      pending.length = head = 0;
    },
  };
}
