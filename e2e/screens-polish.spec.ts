import { expect, test } from './test';
import { waitForAppState } from './helpers';

test('the progress bar over the page leaves the views\' menu uncovered', async ({ page }) => {
  await page.goto('/?demo&target=1.x');
  await waitForAppState(page, 'ready');
  // the app's bar, as drawn while a step runs (its CSS decides where it lies)
  const overlap = await page.evaluate(() => {
    const bar = document.createElement('div');
    bar.className = 'progress';
    bar.textContent = 'Scanning values';
    document.querySelector('.app')!.insertBefore(bar, document.querySelector('.body'));
    const b = bar.getBoundingClientRect();
    const first = document.querySelector('.nav a')!.getBoundingClientRect();
    return b.left < first.right && first.left < b.right && b.top < first.bottom && first.top < b.bottom;
  });
  expect(overlap).toBe(false);
});
