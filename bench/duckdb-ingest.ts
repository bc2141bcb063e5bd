/**
 * How fast DuckDB-WASM ingests a state's Arrow export, in headless Chromium (the e2e suite's), loaded as
 * the Query view loads it (EH build from the page's origin, the app's Content-Security-Policy), not part of
 * `npm run bench`:
 *
 *   node dist-cli/savepoint-inspector.cjs export <savepoint> --operator <id> --state <name> --format arrow --output /tmp/x.arrows
 *   npx tsx bench/duckdb-ingest.ts /tmp/x.arrows [--streams-per-insert N] [--decode-ms M] [--queued 1,2] [--repeat R] [--setting 'SET …']
 *
 * The file is the export's concatenation of IPC streams (one per row group); `--streams-per-insert N`
 * joins N of them into one stream (one schema message, their record batches, one end-of-stream marker).
 * Each run starts a fresh page and DuckDB, and inserts the chunks through the Query view's
 * createArrowChunkInserter with at most `--queued` inserts in DuckDB's worker (1: each awaited before the
 * next chunk, the Query view before it queued two); a producer worker plays the decoding worker,
 * spending `--decode-ms` of CPU per chunk before posting it. Prints, per run: the load's wall time, MiB/s
 * of Arrow bytes, the count query's time, the rows and the 1-minute load average (the machine is shared).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'esbuild';
import { findChromium } from '../e2e/find-chromium';
import { buildContentSecurityPolicy } from '../vite-plugins/content-security-policy';
import type { IngestOptions, IngestResult } from './duckdb-ingest-page';

const REPO = path.resolve(import.meta.dirname, '..');
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const EOS = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);

interface IpcStream {
  schema: Uint8Array;
  batches: Uint8Array[];
}

/** The IPC streams of a concatenation of streams, each split into its schema message and its other messages (each message with its body). */
export function splitIpcStreams(buf: Uint8Array): IpcStream[] {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const streams: IpcStream[] = [];
  let current: IpcStream | null = null;
  let p = 0;
  while (p < buf.length) {
    if (p + 8 > buf.length || dv.getUint32(p, true) !== 0xffffffff) throw new Error(`expected an IPC continuation marker at byte ${p}`);
    const metaLength = dv.getInt32(p + 4, true);
    if (metaLength === 0) {
      if (current === null) throw new Error(`expected a schema message at byte ${p}, found the end-of-stream marker`);
      streams.push(current);
      current = null;
      p += 8;
      continue;
    }
    // the Message flatbuffer: root table, its vtable; field 3 is bodyLength (int64)
    const meta = p + 8;
    const table = meta + dv.getUint32(meta, true);
    const vtable = table - dv.getInt32(table, true);
    const bodyField = dv.getUint16(vtable, true) > 10 ? dv.getUint16(vtable + 10, true) : 0;
    const bodyLength = bodyField === 0 ? 0 : Number(dv.getBigInt64(table + bodyField, true));
    const message = buf.subarray(p, meta + metaLength + bodyLength);
    if (current === null) current = { schema: message, batches: [] };
    else current.batches.push(message);
    p = meta + metaLength + bodyLength;
  }
  if (current !== null) throw new Error('expected an end-of-stream marker at the end of the file');
  return streams;
}

