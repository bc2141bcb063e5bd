/**
 * The Compare view: another savepoint opened beside the open one (picked like the first: a folder, an archive or
 * `_metadata`), and what changed between the two — the worker's diff model (core/report diffSavepoints, what the
 * CLI's `diff` prints). The page draws plain data only; every comparison is made in the worker.
 */
import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Change, DiffOperatorRef, OperatorDiff, SavepointDiff, StateDiff } from '../../core/report';
import type { InputFile, InspectorFailure, InspectorProgress } from '../../worker';
import { FailurePanel } from '../components/failure-panel';
import { FilePickers } from '../components/file-pickers';
import { ProgressBar } from '../components/progress-bar';
import { formatBytes, formatCount } from '../format';
import { useInspector } from '../inspector-context';
import { useAppStore } from '../state/app-store';

/** growth above this is drawn as a warning (the CLI's gate takes the user's threshold) */
const NOTABLE_GROWTH = 0.5;

export function CompareView() {
  const inspector = useInspector();
  const session = useAppStore((s) => s.session);
  const [files, setFiles] = useState<InputFile[] | null>(null);
  const [openIs, setOpenIs] = useState<'older' | 'newer'>('newer');
  const [values, setValues] = useState(false);
  const [progress, setProgress] = useState<InspectorProgress | null>(null);
  const filesKey = files?.map((f) => `${f.path}:${f.blob.size}`).join('|') ?? '';
  const query = useQuery<SavepointDiff, InspectorFailure>({
    queryKey: ['session', session?.savepointHash, 'compare', filesKey, openIs, values],
    enabled: files !== null && files.length > 0,
    staleTime: Infinity,
    retry: false,
    queryFn: async () => {
      try {
        return await inspector.compareWith({ kind: 'files', files: files! }, { openIs, values }, setProgress);
      } finally {
        setProgress(null);
      }
    },
  });
  const other = files ? describePicked(files) : null;
  return (
    <div className="view" data-testid="compare">
      <h1>Compare</h1>
      <p className="muted">
        What changed between the open savepoint and another of the same job: operators added, removed or renamed, states, serializers and saved schemas, sizes
        per state and subtask. Only <span className="mono">_metadata</span> and the state headers are read unless values are scanned.
      </p>
      <div className="compare-controls">
        <span>Compare with</span>
        <FilePickers onFiles={setFiles} compact testIdPrefix="compare-" />
        {other ? (
          <span className="mono" data-testid="compare-other">
            {other}
          </span>
        ) : null}
        <label>
          the open savepoint is the{' '}
          <select value={openIs} onChange={(e) => setOpenIs(e.currentTarget.value as 'older' | 'newer')} data-testid="compare-open-is">
            <option value="newer">newer</option>
            <option value="older">older</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={values} onChange={(e) => setValues(e.currentTarget.checked)} data-testid="compare-values" /> scan values (entries,
          key-group skew)
        </label>
      </div>
      {query.isFetching ? <ProgressBar progress={progress} onCancel={() => void inspector.cancel()} what="Comparing" inline /> : null}
      {query.isError ? <FailurePanel failure={query.error} context="comparing two savepoints" onRetry={() => void query.refetch()} /> : null}
      {query.data && !query.isFetching ? <DiffResult diff={query.data} /> : null}
    </div>
  );
}

function describePicked(files: InputFile[]): string {
  if (files.length === 1) return files[0]!.path;
  const top = files[0]!.path.split('/')[0];
  return `${top}/ (${files.length} files)`;
}

