import type { ByteReader } from '../../io';
import type { BackendStateType, StateKind, StateMetaInfo } from '../savepoint/inspection-types';
import type { SerializerSnapshot } from '../snapshots/snapshot-types';

export const BACKEND_STATE_TYPES: readonly BackendStateType[] = ['KEY_VALUE', 'OPERATOR', 'BROADCAST', 'PRIORITY_QUEUE', 'KEY_VALUE_V2'];

/** The part of a state meta info entry before its serializers. */
export interface StateMetaInfoPrefix {
  name: string;
  backendStateType: BackendStateType;
  options: Record<string, string>;
  serializerCount: number;
}

/** Reads name, backend state type, options and the serializer count of a state meta info entry. */
export function readStateMetaInfoPrefix(r: ByteReader): StateMetaInfoPrefix {
  const name = r.readUtf('state name');
  const typeAt = r.position;
  const ordinal = r.readI32(`backend state type of ${name}`);
  const backendStateType = BACKEND_STATE_TYPES[ordinal];
  if (backendStateType === undefined) {
    throw r.error('invalid-value', `expected a backend state type ordinal 0–4 for state ${name}, found ${ordinal}`, typeAt);
  }
  const optionCount = r.readCount(`options of state ${name}`, 4);
  const options: Record<string, string> = {};
  for (let i = 0; i < optionCount; i++) {
    const key = r.readUtf(`option key of state ${name}`);
    options[key] = r.readUtf(`option ${key} of state ${name}`);
  }
  // each serializer entry: utf key (≥ 2 bytes) + proxy version + class name + version (≥ 12)
  const serializerCount = r.readCount(`serializers of state ${name}`, 12);
  return { name, backendStateType, options, serializerCount };
}

/** The user-facing kind: KEYED_STATE_TYPE for keyed states, the distribution mode for operator states. */
export function computeStateKind(backendStateType: BackendStateType, options: Record<string, string>): StateKind {
  switch (backendStateType) {
    case 'KEY_VALUE':
    case 'KEY_VALUE_V2': {
      const t = options.KEYED_STATE_TYPE;
      return t === 'VALUE' || t === 'LIST' || t === 'MAP' || t === 'REDUCING' || t === 'AGGREGATING' || t === 'FOLDING' ? t : 'UNKNOWN';
    }
    case 'PRIORITY_QUEUE':
      return 'PRIORITY_QUEUE';
    case 'BROADCAST':
      return 'BROADCAST';
    case 'OPERATOR': {
      const mode = options.OPERATOR_STATE_DISTRIBUTION_MODE;
      return mode === 'UNION' ? 'OPERATOR_UNION' : mode === 'BROADCAST' ? 'BROADCAST' : mode === 'SPLIT_DISTRIBUTE' ? 'OPERATOR_LIST' : 'UNKNOWN';
    }
  }
}

export function createStateMetaInfo(prefix: StateMetaInfoPrefix, serializers: Record<string, SerializerSnapshot>): StateMetaInfo {
  return {
    name: prefix.name,
    backendStateType: prefix.backendStateType,
    kind: computeStateKind(prefix.backendStateType, prefix.options),
    options: prefix.options,
    serializers,
  };
}
