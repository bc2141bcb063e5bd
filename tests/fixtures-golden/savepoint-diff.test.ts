/**
 * Golden `diff` over pairs of fixture savepoints written by real Flink (fixtures/README.md): the same job
 * across Flink 1.20 → 2.3, two consecutive incremental RocksDB checkpoints of one running job (growth, with
 * the values: every entry count from the checkpoints' manifest), the Kryo savepoint and the one its generated
 * migration job wrote (serializer change, parallelism change, states removed), the same job before and after a
 * Protobuf schema change (the saved schemas compared), a Flink 1.20 savepoint and the one the same job wrote on
 * Flink 2.3 after restoring from it, two savepoints of different
 * jobs, the same savepoint twice, and a side whose state files are missing. Exact content and exit codes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import type { SavepointDiff } from '../../src/core/report';

interface DiffFailure {
  condition: string;
  message: string;
}
import { requireCommitted } from '../helpers/committed-data';
import { computeOperatorId } from '../../src/core/flink';

const SP = 'fixtures/savepoints';
const V120 = requireCommitted(`${SP}/flink-1.20/hashmap/canonical/savepoint`);
const V23 = requireCommitted(`${SP}/flink-2.3/hashmap/canonical/savepoint`);
const CHK = requireCommitted('fixtures/rocksdb-checkpoints/flink-1.20/zstd');
const KRYO = requireCommitted('fixtures/kryo-savepoints/flink-1.20/hashmap/kryo-registered/savepoint');
const MIGRATED = requireCommitted('fixtures/kryo-migrated/flink-1.20/hashmap/kryo-registered/savepoint');
const PAIRS = 'fixtures/diff-pairs/flink-1.20/hashmap';
const MORE = requireCommitted(`${PAIRS}/more-records`);
const UID_CHANGED = requireCommitted(`${PAIRS}/uid-changed`);
const SCHEMA_CHANGED = requireCommitted(`${PAIRS}/schema-changed`);
const UPGRADED = requireCommitted('fixtures/diff-pairs/flink-2.3/hashmap/upgraded-from-1.20');

interface PairManifest {
  diffPairOf: string;
  settings: { records: number };
  operators: { uid: string; states: { name: string; entries?: unknown[]; partitions?: { subtask: number; values?: unknown[]; entries?: unknown[] }[] }[] }[];
}
function readManifest(dir: string): PairManifest {
  return JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as PairManifest;
}
/** entries of a state as the manifest expects them: keyed entries, list elements; a broadcast state's one copy (every subtask holds it whole) */
function countExpected(s: PairManifest['operators'][number]['states'][number], broadcast: boolean): number {
  if (s.entries) return s.entries.length;
  const parts = s.partitions ?? [];
  const count = (p: (typeof parts)[number]) => (p.values ?? p.entries ?? []).length;
  return broadcast ? count(parts[0]!) : parts.reduce((n, p) => n + count(p), 0);
}

