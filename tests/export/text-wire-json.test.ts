/**
 * JSON Lines and CSV read Protobuf values from their wire bytes (write-protobuf-wire-json.ts) and leave
 * what the plain case does not cover to the full decoder. Both must give the same text as the decoded
 * path (every row formatted from the full decoder's message, formatJsonLinePieces / formatCsvRowPieces):
 * - on every Protobuf state of the fixture savepoints written by real Flink, the whole file, where the
 *   values must take the wire path (else this test would compare the decoder with itself);
 * - on crafted payloads (crafted-wire-payloads.ts): plain values written from the wire, each case the
 *   header names left to the decoder, and random payloads (fast-check, seeded) — the same JSON text and
 *   the same root unknown fields whenever the wire path answers.
 */
import { createFileRegistry, fromBinary, type DescMessage } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { openNodeInput } from '../../src/cli/sources';
import { exportState } from '../../src/core/export/export-state';
import { formatCsvHeader, formatCsvRowPieces, formatJsonLinePieces, listExportColumns } from '../../src/core/export/format-export-rows-text';
import { listExportRows } from '../../src/core/export/list-export-rows';
import { ProtobufWireJsonWriter } from '../../src/core/export/write-protobuf-wire-json';
import { createSnapshotRegistry, findOperator, inspectSavepoint, openSavepoint, scanState, type DecodedValue, type StateEntry } from '../../src/core/flink';
import { ByteReader } from '../../src/core/io';
import { getProtobufSnapshotContent, registerProtobufSnapshotReaders, type ProtobufSnapshotContent } from '../../src/core/protobuf';
import { buildDescriptorSet } from '../conformance/build-descriptor-set';
import { codecFor, framedEntry, payload, PROTO2, PROTO3, w, W, zigzag } from './crafted-wire-payloads';

const savepoints = [
  'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint',
  'fixtures/savepoints/flink-2.3/rocksdb/canonical/savepoint',
  'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint',
];

function findContent(s: Parameters<typeof getProtobufSnapshotContent>[0]): ProtobufSnapshotContent | undefined {
  const direct = getProtobufSnapshotContent(s);
  if (direct !== undefined) return direct;
  const found = s.nested.map(findContent).filter((c) => c !== undefined);
  return found.length === 1 ? found[0] : undefined;
}

describe('JSON Lines and CSV from wire bytes: the fixture savepoints', () => {
  for (const sp of savepoints) {
    it(`${sp}: every Protobuf state's JSON Lines and CSV equal the decoded path's`, async () => {
      const files = await openNodeInput(sp);
      const registry = createSnapshotRegistry();
      registerProtobufSnapshotReaders(registry);
      const opened = await openSavepoint(files);
      const inspection = await inspectSavepoint(opened, registry);
      let compared = 0;
      for (const op of inspection.operators) {
        for (const state of op.states) {
          const content = state.valueSerializer === undefined ? undefined : findContent(state.valueSerializer);
          if (state.status !== 'ok' || content === undefined) continue;
          // the decoded path: a decode-mode scan, every row formatted from the decoder's message
          const expected = { jsonl: '', csv: '' };
          const listState = state.kind === 'LIST';
          await scanState(
            opened,
            registry,
            { operatorId: op.id, states: state.name, scopes: [state.scope === 'keyed' ? 'keyed' : 'operator'] },
            {
              entry: (e) => {
                for (const row of listExportRows(e, listState)) {
                  const cols = listExportColumns(row);
                  if (expected.csv === '') expected.csv = formatCsvHeader(cols);
                  expected.jsonl += formatJsonLinePieces(row, cols).join('');
                  expected.csv += formatCsvRowPieces(row, cols).join('');
                }
              },
            },
            { values: { mode: 'decode' } },
          );
          if (expected.jsonl === '') continue;
          for (const format of ['jsonl', 'csv'] as const) {
            const chunks: Uint8Array[] = [];
            await exportState(opened, registry, { state, operator: op.id, format }, (c) => void chunks.push(c));
            expect(Buffer.concat(chunks).toString('utf8'), `${op.id} ${state.name} ${format}`).toBe(expected[format]);
          }
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(0);
    });
  }

  it('takes the wire path for the fixture values (a test comparing the decoder with itself could not fail)', async () => {
    const sp = 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint';
    const files = await openNodeInput(sp);
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    const inspection = await inspectSavepoint(await openSavepoint(files), registry);
    const state = inspection.operators.flatMap((o) => o.states).find((s) => s.name === 'last-event')!;
    const content = getProtobufSnapshotContent(state.valueSerializer!)!;
    const writer = new ProtobufWireJsonWriter(content.schema.root, content.settings.recursionLimit);
    const opened = await openSavepoint(files);
    const texts: (string | undefined)[] = [];
    await scanState(
      opened,
      registry,
      { operatorId: findOperator(opened, 'int-keyed')!.id, states: 'last-event' },
      {
        entry: (e) => {
          const f = e.value as Extract<DecodedValue, { kind: 'frame' }>;
          texts.push(writer.write(f.bytes, f.payloadStart, f.end));
        },
      },
      { values: { mode: 'frame' } },
    );
    // the five last events: one has a parent message (a nested Event), all carry root unknown fields 100/101
    expect(texts.length).toBe(5);
    expect(texts.every((t) => t !== undefined && t.startsWith('{'))).toBe(true);
  });
});

let value: DescMessage;
let old: DescMessage;

beforeAll(async () => {
  const set = await buildDescriptorSet({ 'wire/value.proto': PROTO3, 'legacy/old.proto': PROTO2 }, { excludeSourceInfo: true });
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, set));
  value = registry.getMessage('wire.Value')!;
  old = registry.getMessage('legacy.Old')!;
}, 60_000);

