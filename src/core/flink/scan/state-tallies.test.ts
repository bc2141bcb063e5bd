import { describe, expect, it } from 'vitest';
import type { OperatorState } from '../metadata/metadata-types';
import type { StateScope } from '../savepoint/inspection-types';
import type { ScanPart } from './scan-types';
import { StateTallies } from './state-tallies';

const part = (operatorId: string, kind: 'operator' | 'keyed', states: string[], broadcastStates: string[] = []): ScanPart => ({
  operator: { id: operatorId } as OperatorState,
  subtask: 0,
  kind,
  format: kind === 'operator' ? 'operator' : 'canonical',
  states,
  broadcastStates,
});

describe('StateTallies', () => {
  it("makes every state a part's header names a tally when the part begins, in the order met, by operator, scope and state", () => {
    const tallies = new StateTallies((operatorId: string, state: string, scope: StateScope) => ({ operatorId, state, scope, entries: 0 }));
    tallies.startPart(part('a', 'operator', ['list', 'rules'], ['rules']));
    tallies.startPart(part('a', 'keyed', ['count']));
    tallies.startPart(part('b', 'keyed', ['count']));
    tallies.startPart(part('a', 'keyed', ['count', 'late']));
    expect([...tallies.byState.values()].map((t) => `${t.operatorId}/${t.scope}/${t.state}`)).toEqual([
      'a/operator/list',
      'a/operator/rules',
      'a/broadcast/rules',
      'a/keyed/count',
      'b/keyed/count',
      'a/keyed/late',
    ]);
  });

  it("gives an entry the tally of its state and scope in the part under way: a broadcast state's by its name among the part's broadcast states", () => {
    const tallies = new StateTallies((operatorId: string, state: string, scope: StateScope) => ({ operatorId, state, scope, entries: 0 }));
    const op = part('a', 'operator', ['list'], ['rules']);
    tallies.startPart(op);
    for (const state of ['list', 'rules', 'rules', 'list']) tallies.ofEntry(op, state).entries++;
    const keyed = part('a', 'keyed', ['rules']);
    tallies.startPart(keyed);
    // the same name in a keyed part is another state: the run's tally is looked up again
    tallies.ofEntry(keyed, 'rules').entries++;
    expect([...tallies.byState.values()].map((t) => `${t.scope}/${t.state}=${t.entries}`)).toEqual(['operator/list=2', 'broadcast/rules=2', 'keyed/rules=1']);
  });
});
