/**
 * How far the app has read each state, so none looks complete that is not: not read (why), partly
 * decoded (how far), decoded (after its scan: how many entries), or only its header read so far (the
 * app reads headers at once and a state's values when a view asks for them).
 */
import type { InspectedOperator, InspectedState, SavepointInspection } from '../core/flink';

export type StateReadingKind = 'not-read' | 'partly' | 'decoded' | 'header-read';

export interface StateReading {
  kind: StateReadingKind;
  /** the words of the tag */
  label: string;
  /** why (not read, partly) or what (decoded) */
  detail: string;
}

/** Whether a keyed state of a RocksDB native snapshot could not be read from its SST files, in full or in part (missing or corrupt files, a handle without meta data). */
export function hasUnreadableValues(operator: InspectedOperator, state: InspectedState): boolean {
  return (
    operator.keyedFormat === 'rocksdb-native' &&
    state.scope === 'keyed' &&
    (state.status === 'unreadable' || state.decoded === 'not-read' || state.decoded === 'partly')
  );
}

export function describeStateReading(operator: InspectedOperator, state: InspectedState, scanned?: { entries: string; sampled: boolean }): StateReading {
  if (state.decoded === 'not-read' || state.status === 'unreadable')
    return { kind: 'not-read', label: 'not read', detail: shortenMissingFile(state.decodedReason ?? state.statusReason ?? 'its header could not be read') };
  if (state.decoded === 'partly') return { kind: 'partly', label: 'partly decoded', detail: state.decodedReason ?? 'some of it could not be read' };
  if (state.incomplete) return { kind: 'partly', label: 'partly decoded', detail: state.incomplete };
  if (state.status === 'unknown')
    return {
      kind: 'partly',
      label: 'values not decoded',
      detail: `values kept as bytes: ${state.statusReason ?? 'a serializer this inspector does not know'}`,
    };
  if (scanned) return { kind: 'decoded', label: 'decoded', detail: `${scanned.entries} read and decoded${scanned.sampled ? ' (a sample)' : ''}` };
  return { kind: 'header-read', label: 'header read', detail: 'header and serializers read; the values are read when a view needs them' };
}

export interface ReadingSummary {
  states: number;
  notRead: number;
  partly: number;
  /** subtask streams whose states could not even be listed */
  streamsNotRead: number;
}

export function summarizeStateReading(inspection: SavepointInspection): ReadingSummary {
  const out: ReadingSummary = { states: 0, notRead: 0, partly: 0, streamsNotRead: 0 };
  for (const o of inspection.operators) {
    out.streamsNotRead += o.streamsNotRead.length;
    for (const s of o.states) {
      out.states++;
      const r = describeStateReading(o, s);
      if (r.kind === 'not-read') out.notRead++;
      else if (r.kind === 'partly') out.partly++;
    }
  }
  return out;
}

/** A missing state file's error in a few words (the Overview says once what to do); any other reason as it is. */
function shortenMissingFile(reason: string): string {
  const m = /expected state file "([^"]+)".*found no such file/.exec(reason);
  return m ? `its state file ${m[1]} is missing` : reason;
}
