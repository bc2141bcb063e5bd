import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { runCli } from '../src/cli/run-cli';
import { expect, test } from './test';
import { waitForAppState, watchForeignRequests } from './helpers';

const DEMO = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');
const CANONICAL = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');

/**
 * A stand-in for Chromium's save-file picker (it needs a real user gesture and shows a dialog): the
 * picker answers at once; the writable records every chunk and, while `__stall` is set, leaves each
 * write pending until the test calls `__release()` — so the test sees what arrived while the export
 * was still running.
 */
const PICKER_STUB = `(() => {
  const log = { name: null, chunks: [], closed: false, aborted: false, pendingWrites: 0 };
  window.__picker = log;
  window.__stall = false;
  window.__release = () => undefined;
  window.showSaveFilePicker = async (options) => {
    log.name = options.suggestedName;
    return {
      createWritable: async () => ({
        write: (data) => {
          log.chunks.push(Array.from(new Uint8Array(data)));
          if (!window.__stall) return Promise.resolve();
          log.pendingWrites++;
          return new Promise((resolve) => (window.__release = () => { log.pendingWrites--; window.__stall = false; resolve(); }));
        },
        close: async () => { log.closed = true; },
        abort: async () => { log.aborted = true; },
      }),
    };
  };
})();`;

interface PickerLog {
  name: string | null;
  chunks: number[][];
  closed: boolean;
  aborted: boolean;
  pendingWrites: number;
}

const pickerLog = (page: Page) => page.evaluate(() => (window as unknown as { __picker: PickerLog }).__picker);

async function openQueryView(page: Page): Promise<void> {
  await page.getByTestId('nav-query').click();
  await expect(page.getByTestId('query-view')).toBeVisible();
}

const stateRow = (page: Page, name: string) => page.getByTestId('query-state-row').filter({ has: page.getByRole('cell', { name, exact: true }) });

