import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { DescriptorProtoSchema, FileDescriptorProtoSchema, FileDescriptorSetSchema, type FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, formatHex, isDecodeError, type DecodeError } from '../../src/core/io';
import { createSnapshotRegistry, type SerializerSnapshot } from '../../src/core/flink';
import { readNestedSerializerSnapshot } from '../../src/core/flink/snapshots/read-serializer-snapshot';
import {
  computeSha256,
  DEFAULT_PROTOBUF_SETTINGS,
  describeProtobufSnapshots,
  formatProtobufSnapshotSummary,
  getProtobufSnapshotContent,
  normalizeDescriptorSet,
  normalizeSnapshotDescriptors,
  parseDescriptorSet,
  PROTOBUF_SNAPSHOT_CLASS,
  registerProtobufSnapshotReaders,
  writeProtobufSnapshotParts,
} from '../../src/core/protobuf';
import { JAVA_PARSE_MESSAGES as M } from '../../src/core/protobuf/protobuf-errors';
import { orderDescriptorFiles } from '../../src/core/protobuf/normalize-descriptor-set';
import { readProtobufSnapshotContent } from '../../src/core/protobuf/read-protobuf-snapshot';
import { writeProtobufSnapshot } from '../../src/core/protobuf/write-protobuf-snapshot';
import { type PbMessage } from '../../src/core/protobuf/protobuf-message-types';
import {
  buildGencodeDescriptorSet,
  buildTestDescriptorSet,
  ENTRY_NAME,
  ENVELOPE_CLASS,
  ENVELOPE_NAME,
  hex,
  writeEnvelopeSnapshot,
} from './protobuf-test-schemas';

const registry = createSnapshotRegistry();
registerProtobufSnapshotReaders(registry);

const gencode = normalizeSnapshotDescriptors(buildGencodeDescriptorSet('snapshot'), ENVELOPE_NAME);

interface PayloadParts {
  version?: number;
  framing?: number;
  normalization?: number;
  javaClass?: string;
  fullName?: string;
  flag?: number;
  max?: number;
  rec?: number;
  length?: number;
  descriptors?: Uint8Array;
  digest?: Uint8Array;
}

/** The envelope + payload built field by field (so invalid values can be written). */
function snapshotBytes(p: PayloadParts = {}): Uint8Array {
  const d = p.descriptors ?? gencode;
  return new ByteWriter()
    .utf(PROTOBUF_SNAPSHOT_CLASS)
    .i32(p.version ?? 1)
    .i32(p.framing ?? 1)
    .i32(p.normalization ?? 1)
    .utf(p.javaClass ?? ENVELOPE_CLASS)
    .utf(p.fullName ?? ENVELOPE_NAME)
    .u8(p.flag ?? 0)
    .i32(p.max ?? 67108864)
    .i32(p.rec ?? 100)
    .i32(p.length ?? d.length)
    .bytes(p.length !== undefined && p.length < 0 ? [] : d)
    .bytes(p.digest ?? computeSha256(d))
    .finish();
}

function readSnapshot(bytes: Uint8Array): SerializerSnapshot {
  return readNestedSerializerSnapshot(new ByteReader(bytes, { file: 'state' }), registry);
}

function readError(bytes: Uint8Array): DecodeError {
  try {
    readSnapshot(bytes);
  } catch (e) {
    if (isDecodeError(e)) return e;
    throw e;
  }
  throw new Error('expected a DecodeError');
}

/** Edits the normalized Envelope descriptor set as a message and re-serializes it. */
function editSet(edit: (set: FileDescriptorSet) => void): Uint8Array {
  const set = fromBinary(FileDescriptorSetSchema, gencode);
  edit(set);
  return toBinary(FileDescriptorSetSchema, set);
}

const cannot = (inner: string) => `Cannot read Protobuf snapshot: ${inner}`;

