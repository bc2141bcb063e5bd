/**
 * Two savepoints compared (`diff <older> <newer>`, the app's Compare view): operators matched by id, then
 * the remaining operators holding the same states (names and serializers) under another id matched as
 * renamed; per matched operator its states added, removed and changed (kind, serializers, saved Protobuf
 * schema), its sizes per state and per subtask from the handles, parallelism and max parallelism; with
 * `values` each state's entries, value bytes and key-group skew from a scan of both sides. Only
 * `_metadata` and the state headers are read unless `values` is set. Never silent: a side whose part
 * could not be read is named in `notCompared`.
 */
import { haveSameBytes } from '../../io';
import type { CancelSignal, InspectedOperator, InspectedState, SavepointInspection, SavepointSession, SerializerSnapshot } from '../../flink';
import { diffSavedSchemas, listSavedSchemasByState, type SavedSchemasByState } from './diff-saved-schemas';
import { measureOperatorSizes, type OperatorSizes } from './measure-state-sizes';
import { tallyKey, tallyStateValues, type StateValueTallies, type StateValueTally } from './tally-state-values';
import type {
  Change,
  DiffOperatorRef,
  DiffSide,
  KeyGroupSkew,
  OperatorDiff,
  SavepointDiff,
  SerializerChange,
  SerializerSide,
  StateDiff,
  StateValueChange,
  SubtaskSize,
} from './savepoint-diff-types';

export interface DiffSavepointsInput {
  older: SavepointSession;
  newer: SavepointSession;
  /** scan the entries of both sides (entries, value bytes, skew); default false: `_metadata` and the headers only */
  values?: boolean;
  signal?: CancelSignal;
}

interface Side {
  session: SavepointSession;
  inspection: SavepointInspection;
  schemas: SavedSchemasByState;
  tallies?: StateValueTallies;
  label: 'older' | 'newer';
}

const ROLES = [
  ['KEY_SERIALIZER', 'keySerializer'],
  ['NAMESPACE_SERIALIZER', 'namespaceSerializer'],
  ['VALUE_SERIALIZER', 'valueSerializer'],
] as const;

export async function diffSavepoints(input: DiffSavepointsInput): Promise<SavepointDiff> {
  const signalOption = input.signal ? { signal: input.signal } : {};
  const notCompared: string[] = [];
  const warnings: string[] = [];
  const open = async (session: SavepointSession, label: Side['label']): Promise<Side> => {
    const inspection = await session.inspect(signalOption);
    const schemas = await listSavedSchemasByState(session.opened, input.signal);
    const side: Side = { session, inspection, schemas, label };
    if (input.values === true) {
      const scanned = await tallyStateValues(session, signalOption);
      side.tallies = scanned.tallies;
      notCompared.push(...scanned.errors.map((e) => `${label}: ${e}`));
    }
    describeUnread(side, notCompared);
    warnings.push(...inspection.warnings.map((w) => `${label}: ${w}`));
    return side;
  };
  const older = await open(input.older, 'older');
  const newer = await open(input.newer, 'newer');
  const same = haveSameBytes(older.session.opened.metadataBytes, newer.session.opened.metadataBytes);

  const stateful = (op: InspectedOperator) => op.states.length > 0 || op.stateSize > 0;
  const newById = new Map(newer.inspection.operators.map((op) => [op.id, op]));
  const pairs: [InspectedOperator, InspectedOperator, OperatorDiff['match']][] = [];
  const olderLeft: InspectedOperator[] = [];
  for (const op of older.inspection.operators) {
    const match = newById.get(op.id);
    if (match) {
      pairs.push([op, match, 'id']);
      newById.delete(op.id);
    } else olderLeft.push(op);
  }
  // renamed: an unmatched operator whose states (names and serializers) exactly one unmatched operator of the other side holds
  const newerLeft = [...newById.values()];
  const removed: InspectedOperator[] = [];
  for (const op of olderLeft) {
    if (op.states.length === 0) {
      removed.push(op);
      continue;
    }
    const signature = describeStates(op);
    const candidates = newerLeft.filter((n) => n.states.length > 0 && describeStates(n) === signature);
    if (candidates.length === 1) {
      pairs.push([op, candidates[0]!, 'renamed']);
      newerLeft.splice(newerLeft.indexOf(candidates[0]!), 1);
    } else removed.push(op);
  }
  const matchedWithState = pairs.filter(([o, n]) => stateful(o) || stateful(n));
  const operators = matchedWithState.map(([o, n, match]) => diffOperator(older, newer, o, n, match));
  // the same `_metadata` bytes name the same state files: the same savepoint, unless what was read of them differs (files replaced under the same names)
  const relation: SavepointDiff['relation'] =
    same && operators.every((op) => op.states.every((s) => !isStateChanged(s)))
      ? 'same-savepoint'
      : matchedWithState.length === 0 && (older.inspection.operators.some(stateful) || newer.inspection.operators.some(stateful))
        ? 'different-jobs'
        : 'same-job';

  return {
    older: describeSide(older),
    newer: describeSide(newer),
    relation,
    valuesCompared: input.values === true,
    operators,
    operatorsAdded: newerLeft.filter(stateful).map((op) => describeOperator(op)),
    operatorsRemoved: removed.filter(stateful).map((op) => describeOperator(op)),
    statelessOperators: { added: newerLeft.filter((op) => !stateful(op)).length, removed: removed.filter((op) => !stateful(op)).length },
    size: change(older.inspection.totalSize, newer.inspection.totalSize),
    notCompared,
    warnings,
  };
}

