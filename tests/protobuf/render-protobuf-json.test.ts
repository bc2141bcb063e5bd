/**
 * renderProtobufJson writes a decoded message's JSON text straight from the message: it must equal
 * JSON.stringify(formatProtobufJson(msg)) byte for byte (pretty: JSON.stringify(…, null, 2) at any indentation), with the measure measureJsonLength gives that
 * object, and stop exactly when that measure passes the limit. Held to it over random valid payloads of
 * three test schemas (maps of every key kind — JavaScript puts array-index keys first —, enums open and
 * closed, floats with NaN/±Infinity/−0, proto2 strings decoded leniently, well-known types in and out of
 * their ranges, nesting), decoded by the core's decoder.
 */
import fc from 'fast-check';
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { decodeProtobufPayload, isProtobufParseError, type PbMessage } from '../../src/core/protobuf';
import { createFileRegistry, fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { formatProtobufJson } from '../../src/core/protobuf/format-protobuf-json';
import { measureJsonLength } from '../../src/core/protobuf/measure-json-length';
import { renderProtobufJson } from '../../src/core/protobuf/render-protobuf-json';
import { buildTestDescriptorSet } from './protobuf-test-schemas';

function schema(dir: string, root: string): DescMessage {
  return createFileRegistry(fromBinary(FileDescriptorSetSchema, buildTestDescriptorSet(dir))).getMessage(root)!;
}

/** A seeded source of random choices (fast-check shrinks the seed). */
function chooser(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! };
}
type Chooser = ReturnType<typeof chooser>;

const TEXTS = [
  '',
  'a',
  '__proto__',
  'constructor',
  '0',
  '7',
  '10',
  '2',
  '01',
  '-1',
  '4294967294',
  '4294967295',
  'quote"back\\slash',
  'tab\tnew\nline\u0001',
  'é日本😀',
  '\u2028\u2029',
  'toString',
];

function varint(out: number[], v: bigint): void {
  let x = BigInt.asUintN(64, v);
  while (x >= 0x80n) {
    out.push(Number(x & 0x7fn) | 0x80);
    x >>= 7n;
  }
  out.push(Number(x));
}
function tag(out: number[], no: number, wire: number): void {
  varint(out, BigInt((no << 3) | wire));
}
function lengthDelimited(out: number[], no: number, body: number[]): void {
  tag(out, no, 2);
  varint(out, BigInt(body.length));
  out.push(...body);
}
function utf8(text: string): number[] {
  return [...new TextEncoder().encode(text)];
}

/** The bytes of one scalar of `type`, and its wire type. */
function scalar(c: Chooser, type: ScalarType, lenient = false): { wire: number; bytes: number[] } {
  const out: number[] = [];
  const b = new DataView(new ArrayBuffer(8));
  switch (type) {
    case ScalarType.DOUBLE:
      b.setFloat64(0, c.pick([NaN, Infinity, -Infinity, -0, 0, 1e21, 1.5e-7, 0.1, -123.456, c.next() * 1e300]), true);
      return { wire: 1, bytes: [...new Uint8Array(b.buffer)] };
    case ScalarType.FLOAT:
      b.setFloat32(0, c.pick([NaN, Infinity, -0, 0.1, 3.4e38, 1e-40, c.next()]), true);
      return { wire: 5, bytes: [...new Uint8Array(b.buffer, 0, 4)] };
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      b.setUint32(0, c.int(2 ** 32), true);
      return { wire: 5, bytes: [...new Uint8Array(b.buffer, 0, 4)] };
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      b.setBigUint64(0, BigInt(c.int(2 ** 32)) * BigInt(c.int(2 ** 32)), true);
      return { wire: 1, bytes: [...new Uint8Array(b.buffer)] };
    case ScalarType.STRING:
      // invalid UTF-8 where the field does not validate it (proto2): decoded leniently, with U+FFFD
      return { wire: 2, bytes: lenient && c.int(8) === 0 ? [0xff, 0x41, 0xc3] : utf8(c.pick(TEXTS)) };
    case ScalarType.BYTES:
      return { wire: 2, bytes: Array.from({ length: c.pick([0, 1, 2, 3, 5, 64]) }, () => c.int(256)) };
    default:
      varint(out, c.pick([0n, 1n, -1n, -2n, 127n, 2n ** 31n - 1n, -(2n ** 31n), 2n ** 63n - 1n, 2n ** 64n - 1n, 4294967294n, 4294967295n, 10n, 2n]));
      return { wire: 0, bytes: out };
  }
}

function occurrence(c: Chooser, out: number[], no: number, s: { wire: number; bytes: number[] }): void {
  if (s.wire === 2) lengthDelimited(out, no, s.bytes);
  else {
    tag(out, no, s.wire);
    out.push(...s.bytes);
  }
}

