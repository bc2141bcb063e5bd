import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

test("a checkpoint is called a checkpoint in the top bar's chip and the size card", async ({ page }) => {
  await page.goto('/?nodemo');
  await page.getByTestId('folder-input').setInputFiles(path.resolve(process.cwd(), 'fixtures/rocksdb-checkpoints/flink-1.20/zstd/chk-2'));
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('ov-type')).toContainText('checkpoint');
  await expect(page.getByTestId('savepoint-chip').locator('.chip-label')).toHaveText('checkpoint');
  await expect(page.getByTestId('savepoint-chip')).toHaveAttribute('title', /^Checkpoint: chk-2/);
  await expect(page.getByTestId('ov-size')).toContainText('Checkpoint size');
  await expect(page.getByTestId('ov-size')).not.toContainText('avepoint');
  await page.screenshot({ path: '/tmp/shots/polish-checkpoint-type.png' });

  // a savepoint keeps its word
  await page.goto('/?demo&target=1.x');
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('savepoint-chip').locator('.chip-label')).toHaveText('savepoint');
  await expect(page.getByTestId('ov-size')).toContainText('Savepoint size');
});
