import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

/**
 * Wording (issue #32): a lower maxMessageSize is a settings change, said as one (never listed or explained as a schema
 * change), and a NOT RESTORABLE verdict is never followed by what the new parser does "after the restore".
 */
const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/rocksdb/canonical');
/** the schema the fixture savepoint was written with (by the 0.x serializer): nothing changes in the schema */
const SAME_SCHEMA = path.resolve(process.cwd(), 'fixtures/job-jars/jars/thin-4.36.2.binpb');

let zip: string;
test.beforeAll(() => {
  const dir = mkdtempSync(path.join(tmpdir(), 'spi-wording-'));
  zip = path.join(dir, 'savepoint.zip');
  execFileSync('zip', ['-qr', zip, 'savepoint'], { cwd: SAVEPOINT });
});

test('a lower maxMessageSize is a settings change, not a schema change', async ({ page }) => {
  await page.goto('/?nodemo&target=0.x');
  await page.getByTestId('file-input').setInputFiles([zip, SAME_SCHEMA]);
  await waitForAppState(page, 'ready');
  await page.getByTestId('nav-compat').click();
  await page.getByTestId('setting-maxMessageSize').fill('1000');
  await page.getByTestId('setting-maxMessageSize').press('Enter');
  await waitForAppState(page, 'ready');
  await page.getByTestId('nav-overview').click();
  const headline = page.getByTestId('overview-compat').getByTestId('verdict-headline');
  await expect(headline.getByTestId('verdict-reason')).toContainText('be restored with the new serializer settings (a settings change, not a schema change)');
  await expect(headline.getByTestId('verdict-reason')).toContainText('maxMessageSize decreases');
  await expect(headline.getByTestId('verdict-reason')).not.toContainText('new schema');
  await expect(headline.getByTestId('settings-change').first()).toContainText('maxMessageSize decreases');
  await expect(headline.getByTestId('schema-change')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/shots/wording-settings-change.png' });
});

test('the demo checked for 1.x is not restorable: its unknown-field callout does not say what happens after the restore', async ({ page }) => {
  await page.goto('/?demo&target=1.x');
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('overall-verdict')).toHaveText('not restorable');
  const effect = page.getByTestId('overview-compat').getByTestId('becomes-field-effect').first();
  await expect(effect).toContainText('cannot be restored as they are');
  await expect(effect).not.toContainText('After the restore');
  await page.screenshot({ path: '/tmp/shots/wording-not-restorable.png', fullPage: true });
});

test('a checkpoint without Protobuf state is called a checkpoint, not a savepoint', async ({ page }) => {
  await page.goto('/?nodemo');
  await page.getByTestId('folder-input').setInputFiles(path.resolve(process.cwd(), 'fixtures/rocksdb-checkpoints/flink-1.20/zstd/chk-2'));
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('ov-type')).toContainText('checkpoint');
  await expect(page.getByTestId('no-protobuf-state')).toContainText('This checkpoint holds no Protobuf state: nothing to check.');
  await page.screenshot({ path: '/tmp/shots/wording-checkpoint-nothing.png' });
});