function DiffResult({ diff }: { diff: SavepointDiff }) {
  const changed = diff.operators.filter((op) => isOperatorChanged(op));
  const unchanged = diff.operators.length - changed.length;
  return (
    <div data-testid="compare-result">
      <div className="cards">
        <SideCard label="Older" side={diff.older} testId="compare-older" />
        <SideCard label="Newer" side={diff.newer} testId="compare-newer" />
        <div className="card wide" data-testid="compare-total">
          <div className="card-label">Total size</div>
          <div className="card-value">
            <ChangeText change={diff.size} />
          </div>
          <div className="card-sub">{diff.valuesCompared ? 'values scanned on both sides' : '_metadata and state headers only'}</div>
        </div>
      </div>
      <RelationNote diff={diff} />
      {diff.notCompared.length > 0 ? (
        <section className="panel" data-testid="compare-not-compared">
          <header className="panel-head">
            <h2>Not compared</h2>
          </header>
          <ul className="warnings">
            {diff.notCompared.map((l, i) => (
              <li key={i}>{l}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {diff.relation === 'same-job' ? (
        <>
          <section className="panel">
            <header className="panel-head">
              <h2>Operators</h2>
              <span className="muted">
                {diff.operators.length} compared, {changed.length} changed, {unchanged} unchanged
              </span>
            </header>
            <table className="grid" data-testid="compare-operators">
              <thead>
                <tr>
                  <th>Operator</th>
                  <th>Match</th>
                  <th>Parallelism</th>
                  <th className="num">Size</th>
                  <th className="num">Keyed state</th>
                  <th>States</th>
                </tr>
              </thead>
              <tbody>
                {diff.operators.map((op) => (
                  <tr key={op.newer.id} data-testid="compare-operator-row">
                    <td>
                      <OperatorName op={op.newer} />
                    </td>
                    <td>
                      {op.match === 'renamed' ? (
                        <span className="tag warn" title={`${op.older.id} → ${op.newer.id}`}>
                          renamed
                        </span>
                      ) : (
                        <span className="muted">same id</span>
                      )}
                    </td>
                    <td>{op.parallelism ? `${op.parallelism.older} → ${op.parallelism.newer}` : op.newer.parallelism}</td>
                    <td className="num">
                      <ChangeText change={op.size} />
                    </td>
                    <td className="num">{op.keyedSize ? <ChangeText change={op.keyedSize} /> : <span className="muted">—</span>}</td>
                    <td>{describeOperatorStates(op)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          {changed.map((op) => (
            <OperatorChanges key={op.newer.id} op={op} />
          ))}
          <OperatorList title="Operators added" ops={diff.operatorsAdded} testId="compare-added" />
          <OperatorList title="Operators removed" ops={diff.operatorsRemoved} testId="compare-removed" />
        </>
      ) : null}
    </div>
  );
}

function SideCard({ label, side, testId }: { label: string; side: SavepointDiff['older']; testId: string }) {
  return (
    <div className="card wide" data-testid={testId}>
      <div className="card-label">{label}</div>
      <div className="card-value mono">{side.input}</div>
      <div className="card-sub">
        {side.type} {side.checkpointId}, {side.format}, _metadata v{side.metadataVersion}, {formatBytes(side.totalSize)}, {side.operators} operators,{' '}
        {side.states} states
      </div>
    </div>
  );
}

function RelationNote({ diff }: { diff: SavepointDiff }) {
  if (diff.relation === 'same-savepoint')
    return (
      <p className="banner ok" data-testid="compare-relation">
        Both are the same savepoint: their <span className="mono">_metadata</span> files are the same bytes, so nothing changed.
      </p>
    );
  if (diff.relation === 'different-jobs')
    return (
      <div className="banner bad" data-testid="compare-relation">
        <p>
          No operator holding state is in both savepoints (no operator id in common, none holding the same states under another id): these look like savepoints
          of different jobs, so nothing was compared.
        </p>
        <p className="muted">
          Older: {diff.operatorsRemoved.map((o) => o.uid ?? o.id).join(', ') || 'no operator with state'}. Newer:{' '}
          {diff.operatorsAdded.map((o) => o.uid ?? o.id).join(', ') || 'no operator with state'}.
        </p>
      </div>
    );
  return null;
}

function OperatorName({ op }: { op: DiffOperatorRef }) {
  return (
    <span title={op.id}>
      {op.uid ?? op.name ?? <span className="mono">{op.id.slice(0, 12)}…</span>}
      {op.uid ? <span className="muted mono"> {op.id.slice(0, 8)}</span> : null}
    </span>
  );
}

function describeOperatorStates(op: OperatorDiff): string {
  const parts: string[] = [];
  const changed = op.states.filter(isStateChanged).length;
  if (changed > 0) parts.push(`${changed} changed`);
  if (op.statesAdded.length > 0) parts.push(`${op.statesAdded.length} added`);
  if (op.statesRemoved.length > 0) parts.push(`${op.statesRemoved.length} removed`);
  const same = op.states.length - changed;
  if (same > 0) parts.push(`${same} unchanged`);
  return parts.join(', ');
}

function isOperatorChanged(op: OperatorDiff): boolean {
  return (
    op.match === 'renamed' ||
    op.parallelism !== undefined ||
    op.maxParallelism !== undefined ||
    op.statesAdded.length + op.statesRemoved.length > 0 ||
    op.states.some(isStateChanged) ||
    op.size.older !== op.size.newer
  );
}

function isStateChanged(s: StateDiff): boolean {
  const v = s.values;
  return (
    s.kind !== undefined ||
    s.serializers.length > 0 ||
    s.savedSchemas.length > 0 ||
    s.notCompared !== undefined ||
    (s.size !== undefined && s.size.older !== s.size.newer) ||
    (v !== undefined && (v.entries.older !== v.entries.newer || v.valueBytes.older !== v.valueBytes.newer || v.skew?.older?.ratio !== v.skew?.newer?.ratio))
  );
}

function OperatorChanges({ op }: { op: OperatorDiff }) {
  const states = op.states.filter(isStateChanged);
  return (
    <section className="panel" data-testid="compare-operator">
      <header className="panel-head">
        <h2>
          <OperatorName op={op.newer} />
        </h2>
        {op.match === 'renamed' ? (
          <span className="muted">
            renamed: the same states under another operator id ({op.older.uid ?? op.older.id} → {op.newer.uid ?? op.newer.id}); Flink restores them only if the
            uid is mapped back
          </span>
        ) : null}
      </header>
      <ul className="compare-facts">
        {op.parallelism ? (
          <li>
            parallelism {op.parallelism.older} → {op.parallelism.newer}
          </li>
        ) : null}
        {op.maxParallelism ? (
          <li className="bad-text">
            max parallelism {op.maxParallelism.older} → {op.maxParallelism.newer}: keyed state does not restore across a max-parallelism change
          </li>
        ) : null}
        {op.subtasks.some((s) => s.older !== s.newer) ? (
          <li>
            subtasks:{' '}
            {op.subtasks
              .filter((s) => s.older !== s.newer)
              .map((s) => `#${s.subtask} ${formatBytes(s.older)} → ${formatBytes(s.newer)} (${describeGrowth(s)})`)
              .join(', ')}
          </li>
        ) : null}
        {op.statesAdded.map((s) => (
          <li key={`+${s}`}>
            <span className="tag ok">added</span> <span className="mono">{s}</span>
          </li>
        ))}
        {op.statesRemoved.map((s) => (
          <li key={`-${s}`}>
            <span className="tag bad">removed</span> <span className="mono">{s}</span>
          </li>
        ))}
      </ul>
      {states.length > 0 ? (
        <table className="grid" data-testid="compare-states">
          <thead>
            <tr>
              <th>State</th>
              <th>Changes</th>
              <th className="num">Size</th>
              <th className="num">Entries</th>
              <th className="num">Value bytes</th>
              <th>Key-group skew</th>
            </tr>
          </thead>
          <tbody>
            {states.map((s) => (
              <tr key={`${s.scope}/${s.name}`}>
                <td className="compare-state-name">
                  <span className="mono">{s.name}</span> <span className="muted">{s.scope}</span>
                </td>
                <td>
                  <StateChanges state={s} />
                </td>
                <td className="num">
                  {s.size ? (
                    <ChangeText change={s.size} />
                  ) : (
                    <span className="muted" title="keyed states share their files: see the operator's keyed state">
                      —
                    </span>
                  )}
                </td>
                <td className="num">{s.values ? <ChangeText change={s.values.entries} count /> : <span className="muted">—</span>}</td>
                <td className="num">{s.values ? <ChangeText change={s.values.valueBytes} /> : <span className="muted">—</span>}</td>
                <td>{s.values?.skew ? describeSkew(s.values.skew) : <span className="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

function StateChanges({ state }: { state: StateDiff }) {
  const items: ReactNode[] = [];
  if (state.notCompared) items.push(<span className="warn-text">{state.notCompared}</span>);
  if (state.kind) items.push(`kind ${state.kind.older} → ${state.kind.newer}`);
  for (const c of state.serializers)
    items.push(
      <span title={`${c.older?.className ?? 'none'} v${c.older?.version ?? '-'} → ${c.newer?.className ?? 'none'} v${c.newer?.version ?? '-'}`}>
        {roleLabel(c.role)}: {c.older?.typeLabel ?? 'none'} → {c.newer?.typeLabel ?? 'none'}
      </span>,
    );
  for (const c of state.savedSchemas)
    items.push(
      <span>
        saved schema of {c.newerRoot} changed: <span className={`tag ${c.verdict === 'compatible' ? 'ok' : 'bad'}`}>{c.verdict}</span>
        {c.firstIncompatibility ? ` ${c.firstIncompatibility}` : ''}
        {c.changes.length > 0 ? (
          <ul className="plain-list">
            {c.changes.map((f, i) => (
              <li key={i} className={f.accepted ? 'muted' : 'bad-text'}>
                {f.ruleId}: {f.message}
              </li>
            ))}
          </ul>
        ) : null}
      </span>,
    );
  if (items.length === 0) return <span className="muted">same serializers and schema</span>;
  return (
    <ul className="plain-list">
      {items.map((it, i) => (
        <li key={i}>{it}</li>
      ))}
    </ul>
  );
}

function roleLabel(role: string): string {
  return role === 'VALUE_SERIALIZER' ? 'value' : role === 'KEY_SERIALIZER' ? 'key' : role === 'NAMESPACE_SERIALIZER' ? 'namespace' : role;
}

function describeSkew(skew: NonNullable<NonNullable<StateDiff['values']>['skew']>): string {
  const one = (s: typeof skew.older) => (s ? `${s.ratio}× (key group ${s.keyGroup})` : 'none');
  return `${one(skew.older)} → ${one(skew.newer)}`;
}

function OperatorList({ title, ops, testId }: { title: string; ops: DiffOperatorRef[]; testId: string }) {
  if (ops.length === 0) return null;
  return (
    <section className="panel" data-testid={testId}>
      <header className="panel-head">
        <h2>{title}</h2>
      </header>
      <ul className="compare-facts">
        {ops.map((o) => (
          <li key={o.id}>
            <OperatorName op={o} />: {o.states.length} state{o.states.length === 1 ? '' : 's'} ({o.states.join(', ')}), {formatBytes(o.stateSize)}
          </li>
        ))}
      </ul>
    </section>
  );
}

function describeGrowth(c: Change): string {
  if (c.growth === null) return 'new';
  if (c.older === c.newer) return 'same';
  const pct = Math.round(c.growth * 1000) / 10;
  return `${pct > 0 ? '+' : ''}${pct}%`;
}

function ChangeText({ change, count = false }: { change: Change; count?: boolean }) {
  const f = count ? formatCount : formatBytes;
  const notable = change.newer > change.older && (change.growth === null || change.growth > NOTABLE_GROWTH);
  const cls = change.older === change.newer ? 'muted' : notable ? 'growth-high' : change.newer < change.older ? 'growth-down' : 'growth-up';
  return (
    <span className={cls} title={`${change.older} → ${change.newer}`}>
      {change.older === change.newer ? f(change.newer) : `${f(change.older)} → ${f(change.newer)}`}{' '}
      {change.older === change.newer ? null : <span className="growth">({describeGrowth(change)})</span>}
    </span>
  );
}