describe('ProtobufTypeSerializerSnapshot v1: writer reproduces the serializer', () => {
  it('writes the verified 824-byte Envelope fixture byte for byte (protobuf3/4-default SHA-256)', () => {
    const bytes = writeEnvelopeSnapshot();
    expect(bytes.length).toBe(824);
    expect(formatHex(computeSha256(bytes))).toBe('98aa599ff7341aa1bccadf10d3e818cbeba22da6c04357a56f1e2bf1247eb25b');
    // snapshot layout: descriptor length at 190 (598), digest at 792
    expect(new DataView(bytes.buffer).getInt32(190)).toBe(598);
    expect(formatHex(bytes.subarray(792, 796))).toBe('0b4ec24f');
  });

  it('writes the raised settings only into bytes 181-189 (protobuf3/4-raised SHA-256)', () => {
    const raised = writeEnvelopeSnapshot({ deterministic: true, maxMessageSize: 134217728, recursionLimit: 200 });
    expect(formatHex(computeSha256(raised))).toBe('a93249bc02155dcd0853996234b494781849668d11f38576ba2ef78bf1ea6229');
    expect(formatHex(raised.subarray(181, 190))).toBe('01080000000000' + '00c8');
  });

  it('normalizes runtime.proto to the predicted 224-byte descriptor set', () => {
    const bytes = normalizeSnapshotDescriptors(buildGencodeDescriptorSet('runtime'), ENTRY_NAME);
    expect(formatHex(bytes)).toBe(
      '0add010a0d72756e74696d652e70726f746f1216666c696e6b2e70726f746f6275662e72756e74696d6522660a05456e747279120f0a076f7264696e616c180120012805120d0a05636f756e74180220012805120f0a077061796c6f6164180320012809122c0a056368696c6418042001280b321d2e666c696e6b2e70726f746f6275662e72756e74696d652e456e74727942440a31696f2e6769746875622e666c696e6b2e6763702e70726f746f6275662e72756e74696d656170702e67656e657261746564420f52756e74696d654d65737361676573620670726f746f33',
    );
    expect(formatHex(computeSha256(bytes))).toBe('6f067bdd96c4aa983246e832d749c3edf83b3027759de8752975c611b4f532b9');
  });

  it('keeps protoc json_name when not stripped (the snapshot normalization does not drop it)', () => {
    const withJson = normalizeSnapshotDescriptors(buildTestDescriptorSet('runtime'), ENTRY_NAME);
    expect(withJson.length).toBeGreaterThan(224);
    expect(formatHex(computeSha256(withJson))).not.toBe('6f067bdd96c4aa983246e832d749c3edf83b3027759de8752975c611b4f532b9');
  });

  it('B23: refuses names over 65535 modified-UTF-8 bytes and descriptors over 64 MiB, emitting nothing', () => {
    const w = new ByteWriter();
    const longName = '\u0800'.repeat(21846);
    expect(() => writeProtobufSnapshotParts(w, longName, ENVELOPE_NAME, DEFAULT_PROTOBUF_SETTINGS, gencode)).toThrow(
      "Java binary class name exceeds writeUTF's 65535-byte limit",
    );
    expect(() => writeProtobufSnapshotParts(w, ENVELOPE_CLASS, longName, DEFAULT_PROTOBUF_SETTINGS, gencode)).toThrow(
      "Protobuf message full name exceeds writeUTF's 65535-byte limit",
    );
    expect(() => writeProtobufSnapshotParts(w, ENVELOPE_CLASS, ENVELOPE_NAME, DEFAULT_PROTOBUF_SETTINGS, new Uint8Array(67108865))).toThrow(
      'Invalid descriptor byte length: 67108865; maximum is 67108864',
    );
    expect(() => writeProtobufSnapshotParts(w, '', ENVELOPE_NAME, DEFAULT_PROTOBUF_SETTINGS, gencode)).toThrow('Empty Java binary class name');
    expect(w.length).toBe(0);
  });
});

