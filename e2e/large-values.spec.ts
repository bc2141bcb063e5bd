import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeSavepointWithHugeValue } from '../tests/helpers/write-savepoint-with-huge-value';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

const LARGE_OP = '69ee92ec1299dfd00071bfb77ad99663';
const INT_KEYED = '6d821971c3bfd7ae2c972e89d7414f7c';

test('a 20 KB value stays light: a virtualized hex view, the long bytes field collapsed in the tree', async ({ page }) => {
  // find the entry of large-event whose value is about 20 KB (the demo's one large payload)
  await page.goto(`/?demo&target=1.x#/values?op=${LARGE_OP}&state=large-event`);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('entry-row').first().locator('span').first()).toHaveText('0');
  const sizes = await page.getByTestId('entry-row').locator('span:nth-last-child(2)').allTextContents();
  const index = sizes.map((s) => Number(s.replace(/[^\d]/g, ''))).findIndex((n) => n > 10_000);
  expect(index).toBeGreaterThanOrEqual(0);
  await page.goto(`/?demo&target=1.x#/values?op=${LARGE_OP}&state=large-event&entry=${index}`);
  await waitForAppState(page, 'ready');
  const entry = page.getByTestId('entry-detail');
  const hex = entry.getByTestId('hex-view');
  await expect(hex.locator('.hx').first()).toBeVisible();
  // about 1,250 lines of 16 bytes: only the lines in view (and a few more) are in the DOM
  const drawn = await hex.locator('.hx').count();
  expect(drawn).toBeGreaterThan(0);
  expect(drawn).toBeLessThan(1_200);
  // scrolling reaches the last bytes
  await hex.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(hex.locator('.hex-off').last()).toHaveText(/^[0-9a-f]{8}$/);
  // the virtualizer draws the lines of the new scroll position on its next frame: wait for them, do not read the old ones
  await expect.poll(async () => parseInt((await hex.locator('.hex-off').last().textContent())!, 16)).toBeGreaterThan(19_000);
  // the long bytes field is collapsed, with its length, and opens on request
  const long = entry.getByTestId('json-tree').getByTestId('jt-long').first();
  await expect(long.getByTestId('jt-long-toggle')).toHaveText(/characters: show all$/);
  const collapsed = (await long.textContent())!.length;
  expect(collapsed).toBeLessThan(200);
  await page.screenshot({ path: '/tmp/shots/large-value.png' });
  await long.getByTestId('jt-long-toggle').click();
  await expect(long.getByTestId('jt-long-toggle')).toHaveText('collapse');
  expect((await long.textContent())!.length).toBeGreaterThan(10_000);
});

test('a value over the view caps is shown cut, as dump prints it, and whole on request', async ({ page }) => {
  // the fixture savepoint with one ~1.7 MB value patched in: 1,502 unknown fields, a JSON over 1 MiB
  const tmp = mkdtempSync(path.join(tmpdir(), 'spi-e2e-huge-'));
  try {
    const folder = writeSavepointWithHugeValue(
      path.resolve('fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint'),
      path.join(tmp, 'huge-value'),
      1_500_000,
    );
    // opened as a folder: zipped, its runs of equal bytes would (rightly) look like a zip bomb
    await page.goto('/?target=1.x');
    await waitForAppState(page, 'empty');
    await page.getByTestId('folder-input').setInputFiles(folder);
    await waitForAppState(page, 'ready');
    await page.goto(`/?target=1.x#/values?op=${INT_KEYED}&state=processed-events`);
    await expect(page.getByTestId('entry-row').first()).toBeVisible();
    const sizes = await page.getByTestId('entry-row').locator('span:nth-last-child(2)').allTextContents();
    const index = sizes.map((s) => Number(s.replace(/[^\d]/g, ''))).findIndex((n) => n > 1_000_000);
    expect(index).toBeGreaterThanOrEqual(0);
    await page.goto(`/?target=1.x#/values?op=${INT_KEYED}&state=processed-events&entry=${index}`);
    const entry = page.getByTestId('entry-detail');
    await expect(entry.getByTestId('value-cut')).toBeVisible();
    await expect(entry.getByTestId('json-omitted')).toHaveText('The decoded value is not shown: its JSON is longer than 1,048,576 characters.');
    await expect(entry.getByTestId('unknown-field')).toHaveCount(1000);
    await expect(entry.getByTestId('unknown-fields-omitted')).toHaveText('… 502 more unknown fields not listed.');
    await expect(entry.getByTestId('hex-cut')).toHaveText(/^The first 1,048,576 of 1,7\d\d,\d\d\d bytes\.$/);
    await page.screenshot({ path: '/tmp/shots/huge-value-cut.png' });
    await entry.getByTestId('show-whole-value').click();
    await expect(entry.getByTestId('json-tree')).toBeVisible();
    await expect(entry.getByTestId('value-cut')).toHaveCount(0);
    await expect(entry.getByTestId('unknown-field')).toHaveCount(1502);
    await expect(entry.getByTestId('hex-cut')).toHaveCount(0);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
