import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useInspector } from '../inspector-context';

/**
 * Type a uid, see the operator id Flink derives from it (murmur3_128 of the uid, as Flink 1.x/2.x
 * hash user-specified uids) and whether this savepoint has that operator.
 */
export function UidLookup({ operatorIds }: { operatorIds: readonly string[] }) {
  const [uid, setUid] = useState('');
  const inspector = useInspector();
  // computed in the worker (murmur3_128 lives in the core); the id shows once it is back
  const operatorId = useQuery({
    queryKey: ['operator-id', uid],
    enabled: uid !== '',
    staleTime: Infinity,
    retry: false,
    queryFn: () => inspector.computeOperatorId(uid),
  });
  const computed = uid === '' ? null : (operatorId.data ?? null);
  const present = computed !== null && operatorIds.includes(computed);
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
        {computed === null ? null : (
          <>
            <span className="mono" data-testid="uid-operator-id">
              {computed}
            </span>
            <span className={present ? 'tag ok' : 'tag muted'} data-testid="uid-present">
              {present ? 'in this savepoint' : 'not in this savepoint'}
            </span>
          </>
        )}
      </div>
    </section>
  );
}
