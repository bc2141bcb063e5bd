/**
 * The peer serializer flink-protobuf-serde (`com.michalklempa.flink.protobuf.ProtoSerializer`, seeds/004): a
 * TypeSerializer doing `Message.toByteArray()` / `Parser.parseFrom(byte[])`. Its documentation publishes neither
 * its snapshot layout nor its value framing, and declares keyed and operator state out of its scope ("Do not use
 * Protobuf for Flink state"). Its snapshot class is recognised by its package; once the header's
 * resynchronisation bounds the snapshot, its bytes are searched for the message class as a modified-UTF-8 string
 * (`writeUTF`) that the user's schema maps to a message (protoc's Java naming rules). With that schema the values
 * are read in the framing a `toByteArray()` serializer writes on a DataOutputView that must let `parseFrom(byte[])`
 * find the end: a 4-byte big-endian length and the message bytes; a value that does not fit is shown as bytes
 * with the reason. Everything is labelled inferred (details.inferred), and the hazard is kept on the snapshot
 * (details.peerSerde) for `check` to name (PEER_SERDE_STATE_NOT_SUPPORTED).
 */
import type { FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import type { InferredSnapshotNote, SerializerSnapshot, SnapshotInferrer, SnapshotRegistry } from '../../flink';
import { decodeModifiedUtf8, formatHex, isModifiedUtf8StringAt } from '../../io';
import { computeSha256, DEFAULT_PROTOBUF_SETTINGS, normalizeDescriptorSet, parseDescriptorSet, ProtobufValueCodec } from '../../protobuf';
import { deriveJavaClassName } from '../descriptors/derive-java-class-name';
import { indexDeclarations } from '../descriptors/index-declarations';

export const PEER_SERDE_PACKAGE = 'com.michalklempa.flink.protobuf.';
export const PEER_SERDE_SERIALIZER = 'com.michalklempa.flink.protobuf.ProtoSerializer';
export const PEER_SERDE_HAZARD =
  "flink-protobuf-serde declares keyed and operator state and schema evolution out of its scope ('Keyed/operator state, schema evolution are out-of-scope of this project. Do not use Protobuf for Flink state.')";

/** `details.peerSerde` of a flink-protobuf-serde snapshot. */
export interface PeerSerdeDetails {
  hazard: string;
  /** Java class names found in the snapshot's bytes */
  classesFound: string[];
  /** the one the user's schema maps to a message, and that message */
  javaClass?: string;
  messageType?: string;
}

export interface PeerSerdeSchema {
  name: string;
  bytes: Uint8Array;
  set: FileDescriptorSet;
}

const MAX_NAME_BYTES = 1024;

export function registerPeerSerdeReaders(registry: Pick<SnapshotRegistry, 'registerInferrer'>, schema?: PeerSerdeSchema): void {
  registry.registerInferrer(createPeerSerdeInferrer(schema));
}

function createPeerSerdeInferrer(schema: PeerSerdeSchema | undefined): SnapshotInferrer {
  let classes: Map<string, string> | undefined;
  const messageOf = (javaClass: string): string | undefined => {
    if (schema === undefined) return undefined;
    if (classes === undefined) {
      classes = new Map();
      for (const [name, decl] of indexDeclarations(schema.set).byName) {
        if (decl.kind !== 'message') continue;
        const c = deriveJavaClassName(schema.set, name);
        if (c && !classes.has(c)) classes.set(c, name);
      }
    }
    return classes.get(javaClass);
  };
  return {
    infer(r, className, version, end) {
      if (!className.startsWith(PEER_SERDE_PACKAGE)) return undefined;
      const start = r.position;
      const limit = Math.min(end, r.length);
      const strings = findJavaClassStrings(r.bytes, start, limit).filter((s) => s.value !== className && !s.value.startsWith(PEER_SERDE_PACKAGE));
      const mapped = strings.find((s) => messageOf(s.value) !== undefined);
      const base = r.baseOffset;
      const read: InferredSnapshotNote['read'] = mapped
        ? [{ what: `message class ${mapped.value}`, offset: base + mapped.at, length: mapped.end - mapped.at, encoding: 'modified UTF-8 (writeUTF)' }]
        : [];
      const notRead: string[] = [];
      if (mapped && mapped.at > start) notRead.push(`${mapped.at - start} bytes at offset ${base + start}: not recognised`);
      if (!mapped) {
        notRead.push(
          schema === undefined
            ? `the message class: ${strings.length === 0 ? 'no Java class name found in the snapshot' : `class names found (${strings.map((s) => s.value).join(', ')})`}; give the job's schema (--descriptors or --job-jar) to map it to a message`
            : `the message class: ${schema.name} has no message whose Java class is ${strings.length === 0 ? 'named in the snapshot (no Java class name found)' : strings.map((s) => s.value).join(' or ')}`,
        );
      }
      notRead.push(
        'the snapshot layout and the value framing of flink-protobuf-serde are not published: the values are read as a 4-byte big-endian length + the message bytes; a value that does not fit is shown as bytes',
      );
      const peerSerde: PeerSerdeDetails = {
        hazard: PEER_SERDE_HAZARD,
        classesFound: strings.map((s) => s.value),
        ...(mapped ? { javaClass: mapped.value, messageType: messageOf(mapped.value)! } : {}),
      };
      const note: InferredSnapshotNote = {
        by: `structure: the message class as a modified-UTF-8 string in the bytes of flink-protobuf-serde snapshot ${className} v${version}`,
        read,
        notRead,
      };
      const base0 = { className, version, nested: [], fixedLength: -1 };
      const recognisedEnd = mapped ? mapped.end : start;
      if (!mapped || schema === undefined) {
        const snapshot: SerializerSnapshot = {
          ...base0,
          typeLabel: `flink-protobuf-serde ProtoSerializer${strings[0] ? ` (${strings[0].value})` : ''}; values not decoded`,
          status: 'opaque',
          details: { peerSerde, inferred: note },
        };
        return { snapshot, end: recognisedEnd };
      }
      const messageType = messageOf(mapped.value)!;
      let normalized;
      try {
        normalized = normalizeDescriptorSet(parseDescriptorSet(schema.bytes), messageType);
      } catch (e) {
        if (!(e instanceof Error) || (e.name !== 'DescriptorSchemaError' && e.name !== 'ProtobufParseError')) throw e;
        const snapshot: SerializerSnapshot = {
          ...base0,
          typeLabel: `flink-protobuf-serde ProtoSerializer (${mapped.value}); values not decoded: ${e.message}`,
          status: 'opaque',
          details: { peerSerde, inferred: note },
        };
        return { snapshot, end: recognisedEnd };
      }
      const content = {
        javaClass: mapped.value,
        rootFullName: messageType,
        settings: { ...DEFAULT_PROTOBUF_SETTINGS, maxMessageSize: 0x7fffffff },
        descriptorBytes: schema.bytes,
        descriptorSha256: formatHex(computeSha256(schema.bytes)),
        schema: normalized,
      };
      const snapshot: SerializerSnapshot = {
        ...base0,
        typeLabel: `Protobuf ${messageType} via flink-protobuf-serde (inferred framing)`,
        status: 'known',
        details: { javaClass: mapped.value, rootFullName: messageType, descriptorSet: schema.name, peerSerde, inferred: note },
        codec: new ProtobufValueCodec(content, undefined, `INFERRED: flink-protobuf-serde framing (4-byte length + message bytes) read with ${schema.name}`),
      };
      return { snapshot, end: recognisedEnd };
    },
  };
}

interface FoundString {
  at: number;
  end: number;
  value: string;
}

/** Modified-UTF-8 strings in [start, limit) that are Java binary class names (a package, letters, digits, `_`, `$`). */
function findJavaClassStrings(bytes: Uint8Array, start: number, limit: number): FoundString[] {
  const out: FoundString[] = [];
  for (let p = start; p + 3 <= limit; p++) {
    const n = (bytes[p]! << 8) | bytes[p + 1]!;
    if (n < 3 || n > MAX_NAME_BYTES || p + 2 + n > limit || !isModifiedUtf8StringAt(bytes, p, limit)) continue;
    const decoded = decodeModifiedUtf8(bytes, p + 2, p + 2 + n);
    if ('value' in decoded && /^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)+$/.test(decoded.value))
      out.push({ at: p, end: p + 2 + n, value: decoded.value });
  }
  return out;
}
