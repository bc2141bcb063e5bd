/**
 * Runs one SQL statement (in DuckDB's worker) and keeps its Arrow result: the table shows at most
 * MAX_RESULT_ROWS rows (the total is said), each cell formatted as text only when it is drawn (BIGINT
 * as digits, nested values as JSON, bytes as hex) — so a large result costs the main thread nothing
 * up front. `saveSqlResultCsv` writes the whole result as CSV in DuckDB's worker.
 */
import { DataType } from 'apache-arrow';
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
  // a DECIMAL column's scale places its point (DuckDB gives sum() of BIGINT as HUGEINT: Decimal128 with scale 0)
  const scales = vectors.map((v) => (v !== null && DataType.isDecimal(v.type) ? v.type.scale : undefined));
  return {
    sql,
    columns,
    shown: Math.min(total, MAX_RESULT_ROWS),
    total,
    millis: performance.now() - started,
    cell: (r, c) => formatCell(vectors[c]?.get(r), scales[c]),
  };
}

/**
 * DuckDB's message, each part once: DuckDB-WASM repeats a parser error's pointer block
 * ("LINE 1: SELEC 1" and its caret), so the page printed it twice.
 */
export function tidyDuckDbMessage(message: string): string {
  const blocks = message.split(/\n\n/);
  return blocks.filter((b, i) => i === 0 || b !== blocks[i - 1]).join('\n\n');
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

/** One cell as text; `scale`: the cell is a DECIMAL of that scale (apache-arrow gives its unscaled integer). */
export function formatCell(v: unknown, scale?: number): string {
  if (v === null || v === undefined) return '';
  if (isBigNum(v)) return placeDecimalPoint(String(v), scale ?? 0);
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof Uint8Array) return formatHex(v);
  return JSON.stringify(toPlain(v));
}

/** apache-arrow's 64/128-bit decimal values (typed arrays that turn into their digits), whose toJSON quotes them */
function isBigNum(v: unknown): v is ArrayBufferView {
  return ArrayBuffer.isView(v) && !(v instanceof Uint8Array) && typeof (v as { [Symbol.toPrimitive]?: unknown })[Symbol.toPrimitive] === 'function';
}

/** "-12345" with scale 2 → "-123.45" */
function placeDecimalPoint(digits: string, scale: number): string {
  if (scale <= 0) return digits;
  const negative = digits.startsWith('-');
  const abs = (negative ? digits.slice(1) : digits).padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${abs.slice(0, abs.length - scale)}.${abs.slice(abs.length - scale)}`;
}

function toPlain(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  // nested decimals: their unscaled digits (the scale is the nested field's, not known here)
  if (isBigNum(v)) return String(v);
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : String(v);
  if (v instanceof Uint8Array) return formatHex(v);
  if (typeof v !== 'object') return v;
  const o = v as { toJSON?: () => unknown; toArray?: () => unknown[] };
  // a struct row's toJSON keeps its field names (its toArray drops them: `[["",100,0]]` for unknown_fields); a vector's is its items
  if (typeof o.toJSON === 'function') {
    const j = o.toJSON();
    if (j !== v) return toPlain(j);
  }
  if (typeof o.toArray === 'function' && !(v instanceof Map)) return [...o.toArray()].map(toPlain);
  if (Array.isArray(v)) return v.map(toPlain);
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, toPlain(x)]));
}
