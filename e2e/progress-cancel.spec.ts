import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

/** A generated 256 MiB savepoint (bench/generate), large enough that a scan is still running when the test cancels it (about 2 s in the app). */
const BENCH = path.join(tmpdir(), 'spi-e2e-bench-256MiB');
/** The bench schema compiled by buf, as the new schema. */
const SCHEMA = path.join(tmpdir(), 'spi-e2e-bench-events.binpb');

/** Opens the app empty and drops the generated savepoint folder into it. */
async function openBench(page: Page): Promise<void> {
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(BENCH);
}

test.describe('a long step', () => {
  test.beforeAll(() => {
    execFileSync(path.resolve(process.cwd(), 'node_modules/.bin/tsx'), [path.resolve(process.cwd(), 'bench/generate/main.ts'), BENCH, '256MiB', '2'], {
      stdio: 'ignore',
    });
    execFileSync(
      path.resolve(process.cwd(), 'node_modules/.bin/buf'),
      ['build', path.resolve(process.cwd(), 'bench/generate'), '--exclude-source-info', '-o', SCHEMA],
      {
        stdio: 'ignore',
        env: { ...process.env, BUF_CACHE_DIR: path.join(tmpdir(), 'bench-buf-cache') },
      },
    );
  });

  test('opening reads headers only; a state scan is asked for, shows its phase and bytes, can be cancelled, and run again', async ({ page }) => {
    test.setTimeout(180_000);
    await openBench(page);
    // open + inspection read _metadata and the state headers: no entry counts until a state is scanned
    await waitForAppState(page, 'ready');
    await page.getByTestId('operator-row').first().getByRole('link', { name: 'events', exact: true }).click();
    const view = page.getByTestId('state-view');
    await expect(view.getByTestId('state-entries')).toHaveText('not scanned');
    // the operator holds more than the app reads unasked: the scan waits for the button
    const top = async () => (await view.locator('h1').boundingBox())!.y;
    const before = await top();
    await view.getByTestId('scan-values').click();
    const progress = page.getByTestId('progress');
    await expect(progress).toContainText('Scanning values');
    // the progress bar lies over the page: a running fetch does not shift the layout
    expect(await top()).toBe(before);
    await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuenow', /\d+/);
    await progress.getByRole('button', { name: 'Cancel the running step' }).click();
    const failure = view.getByTestId('failure');
    await expect(failure).toContainText('Cancelled');
    await expect(failure.getByTestId('failure-message')).toContainText('cancelled');
    await failure.getByRole('button', { name: 'Run again' }).click();
    await waitForAppState(page, 'ready');
    await expect(view.getByTestId('distribution-count')).toHaveText(/^[\d,]+ entries$/);
    await expect(view.getByTestId('state-entries')).toHaveText(/^[\d,]+ entries$/);
    await expect(view.getByTestId('scan-coverage')).toContainText('all entries');
  });

  test('the values table opens at an entry deep in a large state: only its key group is decoded for the detail', async ({ page }) => {
    test.setTimeout(180_000);
    await openBench(page);
    await waitForAppState(page, 'ready');
    const href = await page.getByTestId('operator-row').first().getByRole('link', { name: 'events', exact: true }).getAttribute('href');
    const op = new URLSearchParams(href!.slice(href!.indexOf('?') + 1)).get('op')!;
    await page.goto(`/?target=1.x#/values?op=${op}&state=events&entry=30000`);
    await waitForAppState(page, 'ready');
    const detail = page.getByTestId('entry-detail');
    await expect(detail).toContainText('bench.Event');
    await expect(detail.getByRole('heading', { level: 2 })).toHaveText('Entry 30000');
    await page.screenshot({ path: '/tmp/shots/values-deep-entry.png', fullPage: true });
  });

  test('sampling: every 16th key group or the first 1,000 entries, with the sample size next to the figures', async ({ page }) => {
    test.setTimeout(180_000);
    await openBench(page);
    await waitForAppState(page, 'ready');
    await page.getByTestId('operator-row').first().getByRole('link', { name: 'events', exact: true }).click();
    const view = page.getByTestId('state-view');
    await view.getByTestId('sample-select').selectOption({ label: 'every 16th key group' });
    await view.getByTestId('scan-values').click();
    await waitForAppState(page, 'ready');
    await expect(view.getByTestId('scan-coverage')).toContainText('sampled: 8 of 128 key groups (every 16th)');
    await expect(view.getByTestId('distribution-count')).toContainText('sampled: 8 of 128 key groups');
    await expect(view.getByTestId('state-entries')).toContainText('in the sample');
    await page.screenshot({ path: '/tmp/shots/state-sampled.png', fullPage: true });

    // the statistics views and the values table read the same sample
    await page.getByTestId('nav-unknown').click();
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('scan-coverage')).toContainText('sampled: 8 of 128 key groups');
    await page.getByTestId('sample-select').selectOption({ label: 'first 1,000 entries per state' });
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('scan-coverage')).toContainText('first 1,000 entries · 1,000 entries');
    await page.getByTestId('nav-values').click();
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('entries-table')).toHaveAttribute('aria-rowcount', '1000');
    await expect(page.getByTestId('entry-row').first()).toContainText('bench.Event');
    await page.screenshot({ path: '/tmp/shots/values-sampled.png', fullPage: true });
  });

  test('with a schema: header-only verdicts at once; the value warnings and the export after Scan values, equal to the CLI', async ({ page }) => {
    test.setTimeout(180_000);
    await openBench(page);
    await waitForAppState(page, 'ready');
    await page.getByTestId('file-input').setInputFiles(SCHEMA);
    await waitForAppState(page, 'ready');
    await page.goto('/?target=1.x#/compat');
    await waitForAppState(page, 'ready');
    const view = page.getByTestId('compat-view');
    await expect(page.getByTestId('overall-verdict')).toBeVisible();
    await expect(view.getByTestId('compat-state-row')).toHaveCount(2);
    const note = view.getByTestId('value-check-note');
    await expect(note).toHaveAttribute('data-status', 'not-requested');
    await expect(note).toContainText('Verdicts from _metadata and the state headers only');
    await expect(page.getByTestId('export-json')).toBeDisabled();
    // the export waits for the value scan, and says so next to the buttons
    await expect(page.getByTestId('export-why')).toHaveText('scan the values first (Compatibility)');
    await page.screenshot({ path: '/tmp/shots/compat-header-only.png', fullPage: true });
    await note.getByTestId('scan-values-check').click();
    await waitForAppState(page, 'ready');
    await expect(note).toHaveCount(0);
    await expect(page.getByTestId('export-json')).toBeEnabled();
    await expect(page.getByTestId('export-why')).toHaveCount(0);
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    const exported = readFileSync((await dl.path())!, 'utf8');
    let cli: string;
    try {
      cli = execFileSync(
        path.resolve(process.cwd(), 'node_modules/.bin/tsx'),
        [path.resolve(process.cwd(), 'src/cli/main.ts'), 'check', path.basename(BENCH), '--descriptors', SCHEMA, '--format', 'json'],
        { cwd: path.dirname(BENCH), encoding: 'utf8' },
      );
    } catch (e) {
      // exit code 1 = not compatible; the report is still on stdout
      cli = (e as { stdout: string }).stdout;
    }
    expect(exported).toBe(cli);
  });
});
