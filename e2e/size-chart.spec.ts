import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

const NATIVE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/rocksdb/native/savepoint');
const EVENTS_OP = '6d821971c3bfd7ae2c972e89d7414f7c';

test.beforeAll(() => mkdirSync('/tmp/shots', { recursive: true }));

test('the Overview shows where the bytes are: operators largest first, their states and subtasks, coloured by kind', async ({ page }) => {
  await page.goto('/?demo&target=1.x');
  await waitForAppState(page, 'ready');
  const chart = page.getByTestId('size-chart');
  await expect(chart.getByRole('heading', { name: 'Where the bytes are' })).toBeVisible();
  const operators = chart.getByTestId('size-operator');
  // the largest operator first, with the size the operators table gives it
  const first = operators.first();
  const row = page.getByTestId('operator-row').filter({ hasText: EVENTS_OP });
  const size = (await row.getByTestId('operator-size').textContent())!.trim();
  await expect(first.locator('.size-op-row')).toContainText(size);
  await expect(first.locator('.size-op-row')).toHaveAttribute('title', new RegExp(`operator ${EVENTS_OP}`));
  // the operator-state elements by their offsets, Protobuf-coloured; the keyed stream shared by its states, hatched
  await expect(first.getByTestId('size-part').and(page.locator('[data-kind="protobuf"][data-attribution="offsets"]')).first()).toContainText(
    'processed-events',
  );
  await expect(first.getByTestId('size-part').and(page.locator('[data-attribution="shared"]'))).toContainText('keyed state of 5 states (shared)');
  await expect(first.getByTestId('size-key-groups')).toContainText('the median');
  await chart.screenshot({ path: '/tmp/shots/size-chart-demo.png' });

  // RocksDB native: a subtask's SST files hold every keyed state, said as one shared part
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(NATIVE);
  await waitForAppState(page, 'ready');
  const shared = page.getByTestId('size-chart').getByTestId('size-part').and(page.locator('[data-attribution="shared"]'));
  await expect(shared.first()).toContainText(/RocksDB files of \d+ states \(shared\)/);
  await expect(page.getByTestId('size-chart').getByTestId('size-key-groups')).toHaveCount(0);
  await page.getByTestId('size-chart').screenshot({ path: '/tmp/shots/size-chart-rocksdb.png' });
});
