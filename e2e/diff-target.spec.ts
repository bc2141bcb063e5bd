import { expect, test } from './test';
import { waitForAppState } from './helpers';

const EVENTS_OP = '6d821971c3bfd7ae2c972e89d7414f7c';

test('the schema diff follows the selected target: at 0.x every change is a rejection of the exact rule', async ({ page }) => {
  await page.goto(`/?demo&target=1.x#/diff?op=${EVENTS_OP}&state=last-event`);
  await waitForAppState(page, 'ready');
  // 1.x cannot read the 0.x snapshot: the marks are the planning aid's
  await expect(page.getByTestId('diff-target')).toContainText('Not restorable at target 1.x whatever the schema: the marks below are the planning aid');
  const added = page.getByTestId('diff-row').filter({ hasText: 'legacy_score' });
  await expect(added).toHaveAttribute('data-status', 'accepted');
  await expect(page.getByTestId('diff-row').filter({ hasText: 'code = 2' })).toHaveAttribute('data-status', 'rejected');
  await page.screenshot({ path: '/tmp/shots/diff-1x.png' });

  await page.goto(`/?demo&target=0.x#/diff?op=${EVENTS_OP}&state=last-event`);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('diff-target')).toContainText('Target 0.x: the exact rule accepts no change at all');
  await expect(page.getByTestId('diff-legend')).toContainText('rejected by the 0.x exact rule');
  await expect(added).toHaveAttribute('data-status', 'rejected');
  await expect(added.locator('.tag')).toHaveClass(/bad/);
  await expect(page.getByTestId('diff-row').and(page.locator('[data-status="accepted"]'))).toHaveCount(0);
  await page.screenshot({ path: '/tmp/shots/diff-0x.png' });
});
