import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { expect, test } from './test';
import { listFiles, waitForAppState } from './helpers';

/** An archive of two savepoints (as several-savepoints.spec.ts builds it): the pick is remembered by Recent sessions. */
const FIRST = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const SECOND = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/rocksdb/canonical/savepoint');

let zip: string;
test.beforeAll(() => {
  const dir = mkdtempSync(path.join(tmpdir(), 'spi-recent-pick-'));
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

test('reopening a picked savepoint from Recent sessions opens the same pick, without asking again', async ({ page }) => {
  await page.goto('/?nodemo');
  await waitForAppState(page, 'empty');
  await page.getByRole('checkbox', { name: /Keep opened files/ }).check();
  await page.getByTestId('file-input').setInputFiles(zip);
  const picker = page.getByRole('region', { name: 'Pick one savepoint' });
  await picker.getByRole('button', { name: 'jobs/rocksdb-1.20/_metadata' }).click();
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('savepoint-chip')).toContainText('two-savepoints.zip › jobs/rocksdb-1.20/_metadata');

  await page.getByRole('button', { name: 'Close the input and go back to the start page' }).click();
  await waitForAppState(page, 'empty');
  const recent = page.getByRole('region', { name: 'Recent sessions' }).locator('tbody tr');
  await expect(recent.first()).toContainText('jobs/rocksdb-1.20/_metadata');
  await recent
    .first()
    .getByRole('button', { name: /^Reopen/ })
    .click();
  await waitForAppState(page, 'ready');
  await expect(picker).toHaveCount(0);
  await expect(page.getByTestId('savepoint-chip')).toContainText('two-savepoints.zip › jobs/rocksdb-1.20/_metadata');
  await page.screenshot({ path: '/tmp/shots/polish-recent-pick.png' });
});
