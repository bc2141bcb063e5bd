/** Target-line, identity and settings rules. */
import type { RuleDefinition } from './rule';

export const TARGET_RULES = [
  {
    id: 'TARGET_CANNOT_READ_SNAPSHOT',
    outcome: 'rejected',
    group: 'target',
    summary: 'the target library line cannot read the saved snapshot class at all (not-restorable)',
    template: '{snapshotClass} ({savedLine}) cannot be read by target {target}: {reason}',
  },
  {
    id: 'KRYO_PROTOBUF_NOT_RESTORABLE',
    outcome: 'rejected',
    group: 'target',
    summary: 'Protobuf state held by Kryo (chill-protobuf) restored with flink-datastream-protobuf (not-restorable)',
    template:
      "{javaClass} is held by Kryo ({how}); flink-datastream-protobuf {target} cannot restore it: the saved KryoSerializerSnapshot is not the native serializer's, so Flink rejects the restore, and there is no in-place migration (rewrite the state with the State Processor API)",
  },
  {
    id: 'KRYO_PLAIN_PROTOBUF_HAZARD',
    outcome: 'rejected',
    group: 'target',
    summary: 'Protobuf class held by plain Kryo (FieldSerializer, no chill-protobuf): protobuf-java internals in state (not-restorable)',
    template:
      "{javaClass} ({messageType}) is written by Kryo's FieldSerializer ({how}): the bytes are protobuf-java's internal fields, not Protobuf; Flink 1.x fails to restore such state (UnsupportedOperationException), Flink 2.x cannot take the savepoint, and flink-datastream-protobuf {target} cannot restore it",
  },
  {
    id: 'PEER_SERDE_STATE_NOT_SUPPORTED',
    outcome: 'rejected',
    group: 'target',
    summary: 'Protobuf state written by the peer serializer flink-protobuf-serde, which declares state out of its scope (not-restorable)',
    template:
      "{javaClass} is written by flink-protobuf-serde's ProtoSerializer ({snapshotClass}), whose project declares keyed and operator state and schema evolution out of its scope ('Do not use Protobuf for Flink state'); flink-datastream-protobuf {target} cannot restore it: the saved snapshot is not the native serializer's, so Flink rejects the restore, and there is no in-place migration (rewrite the state with the State Processor API)",
  },
  {
    id: 'EXACT_SCHEMA_CHANGED',
    outcome: 'rejected',
    group: 'target',
    summary: '0.x accepts only equal normalized descriptor sets',
    template: 'Normalized descriptor set differs from the saved one (0.x accepts only an identical schema): {difference}',
  },
] as const satisfies readonly RuleDefinition[];

export const IDENTITY_RULES = [
  {
    id: 'TYPE_KIND_CHANGED',
    outcome: 'rejected',
    group: 'identity',
    summary: 'generated-class state restored as DynamicMessage, or the reverse',
    template: 'Saved {oldKind} state cannot be restored as {newKind}',
  },
  {
    id: 'JAVA_CLASS_CHANGED',
    outcome: 'rejected',
    group: 'identity',
    summary: 'generated-class state: the Java binary class name differs',
    template: 'Java class changes from {old} to {new}',
  },
  {
    id: 'ROOT_RENAMED',
    outcome: 'rejected',
    group: 'identity',
    summary: 'the root message full name differs',
    template: 'Root message changes from {old} to {new}',
  },
  {
    id: 'NEW_ROOT_MISSING',
    outcome: 'rejected',
    group: 'identity',
    summary: "the new descriptor set has no message of the state's new root name (pick the new root, or add the type)",
    template: 'The new schema has no message {root}',
  },
  {
    id: 'JOB_JAR_DESCRIPTOR_CONFLICT',
    outcome: 'rejected',
    group: 'identity',
    summary:
      "the job jar embeds a file the state's new root reaches in two different versions (two protobuf runtimes, or two copies): the check cannot tell which one the state's classes build",
    template:
      "{file}, which the root reaches, is embedded in two different versions in the job jar: by {kept} ({keptJar}) and by {other} ({otherJar}); the check used the first, and the state's generated classes may build the other at run time, so this state is not passed: bundle one version of the file (exclude or relocate the other copy)",
  },
  {
    id: 'MAX_MESSAGE_SIZE_DECREASED',
    outcome: 'rejected',
    group: 'settings',
    summary: 'new maxMessageSize is smaller than the saved one',
    template: 'maxMessageSize decreases from {old} to {new}',
  },
  {
    id: 'RECURSION_LIMIT_DECREASED',
    outcome: 'rejected',
    group: 'settings',
    summary: 'new recursionLimit is smaller than the saved one',
    template: 'recursionLimit decreases from {old} to {new}',
  },
  {
    id: 'MAX_MESSAGE_SIZE_INCREASED',
    outcome: 'accepted',
    group: 'settings',
    summary: 'new maxMessageSize is larger than the saved one',
    template: 'maxMessageSize increases from {old} to {new}',
  },
  {
    id: 'RECURSION_LIMIT_INCREASED',
    outcome: 'accepted',
    group: 'settings',
    summary: 'new recursionLimit is larger than the saved one',
    template: 'recursionLimit increases from {old} to {new}',
  },
  {
    id: 'DETERMINISTIC_SERIALIZATION_CHANGED',
    outcome: 'accepted',
    group: 'settings',
    summary: 'deterministicSerialization changes (either direction is allowed)',
    template: 'deterministicSerialization changes from {old} to {new}',
  },
  {
    id: 'LARGE_PAYLOAD_ALIASING_CHANGED',
    outcome: 'accepted',
    group: 'settings',
    summary: 'largePayloadAliasing changes (either direction is allowed)',
    template: 'largePayloadAliasing changes from {old} to {new}',
  },
] as const satisfies readonly RuleDefinition[];
