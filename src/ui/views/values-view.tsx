import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type KeyboardEvent } from 'react';
import type { InspectedState, SavepointInspection } from '../../core/flink';
import { describeEntryCount } from '../describe-entry-count';
import { FailurePanel } from '../components/failure-panel';
import { ScanControls } from '../components/scan-controls';
import { useAppStore } from '../state/app-store';
import { useEntryPages } from '../state/use-entry-pages';
import { useStateStats } from '../state/use-state-stats';
import { updateRouteParams } from '../state/use-hash-route';
import { EntryDetailPane } from './entry-detail-pane';
import { StateList, findState } from './state-view';
import { listRowColumns, type RowColumn } from '../list-row-columns';
import type { RowCells } from '../../worker';

const ROW_HEIGHT = 26;

export function ValuesView({ inspection, params }: { inspection: SavepointInspection; params: Record<string, string> }) {
  const found = findState(inspection, params.op, params.state);
  return (
    <div className="view split" data-testid="values-view">
      <StateList inspection={inspection} view="values" selected={found ? { op: found.operator.id, state: found.state.name } : null} />
      <div className="split-main">
        {found === null ? (
          <p className="muted">Pick a state on the left.</p>
        ) : (
          <EntriesTable
            key={`${found.operator.id}/${found.state.name}`}
            operatorId={found.operator.id}
            state={found.state.name}
            inspected={found.state}
            selected={params.entry === undefined ? null : Number(params.entry)}
          />
        )}
      </div>
    </div>
  );
}

