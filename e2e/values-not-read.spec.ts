import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState, watchForeignRequests } from './helpers';

const SOURCE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/rocksdb/native/savepoint');
const SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');
const LAST_EVENT_OPERATOR = '6d821971c3bfd7ae2c972e89d7414f7c';

/** A copy of the native savepoint without its SST files (told by the block-based table magic at their end). */
function copyWithoutSstFiles(): string {
  const folder = path.join(mkdtempSync(path.join(os.tmpdir(), 'native-no-sst-')), 'savepoint');
  mkdirSync(folder);
  for (const name of readdirSync(SOURCE)) {
    const full = path.join(SOURCE, name);
    const size = statSync(full).size;
    const tail = Buffer.alloc(8);
    const fd = openSync(full, 'r');
    try {
      if (size >= 8) readSync(fd, tail, 0, 8, size - 8);
    } finally {
      closeSync(fd);
    }
    if (tail.toString('hex') !== 'f7cff485b741e288') copyFileSync(full, path.join(folder, name));
  }
  return folder;
}

test('a RocksDB native savepoint whose SST files are missing never looks complete: the missing files on Overview, and "values not read" instead of "No value warnings"', async ({ page, baseURL }) => {
  const foreign = watchForeignRequests(page, baseURL!);
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(copyWithoutSstFiles());
  await waitForAppState(page, 'ready');
  // each missing SST file is named, located at the handle in _metadata that names it
  const warnings = page.getByRole('list', { name: 'Warnings' });
  await expect(warnings).toContainText('next to _metadata in savepoint, found no such file: the savepoint is incomplete (copy the whole folder)');
  await expect(warnings).toContainText('/ managed keyed state / private 000019.sst]');
  await page.screenshot({ path: '/tmp/shots/native-overview.png', fullPage: true });

  await page.getByTestId('file-input').setInputFiles([SCHEMA]);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('schema-chip')).toContainText('events-changed.binpb');
  await page.goto(`/?target=1.x#/compat?op=${LAST_EVENT_OPERATOR}&state=last-event`);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('summary-values-not-read')).toHaveText(' · values of 6 states not read');
  await expect(page.getByTestId('row-values-not-read')).toHaveCount(6);
  const detail = page.getByTestId('compat-state-detail');
  await expect(detail.getByTestId('values-not-read')).toContainText('Values not read: expected state file "');
  await expect(detail.getByTestId('values-not-read')).toContainText('No value warning was checked for this state.');
  await expect(detail).not.toContainText('No value warnings.');
  await page.screenshot({ path: '/tmp/shots/native-compat.png', fullPage: true });

  // the operator state of the same savepoint is read: its value warnings are there
  await page.goto(`/?target=1.x#/compat?op=${LAST_EVENT_OPERATOR}&state=processed-events`);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('compat-state-detail').getByTestId('value-warnings')).toBeVisible();
  await expect(page.getByTestId('compat-state-detail').getByTestId('values-not-read')).toHaveCount(0);
  expect(foreign).toEqual([]);
});
