import path from 'node:path';
import { expect, test } from './test';
import { HAVE_SHARED_SAVEPOINTS, sharedSavepoint, waitForAppState } from './helpers';

/** A real Flink 2.3 savepoint whose Protobuf state is held by Kryo, and the job's schema: not restorable on either library line. */
const KRYO_SAVEPOINT = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/flink-2.3/hashmap/kryo-registered/savepoint');
const KRYO_SCHEMA = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/events.binpb');
const SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');

test('a target question whose two answers give the same verdict is not asked: Kryo-held Protobuf shows its verdict, badge and title at once', async ({
  page,
}) => {
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(KRYO_SAVEPOINT);
  await waitForAppState(page, 'ready');
  await page.getByTestId('file-input').setInputFiles([KRYO_SCHEMA]);
  await waitForAppState(page, 'ready');
  const overview = page.getByTestId('overview-compat');
  await expect(overview.getByTestId('verdict-headline').getByTestId('verdict').first()).toHaveText('not restorable');
  await expect(page.getByTestId('target-question')).toHaveCount(0);
  await expect(page.getByTestId('overall-verdict')).toHaveText('not restorable');
  await expect(page).toHaveTitle(/not restorable/);
  await expect(overview.getByTestId('target-not-asked')).toHaveText(
    'Not asked which flink-datastream-protobuf line the new job runs: 0.x and 1.x give the same verdict.',
  );
  // nothing was written into the URL: the user did not choose
  expect(new URL(page.url()).searchParams.has('target')).toBe(false);
  await page.screenshot({ path: '/tmp/shots/target-not-asked-kryo.png' });
  await page.getByTestId('nav-compat').click();
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('compat-view').getByTestId('target-question')).toHaveCount(0);
  await expect(page.getByTestId('target-select')).toHaveValue('1.x');
  await expect(page.getByTestId('compat-view').getByTestId('target-not-asked')).toBeVisible();
});

test('a savepoint without Protobuf state and a schema: nothing to check on either line, so no question', async ({ page }) => {
  test.skip(!HAVE_SHARED_SAVEPOINTS, 'needs ../shared/flink-savepoints');
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(sharedSavepoint('new-stateful-udf-migration-itcase-flink1.20-hashmap-savepoint'));
  await waitForAppState(page, 'ready');
  await page.getByTestId('file-input').setInputFiles([SCHEMA]);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('overall-verdict')).toHaveText('nothing to check');
  await expect(page.getByTestId('target-question')).toHaveCount(0);
  await expect(page).toHaveTitle(/nothing to check/);
});

test('the demo, whose two lines give different verdicts, still asks', async ({ page }) => {
  await page.goto('/?demo');
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('target-question')).toBeVisible();
  await expect(page.getByTestId('overall-verdict')).toHaveCount(0);
  await expect(page.getByTestId('target-not-asked')).toHaveCount(0);
});
