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

test("one definition per number in the aliasing view: the statistics over all values, the finding's numbers those of its first value, each labelled", async ({
  page,
}) => {
  await page.goto('/?demo&target=1.x#/aliasing?op=6d821971c3bfd7ae2c972e89d7414f7c&state=events-by-name');
  await waitForAppState(page, 'ready');
  // the largest of all 24 values (5,392 bytes) and the sum over all of them (276 fields) say so
  await expect(page.getByTestId('al-max')).toContainText('5,392 bytes, the largest of all 24 values');
  await expect(page.getByTestId('al-fields')).toHaveText(/^Bytes\/unknown LEN fields276in all 24 values: 15 KiB$/i);
  // the finding's 5331-byte payload and its 81 fields are those of one value, named
  const finding = page.getByTestId('aliasing-finding');
  await expect(finding).toHaveCount(1);
  await expect(finding).toContainText(
    'ALIASING_RETENTION 3 value(s). The first of them, 3 / "event-3": a 5331-byte payload shares its array with 81 bytes/unknown length-delimited field(s)',
  );
  await expect(finding).toContainText('all 3: 3 / "event-3", 0 / "event-10", 2 / "event-17"');
  await page.getByTestId('aliasing-stats').screenshot({ path: '/tmp/shots/one-meaning-aliasing.png' });
});