/** whether anything read of a state differs between the two sides (its serializers, saved schemas, kind, sizes or values) */
function isStateChanged(s: StateDiff): boolean {
  const v = s.values;
  return (
    s.kind !== undefined ||
    s.serializers.length > 0 ||
    s.savedSchemas.length > 0 ||
    s.notCompared !== undefined ||
    (s.size !== undefined && s.size.older !== s.size.newer) ||
    (v !== undefined && (v.entries.older !== v.entries.newer || v.valueBytes.older !== v.valueBytes.newer))
  );
}

function describeSide(side: Side): DiffSide {
  const i = side.inspection;
  return {
    input: i.input,
    checkpointId: i.checkpointId,
    type: i.type,
    format: i.format,
    metadataVersion: i.metadataVersion,
    totalSize: i.totalSize,
    stateSize: side.session.opened.totals.stateSize,
    operators: i.operators.length,
    states: i.summary.states,
  };
}

function describeOperator(op: InspectedOperator): DiffOperatorRef {
  return {
    id: op.id,
    ...(op.uid ? { uid: op.uid } : {}),
    ...(op.name ? { name: op.name } : {}),
    parallelism: op.parallelism,
    maxParallelism: op.maxParallelism,
    stateSize: op.stateSize,
    states: op.states.map((s) => `${s.scope}/${s.name}`),
  };
}

/** The states of an operator with their serializers' classes: two operators with the same description hold the same state. */
function describeStates(op: InspectedOperator): string {
  return op.states
    .map((s) => [s.scope, s.name, s.kind, ...ROLES.map(([, field]) => describeSerializerClasses(s[field]))].join('\u0000'))
    .sort()
    .join('\n');
}

function describeSerializerClasses(s: SerializerSnapshot | undefined): string {
  return s ? `${s.className}(${s.nested.map(describeSerializerClasses).join(',')})` : '-';
}

/**
 * Every part of a side that could not be read, one line per operator (its states whose header was not read,
 * the subtasks whose states were not listed, and the first reason), plus the missing files: its states
 * cannot be compared there. Errors no operator line covers are named too.
 */
