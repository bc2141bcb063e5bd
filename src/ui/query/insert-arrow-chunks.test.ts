import { describe, expect, it } from 'vitest';
import { createArrowChunkInserter } from './insert-arrow-chunks';

/** A stand-in for DuckDB's connection: records each insert and settles it only when the test says so. */
function fakeConnection() {
  const calls: { chunk: number; name: string; create: boolean | undefined; settle: (error?: Error) => void; settled: boolean }[] = [];
  const conn = {
    insertArrowFromIPCStream(chunk: Uint8Array, options: { name: string; create?: boolean }): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        const call = {
          chunk: chunk[0]!,
          name: options.name,
          create: options.create,
          settled: false,
          settle: (error?: Error) => {
            call.settled = true;
            if (error) reject(error);
            else resolve();
          },
        };
        calls.push(call);
      });
    },
  };
  return { conn, calls };
}

const chunk = (n: number) => new Uint8Array([n]);
/** whether `p` has settled after the pending microtasks ran */
async function isSettled(p: Promise<unknown>): Promise<boolean> {
  let settled = false;
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return settled;
}

describe('createArrowChunkInserter', () => {
  it('creates the table with the first chunk, appends the others in order, and lets the next chunk come while one insert runs', async () => {
    const { conn, calls } = fakeConnection();
    const inserter = createArrowChunkInserter(conn, 'op__events');
    // the first chunk's insert is still running, yet add returns: the decoder may make the next chunk
    await inserter.add(chunk(1));
    expect(calls.map((c) => [c.chunk, c.name, c.create, c.settled])).toEqual([[1, 'op__events', true, false]]);
    // the second is posted at once (DuckDB's worker queues it) but add waits until the first has settled
    const second = inserter.add(chunk(2));
    expect(await isSettled(second)).toBe(false);
    expect(calls.map((c) => [c.chunk, c.create])).toEqual([
      [1, true],
      [2, false],
    ]);
    calls[0]!.settle();
    expect(await isSettled(second)).toBe(true);
    // finish waits for the last insert
    const finished = inserter.finish();
    expect(await isSettled(finished)).toBe(false);
    calls[1]!.settle();
    await finished;
    expect(calls.every((c) => c.settled)).toBe(true);
  });

  it('with one insert queued at most, add waits for its own insert (the old one-at-a-time load)', async () => {
    const { conn, calls } = fakeConnection();
    const inserter = createArrowChunkInserter(conn, 't', 1);
    const first = inserter.add(chunk(1));
    expect(await isSettled(first)).toBe(false);
    calls[0]!.settle();
    await first;
    await inserter.finish();
  });

  it("throws DuckDB's error of a failed insert from the next add, and from finish", async () => {
    const { conn, calls } = fakeConnection();
    const inserter = createArrowChunkInserter(conn, 't');
    await inserter.add(chunk(1));
    const second = inserter.add(chunk(2));
    calls[0]!.settle(new Error('Out of Memory Error: could not allocate block'));
    await expect(second).rejects.toThrow('Out of Memory Error');
    await expect(inserter.add(chunk(3))).rejects.toThrow('Out of Memory Error');
    // nothing more is posted after a failure
    expect(calls).toHaveLength(2);
    calls[1]!.settle();
    await expect(inserter.finish()).rejects.toThrow('Out of Memory Error');
  });

  it('reports a failure of the last insert from finish', async () => {
    const { conn, calls } = fakeConnection();
    const inserter = createArrowChunkInserter(conn, 't');
    await inserter.add(chunk(1));
    const finished = inserter.finish();
    calls[0]!.settle(new Error('Conversion Error'));
    await expect(finished).rejects.toThrow('Conversion Error');
  });
});
