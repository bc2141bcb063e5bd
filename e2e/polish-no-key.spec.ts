import { expect, test } from './test';
import { waitForAppState } from './helpers';

/** The demo's operator list state `processed-events` (operator 6d821971…): its values carry unknown fields, and it has no key. */
const EVENTS_OP = '6d821971c3bfd7ae2c972e89d7414f7c';

test('unknown fields of operator state say why there is no example key', async ({ page }) => {
  await page.goto(`/?demo&target=1.x#/unknown?op=${EVENTS_OP}&state=processed-events`);
  await waitForAppState(page, 'ready');
  const rows = page.getByTestId('unknown-stat');
  await expect(rows.first()).toBeVisible();
  for (const cell of await rows.locator('td.examples').all()) await expect(cell).toHaveText('(no key: operator state has no key)');
  await page.getByTestId('unknown-stats').screenshot({ path: '/tmp/shots/polish-no-key.png' });

  // keyed state keeps its example keys
  await page.goto(`/?demo&target=1.x#/unknown?op=${EVENTS_OP}&state=last-event`);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('unknown-stat').first().locator('td.examples')).not.toContainText('no key');
});
