import path from 'node:path';
import { expect, test } from './test';
import { HAVE_SHARED_SAVEPOINTS, sharedSavepoint, waitForAppState } from './helpers';

const SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');
const METADATA = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint/_metadata');

test('a savepoint without Protobuf state says there is nothing to check, and what it holds instead', async ({ page }) => {
  test.skip(!HAVE_SHARED_SAVEPOINTS, 'needs ../shared/flink-savepoints');
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  // a real Flink 1.20 savepoint of Flink's own migration test: String, Long and Tuple state, no Protobuf
  await page.getByTestId('folder-input').setInputFiles(sharedSavepoint('new-stateful-udf-migration-itcase-flink1.20-hashmap-savepoint'));
  await waitForAppState(page, 'ready');
  const note = page.getByTestId('no-protobuf-state');
  await expect(note).toContainText('This savepoint holds no Protobuf state: nothing to check.');
  await expect(note.getByTestId('no-protobuf-holds')).toContainText(/^It holds 10 states of other types: /);
  await page.screenshot({ path: '/tmp/shots/nothing-to-check-overview.png' });

  await page.getByTestId('file-input').setInputFiles([SCHEMA]);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('overview-compat').getByTestId('verdict-reason')).toHaveText('This savepoint holds no Protobuf state: nothing to check.');
  await expect(page.getByTestId('overall-verdict')).toHaveText('nothing to check');
  await page.getByTestId('nav-compat').click();
  await waitForAppState(page, 'ready');
  const view = page.getByTestId('compat-view');
  await expect(view.getByTestId('verdict-headline').getByTestId('verdict').first()).toHaveText('nothing to check');
  // no "0 Protobuf states … 0 unknown" and no empty table: the states it holds, listed
  await expect(view.getByTestId('compat-summary')).toHaveCount(0);
  await expect(view.getByTestId('compat-states')).toHaveCount(0);
  await expect(view.getByTestId('compat-other-states').getByTestId('compat-state-row')).toHaveCount(10);
  await page.screenshot({ path: '/tmp/shots/nothing-to-check-compat.png' });
});

test('a lone _metadata whose state files are missing: one sentence and what to do, not one line per reference', async ({ page }) => {
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('file-input').setInputFiles([METADATA]);
  await waitForAppState(page, 'ready');
  const note = page.getByTestId('missing-files');
  await expect(note.getByTestId('missing-files-sentence')).toHaveText('12 state files are missing: open the whole folder.');
  await expect(note.locator('details li')).toHaveCount(12);
  await expect(page.getByTestId('overview')).not.toContainText('found no such file');
  // no claim about Protobuf state: the headers were not read
  await expect(page.getByTestId('no-protobuf-state')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/shots/lone-metadata.png' });

  await page.getByTestId('file-input').setInputFiles([SCHEMA]);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('overview-compat').getByTestId('verdict-reason')).toHaveText(
    'Nothing was checked: 12 state files are missing, so the serializers of 5 states could not be read: open the whole folder.',
  );
  await expect(page.getByTestId('overall-verdict')).toHaveText('unknown');
  await page.screenshot({ path: '/tmp/shots/lone-metadata-schema.png' });
});
