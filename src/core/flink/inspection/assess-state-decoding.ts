/**
 * Whether each state was decoded fully, and the count of each outcome over the savepoint: what lets a
 * reader (and a CI job, `inspect --strict`) tell a complete answer from a partial one.
 *
 * A state is decoded fully when every stream that holds it was read to its end and its entries decode
 * (values of opaque serializers, e.g. Kryo, are read as their bytes and count as decoded). Otherwise it
 * is partly decoded (some of it was read: entries before a failure, entries counted whose values an
 * unknown serializer hides, a changelog's materialized part without the changes after it) or not read
 * (nothing of it: RocksDB native SST files, a changelog not applied, a header or stream that failed
 * before any of its entries).
 */
import type { StateReadGap } from '../scan/count-state-entries';
import type { InspectedOperator, InspectedState, InspectionSummary } from '../savepoint/inspection-types';

/**
 * Sets `decoded` and `decodedReason` of every state. `gaps` are the entry scan's (undefined without a
 * scan: then only a state whose header shows it unreadable gets an outcome, `not-read`).
 */
export function assessStateDecoding(operators: readonly InspectedOperator[], gaps: readonly StateReadGap[] | undefined): void {
  for (const op of operators) {
    for (const s of op.states) {
      if (gaps === undefined) {
        if (s.status === 'unreadable') Object.assign(s, { decoded: 'not-read', decodedReason: s.statusReason ?? 'its header could not be read' });
        continue;
      }
      const mine = gaps.filter(
        (g) =>
          g.operatorId === op.id &&
          (g.scope === 'keyed') === (s.scope === 'keyed') &&
          (g.states === undefined ? s.subtasks.includes(g.subtask) : g.states.includes(s.name)),
      );
      // something of the state was not read / what was read is not all of it
      const missing: string[] = [];
      const partial: string[] = [];
      if (s.status === 'unreadable') missing.push(s.statusReason ?? 'its header could not be read');
      for (const g of mine) {
        if (g.kind === 'failed') missing.push(`subtask ${g.subtask} stopped: ${g.reason}`);
        else if (g.kind === 'unreadable') missing.push(g.reason);
        else partial.push(g.reason);
      }
      const entries = s.entries ?? 0;
      if (s.status === 'unknown' && entries > 0) partial.push(`values not decoded: ${s.statusReason ?? 'an unknown serializer'}`);
      const reasons = [...new Set([...missing, ...partial])];
      if (reasons.length === 0) Object.assign(s, { decoded: 'fully' });
      else
        Object.assign(s, { decoded: missing.length > 0 && partial.length === 0 && entries === 0 ? 'not-read' : 'partly', decodedReason: reasons.join('; ') });
    }
  }
}

/** The counts of the closing line of `inspect` and of its JSON `summary`. */
export function summarizeStateDecoding(operators: readonly InspectedOperator[]): InspectionSummary {
  const summary: InspectionSummary = { states: 0, decodedFully: 0, partlyDecoded: 0, notRead: 0, notScanned: 0, streamsNotRead: 0 };
  const tally: Record<NonNullable<InspectedState['decoded']> | 'none', keyof InspectionSummary> = {
    fully: 'decodedFully',
    partly: 'partlyDecoded',
    'not-read': 'notRead',
    none: 'notScanned',
  };
  for (const op of operators) {
    summary.streamsNotRead += op.streamsNotRead.length;
    for (const s of op.states) {
      summary.states++;
      summary[tally[s.decoded ?? 'none']]++;
    }
  }
  return summary;
}
