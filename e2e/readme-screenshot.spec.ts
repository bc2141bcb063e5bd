import { expect, test } from './test';
import { waitForAppState } from './helpers';

test("the demo's values view shows a decoded Protobuf value with its unknown field highlighted", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 860 });
  await page.goto('/?demo&target=1.x#/values?op=6d821971c3bfd7ae2c972e89d7414f7c&state=last-event&entry=0');
  await waitForAppState(page, 'ready');
  const unknown = page.getByTestId('unknown-field');
  await expect(unknown).toHaveCount(1);
  await unknown.hover();
  await expect(page.locator('.hx-hot')).toHaveCount(3);
});

/** Keeps docs/app-screenshot.png current when run with UPDATE_SCREENSHOT=1 (the README shows it). */
test("the demo's compatibility view leads with the value-aware callout and the library-line explanation", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/?demo&target=1.x#/compat?op=6d821971c3bfd7ae2c972e89d7414f7c&state=last-event');
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('alert-becomes-field')).toBeVisible();
  await expect(page.getByTestId('library-line-note')).toBeVisible();
  await expect(page.getByTestId('row-planning-aid').first()).toBeVisible();
  if (process.env.UPDATE_SCREENSHOT === '1') await page.screenshot({ path: 'docs/app-screenshot.png' });
});
