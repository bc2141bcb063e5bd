import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

const NATIVE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/rocksdb/native/savepoint');
const EVENTS_OP = '6d821971c3bfd7ae2c972e89d7414f7c';
const STRING_KEYED_OP = '69ee92ec1299dfd00071bfb77ad99663';

test.beforeAll(() => mkdirSync('/tmp/shots', { recursive: true }));

test("after a value scan the State view names the state's largest values and its key-group skew, as stats does", async ({ page }) => {
  // the demo: a keyed state, largest first, each with its key group and subtask
  await page.goto(`/?demo&target=1.x#/state?op=${EVENTS_OP}&state=last-event`);
  await waitForAppState(page, 'ready');
  const panel = page.getByTestId('largest-values');
  const rows = panel.getByTestId('largest-value');
  await expect(rows.first()).toBeVisible();
  const sizes = await rows
    .locator('td:nth-child(2)')
    .evaluateAll((cells) => cells.map((c) => Number(/^([\d,]+) bytes$/.exec(c.getAttribute('title')!)![1]!.replace(/,/g, ''))));
  expect(sizes.length).toBeGreaterThan(1);
  expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
  await expect(panel.getByTestId('key-group-skew')).toContainText(/Key groups: the largest, \d+, holds .* the median .* key groups with entries/);
  await page.getByTestId('distribution').screenshot({ path: '/tmp/shots/largest-values-demo.png' });

  // a RocksDB native fixture: the String-keyed state with one near-limit value, named as `stats --format json` names it
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(NATIVE);
  await waitForAppState(page, 'ready');
  await page.evaluate((op) => void (location.hash = `#/state?op=${op}&state=large-event`), STRING_KEYED_OP);
  await expect(rows).toHaveCount(3);
  await expect(rows.first().locator('td')).toHaveText(['"user-0"', '20 KiB', '8', '0']);
  await expect(rows.nth(1).locator('td')).toHaveText(['"user-1"', '114 B', '121', '0']);
  await expect(panel.getByTestId('key-group-skew')).toHaveText(
    'Key groups: the largest, 8, holds 20 KiB in 1 entry — 175× the median (114 B) of 3 key groups with entries',
  );
  await page.getByTestId('distribution').screenshot({ path: '/tmp/shots/largest-values-rocksdb.png' });
});
