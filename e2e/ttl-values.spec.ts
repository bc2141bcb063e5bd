import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

const CANONICAL = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');
const STRING_KEYED_OP = '69ee92ec1299dfd00071bfb77ad99663';
// the three values of ttl-last-event were written in one millisecond (`stats` prints the same access times)
const NEWEST = '2026-11-29T20:13:26.018Z';

test.beforeAll(() => mkdirSync('/tmp/shots', { recursive: true }));

test("after a value scan a TTL state's values and access times show, and the values expired under the TTL the user types, as stats --ttl counts them", async ({
  page,
}) => {
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(CANONICAL);
  await waitForAppState(page, 'ready');
  await page.evaluate((op) => void (location.hash = `#/state?op=${op}&state=ttl-last-event`), STRING_KEYED_OP);
  const panel = page.getByTestId('ttl-values');
  await expect(panel.getByTestId('ttl-tally')).toHaveText(`3 TTL values, last access ${NEWEST} to ${NEWEST}`);
  const expired = panel.getByTestId('ttl-expired');
  await expect(expired).toContainText('The TTL is not in the savepoint');

  // stats --ttl 7d: judged at the newest access, none expired
  await panel.getByTestId('ttl-input').fill('7d');
  await expect(expired).toHaveText(
    `0 of 3 values expired at ${NEWEST}, the newest last access of this state's values: expired when last access + TTL ≤ that time`,
  );
  // stats --ttl 7d --ttl-at <7 days later>: the boundary counts as expired (Flink's TtlUtils.expired), a millisecond before it does not
  const at = panel.getByTestId('ttl-at-input');
  await at.fill('2026-12-06T20:13:26.018Z');
  await expect(expired).toHaveText('3 of 3 values expired at 2026-12-06T20:13:26.018Z: expired when last access + TTL ≤ that time');
  await at.fill(String(Date.parse('2026-12-06T20:13:26.017Z')));
  await expect(expired).toHaveText('0 of 3 values expired at 2026-12-06T20:13:26.017Z: expired when last access + TTL ≤ that time');
  await at.fill('2026-12-06T20:13:26.018Z');

  // a TTL stats would refuse is said, with what was typed
  await panel.getByTestId('ttl-input').fill('7 days');
  await expect(expired).toHaveText('The TTL expects a time-to-live such as 7d, 12h, 30m, 45s or 500ms (at least 1 ms), found ‘7 days’.');
  await panel.getByTestId('ttl-input').fill('7d');
  await expect(expired).toContainText('3 of 3 values expired');
  await page.getByTestId('distribution').screenshot({ path: '/tmp/shots/ttl-values-canonical.png' });

  // a state without TTL shows no TTL panel
  await page.evaluate((op) => void (location.hash = `#/state?op=${op}&state=large-event`), STRING_KEYED_OP);
  await expect(page.getByTestId('largest-values')).toBeVisible();
  await expect(page.getByTestId('ttl-values')).toHaveCount(0);
});
