import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';
import type { Page } from '@playwright/test';

/** the fixture savepoint zipped, and the job jar with one added field (as job-jar.spec.ts opens them) */
const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical');
const JAR = path.resolve(process.cwd(), 'fixtures/job-jars/jars/added-field-4.36.2.jar');
let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'spi-topbar-'));
  execFileSync('zip', ['-qr', path.join(dir, 'fixture-savepoint.zip'), 'savepoint'], { cwd: FIXTURE });
  copyFileSync(JAR, path.join(dir, 'added-field-4.36.2.jar'));
});

/** the chip and every element in it show their whole text, inside the window, over no other top bar item */
async function expectChipWhole(page: Page, testId: string, text: string) {
  const chip = page.getByTestId(testId);
  await expect(chip).toContainText(text);
  const m = await page.evaluate((id) => {
    const chip = document.querySelector(`[data-testid="${id}"]`)!;
    const cut = [chip, ...chip.querySelectorAll('*')]
      .filter((e) => (e as HTMLElement).scrollWidth > (e as HTMLElement).clientWidth + 0.5)
      .map((e) => e.className || e.tagName);
    const c = chip.getBoundingClientRect();
    const over = [...document.querySelectorAll('.topbar > *:not(.inputs)')]
      .filter((o) => {
        const b = o.getBoundingClientRect();
        return b.left < c.right && c.left < b.right && b.top < c.bottom && c.top < b.bottom;
      })
      .map((o) => o.className);
    return { cut, over, right: c.right, width: window.innerWidth };
  }, testId);
  expect(m.cut, `cut in ${testId}`).toEqual([]);
  expect(m.over, `${testId} overlaps`).toEqual([]);
  expect(m.right).toBeLessThanOrEqual(m.width);
}

for (const width of [1400, 1280, 1024]) {
  test(`the top bar's chips are whole when the export buttons show, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/?demo&target=1.x');
    await waitForAppState(page, 'ready');
    await expect(
      page
        .getByRole('button', { name: 'HTML' })
        .or(page.getByText('HTML', { exact: true }))
        .first(),
    ).toBeVisible();
    await expectChipWhole(page, 'schema-chip', 'events-changed.binpb');
    await expectChipWhole(page, 'savepoint-chip', 'flink-1.20-hashmap-canonical-savepoint');
    await page.locator('.topbar').screenshot({ path: `/tmp/shots/polish-topbar-demo-${width}.png` });

    await page.goto('/?nodemo&target=0.x');
    await page.getByTestId('file-input').setInputFiles([path.join(dir, 'fixture-savepoint.zip'), path.join(dir, 'added-field-4.36.2.jar')]);
    await waitForAppState(page, 'ready');
    await expectChipWhole(page, 'schema-chip', 'added-field-4.36.2.jar');
    await expectChipWhole(page, 'savepoint-chip', 'fixture-savepoint.zip');
    await page.locator('.topbar').screenshot({ path: `/tmp/shots/polish-topbar-jar-${width}.png` });
  });
}
