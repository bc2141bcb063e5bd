import { expect, test } from './test';
import { waitForAppState } from './helpers';

for (const width of [1400, 1280, 1024]) {
  test(`Recent sessions show the demo's whole name at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/?demo&target=1.x');
    await waitForAppState(page, 'ready');
    await page.getByRole('button', { name: 'Close the input and go back to the start page' }).click();
    await waitForAppState(page, 'empty');
    const cell = page.getByRole('region', { name: 'Recent sessions' }).locator('tbody tr').first().locator('td').first();
    await expect(cell).toHaveText('flink-1.20-hashmap-canonical-savepoint');
    const cut = await cell.evaluate((td) => td.scrollWidth > td.clientWidth + 0.5);
    expect(cut).toBe(false);
    await page.getByRole('region', { name: 'Recent sessions' }).screenshot({ path: `/tmp/shots/polish-recent-${width}.png` });
  });
}
