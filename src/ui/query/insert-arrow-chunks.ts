/**
 * Inserts a state's Arrow IPC chunks (one IPC stream each, as the decoding worker makes them) into one
 * DuckDB table, without making the decoder wait for DuckDB: `add` posts the chunk to DuckDB's worker and
 * returns as soon as fewer than `maxQueued` inserts are unsettled, so the decoding worker makes the next
 * chunk while DuckDB ingests this one (the two workers run on two cores). With the default of 2, DuckDB's
 * worker holds at most two chunks; the page holds none (each chunk's buffer is transferred on).
 *
 * DuckDB's worker runs its tasks in the order they were posted, so the first insert (which creates the
 * table) precedes the others. The first failure is kept and thrown by the next `add` or by `finish`;
 * `finish` waits for every insert, so the table is whole when it returns.
 */
import type { AsyncDuckDBConnection } from '@duckdb/duckdb-wasm';

export interface ArrowChunkInserter {
  /** Posts one IPC stream; resolves when the queue has room again (throws the first failed insert's error). */
  add(chunk: Uint8Array): Promise<void>;
  /** Waits for every posted insert; throws the first failure. */
  finish(): Promise<void>;
}

export const MAX_QUEUED_INSERTS = 2;

export function createArrowChunkInserter(
  conn: Pick<AsyncDuckDBConnection, 'insertArrowFromIPCStream'>,
  table: string,
  maxQueued = MAX_QUEUED_INSERTS,
): ArrowChunkInserter {
  if (!(maxQueued >= 1)) throw new Error(`maxQueued must be at least 1, was ${maxQueued}`);
  // unsettled inserts, oldest first (they settle in this order); each already caught, its error kept in `failure`
  const queue: Promise<void>[] = [];
  let failure: { error: unknown } | null = null;
  let first = true;
  const throwIfFailed = () => {
    if (failure !== null) throw failure.error;
  };
  return {
    async add(chunk) {
      throwIfFailed();
      const insert = conn.insertArrowFromIPCStream(chunk, { name: table, create: first }).then(
        () => undefined,
        (error: unknown) => {
          failure ??= { error };
        },
      );
      first = false;
      queue.push(insert);
      while (queue.length >= maxQueued) await queue.shift();
      throwIfFailed();
    },
    async finish() {
      while (queue.length > 0) await queue.shift();
      throwIfFailed();
    },
  };
}
