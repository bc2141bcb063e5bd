import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

const NATIVE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/rocksdb/native/savepoint');
const METADATA = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint/_metadata');
const EVENTS_OP = '6d821971c3bfd7ae2c972e89d7414f7c';

test('never silent: every state says how far it was read, on the Overview, in the state list and on its page', async ({ page }) => {
  await page.goto('/?demo&target=1.x');
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('reading-summary-line')).toContainText('17 states: 17 read, 0 partly decoded, 0 not read');
  await expect(page.getByTestId('reading-gap')).toHaveCount(0);
  // a state's page: header read until its values are scanned, then decoded with the count
  await page.goto(`/?demo&target=1.x#/state?op=${EVENTS_OP}&state=last-event`);
  await waitForAppState(page, 'ready');
  const reading = page.getByTestId('state-view').locator('dd').getByTestId('state-reading');
  await expect(reading).toHaveAttribute('data-reading', 'decoded');
  await expect(reading).toContainText('decoded');
  await expect(reading).toContainText(/\d+ entr(y|ies) read and decoded/);

  // RocksDB native: the keyed states are read from their SST files, so none is said to be unread
  // (e2e/values-not-read.spec.ts removes the SST files and sees each state say so)
  // (its Snappy blocks decompressed by snappy-wasm, whose module the worker fetches from the build's assets)
  const snappyWasm = page.waitForResponse((r) => /\/assets\/snappy_bg-[\w-]+\.wasm$/.test(r.url()));
  await page.goto('/?target=1.x');
  expect((await snappyWasm).status()).toBe(200);
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(NATIVE);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('reading-summary-line')).toContainText('0 partly decoded, 0 not read');
  await expect(page.getByTestId('reading-gap')).toHaveCount(0);
  await expect(page.getByTestId('state-chip').and(page.locator('[data-reading="not-read"]'))).toHaveCount(0);
  await page.screenshot({ path: '/tmp/shots/reading-native-overview.png' });

  // a lone _metadata: the states in missing files are not read, and the subtask streams that could not be listed are counted
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('file-input').setInputFiles([METADATA]);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('reading-summary-line')).toContainText(
    '5 states: 0 read, 0 partly decoded, 5 not read; 6 subtask streams whose states could not even be listed',
  );
  await expect(page.getByTestId('streams-not-read').first()).toHaveText(/subtask streams? not listed/);
  await page.screenshot({ path: '/tmp/shots/reading-lone-metadata.png' });
});