function describeUnread(side: Side, out: string[]): void {
  const i = side.inspection;
  const lines: string[] = [];
  if (i.missingFiles && i.missingFiles.length > 0)
    lines.push(`${i.missingFiles.length} state file(s) missing: ${i.missingFiles.slice(0, 5).join(', ')}${i.missingFiles.length > 5 ? ', …' : ''}`);
  for (const op of i.operators) {
    const unread = op.states.filter((st) => st.status === 'unreadable');
    if (unread.length === 0 && op.streamsNotRead.length === 0) continue;
    const parts: string[] = [];
    if (unread.length > 0) parts.push(`state${unread.length === 1 ? '' : 's'} ${unread.map((st) => st.name).join(', ')} (header not read)`);
    for (const scope of ['keyed', 'operator'] as const) {
      const subtasks = op.streamsNotRead.filter((s) => s.scope === scope).map((s) => s.subtask);
      if (subtasks.length > 0) parts.push(`the ${scope} states of subtask${subtasks.length === 1 ? '' : 's'} ${subtasks.join(', ')} (not listed)`);
    }
    const reason = unread[0]?.statusReason ?? op.streamsNotRead[0]?.reason ?? 'unreadable';
    lines.push(`operator ${op.uid ?? op.id}: ${parts.join('; ')} — ${reason}`);
  }
  if (lines.length === 0) lines.push(...i.errors.map((e) => e.message));
  out.push(...lines.map((l) => `${side.label}: ${l}`));
  if (side.tallies) for (const [key, t] of side.tallies) if (t.notRead !== undefined) out.push(`${side.label}: values of ${key} not all read: ${t.notRead}`);
}

function diffOperator(older: Side, newer: Side, o: InspectedOperator, n: InspectedOperator, match: OperatorDiff['match']): OperatorDiff {
  const oSizes = measureOperatorSizes(
    older.session.opened,
    older.session.opened.metadata.operators.find((x) => x.id === o.id)!,
  );
  const nSizes = measureOperatorSizes(
    newer.session.opened,
    newer.session.opened.metadata.operators.find((x) => x.id === n.id)!,
  );
  const key = (s: InspectedState) => `${s.scope}/${s.name}`;
  const newStates = new Map(n.states.map((s) => [key(s), s]));
  const oldKeys = new Set(o.states.map(key));
  const states: StateDiff[] = [];
  for (const os of o.states) {
    const ns = newStates.get(key(os));
    if (ns) states.push(diffState(older, newer, o, n, os, ns, oSizes, nSizes));
  }
  return {
    older: describeOperator(o),
    newer: describeOperator(n),
    match,
    ...(o.parallelism !== n.parallelism ? { parallelism: { older: o.parallelism, newer: n.parallelism } } : {}),
    ...(o.maxParallelism !== n.maxParallelism ? { maxParallelism: { older: o.maxParallelism, newer: n.maxParallelism } } : {}),
    statesAdded: n.states.filter((s) => !oldKeys.has(key(s))).map(key),
    statesRemoved: o.states.filter((s) => !newStates.has(key(s))).map(key),
    states,
    size: change(oSizes.total, nSizes.total),
    ...(oSizes.keyed !== undefined || nSizes.keyed !== undefined ? { keyedSize: change(oSizes.keyed ?? 0, nSizes.keyed ?? 0) } : {}),
    subtasks: diffSubtasks(oSizes.subtasks, nSizes.subtasks),
  };
}