/** One buffer of IPC streams, `perInsert` of the file's joined into each, and each stream's byte range. */
export function regroupIpcStreams(streams: IpcStream[], perInsert: number): { data: Uint8Array; ranges: [number, number][] } {
  const parts: Uint8Array[][] = [];
  for (let i = 0; i < streams.length; i += perInsert) {
    const group = streams.slice(i, i + perInsert);
    parts.push([group[0]!.schema, ...group.flatMap((s) => s.batches), EOS]);
  }
  const data = new Uint8Array(parts.flat().reduce((n, x) => n + x.length, 0));
  const ranges: [number, number][] = [];
  let p = 0;
  for (const stream of parts) {
    const start = p;
    for (const x of stream) {
      data.set(x, p);
      p += x.length;
    }
    ranges.push([start, p]);
  }
  return { data, ranges };
}

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (file === undefined || file.startsWith('--'))
    throw new Error(
      'usage: npx tsx bench/duckdb-ingest.ts <export.arrows> [--streams-per-insert N] [--decode-ms M] [--queued 1,2] [--repeat R] [--setting SQL]',
    );
  const perInsert = Number(option('--streams-per-insert', '1'));
  const decodeMs = Number(option('--decode-ms', '0'));
  const queued = option('--queued', '1,2').split(',').map(Number);
  const repeat = Number(option('--repeat', '1'));
  const settings = process.argv.flatMap((a, i) => (a === '--setting' && process.argv[i + 1] !== undefined ? [process.argv[i + 1]!] : []));
  const { data, ranges } = regroupIpcStreams(splitIpcStreams(readFileSync(file)), perInsert);
  const page = (
    await build({
      entryPoints: [path.join(REPO, 'bench/duckdb-ingest-page.ts')],
      bundle: true,
      format: 'esm',
      target: 'es2022',
      write: false,
      logLevel: 'warning',
    })
  ).outputFiles[0]!.contents;
  const duckdbDist = path.dirname(createRequire(path.join(REPO, 'package.json')).resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'));
  const served: Record<string, [string, () => Uint8Array | string]> = {
    '/': ['text/html', () => '<!doctype html><meta charset="utf-8"><title>loading</title><script type="module" src="/page.js"></script>'],
    '/page.js': ['text/javascript', () => page],
    '/duckdb/duckdb-browser-eh.worker.js': ['text/javascript', () => readFileSync(path.join(duckdbDist, 'duckdb-browser-eh.worker.js'))],
    '/duckdb/duckdb-eh.wasm': ['application/wasm', () => readFileSync(path.join(duckdbDist, 'duckdb-eh.wasm'))],
    '/data.arrows': ['application/vnd.apache.arrow.stream', () => data],
    '/chunks.json': ['application/json', () => JSON.stringify(ranges)],
  };
  const server = createServer((req, res) => {
    const entry = served[new URL(req.url ?? '/', 'http://localhost').pathname];
    if (entry === undefined) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.setHeader('Content-Security-Policy', buildContentSecurityPolicy(null));
    res.setHeader('Content-Type', entry[0]);
    res.end(entry[1]());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const choice = findChromium(REPO);
  const browser = await chromium.launch({ executablePath: choice.executablePath, ...(choice.env ? { env: choice.env } : {}), args: FLAGS, headless: true });
  const mib = data.length / 1048576;
  console.log(
    `${path.basename(file)}: ${mib.toFixed(1)} MiB of Arrow IPC in ${ranges.length} inserts (${perInsert} stream(s) each); producer ${decodeMs} ms CPU per chunk${settings.length > 0 ? `; ${settings.join('; ')}` : ''}`,
  );
  try {
    for (let r = 0; r < repeat; r++) {
      for (const maxQueued of queued) {
        const tab = await browser.newPage();
        try {
          await tab.goto(`http://127.0.0.1:${port}/`);
          await tab.waitForFunction(() => document.title === 'ready');
          const load = loadavg()[0]!.toFixed(2);
          const options: IngestOptions = { decodeMs, maxQueued, settings };
          const result = await tab.evaluate((o) => (window as unknown as { ingest(o: IngestOptions): Promise<IngestResult> }).ingest(o), options);
          console.log(
            `queued ≤ ${maxQueued}: load ${Math.round(result.loadMs)} ms (${(mib / (result.loadMs / 1000)).toFixed(1)} MiB/s), count ${Math.round(result.countMs)} ms, ${result.rows} rows, sum(value_size) ${result.valueBytes}; load average ${load} → ${loadavg()[0]!.toFixed(2)}`,
          );
        } finally {
          await tab.close();
        }
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
}

// run as a script, not when a test imports splitIpcStreams/regroupIpcStreams
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
