import type { StateScope } from '../savepoint/inspection-types';
import type { ScanPart } from './scan-types';

/** What a per-state tally names: its state, by operator and scope. */
export interface StateTallyKey {
  operatorId: string;
  state: string;
  scope: StateScope;
}

/**
 * The per-state tallies of a scan (entry counts, `stats`'s statistics), by operator, scope and state, in
 * the order the states were first met: every state a part's header names gets its tally when the part
 * begins (so a state without entries counts 0), and each entry finds the tally of its state and scope
 * (a broadcast state by its name among the part's broadcast states). Entries of one state come in runs:
 * the tally is looked up again only when the state or scope changes.
 */
export class StateTallies<T extends StateTallyKey> {
  /** the tallies, by `operatorId \0 scope \0 state`, in the order first met */
  readonly byState = new Map<string, T>();
  private last: T | undefined;
  private broadcast: ReadonlySet<string> = new Set();

  constructor(private readonly create: (operatorId: string, state: string, scope: StateScope) => T) {}

  /** The tally of a state, made when first met. */
  get(operatorId: string, state: string, scope: StateScope): T {
    const k = `${operatorId}\u0000${scope}\u0000${state}`;
    let t = this.byState.get(k);
    if (!t) this.byState.set(k, (t = this.create(operatorId, state, scope)));
    return t;
  }

  /** A part begins: the tallies of the states its header names (its keyed or operator states, then its broadcast states). */
  startPart(part: ScanPart): void {
    for (const name of part.states) this.get(part.operator.id, name, part.kind === 'keyed' ? 'keyed' : 'operator');
    for (const name of part.broadcastStates) this.get(part.operator.id, name, 'broadcast');
    this.broadcast = new Set(part.broadcastStates);
    this.last = undefined;
  }

  /** The tally of an entry of `state` in the part under way (startPart called for it). */
  ofEntry(part: ScanPart, state: string): T {
    const scope: StateScope = part.kind === 'keyed' ? 'keyed' : this.broadcast.has(state) ? 'broadcast' : 'operator';
    const last = this.last;
    if (last !== undefined && last.state === state && last.scope === scope && last.operatorId === part.operator.id) return last;
    return (this.last = this.get(part.operator.id, state, scope));
  }
}
