/**
 * Lists every stream handle (the handles that point at bytes) of an operator's subtasks and
 * coordinator, with the role it plays, by walking keyed, operator and channel handles.
 */
import type { ChannelStateHandle, KeyedStateHandle, OperatorState, StreamHandle, SubtaskState } from '../metadata/metadata-types';

export interface StreamHandleUse {
  /** e.g. `managed keyed state`, `managed operator state`, `coordinator state`, `managed keyed state / shared 000010.sst` */
  role: string;
  /** undefined for the coordinator state */
  subtask?: number;
  handle: StreamHandle;
}

export function listOperatorStreamHandles(op: OperatorState): StreamHandleUse[] {
  const out: StreamHandleUse[] = [];
  if (op.coordinatorState) out.push({ role: 'coordinator state', handle: op.coordinatorState });
  for (const s of op.subtasks) out.push(...listSubtaskStreamHandles(s));
  return out;
}

export function listSubtaskStreamHandles(s: SubtaskState): StreamHandleUse[] {
  const out: StreamHandleUse[] = [];
  const add = (role: string, h: StreamHandle | null) => {
    if (h) out.push({ role, subtask: s.index, handle: h });
  };
  add('managed operator state', s.managedOperatorState?.delegate ?? null);
  add('raw operator state', s.rawOperatorState?.delegate ?? null);
  addKeyed('managed keyed state', s.managedKeyedState, add, 0);
  addKeyed('raw keyed state', s.rawKeyedState, add, 0);
  addChannels('input channel state', s.inputChannelStates ?? [], add);
  addChannels('result subpartition state', s.resultSubpartitionStates ?? [], add);
  return out;
}

type Add = (role: string, h: StreamHandle | null) => void;

function addKeyed(role: string, h: KeyedStateHandle | null, add: Add, depth: number): void {
  if (h === null || depth > 16) return;
  if (h.kind === 'key-groups') {
    add(role, h.delegate);
  } else if (h.kind === 'incremental') {
    add(`${role} / meta data`, h.metaData);
    for (const f of h.sharedFiles) add(`${role} / shared ${f.localPath}`, f.handle);
    for (const f of h.privateFiles) add(`${role} / private ${f.localPath}`, f.handle);
  } else {
    for (const f of h.files ?? []) add(`${role} / changelog`, f.handle);
    h.nested.forEach((n, i) => addKeyed(`${role} / nested #${i}`, n, add, depth + 1));
  }
}

function addChannels(role: string, list: readonly ChannelStateHandle[], add: Add): void {
  list.forEach((c, i) => add(`${role} #${i}`, c.delegate));
}