function EntriesTable({ operatorId, state, inspected, selected }: { operatorId: string; state: string; inspected: InspectedState; selected: number | null }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const probe = useEntryPages(operatorId, state, { from: 0, to: 0 });
  const virtualizer = useVirtualizer({ count: probe.total, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 20 });
  const items = virtualizer.getVirtualItems();
  const { rowAt } = useEntryPages(operatorId, state, { from: items[0]?.index ?? 0, to: items[items.length - 1]?.index ?? 0 });
  // the same scan the pages are read with (one per state and sample in the worker): its coverage is shown
  const stats = useStateStats(operatorId, state);
  const sampled = useAppStore((s) => s.sample !== null);
  if (probe.first.isError)
    return <FailurePanel failure={probe.first.error} context={`reading the entries of ${state}`} onRetry={() => void probe.first.refetch()} />;
  const select = (i: number) => updateRouteParams({ entry: String(i) });
  // Table/SQL state: a row key or value is shown as typed columns, one per field of its RowType
  const keyColumns = listRowColumns(inspected.keySerializer);
  const valueColumns = listRowColumns(inspected.valueSerializer);
  const gridTemplateColumns = [
    '56px',
    ...(keyColumns ? keyColumns.map(() => 'minmax(56px, 1fr)') : ['minmax(80px, 1fr)']),
    '72px 56px minmax(56px, 1fr) minmax(56px, 1fr)',
    ...(valueColumns ? ['64px', ...valueColumns.map(() => 'minmax(56px, 1fr)')] : ['minmax(200px, 3fr)']),
    '48px 64px',
  ].join(' ');
  const rowStyle = keyColumns || valueColumns ? { gridTemplateColumns } : undefined;
  // arrow keys move the selection, as in other inspectors' tables
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const next = Math.max(0, Math.min(probe.total - 1, (selected ?? -1) + (e.key === 'ArrowDown' ? 1 : -1)));
    select(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };
  return (
    <>
      <h1>
        {state}{' '}
        <span className="muted small" data-testid="entries-count">
          {probe.first.isSuccess && stats.data ? describeEntryCount(inspected, stats.data) : 'scanning…'}
        </span>
      </h1>
      <ScanControls stats={stats.data} />
      <div className="vtable" role="grid" aria-label={`Entries of ${state}`} aria-rowcount={probe.total} data-testid="entries-table">
        <div className="vrow vhead" role="row" style={rowStyle}>
          <span role="columnheader">#</span>
          {keyColumns ? keyColumns.map((c) => <TypedColumnHeader key={`k-${c.name}`} role="key" column={c} />) : <span role="columnheader">Key</span>}
          <span role="columnheader">Key group</span>
          <span role="columnheader">Subtask</span>
          <span role="columnheader">Namespace</span>
          <span role="columnheader">User key</span>
          {valueColumns ? (
            <>
              <span role="columnheader" title="Row kind: +I insert, -U update before, +U update after, -D delete">
                Row kind
              </span>
              {valueColumns.map((c) => (
                <TypedColumnHeader key={`v-${c.name}`} role="value" column={c} />
              ))}
            </>
          ) : (
            <span role="columnheader">Value</span>
          )}
          <span role="columnheader" className="num">
            Size
          </span>
          <span role="columnheader" className="num">
            Unknown
          </span>
        </div>
        <div
          className="vbody"
          ref={scrollRef}
          tabIndex={0}
          onKeyDown={onKeyDown}
          aria-label="Entries; arrow keys move the selection"
          style={{ height: Math.min(420, Math.max(1, probe.total) * ROW_HEIGHT + 2) }}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((it) => {
              const row = rowAt(it.index);
              return (
                <div
                  key={it.key}
                  role="row"
                  tabIndex={0}
                  aria-selected={selected === it.index}
                  className={`vrow${selected === it.index ? ' selected' : ''}`}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${it.start}px)`, ...rowStyle }}
                  onClick={() => select(it.index)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') select(it.index);
                  }}
                  data-testid="entry-row"
                >
                  {row ? (
                    <>
                      <span className="muted">{row.index}</span>
                      {keyColumns ? <RowCellSpans columns={keyColumns} row={row.keyRow} whole={row.key} /> : <span className="mono">{row.key ?? ''}</span>}
                      <span className="mono">{row.keyGroup >= 0 ? row.keyGroup : '—'}</span>
                      <span className="mono">{row.subtask}</span>
                      <span className="mono">{row.namespace ?? ''}</span>
                      <span className="mono">{row.userKey ?? ''}</span>
                      {valueColumns ? (
                        <>
                          <span className="mono" data-testid="row-kind">
                            {row.valueRow?.rowKind ?? ''}
                          </span>
                          <RowCellSpans columns={valueColumns} row={row.valueRow} whole={row.value} />
                        </>
                      ) : (
                        <span className="mono clip">{row.value}</span>
                      )}
                      <span className="num">{row.size}</span>
                      <span className={`num${row.unknownFields > 0 ? ' unknown-count' : ''}`}>{row.unknownFields || ''}</span>
                    </>
                  ) : (
                    <span className="muted">…</span>
                  )}
                </div>
              );
            })}
          </div>
        </div>
      </div>
      {selected !== null ? (
        <EntryDetailPane operatorId={operatorId} state={state} index={selected} />
      ) : probe.first.isSuccess && probe.total === 0 ? (
        <p className="muted" data-testid="no-entries">
          {sampled
            ? 'The sample read holds no entry of this state: read all entries (above) to see whether it has any.'
            : 'This state holds no entries in this savepoint: there is no row to select.'}
        </p>
      ) : (
        <p className="muted">Select a row to see its decoded value and bytes.</p>
      )}
    </>
  );
}

/** The header of one typed column: the field's name, its logical type beside it (and in full on hover). */
function TypedColumnHeader({ role, column }: { role: 'key' | 'value'; column: RowColumn }) {
  return (
    <span role="columnheader" title={`${role} field ${column.name}: ${column.type}`} data-testid={`${role}-column`}>
      {role === 'key' ? 'key.' : ''}
      {column.name} <span className="column-type">{column.type}</span>
    </span>
  );
}

/** One cell per field of a row; a value that is not a row (an undecodable one) fills the first cell with its text. */
function RowCellSpans({ columns, row, whole }: { columns: readonly RowColumn[]; row: RowCells | undefined; whole: string | undefined }) {
  return (
    <>
      {columns.map((c, i) => (
        <span key={c.name} className="mono" data-testid="row-cell" title={row?.cells[i] ?? (i === 0 ? whole : undefined)}>
          {row ? (row.cells[i] ?? '') : i === 0 ? (whole ?? '') : ''}
        </span>
      ))}
    </>
  );
}
