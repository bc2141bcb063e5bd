/**
 * Golden tests over the real savepoints that Apache Flink wrote (fixtures/flink-writer, committed under
 * fixtures/savepoints): every expected state content of every manifest must come out of the core readers —
 * keys, key groups, subtasks, user keys, ProtoJSON values, unknown-field counts and the exact payload bytes.
 */
import { createHash } from 'node:crypto';
import { existsSync, openSync, readSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openNodeInput } from '../../src/cli/sources';
import { computeOperatorId, createSnapshotRegistry, inspectSavepoint, openSavepoint } from '../../src/core/flink';
import { readStateEntries } from '../helpers/read-state-entries';
import type { DecodedValue, SnapshotRegistry, StateEntry } from '../../src/core/flink';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import type { SavepointFiles } from '../../src/core/io';
import { listDiffPairCases, listFixtureCases, type FixtureCase, type StateJson, type ValueJson } from './load-fixture-manifests';
import { requireCommittedCases } from '../helpers/committed-data';

const cases = listFixtureCases();
// the newer sides of the `diff` pairs (fixtures/diff-pairs): their manifests are checked the same way
const diffPairCases = listDiffPairCases();
const SCOPE_AND_KIND: Record<StateJson['kind'], [string, string]> = {
  value: ['keyed', 'VALUE'],
  map: ['keyed', 'MAP'],
  list: ['keyed', 'LIST'],
  'operator-list': ['operator', 'OPERATOR_LIST'],
  'operator-union-list': ['operator', 'OPERATOR_UNION'],
  'broadcast-map': ['broadcast', 'BROADCAST'],
};

function createRegistry(): SnapshotRegistry {
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  return registry;
}

async function collect(files: SavepointFiles, registry: SnapshotRegistry, uid: string, state: string): Promise<StateEntry[]> {
  const out: StateEntry[] = [];
  for await (const e of readStateEntries(files, registry, { operatorId: uid, state })) out.push(e);
  return out;
}

function keyText(v: DecodedValue | undefined): string {
  if (!v) return '<none>';
  if (v.kind === 'int' || v.kind === 'long' || v.kind === 'string') return String(v.value);
  return `<${v.kind}>`;
}

/** Reads the frame bytes back from the savepoint file (uncompressed streams only) and checks them. */
function checkFrameBytes(fx: FixtureCase, entry: StateEntry, v: Extract<DecodedValue, { kind: 'message' }>, expected: ValueJson): void {
  const path = join(fx.dir, entry.file);
  expect(existsSync(path), `state file ${entry.file}`).toBe(true);
  const frame = Buffer.alloc(v.frame.length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, frame, 0, frame.length, v.frame.offset);
  } finally {
    closeSync(fd);
  }
  expect(frame.readInt32BE(0)).toBe(expected.payloadSize);
  expect(createHash('sha256').update(frame.subarray(4)).digest('hex')).toBe(expected.payloadSha256);
}

function expectValue(fx: FixtureCase, entry: StateEntry, actual: DecodedValue | null, ref: string, ttl: boolean, bytes: boolean): void {
  const expected = fx.manifest.values[ref];
  expect(expected, `value ${ref} in the manifest's value table`).toBeDefined();
  let v = actual;
  if (ttl) {
    expect(v?.kind).toBe('ttl');
    v = v?.kind === 'ttl' ? v.value : null;
  }
  expect(v?.kind).toBe('message');
  if (v?.kind !== 'message') return;
  expect(v.typeName).toBe(expected!.messageType);
  expect(v.payloadSize).toBe(expected!.payloadSize);
  expect(v.unknownFieldCount).toBe(expected!.unknownFields.length);
  expect(v.json).toEqual(expected!.json);
  if (bytes && !ttl) checkFrameBytes(fx, entry, v, expected!);
}

async function checkState(fx: FixtureCase, files: SavepointFiles, registry: SnapshotRegistry, uid: string, state: StateJson, bytes: boolean): Promise<void> {
  const entries = await collect(files, registry, uid, state.name);
  const ttl = state.ttl === true;
  if (state.entries) {
    const byKey = new Map(entries.map((e) => [`${keyText(e.key)}|${keyText(e.userKey)}`, e]));
    expect(entries).toHaveLength(state.entries.length);
    for (const exp of state.entries) {
      const id = `${exp.key}|${exp.userKey ?? '<none>'}`;
      const e = byKey.get(id);
      expect(e, `${state.name} entry ${id}`).toBeDefined();
      if (!e) continue;
      expect(e.keyGroup, `${state.name} ${id} key group`).toBe(exp.keyGroup);
      expect(e.subtask, `${state.name} ${id} subtask`).toBe(exp.subtask);
      if (exp.values) {
        expect(e.value?.kind).toBe('list');
        const items = e.value?.kind === 'list' ? e.value.items : [];
        expect(items).toHaveLength(exp.values.length);
        exp.values.forEach((ref, i) => expectValue(fx, e, items[i] ?? null, ref, ttl, false));
      } else {
        expectValue(fx, e, e.value, exp.value!, ttl, bytes);
      }
    }
  }
  for (const part of state.partitions ?? []) {
    const mine = entries.filter((e) => e.subtask === part.subtask);
    if (part.values) {
      expect(mine, `${state.name} subtask ${part.subtask}`).toHaveLength(part.values.length);
      part.values.forEach((ref, i) => expectValue(fx, mine[i]!, mine[i]?.value ?? null, ref, false, bytes));
    }
    if (part.entries) {
      expect(mine, `${state.name} subtask ${part.subtask}`).toHaveLength(part.entries.length);
      for (const exp of part.entries) {
        const e = mine.find((m) => keyText(m.userKey) === exp.userKey);
        expect(e, `${state.name} subtask ${part.subtask} ${exp.userKey}`).toBeDefined();
        if (e) expectValue(fx, e, e.value, exp.value, false, bytes);
      }
    }
  }
  if (state.partitions) expect(entries).toHaveLength(state.partitions.reduce((n, p) => n + (p.values?.length ?? p.entries?.length ?? 0), 0));
}

