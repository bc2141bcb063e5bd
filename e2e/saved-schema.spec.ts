import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test } from './test';
import { waitForAppState, watchForeignRequests } from './helpers';

const LAST_EVENT_OPERATOR = '6d821971c3bfd7ae2c972e89d7414f7c';

test("a Protobuf state's saved schema downloads as the descriptor set its snapshot embeds (the digest the details show)", async ({ page, baseURL }) => {
  const foreign = watchForeignRequests(page, baseURL!);
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByTestId('open-demo').click();
  await waitForAppState(page, 'ready');
  await page.goto(`/#/state?op=${LAST_EVENT_OPERATOR}&state=last-event`);
  await waitForAppState(page, 'ready');
  const view = page.getByTestId('state-view');
  const details = view.locator('.details').first();
  const sha256 = (await details.locator('.kv-row', { hasText: 'descriptorSha256' }).locator('dd').innerText()).trim();
  expect(sha256).toMatch(/^[0-9a-f]{64}$/);
  const button = view.getByTestId('download-saved-schema').first();
  await expect(button).toHaveAccessibleName('Download the saved schema of fixtures.events.Event');
  await expect(button).toHaveAccessibleDescription(
    /savepoint-inspector compare <new\.binpb> --against fixtures\.events\.Event\.saved\.binpb --root fixtures\.events\.Event/,
  );
  await button.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/shots/state-saved-schema.png' });
  const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(dl.suggestedFilename()).toBe('fixtures.events.Event.saved.binpb');
  const bytes = readFileSync((await dl.path())!);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256);
  expect(foreign).toEqual([]);
});
