import { expect, test } from './test';
import { waitForAppState } from './helpers';

test('a storage quota error while keeping the files is shown, and the session still opens', async ({ page }) => {
  // the browser refuses every IndexedDB write, as it does when the origin's quota is used up
  await page.addInitScript(() => {
    IDBObjectStore.prototype.put = function put(): IDBRequest {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByRole('checkbox', { name: /Keep opened files/ }).check();
  await page.getByTestId('open-demo').click();
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('storage-error')).toContainText('Browser storage failed (QuotaExceededError): The quota has been exceeded.');
  await expect(page.getByTestId('overview')).toBeVisible();
});