test("Export state streams the worker's chunks into the chosen file (File System Access API) as they are made, and Cancel stops the export and discards the file", async ({
  page,
  baseURL,
}) => {
  const foreign = watchForeignRequests(page, baseURL!);
  await page.addInitScript(PICKER_STUB);
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByTestId('open-demo').click();
  await waitForAppState(page, 'ready');
  await openQueryView(page);
  const events = stateRow(page, 'events-by-name');
  const table = (await events.getByRole('cell').first().textContent())!;

  // the first chunk (Parquet: the magic and the row group) is written while the export still runs
  await page.getByTestId('export-format').selectOption('parquet');
  await page.evaluate(() => ((window as unknown as { __stall: boolean }).__stall = true));
  await events.getByTestId('export-state').click();
  await expect.poll(async () => (await pickerLog(page)).pendingWrites).toBe(1);
  let log = await pickerLog(page);
  expect(log.name).toBe(`${table}.parquet`);
  expect(log.chunks).toHaveLength(1);
  expect(Buffer.from(log.chunks[0]!).subarray(0, 4).toString()).toBe('PAR1');
  // not the whole file yet: no footer, nothing closed, the export is still running
  expect(Buffer.from(log.chunks[0]!).subarray(-4).toString()).not.toBe('PAR1');
  expect(log.closed).toBe(false);
  await expect(page.getByTestId('query-running')).toContainText(`Exporting events-by-name`);
  await page.screenshot({ path: '/tmp/shots/query-export-running.png' });
  await expect(page.getByTestId('export-notice')).toHaveCount(0);

  // released: the rest arrives, the file is closed, and its bytes are the CLI's export of the same state
  await page.evaluate(() => (window as unknown as { __release: () => void }).__release());
  await expect(page.getByTestId('export-notice')).toContainText(`${table}.parquet: 24 rows`);
  await expect(page.getByTestId('export-notice')).toContainText('written to the chosen file as it was made');
  log = await pickerLog(page);
  expect(log.closed).toBe(true);
  expect(log.aborted).toBe(false);
  expect(log.chunks.length).toBeGreaterThanOrEqual(2);
  const streamed = Buffer.concat(log.chunks.map((c) => Buffer.from(c)));
  const dir = mkdtempSync(path.join(tmpdir(), 'spi-export-stream-'));
  const cliFile = path.join(dir, 'events-by-name.parquet');
  const operator = table.replace(/^op_([0-9a-f]{8})__.*$/, '$1');
  const metadataOperator = await findOperatorId(operator);
  expect(
    await runCli(['export', DEMO, '--operator', metadataOperator, '--state', 'events-by-name', '--format', 'parquet', '--output', cliFile, '--quiet'], {
      stdout: () => undefined,
      stderr: () => undefined,
    }),
  ).toBe(0);
  expect(streamed.equals(readFileSync(cliFile))).toBe(true);

  // Cancel while a write is pending: the file is aborted, never closed, nothing more is written, and the worker is free again
  await page.evaluate(() => {
    const w = window as unknown as { __picker: PickerLog; __stall: boolean };
    w.__picker.chunks = [];
    w.__picker.closed = false;
    w.__stall = true;
  });
  await events.getByTestId('export-state').click();
  await expect.poll(async () => (await pickerLog(page)).pendingWrites).toBe(1);
  await page.getByTestId('query-running').getByRole('button', { name: 'Cancel the running step' }).click();
  await expect(page.getByTestId('export-notice')).toContainText('Export of events-by-name cancelled after 0 B: the file was discarded');
  log = await pickerLog(page);
  expect(log.aborted).toBe(true);
  expect(log.closed).toBe(false);
  expect(log.chunks).toHaveLength(1);
  await expect(page.getByTestId('query-running')).toHaveCount(0);
  // the worker's export stopped: the next one runs to its end with the whole file
  await page.evaluate(() => {
    const w = window as unknown as { __picker: PickerLog; __stall: boolean };
    w.__picker.chunks = [];
    w.__picker.aborted = false;
    w.__stall = false;
  });
  await page.getByTestId('export-format').selectOption('jsonl');
  await events.getByTestId('export-state').click();
  await expect(page.getByTestId('export-notice')).toContainText(`${table}.jsonl: 24 rows`);
  log = await pickerLog(page);
  expect(log.closed).toBe(true);
  expect(
    Buffer.concat(log.chunks.map((c) => Buffer.from(c)))
      .toString()
      .trim()
      .split('\n'),
  ).toHaveLength(24);
  expect(foreign).toEqual([]);
});

