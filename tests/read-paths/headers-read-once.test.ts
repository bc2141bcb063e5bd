/**
 * A SavepointSession reads each subtask's stream headers once: its inspection and the scans handed
 * `session.headers` share them (SubtaskHeaderCache), so inspecting and then scanning a state reads no
 * state-file range twice. `export` (the inspection, then the scan) and `dump` of a name the operator
 * does not have (a scan, then the inspection that lists the operator's states) are counted in
 * metadata-read-once.test.ts. `checkSavepoint` reads `_metadata` and the headers once: its value scan reads
 * with the evaluation's session (its registry and header cache), not with a second registry of its own.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSavepointRegistry } from '../../src/core/compat';
import { observeSourceReads, type SavepointFiles } from '../../src/core/io';
import { checkSavepoint } from '../../src/core/report';
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

/** The input with its `_metadata` reads counted by the io read counter (observeSourceReads). */
function countMetadataReads(files: SavepointFiles, counted: { bytes: number }): SavepointFiles {
  return { ...files, metadata: observeSourceReads(files.metadata, { onRead: (n) => void (counted.bytes += n) }) };
}

describe('check reads _metadata and the stream headers once', () => {
  const SCHEMA = requireCommitted(path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb'));
  for (const [name, dir] of SAVEPOINTS) {
    it(`${name}: the evaluation, then the value scan with the evaluation's session`, async () => {
      const reads: [string, number, number][] = [];
      const metadata = { bytes: 0 };
      const files = countMetadataReads(recordSavepointReads(await openNodeInput(dir), reads), metadata);
      const report = await checkSavepoint({
        files,
        descriptorSet: { name: 'events-changed.binpb', bytes: new Uint8Array(readFileSync(SCHEMA)) },
        tool: { name: 't', version: '0' },
      });
      expect(report.states.some((s) => (s.valuesScanned ?? 0) > 0)).toBe(true);
      expect(metadata.bytes).toBe(files.metadata.size);
      // the value scan reads entries, but no header range the evaluation read
      expect(reads.length).toBeGreaterThan(0);
      expect(repeated(reads)).toEqual([]);
    });
  }
});
