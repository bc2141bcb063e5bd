import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { waitForAppState, watchForeignRequests } from './helpers';

/** The project's own fixture (committed): a Flink 1.20.5 savepoint with Protobuf state, and the demo's changed schema. */
const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical');
const SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');
const LAST_EVENT_OPERATOR = '6d821971c3bfd7ae2c972e89d7414f7c';
const HAVE_FIXTURE = existsSync(path.join(FIXTURE, 'savepoint/_metadata'));

/** What `check` of the CLI writes for the same inputs (run from the folder holding them, so names match). */
function runCliCheck(dir: string, target: '0.x' | '1.x', format: 'json' | 'markdown' | 'html'): string {
  const tsx = path.resolve(process.cwd(), 'node_modules/.bin/tsx');
  const main = path.resolve(process.cwd(), 'src/cli/main.ts');
  try {
    return execFileSync(tsx, [main, 'check', 'fixture-savepoint.zip', '--descriptors', 'events-changed.binpb', '--format', format, '--target', target], {
      cwd: dir,
      encoding: 'utf8',
    });
  } catch (e) {
    // exit code 1 = not compatible; the report is still on stdout
    const out = (e as { stdout?: string }).stdout;
    if (typeof out === 'string' && out.length > 0) return out;
    throw e;
  }
}

async function download(page: Page, testId: string): Promise<string> {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return readFileSync((await dl.path())!, 'utf8');
}

