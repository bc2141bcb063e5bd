/** The canonical source: a keyed stream in the canonical key-group block layout (also RocksDB's full snapshots), one run per key-group block or window. */
import type { KeyedEntryRun } from '../../keyed/keyed-entry-run';
import type { KeyedStreamInput } from '../../keyed/keyed-stream-types';
import { readCanonicalKeyedEntryRuns } from '../../keyed/read-canonical-keyed-entries';
import type { KeyedStateHeader } from '../../savepoint/inspection-types';
import { listLayoutInputs, type LayoutRead, type ScanContext } from './scan-context';

/**
 * The stream's runs, framed and decoded as they are iterated (KeyedEntryRun): the selection's key
 * groups, or under a scan the sample's; a scan stops before a stream (a key group's, when narrowed)
 * once the part's states are full, and reads into the scan's reused buffers unless it is capped (a
 * capped read may stop early: it reads only what it asks for, no read-ahead).
 */
export async function* readCanonicalRuns(ctx: ScanContext, input: KeyedStreamInput, header: KeyedStateHeader, read: LayoutRead): AsyncGenerator<KeyedEntryRun> {
  const inputs = listLayoutInputs(ctx, input, read);
  const filter = { ...(read.states === undefined ? {} : { state: read.states }), ...(ctx.signal ? { signal: ctx.signal } : {}), values: read.values };
  const reuse = read.scan !== undefined && ctx.readBuffers !== undefined && !ctx.capped;
  const options = reuse ? { ...filter, reuseReadBuffers: true, readBuffers: ctx.readBuffers } : filter;
  for (const one of inputs) {
    if (read.scan !== undefined && ctx.isPartFull(read.scan)) return;
    yield* readCanonicalKeyedEntryRuns(one, header, options);
  }
}