async function diff(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['diff', ...args], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

async function diffJson(...args: string[]): Promise<{ code: number; diff: SavepointDiff; failures: DiffFailure[] }> {
  const r = await diff(...args, '--format', 'json');
  const doc = JSON.parse(r.stdout) as { schemaVersion: number; diff: SavepointDiff; failures: DiffFailure[] };
  expect(doc.schemaVersion).toBe(1);
  return { code: r.code, diff: doc.diff, failures: doc.failures };
}

describe('diff: the same job written by Flink 1.20 and by Flink 2.3', () => {
  let result: Awaited<ReturnType<typeof diffJson>>;
  beforeAll(async () => {
    result = await diffJson(V120, V23);
  });

  it('matches every stateful operator by id, with the same states, serializers and saved schemas', () => {
    const d = result.diff;
    expect(result.code).toBe(0);
    expect(d.relation).toBe('same-job');
    expect([d.older.metadataVersion, d.newer.metadataVersion]).toEqual([4, 6]);
    expect(d.operators.map((o) => o.match)).toEqual(['id', 'id', 'id', 'id', 'id']);
    expect(d.operatorsAdded).toEqual([]);
    expect(d.operatorsRemoved).toEqual([]);
    expect(d.operators.flatMap((o) => [...o.statesAdded, ...o.statesRemoved])).toEqual([]);
    expect(d.operators.flatMap((o) => o.states.flatMap((s) => [...s.serializers, ...s.savedSchemas]))).toEqual([]);
    expect(d.operators.filter((o) => o.parallelism || o.maxParallelism)).toEqual([]);
    expect(d.operators.reduce((n, o) => n + o.states.length, 0)).toBe(17);
    expect(d.notCompared).toEqual([]);
    expect(d.valuesCompared).toBe(false);
  });

  it('says in the text that nothing of the states changed', async () => {
    const r = await diff(V120, V23);
    expect(r.stdout).toContain('5 operators compared; 0 added, 0 removed; 0 of 17 common states changed, 0 added, 0 removed');
    expect(r.stdout).toContain('read: _metadata and the state headers only');
  });
});

interface CheckpointManifest {
  checkpoints: { folder: string; states: Record<string, unknown[]> }[];
}

describe('diff --values: two consecutive incremental RocksDB checkpoints of one job (growth)', () => {
  const manifest = JSON.parse(readFileSync(path.join(CHK, 'manifest.json'), 'utf8')) as CheckpointManifest;
  const [first, second] = manifest.checkpoints;
  const older = path.join(CHK, first!.folder);
  const newer = path.join(CHK, second!.folder);
  let result: Awaited<ReturnType<typeof diffJson>>;
  beforeAll(async () => {
    result = await diffJson(older, newer, '--values');
  });

  it('counts every state entry as the manifest has them on both sides', () => {
    const op = result.diff.operators.find((o) => o.states.some((s) => s.name === 'count'))!;
    const counted = Object.fromEntries(op.states.map((s) => [s.name, [s.values!.entries.older, s.values!.entries.newer]]));
    const expected = Object.fromEntries(Object.keys(first!.states).map((name) => [name, [first!.states[name]!.length, second!.states[name]!.length]]));
    expect(counted).toEqual(expected);
    expect(counted).toEqual({
      count: [5, 4],
      tags: [15, 14],
      history: [5, 5],
      'ttl-last': [5, 4],
      '_timer_state/event_user-timers': [15, 21],
      '_timer_state/processing_user-timers': [15, 12],
    });
  });

  it('gives value bytes, keyed sizes and skew', () => {
    const op = result.diff.operators.find((o) => o.states.some((s) => s.name === 'history'))!;
    const history = op.states.find((s) => s.name === 'history')!;
    expect(history.values!.valueBytes).toEqual({ older: 130, newer: 211, growth: 0.6231 });
    expect(history.serializers).toEqual([]);
    expect(op.keyedSize!.newer).toBeGreaterThan(op.keyedSize!.older);
    const timers = op.states.find((s) => s.name === '_timer_state/event_user-timers')!;
    expect(timers.values!.skew).toEqual({
      older: { keyGroup: 1, entries: 3, median: 3, ratio: 1 },
      newer: { keyGroup: 39, entries: 6, median: 3, ratio: 2 },
    });
    expect(result.code).toBe(0);
  });

  it('--fail-on-growth 50% fails on the state that grew by 62.3%, 70% passes', async () => {
    const failing = await diffJson(older, newer, '--values', '--fail-on-growth', '50%');
    expect(failing.code).toBe(1);
    expect(failing.failures).toEqual([
      {
        condition: 'growth',
        message: `value bytes of state history of ${failing.diff.operators.find((o) => o.states.some((s) => s.name === 'history'))!.newer.id} grew 130 B → 211 B (+62.3%)`,
      },
    ]);
    const text = await diff(older, newer, '--values', '--fail-on-growth', '50%');
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('FAIL (growth): value bytes of state history of ');
    expect((await diff(older, newer, '--values', '--fail-on-growth', '70%')).code).toBe(0);
  });
});

describe('diff: the Kryo savepoint and the savepoint its generated migration job wrote', () => {
  let result: Awaited<ReturnType<typeof diffJson>>;
  beforeAll(async () => {
    result = await diffJson(KRYO, MIGRATED);
  });

  it('names the serializer change of every carried state, the parallelism change and the states not carried', () => {
    const d = result.diff;
    expect(d.relation).toBe('same-job');
    expect(d.operators).toHaveLength(1);
    const op = d.operators[0]!;
    expect(op.match).toBe('id');
    expect(op.parallelism).toEqual({ older: 2, newer: 1 });
    expect(op.maxParallelism).toBeUndefined();
    expect(op.statesRemoved).toEqual(['keyed/event-holder', 'keyed/_timer_state/processing_user-timers', 'keyed/_timer_state/event_user-timers']);
    expect(op.statesAdded).toEqual([]);
    const changes = Object.fromEntries(op.states.map((s) => [s.name, s.serializers.map((c) => `${c.role}: ${c.older?.className} → ${c.newer?.className}`)]));
    const KRYO_SNAPSHOT = 'org.apache.flink.api.java.typeutils.runtime.kryo.KryoSerializerSnapshot';
    const PROTOBUF_SNAPSHOT = 'io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot';
    const LIST = 'org.apache.flink.api.common.typeutils.base.ListSerializerSnapshot';
    const MAP = 'org.apache.flink.api.common.typeutils.base.MapSerializerSnapshot';
    expect(changes).toEqual({
      'processed-events': [`VALUE_SERIALIZER: ${KRYO_SNAPSHOT} → ${PROTOBUF_SNAPSHOT}`],
      'event-history': [`VALUE_SERIALIZER: ${LIST} → ${LIST}`],
      'last-event': [`VALUE_SERIALIZER: ${KRYO_SNAPSHOT} → ${PROTOBUF_SNAPSHOT}`],
      'events-by-name': [`VALUE_SERIALIZER: ${MAP} → ${MAP}`],
    });
    const history = op.states.find((s) => s.name === 'event-history')!.serializers[0]!;
    expect(history.older!.typeLabel).toBe('List<Protobuf dev.savepointinspector.fixtures.generated.EventMessages$Event via Kryo (chill-protobuf)>');
    expect(history.newer!.typeLabel).toBe('List<Protobuf fixtures.events.Event>');
    expect(d.operatorsRemoved.map((o) => o.states)).toEqual([['operator/SourceReaderState']]);
    expect(d.statelessOperators).toEqual({ added: 0, removed: 1 });
    expect(result.code).toBe(0);
  });

  it('--fail-on-removed-state fails on each state the migration did not carry', async () => {
    const r = await diffJson(KRYO, MIGRATED, '--fail-on-removed-state');
    expect(r.code).toBe(1);
    expect(r.failures.map((f) => f.message)).toEqual([
      'state keyed/event-holder of 2c3360807567b390553b1d6bddbcfc9d was removed',
      'state keyed/_timer_state/processing_user-timers of 2c3360807567b390553b1d6bddbcfc9d was removed',
      'state keyed/_timer_state/event_user-timers of 2c3360807567b390553b1d6bddbcfc9d was removed',
      'operator c3919b0b80c770dcaba928458d2e49b0 and its 1 state(s) were removed',
    ]);
  });
});

describe('diff --values: the same job after 24 and after 48 records (fixtures/diff-pairs/more-records)', () => {
  const older = readManifest(path.dirname(V120));
  const newer = readManifest(MORE);
  let result: Awaited<ReturnType<typeof diffJson>>;
  beforeAll(async () => {
    result = await diffJson(V120, path.join(MORE, 'savepoint'), '--values');
  });

  it('pairs with the committed hashmap/canonical savepoint', () => {
    expect(newer.diffPairOf).toBe('savepoints/flink-1.20/hashmap/canonical');
    expect([older.settings.records, newer.settings.records]).toEqual([24, 48]);
  });

  it('counts every state entry of both sides as the manifests expect them', () => {
    const counted: Record<string, [number, number]> = {};
    const expected: Record<string, [number, number]> = {};
    for (const op of result.diff.operators)
      for (const s of op.states)
        if (!s.name.startsWith('_timer_state/') && s.name !== 'SourceReaderState') counted[s.name] = [s.values!.entries.older, s.values!.entries.newer];
    for (const op of older.operators)
      for (const s of op.states) {
        const n = newer.operators.find((o) => o.uid === op.uid)!.states.find((x) => x.name === s.name)!;
        expected[s.name] = [countExpected(s, s.name === 'rules'), countExpected(n, s.name === 'rules')];
      }
    expect(counted).toEqual(expected);
    expect(counted['events-by-name']).toEqual([24, 48]);
    expect(counted['processed-events']).toEqual([24, 48]);
  });

  it('sizes the operator states from their offsets, per subtask, and the keyed state per operator', () => {
    const op = result.diff.operators.find((o) => o.states.some((s) => s.name === 'processed-events'))!;
    const processed = op.states.find((s) => s.name === 'processed-events')!;
    // a list state's bytes are its elements' bytes (each element's frame) in the operator-state stream
    expect(processed.size!.newer).toBe(processed.values!.valueBytes.newer);
    expect(processed.size!.older).toBe(processed.values!.valueBytes.older);
    expect(processed.subtaskSizes!.map((s) => s.subtask)).toEqual([0, 1]);
    expect(processed.subtaskSizes!.reduce((n, s) => n + s.newer, 0)).toBe(processed.size!.newer);
    expect(op.keyedSize!.growth).toBeGreaterThan(1);
    expect(result.diff.operators.flatMap((o) => o.states.flatMap((s) => s.serializers))).toEqual([]);
  });

  it('--fail-on-growth 100% fails on exactly the states that more than doubled', async () => {
    const r = await diffJson(V120, path.join(MORE, 'savepoint'), '--values', '--fail-on-growth', '100%');
    expect(r.code).toBe(1);
    const grown = r.failures.map((f) => f.message.replace(/ of [0-9a-f]{32} grew .*/, ''));
    expect(grown).toEqual([
      'keyed state',
      'value bytes of state long-last-event',
      'keyed state',
      'state processed-events',
      'state even-events',
      'value bytes of state event-history',
      'value bytes of state last-event',
      'value bytes of state events-by-name',
      'value bytes of state ttl-last-event',
    ]);
  });
});

describe('diff: the same job after a uid change (fixtures/diff-pairs/uid-changed)', () => {
  it('matches the operator under its new id as renamed, with the same states', async () => {
    const manifest = readManifest(UID_CHANGED);
    expect(manifest.operators.map((o) => o.uid)).toContain('int-keyed-v2');
    const r = await diffJson(V120, path.join(UID_CHANGED, 'savepoint'));
    expect(r.code).toBe(0);
    expect(r.diff.relation).toBe('same-job');
    const renamed = r.diff.operators.filter((o) => o.match === 'renamed');
    expect(renamed.map((o) => [o.older.id, o.newer.id])).toEqual([[computeOperatorId('int-keyed'), computeOperatorId('int-keyed-v2')]]);
    expect(renamed[0]!.older.states).toEqual(renamed[0]!.newer.states);
    expect(renamed[0]!.statesAdded).toEqual([]);
    expect(renamed[0]!.statesRemoved).toEqual([]);
    expect(r.diff.operatorsAdded).toEqual([]);
    expect(r.diff.operatorsRemoved).toEqual([]);
    const text = await diff(V120, path.join(UID_CHANGED, 'savepoint'));
    expect(text.stdout).toContain(`Operator renamed: ${computeOperatorId('int-keyed')} → ${computeOperatorId('int-keyed-v2')}`);
    expect(text.stdout).toContain('5 operators compared (1 renamed); 0 added, 0 removed; 0 of 17 common states changed, 0 added, 0 removed');
  });
});

describe('diff: the same job before and after a schema change (fixtures/diff-pairs/schema-changed)', () => {
  const newer = path.join(SCHEMA_CHANGED, 'savepoint');
  const manifest = JSON.parse(readFileSync(path.join(SCHEMA_CHANGED, 'manifest.json'), 'utf8')) as {
    diffPairOf: string;
    schemaChange: { changes: string[] };
    restoreAttempt: { from: string; causes: string[] };
  };
  const OLD_SHA = 'ffe146abec159555bdfaf2330c2996bb587af19281043200b453fdda1b7c45e1';
  const NEW_SHA = 'c298572e9ea683f022dc9171d8bdc81851754ba300541a8f8e62a09428457f00';
  const TYPE_CHANGED = 'Field 11 (priority) of fixtures.events.Event changes type from INT32 to INT64';
  const EXACT = 'Normalized descriptor set differs from the saved one (0.x accepts only an identical schema)';
  let result: Awaited<ReturnType<typeof diffJson>>;
  beforeAll(async () => {
    result = await diffJson(V120, newer);
  });

  it('pairs with the committed hashmap/canonical savepoint, whose restore Flink refused under the changed schema', () => {
    expect(manifest.diffPairOf).toBe('savepoints/flink-1.20/hashmap/canonical');
    expect(manifest.schemaChange.changes).toEqual([
      'fixtures.events.Event field 11 priority: int32 -> int64',
      'fixtures.events.Event field 17 note (string) added',
    ]);
    expect(manifest.restoreAttempt.from).toBe(manifest.diffPairOf);
    expect(manifest.restoreAttempt.causes.at(-1)).toBe('java.lang.IllegalStateException: Generated class has a different Protobuf schema');
  });

  it('names the saved schema change of every Protobuf state, and no serializer class change', () => {
    const d = result.diff;
    expect(result.code).toBe(0);
    expect(d.relation).toBe('same-job');
    expect(d.operators.map((o) => o.match)).toEqual(['id', 'id', 'id', 'id', 'id']);
    expect(d.operators.flatMap((o) => o.states.flatMap((s) => s.serializers))).toEqual([]);
    const changed = d.operators.flatMap((o) => o.states.filter((s) => s.savedSchemas.length > 0).map((s) => `${s.scope}/${s.name}`));
    expect(changed).toEqual([
      'broadcast/rules',
      'keyed/long-last-event',
      'operator/processed-events',
      'operator/even-events',
      'keyed/event-history',
      'keyed/last-event',
      'keyed/events-by-name',
      'keyed/ttl-last-event',
      'keyed/large-event',
    ]);
    const states = d.operators.flatMap((o) => o.states);
    const eventChange = (role: string) => ({
      role,
      olderRoot: 'fixtures.events.Event',
      newerRoot: 'fixtures.events.Event',
      olderSha256: OLD_SHA,
      newerSha256: NEW_SHA,
      verdict: 'incompatible',
      firstIncompatibility: `${EXACT}: ${TYPE_CHANGED}`,
      findings: [{ ruleId: 'EXACT_SCHEMA_CHANGED', accepted: false, path: 'descriptor set', message: `${EXACT}: ${TYPE_CHANGED}` }],
      changes: [
        { ruleId: 'FIELD_TYPE_CHANGED', accepted: false, path: 'fixtures.events.Event.priority (11)', message: TYPE_CHANGED },
        { ruleId: 'FIELD_ADDED', accepted: true, path: 'fixtures.events.Event.note (17)', message: 'Field 17 (note) is added to fixtures.events.Event' },
      ],
      changedDeclarations: [{ name: 'fixtures.events.Event', status: 'changed' }],
    });
    expect(states.find((s) => s.name === 'last-event')!.savedSchemas).toEqual([eventChange('VALUE_SERIALIZER')]);
    expect(states.find((s) => s.name === 'event-history')!.savedSchemas).toEqual([eventChange('VALUE_SERIALIZER/0')]);
    expect(states.find((s) => s.name === 'events-by-name')!.savedSchemas).toEqual([eventChange('VALUE_SERIALIZER/1')]);
    expect(states.find((s) => s.name === 'ttl-last-event')!.savedSchemas).toEqual([eventChange('VALUE_SERIALIZER/1')]);
    // Rule reaches only Event.Kind of the changed file: the file changed, nothing Rule reaches did; 0.x still refuses it
    const outside = `${EXACT}: file fixtures/events.proto differs outside the declarations the root reaches`;
    expect(states.find((s) => s.name === 'rules')!.savedSchemas).toEqual([
      {
        role: 'VALUE_SERIALIZER',
        olderRoot: 'fixtures.events.Rule',
        newerRoot: 'fixtures.events.Rule',
        olderSha256: OLD_SHA,
        newerSha256: NEW_SHA,
        verdict: 'incompatible',
        firstIncompatibility: outside,
        findings: [{ ruleId: 'EXACT_SCHEMA_CHANGED', accepted: false, path: 'descriptor set', message: outside }],
        changes: [],
        changedDeclarations: [],
      },
    ]);
    expect(d.notCompared).toEqual([]);
  });

  it('says the schema change in the text, state by state', async () => {
    const r = await diff(V120, newer);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      [
        '  state keyed/last-event:',
        `    saved schema (VALUE_SERIALIZER) fixtures.events.Event changed (sha256 ffe146abec15… → c298572e9ea6…): older state under the newer schema: incompatible — ${EXACT}: ${TYPE_CHANGED}`,
        `      rejected EXACT_SCHEMA_CHANGED at descriptor set: ${EXACT}: ${TYPE_CHANGED}`,
        `      rejected FIELD_TYPE_CHANGED at fixtures.events.Event.priority (11): ${TYPE_CHANGED}`,
        '      accepted FIELD_ADDED at fixtures.events.Event.note (17): Field 17 (note) is added to fixtures.events.Event',
        '  state keyed/events-by-name:',
      ].join('\n'),
    );
    expect(r.stdout).toContain('5 operators compared; 0 added, 0 removed; 9 of 17 common states changed, 0 added, 0 removed');
  });
});

