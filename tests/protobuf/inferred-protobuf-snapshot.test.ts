/**
 * Serializer versions not yet seen (issue #17): a snapshot class no reader knows whose bytes carry a root message
 * name and a descriptor set is read by structure — on synthetic variants built with the test writer (the 0.1.0
 * payload under another class name, the set's length as a varint or a u16, a DynamicMessage snapshot without a
 * Java class) — its values decode, `check` runs the directional rules on the schema found, and every answer says
 * it is inferred (which offsets, what was not read, what was not checked) and fails `check`. Bytes that only
 * look like a set are not inferred: the state stays an unknown serializer with its class.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { createSnapshotRegistry } from '../../src/core/flink';
import { readKeyedStateHeader } from '../../src/core/flink/headers/read-keyed-state-header';
import { ByteReader, ByteWriter } from '../../src/core/io';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import {
  INFERRED_SAVED_SET,
  writeInferredProtobufSavepoint,
  writeInferredSnapshotContent,
  type InferredLayout,
} from '../helpers/write-inferred-protobuf-savepoint';
import { CLS, list, simple, valueState, writeKeyedHeader } from '../helpers/write-test-snapshots';

const OPERATOR = 'b'.repeat(32);
const V1_CLASS = 'io.github.flink.gcp.protobuf.v1.ProtobufSerializerSnapshot';
let dir = '';

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

async function savepoint(name: string, className: string, layout: InferredLayout): Promise<string> {
  const at = path.join(dir, name);
  writeInferredProtobufSavepoint(at, className, layout);
  return at;
}

interface InspectedJson {
  operators: {
    states: {
      name: string;
      status: string;
      valueSerializer: string;
      valueType: string;
      valueSerializerStatus: string;
      protobuf:
        | {
            javaClass: string | null;
            settings: unknown;
            inferred?: { read: { what: string; offset: number; length: number; encoding?: string }[]; notRead: string[] };
          }[]
        | null;
    }[];
    warnings: string[];
  }[];
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'inferred-snapshot-'));
  await writeFile(path.join(dir, 'same.binpb'), INFERRED_SAVED_SET);
  // the new schema changes field n from int64 to string: the directional rules reject it
  await writeFile(
    path.join(dir, 'changed.binpb'),
    toBinary(
      FileDescriptorSetSchema,
      create(FileDescriptorSetSchema, {
        file: [
          {
            name: 'v.proto',
            package: 'p',
            syntax: 'proto3',
            options: { javaPackage: 'p', javaOuterClassname: 'V' },
            messageType: [
              {
                name: 'Val',
                field: [
                  { name: 'n', number: 1, label: 1, type: 9, jsonName: 'n' },
                  { name: 's', number: 2, label: 1, type: 9, jsonName: 's' },
                ],
              },
            ],
          },
        ],
      }),
    ),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a snapshot class not yet seen, read by structure', () => {
  it('the 0.1.0 payload under another class name: inspect says what was read at which offset and what not', async () => {
    const sp = await savepoint('v010', V1_CLASS, { kind: 'v010' });
    const { code, stdout } = await cli(['inspect', sp, '--format', 'json']);
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as InspectedJson;
    const state = doc.operators[0]!.states[0]!;
    expect([state.valueSerializer, state.valueSerializerStatus, state.valueType]).toEqual([
      V1_CLASS,
      'known',
      'Protobuf p.Val (inferred from unknown ProtobufSerializerSnapshot)',
    ]);
    expect([state.protobuf![0]!.javaClass, state.protobuf![0]!.settings]).toEqual(['p.V$Val', null]);
    const inferred = state.protobuf![0]!.inferred!;
    // the envelope (proxy version 4 + class name 2+59 + version 4) ends at 69 after the state header's prefix
    expect(inferred.read.map((r) => [r.what, r.length, r.encoding])).toEqual([
      ['Java class p.V$Val', 9, 'modified UTF-8 (writeUTF)'],
      ['root message p.Val', 7, 'modified UTF-8 (writeUTF)'],
      ['descriptor set (1 file, 65 bytes)', 69, 'length as int32 big-endian'],
      ['SHA-256 of the descriptor set (matches)', 32, undefined],
    ]);
    const [cls, root, set, digest] = inferred.read;
    expect([root!.offset - cls!.offset, set!.offset - root!.offset, digest!.offset - set!.offset]).toEqual([9, 7 + 9, 69]);
    expect(inferred.notRead).toEqual([
      `8 bytes at offset ${cls!.offset - 8}: not recognised`,
      `9 bytes at offset ${root!.offset + 7}: not recognised`,
      'the serializer settings (deterministic, maxMessageSize, recursionLimit, largePayloadAliasing): not located, so the limit rules are not checked; values are read with the defaults',
      'the value framing: assumed to be the 0.1.0 one (4-byte big-endian length + payload); a value that does not fit it is shown as bytes',
    ]);
    expect(state.status).toBe('ok');
    expect(doc.operators[0]!.warnings).toEqual([
      `state v: unknown serializer snapshot ${V1_CLASS} v1 read by structure (inferred, not exact: see the snapshot's inferred details)`,
    ]);
    const text = await cli(['inspect', sp]);
    expect(text.stdout).toContain(
      'protobuf (INFERRED by structure: a modified-UTF-8 root name and a length-prefixed descriptor set in the bytes of unknown snapshot class io.github.flink.gcp.protobuf.v1.ProtobufSerializerSnapshot v1; not exact)',
    );
  });

  it('its values decode with the 0.1.0 framing, each labelled inferred', async () => {
    const sp = await savepoint('v010-dump', V1_CLASS, { kind: 'v010' });
    const { code, stdout } = await cli(['dump', sp, '--operator', OPERATOR, '--state', 'v', '--format', 'json']);
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as { entries: { key: unknown; value: { json: unknown }; protobuf: { typeName: string; inferred?: string }[] }[] };
    expect(doc.entries.map((e) => [e.key, e.value.json, e.protobuf[0]!.typeName, e.protobuf[0]!.inferred])).toEqual([
      [{ kind: 'long', value: '1' }, { n: '7' }, 'p.Val', `INFERRED: schema and framing from unknown snapshot class ${V1_CLASS} read by structure`],
      [{ kind: 'long', value: '2' }, { n: '42', s: 'hi' }, 'p.Val', `INFERRED: schema and framing from unknown snapshot class ${V1_CLASS} read by structure`],
    ]);
  });

  it('check: the directional rules run on the schema found; compatible is inferred and still exits 1, the limit rules not checked', async () => {
    const sp = await savepoint('v010-check', V1_CLASS, { kind: 'v010' });
    // a lower maxMessageSize would be MAX_MESSAGE_SIZE_DECREASED against a read snapshot: here the settings were not read
    const { code, stdout } = await cli([
      'check',
      sp,
      '--descriptors',
      path.join(dir, 'same.binpb'),
      '--target',
      '1.x',
      '--max-message-size',
      '1024',
      '--format',
      'json',
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as {
      verdict: string;
      summary: Record<string, number>;
      states: {
        verdict: string;
        ruleSet: string;
        findings: { ruleId: string }[];
        inferred?: { notChecked: string[]; read: unknown[] };
        valuesScanned?: number;
      }[];
    };
    expect(report.summary).toMatchObject({ protobufStates: 1, compatible: 1, inferred: 1 });
    const state = report.states[0]!;
    expect([state.verdict, state.ruleSet, state.valuesScanned]).toEqual(['compatible', 'directional', 2]);
    expect(state.findings.map((f) => f.ruleId)).not.toContain('MAX_MESSAGE_SIZE_DECREASED');
    expect(state.inferred!.notChecked[0]).toBe(
      'the limit and settings rules (MAX_MESSAGE_SIZE_*, RECURSION_LIMIT_*, DETERMINISTIC_SERIALIZATION_CHANGED, LARGE_PAYLOAD_ALIASING_CHANGED): the saved settings were not located',
    );
    const text = await cli(['check', sp, '--descriptors', path.join(dir, 'same.binpb'), '--target', '1.x']);
    expect(text.stdout.split('\n')[0]).toBe('Verdict: unknown (INFERRED for 1 state(s): not exact, check exits 1)');
    expect(report.verdict).toBe('unknown');
    expect(text.stdout).toContain(`[compatible (INFERRED)] ${OPERATOR} / v (VALUE_SERIALIZER, ${V1_CLASS})`);
    const markdown = await cli(['check', sp, '--descriptors', path.join(dir, 'same.binpb'), '--target', '1.x', '--format', 'markdown']);
    expect(markdown.stdout).toContain(`## ${OPERATOR} / v: compatible (INFERRED)`);
    // CI formats fail it too: a JUnit failure, a GitHub error annotation
    const junit = await cli(['check', sp, '--descriptors', path.join(dir, 'same.binpb'), '--target', '1.x', '--format', 'junit']);
    expect(junit.stdout).toContain('failures="1"');
    expect(junit.stdout).toContain('<failure type="INFERRED" message="compatible (INFERRED): the snapshot was read by structure, the verdict is not exact">');
    const github = await cli(['check', sp, '--descriptors', path.join(dir, 'same.binpb'), '--target', '1.x', '--format', 'github']);
    expect(github.stdout).toContain(`::error file=same.binpb,title=${OPERATOR} / v%3A compatible (INFERRED)::compatible%0AINFERRED, not exact`);
  });

  it('check: a schema change the directional rules reject is incompatible (INFERRED)', async () => {
    const sp = await savepoint('v010-changed', V1_CLASS, { kind: 'v010' });
    const { code, stdout } = await cli(['check', sp, '--descriptors', path.join(dir, 'changed.binpb'), '--target', '1.x', '--no-values']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/\[INCOMPATIBLE \(INFERRED\)\] b+ \/ v/);
    expect(stdout).toMatch(/first incompatibility \[FIELD_TYPE_CHANGED\]/);
  });

  it('the set with a varint length and settings after it: found, and the bytes after it named as not read', async () => {
    const sp = await savepoint('varint', 'com.example.protobuf.NextSnapshot', { kind: 'reordered', encoding: 'varint', javaClass: 'p.V$Val' });
    const doc = JSON.parse((await cli(['inspect', sp, '--format', 'json'])).stdout) as InspectedJson;
    const inferred = doc.operators[0]!.states[0]!.protobuf![0]!.inferred!;
    expect(inferred.read.map((r) => [r.what, r.encoding])).toEqual([
      ['Java class p.V$Val', 'modified UTF-8 (writeUTF)'],
      ['root message p.Val', 'modified UTF-8 (writeUTF)'],
      ['descriptor set (1 file, 65 bytes)', 'length as varint'],
    ]);
    const set = inferred.read[2]!;
    expect(inferred.notRead.at(-1)).toBe(
      `9 bytes at offset ${set.offset + set.length} (after the recognised structure, before the header goes on) not read: their meaning is not known`,
    );
    const dump = await cli(['dump', sp, '--operator', OPERATOR, '--state', 'v']);
    expect(dump.stdout).toContain('value: {"n":"42","s":"hi"}');
  });

  it('a DynamicMessage snapshot without a Java class, the set length as a u16: type kind dynamic', async () => {
    const sp = await savepoint('dynamic', 'com.example.DynamicProtobufSnapshot', { kind: 'reordered', encoding: 'u16' });
    const doc = JSON.parse((await cli(['inspect', sp, '--format', 'json'])).stdout) as InspectedJson;
    const inferred = doc.operators[0]!.states[0]!.protobuf![0]!.inferred!;
    expect(inferred.read.map((r) => r.encoding)).toEqual(['modified UTF-8 (writeUTF)', 'length as u16 (writeUTF-style)']);
    expect(inferred.notRead).toContain('no Java class name: taken as a DynamicMessage state');
    expect(doc.operators[0]!.states[0]!.protobuf![0]!.javaClass).toBeNull();
    const { code, stdout } = await cli(['check', sp, '--descriptors', path.join(dir, 'same.binpb'), '--target', '1.x', '--format', 'json']);
    expect(code).toBe(1);
    const state = (
      JSON.parse(stdout) as { states: { verdict: string; savedJavaClass?: string; findings: { ruleId: string }[]; inferred: { notChecked: string[] } }[] }
    ).states[0]!;
    expect([state.verdict, state.savedJavaClass]).toEqual(['compatible', undefined]);
    expect(state.inferred.notChecked).toContain('the Java class: none was found, so the state is taken as a DynamicMessage one (type kind dynamic)');
  });

  it('bytes that look like a descriptor set but are not one: not inferred, an unknown serializer with its class', async () => {
    const sp = await savepoint('fake', 'com.example.FakeSnapshot', { kind: 'fake-set' });
    const doc = JSON.parse((await cli(['inspect', sp, '--format', 'json'])).stdout) as InspectedJson;
    const state = doc.operators[0]!.states[0]!;
    expect([state.status, state.valueSerializer, state.valueSerializerStatus, state.protobuf]).toEqual([
      'unknown',
      'com.example.FakeSnapshot',
      'unknown',
      null,
    ]);
    const dump = await cli(['dump', sp, '--operator', OPERATOR, '--state', 'v']);
    expect(dump.stdout).toContain('value: opaque(6 bytes: unknown serializer snapshot com.example.FakeSnapshot v1)');
  });

  it('nested in a List composite: the composite is read again around the inferred snapshot', () => {
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    const content = writeInferredSnapshotContent({ kind: 'v010' });
    const header = writeKeyedHeader(new ByteWriter(), simple(CLS.long), [
      valueState('events', list({ raw: V1_CLASS, version: 1, content: (w) => w.bytes(content) }), simple(CLS.voidNs), 'LIST'),
    ]).finish();
    const h = readKeyedStateHeader(new ByteReader(header, { file: 's' }), registry, { fence: header.length });
    const value = h.states[0]!.serializers.VALUE_SERIALIZER!;
    expect([value.className, value.status, value.typeLabel]).toEqual([
      CLS.list,
      'known',
      'List<Protobuf p.Val (inferred from unknown ProtobufSerializerSnapshot)>',
    ]);
    expect(value.nested[0]!.details?.['inferred']).toBeDefined();
    expect(h.warnings).toEqual([
      `state events: unknown serializer snapshot ${V1_CLASS} v1 read by structure (inferred, not exact: see the snapshot's inferred details)`,
    ]);
  });
});
