/**
 * Query: SQL over the savepoint's states with DuckDB-WASM, on this machine. Each readable state
 * becomes a table (its export as Arrow IPC, made in the decoding worker and inserted into DuckDB row
 * group by row group: the Parquet export's columns, Protobuf values as nested columns; DuckDB-WASM's
 * Parquet reader is an extension it would download from elsewhere, so Parquet is not used here); example
 * queries; results in a virtualized table, downloadable as CSV; DuckDB's message on errors. Each
 * state can also be exported as a file (JSON Lines, CSV, Parquet) with progress and cancel.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import type { InspectedOperator, InspectedState, SavepointInspection } from '../../core/flink';
import type { InspectorFailure, InspectorProgress } from '../../worker';
import { ProgressBar } from '../components/progress-bar';
import { downloadBlob } from '../download-blob';
import { listMissingStateFiles } from '../describe-savepoint-contents';
import { formatBytes } from '../format';
import { useInspector } from '../inspector-context';
import { nameStateTable } from '../query/name-state-table';
import { openDownloadTarget, type DownloadTarget } from '../query/open-download-target';
import { chooseLoadSample, QUERY_LOAD_LIMIT_BYTES } from '../query/choose-load-sample';
import { createArrowChunkInserter } from '../query/insert-arrow-chunks';
import { openDuckDb } from '../query/open-duckdb';
import { MAX_RESULT_ROWS, runSql, saveSqlResultCsv, tidyDuckDbMessage, type SqlResult } from '../query/run-sql';
import { describeStateKind } from '../describe-state-kind';

const ROW_HEIGHT = 26;
const PROGRESS_REDRAW_MS = 250;
type Format = 'parquet' | 'jsonl' | 'csv';

interface StateTable {
  op: InspectedOperator;
  state: InspectedState;
  table: string;
}

type TableStatus = { kind: 'loaded'; rows: number; incomplete: string[] } | { kind: 'failed'; message: string } | { kind: 'loading' };

interface Running {
  what: string;
  progress: InspectorProgress | null;
}

function failureText(e: unknown): string {
  if (typeof e === 'object' && e !== null && 'message' in e) return String((e as { message: unknown }).message);
  return String(e);
}

export function QueryView({ inspection }: { inspection: SavepointInspection }) {
  const inspector = useInspector();
  const states: StateTable[] = inspection.operators.flatMap((op) => op.states.map((state) => ({ op, state, table: nameStateTable(op, state) })));
  const [status, setStatus] = useState<Record<string, TableStatus>>({});
  const [running, setRunning] = useState<Running | null>(null);
  // progress during a load or an export redraws the view at most every PROGRESS_REDRAW_MS: the page's main
  // thread relays every chunk between the workers and should do little else meanwhile
  const lastRedraw = useRef(0);
  const showProgress = (next: Running) => {
    const now = performance.now();
    if (now - lastRedraw.current < PROGRESS_REDRAW_MS) return;
    lastRedraw.current = now;
    setRunning(next);
  };
  const [sql, setSql] = useState('');
  const [result, setResult] = useState<SqlResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** the Protobuf fields of each loaded table's value (empty for a table whose values are not Protobuf) */
  const [tableFields, setTableFields] = useState<Record<string, string[]>>({});
  /** the table the example queries run on (the user picks it; at first the first Protobuf table) */
  const [exampleTable, setExampleTable] = useState<string | null>(null);
  const [field, setField] = useState('');
  const [format, setFormat] = useState<Format>('parquet');
  const [notice, setNotice] = useState<string | null>(null);
  /** why the tables are a sample of the savepoint, when they are */
  const [loadNotice, setLoadNotice] = useState<string | null>(null);
  const cancelRef = useRef<(() => void) | null>(null);

  /** the whole load (every operator's export in turn): the button stays disabled between them */
  const [loadingTables, setLoadingTables] = useState(false);
  const loadTables = async () => {
    setLoadingTables(true);
    try {
      await loadAllTables();
    } finally {
      setLoadingTables(false);
    }
  };
  const loadAllTables = async () => {
    setError(null);
    let engine;
    try {
      engine = await openDuckDb();
    } catch (e) {
      setError(`DuckDB could not start: ${failureText(e)}`);
      return;
    }
    // the examples start on the first keyed Protobuf table (key groups to count), else the first Protobuf one
    let firstProtobuf: StateTable | null = null;
    const probeFields = async (t: StateTable) => {
      const table = t.table;
      const probe = await engine.conn.query(`SELECT value FROM ${table} LIMIT 0`);
      const children = probe.schema.fields[0]?.type?.children as { name: string }[] | null | undefined;
      const names = Array.isArray(children) ? children.map((c) => c.name) : [];
      setTableFields((f) => ({ ...f, [table]: names }));
      if (names.length > 0 && (firstProtobuf === null || (firstProtobuf.state.scope !== 'keyed' && t.state.scope === 'keyed'))) {
        const replaces = firstProtobuf?.table ?? null;
        firstProtobuf = t;
        setExampleTable((current) => (current === null || current === replaces ? table : current));
        setField((f) => (replaces === null && f !== '' ? f : names[0]!));
        setSql((q) =>
          q === '' || (replaces !== null && q.includes(`FROM ${replaces} `)) ? `SELECT * EXCLUDE (value) FROM ${table} ORDER BY value_size DESC LIMIT 20` : q,
        );
        setExampleTable((t) => t ?? table);
        setField((f) => f || names[0]!);
        setSql((q) => q || `SELECT * EXCLUDE (value) FROM ${table} ORDER BY value_size DESC LIMIT 20`);
      }
    };
    // DuckDB-WASM holds what it loads in WebAssembly memory (at most 4 GiB): past QUERY_LOAD_LIMIT_BYTES of state, a key-group sample
    const loadBytes = inspection.operators.filter((op) => op.states.some((st) => st.status === 'ok')).reduce((n, op) => n + op.stateSize, 0);
    const sample = chooseLoadSample(loadBytes);
    setLoadNotice(
      sample === undefined || sample.kind !== 'key-groups'
        ? null
        : `The state to load (${formatBytes(loadBytes)}) is more than the ${formatBytes(QUERY_LOAD_LIMIT_BYTES)} the Query view loads whole: DuckDB keeps its tables in this tab's WebAssembly memory, which ends at 4 GiB. So one key group in every ${sample.every} is loaded (operator state whole), and each table says it is a sample. For the whole state, export it with the CLI (savepoint-inspector export … --format parquet) and query the files with DuckDB.`,
    );
    // every readable state of an operator in one export: its state files are read once, each state's chunks go to its own table
    for (const op of inspection.operators) {
      const tables = states.filter((t) => t.op === op && t.state.status === 'ok');
      if (tables.length === 0) continue;
      setStatus((s) => ({ ...s, ...Object.fromEntries(tables.map((t) => [t.table, { kind: 'loading' } satisfies TableStatus])) }));
      const label = tables.length === 1 ? tables[0]!.state.name : `${tables.length} states of operator ${op.uid ?? op.id.slice(0, 8)}`;
      try {
        for (const t of tables) await engine.conn.query(`DROP TABLE IF EXISTS ${t.table}`);
        setRunning({ what: `Loading ${label}`, progress: null });
        let summaries;
        // each chunk is one Arrow IPC stream (a row group), passed on to DuckDB's worker as it comes: the decoding
        // worker makes the next chunk while DuckDB inserts this one (at most MAX_QUEUED_INSERTS chunks wait in DuckDB's worker per table)
        const inserters = tables.map((t) => createArrowChunkInserter(engine.conn, t.table));
        try {
          summaries = await inspector.exportStates(
            {
              operatorId: op.id,
              states: tables.map((t) => ({ state: t.state.name, scope: t.state.scope })),
              format: 'arrow',
              ...(sample === undefined ? {} : { sample }),
            },
            (index, chunk) => inserters[index]!.add(chunk),
            (p) => showProgress({ what: `Loading ${label}`, progress: p }),
          );
          for (const inserter of inserters) await inserter.finish();
        } finally {
          setRunning(null);
        }
        const loaded = summaries;
        setStatus((s) => ({
          ...s,
          ...Object.fromEntries(
            tables.map((t, i) => [t.table, { kind: 'loaded', rows: loaded[i]!.rows, incomplete: loaded[i]!.incomplete } satisfies TableStatus]),
          ),
        }));
        for (const t of tables) await probeFields(t);
      } catch (e) {
        const failure = e as InspectorFailure;
        setStatus((s) => ({
          ...s,
          ...Object.fromEntries(tables.map((t) => [t.table, { kind: 'failed', message: failureText(failure) } satisfies TableStatus])),
        }));
        if (failure.kind === 'cancelled') break;
      }
    }
  };

  /** DuckDB's message names a table that is not there: say why, when it is a state that could not be loaded. */
  const explainMissingTables = (message: string): string => {
    const why = states.flatMap((t) => {
      if (!new RegExp(`\\b${t.table}\\b`).test(message)) return [];
      const s = status[t.table];
      if (t.state.status !== 'ok') return [`${t.table} is state "${t.state.name}", not readable: ${t.state.statusReason ?? t.state.status}`];
      if (s?.kind === 'failed') return [`${t.table} is state "${t.state.name}", not loaded: ${s.message}`];
      if (s === undefined) return [`${t.table} is state "${t.state.name}", not loaded yet (Load states as tables)`];
      return [];
    });
    return why.length === 0 ? '' : ` — ${why.join('; ')}`;
  };

  const run = async (text = sql) => {
    setError(null);
    setResult(null);
    try {
      const engine = await openDuckDb();
      setResult(await runSql(engine, text));
    } catch (e) {
      const message = tidyDuckDbMessage(failureText(e));
      setError(message + explainMissingTables(message));
    }
  };

  /**
   * Export state: the file is asked for first (within the click), then the worker streams the export
   * into it chunk by chunk, each write awaited (openDownloadTarget); Cancel stops the worker's export
   * (inspector.cancel, and the chunk being written is given up so the worker's wait ends) and discards
   * the file.
   */
  const exportFile = async (t: StateTable) => {
    setError(null);
    setNotice(null);
    const fileName = `${t.table}.${format}`;
    const type = format === 'parquet' ? 'application/vnd.apache.parquet' : format === 'csv' ? 'text/csv' : 'application/jsonl';
    let target: DownloadTarget | null;
    try {
      target = await openDownloadTarget(fileName, type);
    } catch (e) {
      setError(`export of ${t.state.name} failed: ${failureText(e)}`);
      return;
    }
    if (target === null) return;
    let cancelled = false;
    let giveUp: (e: Error) => void = () => undefined;
    const givenUp = new Promise<never>((_, reject) => (giveUp = reject));
    givenUp.catch(() => undefined);
    cancelRef.current = () => {
      cancelled = true;
      giveUp(new Error('the export was cancelled'));
      void inspector.cancel();
    };
    let written = 0;
    let progress: InspectorProgress | null = null;
    const what = () => `Exporting ${t.state.name}: ${formatBytes(written)} written${target.kind === 'file' ? ' to the file' : ''}`;
    setRunning({ what: what(), progress: null });
    try {
      const summary = await inspector.exportState(
        { operatorId: t.op.id, state: t.state.name, scope: t.state.scope, format },
        async (chunk) => {
          await Promise.race([target.write(chunk), givenUp]);
          written += chunk.length;
          showProgress({ what: what(), progress });
        },
        (p) => {
          progress = p;
          showProgress({ what: what(), progress: p });
        },
      );
      if (cancelled) throw new Error('the export was cancelled');
      await target.close();
      const partial = summary.incomplete.length > 0 ? ` — not the whole state: ${summary.incomplete.join('; ')}` : '';
      setNotice(
        `${fileName}: ${summary.rows} row${summary.rows === 1 ? '' : 's'}, ${formatBytes(written)}${target.kind === 'file' ? ', written to the chosen file as it was made' : ', downloaded'}${partial}`,
      );
    } catch (e) {
      await target.abort().catch(() => undefined);
      if (cancelled || (e as InspectorFailure).kind === 'cancelled')
        setNotice(`Export of ${t.state.name} cancelled after ${formatBytes(written)}: the file was discarded`);
      else setError(`export of ${t.state.name} failed: ${failureText(e)}`);
    } finally {
      cancelRef.current = null;
      setRunning(null);
    }
  };

  const downloadResult = async (r: SqlResult) => {
    try {
      const csv = await saveSqlResultCsv(await openDuckDb(), r.sql);
      downloadBlob(new Blob([csv as BlobPart], { type: 'text/csv' }), 'query-result.csv');
    } catch (e) {
      setError(`the result could not be saved: ${failureText(e)}`);
    }
  };

  const example = (text: string) => {
    setSql(text);
    void run(text);
  };
  const loadedTables = states.filter((t) => status[t.table]?.kind === 'loaded' && tableFields[t.table] !== undefined);
  const picked = loadedTables.find((t) => t.table === exampleTable) ?? loadedTables[0];
  const T = picked?.table;
  const pickedFields = T === undefined ? [] : (tableFields[T] ?? []);
  const pickTable = (table: string) => {
    setExampleTable(table);
    const names = tableFields[table] ?? [];
    if (!names.includes(field) && names.length > 0) setField(names[0]!);
  };
  const loadedAny = Object.values(status).some((s) => s.kind === 'loaded');
  // nothing readable (a lone _metadata): no load, no export, no SQL over tables that cannot exist
  const readableAny = states.some((t) => t.state.status === 'ok');
  // a result or an error below a long list of tables is brought into view (the list can be taller than the window)
  const outputRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result !== null || error !== null) outputRef.current?.scrollIntoView({ block: 'nearest' });
  }, [result, error]);

  return (
    <div className="view" data-testid="query-view">
      <h1>Query</h1>
      <p className="muted">
        SQL over the states with DuckDB, in this browser: each state is a table of its entries (key group, subtask, key, namespace, user key, element index, the
        value — Protobuf as nested columns —, value size, unknown fields). Nothing leaves the machine.
      </p>
      {running ? (
        <div data-testid="query-running">
          <ProgressBar
            inline
            what={running.what}
            progress={running.progress}
            onCancel={() => (cancelRef.current ? cancelRef.current() : void inspector.cancel())}
          />
        </div>
      ) : null}
      {loadNotice !== null ? (
        <p className="callout warn" role="status" data-testid="query-load-notice">
          {loadNotice}
        </p>
      ) : null}
      {notice !== null ? (
        <p className="muted" role="status" data-testid="export-notice">
          {notice}
        </p>
      ) : null}
      <table className="query-states" data-testid="query-states">
        <thead>
          <tr>
            <th>Table</th>
            <th>State</th>
            <th>Kind</th>
            <th>Status</th>
            {readableAny ? <th>Export</th> : null}
          </tr>
        </thead>
        <tbody>
          {states.map((t) => {
            const s = status[t.table];
            return (
              <tr key={`${t.op.id}/${t.state.scope}/${t.state.name}`} data-testid="query-state-row">
                <td className="mono">{t.table}</td>
                <td>{t.state.name}</td>
                <td className="muted">{describeStateKind(t.state)}</td>
                <td data-testid="query-state-status">
                  {t.state.status !== 'ok'
                    ? `not readable: ${t.state.statusReason ?? t.state.status}`
                    : s === undefined
                      ? 'not loaded'
                      : s.kind === 'loading'
                        ? 'loading…'
                        : s.kind === 'failed'
                          ? `not loaded: ${s.message}`
                          : `${s.rows} row${s.rows === 1 ? '' : 's'}${s.incomplete.length > 0 ? ` (not the whole state: ${s.incomplete.join('; ')})` : ''}`}
                </td>
                {readableAny ? (
                  <td>
                    <button
                      type="button"
                      className="btn small"
                      disabled={t.state.status !== 'ok' || running !== null}
                      onClick={() => void exportFile(t)}
                      data-testid="export-state"
                    >
                      Export
                    </button>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {readableAny ? (
        <>
          <div className="query-controls">
            <button type="button" className="btn" disabled={running !== null || loadingTables} onClick={() => void loadTables()} data-testid="load-tables">
              {loadingTables ? 'Loading tables…' : loadedAny ? 'Reload tables' : 'Load states as tables'}
            </button>
            <label>
              Export format{' '}
              <select value={format} onChange={(e) => setFormat(e.target.value as Format)} data-testid="export-format">
                <option value="parquet">Parquet</option>
                <option value="jsonl">JSON Lines</option>
                <option value="csv">CSV</option>
              </select>
            </label>
          </div>
          {T !== undefined && picked !== undefined ? (
            <div className="query-examples" data-testid="query-examples">
              <label className="muted">
                Examples on{' '}
                <select value={T} onChange={(e) => pickTable(e.target.value)} aria-label="Table of the examples" data-testid="query-example-table">
                  {loadedTables.map((t) => (
                    <option key={t.table} value={t.table}>
                      {t.table}
                    </option>
                  ))}
                </select>
                :
              </label>
              <button type="button" className="btn small" onClick={() => example(`SELECT * EXCLUDE (value) FROM ${T} WHERE len(unknown_fields) > 0 LIMIT 100`)}>
                Values with unknown fields
              </button>
              <button type="button" className="btn small" onClick={() => example(`SELECT * EXCLUDE (value) FROM ${T} ORDER BY value_size DESC LIMIT 20`)}>
                Largest values
              </button>
              {picked.state.scope === 'keyed' ? (
                <button
                  type="button"
                  className="btn small"
                  onClick={() => example(`SELECT key_group, count(*) AS entries, sum(value_size) AS bytes FROM ${T} GROUP BY key_group ORDER BY key_group`)}
                >
                  Counts per key group
                </button>
              ) : (
                <span>
                  <button
                    type="button"
                    className="btn small"
                    onClick={() => example(`SELECT subtask, count(*) AS entries, sum(value_size) AS bytes FROM ${T} GROUP BY subtask ORDER BY subtask`)}
                  >
                    Counts per subtask
                  </button>{' '}
                  <span className="muted small" data-testid="query-no-key-group">
                    ({picked.state.scope === 'broadcast' ? 'broadcast state is operator state: it' : 'operator state'} has no key group, key_group is -1 in
                    every row)
                  </span>
                </span>
              )}
              {pickedFields.length > 0 ? (
                <span>
                  <button
                    type="button"
                    className="btn small"
                    onClick={() => example(`SELECT * EXCLUDE (value), value.${field} FROM ${T} WHERE value.${field} IS NOT NULL LIMIT 100`)}
                  >
                    Values whose field is set:
                  </button>{' '}
                  <select value={field} onChange={(e) => setField(e.target.value)} aria-label="Field" data-testid="query-field">
                    {pickedFields.map((f) => (
                      <option key={f}>{f}</option>
                    ))}
                  </select>
                </span>
              ) : null}
            </div>
          ) : null}
          <textarea
            className="sql mono"
            value={sql}
            onChange={(e) => setSql(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void run();
            }}
            placeholder={loadedAny ? 'SELECT … FROM <table>' : 'Load the states as tables first'}
            aria-label="SQL"
            rows={4}
            data-testid="sql"
          />
          <div className="query-controls">
            <button type="button" className="btn primary" onClick={() => void run()} disabled={sql.trim() === ''} data-testid="run-sql">
              Run (Ctrl+Enter)
            </button>
            {result ? (
              <button type="button" className="btn small" onClick={() => void downloadResult(result)} data-testid="download-result">
                Download result (CSV{result.total > result.shown ? `, all ${result.total.toLocaleString('en')} rows` : ''})
              </button>
            ) : null}
          </div>
          <div ref={outputRef} className="query-output">
            {error !== null ? (
              <div className="query-error" role="alert" data-testid="query-error">
                {error}
              </div>
            ) : null}
            {result ? <ResultTable result={result} /> : null}
          </div>
        </>
      ) : (
        <p className="callout" data-testid="query-nothing-readable">
          None of the {states.length} states could be read
          {listMissingStateFiles(inspection).length > 0 ? ' (their state files were not given: open the whole savepoint folder)' : ''}, so there is nothing to
          load as tables or to export.
        </p>
      )}
    </div>
  );
}

function ResultTable({ result }: { result: SqlResult }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: result.shown, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 20 });
  const grid = { gridTemplateColumns: `repeat(${Math.max(1, result.columns.length)}, minmax(90px, 1fr))` };
  return (
    <>
      <p className="muted small" data-testid="query-summary">
        {result.total} row{result.total === 1 ? '' : 's'} in {Math.round(result.millis)} ms
        {result.total > result.shown ? ` (the first ${MAX_RESULT_ROWS.toLocaleString('en')} shown)` : ''}
      </p>
      <div className="vtable" role="grid" aria-label="Query result" aria-rowcount={result.shown} data-testid="query-result">
        <div className="vrow qrow vhead" role="row" style={grid}>
          {result.columns.map((c, i) => (
            <span role="columnheader" key={i} title={c}>
              {c}
            </span>
          ))}
        </div>
        <div className="vbody" ref={scrollRef} style={{ height: Math.min(420, Math.max(1, result.shown) * ROW_HEIGHT + 2) }}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((it) => (
              <div
                key={it.key}
                role="row"
                className="vrow qrow"
                style={{ ...grid, position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${it.start}px)` }}
                data-testid="query-row"
              >
                {result.columns.map((_, i) => {
                  const cell = result.cell(it.index, i);
                  return (
                    <span className="mono" key={i} title={cell}>
                      {cell}
                    </span>
                  );
                })}
              </div>
            ))}
          </div>
        </div>
      </div>
    </>
  );
}