describe('ProtobufTypeSerializerSnapshot v1: reader', () => {
  it('reads the snapshot through the registry with its details and a codec', () => {
    const bytes = writeEnvelopeSnapshot();
    const s = readSnapshot(bytes);
    expect(s.status).toBe('known');
    expect(s.typeLabel).toBe('Protobuf flink.protobuf.snapshot.Envelope');
    expect(s.fixedLength).toBe(-1);
    expect(s.range).toEqual({ offset: 0, length: 824 });
    expect(s.details).toEqual({
      javaClass: ENVELOPE_CLASS,
      rootFullName: ENVELOPE_NAME,
      settings: { deterministic: false, maxMessageSize: 67108864, recursionLimit: 100 },
      descriptorFiles: ['snapshot_dependency.proto', 'snapshot.proto'],
      descriptorBytes: 598,
      descriptorSha256: formatHex(computeSha256(gencode)),
    });
    const content = getProtobufSnapshotContent(s)!;
    expect(content.schema.root.typeName).toBe(ENVELOPE_NAME);
    // round trip: writing the read content again gives the same bytes
    const w = new ByteWriter();
    writeProtobufSnapshot(w, {
      javaClass: content.javaClass,
      rootFullName: content.rootFullName,
      settings: content.settings,
      descriptorSet: content.descriptorBytes,
    });
    expect(formatHex(w.finish())).toBe(formatHex(bytes));
    // the codec decodes the published example with the embedded descriptors
    const value = s.codec!.decode(new ByteReader(hex('00 00 00 1e 08 2a 12 07 0a 05 73 61 76 65 64 1a 02 08 07 20 01 2a 08 0a 06 6e 65 73 74 65 64 a0 06 63')));
    expect(value).toMatchObject({
      kind: 'message',
      typeName: ENVELOPE_NAME,
      payloadSize: 30,
      unknownFieldCount: 1,
      depth: 1,
      frame: { offset: 0, length: 34 },
    });
  });

  it('is found inside a MapSerializerSnapshot composite (MapState<String, Envelope>)', () => {
    const w = new ByteWriter()
      .utf('org.apache.flink.api.common.typeutils.base.MapSerializerSnapshot')
      .i32(3)
      .i32(911108)
      .i32(1)
      .i32(1333245)
      .i32(1)
      .i32(2)
      .utf('org.apache.flink.api.common.typeutils.base.StringSerializer$StringSerializerSnapshot')
      .i32(3)
      .bytes(writeEnvelopeSnapshot());
    const s = readSnapshot(w.finish());
    expect(s.nested.map((n) => n.typeLabel)).toEqual(['String', 'Protobuf flink.protobuf.snapshot.Envelope']);
    expect(s.nested[1]!.range!.length).toBe(824);
    const summaries = describeProtobufSnapshots(s);
    expect(summaries).toHaveLength(1);
    expect(formatProtobufSnapshotSummary(summaries[0]!)).toBe(
      `protobuf: java class ${ENVELOPE_CLASS}, root flink.protobuf.snapshot.Envelope, settings deterministic=false maxMessageSize=67108864 recursionLimit=100, descriptor files snapshot_dependency.proto, snapshot.proto`,
    );
  });

  it('fails every strict prefix of the payload with exactly "Truncated Protobuf snapshot"', () => {
    const payload = writeEnvelopeSnapshot().subarray(65);
    for (let k = 0; k < payload.length; k++) {
      let detail = '';
      try {
        readProtobufSnapshotContent(new ByteReader(payload.subarray(0, k)), 1);
      } catch (e) {
        detail = (e as DecodeError).detail;
      }
      expect(detail, `prefix ${k}`).toBe('Truncated Protobuf snapshot');
    }
  });

  const cases: { name: string; parts: PayloadParts; detail: string; offset?: number }[] = [
    {
      name: 'B14 content changed, old fingerprint kept',
      parts: { descriptors: editSet((s) => (s.file[0]!.package = 'x')), digest: computeSha256(gencode) },
      detail: cannot('Descriptor SHA-256 fingerprint mismatch'),
    },
    ...[-1, 0, 2, 2147483647].flatMap((v) => [
      { name: `B18 snapshot version ${v}`, parts: { version: v }, detail: cannot(`Unsupported Protobuf snapshot version: ${v}`), offset: 65 },
      { name: `B18 framing version ${v}`, parts: { framing: v }, detail: cannot(`Unsupported Protobuf framing version: ${v}`), offset: 65 },
      { name: `B18 normalization version ${v}`, parts: { normalization: v }, detail: cannot(`Unsupported Protobuf normalization version: ${v}`), offset: 69 },
    ]),
    { name: 'B19 empty Java class name', parts: { javaClass: '' }, detail: cannot('Empty Java binary class name'), offset: 73 },
    { name: 'B19 empty full name', parts: { fullName: '' }, detail: cannot('Empty Protobuf message full name'), offset: 147 },
    ...[2, 127, 255].map((f) => ({ name: `B19 flag ${f}`, parts: { flag: f }, detail: cannot(`Invalid deterministic serialization flag: ${f}`), offset: 181 })),
    ...[0, -1, -2147483648].flatMap((v) => [
      { name: `B19 maxMessageSize ${v}`, parts: { max: v }, detail: cannot(`maxMessageSize must be positive: ${v}`), offset: 182 },
      { name: `B19 recursionLimit ${v}`, parts: { rec: v }, detail: cannot(`recursionLimit must be positive: ${v}`), offset: 186 },
    ]),
    ...[-1, 0, 67108865, 2147483647].map((l) => ({
      name: `B19 descriptor length ${l}`,
      parts: { length: l },
      detail: cannot(`Invalid descriptor byte length: ${l}; maximum is 67108864`),
      offset: 190,
    })),
    { name: 'B20 descriptor bytes 0a 0a 01', parts: { descriptors: hex('0a 0a 01') }, detail: cannot(M.invalidTag), offset: 196 },
    {
      name: 'B20 empty set',
      parts: { descriptors: hex('9a 01 00') /* only an unknown field 19 */ },
      detail: cannot('Missing root message: flink.protobuf.snapshot.Envelope'),
    },
    {
      name: 'B20 dependency file missing',
      parts: { descriptors: editSet((s) => s.file.splice(0, 1)) },
      detail: cannot('Unresolved descriptor import: snapshot.proto -> snapshot_dependency.proto'),
    },
    {
      name: 'B20 conflicting duplicate',
      parts: { descriptors: editSet((s) => s.file.push(create(FileDescriptorProtoSchema, { ...s.file[0]!, package: 'other' }))) },
      detail: cannot('Conflicting descriptor file: snapshot_dependency.proto'),
    },
    {
      name: 'B20 dependency cycle',
      parts: { descriptors: editSet((s) => s.file[0]!.dependency.push('snapshot.proto')) },
      detail: cannot('Cyclic descriptor file imports'),
    },
    {
      name: 'B20 weak dependency index 3',
      parts: { descriptors: editSet((s) => s.file[1]!.weakDependency.push(3)) },
      detail: cannot('Invalid weak dependency index: snapshot.proto'),
    },
    {
      name: 'B20 public dependency index -1',
      parts: { descriptors: editSet((s) => s.file[1]!.publicDependency.push(-1)) },
      detail: cannot('Invalid descriptor graph: snapshot.proto: Invalid public dependency index.'),
    },
    {
      name: 'B20 type .missing.Message',
      parts: { descriptors: editSet((s) => (s.file[1]!.messageType[0]!.field[1]!.typeName = '.missing.Message')) },
      detail: cannot('Invalid descriptor graph: flink.protobuf.snapshot.Envelope.detail: ".missing.Message" is not defined.'),
    },
    {
      name: 'B20 extra unrelated file',
      parts: { descriptors: editSet((s) => s.file.push(create(FileDescriptorProtoSchema, { name: 'unrelated.proto', package: 'u', syntax: 'proto3' }))) },
      detail: cannot('Descriptor set contains files outside the root import closure'),
    },
    { name: 'B21 fullName missing.Root', parts: { fullName: 'missing.Root' }, detail: cannot('Missing root message: missing.Root') },
    { name: 'B22 descriptors followed by 0c', parts: { descriptors: new Uint8Array([...gencode, 0x0c]) }, detail: cannot(M.invalidEndTag), offset: 194 + 598 },
    {
      name: 'B22 descriptors followed by 0c 00',
      parts: { descriptors: new Uint8Array([...gencode, 0x0c, 0x00]) },
      detail: cannot(M.invalidEndTag),
      offset: 194 + 598,
    },
  ];
  it.each(cases)('$name', ({ parts, detail, offset }) => {
    const e = readError(snapshotBytes(parts));
    expect(e.code).toBe('protobuf');
    expect(e.detail).toBe(detail);
    if (offset !== undefined) expect(e.offset).toBe(offset);
    expect(e.file).toBe('state');
  });

  it('B12/B13: file order, source info and non-minimal varints do not change the normalized set', () => {
    const reordered = editSet((s) => {
      s.file.reverse();
      s.file[0]!.sourceCodeInfo = { $typeName: 'google.protobuf.SourceCodeInfo', location: [] } as never;
    });
    const nonMinimal = new Uint8Array([0x8a, 0x00, ...gencode.subarray(1)]);
    for (const d of [reordered, nonMinimal]) {
      const content = getProtobufSnapshotContent(readSnapshot(snapshotBytes({ descriptors: d })))!;
      expect(formatHex(content.schema.bytes)).toBe(formatHex(gencode));
    }
  });

  it('B24: accepts an unrelated message nested 99 levels deep and round-trips it byte for byte', () => {
    const nest = (levels: number) => {
      let msg = create(DescriptorProtoSchema, { name: 'Leaf' });
      for (let i = levels - 1; i >= 1; i--) msg = create(DescriptorProtoSchema, { name: `W${i}`, nestedType: [msg] });
      return msg;
    };
    const withNesting = (levels: number) =>
      editSet((s) => {
        s.file[1]!.messageType.push(nest(levels));
      });
    // a leaf inside 98 wrappers: set(0) → file(1) → W1(2) … W98(99) → Leaf(100) ≤ 101
    const bytes = snapshotBytes({ descriptors: withNesting(99) });
    const content = getProtobufSnapshotContent(readSnapshot(bytes))!;
    const w = new ByteWriter();
    writeProtobufSnapshot(w, { javaClass: ENVELOPE_CLASS, rootFullName: ENVELOPE_NAME, settings: content.settings, descriptorSet: content.descriptorBytes });
    expect(formatHex(w.finish())).toBe(formatHex(bytes));
    // the descriptor parser's recursion limit is 101: a leaf inside 99 wrappers (depth 101) is
    // still read, inside 100 wrappers (depth 102) it is not
    expect(getProtobufSnapshotContent(readSnapshot(snapshotBytes({ descriptors: withNesting(100) })))).toBeDefined();
    expect(readError(snapshotBytes({ descriptors: withNesting(101) })).detail).toBe(cannot(M.recursionLimit));
  });
});

