/**
 * Serializer versions not yet seen (issue #17): flink-datastream-protobuf 1.0.0 writes snapshot classes the 0.x
 * builds never wrote, in a layout that is not published. For the bytes of an unknown snapshot (bounded by the
 * header's resynchronisation), this recognises by structure:
 * - the root message's full name: a Java modified-UTF-8 string (`writeUTF`: u16 length) that names a message;
 * - the descriptor set: length-prefixed bytes, the length written as Java writes lengths (int32 big-endian,
 *   varint, or a `writeUTF`-style u16), that parse as a valid `FileDescriptorSet` declaring that root;
 * - a SHA-256 of exactly those bytes right after them (as the 0.1.0 snapshot writes it), when present;
 * - the Java class: a string naming a Java binary class whose simple name is the root's (absent: DynamicMessage).
 * Everything else (settings among it) is named as not read. The values are read with the 0.1.0 value framing
 * (4-byte big-endian length + payload); a value that does not fit it is shown as bytes with the reason.
 */
import type { InferredSnapshot, InferredSnapshotNote, SerializerSnapshot, SnapshotInferrer } from '../flink';
import { decodeModifiedUtf8, formatHex, isDecodeError, isModifiedUtf8StringAt, type ByteReader } from '../io';
import { computeSha256 } from './compute-sha256';
import { normalizeDescriptorSet, type NormalizedDescriptorSet } from './normalize-descriptor-set';
import { parseDescriptorSet } from './parse-descriptor-set';
import { DEFAULT_PROTOBUF_SETTINGS, MAX_DESCRIPTOR_BYTES } from './protobuf-constants';
import { unreachableWireFailure, WireCursor } from './wire-cursor';
import { DescriptorSchemaError, isProtobufParseError } from './protobuf-errors';
import { ProtobufValueCodec } from './protobuf-value-codec';

/** The Java class a DynamicMessage state holds (no generated class): what the decoder's texts name. */
export const DYNAMIC_MESSAGE_CLASS = 'com.google.protobuf.DynamicMessage';
/** Names longer than this are not looked at (a full name or Java class name is far shorter). */
const MAX_NAME_BYTES = 1024;
/** Descriptor sets smaller than this cannot declare a message (a file with a name and a message with a name). */
const MIN_SET_BYTES = 6;
/** Candidate sets fully parsed at most (each passed the cheap wire check first). */
const MAX_PARSED_SETS = 64;
/** (set, root name) pairs normalized at most: bounds the work on bytes full of name-like strings. */
const MAX_NORMALIZED = 256;

type LengthEncoding = 'int32 big-endian' | 'varint' | 'u16 (writeUTF-style)';

interface FoundString {
  at: number;
  /** position after it */
  end: number;
  value: string;
}

interface FoundSet {
  prefixAt: number;
  start: number;
  length: number;
  encoding: LengthEncoding;
}

export const protobufSnapshotInferrer: SnapshotInferrer = {
  infer(r, className, version, end) {
    return inferProtobufSnapshot(r, className, version, end);
  },
};

export function inferProtobufSnapshot(r: ByteReader, className: string, version: number, end: number): InferredSnapshot | undefined {
  const bytes = r.bytes;
  const start = r.position;
  const limit = Math.min(end, r.length);
  if (limit <= start) return undefined;
  const strings = findNameStrings(bytes, start, limit);
  const names = strings.filter((s) => isProtobufFullName(s.value));
  if (names.length === 0) return undefined;
  let parsed = 0;
  let normalized = 0;
  for (const set of findDescriptorSetCandidates(bytes, start, limit)) {
    if (parsed++ >= MAX_PARSED_SETS) break;
    const setBytes = bytes.subarray(set.start, set.start + set.length);
    let message;
    try {
      message = parseDescriptorSet(setBytes);
    } catch (e) {
      if (isProtobufParseError(e) || isDecodeError(e)) continue;
      throw e;
    }
    // outside the set's own bytes; the nearest before it first (0.1.0: class, root, settings, set)
    const outside = names.filter((s) => s.end <= set.prefixAt || s.at >= set.start + set.length);
    const ordered = [...outside.filter((s) => s.end <= set.prefixAt).reverse(), ...outside.filter((s) => s.at >= set.start + set.length)];
    for (const root of ordered) {
      if (normalized++ >= MAX_NORMALIZED) return undefined;
      const schema = tryNormalize(message, root.value);
      if (schema === undefined) continue;
      return describe(r, className, version, { strings, root, set, setBytes, schema, start, limit });
    }
  }
  return undefined;
}

