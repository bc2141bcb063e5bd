/**
 * DuckDB-WASM for the Query view, from the app's own origin: the EH build's module and worker are
 * bundled by Vite (`?url`), loaded only when the view first needs them; extensions are never
 * installed or loaded, so nothing is fetched from elsewhere. Not even Parquet is built into the EH
 * build of 1.32.0 (DuckDB 1.4.3: `duckdb_extensions()` lists parquet as NOT_INSTALLED, and
 * `read_parquet` is "not in the catalog"), so the tables are filled from Arrow IPC
 * (insert-arrow-chunks.ts). The page's CSP allows compiling WebAssembly (`'wasm-unsafe-eval'`),
 * nothing else.
 */
import { AsyncDuckDB, VoidLogger, type AsyncDuckDBConnection } from '@duckdb/duckdb-wasm';
import wasmUrl from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import workerUrl from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';

export interface QueryEngine {
  db: AsyncDuckDB;
  conn: AsyncDuckDBConnection;
}

let engine: Promise<QueryEngine> | null = null;

export function openDuckDb(): Promise<QueryEngine> {
  engine ??= (async () => {
    const worker = new Worker(new URL(workerUrl, window.location.href), { name: 'duckdb' });
    const db = new AsyncDuckDB(new VoidLogger(), worker);
    await db.instantiate(new URL(wasmUrl, window.location.href).href);
    const conn = await db.connect();
    await conn.query('SET autoinstall_known_extensions = false; SET autoload_known_extensions = false;');
    return { db, conn };
  })();
  engine.catch(() => {
    engine = null;
  });
  return engine;
}
