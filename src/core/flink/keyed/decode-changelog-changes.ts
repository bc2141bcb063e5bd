/**
 * The data changes of a subtask's in-memory changelog, decoded per state, as Flink's restore applies them
 * (flink-statebackend-changelog: ChangelogBackendLogApplier and the per-kind StateChangeAppliers; the
 * writers: AbstractStateChangeLogger, KvStateChangeLoggerImpl, PriorityQueueStateChangeLoggerImpl).
 *
 * A data change is `u8 operation, i16 state id`, then for key/value states the scope (key, then
 * namespace) and the operation's payload; priority-queue changes have no scope. Operation codes of
 * Flink ≥ 1.15: 0 CLEAR, 1 SET, 2 SET_INTERNAL, 3 ADD, 4 MERGE_NS, 5 ADD_ELEMENT, 6 ADD_OR_UPDATE_ELEMENT,
 * 7 REMOVE_ELEMENT, 8 METADATA; the writers before had 8 REMOVE_FIRST_ELEMENT (a queue poll) and 9 METADATA.
 *
 * The key serializer is not in the changelog (META records name the namespace and value serializers
 * only): it comes from the materialized snapshot's header, or from a timer queue's TimerSerializer
 * (which nests the backend's key serializer). Without it, a key is kept as its bytes where the lengths
 * of the namespace and the payload are fixed (the change's length then tells the key's), and the state
 * is partly decoded; otherwise the state is not read, with the reason.
 */
import { ByteReader, isDecodeError, type ByteSource } from '../../io';
import type { StateKind, StateMetaInfo } from '../savepoint/inspection-types';
import type { DecodedValue, SerializerSnapshot, ValueCodec, ValueMode } from '../snapshots/snapshot-types';
import { codecOf, describeOpaque, planKeyedDecode, type KeyedDecodePlan } from './decode-keyed-entry';

export const CHANGE_OPERATIONS = ['CLEAR', 'SET', 'SET_INTERNAL', 'ADD', 'MERGE_NS', 'ADD_ELEMENT', 'ADD_OR_UPDATE_ELEMENT', 'REMOVE_ELEMENT'] as const;
export type ChangeOperation = (typeof CHANGE_OPERATIONS)[number];

/** One decoded data change of a state. */
export interface DecodedChange {
  operation: ChangeOperation;
  keyGroup: number;
  /** key/value states: the key and namespace the change applies to */
  key?: DecodedValue;
  namespace?: DecodedValue;
  /** SET, SET_INTERNAL: the new value (LIST: the list); ADD of a LIST: the list added */
  value?: DecodedValue;
  /** LIST ADD_ELEMENT, PRIORITY_QUEUE ADD_ELEMENT (each added element), PRIORITY_QUEUE REMOVE_ELEMENT */
  elements?: DecodedValue[];
  /** MAP ADD (every pair), ADD_ELEMENT / ADD_OR_UPDATE_ELEMENT (one pair), REMOVE_ELEMENT (the user key, value absent) */
  pairs?: { userKey: DecodedValue; value?: DecodedValue | null }[];
  /** MERGE_NS of a LIST: the namespaces merged into `namespace` */
  sources?: DecodedValue[];
  /** where the change lies in `_metadata` */
  offset: number;
  length: number;
}

export interface ChangelogKeySource {
  serializer: SerializerSnapshot;
  /** where it was found, for messages */
  source: string;
}

/** One in-memory changelog record, in the order Flink applies them. */
export type ChangelogRecord =
  /** a META record: from here on, data changes of `stateId` belong to `state` */
  | { kind: 'meta'; stateId: number; state: StateMetaInfo; backendStateType: number; ttl: boolean }
  /** a META record that could not be read: the state it names (if its name was read) and why */
  | { kind: 'bad-meta'; name?: string; reason: string }
  /** a data change: its bytes in `_metadata` (operation, i16 state id, scope, payload) */
  | { kind: 'data'; keyGroup: number; offset: number; length: number };

export interface ChangelogReplayInput {
  operatorId: string;
  subtask: number;
  maxParallelism: number;
  /** the handle's key-group range: changes outside it are not applied (as Flink's restore) */
  range: { start: number; end: number };
  records: readonly ChangelogRecord[];
  metadataOperation: number;
  key?: ChangelogKeySource;
  /**
   * every state of the subtask (its materialized header's and its META records'): when the changelog cannot be
   * trusted as a whole (a change names a state id no META record defines, a META record that cannot be read names
   * no state), each of them is unreadable — also a state whose own META record was the one lost
   */
  stateNames?: readonly string[];
  /** `_metadata`, where the in-memory changes lie */
  source: ByteSource;
  file: string;
}

