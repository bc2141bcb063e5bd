/**
 * Steps that run side by side count only their own reads and are cancelled on their own: a state
 * scan's bytesRead is the same alone or next to another scan, and a scan started after `cancel()`
 * is not failed by the cancelled one still unwinding.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InputFile } from './inspector';
import { LocalInspector } from './local-inspector';
import { requireCommitted } from '../../tests/helpers/committed-data';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');
const OPERATOR = '6d821971c3bfd7ae2c972e89d7414f7c';
const files = (): InputFile[] => readdirSync(SAVEPOINT).map((n) => ({ path: `sp/${n}`, blob: new Blob([readFileSync(path.join(SAVEPOINT, n))]) }));

async function statsAlone(state: string) {
  const inspector = new LocalInspector();
  await inspector.open({ kind: 'files', files: files() });
  return inspector.getStateStats({ operatorId: OPERATOR, state });
}

requireCommitted(path.join(SAVEPOINT, '_metadata'));

describe('concurrent steps (flink-1.20/hashmap/canonical)', () => {
  it('two concurrent state scans each report their own bytesRead, as when run alone', async () => {
    const aloneA = await statsAlone('events-by-name');
    const aloneB = await statsAlone('event-history');
    expect(aloneA.bytesRead).toBeGreaterThan(0);
    expect(aloneB.bytesRead).toBeGreaterThan(0);
    const inspector = new LocalInspector();
    await inspector.open({ kind: 'files', files: files() });
    const [a, b] = await Promise.all([
      inspector.getStateStats({ operatorId: OPERATOR, state: 'events-by-name' }),
      inspector.getStateStats({ operatorId: OPERATOR, state: 'event-history' }),
    ]);
    expect([a.bytesRead, b.bytesRead]).toEqual([aloneA.bytesRead, aloneB.bytesRead]);
    expect(a).toEqual(aloneA);
    expect(b).toEqual(aloneB);
  });

  it('a scan started right after cancel() completes; the cancelled one rejects with `cancelled`', async () => {
    const alone = await statsAlone('event-history');
    const inspector = new LocalInspector();
    await inspector.open({ kind: 'files', files: files() });
    const first = inspector.getStateStats({ operatorId: OPERATOR, state: 'events-by-name' });
    await inspector.cancel();
    const other = inspector.getStateStats({ operatorId: OPERATOR, state: 'event-history' });
    const again = inspector.getStateStats({ operatorId: OPERATOR, state: 'events-by-name' });
    await expect(first).rejects.toMatchObject({ code: 'cancelled' });
    expect(await other).toEqual(alone);
    expect((await again).entries).toBe((await statsAlone('events-by-name')).entries);
  });
});
