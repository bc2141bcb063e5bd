/**
 * The page (and producer worker) of bench/duckdb-ingest.ts, bundled by esbuild when it runs: DuckDB-WASM
 * started as src/ui/query/open-duckdb.ts starts it (EH build, worker and module from the page's origin,
 * extension autoloading off), the chunks inserted with the Query view's own createArrowChunkInserter.
 *
 * In a page: `window.ingest(options)` fetches the Arrow IPC chunks, hands them to a producer worker (this
 * same script, loaded as a module worker with `?producer`) that plays the decoding worker: on each request
 * it spends `decodeMs` of CPU, then posts the next chunk (transferred); the page inserts it and only then
 * asks for the next one, as the decoding worker waits for the page's answer to each chunk. Answers the
 * load's wall time and the count query's.
 */
import { AsyncDuckDB, VoidLogger } from '@duckdb/duckdb-wasm';
import { createArrowChunkInserter } from '../src/ui/query/insert-arrow-chunks';

export interface IngestOptions {
  /** CPU milliseconds the producer spends before each chunk (0: the chunks are ready) */
  decodeMs: number;
  /** inserts queued in DuckDB's worker at most (1: each insert awaited before the next chunk is asked for) */
  maxQueued: number;
  /** DuckDB statements run before the load (e.g. SET preserve_insertion_order = false) */
  settings: string[];
}

export interface IngestResult {
  chunks: number;
  bytes: number;
  loadMs: number;
  countMs: number;
  rows: string;
  valueBytes: string;
}

type ProducerMessage = { kind: 'chunk'; chunk: Uint8Array } | { kind: 'done' } | { kind: 'ready' };

function runProducer(): void {
  let chunks: Uint8Array[] = [];
  let decodeMs = 0;
  const scope = self as unknown as { onmessage: ((e: MessageEvent) => void) | null; postMessage(m: ProducerMessage, transfer?: Transferable[]): void };
  scope.onmessage = (e: MessageEvent<{ kind: 'init'; chunks: Uint8Array[]; decodeMs: number } | { kind: 'next' }>) => {
    if (e.data.kind === 'init') {
      chunks = e.data.chunks;
      decodeMs = e.data.decodeMs;
      scope.postMessage({ kind: 'ready' });
      return;
    }
    const started = performance.now();
    while (performance.now() - started < decodeMs) {
      // the decoder's work, played
    }
    const chunk = chunks.shift();
    if (chunk === undefined) scope.postMessage({ kind: 'done' });
    else scope.postMessage({ kind: 'chunk', chunk }, [chunk.buffer]);
  };
}

async function ingest(options: IngestOptions): Promise<IngestResult> {
  const worker = new Worker(new URL('/duckdb/duckdb-browser-eh.worker.js', location.href), { name: 'duckdb' });
  const db = new AsyncDuckDB(new VoidLogger(), worker);
  await db.instantiate(new URL('/duckdb/duckdb-eh.wasm', location.href).href);
  const conn = await db.connect();
  await conn.query('SET autoinstall_known_extensions = false; SET autoload_known_extensions = false;');
  for (const s of options.settings) await conn.query(s);
  const bytes = new Uint8Array(await (await fetch('/data.arrows')).arrayBuffer());
  const ranges = (await (await fetch('/chunks.json')).json()) as [number, number][];
  // each chunk its own buffer, as from the decoding worker (an insert transfers the chunk's whole buffer)
  const chunks = ranges.map(([s, e]) => bytes.slice(s, e));
  const producer = new Worker(new URL('/page.js?producer', location.href), { type: 'module', name: 'producer' });
  const ask = (m: unknown, transfer: Transferable[] = []) =>
    new Promise<ProducerMessage>((resolve) => {
      producer.onmessage = (e: MessageEvent<ProducerMessage>) => resolve(e.data);
      producer.postMessage(m, transfer);
    });
  await ask(
    { kind: 'init', chunks, decodeMs: options.decodeMs },
    chunks.map((c) => c.buffer),
  );
  const t0 = performance.now();
  const inserter = createArrowChunkInserter(conn, 't', options.maxQueued);
  for (;;) {
    const m = await ask({ kind: 'next' });
    if (m.kind !== 'chunk') break;
    await inserter.add(m.chunk);
  }
  await inserter.finish();
  const t1 = performance.now();
  const count = await conn.query('SELECT count(*)::BIGINT AS n, sum(value_size)::BIGINT AS b FROM t');
  const t2 = performance.now();
  producer.terminate();
  await conn.close();
  await db.terminate();
  return {
    chunks: ranges.length,
    bytes: bytes.length,
    loadMs: t1 - t0,
    countMs: t2 - t1,
    rows: String(count.getChildAt(0)?.get(0)),
    valueBytes: String(count.getChildAt(1)?.get(0)),
  };
}

if (typeof window === 'undefined') runProducer();
else {
  (window as unknown as { ingest: typeof ingest }).ingest = ingest;
  document.title = 'ready';
}