test.describe('checking a Protobuf savepoint against a changed schema', () => {
  test.skip(!HAVE_FIXTURE, 'fixtures/savepoints/flink-1.20/hashmap/canonical is not in this checkout');
  let dir: string;
  test.beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'spi-check-'));
    execFileSync('zip', ['-qr', path.join(dir, 'fixture-savepoint.zip'), 'savepoint'], { cwd: FIXTURE });
    execFileSync('cp', [SCHEMA, path.join(dir, 'events-changed.binpb')]);
  });

  test('verdict, first incompatibility, diff rows, a decoded value with its unknown field, aliasing numbers, exports equal to the CLI', async ({
    page,
    baseURL,
  }) => {
    const foreign = watchForeignRequests(page, baseURL!);
    await page.goto('/?target=1.x');
    await waitForAppState(page, 'empty');
    await page.getByTestId('file-input').setInputFiles([path.join(dir, 'fixture-savepoint.zip'), path.join(dir, 'events-changed.binpb')]);
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('schema-chip')).toContainText('events-changed.binpb');
    await expect(page.getByTestId('overall-verdict')).toHaveText('not restorable');

    // target 1.x: a 0.x snapshot cannot be restored; the directional rules are shown as a planning aid
    await page.goto(`/?target=1.x#/compat?op=${LAST_EVENT_OPERATOR}&state=last-event`);
    await waitForAppState(page, 'ready');
    const detail = page.getByTestId('compat-state-detail');
    await expect(detail.getByTestId('verdict').first()).toHaveText('not restorable');
    await expect(detail.getByTestId('planning-first-incompatibility')).toHaveText(
      'FIELD_TYPE_CHANGED Field 2 (code) of fixtures.common.Detail changes type from FIXED32 to INT32',
    );
    await expect(detail.getByTestId('value-warnings')).toContainText('UNKNOWN_NUMBER_BECOMES_FIELD');
    expect(await download(page, 'export-json')).toBe(runCliCheck(dir, '1.x', 'json'));

    // target 0.x: the exact rule decides, with the text Flink prints
    await page.getByTestId('target-select').selectOption('0.x');
    await waitForAppState(page, 'ready');
    await expect(detail.getByTestId('verdict').first()).toHaveText('incompatible');
    await expect(detail.getByTestId('failure-text')).toHaveText(
      "Cannot restore Protobuf serializer for dev.savepointinspector.fixtures.generated.EventMessages$Event (fixtures.events.Event): supply a supported generated class with the saved schema through Flink's user-code classloader. Cause: Generated class has a different Protobuf schema",
    );
    await page.screenshot({ path: '/tmp/shots/check-compat.png', fullPage: true });
    expect(await download(page, 'export-json')).toBe(runCliCheck(dir, '0.x', 'json'));
    expect(await download(page, 'export-markdown')).toBe(runCliCheck(dir, '0.x', 'markdown'));
    expect(await download(page, 'export-html')).toBe(runCliCheck(dir, '0.x', 'html'));

    // schema diff at target 0.x: the exact rule rejects every change, the added field too
    await page.getByTestId('nav-diff').click();
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('diff-target')).toContainText('Target 0.x: the exact rule accepts no change at all');
    const added = page.getByTestId('diff-row').filter({ hasText: 'legacy_score' });
    await expect(added).toHaveAttribute('data-status', 'rejected');
    await expect(added).toContainText('FIELD_ADDED');
    const code = page.getByTestId('diff-row').filter({ hasText: 'code = 2' });
    await expect(code).toHaveAttribute('data-status', 'rejected');
    await expect(code).toContainText('FIXED32 code = 2');
    await expect(code).toContainText('INT32 code = 2');
    await expect(code).toContainText('FIELD_TYPE_CHANGED');
    await page.screenshot({ path: '/tmp/shots/check-diff.png', fullPage: true });

    // a decoded value with its unknown field 100, and the bytes of that field in the hex view
    await page.goto(`/?target=0.x#/values?op=${LAST_EVENT_OPERATOR}&state=last-event&entry=0`);
    await waitForAppState(page, 'ready');
    const entry = page.getByTestId('entry-detail');
    await expect(entry.getByTestId('json-tree')).toContainText('"event-23"');
    const unknown = entry.getByTestId('unknown-field');
    await expect(unknown).toHaveCount(1);
    await expect(unknown.locator('td')).toHaveText(['fixtures.events.Event', '100', 'VARINT', '3', 'a0 06 63']);
    await unknown.hover();
    await expect(entry.locator('.hx-hot')).toHaveText(['a0', '06', '63']);
    // and back: a byte of field 2 marks `name` in the tree; the tree's `location` marks its 20 bytes
    await entry.locator('.hx[data-offset="8"]').hover();
    await expect(entry.locator('.jt-key.hot')).toHaveText(['name']);
    await entry.locator('.jt-key[data-path="location"]').hover();
    await expect(entry.locator('.hx-hot')).toHaveCount(20);
    await page.screenshot({ path: '/tmp/shots/check-values.png', fullPage: true });
    // arrow keys move through the entries
    await page.getByRole('row', { name: /^0 3 1 0/ }).press('ArrowDown');
    await expect(page).toHaveURL(/entry=1/);
    await expect(entry.getByTestId('json-tree')).toContainText('"event-21"');

    // unknown fields per state
    await page.getByTestId('nav-unknown').click();
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('unknown-stat')).toHaveCount(2);
    await expect(page.getByTestId('unknown-stat').first().locator('td').nth(1)).toHaveText('100');

    // aliasing: large-event holds one payload above 4 KiB
    await page.goto(`/?target=0.x#/aliasing?op=69ee92ec1299dfd00071bfb77ad99663&state=large-event`);
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('al-values').locator('.card-value')).toHaveText('3');
    await expect(page.getByTestId('al-large').locator('.card-value')).toHaveText('1');
    await expect(page.getByTestId('al-max')).toContainText('19,990 bytes');
    await expect(page.getByTestId('large-payloads').locator('tbody tr')).toHaveCount(1);
    await page.screenshot({ path: '/tmp/shots/check-aliasing.png', fullPage: true });

    // a new root message that the new schema does not have is each state's own verdict (never a failure of the whole check)
    await page.getByTestId('nav-compat').click();
    await page.getByTestId('setting-newRoot').fill('fixtures.events.Missing');
    await page.getByTestId('setting-newRoot').press('Enter');
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('compat-view').getByTestId('failure')).toHaveCount(0);
    await expect(page.getByTestId('compat-view').getByTestId('verdict-reason')).toHaveText(
      'None of the 9 Protobuf states can be restored with the new schema: The new schema has no message fixtures.events.Missing',
    );

    expect(foreign).toEqual([]);
  });
});