test("Query view: results in the virtualized table and downloadable; a query error and an unknown column show DuckDB's message; a state that is not decodable shows its reason", async ({
  page,
  baseURL,
}) => {
  const foreign = watchForeignRequests(page, baseURL!);
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByTestId('open-demo').click();
  await waitForAppState(page, 'ready');
  await openQueryView(page);
  await page.getByTestId('load-tables').click();
  const history = stateRow(page, 'event-history');
  await expect(history.getByTestId('query-state-status')).toHaveText('24 rows', { timeout: 60_000 });
  const table = (await history.getByRole('cell').first().textContent())!;

  // 24 rows: the virtualized table draws only the rows in view, and the CSV has them all
  await page.getByTestId('sql').fill(`SELECT key, element_index, value.id AS id FROM ${table} ORDER BY value.id`);
  await page.getByTestId('run-sql').click();
  await expect(page.getByTestId('query-summary')).toContainText(/^24 rows in/);
  await expect(page.getByTestId('query-result')).toHaveAttribute('aria-rowcount', '24');
  const drawn = await page.getByTestId('query-row').count();
  expect(drawn).toBeGreaterThan(0);
  expect(drawn).toBeLessThanOrEqual(24);
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-result').click()]);
  const lines = readFileSync((await csv.path())!, 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toBe('key,element_index,id');
  expect(lines).toHaveLength(25);
  // event 0's id is proto3's default: not set, so NULL (sorted last), as parquet-protobuf writes it
  expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual([...Array.from({ length: 23 }, (_, i) => String(i + 1)), '']);

  // DuckDB's own messages
  await page.getByTestId('sql').fill(`SELECT nope FROM ${table}`);
  await page.getByTestId('run-sql').click();
  await expect(page.getByTestId('query-error')).toContainText('Binder Error: Referenced column "nope" not found');
  await page.getByTestId('sql').fill(`SELEC key FROM ${table}`);
  await page.getByTestId('run-sql').click();
  await expect(page.getByTestId('query-error')).toContainText('Parser Error: syntax error at or near "SELEC"');
  await page.getByTestId('sql').fill('SELECT * FROM no_such_table');
  await page.getByTestId('run-sql').click();
  await expect(page.getByTestId('query-error')).toContainText('Catalog Error: Table with name no_such_table does not exist');
  await expect(page.getByTestId('query-result')).toHaveCount(0);

  // a savepoint whose Protobuf snapshots name a class this tool does not know: each such state says why it is not a table
  const unknown = path.join(mkdtempSync(path.join(tmpdir(), 'spi-unknown-serializer-')), 'savepoint');
  cpSync(CANONICAL, unknown, { recursive: true });
  for (const name of readdirSync(unknown)) {
    if (name === '_metadata') continue;
    const bytes = readFileSync(path.join(unknown, name));
    // same length: the class name changes (a snapshot class this tool has no reader for), and so does the root
    // message name the snapshot names (not the descriptor set's own package and type names): a snapshot whose
    // bytes carry a descriptor set holding its root would be read by structure (inferred), not refused
    const renamed = bytes
      .toString('latin1')
      .replaceAll('ProtobufTypeSerializerSnapshot', 'ProtobufTypeSerializerSnapshoX')
      .replace(/(?<![.A-Za-z])fixtures\.events\.(?=\w)/g, 'fixtures.eventX.');
    writeFileSync(path.join(unknown, name), Buffer.from(renamed, 'latin1'));
  }
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(unknown);
  await waitForAppState(page, 'ready');
  await openQueryView(page);
  const lastEvent = stateRow(page, 'last-event');
  await expect(lastEvent.getByTestId('query-state-status')).toHaveText(
    'not readable: unknown serializer snapshot io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshoX v1',
  );
  await expect(lastEvent.getByTestId('export-state')).toBeDisabled();
  await page.getByTestId('load-tables').click();
  // the readable states (the timers) become tables; the undecodable ones do not, and a query on one says so
  const timers = page.getByTestId('query-state-row').filter({ hasText: '_timer_state' }).getByTestId('query-state-status');
  await expect(timers.first()).toHaveText('0 rows', { timeout: 60_000 });
  await expect(timers.filter({ hasText: '0 rows' })).toHaveCount(await timers.count(), { timeout: 60_000 });
  await expect(lastEvent.getByTestId('query-state-status')).toContainText('not readable: unknown serializer snapshot');
  const lastTable = (await lastEvent.getByRole('cell').first().textContent())!;
  await page.getByTestId('sql').fill(`SELECT count(*) FROM ${lastTable}`);
  await page.getByTestId('run-sql').click();
  await expect(page.getByTestId('query-error')).toContainText(`Catalog Error: Table with name ${lastTable} does not exist`);
  await expect(page.getByTestId('query-error')).toContainText(
    `— ${lastTable} is state "last-event", not readable: unknown serializer snapshot io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshoX v1`,
  );
  await page.screenshot({ path: '/tmp/shots/query-not-decodable.png', fullPage: true });
  expect(foreign).toEqual([]);
});

/** The demo's operator id whose first 8 hex digits name the table. */
async function findOperatorId(prefix: string): Promise<string> {
  let json = '';
  expect(await runCli(['inspect', DEMO, '--format', 'json'], { stdout: (t) => (json += t), stderr: () => undefined })).toBe(0);
  const ops = (JSON.parse(json) as { operators: { id: string }[] }).operators;
  return ops.find((o) => o.id.startsWith(prefix))!.id;
}
