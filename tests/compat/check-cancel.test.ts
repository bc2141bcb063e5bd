import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isDecodeError } from '../../src/core/io';
import { checkSavepoint } from '../../src/core/report';
import { openNodeInput } from '../../src/cli/sources';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');

/** A signal that turns aborted at its n-th look (0-based), and counts the looks. */
function abortAt(n: number): { readonly aborted: boolean; looks: number } {
  return {
    looks: 0,
    get aborted() {
      return this.looks++ >= n;
    },
  };
}

describe('checkSavepoint cancelled during the value scan', () => {
  it('rejects with the cancellation instead of returning a report whose values look "not readable"', async () => {
    const run = async (signal: { readonly aborted: boolean }) =>
      checkSavepoint({
        files: await openNodeInput(SAVEPOINT),
        descriptorSet: { name: 'events-changed.binpb', bytes: new Uint8Array(readFileSync(SCHEMA)) },
        tool: { name: 't', version: '0' },
        signal,
      });
    const counting = abortAt(Infinity);
    const full = await run(counting);
    expect(full.states.some((s) => (s.valuesScanned ?? 0) > 0)).toBe(true);
    // the last look happens inside the last state's value scan
    const e = await run(abortAt(counting.looks - 1)).catch((x: unknown) => x);
    expect(isDecodeError(e) && e.code).toBe('cancelled');
  });
});
