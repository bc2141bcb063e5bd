import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

/** A generated 64 MiB savepoint (bench/generate), large enough that reading its state takes a while. */
const BENCH = path.join(tmpdir(), 'spi-e2e-bench-64MiB');

test.describe('a long step', () => {
  test.beforeAll(() => {
    execFileSync(path.resolve(process.cwd(), 'node_modules/.bin/tsx'), [path.resolve(process.cwd(), 'bench/generate/main.ts'), BENCH, '64MiB', '2'], { stdio: 'ignore' });
  });

  test('shows its phase and bytes in a progress bar, can be cancelled, and run again', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto('/');
    await waitForAppState(page, 'empty');
    await page.getByTestId('folder-input').setInputFiles(BENCH);
    const progress = page.getByTestId('progress');
    // the inspection reads every state file in full to count entries: cancel it while it runs
    await expect(progress).toContainText('Reading state files');
    await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuenow', /\d+/);
    await progress.getByRole('button', { name: 'Cancel the running step' }).click();
    await waitForAppState(page, 'failed');
    const failure = page.getByTestId('failure');
    await expect(failure).toContainText('Cancelled');
    await expect(failure.getByTestId('failure-message')).toContainText('cancelled');
    await failure.getByRole('button', { name: 'Run again' }).click();
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('operator-row').first()).toBeVisible();
  });
});