/** The changes of one state, or why they cannot be replayed. */
export type StateChanges =
  | { kind: 'changes'; state: StateMetaInfo; changes: DecodedChange[]; /** set when keys are kept as their bytes: why */ rawKeys?: string }
  | { kind: 'unreadable'; state?: StateMetaInfo; reason: string };

/**
 * Decodes every data change of the subtask's in-memory changelog, per state name (`mode`: how values
 * are read, as in a scan). A state whose changes cannot all be replayed is `unreadable` with the reason
 * (its first such change); every state a META record names has an outcome.
 */
export async function decodeChangelogChanges(input: ChangelogReplayInput, mode: ValueMode): Promise<Map<string, StateChanges>> {
  const out = new Map<string, StateChanges>();
  const ids = new Map<number, StateMetaInfo>();
  const plans = new Map<string, ChangePlan>();
  const legacy = input.metadataOperation !== 8;
  const fail = (name: string, state: StateMetaInfo | undefined, reason: string) => {
    const prior = out.get(name);
    if (prior?.kind === 'unreadable') return;
    out.set(name, { kind: 'unreadable', ...((state ?? prior?.state) ? { state: (state ?? prior!.state)! } : {}), reason });
  };
  // set once nothing of the subtask's changelog can be trusted: every state fails, also those named later
  let subtaskFailure: string | undefined;
  const failAll = (reason: string) => {
    subtaskFailure ??= reason;
    for (const name of new Set([...out.keys(), ...(input.stateNames ?? [])])) fail(name, undefined, reason);
  };
  let index = 0;
  for (const record of input.records) {
    if (record.kind === 'bad-meta') {
      if (record.name !== undefined) fail(record.name, undefined, `subtask ${input.subtask}: ${record.reason}`);
      // a META record that names no state may have been any state's: none of them can be trusted
      else failAll(`subtask ${input.subtask}: a state's ${record.reason.replace(/^its /, '')}`);
      continue;
    }
    if (record.kind === 'meta') {
      ids.set(record.stateId, record.state);
      if (!out.has(record.state.name)) out.set(record.state.name, { kind: 'changes', state: record.state, changes: [] });
      if (subtaskFailure !== undefined) fail(record.state.name, record.state, subtaskFailure);
      const plan = planChanges(record.state, input, record.ttl);
      plans.set(record.state.name, plan);
      if (plan.unreadable !== undefined) fail(record.state.name, record.state, plan.unreadable);
      continue;
    }
    const n = index++;
    if (record.keyGroup < input.range.start || record.keyGroup > input.range.end) continue;
    const bytes = await input.source.read(record.offset, record.length);
    const r = new ByteReader(bytes, { file: input.file, baseOffset: record.offset, path: [`subtask ${input.subtask}`, `changelog change #${n}`] });
    const opAt = r.position;
    const code = r.readU8('changelog operation');
    const idAt = r.position;
    const id = r.readI16('changelog state id');
    const state = ids.get(id);
    if (!state) {
      // Flink's restore fails here (no state for the id): nothing of the subtask's changelog can be trusted
      const located = r.error('invalid-value', `changelog change #${n} names state id ${id}, which no META record before it defines`, idAt);
      failAll(`subtask ${input.subtask}: ${located.message}`);
      continue;
    }
    const slot = out.get(state.name)!;
    if (slot.kind === 'unreadable') continue;
    const plan = plans.get(state.name)!;
    const operation = legacy && code === 8 ? undefined : CHANGE_OPERATIONS[code];
    try {
      if (operation === undefined) {
        const what = legacy && code === 8 ? 'REMOVE_FIRST_ELEMENT (a queue poll, whose element a pre-1.15 writer does not record)' : `operation code ${code}`;
        throw r.error('unsupported-format', `expected a changelog operation that can be replayed, found ${what}`, opAt);
      }
      const change = decodeChange(r, plan, operation, record.keyGroup, mode);
      if (r.remaining > 0)
        throw r.error(
          'invalid-value',
          `expected the ${operation} change of state ${state.name} to end after ${r.position} of its ${record.length} bytes, found ${r.remaining} bytes more`,
        );
      slot.changes.push(change);
      if (plan.rawKeys !== undefined) slot.rawKeys = plan.rawKeys;
    } catch (e) {
      if (!isDecodeError(e)) throw e;
      fail(state.name, state, `subtask ${input.subtask}: its changelog cannot be replayed: ${e.message}`);
    }
  }
  return out;
}

