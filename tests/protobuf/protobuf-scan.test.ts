import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeScanFinding } from '../../src/core/compat';
import { buildProtobufScanIndex, createProtobufFieldLog, createProtobufStateScan, decodeProtobufPayload, scanProtobufPayload } from '../../src/core/protobuf';
import { collectProtobufUnknownFields } from '../../src/core/protobuf/collect-protobuf-fields';
import { JAVA_PARSE_MESSAGES as M, ProtobufParseError } from '../../src/core/protobuf/protobuf-errors';
import { ENVELOPE_NAME, hex, loadTestSchema, RECURSIVE_SAMPLE_PAYLOADS } from './protobuf-test-schemas';

const recursive = loadTestSchema('serializer', 'flink.protobuf.serializer.RecursiveMessage').root;
const envelope = loadTestSchema('snapshot', ENVELOPE_NAME).root;
const recursiveIndex = buildProtobufScanIndex(recursive);
const legacy = loadTestSchema('legacy', 'flink.protobuf.legacy.LegacyMessage').root;
const legacyIndex = buildProtobufScanIndex(legacy);
const envelopeIndex = buildProtobufScanIndex(envelope);
const limits = { maxMessageSize: 1 << 20, recursionLimit: 100 };

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}
function lenField(tag: number, body: number[]): number[] {
  return [...varint(tag), ...varint(body.length), ...body];
}

