import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/flink-2.3/hashmap/kryo-registered/savepoint');
const SCHEMA = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/events.binpb');
const HEADLINE =
  '5 Protobuf states are held by Kryo (chill-protobuf): neither flink-datastream-protobuf 0.x nor 1.x can restore them, whatever the new schema.';

test('Protobuf held by Kryo: one headline, whether the savepoint is open alone or with the new schema', async ({ page }) => {
  await page.goto('/?nodemo&target=1.x');
  await page.getByTestId('folder-input').setInputFiles(SAVEPOINT);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('snapshot-verdict-reason')).toHaveText(HEADLINE);
  await page.getByTestId('file-input').setInputFiles([SCHEMA]);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('overview-compat').getByTestId('verdict-reason')).toHaveText(HEADLINE);
  await page.screenshot({ path: '/tmp/shots/polish-kryo-headline.png' });
});
