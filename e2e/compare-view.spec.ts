/**
 * The Compare view (issue #37): a fixture savepoint written by real Flink opened, then "Compare with…" on the
 * Overview and a second savepoint of the same job picked beside it like the first (a folder): the diff the
 * worker computed (the same model as `savepoint-inspector diff`), growth with values scanned, a renamed
 * operator, and two savepoints of different jobs said once. Screenshots in /tmp/shots.
 */
import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState, watchForeignRequests } from './helpers';

const BASE = path.resolve('fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');
const MORE = path.resolve('fixtures/diff-pairs/flink-1.20/hashmap/more-records/savepoint');
const UID_CHANGED = path.resolve('fixtures/diff-pairs/flink-1.20/hashmap/uid-changed/savepoint');
const OTHER_JOB = path.resolve('fixtures/rocksdb-checkpoints/flink-1.20/zstd/chk-1');
const MIGRATED = path.resolve('fixtures/kryo-migrated/flink-1.20/hashmap/kryo-registered/savepoint');

async function openAndCompare(page: import('@playwright/test').Page, open: string, other: string) {
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(open);
  await waitForAppState(page, 'ready');
  await page.getByTestId('compare-with').click();
  await expect(page.getByTestId('compare')).toBeVisible();
  await page.getByTestId('compare-folder-input').setInputFiles(other);
}

test.describe('the Compare view', () => {
  test('growth: the same job after more records, with values scanned', async ({ page, baseURL }) => {
    const foreign = watchForeignRequests(page, baseURL!);
    await openAndCompare(page, MORE, BASE);
    const result = page.getByTestId('compare-result');
    await expect(result).toBeVisible();
    // the open savepoint is the newer by default: the picked one is the older
    await expect(page.getByTestId('compare-older')).toContainText('savepoint');
    await expect(page.getByTestId('compare-operator-row')).toHaveCount(5);
    await expect(page.getByTestId('compare-total')).toContainText('(+80.7%)');
    await page.getByTestId('compare-values').check();
    const states = page.getByTestId('compare-states').filter({ hasText: 'processed-events' });
    await expect(states.locator('tr').filter({ hasText: 'processed-events' })).toContainText('24 → 48');
    await expect(states.locator('tr').filter({ hasText: 'events-by-name' })).toContainText('24 → 48');
    await page.screenshot({ path: '/tmp/shots/compare-growth.png', fullPage: true });
    expect(foreign).toEqual([]);
  });

  test('a uid change: the operator matched as renamed', async ({ page }) => {
    await openAndCompare(page, UID_CHANGED, BASE);
    await expect(page.getByTestId('compare-operator-row').filter({ hasText: 'renamed' })).toHaveCount(1);
    await expect(page.getByTestId('compare-operator').filter({ hasText: 'renamed: the same states under another operator id' })).toHaveCount(1);
    await page.screenshot({ path: '/tmp/shots/compare-renamed.png', fullPage: true });
  });

  test('serializer change and removed states: the Kryo savepoint against its migrated one', async ({ page }) => {
    await openAndCompare(page, MIGRATED, path.resolve('fixtures/kryo-savepoints/flink-1.20/hashmap/kryo-registered/savepoint'));
    const op = page.getByTestId('compare-operator');
    await expect(op).toContainText('parallelism 2 → 1');
    await expect(op).toContainText('keyed/event-holder');
    await expect(op.getByTestId('compare-states')).toContainText('via Kryo (chill-protobuf) → Protobuf fixtures.events.Event');
    await expect(page.getByTestId('compare-removed')).toContainText('SourceReaderState');
    await page.screenshot({ path: '/tmp/shots/compare-serializers.png', fullPage: true });
  });

  test('two savepoints of different jobs: said once, nothing listed as removed', async ({ page }) => {
    await openAndCompare(page, MIGRATED, OTHER_JOB);
    await expect(page.getByTestId('compare-relation')).toContainText('these look like savepoints of different jobs');
    await expect(page.getByTestId('compare-removed')).toHaveCount(0);
    await expect(page.getByTestId('compare-operators')).toHaveCount(0);
    await page.screenshot({ path: '/tmp/shots/compare-different-jobs.png', fullPage: true });
  });
});
