/**
 * Runs `read` over `items` with at most `limit` reads started and not yet taken, and yields the results
 * strictly in the items' order: independent reads (state files over HTTP) overlap, while what is built
 * from them is built exactly as one read after another would build it. Memory holds at most `limit`
 * results. `read` should settle failures into its result; a consumer that stops early (break, throw)
 * first waits for the reads in flight to end, so none runs on after it.
 */
export async function* readAheadInOrder<T, R>(items: readonly T[], limit: number, read: (item: T) => Promise<R>): AsyncGenerator<R, void, undefined> {
  const ahead = Math.max(1, Math.floor(limit));
  const inFlight = new Map<number, Promise<R>>();
  let started = 0;
  const startNext = () => {
    if (started >= items.length) return;
    inFlight.set(started, read(items[started]!));
    started++;
  };
  try {
    while (started < Math.min(ahead, items.length)) startNext();
    for (let taken = 0; taken < items.length; taken++) {
      const result = await inFlight.get(taken)!;
      inFlight.delete(taken);
      startNext();
      yield result;
    }
  } finally {
    await Promise.allSettled(inFlight.values());
  }
}
