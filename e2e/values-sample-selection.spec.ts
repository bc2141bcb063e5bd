import { expect, test } from './test';
import { waitForAppState } from './helpers';

const EVENTS_OP = '6d821971c3bfd7ae2c972e89d7414f7c';

test('changing the sample clears the selected entry (entry numbers are per sample)', async ({ page }) => {
  await page.goto(`/?demo&target=1.x#/values?op=${EVENTS_OP}&state=events-by-name&entry=20`);
  await waitForAppState(page, 'ready');
  const detail = page.getByTestId('entry-detail');
  await expect(detail.getByRole('heading', { level: 2 })).toHaveText('Entry 20');
  await page.getByTestId('sample-select').selectOption({ label: 'every 16th key group' });
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('scan-coverage')).toContainText('every 16th');
  await expect(page).not.toHaveURL(/entry=/);
  await expect(detail).toHaveCount(0);
  // that sample holds no entry of this state: said so, not "Select a row" under an empty table
  await expect(page.getByTestId('no-entries')).toHaveText('The sample read holds no entry of this state: read all entries (above) to see whether it has any.');
  await expect(page.getByTestId('failure')).toHaveCount(0);
});
