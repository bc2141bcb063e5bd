import type { SavepointInspection } from '../../core/flink';
import { BarChart, CompareBars, type Bar } from '../components/bar-chart';
import { FailurePanel } from '../components/failure-panel';
import { formatBytes, formatCount } from '../format';
import { useAppStore } from '../state/app-store';
import { useStateStats } from '../state/use-state-stats';
import { protobufStatsOf } from '../state/protobuf-stats-of';
import { formatHashRoute } from '../state/use-hash-route';
import { StateList, findState } from './state-view';
import { ScanControls, ScanPending } from '../components/scan-controls';

export function AliasingView({ inspection, params }: { inspection: SavepointInspection; params: Record<string, string> }) {
  const found = findState(inspection, params.op, params.state);
  return (
    <div className="view split" data-testid="aliasing-view">
      <StateList inspection={inspection} view="aliasing" selected={found ? { op: found.operator.id, state: found.state.name } : null} />
      <div className="split-main">
        {found ? <Aliasing operatorId={found.operator.id} state={found.state.name} /> : <p className="muted">Pick a state on the left.</p>}
      </div>
    </div>
  );
}

function binLabel(n: number): string {
  return n >= 1024 ? `${n / 1024}K` : String(n);
}

function Aliasing({ operatorId, state }: { operatorId: string; state: string }) {
  const stats = useStateStats(operatorId, state);
  const aliasingSetting = useAppStore((s) => s.checkOptions.newSettings.largePayloadAliasing);
  if (stats.isError) return <FailurePanel failure={stats.error} context={`scanning ${state}`} onRetry={() => void stats.refetch()} />;
  if (!stats.data) return <ScanPending />;
  const pb = protobufStatsOf(stats.data);
  if (pb === null) {
    return (
      <>
        <h1>Aliasing memory · {state}</h1>
        <ScanControls stats={stats.data} />
        <p className="muted">This state holds no Protobuf values; large-payload aliasing does not apply.</p>
      </>
    );
  }
  const sm = pb.summary;
  const threshold = sm.aliasing.thresholdBytes;
  const bars: Bar[] = pb.histogram.map((b) => ({
    label: binLabel(b.from),
    value: b.count,
    tone: b.from >= threshold ? 'warn' : 'default',
    title: `${formatCount(b.count)} payloads of ${formatBytes(b.from)} – ${formatBytes(b.to - 1)}`,
  }));
  const markerAfter = pb.histogram.findIndex((b) => b.to === threshold);
  const on = sm.aliasing.on;
  const off = sm.aliasing.off;
  return (
    <>
      <h1>Aliasing memory · {state}</h1>
      <ScanControls stats={stats.data} />
      <p className="lead">
        With <span className="mono">largePayloadAliasing</span> on (the 1.x default{aliasingSetting === false ? '; your new settings turn it off' : ''}), a
        payload above {formatBytes(threshold)} is read into its own array, and its <span className="mono">bytes</span> fields and unknown length-delimited
        fields are views into that array: keeping one small field alive keeps the whole payload alive.
      </p>
      <div className="stat-grid" data-testid="aliasing-stats">
        <Stat label="Values" value={formatCount(sm.values)} testId="al-values" />
        <Stat label={`Payloads above ${formatBytes(threshold)}`} value={formatCount(sm.largeValues)} testId="al-large" />
        <Stat label="Values that would alias" value={formatCount(sm.aliasedValues)} testId="al-aliased" />
        <Stat
          label="Largest payload"
          value={formatBytes(sm.maxPayloadSize)}
          sub={`${formatCount(sm.maxPayloadSize)} bytes, the largest of ${allValues(sm.values)}`}
          testId="al-max"
        />
        <Stat
          label="Bytes/unknown LEN fields"
          value={formatCount(sm.aliasableFields)}
          sub={`in ${allValues(sm.values)}: ${formatBytes(sm.aliasableBytes)}`}
          testId="al-fields"
        />
      </div>
      <section className="panel">
        <header className="panel-head">
          <h2>Payload sizes</h2>
          <span className="muted small">power-of-two bins; the dashed line is the {formatBytes(threshold)} threshold</span>
        </header>
        <div className="chart-row">
          <BarChart
            bars={bars}
            ariaLabel="Payload size histogram"
            formatValue={formatCount}
            markerAfter={markerAfter >= 0 ? markerAfter : undefined}
            markerLabel="4 KiB"
          />
        </div>
      </section>
      <section className="panel" data-testid="aliasing-memory">
        <header className="panel-head">
          <h2>Memory kept alive by retained fields</h2>
        </header>
        <CompareBars
          ariaLabel="Memory with aliasing on and off"
          formatValue={formatBytes}
          rows={[
            { label: 'on: payload arrays kept alive', value: on.retainedArrayBytes, tone: 'warn' },
            { label: 'on: extra wire bytes per message', value: on.extraWireBytes, tone: 'warn' },
            { label: 'on: bytes copied (small payloads)', value: on.copiedBytes },
            { label: 'off: bytes copied', value: off.copiedBytes, tone: 'ok' },
          ]}
        />
        <p className="muted small">
          Aliasing on: {formatBytes(on.retainedArrayBytes)} of payload arrays stay reachable when the decoded values' bytes fields are retained, instead of{' '}
          {formatBytes(off.copiedBytes)} of copied field bytes with aliasing off.
        </p>
      </section>
      <section className="panel">
        <header className="panel-head">
          <h2>Payloads above {formatBytes(threshold)}</h2>
        </header>
        {pb.largePayloads.length === 0 ? (
          <p className="muted">None: no value of this state is large enough to be aliased.</p>
        ) : (
          <table className="grid" data-testid="large-payloads">
            <thead>
              <tr>
                <th>Key</th>
                <th className="num">Payload</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {pb.largePayloads.map((p) => (
                <tr key={p.entryIndex}>
                  <td className="mono">{p.key}</td>
                  <td className="num">{formatBytes(p.payloadSize)}</td>
                  <td>
                    <a href={formatHashRoute('values', { op: operatorId, state, entry: String(p.entryIndex) })}>show value</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {sm.findings.length > 0 ? (
        <section className="panel">
          <header className="panel-head">
            <h2>Value findings</h2>
          </header>
          <ul className="value-warnings" style={{ padding: '10px 12px 10px 30px' }}>
            {pb.findings.map((f) => (
              <li key={f.id} data-testid="aliasing-finding">
                {/* the example's numbers are those of one value (the first flagged), unlike the statistics above: say whose */}
                <span className="mono tag warn">{f.id}</span> {f.count} value(s).{' '}
                {f.exampleKeys.length > 0 ? (
                  <>
                    The first of them, <span className="mono">{f.exampleKeys[0]}</span>:{' '}
                  </>
                ) : null}
                {f.detail}
                <div className="muted small mono">
                  {f.exampleKeys.length === f.count ? `all ${f.count}` : `the first ${f.exampleKeys.length} of ${f.count}`}: {f.exampleKeys.join(', ')}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

/** "all 24 values" (the statistics' scope: every value the scan read) */
function allValues(n: number): string {
  return n === 1 ? 'the one value' : `all ${formatCount(n)} values`;
}

function Stat({ label, value, sub, testId }: { label: string; value: string; sub?: string; testId: string }) {
  return (
    <div className="card" data-testid={testId}>
      <div className="card-label">{label}</div>
      <div className="card-value">{value}</div>
      {sub ? <div className="card-sub">{sub}</div> : null}
    </div>
  );
}
