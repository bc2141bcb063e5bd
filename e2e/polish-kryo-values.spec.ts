import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

/**
 * Kryo-held Protobuf state with the new schema: `check`'s value scan does not check these values (a value warning compares
 * each value with the change from the saved schema, and a Kryo snapshot keeps no saved schema), while the Values view (as
 * the CLI's dump) decodes them. Compatibility says exactly that, not a bare "values not read".
 */
const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/flink-2.3/hashmap/kryo-registered/savepoint');
const SCHEMA = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/events.binpb');
const KRYO_OPERATOR = '2c3360807567b390553b1d6bddbcfc9d';

test('Kryo-held values with a schema: Compatibility says why their value warnings are not checked, and that the Values view decodes them', async ({ page }) => {
  await page.goto(`/?nodemo&target=1.x`);
  await page.getByTestId('folder-input').setInputFiles(SAVEPOINT);
  await waitForAppState(page, 'ready');
  await page.getByTestId('file-input').setInputFiles([SCHEMA]);
  await waitForAppState(page, 'ready');
  await page.evaluate((h) => (location.hash = h), `#/compat?op=${KRYO_OPERATOR}&state=last-event`);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('row-values-not-read')).toHaveCount(5);
  for (const tag of await page.getByTestId('row-values-not-read').all()) await expect(tag).toHaveText('values not checked: no saved schema (Kryo)');
  const notRead = page.getByTestId('compat-state-detail').getByTestId('values-not-read');
  await expect(notRead).toContainText('a Kryo snapshot keeps no saved schema, so no value warning was checked for this state');
  await expect(notRead).toContainText('The Values view decodes them with the new schema');
  await expect(notRead).not.toContainText('--descriptors');
  await notRead.screenshot({ path: '/tmp/shots/polish-kryo-values.png' });
});

test('Kryo-held values with a schema: the Overview counts them as not checked (no saved schema), not as not read', async ({ page }) => {
  await page.goto(`/?nodemo&target=1.x`);
  await page.getByTestId('folder-input').setInputFiles(SAVEPOINT);
  await waitForAppState(page, 'ready');
  await page.getByTestId('file-input').setInputFiles([SCHEMA]);
  await waitForAppState(page, 'ready');
  const counts = page.getByTestId('overview-counts');
  await expect(counts).toContainText('values of 5 Kryo states not checked (no saved schema)');
  await expect(counts).not.toContainText('not read');
});
