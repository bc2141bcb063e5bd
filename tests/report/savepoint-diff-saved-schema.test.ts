/**
 * `diff` on a saved-schema change between two savepoints, byte-built (the fixture writer compiles one schema per
 * build, so no real-Flink pair holds one yet): one keyed operator whose ValueState `v` is held by the Protobuf
 * serializer, root p.Val, with field `n` an int64 in the older savepoint and a string in the newer one. The
 * diff applies `check`'s rules with the older saved schema as the saved side: FIELD_TYPE_CHANGED, exact wording.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { ByteWriter } from '../../src/core/io';
import { DEFAULT_PROTOBUF_SETTINGS, normalizeSnapshotDescriptors, PROTOBUF_SNAPSHOT_CLASS, writeProtobufSnapshotParts } from '../../src/core/protobuf';
import type { SavepointDiff } from '../../src/core/report';
import { writeOneKeyedSavepoint } from '../helpers/write-one-keyed-savepoint';
import { CLS, simple, valueState, writeKeyedHeader, type SnapshotSpec } from '../helpers/write-test-snapshots';

/** field `n` of p.Val: 3 = int64, 9 = string */
function schema(type: 3 | 9): Uint8Array {
  return toBinary(
    FileDescriptorSetSchema,
    create(FileDescriptorSetSchema, {
      file: [{ name: 'b.proto', package: 'p', syntax: 'proto3', messageType: [{ name: 'Val', field: [{ name: 'n', number: 1, label: 1, type }] }] }],
    }),
  );
}

function protobufSnapshot(set: Uint8Array): SnapshotSpec {
  const whole = new ByteWriter();
  writeProtobufSnapshotParts(whole, 'p.B$Val', 'p.Val', DEFAULT_PROTOBUF_SETTINGS, normalizeSnapshotDescriptors(set, 'p.Val'));
  const envelope = 2 + PROTOBUF_SNAPSHOT_CLASS.length + 4;
  const content = whole.finish().subarray(envelope);
  return { raw: PROTOBUF_SNAPSHOT_CLASS, version: 1, content: (w) => w.bytes(content) };
}

const dirs: string[] = [];
function writeSavepoint(type: 3 | 9): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'diff-schema-'));
  dirs.push(dir);
  const header = writeKeyedHeader(new ByteWriter(), simple(CLS.int), [valueState('v', protobufSnapshot(schema(type)))]).finish();
  writeOneKeyedSavepoint(dir, { operatorId: 'a'.repeat(32), maxParallelism: 128, keyGroupOffset: 0, state: header });
  return dir;
}

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('diff: a saved Protobuf schema that changed between two savepoints', () => {
  it("names the change with check's rules, the older saved schema as the saved side", async () => {
    const older = writeSavepoint(3);
    const newer = writeSavepoint(9);
    let stdout = '';
    const code = await runCli(['diff', older, newer, '--format', 'json'], { stdout: (t) => (stdout += t), stderr: () => {} });
    expect(code).toBe(0);
    const diff = (JSON.parse(stdout) as { diff: SavepointDiff }).diff;
    const state = diff.operators[0]!.states.find((s) => s.name === 'v')!;
    expect(state.serializers).toEqual([]);
    expect(state.savedSchemas).toHaveLength(1);
    const change = state.savedSchemas[0]!;
    expect(change.role).toBe('VALUE_SERIALIZER');
    expect([change.olderRoot, change.newerRoot]).toEqual(['p.Val', 'p.Val']);
    expect(change.olderSha256).not.toBe(change.newerSha256);
    expect(change.verdict).toBe('incompatible');
    // the 0.1.0 snapshot class is the 0.x line: its exact rule rejects any change; the schema diff says what changed
    expect(change.findings.map((f) => [f.ruleId, f.accepted])).toEqual([['EXACT_SCHEMA_CHANGED', false]]);
    expect(change.changes.map((f) => [f.ruleId, f.accepted, f.path])).toEqual([['FIELD_TYPE_CHANGED', false, 'p.Val.n (1)']]);
    expect(change.changedDeclarations).toEqual([{ name: 'p.Val', status: 'changed' }]);
    let text = '';
    await runCli(['diff', older, newer], { stdout: (t) => (text += t), stderr: () => {} });
    expect(text).toContain('saved schema (VALUE_SERIALIZER) p.Val changed');
    expect(text).toContain(': older state under the newer schema: incompatible — ');
    expect(text).toContain('rejected FIELD_TYPE_CHANGED at p.Val.n (1): ');
  });

  it('says nothing of a saved schema that is the same bytes on both sides', async () => {
    let stdout = '';
    await runCli(['diff', writeSavepoint(3), writeSavepoint(3), '--format', 'json'], { stdout: (t) => (stdout += t), stderr: () => {} });
    const diff = (JSON.parse(stdout) as { diff: SavepointDiff }).diff;
    expect(diff.relation).toBe('same-savepoint');
    expect(diff.operators[0]!.states.flatMap((s) => s.savedSchemas)).toEqual([]);
  });
});
