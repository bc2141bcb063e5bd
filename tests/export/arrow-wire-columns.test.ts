/**
 * The Arrow export reads Protobuf values from their wire bytes (append-protobuf-wire-value.ts) and
 * leaves what the plain case does not cover to the full decoder. Both must give the same table as
 * the decoded path (every row shaped from the full decoder's message, ArrowExportWriter.add):
 * - on every Protobuf state of the fixture savepoints written by real Flink, where most rows must
 *   take the wire path (else this test would compare the decoder with itself);
 * - on crafted payloads, each with the path it must take: plain values on the wire, and each case
 *   the header names (last-wins, merges, duplicate map keys, groups, nested unknown fields, closed
 *   enums, invalid UTF-8, cut-off recursion, bad payloads) through the decoder, the same rows or the
 *   same error — a payload the decoder refuses is kept as its bytes (`decodeFailed`), as a decode scan keeps it.
 */
import { createFileRegistry, fromBinary, type DescMessage } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { RecordBatchReader, Table } from 'apache-arrow';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { openNodeInput } from '../../src/cli/sources';
import { ArrowExportWriter } from '../../src/core/export/arrow-export-writer';
import { exportState } from '../../src/core/export/export-state';
import { listExportRows, listFramedExportRows } from '../../src/core/export/list-export-rows';
import {
  createSnapshotRegistry,
  encodeBase64,
  findOperator,
  inspectSavepoint,
  openSavepoint,
  scanState,
  type DecodedValue,
  type StateEntry,
} from '../../src/core/flink';
import { ByteReader } from '../../src/core/io';
import { getProtobufSnapshotContent, registerProtobufSnapshotReaders, type ProtobufSnapshotContent } from '../../src/core/protobuf';
import { buildDescriptorSet } from '../conformance/build-descriptor-set';
import { codecFor, framedEntry, payload, PROTO2, PROTO3, w, W, zigzag } from './crafted-wire-payloads';

