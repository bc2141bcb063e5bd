/**
 * `check`'s value scan in worker threads (a share of the subtasks each, tallies merged in subtask
 * order) gives the report the in-thread scan gives, on committed fixture savepoints (parallelism
 * 2: two subtasks per operator) against a new schema whose added field 100 the saved values carry as
 * an unknown field. One savepoint of each storage variant (heap and RocksDB; canonical, compressed,
 * inline and native; Flink 1.20 and 2.3), not all 14: each savepoint starts two worker threads that
 * load the TypeScript sources through tsx (~0.6 s each), which took 18 s idle and 138 s under load.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSavepoint } from '../../core/report';
import { formatJson } from '../../core/report/format-json';
import { openNodeInput } from '../sources';
import { buildDescriptorSet } from '../../../tests/conformance/build-descriptor-set';
import { copyWithDuplicateOperatorId } from '../../../tests/helpers/copy-with-duplicate-operator-id';
import { createParallelValueScanner, type WorkerCheckInput } from './run-parallel-value-scan';
import { requireCommitted } from '../../../tests/helpers/committed-data';

const FIXTURES = path.resolve(process.cwd(), 'fixtures/savepoints');
const PROTO_DIR = path.resolve(process.cwd(), 'fixtures/flink-writer/src/main/proto');

// the storage variants, and both Flink versions, each once: canonical states with the unknown field
// (warnings), RocksDB native (SST files), heap native key groups, Snappy and state inline in _metadata
const VARIANTS = [
  'flink-2.3/hashmap/canonical',
  'flink-1.20/rocksdb/native',
  'flink-1.20/hashmap/native',
  'flink-2.3/rocksdb/canonical-compressed',
  'flink-1.20/hashmap/canonical-inline',
];

let dir = '';
let added100: Uint8Array;
const savepoints: string[] = [];

requireCommitted(FIXTURES, PROTO_DIR);

describe('check value scan in worker threads', () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parallel-values-'));
    const events = await readFile(path.join(PROTO_DIR, 'fixtures/events.proto'), 'utf8');
    const common = await readFile(path.join(PROTO_DIR, 'fixtures/common.proto'), 'utf8');
    added100 = await buildDescriptorSet({
      'fixtures/events.proto': events.replace('  double score = 16;', '  double score = 16;\n  int64 added = 100;'),
      'fixtures/common.proto': common,
    });
    for (const variant of VARIANTS) savepoints.push(path.join(FIXTURES, variant, 'savepoint'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('gives a fixture savepoint of each storage variant the report of the in-thread scan, with 2 worker threads', async () => {
    for (const savepoint of savepoints) expect(existsSync(path.join(savepoint, '_metadata')), savepoint).toBe(true);
    let warned = 0;
    let scannedNative = 0;
    for (const savepoint of savepoints) {
      const check: WorkerCheckInput = {
        descriptorSet: { name: 'added100.binpb', bytes: added100 },
        savepointName: 'savepoint',
        tool: { name: 'test', version: '0' },
        target: '1.x',
        generatedAt: '2026-01-01T00:00:00Z',
      };
      const inThread = await checkSavepoint({ ...check, files: await openNodeInput(savepoint) });
      const files = await openNodeInput(savepoint);
      const plans: { workers: number; subtasks: number }[] = [];
      const parallel = await checkSavepoint({
        ...check,
        files,
        valueScanner: createParallelValueScanner(savepoint, check, { workers: 2, minParallelBytes: 0, onPlan: (p) => plans.push(p) }),
      });
      expect(plans, savepoint).toEqual([{ workers: 2, subtasks: expect.any(Number) as number }]);
      expect(formatJson(parallel), savepoint).toBe(formatJson(inThread));
      for (const s of inThread.states) {
        if (s.ruleSet === undefined) continue; // not a Protobuf state
        expect(s.valuesNotRead, `${savepoint} ${s.state}`).toBeUndefined();
        if (savepoint.includes('rocksdb/native') && (s.valuesScanned ?? 0) > 0) scannedNative++;
        if (s.warnings.some((w) => w.ruleId === 'UNKNOWN_NUMBER_BECOMES_FIELD' && w.count > 20)) warned++;
      }
    }
    // the comparison covers states with warnings and RocksDB native states read from their SST files
    expect(warned).toBeGreaterThan(0);
    expect(scannedNative).toBeGreaterThan(5);
  });

  it('scans each subtask once when _metadata lists an operator id twice (as the in-thread read: the last operator with the id)', async () => {
    // two operators with Protobuf state, parallelism 2 each; the second one's id bytes overwritten with the first one's
    const copy = path.join(dir, 'duplicate-operator-id');
    await copyWithDuplicateOperatorId(
      path.join(FIXTURES, 'flink-2.3/hashmap/canonical/savepoint'),
      copy,
      '6d821971c3bfd7ae2c972e89d7414f7c',
      '732aacc57f1a1cd4ab51694dd9eed722',
    );
    const check: WorkerCheckInput = { descriptorSet: { name: 'added100.binpb', bytes: added100 }, tool: { name: 'test', version: '0' } };
    const inThread = await checkSavepoint({ ...check, files: await openNodeInput(copy) });
    expect(inThread.states.filter((s) => s.operator === '6d821971c3bfd7ae2c972e89d7414f7c' && (s.valuesScanned ?? 0) > 0).length).toBeGreaterThan(0);
    const files = await openNodeInput(copy);
    const plans: { workers: number; subtasks: number }[] = [];
    const parallel = await checkSavepoint({
      ...check,
      files,
      valueScanner: createParallelValueScanner(copy, check, { workers: 2, minParallelBytes: 0, onPlan: (p) => plans.push(p) }),
    });
    expect(plans.map((p) => p.workers)).toEqual([2]);
    expect(formatJson(parallel)).toBe(formatJson(inThread));
  });

  it('scans in this thread below the size threshold or with one worker', async () => {
    const savepoint = savepoints[0]!;
    const check: WorkerCheckInput = { descriptorSet: { name: 'added100.binpb', bytes: added100 }, tool: { name: 'test', version: '0' } };
    const files = await openNodeInput(savepoint);
    const plans: { workers: number; subtasks: number }[] = [];
    await checkSavepoint({ ...check, files, valueScanner: createParallelValueScanner(savepoint, check, { onPlan: (p) => plans.push(p) }) });
    await checkSavepoint({
      ...check,
      files,
      valueScanner: createParallelValueScanner(savepoint, check, { workers: 1, minParallelBytes: 0, onPlan: (p) => plans.push(p) }),
    });
    expect(plans.map((p) => p.workers)).toEqual([0, 0]);
  });
});
