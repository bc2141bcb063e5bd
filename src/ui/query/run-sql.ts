/**
 * Runs one SQL statement (in DuckDB's worker) and keeps its Arrow result: the table shows at most
 * MAX_RESULT_ROWS rows (the total is said), each cell formatted as text only when it is drawn (BIGINT
 * as digits, nested values as JSON, bytes as hex) — so a large result costs the main thread nothing
 * up front. `saveSqlResultCsv` writes the whole result as CSV in DuckDB's worker.
 */
import type { QueryEngine } from './open-duckdb';
import { formatHex } from '../../worker';

export const MAX_RESULT_ROWS = 10_000;

export interface SqlResult {
  sql: string;
  columns: string[];
  /** rows the table shows (at most MAX_RESULT_ROWS) */
  shown: number;
  /** rows the query returned (more than `shown` when capped) */
  total: number;
  millis: number;
  /** the text of one cell (formatted when asked) */
  cell(row: number, column: number): string;
}

export async function runSql(engine: QueryEngine, sql: string): Promise<SqlResult> {
  const started = performance.now();
  // the result arrives as one Arrow IPC buffer (transferred from DuckDB's worker) read in place: columns are views, not copies
  const table = await engine.conn.query(sql);
  const columns = table.schema.fields.map((f) => f.name);
  const total = table.numRows;
  const vectors = columns.map((_, i) => table.getChildAt(i));
  return { sql, columns, shown: Math.min(total, MAX_RESULT_ROWS), total, millis: performance.now() - started, cell: (r, c) => formatCell(vectors[c]?.get(r)) };
}

/** The whole result of `sql` as CSV (header row), written by DuckDB in its worker: not capped, not formatted on the page. */
export async function saveSqlResultCsv(engine: QueryEngine, sql: string): Promise<Uint8Array> {
  const file = `query-result-${Date.now()}.csv`;
  try {
    await engine.conn.query(`COPY (${sql.trim().replace(/;+\s*$/, '')}) TO '${file}' (FORMAT csv, HEADER)`);
    return await engine.db.copyFileToBuffer(file);
  } finally {
    await engine.db.dropFile(file).catch(() => undefined);
  }
}

export function formatCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof Uint8Array) return formatHex(v);
  return JSON.stringify(toPlain(v));
}

function toPlain(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : String(v);
  if (v instanceof Uint8Array) return formatHex(v);
  if (typeof v !== 'object') return v;
  const o = v as { toJSON?: () => unknown; toArray?: () => unknown[] };
  if (typeof o.toArray === 'function' && !(v instanceof Map)) return [...o.toArray()].map(toPlain);
  if (typeof o.toJSON === 'function') {
    const j = o.toJSON();
    if (j !== v) return toPlain(j);
  }
  if (Array.isArray(v)) return v.map(toPlain);
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, toPlain(x)]));
}
