import { describe, expect, it } from 'vitest';
import { readAheadInOrder } from './read-ahead-in-order';

/** Reads that end when the test says so, recording how many were open at once. */
function controlledReads() {
  const pending = new Map<number, (v: string) => void>();
  const state = { open: 0, maxOpen: 0, started: [] as number[] };
  const read = (i: number) =>
    new Promise<string>((resolve) => {
      state.started.push(i);
      state.open++;
      state.maxOpen = Math.max(state.maxOpen, state.open);
      pending.set(i, (v) => {
        state.open--;
        resolve(v);
      });
    });
  const finish = (i: number) => pending.get(i)!(`r${i}`);
  return { read, finish, state };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('readAheadInOrder', () => {
  it('starts at most `limit` reads, yields in the items’ order however they end, and starts the next as one is taken', async () => {
    const { read, finish, state } = controlledReads();
    const gen = readAheadInOrder([0, 1, 2, 3, 4, 5], 3, read);
    const first = gen.next();
    await tick();
    expect(state.started).toEqual([0, 1, 2]);
    finish(2);
    finish(1);
    await tick();
    expect(state.started).toEqual([0, 1, 2]);
    finish(0);
    expect(await first).toEqual({ done: false, value: 'r0' });
    expect(state.started).toEqual([0, 1, 2, 3]);
    expect(await gen.next()).toEqual({ done: false, value: 'r1' });
    expect(await gen.next()).toEqual({ done: false, value: 'r2' });
    expect(state.started).toEqual([0, 1, 2, 3, 4, 5]);
    for (const i of [5, 4, 3]) finish(i);
    const rest: string[] = [];
    for await (const r of gen) rest.push(r);
    expect(rest).toEqual(['r3', 'r4', 'r5']);
    expect(state.maxOpen).toBe(3);
  });

  it('limit 1 reads one after another; no items, no reads', async () => {
    const { read, finish, state } = controlledReads();
    const gen = readAheadInOrder([0, 1], 1, read);
    const first = gen.next();
    await tick();
    expect(state.started).toEqual([0]);
    finish(0);
    expect((await first).value).toBe('r0');
    finish(1);
    expect((await gen.next()).value).toBe('r1');
    expect(state.maxOpen).toBe(1);
    const none: string[] = [];
    for await (const r of readAheadInOrder([], 4, read)) none.push(r);
    expect(none).toEqual([]);
  });

  it('a consumer that stops early waits for the reads in flight and starts no more', async () => {
    const { read, finish, state } = controlledReads();
    const gen = readAheadInOrder([0, 1, 2, 3, 4], 2, read);
    const first = gen.next();
    await tick();
    finish(0);
    expect((await first).value).toBe('r0');
    let returned = false;
    const stopping = gen.return(undefined).then(() => (returned = true));
    await tick();
    expect(returned).toBe(false);
    finish(1);
    finish(2);
    await stopping;
    expect(state.started).toEqual([0, 1, 2]);
    expect(state.open).toBe(0);
  });
});
