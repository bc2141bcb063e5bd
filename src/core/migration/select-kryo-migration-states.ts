/**
 * Which Kryo-held Protobuf states the generated State Processor API job (`migration-job`) carries, and why it
 * leaves the others: a state is carried when chill-protobuf wrote its values (plain Kryo cannot read protobuf-java's
 * internals back), its message class is one concrete generated class, the message is the whole value of a keyed
 * Value/Map/List or operator list/union state, and the key (and map user key) has a Flink basic type the job can
 * name. Everything else of the savepoint — timers, broadcast state, POJO fields, states that are not Protobuf
 * behind Kryo, operators without such state — is listed with the reason it is not in the new savepoint.
 */
import type { InspectedOperator, InspectedState, KryoSnapshotDetails, SerializerSnapshot } from '../flink';
import { PROTOBUF_SUPERTYPES, type FoundKryoProtobufState } from '../compat';

/** A Flink basic type the generated job names: its TypeInformation, Java type and a literal of it. */
export interface MigrationBasicType {
  javaType: string;
  typeInfo: string;
  literal: string;
}

const BASIC_TYPES: Readonly<Record<string, MigrationBasicType>> = {
  'org.apache.flink.api.common.typeutils.base.IntSerializer$IntSerializerSnapshot': { javaType: 'Integer', typeInfo: 'Types.INT', literal: '0' },
  'org.apache.flink.api.common.typeutils.base.LongSerializer$LongSerializerSnapshot': { javaType: 'Long', typeInfo: 'Types.LONG', literal: '0L' },
  'org.apache.flink.api.common.typeutils.base.StringSerializer$StringSerializerSnapshot': { javaType: 'String', typeInfo: 'Types.STRING', literal: '""' },
  'org.apache.flink.api.common.typeutils.base.ShortSerializer$ShortSerializerSnapshot': { javaType: 'Short', typeInfo: 'Types.SHORT', literal: '(short) 0' },
  'org.apache.flink.api.common.typeutils.base.ByteSerializer$ByteSerializerSnapshot': { javaType: 'Byte', typeInfo: 'Types.BYTE', literal: '(byte) 0' },
  'org.apache.flink.api.common.typeutils.base.BooleanSerializer$BooleanSerializerSnapshot': {
    javaType: 'Boolean',
    typeInfo: 'Types.BOOLEAN',
    literal: 'false',
  },
  'org.apache.flink.api.common.typeutils.base.DoubleSerializer$DoubleSerializerSnapshot': { javaType: 'Double', typeInfo: 'Types.DOUBLE', literal: '0.0d' },
  'org.apache.flink.api.common.typeutils.base.FloatSerializer$FloatSerializerSnapshot': { javaType: 'Float', typeInfo: 'Types.FLOAT', literal: '0.0f' },
  'org.apache.flink.api.common.typeutils.base.CharSerializer$CharSerializerSnapshot': { javaType: 'Character', typeInfo: 'Types.CHAR', literal: "'\\0'" },
};

export function findMigrationBasicType(s: SerializerSnapshot | undefined): MigrationBasicType | undefined {
  return s ? BASIC_TYPES[s.className] : undefined;
}

export type CarriedKind = 'VALUE' | 'MAP' | 'LIST' | 'OPERATOR_LIST' | 'OPERATOR_UNION';

export interface CarriedState {
  name: string;
  kind: CarriedKind;
  /** the generated message class, binary name (`Outer$Inner`) */
  messageClass: string;
  messageType: string | null;
  /** MAP: the user key's basic type */
  userKey?: MigrationBasicType;
}

export interface CarriedOperator {
  operator: InspectedOperator;
  /** keyed states carried: the operator's key type */
  key?: MigrationBasicType;
  keyed: CarriedState[];
  operatorStates: CarriedState[];
}

export interface NotCarried {
  operator: string;
  state: string | null;
  why: string;
}

export interface KryoMigrationSelection {
  operators: CarriedOperator[];
  notCarried: NotCarried[];
  /** the Kryo configuration the job reads with (from the first carried state's snapshot: one job, one config) */
  kryo: KryoSnapshotDetails | undefined;
}

const DIRECT_ROLE: Readonly<Record<string, string>> = {
  VALUE: 'VALUE_SERIALIZER',
  MAP: 'VALUE_SERIALIZER/1',
  LIST: 'VALUE_SERIALIZER/0',
  OPERATOR_LIST: 'VALUE_SERIALIZER',
  OPERATOR_UNION: 'VALUE_SERIALIZER',
};

function operatorLabel(o: InspectedOperator): string {
  return o.uid ? `${o.uid} (${o.id})` : o.id;
}

