import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './test';
import { HAVE_SHARED_SAVEPOINTS, dropFiles, makeArchives, sharedSavepoint, waitForAppState, watchForeignRequests } from './helpers';

const NAME = 'new-stateful-udf-migration-itcase-flink1.20-hashmap-savepoint';

test.describe('opening a real Flink 1.20 savepoint', () => {
  test.skip(!HAVE_SHARED_SAVEPOINTS, 'the shared savepoints (../shared/flink-savepoints) are not on this machine');

  const folder = sharedSavepoint(NAME);
  let archives: { zip: string; tarGz: string };
  test.beforeAll(() => {
    archives = makeArchives(folder);
  });

  async function expectOverview(page: import('@playwright/test').Page, input: string) {
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('ov-input')).toContainText(input);
    await expect(page.getByTestId('ov-type')).toContainText('savepoint');
    await expect(page.getByTestId('ov-format')).toContainText('CANONICAL');
    await expect(page.getByTestId('ov-checkpoint').locator('.card-value')).toHaveText('2');
    await expect(page.getByTestId('ov-version').locator('.card-value')).toHaveText('4');
    await expect(page.getByTestId('ov-version')).toContainText('Flink 1.16 – 1.20');
    await expect(page.getByTestId('ov-size')).toContainText('18,068 bytes');
    await expect(page.getByTestId('operator-row')).toHaveCount(8);
    const flatMap = page.getByTestId('operator-row').filter({ hasText: 'd5c8b168c6cbfe8c507a10f88b325243' });
    await expect(flatMap.locator('td')).toHaveText(['d5c8b168c6cbfe8c507a10f88b325243', 'not stored', '4', '4', 'state-name', '1.6 KiB']);
  }

  test('through the folder picker (webkitdirectory)', async ({ page, baseURL }) => {
    const foreign = watchForeignRequests(page, baseURL!);
    await page.goto('/');
    await waitForAppState(page, 'empty');
    await page.getByTestId('folder-input').setInputFiles(folder);
    await expectOverview(page, NAME);
    await page.screenshot({ path: '/tmp/shots/overview.png', fullPage: true });
    // the uid box hashes a uid to its operator id
    await page.getByTestId('uid-input').fill('CheckpointingKeyedStateFlatMap1');
    await expect(page.getByTestId('uid-operator-id')).toHaveText('d5c8b168c6cbfe8c507a10f88b325243');
    await expect(page.getByTestId('uid-present')).toHaveText('in this savepoint');
    // the operators filter
    await page.getByRole('searchbox', { name: 'Filter operators' }).fill('_timer_state');
    await expect(page.getByTestId('operator-row')).toHaveCount(2);
    expect(foreign).toEqual([]);
  });

  test('as a .zip through the file picker', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('file-input').setInputFiles(archives.zip);
    await expectOverview(page, `${NAME}.zip`);
  });

  test('as a .tar.gz through the file picker', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('file-input').setInputFiles(archives.tarGz);
    await expectOverview(page, `${NAME}.tar.gz`);
  });

  test('as a .tar.gz through a drop event, then the state view by URL', async ({ page }) => {
    await page.goto('/');
    await waitForAppState(page, 'empty');
    await dropFiles(page, [{ name: path.basename(archives.tarGz), bytes: readFileSync(archives.tarGz) }]);
    await expectOverview(page, `${NAME}.tar.gz`);
    await page.goto('/#/state?op=41e91aae0bee218c44306cf7d21940ad&state=_timer_state%2Fevent_timer');
    await expect(page.getByTestId('state-view')).toBeVisible();
  });
});
