import { expect, test } from './test';
import { waitForAppState } from './helpers';

/** The demo's 17 tables push what follows the states table below the fold of a 1400×900 window. */
async function openDemoQuery(page: import('@playwright/test').Page) {
  await page.goto('/?demo&target=1.x#/query');
  await waitForAppState(page, 'ready');
  await page.getByTestId('load-tables').click();
  await expect(page.getByTestId('load-tables')).toHaveText('Reload tables', { timeout: 60_000 });
}

test('the Query view brings its result and its errors into view, whatever the number of tables', async ({ page }) => {
  await openDemoQuery(page);
  await page.getByRole('button', { name: 'Largest values' }).click();
  await expect(page.getByTestId('query-summary')).toBeInViewport();
  await expect(page.getByTestId('query-row').first()).toBeInViewport();
  await page.screenshot({ path: '/tmp/shots/query-result-in-view.png' });
  await page.getByTestId('sql').fill('SELECT nope FROM nowhere');
  await page.getByTestId('run-sql').click();
  await expect(page.getByTestId('query-error')).toBeInViewport();
});

test('the examples run on the table the user picks; an operator-state table counts per subtask, since it has no key group', async ({ page }) => {
  await openDemoQuery(page);
  const tableOf = async (state: string) =>
    (await page
      .getByTestId('query-state-row')
      .filter({ has: page.getByRole('cell', { name: state, exact: true }) })
      .getByRole('cell')
      .first()
      .textContent())!;
  const rules = await tableOf('rules');
  const byName = await tableOf('events-by-name');
  const picker = page.getByTestId('query-example-table');
  // a keyed table: counts per key group, the key groups its entries are in
  await picker.selectOption(byName);
  await page.getByRole('button', { name: 'Counts per key group' }).click();
  await expect(page.getByTestId('sql')).toHaveValue(new RegExp(`FROM ${byName} `));
  await expect(page.getByTestId('query-result').getByRole('columnheader')).toHaveText(['key_group', 'entries', 'bytes']);
  await expect(page.getByTestId('query-row').first().locator('span').first()).not.toHaveText('-1');
  // the field list follows the picked table's message
  await expect(page.getByTestId('query-field')).toBeVisible();
  // the broadcast table: no key group (-1 in every row), so the example counts per subtask and says why
  await picker.selectOption(rules);
  await expect(page.getByRole('button', { name: 'Counts per key group' })).toHaveCount(0);
  await expect(page.getByTestId('query-examples')).toContainText('broadcast state is operator state: it has no key group, key_group is -1 in every row');
  await page.getByRole('button', { name: 'Counts per subtask' }).click();
  await expect(page.getByTestId('sql')).toHaveValue(new RegExp(`FROM ${rules} `));
  await expect(page.getByTestId('query-result').getByRole('columnheader')).toHaveText(['subtask', 'entries', 'bytes']);
  await expect(page.getByTestId('query-row')).toHaveCount(2);
  await page.screenshot({ path: '/tmp/shots/query-examples-broadcast.png' });
});

test('the Query result reads as SQL: column names as written, unknown_fields with their field names, a parser error once', async ({ page }) => {
  await openDemoQuery(page);
  await page.getByRole('button', { name: 'Values with unknown fields' }).click();
  const headers = page.getByTestId('query-result').getByRole('columnheader');
  await expect(headers.last()).toHaveText('unknown_fields');
  // as shown on screen (innerText applies CSS text-transform), not upper-cased
  expect(await headers.last().innerText()).toBe('unknown_fields');
  await expect(page.getByTestId('query-row').first().locator('span').last()).toHaveText('[{"path":"","number":100,"wire_type":0,"bytes":"a00663"}]');
  await page.screenshot({ path: '/tmp/shots/query-unknown-fields-named.png' });
  await page.getByTestId('sql').fill('SELEC 1');
  await page.getByTestId('run-sql').click();
  const error = page.getByTestId('query-error');
  await expect(error).toContainText('Parser Error: syntax error at or near "SELEC"');
  expect(((await error.textContent()) ?? '').split('LINE 1: SELEC 1').length - 1).toBe(1);
});
