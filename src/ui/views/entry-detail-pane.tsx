import { useState } from 'react';
import { formatHex, WIRE_TYPE_NAMES, type EntryProtobufValue } from '../../worker';
import { FailurePanel } from '../components/failure-panel';
import { HexView, type HexRange } from '../components/hex-view';
import { JsonTree } from '../components/json-tree';
import { useEntryDetail } from '../state/use-entry-pages';

export function EntryDetailPane({ operatorId, state, index }: { operatorId: string; state: string; index: number }) {
  // a value is shown cut at dump's caps; the whole of it only when asked for (for this entry)
  const [wholeOf, setWholeOf] = useState<string | null>(null);
  const entryKey = `${operatorId}\u0000${state}\u0000${index}`;
  const detail = useEntryDetail(operatorId, state, index, wholeOf === entryKey);
  if (detail.isError) return <FailurePanel failure={detail.error} context={`reading entry ${index} of ${state}`} onRetry={() => void detail.refetch()} />;
  if (!detail.data) return null;
  const { row, entry, values, cut } = detail.data;
  return (
    <section className="panel entry-detail" data-testid="entry-detail">
      <header className="panel-head">
        <h2>Entry {row.index}</h2>
        <span className="muted small mono">
          {entry.file} @ {entry.valueRange.offset} (+{entry.valueRange.length})
        </span>
      </header>
      <div className="panel-body">
        <dl className="kv inline">
          {row.key !== undefined ? (
            <>
              <dt>key</dt>
              <dd className="mono">{row.key}</dd>
            </>
          ) : null}
          {row.userKey !== undefined ? (
            <>
              <dt>user key</dt>
              <dd className="mono">{row.userKey}</dd>
            </>
          ) : null}
          {row.namespace !== undefined ? (
            <>
              <dt>namespace</dt>
              <dd className="mono">{row.namespace}</dd>
            </>
          ) : null}
          <dt>key group · subtask</dt>
          <dd className="mono">
            {row.keyGroup >= 0 ? row.keyGroup : '—'} · {row.subtask}
          </dd>
        </dl>
        {cut ? (
          <p className="callout warn small" data-testid="value-cut" role="note">
            This value is large: it is shown cut, as <code>dump</code> prints it (the JSON up to 1 MiB of text, 1,000 unknown fields, the first 1 MiB of bytes);
            each part says where it stops.{' '}
            <button type="button" className="btn small" onClick={() => setWholeOf(entryKey)} data-testid="show-whole-value">
              Show the whole value
            </button>
          </p>
        ) : null}
        {values.length === 0 ? (
          <>
            <h3>Value</h3>
            <pre className="mono value-text" data-testid="plain-value">
              {row.value}
            </pre>
          </>
        ) : (
          values.map((v, i) => <ProtobufValue key={i} value={v} label={values.length > 1 ? `Element ${i}` : 'Value'} />)
        )}
      </div>
    </section>
  );
}

function ProtobufValue({ value, label }: { value: EntryProtobufValue; label: string }) {
  const [hoverPath, setHoverPath] = useState<string | null>(null);
  const ranges: HexRange[] = value.fieldRanges.map((r) => ({ offset: r.offset, length: r.length, path: r.path, known: r.known }));
  return (
    <div className="pb-value">
      <h3>
        {label} <span className="mono">{value.typeName}</span>
        <span className="muted small">
          {value.payloadSize} payload bytes · depth {value.depth}
        </span>
      </h3>
      <div className="pb-columns">
        <div>
          {value.jsonOmitted === undefined ? (
            <JsonTree value={value.json} hoverPath={hoverPath} onHoverPath={setHoverPath} />
          ) : (
            <p className="muted" data-testid="json-omitted">
              The decoded value is not shown: {value.jsonOmitted}.
            </p>
          )}
        </div>
        <div>
          {value.frame.length < value.frameSize ? (
            <p className="muted small" data-testid="hex-cut">
              The first {value.frame.length.toLocaleString('en-US')} of {value.frameSize.toLocaleString('en-US')} bytes.
            </p>
          ) : null}
          <HexView bytes={value.frame} baseOffset={value.frameOffset} ranges={ranges} hoverPath={hoverPath} onHoverPath={setHoverPath} />
          <div className="hex-legend small muted" aria-hidden="true">
            <span className="hx hx-frame">00</span> frame length <span className="hx hx-known">00</span> declared field{' '}
            <span className="hx hx-unknown">00</span> unknown field · hover a byte or a field to link them
          </div>
        </div>
      </div>
      {/* below both columns, at the pane's width: in the tree's column its table was cut off ("WI…") */}
      <h3>Unknown fields ({value.unknownFields.length + (value.unknownFieldsOmitted ?? 0)})</h3>
      {value.unknownFields.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <table className="grid" data-testid="unknown-fields">
          <thead>
            <tr>
              <th>In</th>
              <th className="num">Number</th>
              <th>Wire type</th>
              <th className="num">Bytes</th>
              <th>Hex</th>
            </tr>
          </thead>
          <tbody>
            {value.unknownFields.map((u, i) => {
              const path = u.path ? `${u.path}.${u.number}` : String(u.number);
              return (
                <tr
                  key={i}
                  className={hoverPath === path ? 'selected' : undefined}
                  onMouseEnter={() => setHoverPath(path)}
                  onMouseLeave={() => setHoverPath(null)}
                  data-testid="unknown-field"
                >
                  <td className="mono">{u.path || value.typeName}</td>
                  <td className="num mono">{u.number}</td>
                  <td className="mono">{WIRE_TYPE_NAMES[u.wireType] ?? u.wireType}</td>
                  <td className="num">{u.length}</td>
                  <td className="mono">
                    {formatHex(u.head, ' ')}
                    {u.length > u.head.length ? ' …' : ''}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {value.unknownFieldsOmitted !== undefined ? (
        <p className="muted small" data-testid="unknown-fields-omitted">
          … {value.unknownFieldsOmitted.toLocaleString('en-US')} more unknown fields not listed.
        </p>
      ) : null}
    </div>
  );
}