interface ChangePlan {
  kind: StateKind;
  decode: KeyedDecodePlan;
  /** the whole state serializer (LIST: ListSerializer, MAP: MapSerializer) */
  stateCodec?: ValueCodec;
  key?: ValueCodec;
  /** set when keys are kept as their bytes: why */
  rawKeys?: string;
  unreadable?: string;
  state: StateMetaInfo;
}

const REPLAYED_KINDS: readonly StateKind[] = ['VALUE', 'LIST', 'MAP', 'REDUCING', 'AGGREGATING', 'PRIORITY_QUEUE'];

function planChanges(state: StateMetaInfo, input: ChangelogReplayInput, ttl: boolean): ChangePlan {
  const keySerializer = input.key?.serializer;
  const placeholder: SerializerSnapshot = { className: 'unrecorded', version: 0, typeLabel: 'key', status: 'unknown', nested: [], fixedLength: -1 };
  const decode = planKeyedDecode(state, keySerializer ?? placeholder, input.maxParallelism);
  const plan: ChangePlan = { kind: state.kind, decode, state };
  const stateCodec = codecOf(state.serializers.VALUE_SERIALIZER);
  if (stateCodec) plan.stateCodec = stateCodec;
  const where = `subtask ${input.subtask}`;
  if (!REPLAYED_KINDS.includes(state.kind)) {
    plan.unreadable = `${where}: changes of a ${state.kind} state are not replayed here`;
    return plan;
  }
  if (ttl) {
    // the value serializer of the META record is the user's; with TTL the backend stores TTL-wrapped values
    plan.unreadable = `${where}: the changelog records the state with a TTL, whose stored value layout is not replayed here`;
    return plan;
  }
  if (state.kind === 'PRIORITY_QUEUE') {
    if (!codecOf(decode.value)) plan.unreadable = `${where}: the queue's element serializer ${decode.value?.typeLabel ?? '(none)'} cannot decode its changes`;
    return plan;
  }
  const missing = [
    !codecOf(decode.namespace) ? 'namespace' : '',
    !codecOf(decode.value) ? 'value' : '',
    state.kind === 'MAP' && !codecOf(decode.userKey) ? 'user key' : '',
  ].filter(Boolean);
  if (missing.length > 0) {
    plan.unreadable = `${where}: its changes cannot be decoded: no decoder for the ${missing.join(' and ')} serializer`;
    return plan;
  }
  const key = keySerializer ? codecOf(keySerializer) : undefined;
  if (key) plan.key = key;
  else if (keySerializer)
    plan.unreadable = `${where}: the key serializer ${keySerializer.typeLabel} (${input.key!.source}) cannot decode the keys of its changes`;
  else
    plan.rawKeys =
      'keys shown as their bytes: the changelog does not record the key serializer, and the subtask has no materialized snapshot or timer queue whose serializer names it';
  return plan;
}

const VOID_NAMESPACE = 'org.apache.flink.runtime.state.VoidNamespaceSerializer$VoidNamespaceSerializerSnapshot';

/** The bytes a fixed-length serializer writes per value (VoidNamespaceSerializer reports length 0 but writes one byte), -1 when they vary. */
function writtenLength(s: SerializerSnapshot): number {
  return s.className === VOID_NAMESPACE ? 1 : s.fixedLength;
}

/** The fixed byte length of the payload of `operation` for the plan's state, -1 when it varies (a key kept as bytes is then not separable). */
function payloadLength(plan: ChangePlan, operation: ChangeOperation): number {
  const value = plan.decode.value?.fixedLength ?? -1;
  const userKey = plan.decode.userKey?.fixedLength ?? -1;
  switch (operation) {
    case 'CLEAR':
      return 0;
    case 'SET':
    case 'SET_INTERNAL':
      return plan.kind === 'LIST' ? -1 : value;
    case 'ADD_ELEMENT':
    case 'ADD_OR_UPDATE_ELEMENT':
      if (plan.kind === 'LIST') return value;
      return plan.kind === 'MAP' && userKey >= 0 && value >= 0 ? userKey + value : -1;
    case 'REMOVE_ELEMENT':
      return plan.kind === 'MAP' ? userKey : -1;
    default:
      return -1;
  }
}

