import { expect, test } from './test';
import { installContrastHelpers, waitForAppState, type WcagHelpers } from './helpers';

/** Text contrast of every visible text node's element against its nearest opaque background (WCAG 2 formula). */
async function findLowContrast(page: import('@playwright/test').Page): Promise<string[]> {
  return page.evaluate(() => {
    const { parse, lum, background } = (window as unknown as { __wcag: WcagHelpers }).__wcag;
    const bad: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent?.trim()) continue;
      const style = getComputedStyle(el);
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || style.visibility === 'hidden' || el.closest('[disabled], .skip-link, svg, [aria-hidden="true"]')) continue;
      const fg = parse(style.color).slice(0, 3);
      const opacity = Number(style.opacity);
      if (opacity < 1) continue;
      const [a, b] = [lum(fg), lum(background(el))].sort((x, y) => y - x);
      const ratio = (a! + 0.05) / (b! + 0.05);
      if (ratio < 4.5) bad.push(`${ratio.toFixed(2)} ${el.tagName.toLowerCase()}.${el.className}: ${n.textContent.trim().slice(0, 40)}`);
    }
    return [...new Set(bad)];
  });
}

test('plain words and access: tab title, ? help, skip link, contrast, nothing clipped at 1024 px', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await installContrastHelpers(page);
  await page.goto('/?demo&target=1.x');
  await waitForAppState(page, 'ready');
  // the tab names the savepoint and its verdict, in words
  await expect(page).toHaveTitle('flink-1.20-hashmap-canonical-savepoint · not restorable · Savepoint Inspector');
  await page.screenshot({ path: '/tmp/shots/a11y-overview-1024.png' });
  // the skip link is the first stop and moves the focus to the content, keeping the view
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('skip-link')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();
  await expect(page).toHaveURL(/\?demo&target=1\.x/);

  // ? opens the keyboard help, Esc closes it
  await page.locator('body').press('?');
  await expect(page.getByTestId('keyboard-help')).toBeVisible();
  await expect(page.getByTestId('keyboard-help')).toContainText('Compatibility');
  await page.screenshot({ path: '/tmp/shots/a11y-help.png' });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('keyboard-help')).toHaveCount(0);

  // no raw enum strings: not-restorable is always in words
  for (const view of ['overview', 'compat', 'diff']) {
    await page.goto(`/?demo&target=1.x#/${view}`);
    await waitForAppState(page, 'ready');
    await expect(page.locator('body')).not.toContainText('not-restorable');
    // text contrast at least 4.5:1
    expect(await findLowContrast(page), view).toEqual([]);
    // headers and card values are not clipped at 1024 px
    const clipped = await page.evaluate(() =>
      [...document.querySelectorAll('th, .card-value, h1, h2, .verdict-reason, .nav a')]
        .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).textOverflow !== 'ellipsis')
        .map((e) => `${e.tagName} ${e.textContent?.slice(0, 40)}`),
    );
    expect(clipped, view).toEqual([]);
    await page.screenshot({ path: `/tmp/shots/a11y-${view}-1024.png` });
  }
  await page.getByRole('button', { name: 'Close the input and go back to the start page' }).click();
  await waitForAppState(page, 'empty');
  await expect(page.locator('body')).not.toContainText('not-restorable');
  await expect(page).toHaveTitle('Savepoint Inspector');
});