interface Compared {
  /** the wire path answered (else: the decoder's case) */
  wire: boolean;
  /** the decoder refused the payload */
  error: boolean;
}

/** The wire writer's text and root unknown fields against the decoded row's JSON line (the line both would make); which path the value took. */
function compare(root: DescMessage, payload: Uint8Array): Compared {
  const codec = codecFor(root);
  const entry = framedEntry(codec, payload, 7);
  const frame = entry.value as Extract<DecodedValue, { kind: 'frame' }>;
  const writer = new ProtobufWireJsonWriter(root, 100);
  const text = writer.write(frame.bytes, frame.payloadStart, frame.end);
  let decoded: DecodedValue;
  try {
    decoded = codec.decode(new ByteReader(frame.bytes, { file: 'crafted', baseOffset: 1000 }), 'decode');
  } catch {
    expect(text).toBeUndefined();
    return { wire: false, error: true };
  }
  if (text === undefined) return { wire: false, error: false };
  const [row] = listExportRows({ ...entry, value: decoded } as StateEntry, false);
  const cols = listExportColumns(row!);
  const wireRow = {
    ...row!,
    value: null,
    unknownFields: writer.unknown.map((u) => ({ path: '', number: u.number, wireType: u.wireType, bytes: frame.bytes.slice(u.start, u.end) })),
  };
  expect(formatJsonLinePieces(wireRow, cols, text).join('')).toBe(formatJsonLinePieces(row!, cols).join(''));
  expect(formatCsvRowPieces(wireRow, cols, text).join('')).toBe(formatCsvRowPieces(row!, cols).join(''));
  return { wire: true, error: false };
}

