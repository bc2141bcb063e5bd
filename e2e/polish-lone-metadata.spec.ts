import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

const METADATA = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint/_metadata');
/** the demo's broadcast state `rules`, whose state file a lone _metadata lacks */
const RULES_OP = '732aacc57f1a1cd4ab51694dd9eed722';

test('a lone _metadata: its missing state files are worded for that input, never "next to _metadata in _metadata"', async ({ page }) => {
  await page.goto('/?nodemo&target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('file-input').setInputFiles([METADATA]);
  await waitForAppState(page, 'ready');
  const seen: string[] = [];
  for (const route of ['#/overview', `#/state?op=${RULES_OP}&state=rules`, `#/values?op=${RULES_OP}&state=rules`, '#/query']) {
    await page.evaluate((h) => (location.hash = h), route);
    await waitForAppState(page, 'ready');
    await expect(page.locator('.split-main, [data-testid="overview"], [data-testid="query-view"]').first()).toBeVisible();
    seen.push(
      await page
        .locator('body')
        .evaluate((b) => (b as HTMLElement).innerText + [...b.querySelectorAll('[title]')].map((e) => e.getAttribute('title')).join('\n')),
    );
  }
  const all = seen.join('\n');
  expect(all).not.toContain('next to _metadata in _metadata');
  expect(all).toContain('only the _metadata file was opened');
  await page.evaluate(() => (location.hash = '#/values?op=732aacc57f1a1cd4ab51694dd9eed722&state=rules'));
  await page.screenshot({ path: '/tmp/shots/polish-lone-metadata.png', fullPage: true });
});