/** A random valid payload of `desc`: fields present or not, set once or several times (merged or last wins). */
function payload(c: Chooser, desc: DescMessage, depth: number): number[] {
  const out: number[] = [];
  for (const f of desc.fields) {
    if (c.int(3) === 0) continue;
    const times = 1 + c.int(2);
    for (let t = 0; t < times; t++) field(c, out, f, depth);
  }
  return out;
}

function field(c: Chooser, out: number[], f: DescField, depth: number): void {
  const element = (kind: 'message' | 'enum' | 'scalar', message: DescMessage | undefined, type: ScalarType | undefined): { wire: number; bytes: number[] } =>
    kind === 'message'
      ? { wire: 2, bytes: depth > 1 ? [] : payload(c, message!, depth + 1) }
      : kind === 'enum'
        ? scalar(c, ScalarType.INT32)
        : scalar(c, type!, !f.utf8Validation);
  if (f.fieldKind === 'map') {
    const entry: number[] = [];
    occurrence(c, entry, 1, scalar(c, f.mapKey, !f.utf8Validation));
    occurrence(c, entry, 2, element(f.mapKind, f.mapKind === 'message' ? f.message : undefined, f.mapKind === 'scalar' ? f.scalar : undefined));
    lengthDelimited(out, f.number, entry);
  } else if (f.fieldKind === 'list') {
    occurrence(c, out, f.number, element(f.listKind, f.listKind === 'message' ? f.message : undefined, f.listKind === 'scalar' ? f.scalar : undefined));
  } else {
    occurrence(c, out, f.number, element(f.fieldKind, f.fieldKind === 'message' ? f.message : undefined, f.fieldKind === 'scalar' ? f.scalar : undefined));
  }
}

function decode(desc: DescMessage, bytes: number[]): PbMessage | undefined {
  try {
    return decodeProtobufPayload(Uint8Array.from(bytes), desc, { maxMessageSize: 1 << 20, recursionLimit: 100 }).message;
  } catch (e) {
    if (isProtobufParseError(e)) return undefined;
    throw e;
  }
}

describe('renderProtobufJson', () => {
  const roots = [
    schema('json', 'flink.protobuf.json.Everything'),
    schema('serializer', 'flink.protobuf.serializer.RecursiveMessage'),
    schema('wkt', 'flink.protobuf.wkt.Holder'),
  ];

  it('writes JSON.stringify(formatProtobufJson(msg)) with measureJsonLength of that object, over random valid payloads', () => {
    let decoded = 0;
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 0, max: 2 }), (seed, which) => {
        const c = chooser(seed);
        const msg = decode(roots[which]!, payload(c, roots[which]!, 0));
        if (msg === undefined) return;
        decoded++;
        const object = formatProtobufJson(msg);
        const text = JSON.stringify(object);
        const measure = measureJsonLength(object, Infinity);
        const rendered = renderProtobufJson(msg);
        expect(rendered).toEqual({ text, measure });
        // pretty: JSON.stringify(…, null, 2), every line after the first indented as its place in a document
        const indent = c.pick(['', '    ', '      ']);
        expect(renderProtobufJson(msg, Infinity, indent)).toEqual({ text: JSON.stringify(object, null, 2).replace(/\n/g, `\n${indent}`), measure });
        // stops exactly when the measure passes the limit
        const limit = c.int(measure + 2);
        expect(renderProtobufJson(msg, limit) === undefined, `limit ${limit}, measure ${measure}`).toBe(measure > limit);
      }),
      { numRuns: 1000 },
    );
    expect(decoded).toBeGreaterThan(800);
  });

  it('keeps a map key "__proto__" as a member of the JSON view, as every other key (a plain assignment set the prototype and lost the entry)', () => {
    const root = roots[0]!;
    const entry: number[] = [];
    lengthDelimited(entry, 1, utf8('__proto__'));
    lengthDelimited(entry, 2, utf8('kept'));
    const bytes: number[] = [];
    lengthDelimited(bytes, 5, entry);
    const msg = decode(root, bytes)!;
    expect(JSON.stringify(formatProtobufJson(msg))).toBe('{"byText":{"__proto__":"kept"}}');
    expect(renderProtobufJson(msg)!.text).toBe('{"byText":{"__proto__":"kept"}}');
  });

  it('orders array-index keys first, ascending, as JSON.stringify of the object does', () => {
    const root = roots[0]!;
    const bytes: number[] = [];
    for (const key of [10n, -1n, 2n, 4294967295n, 0n]) {
      const entry: number[] = [];
      tag(entry, 1, 0);
      varint(entry, key);
      lengthDelimited(entry, 2, utf8(String(key)));
      lengthDelimited(bytes, 1, entry);
    }
    const msg = decode(root, bytes)!;
    // 4294967295 is -1 as an int32: the key set twice keeps its first place and its last value
    const expected = '{"byInt":{"0":"0","2":"2","10":"10","-1":"4294967295"}}';
    expect(JSON.stringify(formatProtobufJson(msg))).toBe(expected);
    expect(renderProtobufJson(msg)!.text).toBe(expected);
  });
});
