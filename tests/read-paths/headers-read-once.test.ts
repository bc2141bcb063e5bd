/**
 * A SavepointSession reads each subtask's stream headers once: its inspection and the scans handed
 * `session.headers` share them (SubtaskHeaderCache), so inspecting and then scanning a state reads no
 * state-file range twice. `export` (the inspection, then the scan) and `dump` of a name the operator
 * does not have (a scan, then the inspection that lists the operator's states) are counted in
 * metadata-read-once.test.ts.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSavepointRegistry } from '../../src/core/compat';
import { openSavepointSession, scanState } from '../../src/core/flink';
import { openNodeInput } from '../../src/cli/sources';
import { requireCommitted } from '../helpers/committed-data';
import { recordSavepointReads } from '../helpers/record-savepoint-reads';

const SAVEPOINTS = ['flink-2.3/hashmap/canonical', 'flink-1.20/hashmap/canonical', 'flink-1.20/rocksdb/canonical'].map(
  (name) => [name, requireCommitted(path.resolve(process.cwd(), `fixtures/savepoints/${name}/savepoint`))] as const,
);

const repeated = (reads: readonly [string, number, number][]) => {
  const seen = new Set<string>();
  return reads.map((r) => JSON.stringify(r)).filter((r) => seen.has(r) || !seen.add(r));
};

describe('a session reads the stream headers once', () => {
  for (const [name, dir] of SAVEPOINTS) {
    it(`${name}: inspect, then scan every state with the session's headers`, async () => {
      const reads: [string, number, number][] = [];
      const session = await openSavepointSession(recordSavepointReads(await openNodeInput(dir), reads), createSavepointRegistry());
      await session.inspect();
      const inspected = reads.length;
      expect(inspected).toBeGreaterThan(0);
      expect(repeated(reads)).toEqual([]);
      let entries = 0;
      await scanState(session.opened, session.registry, {}, { entry: () => void entries++ }, { values: { mode: 'frame' }, headers: session.headers });
      expect(entries).toBeGreaterThan(0);
      // the scans read entries (more reads), but no header range again
      expect(reads.length).toBeGreaterThan(inspected);
      expect(repeated(reads)).toEqual([]);
    });
  }
});
