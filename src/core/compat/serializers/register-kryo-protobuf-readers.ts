/**
 * Protobuf held by Kryo (issue #17): replaces the Kryo snapshot reader of a registry with one that keeps every
 * Kryo detail and recognises Protobuf behind it (recognizeKryoProtobuf); with the user's descriptor set (the
 * Kryo snapshot embeds no schema) it maps the state's Java class to a message by protoc's Java naming rules and
 * gives the snapshot a codec that reads Kryo's framing, so the values decode like native Protobuf state.
 */
import type { FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { getKryoSnapshotDetails, kryoSnapshotReader, type SerializerSnapshot, type SnapshotRegistry } from '../../flink';
import {
  computeSha256,
  DEFAULT_PROTOBUF_SETTINGS,
  FLINK_FIRST_KRYO_REGISTRATION_ID,
  normalizeDescriptorSet,
  parseDescriptorSet,
  ProtobufValueCodec,
} from '../../protobuf';
import { deriveJavaClassName } from '../descriptors/derive-java-class-name';
import { indexDeclarations } from '../descriptors/index-declarations';
import { PROTOBUF_SUPERTYPES, recognizeKryoProtobuf } from './recognize-kryo-protobuf';
import { formatHex } from '../../io';

/** chill reads any length Kryo can hold */
const KRYO_MAX_MESSAGE_SIZE = 0x7fffffff;

export interface KryoProtobufSchema {
  name: string;
  bytes: Uint8Array;
  set: FileDescriptorSet;
}

export function registerKryoProtobufReaders(registry: SnapshotRegistry, schema?: KryoProtobufSchema): void {
  const classes = new Map<string, string>();
  if (schema) {
    for (const [name, decl] of indexDeclarations(schema.set).byName) {
      if (decl.kind !== 'message') continue;
      const javaClass = deriveJavaClassName(schema.set, name);
      if (javaClass && !classes.has(javaClass)) classes.set(javaClass, name);
    }
  }
  const parsed = schema ? parseDescriptorSet(schema.bytes) : undefined;
  const sha256 = schema ? formatHex(computeSha256(schema.bytes)) : '';
  const roots = new Map<string, ReturnType<typeof normalizeDescriptorSet> | undefined>();
  /** the set normalized for one root (its import closure): undefined when that closure cannot be built */
  const normalized = (root: string) => {
    if (!roots.has(root) && parsed) {
      try {
        roots.set(root, normalizeDescriptorSet(parsed, root));
      } catch (e) {
        if (!(e instanceof Error) || e.name !== 'DescriptorSchemaError') throw e;
        roots.set(root, undefined);
      }
    }
    return roots.get(root);
  };
  registry.register({
    classNames: kryoSnapshotReader.classNames,
    read(r, version, className, ctx): SerializerSnapshot {
      const snapshot = kryoSnapshotReader.read(r, version, className, ctx);
      const kryo = getKryoSnapshotDetails(snapshot)!;
      const found = recognizeKryoProtobuf(kryo, classes);
      if (!found) return snapshot;
      const details = { ...snapshot.details, protobuf: { ...found, ...(schema ? { descriptorSet: schema.name } : {}) } };
      if (found.kind === 'plain') {
        return { ...snapshot, typeLabel: `Kryo ${found.messageType ?? kryo.typeClass} (plain Kryo on a Protobuf class)`, details };
      }
      const anyMessage = PROTOBUF_SUPERTYPES.includes(kryo.typeClass);
      const label = found.messageType
        ? `Protobuf ${found.messageType} via Kryo (chill-protobuf)`
        : anyMessage
          ? `Protobuf (any message, classes written by name) via Kryo (chill-protobuf)`
          : `Protobuf ${kryo.typeClass} via Kryo (chill-protobuf)${schema ? `; ${schema.name} has no message of this Java class` : ''}`;
      const rootName = found.messageType ?? (anyMessage ? [...classes.values()].find((name) => normalized(name) !== undefined) : undefined);
      const rootSchema = rootName === undefined ? undefined : normalized(rootName);
      if (!schema || rootName === undefined || rootSchema === undefined) return { ...snapshot, typeLabel: label, details };
      const index = kryo.registrations.findIndex((reg) => (reg.registeredClass ?? reg.name) === kryo.typeClass);
      const settings = { ...DEFAULT_PROTOBUF_SETTINGS, maxMessageSize: KRYO_MAX_MESSAGE_SIZE };
      // a state of a supertype (com.google.protobuf.Message) holds messages of any class, each written by name
      const contentFor = (javaClass: string) => {
        const name = classes.get(javaClass);
        const set = name === undefined ? undefined : normalized(name);
        return name === undefined || set === undefined
          ? undefined
          : { javaClass, rootFullName: name, settings, descriptorBytes: schema.bytes, descriptorSha256: sha256, schema: set };
      };
      const codec = new ProtobufValueCodec(
        {
          javaClass: kryo.typeClass,
          rootFullName: rootName,
          settings,
          descriptorBytes: schema.bytes,
          descriptorSha256: sha256,
          schema: rootSchema,
        },
        {
          javaClass: kryo.typeClass,
          ...(index >= 0
            ? {
                registrationId: FLINK_FIRST_KRYO_REGISTRATION_ID + index,
                registrationNote: `registration ${index + 1} of ${kryo.registrations.length}; Flink's own come first, ids 0–${FLINK_FIRST_KRYO_REGISTRATION_ID - 1}`,
              }
            : {}),
          contentFor,
        },
      );
      return { ...snapshot, typeLabel: label, status: 'known', details, codec };
    },
  });
}
