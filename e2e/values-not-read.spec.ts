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

test('a RocksDB native savepoint whose SST files are missing never looks complete: the missing files in one sentence on Overview, and "values not read" instead of "No value warnings"', async ({
  page,
  baseURL,
}) => {
  const foreign = watchForeignRequests(page, baseURL!);
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(copyWithoutSstFiles());
  await waitForAppState(page, 'ready');
  // the missing SST files in one sentence and what to do (all 10, though each subtask's read stopped at its first), not one warning per file
  const note = page.getByTestId('missing-files');
  await expect(note.getByTestId('missing-files-sentence')).toHaveText('10 state files are missing: open the whole folder.');
  await expect(note.locator('details li')).toHaveCount(10);
  await expect(page.getByTestId('overview').getByRole('list', { name: 'Warnings' }).getByText('found no such file')).toHaveCount(0);
  await expect(page.getByTestId('ov-size')).toContainText('(10 missing, not counted)');
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
