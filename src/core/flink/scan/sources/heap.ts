/** The heap source: a keyed stream in the heap snapshot layout (HashMap state backend), one batch per state of each key group. */
import type { KeyedStreamInput } from '../../keyed/keyed-stream-types';
import { readHeapKeyedEntryBatches } from '../../keyed/read-heap-keyed-entries';
import type { KeyedStateHeader, StateEntry } from '../../savepoint/inspection-types';
import { listLayoutInputs, type LayoutRead, type ScanContext } from './scan-context';

/**
 * The stream's entries, a batch per state chunk of a key group (a chunk is decoded whole: its entries
 * have no lengths): the selection's key groups, or under a scan the sample's; a scan stops before a
 * stream (a key group's, when narrowed) once the part's states are full.
 */
export async function* readHeapRuns(
  ctx: ScanContext,
  input: KeyedStreamInput,
  header: KeyedStateHeader,
  read: LayoutRead,
): AsyncGenerator<readonly StateEntry[]> {
  const inputs = listLayoutInputs(ctx, input, read);
  const filter = { ...(read.states === undefined ? {} : { state: read.states }), ...(ctx.signal ? { signal: ctx.signal } : {}), values: read.values };
  for (const one of inputs) {
    if (read.scan !== undefined && ctx.isPartFull(read.scan)) return;
    yield* readHeapKeyedEntryBatches(one, header, filter);
  }
}