describe('descriptor normalization', () => {
  it('A1: orders dependency-first with the lexically smallest ready file next', () => {
    const deps = new Map([
      ['root.proto', ['b.proto', 'a.proto']],
      ['b.proto', ['z.proto']],
      ['a.proto', []],
      ['z.proto', []],
    ]);
    expect(orderDescriptorFiles(deps)).toEqual(['a.proto', 'z.proto', 'b.proto', 'root.proto']);
  });

  it('A8: keeps a custom option as unknown field 50000 and includes google/protobuf/descriptor.proto', () => {
    const n = normalizeDescriptorSet(parseDescriptorSet(buildTestDescriptorSet('options')), 'flink.protobuf.options.OptionMessage');
    expect(n.fileNames).toEqual(['google/protobuf/descriptor.proto', 'options.proto']);
    const file = (n.set.fields.get(1)!.kind === 'list' ? (n.set.fields.get(1) as { values: PbMessage[] }).values : [])[1]!;
    const message = (file.fields.get(4) as { values: PbMessage[] }).values[0]!;
    const options = (message.fields.get(7) as { value: PbMessage }).value;
    expect(options.unknown.map((u) => [u.number, u.wireType, Buffer.from(u.value as Uint8Array).toString()])).toEqual([[50000, 2, 'retained metadata']]);
  });
});