function tryNormalize(message: ReturnType<typeof parseDescriptorSet>, root: string): NormalizedDescriptorSet | undefined {
  try {
    return normalizeDescriptorSet(message, root);
  } catch (e) {
    if (e instanceof DescriptorSchemaError || isProtobufParseError(e) || isDecodeError(e)) return undefined;
    throw e;
  }
}

interface Located {
  strings: FoundString[];
  root: FoundString;
  set: FoundSet;
  setBytes: Uint8Array;
  schema: NormalizedDescriptorSet;
  start: number;
  limit: number;
}

function describe(r: ByteReader, className: string, version: number, found: Located): InferredSnapshot {
  const { root, set, setBytes, schema, start } = found;
  const base = r.baseOffset;
  const sha = computeSha256(setBytes);
  const setEnd = set.start + set.length;
  const digestFollows = setEnd + 32 <= found.limit && equalBytes(r.bytes.subarray(setEnd, setEnd + 32), sha);
  const simpleName = root.value.slice(root.value.lastIndexOf('.') + 1);
  const javaClass = found.strings.find(
    (s) =>
      s !== root &&
      s.value !== className &&
      isJavaBinaryName(s.value) &&
      lastJavaSegment(s.value) === simpleName &&
      (s.value !== root.value || s.at !== root.at),
  );
  const read: InferredSnapshotNote['read'] = [];
  const used: [number, number][] = [];
  if (javaClass) {
    read.push({
      what: `Java class ${javaClass.value}`,
      offset: base + javaClass.at,
      length: javaClass.end - javaClass.at,
      encoding: 'modified UTF-8 (writeUTF)',
    });
    used.push([javaClass.at, javaClass.end]);
  }
  read.push({ what: `root message ${root.value}`, offset: base + root.at, length: root.end - root.at, encoding: 'modified UTF-8 (writeUTF)' });
  used.push([root.at, root.end]);
  read.push({
    what: `descriptor set (${schema.fileNames.length} file${schema.fileNames.length === 1 ? '' : 's'}, ${set.length} bytes)`,
    offset: base + set.prefixAt,
    length: setEnd - set.prefixAt,
    encoding: `length as ${set.encoding}`,
  });
  used.push([set.prefixAt, setEnd]);
  let recognisedEnd = Math.max(root.end, setEnd, javaClass?.end ?? 0);
  if (digestFollows) {
    read.push({ what: 'SHA-256 of the descriptor set (matches)', offset: base + setEnd, length: 32 });
    used.push([setEnd, setEnd + 32]);
    recognisedEnd = Math.max(recognisedEnd, setEnd + 32);
  }
  const notRead = listGaps(used, start, recognisedEnd).map(([a, b]) => `${b - a} byte${b - a === 1 ? '' : 's'} at offset ${base + a}: not recognised`);
  notRead.push(
    'the serializer settings (deterministic, maxMessageSize, recursionLimit, largePayloadAliasing): not located, so the limit rules are not checked; values are read with the defaults',
  );
  if (!javaClass) notRead.push('no Java class name: taken as a DynamicMessage state');
  notRead.push('the value framing: assumed to be the 0.1.0 one (4-byte big-endian length + payload); a value that does not fit it is shown as bytes');
  const note: InferredSnapshotNote = {
    by: `structure: a modified-UTF-8 root name and a length-prefixed descriptor set in the bytes of unknown snapshot class ${className} v${version}`,
    read,
    notRead,
  };
  const descriptorSha256 = formatHex(sha);
  const content = {
    javaClass: javaClass?.value ?? DYNAMIC_MESSAGE_CLASS,
    rootFullName: root.value,
    settings: { ...DEFAULT_PROTOBUF_SETTINGS },
    descriptorBytes: setBytes.slice(),
    descriptorSha256,
    schema,
  };
  const snapshot: SerializerSnapshot = {
    className,
    version,
    typeLabel: `Protobuf ${root.value} (inferred from unknown ${className.slice(className.lastIndexOf('.') + 1)})`,
    status: 'known',
    nested: [],
    fixedLength: -1,
    details: {
      ...(javaClass ? { javaClass: javaClass.value } : {}),
      rootFullName: root.value,
      descriptorFiles: [...schema.fileNames],
      descriptorBytes: set.length,
      descriptorSha256,
      inferred: note,
    },
    codec: new ProtobufValueCodec(content, undefined, `INFERRED: schema and framing from unknown snapshot class ${className} read by structure`),
  };
  return { snapshot, end: recognisedEnd };
}

