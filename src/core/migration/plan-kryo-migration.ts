/**
 * The migration plan of Kryo-held Protobuf state (issue #17): per operator with such state, what a State
 * Processor API job must read with the old Kryo configuration and write with flink-datastream-protobuf's
 * ProtobufTypeInformation, and what it cannot carry. No restore can do this in place: the saved
 * KryoSerializerSnapshot never accepts another serializer (KRYO_PROTOBUF_NOT_RESTORABLE).
 */
import type { InspectedOperator, InspectedState } from '../flink';

type StateKind = InspectedState['kind'];
import type { FoundKryoProtobufState } from '../compat';
import { selectKryoMigrationStates } from './select-kryo-migration-states';

export interface KryoMigrationState {
  state: string;
  kind: StateKind;
  /** where the Protobuf value sits in the state's value serializer (VALUE_SERIALIZER, …/0 in a Map/List, a POJO field) */
  role: string;
  keyType: string | null;
  valueType: string;
  valueClass: string;
  messageType: string | null;
  /** how the values reach chill-protobuf, or why they are plain Kryo */
  kryo: string;
  registrations: string[];
  defaults: string[];
  /** what the State Processor API job does with it */
  action: string;
  /** whether the job `migration-job` generates carries it, or why not */
  generatedJob: string;
}

export interface KryoMigrationOperator {
  operatorId: string;
  uid: string | null;
  states: KryoMigrationState[];
  /** states of the operator the job does not carry (timers, state that is not Protobuf behind Kryo), with why */
  notCarried: { state: string; why: string }[];
}

function actionFor(kind: StateKind, role: string, plain: boolean): string {
  if (plain)
    return "read with the old job's classes and Kryo configuration (FieldSerializer: the values are protobuf-java internals; reading them back may fail as a restore does), rewrite with ProtobufTypeInformation";
  const nested = role !== 'VALUE_SERIALIZER';
  switch (kind) {
    case 'VALUE':
      return nested
        ? 'keyed ValueState of a composite (POJO/tuple) holding the message: read with the old TypeInformation, write the composite with the message field as ProtobufTypeInformation'
        : 'keyed ValueState: readKeyedState → ValueState<message> with ProtobufTypeInformation';
    case 'MAP':
      return 'keyed MapState: read the map, write MapState<user key, message> with ProtobufTypeInformation for the values';
    case 'LIST':
      return 'keyed ListState: read the list, write ListState<message> with ProtobufTypeInformation';
    case 'OPERATOR_LIST':
      return 'operator ListState: readListState with the old TypeInformation, write with ProtobufTypeInformation (split-distribute redistribution kept)';
    case 'OPERATOR_UNION':
      return 'operator union ListState: readUnionState, write with ProtobufTypeInformation';
    case 'BROADCAST':
      return 'broadcast MapState: readBroadcastState, write with ProtobufTypeInformation for the values';
    default:
      return `${kind} state: not carried by the State Processor API as such; rebuild it from its source`;
  }
}

export function planKryoMigration(found: readonly FoundKryoProtobufState[]): KryoMigrationOperator[] {
  const selection = selectKryoMigrationStates(found, []);
  const carried = new Set(selection.operators.flatMap((o) => [...o.keyed, ...o.operatorStates].map((s) => `${o.operator.id}/${s.name}`)));
  const why = new Map(selection.notCarried.map((n) => [`${n.operator}/${n.state ?? ''}`, n.why]));
  const generatedJob = (f: FoundKryoProtobufState) => {
    if (carried.has(`${f.operator.id}/${f.state.name}`)) return 'carried by migration-job';
    const label = f.operator.uid ? `${f.operator.uid} (${f.operator.id})` : f.operator.id;
    return `not carried by migration-job: ${why.get(`${label}/${f.state.name}`) ?? 'not selected'}`;
  };
  const byOperator = new Map<string, { operator: InspectedOperator; states: KryoMigrationState[] }>();
  for (const f of found) {
    let entry = byOperator.get(f.operator.id);
    if (!entry) byOperator.set(f.operator.id, (entry = { operator: f.operator, states: [] }));
    if (entry.states.some((s) => s.state === f.state.name)) continue;
    entry.states.push({
      state: f.state.name,
      kind: f.state.kind,
      role: f.role,
      keyType: f.state.keySerializer?.typeLabel ?? null,
      valueType: f.state.valueSerializer?.typeLabel ?? f.snapshot.typeLabel,
      valueClass: f.kryo.typeClass,
      messageType: f.recognition.messageType ?? null,
      kryo: f.recognition.how,
      registrations: f.kryo.registrations.map(
        (r) => `${r.registeredClass ?? r.name} ${r.kind ?? '(not loadable when written)'}${r.serializerClass ? ` ${r.serializerClass}` : ''}`,
      ),
      defaults: [...f.kryo.defaultSerializers, ...f.kryo.defaultSerializerClasses].map((d) => `${d.forClass} -> ${d.serializerClass ?? '?'}`),
      action: actionFor(f.state.kind, f.role, f.recognition.kind === 'plain'),
      generatedJob: generatedJob(f),
    });
  }
  return [...byOperator.values()]
    .sort((a, b) => (a.operator.id < b.operator.id ? -1 : a.operator.id > b.operator.id ? 1 : 0))
    .map(({ operator, states }) => {
      const carried = new Set(states.map((s) => s.state));
      const notCarried = operator.states
        .filter((s) => !carried.has(s.name))
        .map((s) => ({
          state: s.name,
          why:
            s.kind === 'PRIORITY_QUEUE'
              ? 'timers: the State Processor API cannot write timers; register them anew in the job'
              : `not Protobuf behind Kryo (${s.valueSerializer?.typeLabel ?? 'unknown serializer'}): carry it with its own serializer in the same job, or it is lost`,
        }));
      return { operatorId: operator.id, uid: operator.uid ?? null, states: states.sort((a, b) => (a.state < b.state ? -1 : 1)), notCarried };
    });
}
