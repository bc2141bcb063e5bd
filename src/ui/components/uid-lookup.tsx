import { useState } from 'react';
import { computeOperatorId } from '../../core/flink';

/**
 * Type a uid, see the operator id Flink derives from it (murmur3_128 of the uid, as Flink 1.x/2.x
 * hash user-specified uids) and whether this savepoint has that operator.
 */
export function UidLookup({ operatorIds }: { operatorIds: readonly string[] }) {
  const [uid, setUid] = useState('');
  const computed = uid === '' ? null : computeOperatorIdForUid(uid);
  const present = computed !== null && computed.kind === 'ok' && operatorIds.includes(computed.id);
  return (
    <section className="panel uid-lookup">
      <header className="panel-head">
        <h2>uid → operator id</h2>
      </header>
      <div className="row">
        <label htmlFor="uid-input">uid</label>
        <input
          id="uid-input"
          className="mono"
          value={uid}
          placeholder="e.g. my-stateful-operator"
          onChange={(e) => setUid(e.currentTarget.value)}
          data-testid="uid-input"
        />
        {computed === null ? null : computed.kind === 'ok' ? (
          <>
            <span className="mono" data-testid="uid-operator-id">{computed.id}</span>
            <span className={present ? 'tag ok' : 'tag muted'} data-testid="uid-present">
              {present ? 'in this savepoint' : 'not in this savepoint'}
            </span>
          </>
        ) : (
          <span className="muted">{computed.message}</span>
        )}
      </div>
    </section>
  );
}

function computeOperatorIdForUid(uid: string): { kind: 'ok'; id: string } | { kind: 'unavailable'; message: string } {
  return { kind: 'ok', id: computeOperatorId(uid) };
}