/** The rows of an Arrow IPC export (one stream per batch) as plain JSON-able values. */
function readRows(chunks: readonly Uint8Array[]): { schema: string; rows: unknown[] } {
  const batches = [];
  let schema;
  for (const chunk of chunks) {
    for (const reader of RecordBatchReader.readAll(chunk)) {
      schema ??= reader.schema;
      for (const b of reader) batches.push(b);
    }
  }
  const table = new Table(schema!, batches);
  return { schema: table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`).join(', '), rows: table.toArray().map(toPlain) };
}

function toPlain(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Uint8Array) return `0x${Buffer.from(v).toString('hex')}`;
  if (typeof v === 'number' && Object.is(v, -0)) return '-0';
  if (typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    const j = (v as { toJSON(): unknown }).toJSON();
    if (Array.isArray(j)) return j.map(toPlain);
    return Object.fromEntries(Object.entries(j as object).map(([k, x]) => [k, toPlain(x)]));
  }
  if (Array.isArray(v)) return v.map(toPlain);
  return v;
}

describe('Arrow export from wire bytes: the fixture savepoints', () => {
  const savepoints = [
    'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint',
    'fixtures/savepoints/flink-2.3/rocksdb/canonical/savepoint',
    'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint',
  ];
  for (const sp of savepoints) {
    it(`${sp}: every Protobuf state's table equals the decoded path's`, async () => {
      const files = await openNodeInput(sp);
      const registry = createSnapshotRegistry();
      registerProtobufSnapshotReaders(registry);
      const opened = await openSavepoint(files);
      const inspection = await inspectSavepoint(opened, registry);
      let compared = 0;
      let wireRows = 0;
      for (const op of inspection.operators) {
        for (const state of op.states) {
          const content = state.valueSerializer === undefined ? undefined : findContent(state.valueSerializer);
          if (state.status !== 'ok' || content === undefined) continue;
          // the wire path, as the app's Query view runs it
          const wire: Uint8Array[] = [];
          const result = await exportState(opened, registry, { state, operator: op.id, format: 'arrow' }, (c) => void wire.push(c));
          // the decoded path: a decode-mode scan, every row shaped from the decoder's message
          const decoded: Uint8Array[] = [];
          let writer: ArrowExportWriter | undefined;
          const listState = state.kind === 'LIST';
          await scanState(
            opened,
            registry,
            { operatorId: op.id, states: state.name, scopes: [state.scope === 'keyed' ? 'keyed' : 'operator'] },
            {
              entry: (e) => {
                for (const row of listExportRows(e, listState)) {
                  writer ??= new ArrowExportWriter(
                    (c) => void decoded.push(c),
                    {
                      key: row.key !== undefined,
                      namespace: row.namespace !== undefined,
                      userKey: row.userKey !== undefined,
                      elementIndex: row.elementIndex !== undefined,
                    },
                    content.schema.root,
                  );
                  writer.add(row);
                }
              },
            },
            { values: { mode: 'decode' } },
          );
          writer?.finish();
          if (writer === undefined) continue;
          const a = readRows(wire);
          const b = readRows(decoded);
          expect(a.schema, `${op.id} ${state.name}`).toBe(b.schema);
          expect(a.rows, `${op.id} ${state.name}`).toEqual(b.rows);
          expect(a.rows.length).toBe(result.rows);
          compared++;
          wireRows += a.rows.length;
        }
      }
      expect(compared).toBeGreaterThan(0);
      expect(wireRows).toBeGreaterThan(0);
    });
  }

  it('takes the wire path for the fixture values (a test comparing the decoder with itself could not fail)', async () => {
    const message = await loadFixtureEvent();
    const sp = 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint';
    const files = await openNodeInput(sp);
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    const opened = await openSavepoint(files);
    const op = findOperator(opened, 'int-keyed')!;
    const writer = new ArrowExportWriter(() => undefined, { key: true, namespace: true, userKey: false, elementIndex: false }, message);
    await scanState(
      opened,
      registry,
      { operatorId: op.id, states: 'last-event' },
      { entry: (e) => void writer.addEntry(listFramedExportRows(e, false, message)) },
      { values: { mode: 'frame' } },
    );
    writer.finish();
    // the five last events: one has a parent message (a nested Event), all carry root unknown fields 100/101
    expect(writer.counts).toEqual({ wire: 5, decoded: 0 });
  });
});

async function loadFixtureEvent(): Promise<DescMessage> {
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  const inspection = await inspectSavepoint(await openSavepoint(await openNodeInput('fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint')), registry);
  const state = inspection.operators.flatMap((o) => o.states).find((s) => s.name === 'last-event')!;
  return getProtobufSnapshotContent(state.valueSerializer!)!.schema.root;
}

function findContent(s: Parameters<typeof getProtobufSnapshotContent>[0]): ProtobufSnapshotContent | undefined {
  const direct = getProtobufSnapshotContent(s);
  if (direct !== undefined) return direct;
  const found = s.nested.map(findContent).filter((c) => c !== undefined);
  return found.length === 1 ? found[0] : undefined;
}

// ---------------------------------------------------------------- crafted payloads (crafted-wire-payloads.ts)

let value: DescMessage;
let old: DescMessage;

beforeAll(async () => {
  const set = await buildDescriptorSet({ 'wire/value.proto': PROTO3, 'legacy/old.proto': PROTO2 }, { excludeSourceInfo: true });
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, set));
  value = registry.getMessage('wire.Value')!;
  old = registry.getMessage('legacy.Old')!;
}, 60_000);

interface Outcome {
  rows: unknown[];
  counts: { wire: number; decoded: number };
  error?: string;
}

/** Both paths over the payloads: the wire writer (frame entries) and the decoded writer (decode-mode rows). */
function runBoth(root: DescMessage, payloads: readonly Uint8Array[]): { wire: Outcome; decoded: Outcome } {
  const codec = codecFor(root);
  const cols = { key: true, namespace: false, userKey: false, elementIndex: false };
  const wireChunks: Uint8Array[] = [];
  const wireWriter = new ArrowExportWriter((c) => void wireChunks.push(c), cols, root);
  const decodedChunks: Uint8Array[] = [];
  const decodedWriter = new ArrowExportWriter((c) => void decodedChunks.push(c), cols, root);
  let wireError: string | undefined;
  let decodedError: string | undefined;
  payloads.forEach((p, i) => {
    const entry = framedEntry(codec, p, i);
    // a payload the decoder refuses is kept as its bytes (`decodeFailed`, the reason), as a decode scan keeps it: the error is the reason's
    const sources = listFramedExportRows(entry, false, root).map((s) => ({
      ...s,
      decode: () => {
        const row = s.decode();
        if (row.value?.kind === 'opaque' && row.value.decodeFailed === true) wireError ??= row.value.reason.replace(/^value could not be decoded: /, '');
        return row;
      },
    }));
    wireWriter.addEntry(sources);
    const bytes = new Uint8Array(4 + p.length);
    new DataView(bytes.buffer).setInt32(0, p.length);
    bytes.set(p, 4);
    let decodedValue: DecodedValue;
    try {
      decodedValue = codec.decode(new ByteReader(bytes, { file: 'crafted', baseOffset: 1000 }), 'decode');
    } catch (e) {
      decodedError ??= (e as Error).message;
      decodedValue = {
        kind: 'opaque',
        reason: `value could not be decoded: ${(e as Error).message}`,
        length: bytes.length,
        base64: encodeBase64(bytes),
        decodeFailed: true,
      };
    }
    for (const row of listExportRows({ ...entry, value: decodedValue } as StateEntry, false)) decodedWriter.add(row);
  });
  wireWriter.finish();
  decodedWriter.finish();
  return {
    wire: { rows: readRows(wireChunks).rows, counts: wireWriter.counts, ...(wireError === undefined ? {} : { error: wireError }) },
    decoded: { rows: readRows(decodedChunks).rows, counts: decodedWriter.counts, ...(decodedError === undefined ? {} : { error: decodedError }) },
  };
}

describe('Arrow export from wire bytes: crafted values', () => {
  it('writes plain values from the wire: every scalar type, enums, nested and repeated messages, packed and unpacked lists, maps, oneofs, root unknown fields', () => {
    const inner = w().str(1, 'in').tag(2, 0).varint(-7).msg(3, w().str(1, 'child'));
    const plain = w()
      .str(1, 'héllo ✓ 𝄞')
      .bytes(2, [0, 1, 2, 255])
      .tag(3, 0)
      .varint(-5)
      .tag(4, 0)
      .varint(4_000_000_000)
      .tag(5, 0)
      .varint(zigzag(-3n))
      .tag(6, 0)
      .varint(-9_000_000_000_000n)
      .tag(7, 0)
      .varint(18_000_000_000_000_000_000n)
      .tag(8, 0)
      .varint(zigzag(-9_000_000_000_000n))
      .fixed32(9, 0xfffffff0)
      .fixed32(10, -2)
      .fixed64(11, 0xfffffffffffffff0n)
      .fixed64(12, -3n)
      .float(13, 1.5)
      .double(14, -2.25)
      .tag(15, 0)
      .varint(1)
      .tag(16, 0)
      .varint(2)
      .msg(17, inner)
      .bytes(18, new W().varint(1).varint(-1).varint(300).out)
      .tag(18, 0)
      .varint(7)
      .str(19, 'a')
      .str(19, '')
      .str(19, 'c')
      .msg(20, w().str(1, 'x'))
      .msg(20, w())
      .msg(21, w().str(1, 'k1').tag(2, 0).varint(5))
      .msg(21, w().str(1, 'k2').tag(2, 0).varint(-6))
      .msg(22, w().tag(1, 0).varint(9).msg(2, w().str(1, 'nine')))
      .msg(22, w().tag(1, 0).varint(-1))
      .msg(23, w().str(1, 'sky').tag(2, 0).varint(1))
      .msg(23, w().tag(2, 0).varint(9))
      .str(24, 'chosen')
      .tag(26, 0)
      .varint(0)
      .bytes(27, new W().varint(1).varint(5).out)
      .bytes(28, [...Buffer.from(new Float64Array([1, -0, Number.NaN]).buffer)])
      .tag(100, 0)
      .varint(42)
      .str(101, 'extra');
    const defaults = w()
      .str(1, '')
      .bytes(2, [])
      .tag(3, 0)
      .varint(0)
      .tag(6, 0)
      .varint(0)
      .float(13, 0)
      .double(14, -0)
      .tag(15, 0)
      .varint(0)
      .tag(16, 0)
      .varint(0)
      .tag(25, 0)
      .varint(0);
    const recursive = w().msg(29, w().msg(29, w().str(1, 'deep')));
    const { wire, decoded } = runBoth(value, [plain.payload, defaults.payload, new Uint8Array(0), recursive.payload]);
    expect(decoded.error).toBeUndefined();
    expect(wire.error).toBeUndefined();
    expect(wire.rows).toEqual(decoded.rows);
    expect(wire.counts).toEqual({ wire: 4, decoded: 0 });
    const first = wire.rows[0] as { value: Record<string, unknown>; unknown_fields: unknown[] };
    expect(first.value['s']).toBe('héllo ✓ 𝄞');
    expect(first.value['u32']).toBe(-294967296);
    expect(first.value['u64']).toBe('-446744073709551616n');
    expect(first.value['s64']).toBe('-9000000000000n');
    expect(first.value['color']).toBe('GREEN');
    expect(first.value['colors']).toEqual([
      { key: 'sky', value: 'RED' },
      { key: '', value: 'UNKNOWN_ENUM_VALUE_Color_9' },
    ]);
    expect(first.value['packed']).toEqual([1, -1, 300, 7]);
    expect(first.value['explicit']).toBe(0);
    expect(first.unknown_fields).toEqual([
      { path: '', number: 100, wire_type: 0, bytes: '0xa0062a' },
      { path: '', number: 101, wire_type: 2, bytes: '0xaa06056578747261' },
    ]);
    // implicit-presence defaults written on the wire are not set fields; -0.0 is, and so is a oneof's default
    const second = wire.rows[1] as { value: Record<string, unknown> };
    expect([second.value['s'], second.value['b'], second.value['i32'], second.value['fl'], second.value['bo'], second.value['color']]).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(second.value['db']).toBe('-0');
    expect(second.value['number_choice']).toBe('0n');
  });

  const cases: [string, () => Uint8Array, 'decoded' | 'error'][] = [
    ['a singular scalar given twice (last wins)', () => w().tag(3, 0).varint(1).tag(3, 0).varint(2).payload, 'decoded'],
    ['a message given twice (merged)', () => w().msg(17, w().str(1, 'a')).msg(17, w().tag(2, 0).varint(3)).payload, 'decoded'],
    ['two members of a oneof (the last one stays)', () => w().str(24, 'a').tag(25, 0).varint(4).payload, 'decoded'],
    [
      'a map key given twice (first place, last value)',
      () => w().msg(21, w().str(1, 'k').tag(2, 0).varint(1)).msg(21, w().str(1, 'j').tag(2, 0).varint(2)).msg(21, w().str(1, 'k').tag(2, 0).varint(3)).payload,
      'decoded',
    ],
    [
      'an int map key given twice, once as a ten-byte varint',
      () =>
        w()
          .msg(22, w().tag(1, 0).varint(5))
          .msg(22, w().tag(1, 0).raw(0x85, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00)).payload,
      'decoded',
    ],
    ['an unknown field inside a nested message', () => w().msg(17, w().str(1, 'a').tag(99, 0).varint(1)).payload, 'decoded'],
    ['a string that is not UTF-8', () => w().bytes(1, [0xc3, 0x28]).payload, 'error'],
    ['a truncated length', () => w().tag(1, 2).varint(10).raw(1, 2).payload, 'error'],
    ['a malformed varint', () => w().tag(3, 0).raw(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01).payload, 'error'],
    ['an END_GROUP tag at the root', () => w().tag(3, 4).payload, 'error'],
    ['a field number 0', () => w().raw(0x02, 0x00).payload, 'error'],
    ['a group-encoded unknown field', () => w().tag(90, 3).tag(1, 0).varint(1).tag(90, 4).payload, 'decoded'],
  ];
  for (const [name, payload, expected] of cases) {
    it(`leaves ${name} to the full decoder: ${expected === 'error' ? 'the same error, the value kept as its bytes (a row without a value)' : 'the same rows'}`, () => {
      const p = payload();
      const { wire, decoded } = runBoth(value, [w().str(1, 'before').payload, p, w().str(1, 'after').payload]);
      expect(wire.rows).toEqual(decoded.rows);
      expect(wire.error).toBe(decoded.error);
      if (expected === 'error') {
        expect(decoded.error).toMatch(/Protobuf/);
        expect(wire.counts).toEqual({ wire: 2, decoded: 1 });
        expect((wire.rows as { value: unknown }[]).map((r) => r.value === null)).toEqual([false, true, false]);
      } else {
        expect(decoded.error).toBeUndefined();
        expect(wire.counts).toEqual({ wire: 2, decoded: 1 });
      }
    });
  }

  it("leaves proto2 cases to the full decoder: a closed enum's unknown number, a group field, a missing required field", () => {
    const plain = w().tag(1, 0).varint(7).tag(2, 0).varint(2).str(3, 'n').bytes(4, new W().varint(1).varint(2).out).payload;
    const closedUnknown = w().tag(1, 0).varint(8).tag(2, 0).varint(9).payload;
    const closedUnknownInList = w().tag(1, 0).varint(9).bytes(4, new W().varint(1).varint(7).out).payload;
    const group = w().tag(1, 0).varint(10).tag(5, 3).tag(6, 0).varint(3).tag(5, 4).payload;
    const { wire, decoded } = runBoth(old, [plain, closedUnknown, closedUnknownInList, group]);
    expect(decoded.error).toBeUndefined();
    expect(wire.rows).toEqual(decoded.rows);
    expect(wire.counts).toEqual({ wire: 1, decoded: 3 });
    const missing = runBoth(old, [w().str(3, 'no id').payload]);
    expect(missing.decoded.error).toMatch(/missing required fields: id/);
    expect(missing.wire.error).toBe(missing.decoded.error);
  });

  it('keeps a list element its decoder refuses as a row without a value (as a decode scan keeps it as its bytes), the other elements whole', () => {
    const codec = codecFor(value);
    const good = framedEntry(codec, w().str(1, 'ok').payload, 0);
    const bad = framedEntry(codec, w().tag(1, 2).varint(10).payload, 1);
    const entry = { ...good, value: { kind: 'list', items: [good.value, good.value, bad.value] } } as unknown as StateEntry;
    const chunks: Uint8Array[] = [];
    const writer = new ArrowExportWriter((c) => void chunks.push(c), { key: true, namespace: false, userKey: false, elementIndex: true }, value);
    writer.addEntry(listFramedExportRows({ ...good, value: { kind: 'list', items: [good.value] } } as unknown as StateEntry, true, value));
    writer.addEntry(listFramedExportRows(entry, true, value));
    writer.finish();
    const rows = readRows(chunks).rows as { element_index: number; value: unknown }[];
    expect(rows.map((r) => [r.element_index, r.value === null])).toEqual([
      [0, false],
      [0, false],
      [1, false],
      [2, true],
    ]);
  });
});

describe('Arrow export from wire bytes: random payloads (fast-check, seeded)', () => {
  it("gives the decoded path's rows or its error for every payload, whichever path each value takes", () => {
    let wireTaken = 0;
    let decodedTaken = 0;
    let errors = 0;
    fc.assert(
      fc.property(payload, (p) => {
        const { wire, decoded } = runBoth(value, [p]);
        // a refused payload is a row too (its bytes, decodeFailed), on both paths
        expect(wire.error).toBe(decoded.error);
        expect(wire.rows).toEqual(decoded.rows);
        wireTaken += wire.counts.wire;
        decodedTaken += wire.counts.decoded;
        if (decoded.error !== undefined) errors++;
      }),
      { seed: 2112, numRuns: 600 },
    );
    // the generator reaches the wire path, the decoder's cases and its errors, each many times
    // (seed 2112: 341 rows on the wire path, 23 decoded, 236 payloads the decoder refuses)
    expect(wireTaken).toBeGreaterThan(100);
    expect(decodedTaken).toBeGreaterThan(15);
    expect(errors).toBeGreaterThan(100);
  });
});