describe('JSON Lines and CSV from wire bytes: crafted values', () => {
  it('writes plain values from the wire: every scalar type, enums, nested and repeated messages, packed and unpacked lists, maps, oneofs, root unknown fields', () => {
    const inner = w().str(1, 'in "quoted"\n').tag(2, 0).varint(-7).msg(3, w().str(1, 'child'));
    const plain = w()
      .str(1, 'héllo ✓ 𝄞, "x" \\ \u0001')
      .bytes(2, [0, 1, 2, 255])
      .tag(3, 0)
      .varint(-5)
      .tag(4, 0)
      .varint(4_000_000_000)
      .tag(5, 0)
      .varint(zigzag(-3n))
      .tag(6, 0)
      .varint(-9_000_000_000_000_000_000n)
      .tag(7, 0)
      .varint(18_000_000_000_000_000_000n)
      .tag(8, 0)
      .varint(zigzag(-9_000_000_000_000n))
      .fixed32(9, 0xfffffff0)
      .fixed32(10, -2)
      .fixed64(11, 0xfffffffffffffff0n)
      .fixed64(12, -3n)
      .float(13, 0.1)
      .double(14, -2.25e-300)
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
      .msg(21, w().str(1, '10').tag(2, 0).varint(-6))
      .msg(
        21,
        w()
          .str(1, '2')
          .tag(2, 0)
          .varint(1n << 60n),
      )
      .msg(22, w().tag(1, 0).varint(9).msg(2, w().str(1, 'nine')))
      .msg(22, w().tag(1, 0).varint(-1))
      .msg(23, w().str(1, 'sky').tag(2, 0).varint(1))
      .msg(23, w().tag(2, 0).varint(9))
      .str(24, 'chosen')
      .tag(26, 0)
      .varint(0)
      .bytes(27, new W().varint(1).varint(5).out)
      .bytes(28, [...Buffer.from(new Float64Array([1, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]).buffer)])
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
      .varint(0)
      .bytes(18, []);
    const recursive = w().msg(29, w().msg(29, w().str(1, 'deep')));
    for (const p of [plain.payload, defaults.payload, new Uint8Array(0), recursive.payload]) expect(compare(value, p)).toEqual({ wire: true, error: false });
    // the text itself, for the cases a shared mistake of both paths would hide
    const writer = new ProtobufWireJsonWriter(value, 100);
    const text = writer.write(plain.payload, 0, plain.payload.length)!;
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(json['i64']).toBe('-9000000000000000000');
    expect(json['u64']).toBe('18000000000000000000');
    expect(json['u32']).toBe(4_000_000_000);
    expect(json['f64']).toBe('18446744073709551600');
    expect(json['counters']).toEqual({ '2': '1152921504606846976', '10': '-6', k1: '5' });
    expect(json['colors']).toEqual({ sky: 'RED', '': 9 });
    expect(json['doubles']).toEqual([1, 0, 'NaN', 'Infinity', '-Infinity']);
    expect(writer.unknown.map((u) => [u.number, u.wireType])).toEqual([
      [100, 0],
      [101, 2],
    ]);
    expect(writer.write(defaults.payload, 0, defaults.payload.length)).toBe('{"db":0,"numberChoice":"0"}');
  });

  const cases: [string, () => Uint8Array][] = [
    ['a singular scalar given twice (last wins)', () => w().tag(3, 0).varint(1).tag(3, 0).varint(2).payload],
    ['a message given twice (merged)', () => w().msg(17, w().str(1, 'a')).msg(17, w().tag(2, 0).varint(3)).payload],
    ['two members of a oneof (the last one stays)', () => w().str(24, 'a').tag(25, 0).varint(4).payload],
    [
      'a map key given twice (first place, last value)',
      () => w().msg(21, w().str(1, 'k').tag(2, 0).varint(1)).msg(21, w().str(1, 'k').tag(2, 0).varint(3)).payload,
    ],
    ['a map key __proto__', () => w().msg(21, w().str(1, '__proto__').tag(2, 0).varint(1)).payload],
    ['an unknown field inside a nested message', () => w().msg(17, w().str(1, 'a').tag(99, 0).varint(1)).payload],
    ['a string that is not UTF-8', () => w().bytes(1, [0xc3, 0x28]).payload],
    ['a truncated length', () => w().tag(1, 2).varint(10).raw(1, 2).payload],
    ['a group-encoded unknown field', () => w().tag(90, 3).tag(1, 0).varint(1).tag(90, 4).payload],
  ];
  for (const [name, payload] of cases) {
    it(`leaves ${name} to the full decoder`, () => {
      const p = payload();
      expect(new ProtobufWireJsonWriter(value, 100).write(p, 0, p.length)).toBeUndefined();
    });
  }

  it("leaves proto2 cases to the full decoder: a closed enum's unknown number, a group field, a missing required field", () => {
    const plain = w().tag(1, 0).varint(7).tag(2, 0).varint(2).str(3, 'n').bytes(4, new W().varint(1).varint(2).out).payload;
    expect(compare(old, plain)).toEqual({ wire: true, error: false });
    for (const p of [
      w().tag(1, 0).varint(8).tag(2, 0).varint(9).payload,
      w().tag(1, 0).varint(9).bytes(4, new W().varint(1).varint(7).out).payload,
      w().tag(1, 0).varint(10).tag(5, 3).tag(6, 0).varint(3).tag(5, 4).payload,
      w().str(3, 'no id').payload,
    ])
      expect(new ProtobufWireJsonWriter(old, 100).write(p, 0, p.length)).toBeUndefined();
  });
});

describe('JSON Lines and CSV from wire bytes: random payloads (fast-check, seeded)', () => {
  it("gives the decoded path's line for every payload the wire path answers, and answers most plain ones", () => {
    let wire = 0;
    let decoded = 0;
    let errors = 0;
    fc.assert(
      fc.property(payload, (p) => {
        const r = compare(value, p);
        if (r.wire) wire++;
        else if (r.error) errors++;
        else decoded++;
      }),
      { seed: 2112, numRuns: 600 },
    );
    // the generator reaches the wire path, the decoder's cases and its errors, each many times
    expect(wire).toBeGreaterThan(100);
    expect(decoded).toBeGreaterThan(15);
    expect(errors).toBeGreaterThan(100);
  });
});
