import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { expect, test } from './test';
import { listFiles, waitForAppState } from './helpers';

/**
 * A dropped archive holding several savepoints (issue #32): the app never silently opens one of them; it lists
 * the candidate `_metadata` files and opens the one the user picks.
 */
const FIRST = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const SECOND = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/rocksdb/canonical/savepoint');
const SCHEMA = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/events.binpb');

let zip: string;
test.beforeAll(() => {
  const dir = mkdtempSync(path.join(tmpdir(), 'spi-several-'));
  const entries: Record<string, Uint8Array> = {};
  for (const [folder, name] of [
    [FIRST, 'hashmap-2.3'],
    [SECOND, 'rocksdb-1.20'],
  ] as const) {
    for (const f of listFiles(folder)) entries[`jobs/${name}/${f}`] = new Uint8Array(readFileSync(path.join(folder, f)));
  }
  zip = path.join(dir, 'two-savepoints.zip');
  writeFileSync(zip, zipSync(entries));
});

test('an archive of two savepoints: the app lists both _metadata files, opens none, and opens the one picked', async ({ page }) => {
  await page.goto('/?nodemo');
  await page.getByTestId('file-input').setInputFiles(zip);
  const picker = page.getByRole('region', { name: 'Pick one savepoint' });
  await expect(picker).toBeVisible();
  await expect(picker.getByTestId('savepoint-candidate')).toHaveText(['jobs/hashmap-2.3/_metadata', 'jobs/rocksdb-1.20/_metadata']);
  // nothing was opened: no savepoint, no overview, no verdict
  await expect(page.getByTestId('overview')).toHaveCount(0);
  await expect(page.getByTestId('overall-verdict')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/shots/several-savepoints-picker.png' });

  await picker.getByRole('button', { name: 'jobs/rocksdb-1.20/_metadata' }).click();
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('overview')).toBeVisible();
  await expect(page.getByTestId('savepoint-chip')).toContainText('two-savepoints.zip › jobs/rocksdb-1.20/_metadata');
  await expect(picker).toHaveCount(0);
  await page.screenshot({ path: '/tmp/shots/several-savepoints-picked.png' });

  // a schema added afterwards joins the picked savepoint (it is not asked again)
  await page.getByTestId('file-input').setInputFiles(SCHEMA);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('schema-chip')).toContainText('events.binpb');
  await expect(page.getByTestId('savepoint-chip')).toContainText('two-savepoints.zip › jobs/rocksdb-1.20/_metadata');
  await expect(picker).toHaveCount(0);
});
