/**
 * A changelog subtask's state as Flink restores it: the materialized snapshot's entries with the
 * changelog's data changes applied on top, in record order (decode-changelog-changes.ts), per state and
 * key group. Each state's entries come out in ascending key groups, a key group's entries together:
 * entries of a (state, key group) without changes pass through as read; those with changes are held
 * until the state moves past that key group (one key group of one state in memory), then replayed.
 *
 * What each operation does (Flink's StateChangeAppliers): VALUE, REDUCING, AGGREGATING: SET and
 * SET_INTERNAL replace the value, CLEAR removes it. LIST: SET / SET_INTERNAL replace the list (an empty
 * list removes it), ADD appends a list, ADD_ELEMENT one element, MERGE_NS appends the source namespaces'
 * lists to the target's and removes them, CLEAR removes it. MAP: ADD puts every pair, ADD_ELEMENT and
 * ADD_OR_UPDATE_ELEMENT put one, REMOVE_ELEMENT removes a user key, CLEAR removes the key and namespace's
 * map. PRIORITY_QUEUE: ADD_ELEMENT adds elements (a set: an element present stays once), REMOVE_ELEMENT
 * removes one. Entries are matched by their decoded key, namespace, user key (or queue element).
 */
import { DecodeError } from '../../io';
import type { StateEntry } from '../savepoint/inspection-types';
import type { DecodedValue } from '../snapshots/snapshot-types';
import type { DecodedChange, StateChanges } from './decode-changelog-changes';

export interface ReplayContext {
  operatorId: string;
  subtask: number;
  /** `_metadata`'s name: where replayed values lie */
  file: string;
  /** key groups to give (a sample, a page of the app); default every one */
  keyGroup?: (kg: number) => boolean;
}

/** The entries of the subtask after its changes, for the states in `changes` and those of `materialized`. */
export async function* replayChangelogEntries(
  materialized: AsyncIterable<StateEntry> | undefined,
  changes: ReadonlyMap<string, StateChanges>,
  ctx: ReplayContext,
): AsyncGenerator<StateEntry> {
  const wantedGroup = ctx.keyGroup ?? (() => true);
  const byState = new Map<string, { kind: string; groups: Map<number, DecodedChange[]>; order: number[] }>();
  for (const [name, c] of changes) {
    if (c.kind !== 'changes') continue;
    const groups = new Map<number, DecodedChange[]>();
    for (const ch of c.changes) {
      const list = groups.get(ch.keyGroup);
      if (list) list.push(ch);
      else groups.set(ch.keyGroup, [ch]);
    }
    byState.set(name, { kind: c.state.kind, groups, order: [...groups.keys()].sort((a, b) => a - b) });
  }
  const pending = new Map<string, { keyGroup: number; entries: StateEntry[] }>();
  const emitted = new Map<string, Set<number>>();
  const done = (state: string) => {
    let s = emitted.get(state);
    if (!s) emitted.set(state, (s = new Set()));
    return s;
  };
  /** the replayed entries of (state, kg), once */
  const group = (state: string, kg: number, base: readonly StateEntry[]): StateEntry[] => {
    const d = done(state);
    if (d.has(kg)) return [];
    d.add(kg);
    if (!wantedGroup(kg)) return [];
    const s = byState.get(state)!;
    return applyChanges(s.kind, state, kg, base, s.groups.get(kg) ?? [], ctx);
  };
  /** the state's groups with changes before key group `below` not given yet (the held one with its entries), in key-group order */
  function* flushBefore(state: string, below: number): Generator<StateEntry> {
    const held = pending.get(state);
    for (const kg of byState.get(state)!.order) {
      if (kg >= below) break;
      if (held?.keyGroup === kg) {
        pending.delete(state);
        yield* group(state, kg, held.entries);
      } else yield* group(state, kg, []);
    }
  }
  if (materialized) {
    for await (const e of materialized) {
      const s = byState.get(e.state);
      if (!s) {
        if (wantedGroup(e.keyGroup)) yield e;
        continue;
      }
      yield* flushBefore(e.state, e.keyGroup);
      // a broken invariant, not bad bytes: every reader gives a state's entries in ascending key groups
      if (emitted.get(e.state)?.has(e.keyGroup))
        throw new Error(`changelog replay: an entry of state ${e.state} in key group ${e.keyGroup} came after that key group was replayed`);
      if (s.groups.has(e.keyGroup)) {
        const held = pending.get(e.state);
        if (held) held.entries.push(e);
        else pending.set(e.state, { keyGroup: e.keyGroup, entries: [e] });
      } else if (wantedGroup(e.keyGroup)) yield e;
    }
  }
  for (const state of byState.keys()) yield* flushBefore(state, Infinity);
}