/** The entry count inspection reports: a broadcast state counts one subtask's copy (every subtask holds all of it). */
function expectedCount(state: StateJson): number {
  if (state.entries) return state.entries.length;
  const sizes = (state.partitions ?? []).map((p) => p.values?.length ?? p.entries?.length ?? 0);
  if (state.kind === 'broadcast-map') return Math.max(0, ...sizes);
  return sizes.reduce((n, k) => n + k, 0);
}

requireCommittedCases('fixture savepoint (fixtures/savepoints/**/manifest.json)', cases);
requireCommittedCases('diff pair savepoint (fixtures/diff-pairs/**/manifest.json)', diffPairCases);

describe('fixture savepoints written by Flink (fixtures/savepoints, fixtures/diff-pairs)', () => {
  it('covers both Flink lines, both backends, compressed and uncompressed, canonical and native', () => {
    const seen = new Set(
      cases.map(
        (c) =>
          `${c.manifest.versions.flink.split('.')[0]}/${c.manifest.settings.stateBackend}/${c.manifest.settings.savepointFormat}/${c.manifest.settings.snapshotCompression}`,
      ),
    );
    for (const major of ['1', '2']) {
      for (const backend of ['hashmap', 'rocksdb']) {
        for (const key of ['CANONICAL/false', 'CANONICAL/true', 'NATIVE/false'])
          expect(seen, `${major}/${backend}/${key}`).toContain(`${major}/${backend}/${key}`);
      }
    }
  });

  for (const fx of [...cases, ...diffPairCases]) {
    const m = fx.manifest;
    const stateful = m.operators.filter((o) => o.states.length > 0);
    const nativeRocks = m.settings.stateBackend === 'rocksdb' && m.settings.savepointFormat === 'NATIVE';
    const inputs: [string, string][] = [['folder', join(fx.dir, m.files.savepointFolder)]];
    if (m.files.savepointZip) inputs.push(['zip', join(fx.dir, m.files.savepointZip)]);

    for (const [inputKind, inputPath] of inputs) {
      describe(`${fx.label} (${inputKind}, Flink ${m.versions.flink})`, () => {
        it('inspects every operator and state the manifest lists', async () => {
          const files = await openNodeInput(inputPath);
          const inspection = await inspectSavepoint(await openSavepoint(files), createRegistry(), { countEntries: true });
          expect(inspection.format).toBe(m.settings.savepointFormat);
          for (const op of stateful) {
            const inspected = inspection.operators.find((o) => o.id === computeOperatorId(op.uid));
            expect(inspected, `operator ${op.uid}`).toBeDefined();
            if (!inspected) continue;
            expect(inspected.parallelism).toBe(op.parallelism);
            if (op.maxParallelism !== undefined) expect(inspected.maxParallelism).toBe(op.maxParallelism);
            if (nativeRocks) expect(inspected.keyedFormat).toBe('rocksdb-native');
            for (const s of op.states) {
              const [scope, kind] = SCOPE_AND_KIND[s.kind];
              const state = inspected.states.find((x) => x.name === s.name && x.scope === scope);
              expect(state, `${op.uid}/${s.name}`).toBeDefined();
              expect(state?.kind).toBe(kind);
              expect(state?.status, `${op.uid}/${s.name}: ${state?.statusReason ?? ''}`).toBe('ok');
              expect(state?.entries, `${op.uid}/${s.name} entries`).toBe(expectedCount(s));
              expect(state?.decoded, `${op.uid}/${s.name} decoded`).toBe('fully');
            }
          }
        });

        for (const op of stateful) {
          for (const s of op.states) {
            const keyedOnNative = nativeRocks && SCOPE_AND_KIND[s.kind][0] === 'keyed';
            it(`${op.uid}/${s.name} holds exactly the expected contents${keyedOnNative ? ' (read from its SST files)' : ''}`, async () => {
              const files = await openNodeInput(inputPath);
              const registry = createRegistry();
              // SST values sit in (possibly compressed) data blocks: their frames are checked by content, not re-read from the file
              const bytes = inputKind === 'folder' && !m.settings.snapshotCompression && !keyedOnNative;
              await checkState(fx, files, registry, op.uid, s, bytes);
            });
          }
        }
      });
    }
  }
});