describe('scanProtobufPayload: the structural scan', () => {
  it('measures the published Envelope example like the full decoder', () => {
    const payload = hex('08 2a 12 07 0a 05 73 61 76 65 64 1a 02 08 07 20 01 2a 08 0a 06 6e 65 73 74 65 64 a0 06 63');
    const s = scanProtobufPayload(payload, envelopeIndex, { ...limits, root: envelope });
    expect(s).toEqual({
      payloadSize: 30,
      depth: 1,
      unknownFields: 1,
      unknownBytes: 3,
      aliasableFields: 0,
      aliasableBytes: 0,
      large: false,
      aliased: false,
      keptAliveBytes: 0,
      extraWireBytes: 0,
      reusedDeclaredNumbers: 0,
      numbersTooLarge: 0,
    });
  });

  it('models large-payload aliasing: bytes fields and unknown length-delimited fields of a payload above 4 KiB', () => {
    // payload = 5000 bytes, text = 100 × 'a', unknown field 100 = 10 bytes
    const body = [...lenField(0x2a, new Array(5000).fill(7)), ...lenField(0x42, new Array(100).fill(0x61)), ...lenField(0x322, new Array(10).fill(1))];
    const s = scanProtobufPayload(Uint8Array.from(body), recursiveIndex, { ...limits, root: recursive });
    expect(s.payloadSize).toBe(body.length);
    expect(s.large).toBe(true);
    expect(s.aliased).toBe(true);
    expect(s.aliasableFields).toBe(2);
    expect(s.aliasableBytes).toBe(5010);
    expect(s.keptAliveBytes).toBe(body.length);
    expect(s.extraWireBytes).toBe(body.length - 5010);
    // at most 4 KiB never shares storage
    const small = scanProtobufPayload(Uint8Array.from(lenField(0x2a, new Array(4093).fill(1))), recursiveIndex, limits);
    expect(small.payloadSize).toBe(4096);
    expect([small.large, small.aliased, small.keptAliveBytes]).toEqual([false, false, 0]);
    // empty bytes are not aliased
    expect(scanProtobufPayload(hex('2a 00'), recursiveIndex, limits).aliasableFields).toBe(0);
  });

  it('counts bytes values inside nested messages, lists and maps', () => {
    // child{payload=3 bytes}, chunks=[2 bytes, 1 byte]
    const s = scanProtobufPayload(hex('0a 05 2a 03 01 02 03 32 02 01 02 32 01 09'), recursiveIndex, limits);
    expect([s.aliasableFields, s.aliasableBytes, s.depth]).toEqual([3, 6, 1]);
  });

  it('flags a declared field written after unknown fields or out of order (UNKNOWN_REUSES_DECLARED_NUMBER)', () => {
    const payload = hex('42 01 61 a0 06 01 42 01 62'); // text, unknown 100, text again
    const s = scanProtobufPayload(payload, recursiveIndex, limits);
    expect(s.reusedDeclaredNumbers).toBe(1);
    expect(s.reuseExample).toEqual({ typeName: 'flink.protobuf.serializer.RecursiveMessage', number: 8 });
    // the reader merges it into the declared field (last value wins)
    expect(decodeProtobufPayload(payload, recursive, limits).message.fields.get(8)!.ranges).toHaveLength(2);
    expect(scanProtobufPayload(hex('58 01 42 01 61'), recursiveIndex, limits).reusedDeclaredNumbers).toBe(1);
    // a second member of a oneof (a = 9, then b = 10, in field order) can only come from the unknown set
    expect(scanProtobufPayload(hex('48 05 52 01 78'), recursiveIndex, limits).reuseExample).toEqual({
      typeName: 'flink.protobuf.serializer.RecursiveMessage',
      number: 10,
    });
    // in order, repeated unpacked elements and map entries are fine
    expect(scanProtobufPayload(hex('38 01 38 02 42 01 61 a0 06 01'), recursiveIndex, limits).reusedDeclaredNumbers).toBe(0);
  });

  it('counts out-of-writer-order declared fields exactly as the rule reads (property: random field sequences, field log on and off)', () => {
    // the value warning's rule, straight from the descriptor: a declared field is out of
    // writer order after an unknown field (an undeclared closed-enum value counts as one), below the
    // number before it, equal to it unless repeated, or as a second member of one oneof; closed enums
    // and map entries are not checked themselves
    const expectOrder = (desc: typeof recursive, fields: { no: number; closedUnknown: boolean }[]) => {
      let sawUnknown = false;
      let lastNo = 0;
      const oneofs = new Set<unknown>();
      let reused = 0;
      let example: number | undefined;
      const known: number[] = [];
      for (const { no, closedUnknown } of fields) {
        const field = desc.fields.find((f) => f.number === no);
        if (field === undefined) {
          sawUnknown = true;
          continue;
        }
        const closed = (field.fieldKind === 'enum' || (field.fieldKind === 'list' && field.listKind === 'enum')) && !field.enum!.open;
        if (closed) {
          if (closedUnknown) sawUnknown = true;
          lastNo = no;
          continue;
        }
        const repeated = field.fieldKind === 'list' || field.fieldKind === 'map';
        if (sawUnknown || no < lastNo || (no === lastNo && !repeated) || (field.oneof !== undefined && oneofs.has(field.oneof))) {
          reused++;
          example ??= no;
        }
        if (field.oneof !== undefined) oneofs.add(field.oneof);
        lastNo = no;
        known.push(no);
      }
      return { reused, example, known };
    };
    // one well-formed value per field number: the first wire type it accepts (or a varint when undeclared)
    const encode = (index: typeof recursiveIndex, no: number, enumValue: number): number[] => {
      const accepted = (no < 64 ? index.messages[index.root]!.small[no]! : 0) & 0x7f;
      const wt = accepted === 0 ? 0 : 31 - Math.clz32(accepted & -accepted);
      const tag = varint(no * 8 + wt);
      if (wt === 0) return [...tag, ...varint(enumValue)];
      if (wt === 1) return [...tag, 1, 2, 3, 4, 5, 6, 7, 8];
      if (wt === 5) return [...tag, 1, 2, 3, 4];
      if (wt === 3) return [...tag, ...varint(no * 8 + 4)];
      return [...tag, 0]; // wt 2: an empty message, string, bytes or packed list
    };
    const cases = [
      { desc: recursive, index: recursiveIndex, numbers: [...recursive.fields.map((f) => f.number), 17, 100, 3000] },
      { desc: legacy, index: legacyIndex, numbers: [...legacy.fields.map((f) => f.number), 2, 100] },
    ];
    let flagged = 0;
    fc.assert(
      fc.property(fc.constantFrom(0, 1), fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 24 }), (which, picks) => {
        const { desc, index, numbers } = cases[which]!;
        const fields = picks.map(([k, odd]) => ({ no: numbers[k % numbers.length]!, closedUnknown: odd }));
        // a closed enum value is declared (the enum's first value) or not (1000)
        const enumValueOf = (no: number, odd: boolean) => {
          const field = desc.fields.find((f) => f.number === no);
          const e = field?.fieldKind === 'enum' ? field.enum : field?.fieldKind === 'list' && field.listKind === 'enum' ? field.enum : undefined;
          return e !== undefined && !e.open ? (odd ? 1000 : e.values[0]!.number) : 1;
        };
        const closedFields = fields.map((f) => {
          const field = desc.fields.find((x) => x.number === f.no);
          const closed = field !== undefined && (field.fieldKind === 'enum' || (field.fieldKind === 'list' && field.listKind === 'enum')) && !field.enum!.open;
          return { no: f.no, closedUnknown: closed && f.closedUnknown };
        });
        const payload = Uint8Array.from(fields.flatMap((f) => encode(index, f.no, enumValueOf(f.no, f.closedUnknown))));
        const expected = expectOrder(desc, closedFields);
        const plain = scanProtobufPayload(payload, index, { ...limits, root: desc });
        expect(plain.error).toBeUndefined();
        expect(plain.reusedDeclaredNumbers).toBe(expected.reused);
        expect(plain.reuseExample?.number).toBe(expected.example);
        const log = createProtobufFieldLog();
        const logged = scanProtobufPayload(payload, index, { ...limits, root: desc, fieldLog: log });
        expect(logged.reusedDeclaredNumbers).toBe(expected.reused);
        expect(log.known.filter((_, i) => i % 2 === 1)).toEqual(expected.known);
        if (expected.reused > 0) flagged++;
      }),
      { numRuns: 4000, seed: 20261130 },
    );
    expect(flagged).toBeGreaterThan(1000);
  });

  it('flags a tag whose field number is above 536,870,911 (UNKNOWN_NUMBER_TOO_LARGE)', () => {
    // number 2^29 + 1, varint: tag value 2^32 + 8 → protobuf-java keeps the low 32 bits (field 1, varint)
    const s = scanProtobufPayload(Uint8Array.from([...varint(2 ** 32 + 8), 0x05]), recursiveIndex, limits);
    expect(s.numbersTooLarge).toBe(1);
    expect(s.tooLargeExample).toBe('536870913');
    expect(s.error).toBeUndefined();
  });

  it("reports protobuf-java's exact error for malformed payloads, via the full decoder", () => {
    expect(scanProtobufPayload(hex('0a 06 0a 04 0a 02 0a 00'), recursiveIndex, { ...limits, recursionLimit: 3, root: recursive }).error).toEqual({
      message: M.recursionLimit,
      offset: 6,
    });
    expect(scanProtobufPayload(hex('42 02 c3 28'), recursiveIndex, { ...limits, root: recursive }).error).toEqual({ message: M.invalidUtf8, offset: 1 });
    expect(scanProtobufPayload(hex('08'), recursiveIndex, { ...limits, root: recursive }).error!.message).toBe(M.truncated);
  });

  it('agrees with the full decoder on validity, depth, unknown fields and bytes for arbitrary and mutated payloads', () => {
    const valid = RECURSIVE_SAMPLE_PAYLOADS;
    const payloads = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc.tuple(fc.constantFrom(...valid), fc.nat(), fc.integer({ min: 0, max: 255 })).map(([v, i, b]) => {
        const copy = Uint8Array.from(v);
        copy[i % copy.length] = b;
        return copy;
      }),
      fc.tuple(fc.constantFrom(...valid), fc.nat()).map(([v, n]) => v.subarray(0, n % (v.length + 1))),
    );
    const legacyValid = ['0a 02 c3 28 3b 08 05 3c 40 05 40 01 4a 03 01 07 00 48 09 48 01', '3b a3 06 08 01 a4 06 3c 4a 00'].map(hex);
    const legacyPayloads = fc.tuple(fc.constantFrom(...legacyValid), fc.nat(), fc.integer({ min: 0, max: 255 })).map(([v, i, b]) => {
      const copy = Uint8Array.from(v);
      copy[i % copy.length] = b;
      return copy;
    });
    const cases = fc.oneof(
      payloads.map((p) => ({ payload: p, desc: recursive, index: recursiveIndex })),
      fc.oneof(legacyPayloads, fc.constantFrom(...legacyValid)).map((p) => ({ payload: p, desc: legacy, index: legacyIndex })),
    );
    fc.assert(
      fc.property(cases, fc.integer({ min: 1, max: 4 }), ({ payload, desc, index }, recursionLimit) => {
        const opts = { maxMessageSize: 1 << 20, recursionLimit };
        const scan = scanProtobufPayload(payload, index, { ...opts, root: desc });
        let decoded;
        try {
          decoded = decodeProtobufPayload(payload, desc, opts);
        } catch (e) {
          if (!(e instanceof ProtobufParseError)) throw e;
          expect(scan.error).toEqual({ message: e.message, offset: e.offset });
          return;
        }
        expect(scan.error).toBeUndefined();
        expect(scan.depth).toBe(decoded.depth);
        expect(scan.unknownFields).toBe(collectProtobufUnknownFields(decoded.message, payload).length);
      }),
      { numRuns: 5000, seed: 20261129 },
    );
  });
});