function decodeChange(r: ByteReader, plan: ChangePlan, operation: ChangeOperation, keyGroup: number, mode: ValueMode): DecodedChange {
  const change: DecodedChange = { operation, keyGroup, offset: r.absolutePosition - 3, length: r.length };
  const kind = plan.kind;
  const refuse = () => r.error('unsupported-format', `expected an operation a ${kind} state records, found ${operation}`, 0);
  if (kind === 'PRIORITY_QUEUE') {
    const element = codecOf(plan.decode.value)!;
    if (operation === 'ADD_ELEMENT') {
      const n = r.readCount('added queue elements', 1);
      change.elements = [];
      for (let i = 0; i < n; i++) change.elements.push(element.decode(r));
    } else if (operation === 'REMOVE_ELEMENT') change.elements = [element.decode(r)];
    else throw refuse();
    return change;
  }
  // scope: key, then namespace
  if (plan.key) change.key = plan.key.decode(r);
  else {
    const payload = payloadLength(plan, operation);
    const ns = writtenLength(plan.decode.namespace!);
    const keyLength = payload < 0 || ns < 0 ? -1 : r.remaining - ns - payload;
    if (keyLength < 0)
      throw r.error(
        'unsupported-format',
        `expected a ${operation} change whose key length follows from fixed-length namespace and payload (the key serializer is not recorded), found ${ns < 0 ? 'a variable-length namespace' : 'a variable-length payload'}`,
      );
    change.key = describeOpaque(r.readBytes(keyLength, 'key bytes'), 'the key serializer is not recorded in the changelog');
  }
  const namespace = codecOf(plan.decode.namespace)!;
  change.namespace = namespace.decode(r);
  const value = codecOf(plan.decode.value)!;
  switch (operation) {
    case 'CLEAR':
      return change;
    case 'SET':
    case 'SET_INTERNAL':
      if (kind === 'MAP' || (kind === 'VALUE' && operation === 'SET_INTERNAL')) throw refuse();
      change.value = (kind === 'LIST' ? plan.stateCodec! : value).decode(r, mode);
      return change;
    case 'ADD':
      if (kind === 'LIST') change.value = plan.stateCodec!.decode(r, mode);
      else if (kind === 'MAP') change.pairs = readMapPairs(r, plan, mode);
      else throw refuse();
      return change;
    case 'ADD_ELEMENT':
    case 'ADD_OR_UPDATE_ELEMENT':
      if (kind === 'LIST' && operation === 'ADD_ELEMENT') change.elements = [value.decode(r, mode)];
      else if (kind === 'MAP') change.pairs = [{ userKey: codecOf(plan.decode.userKey)!.decode(r), value: value.decode(r, mode) }];
      else throw refuse();
      return change;
    case 'REMOVE_ELEMENT':
      if (kind !== 'MAP') throw refuse();
      change.pairs = [{ userKey: codecOf(plan.decode.userKey)!.decode(r) }];
      return change;
    case 'MERGE_NS': {
      if (kind !== 'LIST') {
        throw r.error(
          'unsupported-format',
          `expected no MERGE_NS in a ${kind} state (merging its namespaces runs the job's ${kind === 'REDUCING' ? 'reduce' : 'aggregate'} function, which is not in the checkpoint), found one`,
          0,
        );
      }
      const target = namespace.decode(r);
      if (JSON.stringify(target) !== JSON.stringify(change.namespace))
        throw r.error('invalid-value', "expected the MERGE_NS target namespace to repeat the change's namespace, found another");
      const n = r.readCount('merged namespaces', 1);
      change.sources = [];
      for (let i = 0; i < n; i++) change.sources.push(namespace.decode(r));
      return change;
    }
  }
}

/** MapSerializer bytes: i32 count, then per entry the user key, a null flag and (when not null) the value. */
function readMapPairs(r: ByteReader, plan: ChangePlan, mode: ValueMode): { userKey: DecodedValue; value: DecodedValue | null }[] {
  const userKey = codecOf(plan.decode.userKey)!;
  const value = codecOf(plan.decode.value)!;
  const n = r.readCount('map entries', 2);
  const pairs: { userKey: DecodedValue; value: DecodedValue | null }[] = [];
  for (let i = 0; i < n; i++) {
    const k = userKey.decode(r);
    pairs.push({ userKey: k, value: r.readBool('map value null flag') ? null : value.decode(r, mode) });
  }
  return pairs;
}
