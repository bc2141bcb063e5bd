import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

/**
 * Findings of the new-user audit of issue #32 (every view over every input kind): each screen says what it
 * waits for, a checkpoint is called a checkpoint, and many open warnings do not push the Overview off screen.
 */
const INCREMENTAL = path.resolve(process.cwd(), 'fixtures/rocksdb-checkpoints/flink-2.3/lz4/chk-3');

test('Schema diff before the library line is chosen asks the question instead of a blank page', async ({ page }) => {
  await page.goto('/?demo#/diff');
  await waitForAppState(page, 'ready');
  await expect(page.getByRole('heading', { name: 'Schema diff' })).toBeVisible();
  await expect(page.getByTestId('target-question')).toBeVisible();
  // answered: the diff itself
  await page.getByTestId('choose-target-1.x').click();
  await expect(page.getByTestId('diff-view')).toBeVisible();
  await expect(page.getByTestId('target-question')).toHaveCount(0);
});

test('Unknown fields before the library line is chosen say what the new-schema column waits for, never "checking…"', async ({ page }) => {
  await page.goto('/?demo#/unknown');
  await waitForAppState(page, 'ready');
  const cell = page.getByTestId('unknown-new-field').first();
  await expect(cell).toContainText('choose the library line');
  await expect(page.getByTestId('unknown-view')).not.toContainText('checking…');
});

test('a checkpoint without Protobuf state is called a checkpoint, and its many path warnings fold away', async ({ page }) => {
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(INCREMENTAL);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('no-protobuf-state')).toContainText('This checkpoint holds no Protobuf state: nothing to check.');
  const warnings = page.getByRole('list', { name: 'Warnings' });
  await expect(warnings.locator(':scope > li:not(.more-warnings)')).toHaveCount(3);
  const more = page.getByTestId('more-warnings');
  await expect(more).toContainText(/^\d+ more warnings/);
  // the operators stay on the first screen
  await expect(page.getByRole('heading', { name: 'Operators' })).toBeInViewport();
  await more.locator('summary').click();
  await expect(more.locator('li').first()).toBeVisible();
});

test('Unknown fields of an operator state name "(no key)" once, not once per example', async ({ page }) => {
  await page.goto('/?demo&target=1.x#/unknown?op=6d821971c3bfd7ae2c972e89d7414f7c&state=processed-events');
  await waitForAppState(page, 'ready');
  const examples = page.getByTestId('unknown-stat').first().locator('td.examples');
  await expect(examples).toHaveText('(no key: operator state has no key)');
});

test('Overview cards show their whole value: a long input name and "RocksDB native" are not cut to an ellipsis', async ({ page }) => {
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(INCREMENTAL);
  await waitForAppState(page, 'ready');
  await page.goto('/?demo');
  await waitForAppState(page, 'ready');
  for (const id of ['ov-input', 'ov-format']) {
    const value = page.getByTestId(id).locator('.card-value');
    const cut = await value.evaluate((e) => e.scrollWidth > e.clientWidth);
    expect(cut, `${id} value cut off`).toBe(false);
  }
  await page.getByTestId('folder-input').setInputFiles(INCREMENTAL);
  await waitForAppState(page, 'ready');
  const format = page.getByTestId('ov-format').locator('.card-value');
  await expect(format).toHaveText(/RocksDB native/);
  expect(await format.evaluate((e) => e.scrollWidth > e.clientWidth), 'format value cut off').toBe(false);
});