/** Every modified-UTF-8 string in [start, limit) that could be a name: a letter, `_` or `$` first, at most MAX_NAME_BYTES. */
function findNameStrings(bytes: Uint8Array, start: number, limit: number): FoundString[] {
  const out: FoundString[] = [];
  for (let p = start; p + 3 <= limit; p++) {
    const n = (bytes[p]! << 8) | bytes[p + 1]!;
    if (n === 0 || n > MAX_NAME_BYTES || p + 2 + n > limit || !isNameStart(bytes[p + 2]!)) continue;
    let ok = true;
    for (let i = p + 2; i < p + 2 + n; i++) {
      if (!isNameByte(bytes[i]!)) {
        ok = false;
        break;
      }
    }
    if (!ok || !isModifiedUtf8StringAt(bytes, p, limit)) continue;
    const decoded = decodeModifiedUtf8(bytes, p + 2, p + 2 + n);
    if ('value' in decoded) out.push({ at: p, end: p + 2 + n, value: decoded.value });
  }
  return out;
}

const isNameStart = (b: number) => (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f || b === 0x24;
const isNameByte = (b: number) => isNameStart(b) || (b >= 0x30 && b <= 0x39) || b === 0x2e;

function isProtobufFullName(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(s);
}

function isJavaBinaryName(s: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)+$/.test(s);
}

function lastJavaSegment(s: string): string {
  return s.slice(Math.max(s.lastIndexOf('.'), s.lastIndexOf('$')) + 1);
}

/**
 * Length-prefixed byte runs that have the wire shape of a FileDescriptorSet (only field 1, length-delimited,
 * filling the run exactly), in order of position; for one run, the prefix that starts first.
 */
function* findDescriptorSetCandidates(bytes: Uint8Array, start: number, limit: number): Generator<FoundSet> {
  const seen = new Set<string>();
  for (let p = start; p < limit; p++) {
    for (const c of readLengths(bytes, p, limit)) {
      if (c.length < MIN_SET_BYTES || c.length > MAX_DESCRIPTOR_BYTES || c.start + c.length > limit || bytes[c.start] !== 0x0a) continue;
      const key = `${c.start}:${c.length}`;
      if (seen.has(key) || !hasFileSetShape(bytes, c.start, c.start + c.length)) continue;
      seen.add(key);
      yield { prefixAt: p, ...c };
    }
  }
}

function readLengths(bytes: Uint8Array, p: number, limit: number): { start: number; length: number; encoding: LengthEncoding }[] {
  const out: { start: number; length: number; encoding: LengthEncoding }[] = [];
  if (p + 4 <= limit) {
    const n = ((bytes[p]! << 24) | (bytes[p + 1]! << 16) | (bytes[p + 2]! << 8) | bytes[p + 3]!) >>> 0;
    if (n <= 0x7fffffff) out.push({ start: p + 4, length: n, encoding: 'int32 big-endian' });
  }
  const v = readVarint32(bytes, p, limit);
  if (v !== undefined) out.push({ start: v.end, length: v.value, encoding: 'varint' });
  if (p + 2 <= limit) out.push({ start: p + 2, length: (bytes[p]! << 8) | bytes[p + 1]!, encoding: 'u16 (writeUTF-style)' });
  return out;
}

/** A varint of at most 5 bytes (unsigned, up to 35 bits) ending before `limit`. */
function readVarint32(bytes: Uint8Array, p: number, limit: number): { value: number; end: number } | undefined {
  const end = lengthWire.varintAt(bytes, p, limit);
  if (end < 0 || end - p > 5) return undefined;
  return { value: lengthWire.hi * 2 ** 32 + (lengthWire.lo >>> 0), end };
}

/** Reads the candidate lengths (never fails: varintAt only). */
const lengthWire = new WireCursor(unreachableWireFailure);

/** Field 1 (tag 0x0a), each with a varint length, back to back, ending exactly at `end`. */
function hasFileSetShape(bytes: Uint8Array, start: number, end: number): boolean {
  let p = start;
  while (p < end) {
    if (bytes[p] !== 0x0a) return false;
    const v = readVarint32(bytes, p + 1, end);
    if (v === undefined) return false;
    p = v.end + v.value;
  }
  return p === end;
}

function listGaps(used: [number, number][], start: number, end: number): [number, number][] {
  const sorted = [...used].sort((a, b) => a[0] - b[0]);
  const gaps: [number, number][] = [];
  let p = start;
  for (const [a, b] of sorted) {
    if (a > p) gaps.push([p, Math.min(a, end)]);
    p = Math.max(p, b);
  }
  if (p < end) gaps.push([p, end]);
  return gaps.filter(([a, b]) => b > a);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
