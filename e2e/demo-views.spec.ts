import { expect, test } from './test';
import { waitForAppState, watchForeignRequests } from './helpers';

const VIEWS = [
  ['overview', 'overview'],
  ['state', 'state-view'],
  ['compat', 'compat-view'],
  ['diff', 'diff-view'],
  ['values', 'values-view'],
  ['unknown', 'unknown-view'],
  ['aliasing', 'aliasing-view'],
] as const;

test('the bundled demo opens, every view renders and is reachable by URL hash, keyboard switches views', async ({ page, baseURL }) => {
  const foreign = watchForeignRequests(page, baseURL!);
  // the app runs under its CSP without tripping it (no inline styles or scripts, no eval)
  const cspViolations: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) cspViolations.push(m.text());
  });
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  // opt in to keeping the files, so that a reload reopens them
  await page.getByRole('checkbox', { name: /Keep opened files/ }).check();
  await page.getByTestId('open-demo').click();
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('savepoint-chip')).toContainText('flink-1.20-hashmap-canonical-savepoint');
  await expect(page.getByTestId('schema-chip')).toContainText('events-changed.binpb');
  await expect(page.getByTestId('overall-verdict')).toHaveText('not restorable');
  for (const [view, testId] of VIEWS) {
    await page.getByTestId(`nav-${view}`).click();
    await expect(page).toHaveURL(new RegExp(`#/${view}`));
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId(testId)).toBeVisible();
    await page.screenshot({ path: `/tmp/shots/demo-${view}.png`, fullPage: true });
  }
  // number keys switch views
  await page.locator('body').press('1');
  await expect(page.getByTestId('overview')).toBeVisible();
  // a view link survives a reload: the kept files are reopened from IndexedDB
  await page.goto('/?target=1.x#/aliasing?op=69ee92ec1299dfd00071bfb77ad99663&state=large-event');
  await page.reload();
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('aliasing-view')).toContainText('Aliasing memory · large-event');
  await expect(page.getByTestId('al-max')).toContainText('19,990 bytes');
  // the start page lists the session (IndexedDB) with its verdict, and reopens its kept files
  await page.getByRole('button', { name: 'Close the input and go back to the start page' }).click();
  await waitForAppState(page, 'empty');
  const recent = page.getByRole('region', { name: 'Recent sessions' }).locator('tbody tr');
  await expect(recent).toHaveCount(1);
  await expect(recent).toContainText('flink-1.20-hashmap-canonical-savepoint');
  await expect(recent).toContainText('events-changed.binpb');
  await expect(recent).toContainText('not restorable');
  await recent.getByRole('button', { name: /^Reopen/ }).click();
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('overall-verdict')).toHaveText('not restorable');
  expect(foreign).toEqual([]);
  expect(cspViolations).toEqual([]);
});