/** A decoded value as a string that is equal for equal values (offsets and read buffers left out). */
export function identifyValue(v: DecodedValue | null | undefined): string {
  return JSON.stringify(v ?? null, (k, x: unknown) => (k === 'frame' || k === 'bytes' || k === 'offset' || k === 'file' || k === 'codec' ? undefined : x));
}

function scopeOf(key: DecodedValue | undefined, namespace: DecodedValue | undefined): string {
  return `${identifyValue(key)}\u0000${identifyValue(namespace)}`;
}

/** The state's entries of one key group after its changes. */
function applyChanges(
  kind: string,
  state: string,
  keyGroup: number,
  base: readonly StateEntry[],
  changes: readonly DecodedChange[],
  ctx: ReplayContext,
): StateEntry[] {
  const make = (ch: DecodedChange, value: DecodedValue | null, extra: Partial<StateEntry> = {}): StateEntry => ({
    operatorId: ctx.operatorId,
    state,
    subtask: ctx.subtask,
    keyGroup,
    ...(ch.key ? { key: ch.key } : {}),
    ...(ch.namespace ? { namespace: ch.namespace } : {}),
    ...extra,
    value,
    file: ctx.file,
    valueRange: { offset: ch.offset, length: ch.length },
  });
  if (kind === 'PRIORITY_QUEUE') {
    const queue = new Map<string, StateEntry>(base.map((e) => [identifyValue(e.value), e]));
    for (const ch of changes) {
      for (const element of ch.elements ?? []) {
        const id = identifyValue(element);
        if (ch.operation === 'REMOVE_ELEMENT') queue.delete(id);
        else if (!queue.has(id)) {
          const timer = element.kind === 'timer' ? { key: element.key, namespace: element.namespace } : {};
          queue.set(id, { ...make({ ...ch, key: undefined, namespace: undefined } as DecodedChange, element), ...timer });
        }
      }
    }
    return [...queue.values()];
  }
  if (kind === 'MAP') {
    const maps = new Map<string, Map<string, StateEntry>>();
    for (const e of base) {
      const scope = scopeOf(e.key, e.namespace);
      let m = maps.get(scope);
      if (!m) maps.set(scope, (m = new Map()));
      m.set(identifyValue(e.userKey), e);
    }
    for (const ch of changes) {
      const scope = scopeOf(ch.key, ch.namespace);
      if (ch.operation === 'CLEAR') {
        maps.delete(scope);
        continue;
      }
      let m = maps.get(scope);
      if (!m) maps.set(scope, (m = new Map()));
      for (const p of ch.pairs ?? []) {
        if (ch.operation === 'REMOVE_ELEMENT') m.delete(identifyValue(p.userKey));
        else m.set(identifyValue(p.userKey), make(ch, p.value ?? null, { userKey: p.userKey }));
      }
      if (m.size === 0) maps.delete(scope);
    }
    return [...maps.values()].flatMap((m) => [...m.values()]);
  }
  const slots = new Map<string, StateEntry>(base.map((e) => [scopeOf(e.key, e.namespace), e]));
  for (const ch of changes) {
    const scope = scopeOf(ch.key, ch.namespace);
    switch (ch.operation) {
      case 'CLEAR':
        slots.delete(scope);
        break;
      case 'SET':
      case 'SET_INTERNAL':
        if (kind === 'LIST' && ch.value?.kind === 'list' && ch.value.items.length === 0) slots.delete(scope);
        else slots.set(scope, make(ch, ch.value ?? null));
        break;
      case 'ADD':
      case 'ADD_ELEMENT': {
        const added = ch.operation === 'ADD' ? (ch.value?.kind === 'list' ? ch.value.items : []) : (ch.elements ?? []);
        if (added.length === 0) break;
        const prior = slots.get(scope);
        slots.set(scope, make(ch, { kind: 'list', items: [...listItems(prior), ...added] }));
        break;
      }
      case 'MERGE_NS': {
        const merged: DecodedValue[] = [];
        for (const source of ch.sources ?? []) {
          const s = scopeOf(ch.key, source);
          merged.push(...listItems(slots.get(s)));
          slots.delete(s);
        }
        if (merged.length === 0) break;
        const prior = slots.get(scope);
        slots.set(scope, make(ch, { kind: 'list', items: [...listItems(prior), ...merged] }));
        break;
      }
      default:
        break;
    }
  }
  return [...slots.values()];
}

function listItems(e: StateEntry | undefined): DecodedValue[] {
  if (!e || e.value === null) return [];
  if (e.value.kind !== 'list') {
    throw new DecodeError({
      code: 'invalid-value',
      file: e.file,
      offset: e.valueRange.offset,
      path: [`subtask ${e.subtask}`, e.state],
      detail: `expected a list to append the changelog's elements to, found a ${e.value.kind} value`,
    });
  }
  return e.value.items;
}