describe('diff: the Flink 1.20 savepoint and the savepoint of the same job restored from it on Flink 2.3 (fixtures/diff-pairs/flink-2.3/upgraded-from-1.20)', () => {
  const newer = path.join(UPGRADED, 'savepoint');
  const manifest = JSON.parse(readFileSync(path.join(UPGRADED, 'manifest.json'), 'utf8')) as PairManifest & {
    versions: { flink: string };
    restoredFrom: { from: string; flink: string; records: number };
    values: unknown;
  };
  let result: Awaited<ReturnType<typeof diffJson>>;
  beforeAll(async () => {
    result = await diffJson(V120, newer, '--values');
  });

  it('was restored from the committed 1.20 savepoint and holds the state the 1.20 job holds after 48 records', () => {
    expect(manifest.diffPairOf).toBe('savepoints/flink-1.20/hashmap/canonical');
    expect(manifest.versions.flink).toBe('2.3.0');
    expect(manifest.restoredFrom).toMatchObject({ from: manifest.diffPairOf, flink: '1.20.5', records: 24 });
    expect(manifest.settings.records).toBe(48);
    // the restored job's expected contents (checked against its bytes in savepoints.test.ts) are more-records' contents
    const more = JSON.parse(readFileSync(path.join(MORE, 'manifest.json'), 'utf8')) as typeof manifest;
    expect(manifest.operators).toEqual(more.operators);
    expect(manifest.values).toEqual(more.values);
  });

  it('matches every operator by id; no serializer or saved schema changed across Flink 1.20 → 2.3; the metadata version did', () => {
    const d = result.diff;
    expect(result.code).toBe(0);
    expect(d.relation).toBe('same-job');
    expect([d.older.metadataVersion, d.newer.metadataVersion]).toEqual([4, 6]);
    expect([d.older.checkpointId, d.newer.checkpointId]).toEqual(['1', '2']);
    expect(d.operators.map((o) => o.match)).toEqual(['id', 'id', 'id', 'id', 'id']);
    expect(d.operators.map((o) => o.newer.uid)).toEqual(['long-broadcast', 'int-keyed', 'input', 'string-keyed', 'rules-input']);
    expect(d.operators.flatMap((o) => [...o.statesAdded, ...o.statesRemoved])).toEqual([]);
    expect(d.operators.flatMap((o) => o.states.flatMap((s) => [...s.serializers, ...s.savedSchemas]))).toEqual([]);
    expect(d.operators.filter((o) => o.parallelism || o.maxParallelism)).toEqual([]);
    expect(d.notCompared).toEqual([]);
  });

  it('reports the growth the restored job added: the same entries and value bytes as the 1.20 job after 48 records', async () => {
    const more = await diffJson(V120, path.join(MORE, 'savepoint'), '--values');
    const values = (r: typeof result) =>
      Object.fromEntries(
        r.diff.operators.flatMap((o) => o.states.map((s) => [`${o.older.id}/${s.scope}/${s.name}`, [s.values!.entries, s.values!.valueBytes]])),
      );
    expect(values(result)).toEqual(values(more));
    const states = result.diff.operators.flatMap((o) => o.states);
    expect(states.find((s) => s.name === 'events-by-name')!.values!.entries).toEqual({ older: 24, newer: 48, growth: 1 });
    expect(states.find((s) => s.name === 'processed-events')!.values!.entries).toEqual({ older: 24, newer: 48, growth: 1 });
  });

  it('headers only: does not call a keyed state unchanged whose bytes were not measured', async () => {
    const r = await diff(V120, newer);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('_metadata version 4, 120.6 KiB');
    expect(r.stdout).toContain('_metadata version 6, 218.0 KiB');
    expect(r.stdout).toContain(
      [
        'Operator uid long-broadcast',
        '  size 8.5 KiB → 13.6 KiB (+60.8%); keyed state (all keyed states together) 5.1 KiB → 10.3 KiB (+100.3%)',
        '  subtasks: #0 4.4 KiB → 9.5 KiB (+117.9%), #1 4.1 KiB → 4.1 KiB (+0.3%)',
        '  1 state unchanged',
        '  3 keyed states: same serializers and saved schemas; their entries and bytes were not read (--values)',
      ].join('\n'),
    );
  });
});

