import type { ConnectorProblem, KafkaEnumeratorSplitView, KafkaSplitView, SourcesAndSinks } from '../../core/flink';
import { useSourcesAndSinks } from '../state/use-sources-and-sinks';
import { FileConnectorsView } from './file-connectors';

const PROBLEM_LABEL: Record<ConnectorProblem['kind'], string> = {
  corrupt: 'corrupt',
  'not-recognised': 'not recognised',
  'unsupported-version': 'unsupported version',
  'not-decoded': 'not decoded',
};

function operatorLabel(op: { operatorId: string; uid: string | null; name: string | null }): string {
  return op.uid ?? op.name ?? op.operatorId;
}

function offsetText(offset: string | null, marker: string | undefined, none: string): string {
  if (offset === null) return none;
  return marker ? `${marker} (${offset})` : offset;
}

function Problems({ problems }: { problems: readonly ConnectorProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="connector-problems" data-testid="connector-problems">
      {problems.map((p, i) => (
        <li key={i} data-testid="connector-problem" data-kind={p.kind}>
          <strong>{PROBLEM_LABEL[p.kind]}</strong> <span className="mono">{p.state}</span>: {p.message}
        </li>
      ))}
    </ul>
  );
}

function SplitsTable({ splits }: { splits: readonly KafkaSplitView[] }) {
  return (
    <table className="grid" data-testid="kafka-splits">
      <thead>
        <tr>
          <th>Subtask</th>
          <th>Topic</th>
          <th className="num">Partition</th>
          <th className="num">Starting offset</th>
          <th className="num">Stopping offset</th>
        </tr>
      </thead>
      <tbody>
        {splits.map((s) => (
          <tr key={`${s.subtask}/${s.topic}/${s.partition}`} data-testid="kafka-split">
            <td className="num">{s.subtask}</td>
            <td className="mono">{s.topic}</td>
            <td className="num">{s.partition}</td>
            <td className="num mono">{offsetText(s.startingOffset, s.startingOffsetMarker, '')}</td>
            <td className="num mono">{offsetText(s.stoppingOffset, s.stoppingOffsetMarker, 'none (unbounded)')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Enumerator state v3 (connector 5.0): each split as the enumerator assigned it, with its assignment status. */
function EnumeratorSplitsTable({ splits }: { splits: readonly KafkaEnumeratorSplitView[] }) {
  return (
    <table className="grid" data-testid="kafka-enumerator-splits">
      <caption>Enumerator splits (as assigned: the job&apos;s initial offsets, not a reader&apos;s progress)</caption>
      <thead>
        <tr>
          <th>Topic</th>
          <th className="num">Partition</th>
          <th>Status</th>
          <th className="num">Starting offset</th>
          <th className="num">Stopping offset</th>
        </tr>
      </thead>
      <tbody>
        {splits.map((s) => (
          <tr key={`${s.topic}/${s.partition}`} data-testid="kafka-enumerator-split">
            <td className="mono">{s.topic}</td>
            <td className="num">{s.partition}</td>
            <td>{s.status}</td>
            <td className="num mono">{offsetText(s.startingOffset, s.startingOffsetMarker, '')}</td>
            <td className="num mono">{offsetText(s.stoppingOffset, s.stoppingOffsetMarker, 'none (unbounded)')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PendingTransactionsTable({ transactions }: { transactions: SourcesAndSinks['sinks'][number]['pendingTransactions'] }) {
  return (
    <table className="grid" data-testid="kafka-pending-transactions">
      <caption>Pending transactions (committables a restore commits)</caption>
      <thead>
        <tr>
          <th>Subtask</th>
          <th>Transactional id</th>
          <th className="num">Producer id</th>
          <th className="num">Epoch</th>
          <th className="num">Checkpoint</th>
          <th>State</th>
        </tr>
      </thead>
      <tbody>
        {transactions.map((t) => (
          <tr key={`${t.subtask}/${t.checkpointId}/${t.transactionalId}`} data-testid="kafka-pending-transaction">
            <td className="num">{t.subtask}</td>
            <td className="mono">{t.transactionalId}</td>
            <td className="num mono">{t.producerId}</td>
            <td className="num">{t.epoch}</td>
            <td className="num mono">{t.checkpointId}</td>
            <td>{t.state}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The Overview's "Sources and sinks": what the worker decoded of the connectors' state (nothing here is computed but labels). */
export function SourcesAndSinksView({ views }: { views: SourcesAndSinks }) {
  return (
    <section className="panel" data-testid="sources-and-sinks">
      <div className="panel-head">
        <h2>Sources and sinks</h2>
      </div>
      <div className="panel-body">
        {views.sources.map((src) => (
          <div key={src.operatorId} className="connector" data-testid="source-operator">
            <h3>
              {src.connector === 'kafka' ? 'Kafka source' : 'Source (not recognised)'} <span className="mono">{operatorLabel(src)}</span>
              <span className="muted">
                {' '}
                — {src.splits.length} of {src.splitElements} split{src.splitElements === 1 ? '' : 's'} decoded, parallelism {src.parallelism}
              </span>
            </h3>
            {src.splits.length > 0 ? <SplitsTable splits={src.splits} /> : null}
            {src.enumerator ? (
              <p data-testid="kafka-enumerator">
                Enumerator: assigned{' '}
                <span className="mono">{src.enumerator.assignedPartitions.map((p) => `${p.topic}-${p.partition}`).join(', ') || 'none'}</span>
                {src.enumerator.unassignedInitialPartitions.length > 0 ? (
                  <>
                    ; unassigned initial{' '}
                    <span className="mono">{src.enumerator.unassignedInitialPartitions.map((p) => `${p.topic}-${p.partition}`).join(', ')}</span>
                  </>
                ) : null}
                {src.enumerator.initialDiscoveryFinished === null
                  ? ''
                  : `; initial discovery ${src.enumerator.initialDiscoveryFinished ? 'finished' : 'not finished'}`}
              </p>
            ) : null}
            {src.enumerator?.splits && src.enumerator.splits.length > 0 ? <EnumeratorSplitsTable splits={src.enumerator.splits} /> : null}
            <Problems problems={src.problems} />
          </div>
        ))}
        {views.legacyKafkaConsumers.map((c) => (
          <div key={c.operatorId} className="connector" data-testid="legacy-kafka-consumer">
            <h3>
              Legacy FlinkKafkaConsumer <span className="mono">{operatorLabel(c)}</span>
              <span className="muted"> — union state, offset of the last record emitted</span>
            </h3>
            <table className="grid">
              <thead>
                <tr>
                  <th>Subtask</th>
                  <th>Topic</th>
                  <th className="num">Partition</th>
                  <th className="num">Offset</th>
                </tr>
              </thead>
              <tbody>
                {c.offsets.map((o) => (
                  <tr key={`${o.subtask}/${o.topic}/${o.partition}`}>
                    <td className="num">{o.subtask}</td>
                    <td className="mono">{o.topic}</td>
                    <td className="num">{o.partition}</td>
                    <td className="num mono">{offsetText(o.offset, o.offsetMarker, '')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Problems problems={c.problems} />
          </div>
        ))}
        {views.sinks.map((k) => (
          <div key={k.operatorId} className="connector" data-testid="sink-operator">
            <h3>
              {k.connector === 'kafka' ? 'Kafka sink writer' : k.connector === 'committer' ? 'Sink committer' : 'Sink writer (not recognised)'}{' '}
              <span className="mono">{operatorLabel(k)}</span>
            </h3>
            {k.writers.length > 0 ? (
              <ul data-testid="kafka-sink-writers">
                {k.writers.map((w) => (
                  <li key={w.subtask}>
                    subtask {w.subtask}: transactional id prefix <span className="mono">{w.transactionalIdPrefix}</span>
                    {w.ongoingTransactions.length > 0
                      ? `, precommitted ${w.ongoingTransactions.map((t) => `${t.transactionalId} (checkpoint ${t.checkpointId})`).join(', ')}`
                      : ''}
                  </li>
                ))}
              </ul>
            ) : null}
            {k.pendingTransactions.length > 0 ? <PendingTransactionsTable transactions={k.pendingTransactions} /> : null}
            <Problems problems={k.problems} />
          </div>
        ))}
        <FileConnectorsView views={views} />
      </div>
    </section>
  );
}

/** Shown only for a savepoint with connector state; a failed read says so (never an empty section that looks complete). */
export function SourcesAndSinksSection() {
  const query = useSourcesAndSinks();
  if (query.isError) {
    return (
      <div className="notice banner" role="status" data-testid="sources-and-sinks-failed">
        <span>
          <strong>Sources and sinks not read:</strong> {query.error.message}
        </span>
      </div>
    );
  }
  const views = query.data;
  const fileViews = (views?.fileSources?.length ?? 0) + (views?.fileSinks?.length ?? 0);
  if (!views || views.sources.length + views.legacyKafkaConsumers.length + views.sinks.length + fileViews === 0) return null;
  return <SourcesAndSinksView views={views} />;
}
