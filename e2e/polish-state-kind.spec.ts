import { expect, test } from './test';
import { waitForAppState } from './helpers';

/** The demo's broadcast state `rules` (operator 732aacc5…): its kind said once, not as "broadcast BROADCAST". */
const RULES_OP = '732aacc57f1a1cd4ab51694dd9eed722';

test("a state's kind is said once: the Query view's Kind column and the State view's heading", async ({ page }) => {
  await page.goto('/?demo&target=1.x#/query');
  await waitForAppState(page, 'ready');
  const rows = page.getByTestId('query-state-row');
  await expect(rows.filter({ hasText: 'rules' }).first().locator('td').nth(2)).toHaveText('broadcast');
  await expect(rows.filter({ hasText: 'last-event' }).first().locator('td').nth(2)).toHaveText('keyed value');
  await expect(page.getByTestId('query-states')).not.toContainText('BROADCAST');

  await page.goto(`/?demo&target=1.x#/state?op=${RULES_OP}&state=rules`);
  await waitForAppState(page, 'ready');
  const heading = page.getByTestId('state-view').getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('rules broadcast');
  await page.screenshot({ path: '/tmp/shots/polish-state-kind.png' });
});