describe('diff: bad input', () => {
  it('two savepoints of different jobs: said once, exit 1, no list of removed operators', async () => {
    const r = await diff(MIGRATED, path.join(CHK, 'chk-1'));
    expect(r.code).toBe(1);
    expect(r.stdout.match(/Different jobs/g)).toHaveLength(1);
    expect(r.stdout).toContain('these look like savepoints of different jobs, so nothing was compared');
    expect(r.stdout).not.toContain('Operators removed');
    expect(r.stdout).not.toContain('Operators added');
    expect(r.stdout).toContain('FAIL (different-jobs): no operator holding state is in both savepoints: nothing could be compared');
  });

  it('the same savepoint twice (a folder and its zip): said, exit 0', async () => {
    const folder = requireCommitted(`${SP}/flink-1.20/hashmap/canonical-compressed/savepoint`);
    const r = await diffJson(folder, `${SP}/flink-1.20/hashmap/canonical-compressed/savepoint.zip`);
    expect(r.code).toBe(0);
    expect(r.diff.relation).toBe('same-savepoint');
    const text = await diff(folder, `${SP}/flink-1.20/hashmap/canonical-compressed/savepoint.zip`);
    expect(text.stdout).toContain('both inputs are the same savepoint: their _metadata files are the same bytes, so nothing changed');
  });

  it('a side whose state files are missing: what could not be compared is named, and a gate fails', async () => {
    const r = await diffJson(V120, path.join(V23, '_metadata'));
    expect(r.code).toBe(0);
    expect(r.diff.notCompared[0]).toMatch(/^newer: 12 state file\(s\) missing: /);
    expect(r.diff.notCompared.slice(1).map((l) => l.split(' — ')[0])).toEqual([
      'newer: operator long-broadcast: state rules (header not read); the keyed states of subtasks 0, 1 (not listed)',
      'newer: operator int-keyed: states processed-events, even-events (header not read); the keyed states of subtasks 0, 1 (not listed)',
      'newer: operator input: state SourceReaderState (header not read)',
      'newer: operator string-keyed: the keyed states of subtasks 0, 1 (not listed)',
      'newer: operator rules-input: state SourceReaderState (header not read)',
    ]);
    const rules = r.diff.operators.flatMap((o) => o.states).find((s) => s.name === 'rules')!;
    expect(rules.notCompared).toBe("serializers not compared: the newer savepoint's header of this state could not be read");
    const gate = await diffJson(V120, path.join(V23, '_metadata'), '--fail-on-growth', '50%');
    expect(gate.code).toBe(1);
    expect(gate.failures.at(-1)).toEqual({ condition: 'not-compared', message: '6 part(s) of the savepoints could not be compared (listed above)' });
  });

  it('usage mistakes exit 2', async () => {
    expect((await diff(V120)).code).toBe(2);
    expect((await diff(V120, V23, '--fail-on-growth', 'lots')).code).toBe(2);
    expect((await diff(V120, V23, '--format', 'html')).code).toBe(2);
  });
});
