/**
 * Whether a Kryo snapshot holds Protobuf messages: the state's class registered with chill-protobuf's
 * ProtobufSerializer (CLASS or INSTANCE), or a default serializer (class or instance) of chill's for the class or
 * one of protobuf-java's supertypes; otherwise, when the user's schema has a message of the state's Java class,
 * plain Kryo (FieldSerializer) on a Protobuf class, a hazard.
 */
import type { KryoSnapshotDetails } from '../../flink';

export const CHILL_PROTOBUF_SERIALIZER = 'com.twitter.chill.protobuf.ProtobufSerializer';

/** protobuf-java's types a Kryo default serializer can be declared for so that every message class gets it. */
export const PROTOBUF_SUPERTYPES: readonly string[] = [
  'com.google.protobuf.Message',
  'com.google.protobuf.MessageLite',
  'com.google.protobuf.GeneratedMessage',
  'com.google.protobuf.GeneratedMessageV3',
  'com.google.protobuf.GeneratedMessageLite',
  'com.google.protobuf.AbstractMessage',
  'com.google.protobuf.AbstractMessageLite',
];

export interface KryoProtobufRecognition {
  /** chill: chill-protobuf's serializer writes the message bytes; plain: Kryo's FieldSerializer walks protobuf-java's internals */
  kind: 'chill' | 'plain';
  /** how the serializer reaches the class, in words */
  how: string;
  serializerClass?: string;
  /** the message of the user's schema whose Java class is the state's (protoc's naming rules) */
  messageType?: string;
}

export function recognizeKryoProtobuf(kryo: KryoSnapshotDetails, messagesByJavaClass: ReadonlyMap<string, string>): KryoProtobufRecognition | undefined {
  const messageType = messagesByJavaClass.get(kryo.typeClass);
  const withType = messageType ? { messageType } : {};
  const registration = kryo.registrations.find((r) => (r.registeredClass ?? r.name) === kryo.typeClass && r.serializerClass === CHILL_PROTOBUF_SERIALIZER);
  if (registration)
    return {
      kind: 'chill',
      how: `${kryo.typeClass} registered with ${CHILL_PROTOBUF_SERIALIZER} (${registration.kind})`,
      serializerClass: CHILL_PROTOBUF_SERIALIZER,
      ...withType,
    };
  const applies = (forClass: string) => forClass === kryo.typeClass || PROTOBUF_SUPERTYPES.includes(forClass);
  for (const [list, what] of [
    [kryo.defaultSerializerClasses, 'default serializer class'],
    [kryo.defaultSerializers, 'default serializer instance'],
  ] as const) {
    const d = list.find((x) => x.serializerClass === CHILL_PROTOBUF_SERIALIZER && applies(x.forClass));
    if (d)
      return {
        kind: 'chill',
        how: `${CHILL_PROTOBUF_SERIALIZER} as the Kryo ${what} for ${d.forClass}`,
        serializerClass: CHILL_PROTOBUF_SERIALIZER,
        ...withType,
      };
  }
  if (messageType) return { kind: 'plain', how: `no Kryo serializer is registered or defaulted for ${kryo.typeClass}`, messageType };
  return undefined;
}