function diffState(
  older: Side,
  newer: Side,
  o: InspectedOperator,
  n: InspectedOperator,
  os: InspectedState,
  ns: InspectedState,
  oSizes: OperatorSizes,
  nSizes: OperatorSizes,
): StateDiff {
  const unread = [os.status === 'unreadable' ? 'older' : undefined, ns.status === 'unreadable' ? 'newer' : undefined].filter((x) => x !== undefined);
  const serializers: SerializerChange[] = [];
  if (unread.length === 0)
    for (const [role, field] of ROLES) {
      const a = os[field];
      const b = ns[field];
      if (a === undefined && b === undefined) continue;
      if (a && b && a.className === b.className && a.version === b.version && a.typeLabel === b.typeLabel) continue;
      serializers.push({ role, ...(a ? { older: describeSerializer(a) } : {}), ...(b ? { newer: describeSerializer(b) } : {}) });
    }
  const savedSchemas = diffSavedSchemas(older.schemas.get(`${o.id}/${os.name}`) ?? [], newer.schemas.get(`${n.id}/${ns.name}`) ?? []);
  const operatorScope = os.scope !== 'keyed';
  const oBy = operatorScope ? oSizes.states.get(os.name) : undefined;
  const nBy = operatorScope ? nSizes.states.get(ns.name) : undefined;
  const values =
    older.tallies && newer.tallies
      ? diffValues(older.tallies.get(tallyKey(o.id, os.scope, os.name)), newer.tallies.get(tallyKey(n.id, ns.scope, ns.name)))
      : undefined;
  return {
    name: os.name,
    scope: os.scope,
    ...(os.kind !== ns.kind ? { kind: { older: os.kind, newer: ns.kind } } : {}),
    serializers,
    savedSchemas,
    ...(operatorScope ? { size: change(sum(oBy), sum(nBy)), subtaskSizes: diffSubtasks(oBy ?? new Map(), nBy ?? new Map()) } : {}),
    ...(values ? { values } : {}),
    ...(unread.length > 0 ? { notCompared: `serializers not compared: the ${unread.join(' and ')} savepoint's header of this state could not be read` } : {}),
  };
}

function describeSerializer(s: SerializerSnapshot): SerializerSide {
  return { className: s.className, version: s.version, typeLabel: s.typeLabel };
}

function diffValues(o: StateValueTally | undefined, n: StateValueTally | undefined): StateValueChange {
  const empty: StateValueTally = { entries: 0, valueBytes: 0, subtasks: new Map() };
  const a = o ?? empty;
  const b = n ?? empty;
  const skewA = a.keyGroups ? measureSkew(a.keyGroups) : undefined;
  const skewB = b.keyGroups ? measureSkew(b.keyGroups) : undefined;
  const notRead = { ...(a.notRead !== undefined ? { older: a.notRead } : {}), ...(b.notRead !== undefined ? { newer: b.notRead } : {}) };
  return {
    entries: change(a.entries, b.entries),
    valueBytes: change(a.valueBytes, b.valueBytes),
    subtaskEntries: diffSubtasks(a.subtasks, b.subtasks),
    ...(skewA || skewB ? { skew: { ...(skewA ? { older: skewA } : {}), ...(skewB ? { newer: skewB } : {}) } } : {}),
    ...(Object.keys(notRead).length > 0 ? { notRead } : {}),
  };
}

/** The largest key group (the lowest index of equal ones) against the median of the key groups with data. */
function measureSkew(keyGroups: Map<number, number>): KeyGroupSkew | undefined {
  if (keyGroups.size === 0) return undefined;
  const counts = [...keyGroups.values()].sort((x, y) => x - y);
  const mid = counts.length >> 1;
  const median = counts.length % 2 === 1 ? counts[mid]! : (counts[mid - 1]! + counts[mid]!) / 2;
  let keyGroup = -1;
  let entries = -1;
  for (const [kg, c] of [...keyGroups].sort((x, y) => x[0] - y[0]))
    if (c > entries) {
      keyGroup = kg;
      entries = c;
    }
  return { keyGroup, entries, median, ratio: Math.round((entries / median) * 100) / 100 };
}

function diffSubtasks(a: Map<number, number>, b: Map<number, number>): SubtaskSize[] {
  const indexes = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => x - y);
  return indexes.map((subtask) => ({ subtask, ...change(a.get(subtask) ?? 0, b.get(subtask) ?? 0) }));
}

function sum(m: Map<number, number> | undefined): number {
  let t = 0;
  for (const v of m?.values() ?? []) t += v;
  return t;
}

export function change(older: number, newer: number): Change {
  return { older, newer, growth: older === 0 ? (newer === 0 ? 0 : null) : Math.round(((newer - older) / older) * 10000) / 10000 };
}
