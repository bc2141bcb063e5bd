import type { InspectedState, StateMetaInfo, StateScope } from '../savepoint/inspection-types';
import type { SerializerSnapshot } from '../snapshots/snapshot-types';

/** The first unknown snapshot in a tree of snapshots (depth-first; of an unknown one, the unknown class nested in it, if any). */
export function findUnknownSnapshot(s: SerializerSnapshot | undefined): SerializerSnapshot | undefined {
  if (!s) return undefined;
  for (const n of s.nested) {
    const u = findUnknownSnapshot(n);
    if (u) return u;
  }
  return s.status === 'unknown' ? s : undefined;
}

/** Status of a state from its serializers: 'unknown' with the reason naming the first unknown class. */
export function computeStateStatus(serializers: (SerializerSnapshot | undefined)[]): Pick<InspectedState, 'status' | 'statusReason'> {
  for (const s of serializers) {
    const u = findUnknownSnapshot(s);
    if (u) return { status: 'unknown', statusReason: `unknown serializer snapshot ${u.className} v${u.version}` };
  }
  return { status: 'ok' };
}

/**
 * Adds one subtask's view of a state to the per-operator list, merging by scope + name: the first
 * subtask's serializers are kept, later subtasks add their index. A differing serializer class
 * between subtasks is reported in `warnings`.
 */
export function mergeInspectedState(
  states: InspectedState[],
  warnings: string[],
  scope: StateScope,
  meta: StateMetaInfo,
  subtask: number,
  keySerializer: SerializerSnapshot | undefined,
  override?: Pick<InspectedState, 'status' | 'statusReason'>,
  incomplete?: string,
): void {
  const existing = states.find((s) => s.scope === scope && s.name === meta.name);
  const valueSerializer = meta.serializers.VALUE_SERIALIZER;
  if (existing) {
    if (!existing.subtasks.includes(subtask)) existing.subtasks.push(subtask);
    // what one subtask could not read holds for the state (the first such reason is kept)
    if (override && override.status !== 'ok' && existing.status !== 'unreadable')
      Object.assign(existing, override.status === 'unreadable' || existing.status === 'ok' ? override : {});
    if (incomplete !== undefined) existing.incomplete ??= incomplete;
    if (valueSerializer && existing.valueSerializer && existing.valueSerializer.className !== valueSerializer.className) {
      warnings.push(
        `state ${meta.name}: subtask ${subtask} records value serializer ${valueSerializer.className}, another subtask ${existing.valueSerializer.className}`,
      );
    }
    return;
  }
  const key = scope === 'broadcast' ? meta.serializers.KEY_SERIALIZER : keySerializer;
  const namespaceSerializer = meta.serializers.NAMESPACE_SERIALIZER;
  const status = override ?? computeStateStatus([key, namespaceSerializer, valueSerializer, meta.serializers.USER_KEY_SERIALIZER]);
  states.push({
    name: meta.name,
    scope,
    kind: meta.kind,
    backendStateType: meta.backendStateType,
    ...status,
    ...(key ? { keySerializer: key } : {}),
    ...(namespaceSerializer ? { namespaceSerializer } : {}),
    ...(valueSerializer ? { valueSerializer } : {}),
    ...(incomplete === undefined ? {} : { incomplete }),
    subtasks: [subtask],
  });
}
