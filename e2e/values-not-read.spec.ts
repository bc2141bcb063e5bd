import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState, watchForeignRequests } from './helpers';

const NATIVE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/rocksdb/native/savepoint');
const SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');
const LAST_EVENT_OPERATOR = '6d821971c3bfd7ae2c972e89d7414f7c';

test('a RocksDB native savepoint never looks complete: a banner on Overview, and "values not read" instead of "No value warnings"', async ({ page, baseURL }) => {
  const foreign = watchForeignRequests(page, baseURL!);
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(NATIVE);
  await waitForAppState(page, 'ready');
  const banner = page.getByTestId('banner-values-not-read');
  await expect(banner).toContainText("Values not read: 12 keyed states of 3 operators are in RocksDB's native format (SST files)");
  await expect(banner).toContainText('flink savepoint --type canonical');
  await page.screenshot({ path: '/tmp/shots/native-overview.png', fullPage: true });

  await page.getByTestId('file-input').setInputFiles([SCHEMA]);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('schema-chip')).toContainText('events-changed.binpb');
  await page.goto(`/?target=1.x#/compat?op=${LAST_EVENT_OPERATOR}&state=last-event`);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('summary-values-not-read')).toHaveText(' · values of 6 states not read');
  await expect(page.getByTestId('row-values-not-read')).toHaveCount(6);
  const detail = page.getByTestId('compat-state-detail');
  await expect(detail.getByTestId('values-not-read')).toHaveText(
    'Values not read: RocksDB native snapshot: SST files are not readable here; take a canonical savepoint. No value warning was checked for this state.',
  );
  await expect(detail).not.toContainText('No value warnings.');
  await page.screenshot({ path: '/tmp/shots/native-compat.png', fullPage: true });

  // the operator state of the same savepoint is read: its value warnings are there
  await page.goto(`/?target=1.x#/compat?op=${LAST_EVENT_OPERATOR}&state=processed-events`);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('compat-state-detail').getByTestId('value-warnings')).toBeVisible();
  await expect(page.getByTestId('compat-state-detail').getByTestId('values-not-read')).toHaveCount(0);
  expect(foreign).toEqual([]);
});
