import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildDescriptorSet } from '../tests/conformance/build-descriptor-set';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const PROTO_DIR = path.resolve(process.cwd(), 'src/ui/demo-schema/fixtures');
const RULES_OPERATOR = '732aacc57f1a1cd4ab51694dd9eed722';

let schema = '';

test.beforeAll(async () => {
  // the demo's changed schema without message Rule: one state's root is missing, the other eight are there
  const events = readFileSync(path.join(PROTO_DIR, 'events.proto'), 'utf8').replace(/\nmessage Rule \{[^}]*\}\n/, '\n');
  const common = readFileSync(path.join(PROTO_DIR, 'common.proto'), 'utf8');
  const dir = mkdtempSync(path.join(tmpdir(), 'spi-e2e-root-'));
  schema = path.join(dir, 'no-rule.binpb');
  writeFileSync(schema, await buildDescriptorSet({ 'fixtures/events.proto': events, 'fixtures/common.proto': common }));
});

test("a new schema without one state's root: that state says so, with a root picker in place, and every other state gets its verdict", async ({ page }) => {
  await page.goto('/?target=0.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(SAVEPOINT);
  await waitForAppState(page, 'ready');
  await page.getByTestId('file-input').setInputFiles([schema]);
  await waitForAppState(page, 'ready');

  // the overview has a verdict (not nothing) and names the missing type
  const overview = page.getByTestId('overview-compat');
  await expect(overview.getByTestId('verdict').first()).toHaveText('incompatible');
  await expect(overview.getByTestId('verdict-reason')).toContainText('9 Protobuf states');
  await page.screenshot({ path: '/tmp/shots/missing-root-overview.png' });

  await page.goto(`/?target=0.x#/compat?op=${RULES_OPERATOR}&state=rules`);
  await waitForAppState(page, 'ready');
  const view = page.getByTestId('compat-view');
  await expect(view).not.toContainText('--root');
  const rows = view.getByTestId('compat-states').getByTestId('compat-state-row');
  await expect(rows).toHaveCount(9);
  const rulesRow = rows.filter({ has: page.getByRole('link', { name: 'rules', exact: true }) });
  await expect(rulesRow).toContainText('The new schema has no message fixtures.events.Rule');
  // the other states are judged on their own: none of them blames the missing type
  await expect(rows.filter({ hasText: 'The new schema has no message' })).toHaveCount(1);
  const detail = view.getByTestId('compat-state-detail');
  await expect(detail.getByTestId('first-incompatibility')).toHaveText('NEW_ROOT_MISSING The new schema has no message fixtures.events.Rule');
  await expect(detail.getByTestId('failure-text')).toHaveCount(0);
  const picker = detail.getByTestId('root-picker');
  await expect(picker).toContainText('The new schema has no message fixtures.events.Rule');
  await page.screenshot({ path: '/tmp/shots/missing-root-compat.png' });
  await detail.screenshot({ path: '/tmp/shots/missing-root-detail.png' });

  // picking a root re-checks that state with it; the others keep theirs
  await picker.getByTestId('root-picker-select').selectOption('fixtures.events.Event');
  await waitForAppState(page, 'ready');
  await expect(detail.getByTestId('first-incompatibility')).not.toContainText('NEW_ROOT_MISSING');
  await expect(detail).toContainText('fixtures.events.Rule → fixtures.events.Event');
  await expect(rows.filter({ hasText: 'The new schema has no message' })).toHaveCount(0);
  await expect(detail.getByTestId('root-picker')).toContainText('Checked with the new root message you picked for this state.');
  await detail.screenshot({ path: '/tmp/shots/missing-root-picked.png' });
});
