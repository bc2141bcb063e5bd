import type { KeyedEntryRun } from '../../flink';
import { describeEntryKey } from './scan-protobuf-state-values';

/** The key text of one row at a time (describeEntryKey of its decoded key side), made only when asked for. */
export interface RowKeyText {
  /** the row the next `text()` is about (its text is made afresh) */
  at(run: KeyedEntryRun, i: number): void;
  /** one function for a whole scan, no closure per row; call it before the run's bytes are reused */
  text: () => string;
}

export function createRowKeyText(): RowKeyText {
  let run: KeyedEntryRun | undefined;
  let row = 0;
  let text: string | undefined;
  return {
    at(r, i) {
      run = r;
      row = i;
      text = undefined;
    },
    text: () => {
      if (text === undefined) {
        const k = run!.decodeRowKey(row);
        text = describeEntryKey(k.key, k.userKey);
      }
      return text;
    },
  };
}
