import { expect, test } from './test';
import { waitForAppState } from './helpers';

const NOT_RESTORABLE_REASON =
  'All 9 Protobuf states were written by the 0.x serializer, which the 1.x library cannot read: 1.0.0 removed the 0.x snapshot classes, so Flink fails the restore; start with fresh state or replay the input.';

test('the demo asks which library line the new job runs, keeps the answer in the URL, and leads with the verdict, its reason and what changed', async ({
  page,
}) => {
  await page.goto('/?demo');
  await waitForAppState(page, 'ready');
  // nothing is assumed: the question comes first, each answer previews its verdict, no verdict and no export yet
  const question = page.getByTestId('target-question');
  await expect(question).toContainText('Which flink-datastream-protobuf line will the new job run?');
  await expect(question.getByTestId('choose-target-0.x').getByTestId('verdict')).toHaveText('incompatible');
  await expect(question.getByTestId('choose-target-1.x').getByTestId('target-preview')).toContainText(NOT_RESTORABLE_REASON);
  await expect(page.getByTestId('overall-verdict')).toHaveCount(0);
  await expect(page.getByTestId('export-json')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/shots/verdict-first-question.png' });

  await question.getByTestId('choose-target-1.x').click();
  await waitForAppState(page, 'ready');
  await expect(page).toHaveURL(/\?demo&target=1\.x#\/overview$|\?demo&target=1\.x$/);
  await expect(page.getByTestId('target-question')).toHaveCount(0);
  const headline = page.getByTestId('overview-compat').getByTestId('verdict-headline');
  await expect(headline.getByTestId('verdict').first()).toHaveText('not restorable');
  await expect(headline.getByTestId('verdict-reason')).toHaveText(NOT_RESTORABLE_REASON);
  await expect(headline.getByTestId('target-answer')).toContainText('Checked for a new job on flink-datastream-protobuf 1.x');
  await expect(headline.getByTestId('schema-change')).toHaveText([
    'allowed Field 100 (legacy_score) is added to fixtures.events.Event · 8 of 9 states reach it; not rules',
    'breaks restore Field 2 (code) of fixtures.common.Detail changes type from FIXED32 to INT32 · 8 of 9 states reach it; not rules',
  ]);
  // `rules` (root fixtures.events.Rule) does not reach them, but 8 states do: they are not "outside what the states reach"
  await expect(headline.getByTestId('schema-changes')).not.toContainText('reach ·');
  await expect(headline.getByTestId('schema-changes')).not.toContainText('outside what');
  // the reason sits right under the badge, before any other callout
  const reasonFirst = await page.evaluate(() => {
    const reason = document.querySelector('[data-testid="verdict-reason"]')!;
    const callout = document.querySelector('[data-testid="value-alerts"]')!;
    return Boolean(reason.compareDocumentPosition(callout) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  expect(reasonFirst).toBe(true);
  await expect(page.getByTestId('overall-verdict')).toHaveText('not restorable');
  await page.screenshot({ path: '/tmp/shots/verdict-first-overview.png' });

  // the answer survives a reload (it is in the URL)
  await page.reload();
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('target-question')).toHaveCount(0);
  await expect(page.getByTestId('overview-compat').getByTestId('verdict-reason')).toHaveText(NOT_RESTORABLE_REASON);

  // the other answer, from the headline: the exact rule decides, and the URL follows
  await page.getByTestId('nav-compat').click();
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('target-select')).toHaveValue('1.x');
  await page.getByTestId('compat-view').getByTestId('change-target').click();
  await waitForAppState(page, 'ready');
  await expect(page).toHaveURL(/\?demo&target=0\.x#\/compat/);
  await expect(page.getByTestId('target-select')).toHaveValue('0.x');
  const compatHeadline = page.getByTestId('compat-view').getByTestId('verdict-headline');
  await expect(compatHeadline.getByTestId('verdict').first()).toHaveText('incompatible');
  await expect(compatHeadline.getByTestId('verdict-reason')).toHaveText(
    /^None of the 9 Protobuf states can be restored with the new schema; first, large-event: Normalized descriptor set differs from the saved one \(0\.x accepts only an identical schema\)/,
  );
  await expect(compatHeadline.getByTestId('schema-change').first()).toHaveText(
    'not identical Field 100 (legacy_score) is added to fixtures.events.Event · 8 of 9 states reach it; not rules',
  );
  await page.screenshot({ path: '/tmp/shots/verdict-first-compat-0x.png' });
});

test('a savepoint opened without the answer asks on the Compatibility view too, and the choice there runs the check', async ({ page }) => {
  await page.goto('/?demo#/compat');
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('compat-view').getByTestId('target-question')).toBeVisible();
  await expect(page.getByTestId('target-select')).toHaveValue('');
  await expect(page.getByTestId('compat-states')).toHaveCount(0);
  await page.getByTestId('target-select').selectOption('0.x');
  await waitForAppState(page, 'ready');
  await expect(page).toHaveURL(/target=0\.x/);
  await expect(page.getByTestId('compat-view').getByTestId('verdict-headline').getByTestId('verdict').first()).toHaveText('incompatible');
  await expect(page.getByTestId('compat-states').getByTestId('compat-state-row')).toHaveCount(9);
});
