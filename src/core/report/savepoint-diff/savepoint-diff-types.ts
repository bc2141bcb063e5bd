/**
 * The savepoint diff model (`diff <older> <newer>` and the app's Compare view): what changed between two
 * savepoints of one job — operators added, removed and renamed, states added and removed, serializer and
 * saved-schema changes, sizes per state and per subtask, and with the value scan entries and key-group
 * skew. Plain data (JSON as it is); built by diff-savepoints.ts, printed by format-savepoint-diff.ts.
 */
import type { Finding, Verdict } from '../../compat';
import type { StateScope } from '../../flink';

/** One side of the comparison, as its `_metadata` tells it. */
export interface DiffSide {
  input: string;
  checkpointId: string;
  type: 'savepoint' | 'checkpoint' | 'unknown';
  format: 'CANONICAL' | 'NATIVE' | 'unknown';
  metadataVersion: number;
  /** `_metadata` plus every file it references */
  totalSize: number;
  /** sum of the state handles' sizes */
  stateSize: number;
  operators: number;
  states: number;
}

/** A number on both sides; `growth` is (newer - older) / older, null when older is 0 (from nothing). */
export interface Change {
  older: number;
  newer: number;
  growth: number | null;
}

export interface DiffOperatorRef {
  id: string;
  uid?: string;
  name?: string;
  parallelism: number;
  maxParallelism: number;
  stateSize: number;
  /** `scope/name` of each state its headers list */
  states: string[];
}

export interface SerializerSide {
  className: string;
  version: number;
  typeLabel: string;
}

/** One serializer role of a state whose snapshot differs between the two savepoints. */
export interface SerializerChange {
  /** KEY_SERIALIZER, NAMESPACE_SERIALIZER, VALUE_SERIALIZER */
  role: string;
  older?: SerializerSide;
  newer?: SerializerSide;
}

/** The saved Protobuf schema of a state changed: the schema diff of the older saved schema against the newer one. */
export interface SavedSchemaChange {
  role: string;
  olderRoot: string;
  newerRoot: string;
  olderSha256: string;
  newerSha256: string;
  /** would the older savepoint's state restore under the newer one's schema (the rules of `check`, older saved schema as the saved side) */
  verdict: Verdict;
  firstIncompatibility?: string;
  /** the verdict's findings, accepted or not (on the 0.x line the exact rule: any change of the saved schema) */
  findings: Pick<Finding, 'ruleId' | 'accepted' | 'path' | 'message'>[];
  /** what changed in the schema, declaration by declaration (the directional rules' findings of the schema diff, whatever the line) */
  changes: Pick<Finding, 'ruleId' | 'accepted' | 'path' | 'message'>[];
  /** declarations of the reached schema that changed (added, removed, changed), by name */
  changedDeclarations: { name: string; status: 'changed' | 'added' | 'removed' }[];
}

/** What the value scan counted of a state (with `values`). */
export interface StateValueChange {
  entries: Change;
  valueBytes: Change;
  /** entries per subtask index */
  subtaskEntries: { subtask: number; older: number; newer: number; growth: number | null }[];
  /** keyed states: the largest key group against the median of the key groups with data */
  skew?: { older?: KeyGroupSkew; newer?: KeyGroupSkew };
  /** why the values of a side were not all read */
  notRead?: { older?: string; newer?: string };
}

export interface KeyGroupSkew {
  keyGroup: number;
  entries: number;
  median: number;
  /** entries of the largest key group / median */
  ratio: number;
}

export interface StateDiff {
  name: string;
  scope: StateScope;
  kind?: { older: string; newer: string };
  serializers: SerializerChange[];
  savedSchemas: SavedSchemaChange[];
  /** operator and broadcast states: their bytes in the operator-state files (from the handles' offsets); keyed states share their files, see the operator's keyedSize */
  size?: Change;
  /** operator and broadcast states: bytes per subtask */
  subtaskSizes?: SubtaskSize[];
  values?: StateValueChange;
  /** a side whose header of this state could not be read: what was not compared */
  notCompared?: string;
}

export interface SubtaskSize {
  subtask: number;
  older: number;
  newer: number;
  growth: number | null;
}

export interface OperatorDiff {
  older: DiffOperatorRef;
  newer: DiffOperatorRef;
  /** `id`: the same operator id; `renamed`: another id (uid) holding the same states, names and serializers */
  match: 'id' | 'renamed';
  parallelism?: { older: number; newer: number };
  maxParallelism?: { older: number; newer: number };
  statesAdded: string[];
  statesRemoved: string[];
  /** states on both sides (scope and name) */
  states: StateDiff[];
  /** all state handles of the operator */
  size: Change;
  /** bytes of the keyed state handles (every keyed state of the operator together), when it has keyed state */
  keyedSize?: Change;
  /** handle bytes per subtask */
  subtasks: SubtaskSize[];
}

export interface SavepointDiff {
  older: DiffSide;
  newer: DiffSide;
  /** `same-savepoint`: both `_metadata` files are the same bytes; `different-jobs`: no operator holding state is on both sides */
  relation: 'same-job' | 'same-savepoint' | 'different-jobs';
  /** whether the entries were scanned (`--values`); without it only `_metadata` and the state headers were read */
  valuesCompared: boolean;
  operators: OperatorDiff[];
  /** operators holding state on one side only (stateless ones are counted, not listed) */
  operatorsAdded: DiffOperatorRef[];
  operatorsRemoved: DiffOperatorRef[];
  statelessOperators: { added: number; removed: number };
  size: Change;
  /** what could not be compared, named (a side unreadable in part) */
  notCompared: string[];
  warnings: string[];
}

/** A `--fail-on-*` condition met, worded for the reader. */
export interface DiffFailure {
  condition: 'growth' | 'removed-state' | 'different-jobs' | 'not-compared';
  message: string;
}
