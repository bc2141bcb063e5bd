/**
 * Runs one SQL statement and turns the Arrow result into display rows: at most MAX_RESULT_ROWS rows
 * (the total is said), each cell as text (BIGINT as digits, nested values as JSON, bytes as hex).
 */
import type { QueryEngine } from './open-duckdb';
import { formatHex } from '../../worker';

export const MAX_RESULT_ROWS = 10_000;

export interface SqlResult {
  columns: string[];
  rows: string[][];
  /** rows the query returned (more than `rows.length` when capped) */
  total: number;
  millis: number;
}

export async function runSql(engine: QueryEngine, sql: string): Promise<SqlResult> {
  const started = performance.now();
  const table = await engine.conn.query(sql);
  const columns = table.schema.fields.map((f) => f.name);
  const total = table.numRows;
  const rows: string[][] = [];
  const vectors = columns.map((_, i) => table.getChildAt(i));
  for (let r = 0; r < Math.min(total, MAX_RESULT_ROWS); r++) rows.push(vectors.map((v) => formatCell(v?.get(r))));
  return { columns, rows, total, millis: performance.now() - started };
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
