import { readFileSync } from 'node:fs';
import { expect, test } from './test';
import { waitForAppState, watchForeignRequests } from './helpers';

test("the Query view loads the demo states into DuckDB-WASM, runs the example queries, shows DuckDB's errors and exports a state", async ({
  page,
  baseURL,
}) => {
  const foreign = watchForeignRequests(page, baseURL!);
  const cspViolations: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) cspViolations.push(m.text());
  });
  // as in Firefox and Safari: no File System Access API, so the export is saved as one Blob download
  // (e2e/query-export-stream.spec.ts streams into the picker's file)
  await page.addInitScript(() => delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker);
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByTestId('open-demo').click();
  await waitForAppState(page, 'ready');
  await page.getByTestId('nav-query').click();
  await expect(page).toHaveURL(/#\/query/);
  await expect(page.getByTestId('query-view')).toBeVisible();
  await page.getByTestId('load-tables').click();
  const stateRow = (name: string) => page.getByTestId('query-state-row').filter({ has: page.getByRole('cell', { name, exact: true }) });
  const lastEvent = stateRow('last-event');
  await expect(lastEvent.getByTestId('query-state-status')).toHaveText('5 rows', { timeout: 60_000 });
  const history = stateRow('event-history');
  await expect(history.getByTestId('query-state-status')).toHaveText('24 rows');
  await expect(page.getByTestId('load-tables')).toHaveText('Reload tables', { timeout: 60_000 });
  // every state of the demo is readable: none failed to load
  await expect(page.getByTestId('query-state-status').filter({ hasText: 'not loaded' })).toHaveCount(0);
  await expect(page.getByTestId('query-examples')).toBeVisible();
  // the operators of a savepoint carry no uid: tables are named by operator id prefix and state
  const table = (await lastEvent.getByRole('cell').first().textContent())!;
  expect(table).toMatch(/^op_[0-9a-f]{8}__last_event$/);

  // counts per key group of the first keyed Protobuf state (the examples' table at first)
  await page.getByRole('button', { name: 'Counts per key group' }).click();
  await expect(page.getByTestId('query-summary')).toContainText(/^\d+ rows? in/);
  await expect(page.getByTestId('query-result').getByRole('columnheader')).toHaveText(['key_group', 'entries', 'bytes']);
  // bytes is sum(value_size): a HUGEINT, which reaches the page as a Decimal128; the cell reads as digits, not a quoted string
  await expect(page.getByTestId('query-row').first().locator('span').nth(2)).toHaveText(/^\d+$/);
  // every fixture event carries unknown field 100: every row of the examples' table has unknown fields
  const examplesOn = await page.getByTestId('query-example-table').inputValue();
  const examplesRows = (await page
    .getByTestId('query-state-row')
    .filter({ has: page.getByRole('cell', { name: examplesOn, exact: true }) })
    .getByTestId('query-state-status')
    .textContent())!;
  await page.getByRole('button', { name: 'Values with unknown fields' }).click();
  await expect(page.getByTestId('query-summary')).toContainText(`${examplesRows} in`);
  await page.screenshot({ path: '/tmp/shots/query-unknown-fields.png', fullPage: true });

  // a nested Protobuf field and the typed key
  await page.getByTestId('sql').fill(`SELECT key, value.name AS name, value.kind AS kind FROM ${table} ORDER BY key`);
  await page.getByTestId('run-sql').click();
  await expect(page.getByTestId('query-row').first()).toContainText('0event-20DELETED');
  await expect(page.getByTestId('query-row')).toHaveCount(5);
  await page.screenshot({ path: '/tmp/shots/query-result.png', fullPage: true });

  // DuckDB's own message for an unknown column
  await page.getByTestId('sql').fill(`SELECT nope FROM ${table}`);
  await page.getByTestId('run-sql').click();
  await expect(page.getByTestId('query-error')).toContainText('Referenced column "nope" not found');
  await page.screenshot({ path: '/tmp/shots/query-error.png', fullPage: true });

  // export a state as JSON Lines: a download of its rows (the Blob fallback)
  await page.getByTestId('export-format').selectOption('jsonl');
  const downloading = page.waitForEvent('download');
  await lastEvent.getByTestId('export-state').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${table}.jsonl`);
  const lines = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\n');
  expect(lines.length).toBe(5);
  expect(JSON.parse(lines[0]!)).toMatchObject({ namespace: 'VoidNamespace', unknownFields: [{ number: 100, wireType: 0 }] });
  await expect(page.getByTestId('export-notice')).toContainText(`${table}.jsonl: 5 rows`);
  await expect(page.getByTestId('export-notice')).toContainText('downloaded');

  expect(foreign).toEqual([]);
  expect(cspViolations).toEqual([]);
});
