/**
 * The one statistics visitor of a `frame` scan: `stats` (in one thread or in worker threads) and the
 * app's state statistics. Each entry — a decoded entry, or a canonical keyed row read where it lies — is
 * admitted to the tally it counts in, and each Protobuf value of a counted entry is handed over with its
 * key text (formatted only if asked for). What a tally holds and what is made of a Protobuf value are
 * the caller's: `stats` keeps a StateStats per state; the app one state's distributions, entry index and
 * Protobuf details.
 */
import { createRowKeyText, describeEntryKey } from '../compat';
import type { DecodedValue, ScanPart, StateScanVisitor } from '../flink';
import { asProtobufFrame, listProtobufFrames, type ProtobufFrameValue } from '../protobuf';

export interface StatisticsTallies<T> {
  /**
   * Where one entry of the part counts: its tally; `undefined` when it is listed, not counted (its
   * values are not scanned); `null` to stop the scan before it. `subtask` and `keyGroup` are the
   * entry's, `valueBytes` the length of its serialized value; `key` formats the entry's key when called
   * (during the call only: the largest values' keys).
   */
  admit(part: ScanPart, state: string, subtask: number, keyGroup: number, valueBytes: number, key: () => string): T | undefined | null;
  /** One Protobuf value of a counted entry (its bytes valid only during the call); `key` formats the entry's key when called. */
  protobuf(tally: T, frame: ProtobufFrameValue, key: () => string): void;
  /** Optional: the decoded value of a counted entry (a frame scan's: Protobuf values as frames), e.g. its TTL timestamps. Rows read in place (one Protobuf frame each) are not handed over. */
  value?(tally: T, value: DecodedValue | null): void;
}

/** The entry and row hooks of a StateScanVisitor that count entries into `tallies` and hand over their Protobuf values. */
export function createStatisticsVisitor<T>(tallies: StatisticsTallies<T>): Required<Pick<StateScanVisitor, 'entry' | 'row'>> {
  // the key text of the row just handed over, made only if asked for
  const rowKey = createRowKeyText();
  return {
    entry(e, part) {
      let text: string | undefined;
      const key = () => (text ??= describeEntryKey(e.key, e.userKey));
      const t = tallies.admit(part, e.state, e.subtask, e.keyGroup, e.valueRange.length, key);
      if (t === null) return false;
      if (t === undefined) return true;
      tallies.value?.(t, e.value);
      const frames = listProtobufFrames(e.value);
      if (frames.length === 0) return true;
      for (const f of frames) tallies.protobuf(t, f, key);
      return true;
    },
    row(run, i, frame, part) {
      rowKey.at(run, i);
      const t = tallies.admit(part, run.stateOf(i), run.subtask, run.keyGroup, run.valueEnd(i) - run.valueStart(i), rowKey.text);
      if (t === null) return false;
      if (t === undefined || frame === undefined) return true;
      const f = asProtobufFrame(frame);
      if (f === undefined) return true;
      tallies.protobuf(t, f, rowKey.text);
      return true;
    },
  };
}
