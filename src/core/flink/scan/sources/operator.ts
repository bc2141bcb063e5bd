/** The operator state source: a subtask's operator state stream, one entry at a time (its list, union and broadcast states). */
import type { OperatorState, SubtaskState } from '../../metadata/metadata-types';
import { readOperatorStateEntries } from '../../operator/read-operator-state-entries';
import { readCountedOperatorStateEntries } from '../../operator/select-broadcast-copy';
import type { ScanPart } from '../scan-types';
import { readOperatorStream, type ScanContext, type SourcePart } from './scan-context';

/**
 * The subtask's operator state as one part (none without an operator state stream). Entries are read
 * one at a time, each value in the mode of the moment; with `counted`, a broadcast state only in the
 * subtask that holds the copy statistics count (isCountedBroadcastCopy).
 */
export async function* readOperatorParts(ctx: ScanContext, op: OperatorState, subtask: SubtaskState, counted: boolean): AsyncGenerator<SourcePart> {
  const stream = await readOperatorStream(ctx, op, subtask);
  if (!stream) return;
  const broadcast = new Set(stream.header.broadcastStates.map((s) => s.name));
  const part: ScanPart = {
    operator: op,
    subtask: subtask.index,
    kind: 'operator',
    format: 'operator',
    states: stream.header.states.map((s) => s.name),
    broadcastStates: [...broadcast],
  };
  const filter = { ...(ctx.names === undefined ? {} : { state: ctx.names }), ...(ctx.signal ? { signal: ctx.signal } : {}), values: ctx.values };
  // (generators: nothing is read before the scan asks for the first entry)
  const runs = counted
    ? readCountedOperatorStateEntries(op, subtask.index, stream.input, stream.header, filter)
    : readOperatorStateEntries(stream.input, stream.header, filter);
  yield { part, runs, unlessFull: true };
}
