/**
 * Parquet reads Protobuf values from their wire bytes (shred-protobuf-wire-parquet.ts) and leaves what
 * the plain case does not cover to the full decoder. Both must give the same file, byte for byte, as the
 * decoded path (every row shaped from the full decoder's message, ParquetExportWriter.add), in both
 * layouts:
 * - on every Protobuf state of the fixture savepoints written by real Flink, the whole file, where the
 *   values must take the wire path (else this test would compare the decoder with itself);
 * - on crafted payloads (crafted-wire-payloads.ts): plain values shredded from the wire, each case the
 *   header names left to the decoder, and random payloads (fast-check, seeded, as the Arrow and text
 *   wire paths' property tests).
 */
import { createFileRegistry, fromBinary, type DescMessage } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import fc from 'fast-check';
import { parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import { openNodeInput } from '../../src/cli/sources';
import { exportState } from '../../src/core/export/export-state';
import { INCOMPLETE_METADATA_KEY } from '../../src/core/export/export-state-types';
import type { ParquetListLayout } from '../../src/core/export/export-types';
import { listExportRows, listFramedExportRows } from '../../src/core/export/list-export-rows';
import { ParquetExportWriter } from '../../src/core/export/parquet-export-writer';
import { createSnapshotRegistry, findOperator, inspectSavepoint, openSavepoint, scanState } from '../../src/core/flink';
import { getProtobufSnapshotContent, registerProtobufSnapshotReaders, type ProtobufSnapshotContent } from '../../src/core/protobuf';
import { buildDescriptorSet } from '../conformance/build-descriptor-set';
import { codecFor, framedEntry, payload, PROTO2, PROTO3, w, W, zigzag } from './crafted-wire-payloads';

const savepoints = [
  'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint',
  'fixtures/savepoints/flink-2.3/rocksdb/canonical/savepoint',
  'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint',
];
const layouts: ParquetListLayout[] = ['legacy', 'spec'];

function findContent(s: Parameters<typeof getProtobufSnapshotContent>[0]): ProtobufSnapshotContent | undefined {
  const direct = getProtobufSnapshotContent(s);
  if (direct !== undefined) return direct;
  const found = s.nested.map(findContent).filter((c) => c !== undefined);
  return found.length === 1 ? found[0] : undefined;
}

const concat = (chunks: readonly Uint8Array[]) => Buffer.concat(chunks);

describe('Parquet from wire bytes: the fixture savepoints', () => {
  for (const sp of savepoints) {
    it(`${sp}: every Protobuf state's Parquet file (both layouts) equals the decoded path's, byte for byte`, async () => {
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
          for (const layout of layouts) {
            const wire: Uint8Array[] = [];
            const result = await exportState(
              opened,
              registry,
              { state, operator: op.id, format: 'parquet', layout, rowGroupRows: 3 },
              (c) => void wire.push(c),
            );
            // the decoded path: a decode-mode scan, every row shaped from the decoder's message
            const decoded: Uint8Array[] = [];
            let writer: ParquetExportWriter | undefined;
            const listState = state.kind === 'LIST';
            await scanState(
              opened,
              registry,
              { operatorId: op.id, states: state.name, scopes: [state.scope === 'keyed' ? 'keyed' : 'operator'] },
              {
                entry: (e) => {
                  for (const row of listExportRows(e, listState)) {
                    writer ??= new ParquetExportWriter(
                      (c) => void decoded.push(c),
                      {
                        key: row.key !== undefined,
                        namespace: row.namespace !== undefined,
                        userKey: row.userKey !== undefined,
                        elementIndex: row.elementIndex !== undefined,
                      },
                      { layout, message: content.schema.root, javaClass: content.javaClass, rowGroupRows: 3 },
                    );
                    writer.add(row);
                  }
                },
              },
              { values: { mode: 'decode' } },
            );
            if (writer === undefined) continue;
            writer.finish(
              result.failures.length === 0 ? [] : [{ key: INCOMPLETE_METADATA_KEY, value: JSON.stringify({ rows: result.rows, reasons: result.failures }) }],
            );
            expect(concat(wire).equals(concat(decoded)), `${op.id} ${state.name} ${layout}`).toBe(true);
            compared++;
          }
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
    const message = getProtobufSnapshotContent(state.valueSerializer!)!.schema.root;
    const opened = await openSavepoint(files);
    for (const layout of layouts) {
      const writer = new ParquetExportWriter(() => undefined, { key: true, namespace: true, userKey: false, elementIndex: false }, { layout, message });
      await scanState(
        opened,
        registry,
        { operatorId: findOperator(opened, 'int-keyed')!.id, states: 'last-event' },
        { entry: (e) => void listFramedExportRows(e, false, message).forEach((s) => writer.addFramed(s.row, s.frame!) ?? writer.add(s.decode())) },
        { values: { mode: 'frame' } },
      );
      writer.finish();
      // the five last events: one has a parent message (a nested Event), all carry root unknown fields 100/101
      expect(writer.counts, layout).toEqual({ wire: 5, decoded: 0 });
    }
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

interface Outcome {
  file: Buffer;
  counts: { wire: number; decoded: number };
}

/** Both paths over the payloads in one file each: the wire path (frame entries, addFramed or the row decoded) and the decoded path (decode-mode rows). */
function runBoth(root: DescMessage, payloads: readonly Uint8Array[], layout: ParquetListLayout): { wire: Outcome; decoded: Outcome } {
  const codec = codecFor(root);
  const cols = { key: true, namespace: false, userKey: false, elementIndex: false };
  const wireChunks: Uint8Array[] = [];
  const wireWriter = new ParquetExportWriter((c) => void wireChunks.push(c), cols, { layout, message: root, rowGroupRows: 4 });
  const decodedChunks: Uint8Array[] = [];
  const decodedWriter = new ParquetExportWriter((c) => void decodedChunks.push(c), cols, { layout, message: root, rowGroupRows: 4 });
  payloads.forEach((p, i) => {
    const entry = framedEntry(codec, p, i);
    for (const s of listFramedExportRows(entry, false, root)) {
      if (wireWriter.addFramed(s.row, s.frame!) === undefined) wireWriter.add(s.decode());
      // a payload the decoder refuses is kept as its bytes (`decodeFailed`), as a decode scan keeps it
      decodedWriter.add(s.decode());
    }
  });
  wireWriter.finish();
  decodedWriter.finish();
  const counts = { ...wireWriter.counts };
  return { wire: { file: concat(wireChunks), counts }, decoded: { file: concat(decodedChunks), counts: { ...decodedWriter.counts } } };
}

describe('Parquet from wire bytes: crafted values', () => {
  it('shreds plain values from the wire: every scalar type, enums, nested and repeated messages, packed and unpacked lists, maps, oneofs, root unknown fields', async () => {
    const inner = w()
      .str(1, 'in')
      .tag(2, 0)
      .varint(-7)
      .msg(3, w().str(1, 'child'))
      .msg(3, w().msg(3, w().str(1, 'grandchild')));
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
      .msg(20, inner)
      .msg(21, w().str(1, 'k1').tag(2, 0).varint(5))
      .msg(21, w().str(1, 'k2').tag(2, 0).varint(-6))
      .msg(21, w().tag(2, 0).varint(1))
      .msg(22, w().tag(1, 0).varint(9).msg(2, w().str(1, 'nine')))
      .msg(22, w().tag(1, 0).varint(-1))
      .msg(23, w().str(1, 'sky').tag(2, 0).varint(1))
      .msg(23, w().tag(2, 0).varint(9))
      .msg(23, w().str(1, 'none'))
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
      .varint(0)
      .bytes(18, []);
    const recursive = w().msg(29, w().msg(29, w().str(1, 'deep')));
    const payloads = [plain.payload, defaults.payload, new Uint8Array(0), recursive.payload, plain.payload, inner.payload];
    for (const layout of layouts) {
      const { wire, decoded } = runBoth(value, payloads, layout);
      expect(wire.counts, layout).toEqual({ wire: 6, decoded: 0 });
      expect(wire.file.equals(decoded.file), layout).toBe(true);
    }
    // the values themselves, for the cases a shared mistake of both paths would hide
    const { wire } = runBoth(value, payloads, 'legacy');
    const rows = (await parquetReadObjects({ file: wire.file.buffer.slice(wire.file.byteOffset, wire.file.byteOffset + wire.file.length) as ArrayBuffer })) as {
      value: Record<string, unknown>;
    }[];
    const first = rows[0]!.value;
    expect(first['s']).toBe('héllo ✓ 𝄞');
    expect(first['u32']).toBe(-294967296);
    expect(first['u64']).toBe(-446744073709551616n);
    expect(first['color']).toBe('GREEN');
    expect(first['packed']).toEqual([1, -1, 300, 7]);
    expect(first['colors']).toEqual([
      { key: 'sky', value: 'RED' },
      { key: '', value: 'UNKNOWN_ENUM_VALUE_Color_9' },
      { key: 'none', value: 'COLOR_UNSPECIFIED' },
    ]);
    expect(rows[1]!.value['s']).toBeNull();
  });

  const cases: [string, () => Uint8Array][] = [
    ['a singular scalar given twice (last wins)', () => w().tag(3, 0).varint(1).tag(3, 0).varint(2).payload],
    ['a message given twice (merged)', () => w().msg(17, w().str(1, 'a')).msg(17, w().tag(2, 0).varint(3)).payload],
    ['two members of a oneof (the last one stays)', () => w().str(24, 'a').tag(25, 0).varint(4).payload],
    [
      'a map key given twice (first place, last value)',
      () => w().msg(21, w().str(1, 'k').tag(2, 0).varint(1)).msg(21, w().str(1, 'j').tag(2, 0).varint(2)).msg(21, w().str(1, 'k').tag(2, 0).varint(3)).payload,
    ],
    ['an unknown field inside a nested message', () => w().msg(17, w().str(1, 'a').tag(99, 0).varint(1)).payload],
    ['a message the schema cuts off by recursion', () => [...Array(7).keys()].reduce((m) => w().msg(29, m), w().str(1, 'deepest')).payload],
    ['a string that is not UTF-8', () => w().bytes(1, [0xc3, 0x28]).payload],
    ['a truncated length', () => w().tag(1, 2).varint(10).raw(1, 2).payload],
    ['a group-encoded unknown field', () => w().tag(90, 3).tag(1, 0).varint(1).tag(90, 4).payload],
  ];
  for (const [name, payload] of cases) {
    it(`leaves ${name} to the full decoder: the same file`, () => {
      for (const layout of layouts) {
        const { wire, decoded } = runBoth(value, [w().str(1, 'before').payload, payload(), w().str(1, 'after').payload], layout);
        expect(wire.counts, layout).toEqual({ wire: 2, decoded: 1 });
        expect(wire.file.equals(decoded.file), layout).toBe(true);
      }
    });
  }

  it("leaves proto2 cases to the full decoder: a closed enum's unknown number, a group field, a missing required field", () => {
    const plain = w().tag(1, 0).varint(7).tag(2, 0).varint(2).str(3, 'n').bytes(4, new W().varint(1).varint(2).out).payload;
    const closedUnknown = w().tag(1, 0).varint(8).tag(2, 0).varint(9).payload;
    const closedUnknownInList = w().tag(1, 0).varint(9).bytes(4, new W().varint(1).varint(7).out).payload;
    const group = w().tag(1, 0).varint(10).tag(5, 3).tag(6, 0).varint(3).tag(5, 4).payload;
    const missing = w().str(3, 'no id').payload;
    for (const layout of layouts) {
      const { wire, decoded } = runBoth(old, [plain, closedUnknown, closedUnknownInList, group, missing], layout);
      expect(wire.counts, layout).toEqual({ wire: 1, decoded: 4 });
      expect(wire.file.equals(decoded.file), layout).toBe(true);
    }
  });
});

describe('Parquet from wire bytes: random payloads (fast-check, seeded)', () => {
  // a file per run (its footer, a column chunk per leaf) costs more than a row: several payloads per file, 600 payloads in all
  it("gives the decoded path's file for every payload, whichever path each value takes", { timeout: 600_000 }, () => {
    let wireTaken = 0;
    let decodedTaken = 0;
    fc.assert(
      fc.property(fc.array(payload, { minLength: 6, maxLength: 6 }), fc.constantFrom<ParquetListLayout>('legacy', 'spec'), (ps, layout) => {
        const { wire, decoded } = runBoth(value, ps, layout);
        expect(wire.file.equals(decoded.file)).toBe(true);
        wireTaken += wire.counts.wire;
        decodedTaken += wire.counts.decoded;
      }),
      { seed: 2112, numRuns: 100 },
    );
    // the generator reaches the wire path and the decoder's cases (its errors too: rows without a value), each many times
    expect(wireTaken).toBeGreaterThan(100);
    expect(decodedTaken).toBeGreaterThan(100);
  });
});
