import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

/** A real Flink Table/SQL savepoint (group aggregate, all state inline in `_metadata`), read from the shared folder. */
const GROUP_AGGREGATE = path.resolve(process.cwd(), '../shared/real-savepoints-defects/table-restore/group-aggregate-simple/_metadata');
const AGG_OP = '23eaad2bb152dd975bbc63554c2ca61f';

test.skip(!existsSync(GROUP_AGGREGATE), 'needs ../shared/real-savepoints-defects');

test('Table/SQL state: the values table shows a row key and a row value as typed columns, one per field of the RowType, with the row kind', async ({
  page,
}) => {
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('file-input').setInputFiles([GROUP_AGGREGATE]);
  await waitForAppState(page, 'ready');
  await page.goto(`/?target=1.x#/values?op=${AGG_OP}&state=accState`);
  await waitForAppState(page, 'ready');
  const table = page.getByTestId('entries-table');
  // the group key `b` (one BIGINT field) and the accumulators: count, the filtered average's sum and count, the minimum
  await expect(table.getByTestId('key-column')).toHaveText(['key.f0 BIGINT']);
  await expect(table.getByTestId('value-column')).toHaveText(['f0 BIGINT', 'f1 BIGINT', 'f2 BIGINT', 'f3 VARCHAR(2147483647)']);
  const rows = table.getByTestId('entry-row');
  await expect(rows).toHaveCount(2);
  const cells = async (i: number) => [
    await rows.nth(i).getByTestId('row-kind').textContent(),
    ...(await rows.nth(i).getByTestId('row-cell').allTextContents()),
  ];
  await expect.poll(() => cells(0)).toEqual(['+I', '2', '2', '4', '2', '"Hello"']);
  await expect.poll(() => cells(1)).toEqual(['+I', '1', '1', '0', '0', '"Hi"']);
  await expect(page.getByTestId('failure')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/shots/table-rows.png' });
});

const CHANGELOG = path.resolve(process.cwd(), '../shared/real-savepoints-defects/new-stateful-udf-migration-itcase-flink1.17-hashmap-checkpoint');
const FLAT_MAP = 'd5c8b168c6cbfe8c507a10f88b325243';

test('a changelog checkpoint (code 14): its replayed states are read, the two whose keys stay bytes say partly decoded and why', async ({ page }) => {
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(CHANGELOG);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('reading-summary-line')).toContainText('10 states: 8 read, 2 partly decoded, 0 not read');
  await page.goto(`/?target=1.x#/values?op=${FLAT_MAP}&state=state-name`);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('entry-row')).toHaveCount(4);
  await page.goto(`/?target=1.x#/state?op=${FLAT_MAP}&state=state-name`);
  await waitForAppState(page, 'ready');
  const reading = page.getByTestId('state-view').locator('dd').getByTestId('state-reading');
  await expect(reading).toHaveAttribute('data-reading', 'partly');
  await expect(reading).toContainText('the changelog does not record the key serializer');
  await page.screenshot({ path: '/tmp/shots/changelog-partly.png' });
});
