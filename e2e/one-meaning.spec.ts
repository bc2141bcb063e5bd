import { readFileSync } from 'node:fs';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

const RULES_OP = '732aacc57f1a1cd4ab51694dd9eed722';

test('one meaning per number: value warnings, broadcast copies and the savepoint size agree across views and the export', async ({ page }) => {
  await page.goto('/?demo&target=1.x#/compat');
  await waitForAppState(page, 'ready');
  // the summary, the column and the exported report count the same thing: value warnings
  const summary = (await page.getByTestId('compat-summary').textContent())!;
  const total = Number(/(\d+) value warnings/.exec(summary)![1]);
  const column = await page.getByTestId('compat-states').getByTestId('row-warnings').allTextContents();
  expect(column.reduce((n, c) => n + Number(c), 0)).toBe(total);
  await expect(page.getByTestId('compat-states').locator('th').last()).toHaveText('Value warnings');
  const download = page.waitForEvent('download');
  await page.getByTestId('export-json').click();
  const report = JSON.parse(readFileSync((await (await download).path())!, 'utf8')) as { summary: { warnings: number } };
  expect(report.summary.warnings).toBe(total);

  // a broadcast state: the chart draws every subtask's copy; the statistics count one copy and say so
  await page.goto(`/?demo&target=1.x#/state?op=${RULES_OP}&state=rules`);
  await waitForAppState(page, 'ready');
  const subtaskChart = page.getByTestId('distribution').getByRole('img', { name: 'Entries per subtask' });
  await expect(subtaskChart.locator('rect title')).toHaveText(['subtask 0: 3 entries, 76 B', 'subtask 1: 3 entries, 76 B']);
  await expect(page.getByTestId('distribution-count')).toHaveText('3 entries × 2 subtask copies');
  await page.screenshot({ path: '/tmp/shots/one-meaning-broadcast.png' });
  await page.goto(`/?demo&target=1.x#/unknown?op=${RULES_OP}&state=rules`);
  await waitForAppState(page, 'ready');
  await expect(page.locator('.lead')).toContainText('3 of 3 fixtures.events.Rule values');
  await expect(page.getByTestId('broadcast-counting')).toContainText('one copy is counted here');

  // one savepoint size, labelled, in the top bar, the Overview and Recent sessions
  await page.goto('/?demo&target=1.x#/overview');
  await waitForAppState(page, 'ready');
  const size = (await page.getByTestId('ov-size').locator('.card-value').textContent())!;
  await expect(page.getByTestId('ov-size')).toContainText('_metadata');
  await expect(page.getByTestId('ov-size')).toContainText('state files');
  await expect(page.getByTestId('savepoint-size')).toHaveText(` ${size}`);
  await page.getByRole('button', { name: 'Close the input and go back to the start page' }).click();
  await waitForAppState(page, 'empty');
  await expect(page.getByTestId('recent-size').first()).toHaveText(size);
});