function whyNotCarried(f: FoundKryoProtobufState): string | undefined {
  if (f.recognition.kind === 'plain')
    return `plain Kryo (FieldSerializer) on ${f.kryo.typeClass}: its bytes are protobuf-java internals that Kryo cannot read back (Flink 1.20 fails the restore with UnsupportedOperationException); rebuild this state from its source`;
  if (PROTOBUF_SUPERTYPES.includes(f.kryo.typeClass))
    return `declared as ${f.kryo.typeClass}: Kryo wrote each value's class by name, and ProtobufTypeInformation needs one concrete generated class; split it into one state per message class in the job, then migrate`;
  const role = DIRECT_ROLE[f.state.kind];
  if (role === undefined) {
    if (f.state.kind === 'BROADCAST')
      return 'broadcast state: the generated job does not write broadcast state (BroadcastStateBootstrapFunction); not in the new savepoint';
    return `${f.state.kind} state: the generated job carries keyed Value/Map/List and operator list/union state only`;
  }
  if (f.role !== role)
    return `the message is not the whole value (${f.state.valueSerializer?.typeLabel ?? 'composite'}, at ${f.role}): a POJO or tuple field needs the job's own class and a ProtobufTypeInformation for that field (a TypeInfoFactory); not generated`;
  if (!f.recognition.messageType) return `class ${f.kryo.typeClass} is not a message of the given schema`;
  return undefined;
}

export function selectKryoMigrationStates(found: readonly FoundKryoProtobufState[], operators: readonly InspectedOperator[]): KryoMigrationSelection {
  const notCarried: NotCarried[] = [];
  const byOperator = new Map<string, CarriedOperator>();
  const carriedNames = new Map<string, Set<string>>();
  let kryo: KryoSnapshotDetails | undefined;
  const seen = new Set<string>();
  for (const f of found) {
    const id = `${f.operator.id}/${f.state.name}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const why = whyNotCarried(f);
    if (why) {
      notCarried.push({ operator: operatorLabel(f.operator), state: f.state.name, why });
      continue;
    }
    const keyed = f.state.scope === 'keyed';
    const key = keyed ? findMigrationBasicType(f.state.keySerializer) : undefined;
    if (keyed && !key) {
      notCarried.push({
        operator: operatorLabel(f.operator),
        state: f.state.name,
        why: `key type ${f.state.keySerializer?.typeLabel ?? 'unknown'} is not a Flink basic type the generated job can name; write its TypeInformation into the job by hand`,
      });
      continue;
    }
    const userKey = f.state.kind === 'MAP' ? findMigrationBasicType(f.state.valueSerializer?.nested[0]) : undefined;
    if (f.state.kind === 'MAP' && !userKey) {
      notCarried.push({
        operator: operatorLabel(f.operator),
        state: f.state.name,
        why: `map user key ${f.state.valueSerializer?.nested[0]?.typeLabel ?? 'unknown'} is not a Flink basic type the generated job can name`,
      });
      continue;
    }
    let op = byOperator.get(f.operator.id);
    if (!op) byOperator.set(f.operator.id, (op = { operator: f.operator, keyed: [], operatorStates: [] }));
    if (key) op.key = key;
    kryo ??= f.kryo;
    const state: CarriedState = {
      name: f.state.name,
      kind: f.state.kind as CarriedKind,
      messageClass: f.kryo.typeClass,
      messageType: f.recognition.messageType ?? null,
      ...(userKey ? { userKey } : {}),
    };
    (keyed ? op.keyed : op.operatorStates).push(state);
    let names = carriedNames.get(f.operator.id);
    if (!names) carriedNames.set(f.operator.id, (names = new Set()));
    names.add(f.state.name);
  }
  const kryoNames = new Set(found.map((f) => `${f.operator.id}/${f.state.name}`));
  for (const o of operators) {
    const carried = carriedNames.get(o.id);
    const others = o.states.filter((s) => !kryoNames.has(`${o.id}/${s.name}`));
    if (!carried) {
      if (others.length > 0)
        notCarried.push({
          operator: operatorLabel(o),
          state: null,
          why: `none of its states is carried (${others.map((s) => s.name).join(', ')}): the operator is not in the new savepoint, so the restored job starts it empty; keep it with SavepointWriter.fromExistingSavepoint (README) or re-create its state`,
        });
      continue;
    }
    for (const s of others) notCarried.push({ operator: operatorLabel(o), state: s.name, why: describeOther(s) });
  }
  return { operators: [...byOperator.values()], notCarried, kryo };
}

function describeOther(s: InspectedState): string {
  if (s.kind === 'PRIORITY_QUEUE') return 'timers: the State Processor API cannot write timers; the restored job must register them anew';
  if (s.kind === 'BROADCAST') return 'broadcast state: not written by the generated job; not in the new savepoint';
  return `not Protobuf behind Kryo (${s.valueSerializer?.typeLabel ?? 'unknown serializer'}): not written by the generated job, so it is not in the new savepoint; add it to the job with its own TypeInformation if it must be kept`;
}