describe('createProtobufStateScan: per-state statistics and value-warning findings', () => {
  it('aggregates sizes, aliasing on/off and counts findings with example keys', () => {
    const scan = createProtobufStateScan(recursiveIndex, {
      ...limits,
      root: recursive,
      newLimits: { maxMessageSize: 4000, recursionLimit: 1 },
      maxExamples: 2,
    });
    const large = Uint8Array.from(lenField(0x2a, new Array(5000).fill(7)));
    scan.addPayload(large, 'key 1');
    scan.addPayload(hex('0a 02 0a 00'), 'key 2'); // depth 2 > new limit 1
    scan.addPayload(hex('42 01 61 a0 06 01 42 01 62'), 'key 3');
    scan.addPayload(hex('08'), 'key 4');
    const s = scan.finish();
    expect(s.values).toBe(4);
    expect(s.unreadableValues).toBe(1);
    expect(s.errors).toEqual([{ key: 'key 4', message: M.truncated, offset: 1 }]);
    expect(s.largeValues).toBe(1);
    expect(s.aliasedValues).toBe(1);
    expect(s.aliasing.on).toEqual({ retainedArrayBytes: large.length, copiedBytes: 0, extraWireBytes: large.length - 5000 });
    expect(s.aliasing.off).toEqual({ retainedArrayBytes: 0, copiedBytes: 5000, extraWireBytes: 0 });
    expect(s.maxDepth).toBe(2);
    expect(s.findings.map((f) => [f.check, f.count, f.exampleKeys])).toEqual([
      ['aliased-payload', 1, ['key 1']],
      ['exceeds-new-limit', 2, ['key 1', 'key 2']],
      ['reused-number', 1, ['key 3']],
    ]);
    // facts only: compat words them (describeScanFinding) as `stats` prints them
    expect(s.findings.map((f) => f.example)).toEqual([
      { kind: 'aliased-payload', payloadSize: large.length, aliasableFields: 1, aliasableBytes: 5000 },
      { kind: 'payload-too-large', payloadSize: large.length, value: 4000 },
      { kind: 'reused-number', number: 8, typeName: 'flink.protobuf.serializer.RecursiveMessage' },
    ]);
    expect(s.findings.map(describeScanFinding).map((f) => [f.id, f.detail])).toEqual([
      [
        'ALIASING_RETENTION',
        `a ${large.length}-byte payload shares its array with 1 bytes/unknown length-delimited field(s) (5000 bytes); a retained one keeps all ${large.length} bytes alive`,
      ],
      ['VALUE_EXCEEDS_NEW_LIMIT', `a ${large.length}-byte payload exceeds the new maxMessageSize 4000`],
      [
        'UNKNOWN_REUSES_DECLARED_NUMBER',
        'field 8 of flink.protobuf.serializer.RecursiveMessage is written after unknown fields or out of field-number order, as only an unknown field reusing that declared number is written',
      ],
    ]);
  });

  it('makes a key given as a function only for values kept as examples, once each, and gives the same figures', () => {
    const made: string[] = [];
    const lazy = (k: string) => () => (made.push(k), k);
    const scan = createProtobufStateScan(recursiveIndex, { ...limits, root: recursive, maxExamples: 1 });
    const reuse = hex('42 01 61 a0 06 01 42 01 62'); // UNKNOWN_REUSES_DECLARED_NUMBER
    scan.addPayload(hex('0a 00'), lazy('plain'));
    scan.addPayload(reuse, lazy('first reuse'));
    scan.addPayload(reuse, lazy('second reuse')); // counted, but the one example slot is taken
    const r = scan.addPayload(hex('08'), lazy('broken'));
    expect(r.error?.message).toBe(M.truncated);
    const s = scan.finish();
    expect(made).toEqual(['first reuse', 'broken']);
    expect(s.findings.map((f) => [f.check, f.count, f.exampleKeys])).toEqual([['reused-number', 2, ['first reuse']]]);
    expect(s.errors).toEqual([{ key: 'broken', message: M.truncated, offset: 1 }]);
    const eager = createProtobufStateScan(recursiveIndex, { ...limits, root: recursive, maxExamples: 1 });
    for (const [p, k] of [
      [hex('0a 00'), 'plain'],
      [reuse, 'first reuse'],
      [reuse, 'second reuse'],
      [hex('08'), 'broken'],
    ] as const)
      eager.addPayload(p, k);
    expect(eager.finish()).toEqual(s);
  });
});
