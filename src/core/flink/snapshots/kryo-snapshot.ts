/**
 * KryoSerializerSnapshot (version 2 in Flink 1.x and 2.x alike; KryoSerializerSnapshotData): `utf` type class,
 * then three linked optional maps — registrations (key frame: `utf` name; value frame: `utf` registered class,
 * `i32` kind ordinal 0 UNSPECIFIED / 1 CLASS / 2 INSTANCE, then a `utf` serializer class (CLASS) or a
 * Java-serialized SerializableSerializer (INSTANCE)), default serializers (key frame: `utf` class; value frame:
 * a Java-serialized SerializableSerializer) and default serializer classes (key frame and value frame: `utf` class
 * names). A frame Flink wrote as absent (the class could not be loaded then) is kept as absent.
 */
import type { ByteReader } from '../../io';
import type { SerializerSnapshot, SnapshotReader } from './snapshot-types';
import { readLinkedOptionalMap, type LinkedOptionalMapEntry } from './read-linked-optional-map';

export const KRYO_SNAPSHOT_CLASS = 'org.apache.flink.api.java.typeutils.runtime.kryo.KryoSerializerSnapshot';

const KINDS = ['UNSPECIFIED', 'CLASS', 'INSTANCE'] as const;
export type KryoRegistrationKind = (typeof KINDS)[number];

export interface KryoRegistration {
  /** the map key (Flink writes the registered class name) */
  name: string;
  /** absent when Flink wrote no value frame (the class was not loadable when the snapshot was taken) */
  registeredClass?: string;
  kind?: KryoRegistrationKind;
  /** CLASS: the Kryo serializer class; INSTANCE: the class found inside the Java-serialized instance */
  serializerClass?: string;
}

export interface KryoDefaultSerializer {
  /** the class (or supertype) the default applies to */
  forClass: string;
  /** default serializer classes: the class; default serializer instances: the class found in the Java-serialized instance */
  serializerClass?: string;
}

export interface KryoSnapshotDetails {
  typeClass: string;
  registrations: KryoRegistration[];
  defaultSerializers: KryoDefaultSerializer[];
  defaultSerializerClasses: KryoDefaultSerializer[];
}

function simpleName(c: string): string {
  return c.slice(c.lastIndexOf('.') + 1);
}

/** The wrappers Flink serializes a Kryo serializer instance in (1.x: ExecutionConfig's nested class; 2.x: its own class). */
const SERIALIZABLE_WRAPPERS = new Set([
  'org.apache.flink.api.common.ExecutionConfig$SerializableSerializer',
  'org.apache.flink.api.common.SerializableSerializer',
]);

/**
 * The class of the Kryo serializer inside a Java-serialized SerializableSerializer: the first class descriptor
 * (TC_CLASSDESC 0x72, `u16` length, modified UTF-8 name) of the stream that is not the wrapper itself.
 * Undefined when the bytes hold no such descriptor.
 */
export function findJavaSerializedClass(bytes: Uint8Array): string | undefined {
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] !== 0x72) continue;
    const len = (bytes[i + 1]! << 8) | bytes[i + 2]!;
    if (len < 3 || i + 3 + len > bytes.length) continue;
    let name = '';
    let plausible = true;
    for (let j = i + 3; j < i + 3 + len; j++) {
      const b = bytes[j]!;
      if (b < 0x21 || b > 0x7e) {
        plausible = false;
        break;
      }
      name += String.fromCharCode(b);
    }
    if (!plausible || !/^[A-Za-z_$][\w$]*(\.[\w$]+)+$/.test(name)) continue;
    if (!SERIALIZABLE_WRAPPERS.has(name)) return name;
    i += 2 + len;
  }
  return undefined;
}

function readRegistration(e: LinkedOptionalMapEntry): KryoRegistration {
  const out: KryoRegistration = { name: e.name };
  const v = e.value;
  if (!v) return out;
  out.registeredClass = v.readUtf('Kryo registered class');
  const at = v.position;
  const ordinal = v.readI32('Kryo registration kind');
  const kind = KINDS[ordinal];
  if (kind === undefined) throw v.error('invalid-value', `expected a Kryo registration kind 0 (UNSPECIFIED), 1 (CLASS) or 2 (INSTANCE), found ${ordinal}`, at);
  out.kind = kind;
  if (kind === 'CLASS') out.serializerClass = v.readUtf('Kryo serializer class');
  if (kind === 'INSTANCE') {
    const found = findJavaSerializedClass(v.readBytes(v.remaining, 'Java-serialized Kryo serializer instance'));
    if (found) out.serializerClass = found;
  }
  return out;
}

function readDefault(e: LinkedOptionalMapEntry, instance: boolean): KryoDefaultSerializer {
  const out: KryoDefaultSerializer = { forClass: e.key ? e.key.readUtf('Kryo default serializer type') : e.name };
  const v = e.value;
  if (!v) return out;
  const serializerClass = instance
    ? findJavaSerializedClass(v.readBytes(v.remaining, 'Java-serialized Kryo serializer instance'))
    : v.readUtf('Kryo default serializer class');
  if (serializerClass) out.serializerClass = serializerClass;
  return out;
}

export function readKryoSnapshotDetails(r: ByteReader): KryoSnapshotDetails {
  const typeClass = r.readUtf('Kryo type class');
  const registrations = readLinkedOptionalMap(r, 'Kryo registrations').map(readRegistration);
  const defaultSerializers = readLinkedOptionalMap(r, 'Kryo default serializers').map((e) => readDefault(e, true));
  const defaultSerializerClasses = readLinkedOptionalMap(r, 'Kryo default serializer classes').map((e) => readDefault(e, false));
  return { typeClass, registrations, defaultSerializers, defaultSerializerClasses };
}

/** The Kryo details of a snapshot read by this reader (or by a reader that keeps them, e.g. the Protobuf-behind-Kryo one). */
export function getKryoSnapshotDetails(s: SerializerSnapshot): KryoSnapshotDetails | undefined {
  if (s.className !== KRYO_SNAPSHOT_CLASS || !s.details) return undefined;
  const kryo = s.details['kryo'];
  return kryo && typeof kryo === 'object' ? (kryo as KryoSnapshotDetails) : undefined;
}

/** Values opaque: Kryo's bytes need the classes (or, for Protobuf behind Kryo, the user's schema: `protobuf/`). */
export const kryoSnapshotReader: SnapshotReader = {
  classNames: [KRYO_SNAPSHOT_CLASS],
  read(r, version, className): SerializerSnapshot {
    if (version !== 2) throw r.error('unsupported-version', `expected ${className} version 2, found ${version}`);
    const kryo = readKryoSnapshotDetails(r);
    return {
      className,
      version,
      typeLabel: `Kryo ${simpleName(kryo.typeClass)}`,
      status: 'opaque',
      nested: [],
      fixedLength: -1,
      details: { typeClass: kryo.typeClass, kryo },
    };
  },
};
