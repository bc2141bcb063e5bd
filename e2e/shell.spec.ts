import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState, watchForeignRequests } from './helpers';

test('the start page offers a drop zone, pickers and the demo, and sends a strict CSP', async ({ page, baseURL }) => {
  const foreign = watchForeignRequests(page, baseURL!);
  const response = await page.goto('/');
  const csp = response!.headers()['content-security-policy'];
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("connect-src 'self'");
  // WebAssembly may be compiled (the Query view's DuckDB-WASM); JavaScript eval stays forbidden
  expect(csp).not.toMatch(/(^|\s)'unsafe-eval'/);
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  await waitForAppState(page, 'empty');
  await expect(page.getByTestId('dropzone')).toContainText('Drop a Flink savepoint here');
  await expect(page.getByTestId('file-input')).toBeAttached();
  await expect(page.getByTestId('folder-input')).toHaveJSProperty('webkitdirectory', true);
  await expect(page.getByTestId('open-demo')).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/start.png' });
  expect(foreign).toEqual([]);
});

test('a lone descriptor set is taken as the new schema and the app asks for the savepoint, keeping the drop area', async ({ page }) => {
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  const schema = readFileSync(path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb'));
  await page.getByTestId('file-input').setInputFiles({ name: 'new.binpb', mimeType: 'application/octet-stream', buffer: schema });
  // not an error: the next step, with the drop area and the pickers still there
  await expect(page.getByTestId('schema-waiting')).toHaveText(
    'new.binpb is the new schema. Now add the savepoint: its folder, a .zip/.tar/.tar.gz of it, or its _metadata file.',
  );
  await waitForAppState(page, 'empty');
  await expect(page.getByTestId('failure')).toHaveCount(0);
  await expect(page.getByTestId('dropzone')).toBeVisible();
  await expect(page.getByTestId('schema-chip')).toContainText('new.binpb');
  // a schema alone is not a session to reopen
  await expect(page.getByRole('region', { name: 'Recent sessions' }).locator('tbody tr')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/shots/schema-first.png' });
  // the savepoint added next is checked against that schema
  await page
    .getByTestId('dropzone')
    .getByTestId('folder-input')
    .setInputFiles(path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint'));
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('schema-chip')).toContainText('new.binpb');
  await expect(page.getByTestId('overall-verdict')).toHaveText('not restorable');
});

test('a descriptor set without its usual suffix, given as the savepoint, is recognised by content and named', async ({ page }) => {
  await page.goto('/');
  await waitForAppState(page, 'empty');
  const bytes = readFileSync(path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb'));
  await page.getByTestId('file-input').setInputFiles({ name: 'schema.bin', mimeType: 'application/octet-stream', buffer: bytes });
  await waitForAppState(page, 'failed');
  await expect(page.getByTestId('failure')).toContainText('This input cannot be used here');
  await expect(page.getByTestId('failure-message')).toHaveText(
    'This looks like a Protobuf descriptor set, not a savepoint: give it as the new schema, and as the savepoint a savepoint folder, its _metadata file, or a .zip/.tar/.tar.gz of the folder',
  );
  await expect(page.getByTestId('failure-file')).toHaveText('schema.bin');
});
