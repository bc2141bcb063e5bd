/**
 * A keyed stream's entries one by one, for tests that compare them: the core reads them in runs
 * (readCanonicalKeyedEntryRuns, one per key-group block) or batches (readHeapKeyedEntryBatches, one per
 * state chunk); these flatten them, in the same order and with the same errors.
 */
import type { StateEntry } from '../../src/core/flink';
import { readCanonicalKeyedEntryRuns, type KeyedReadOptions } from '../../src/core/flink/keyed/read-canonical-keyed-entries';
import { readHeapKeyedEntryBatches } from '../../src/core/flink/keyed/read-heap-keyed-entries';
import type { KeyedStreamInput } from '../../src/core/flink/keyed/keyed-stream-types';
import type { KeyedStateHeader } from '../../src/core/flink/savepoint/inspection-types';

export async function* readCanonicalKeyedEntries(
  input: KeyedStreamInput,
  header: KeyedStateHeader,
  options: KeyedReadOptions = {},
): AsyncGenerator<StateEntry> {
  for await (const run of readCanonicalKeyedEntryRuns(input, header, options)) for (const e of run) yield e;
}

export async function* readHeapKeyedEntries(input: KeyedStreamInput, header: KeyedStateHeader, options: KeyedReadOptions = {}): AsyncGenerator<StateEntry> {
  for await (const batch of readHeapKeyedEntryBatches(input, header, options)) yield* batch;
}
