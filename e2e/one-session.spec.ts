import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { dropFiles, waitForAppState } from './helpers';

/**
 * One session, one answer (issue #32): opening a new savepoint starts a new session (the demo's schema, target and
 * settings go), Close clears the session's URL parameters, a target that contradicts the job jar is said, and
 * Protobuf held by Kryo is not restorable from its serializer snapshot alone.
 */
const OWN_SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
/** a savepoint other than the demo's (flink-1.20/hashmap/canonical) */
const OTHER_SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/rocksdb/canonical');
/** a job jar that bundles flink-datastream-protobuf 0.x: with OTHER_SAVEPOINT compatible for 0.x, not restorable for 1.x */
const JAR_0X = path.resolve(process.cwd(), 'fixtures/job-jars/jars/thin-4.36.2.jar');
const SCHEMA = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/events.binpb');
const KRYO_REGISTERED = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/flink-2.3/hashmap/kryo-registered/savepoint');
const KRYO_DEFAULT = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/flink-1.20/hashmap/kryo-default/savepoint');

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'spi-session-'));
  execFileSync('zip', ['-qr', path.join(dir, 'other-savepoint.zip'), 'savepoint'], { cwd: OTHER_SAVEPOINT });
  mkdirSync(path.join(dir, 'jar'));
  copyFileSync(JAR_0X, path.join(dir, 'jar', 'thin-4.36.2.jar'));
});

/** The page URL's query parameters (the session's: demo, target, savepoint). */
function queryOf(page: Page): string[] {
  return [...new URL(page.url()).searchParams.keys()];
}

async function openDemo(page: Page): Promise<void> {
  await page.goto('/?demo&target=1.x');
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('schema-chip')).toContainText('events-changed.binpb');
  await expect(page.getByTestId('overall-verdict')).toHaveText('not restorable');
}

/** The Recent sessions rows (newest first) as [savepoint, schema, size, verdict]. */
async function recentRows(page: Page): Promise<string[][]> {
  const rows = page.getByRole('region', { name: 'Recent sessions' }).locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  return rows.evaluateAll((trs) =>
    trs.map((tr) =>
      [...tr.querySelectorAll('td')]
        .slice(0, 5)
        .filter((_, i) => i !== 3)
        .map((td) => td.textContent?.trim() ?? ''),
    ),
  );
}

test('the demo schema does not survive your own savepoint: a new savepoint starts a new session', async ({ page }) => {
  await openDemo(page);
  await page.getByTestId('folder-input').setInputFiles(OWN_SAVEPOINT);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('savepoint-chip')).toContainText('savepoint');
  // no schema was given with it: no verdict, no schema, nothing of the demo's in the tab title or the URL
  await expect(page.getByTestId('schema-chip')).toContainText('none');
  await expect(page.getByTestId('overall-verdict')).toHaveCount(0);
  await expect(page.getByTestId('overview-compat')).toHaveCount(0);
  await expect(page).toHaveTitle('savepoint · Savepoint Inspector');
  expect(queryOf(page)).toEqual([]);
  await page.screenshot({ path: '/tmp/shots/one-session-own-savepoint.png' });
  await page.getByRole('button', { name: 'Close the input and go back to the start page' }).click();
  await waitForAppState(page, 'empty');
  const rows = await recentRows(page);
  expect(rows[0]!.slice(0, 2)).toEqual(['savepoint', '—']);
  expect(rows[0]![3]).toBe('—');
});

test("a new savepoint drops the last one's view, operator and state from the hash route: it opens on the Overview", async ({ page }) => {
  await page.goto('/?demo&target=1.x#/state?op=b24d3a8a6a7b0b4b0e7f1d2c3a4b5c6d&state=events');
  await waitForAppState(page, 'ready');
  await page.getByTestId('folder-input').setInputFiles(OWN_SAVEPOINT);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('schema-chip')).toContainText('none');
  expect(new URL(page.url()).hash).toBe('');
  await expect(page.getByTestId('overview')).toBeVisible();
});

test('a savepoint and a schema opened together after the demo: the new schema, and the demo target gone', async ({ page }) => {
  await openDemo(page);
  await page.getByTestId('file-input').setInputFiles([path.join(dir, 'other-savepoint.zip'), path.join(dir, 'jar', 'thin-4.36.2.jar')]);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('schema-chip')).toContainText('thin-4.36.2.jar');
  // the demo's ?target=1.x went with the demo: the jar answers the question (0.x), as check --job-jar does
  await expect(page.getByTestId('overall-verdict')).toHaveText('compatible');
  await expect(page.getByTestId('target-answer')).toContainText('flink-datastream-protobuf 0.x');
  expect(queryOf(page)).toEqual(['target']);
  expect(new URL(page.url()).searchParams.get('target')).toBe('0.x');
});

test('Close clears the session URL; a target that contradicts the jar is said, never silent', async ({ page }) => {
  await openDemo(page);
  await page.getByRole('button', { name: 'Close the input and go back to the start page' }).click();
  await waitForAppState(page, 'empty');
  expect(queryOf(page)).toEqual([]);
  await page.getByTestId('file-input').setInputFiles([path.join(dir, 'other-savepoint.zip'), path.join(dir, 'jar', 'thin-4.36.2.jar')]);
  await waitForAppState(page, 'ready');
  // as from a fresh page: the jar bundles 0.x, which answers the question
  await expect(page.getByTestId('overall-verdict')).toHaveText('compatible');
  await expect(page.getByTestId('target-answer')).toContainText('flink-datastream-protobuf 0.x');
  await expect(page.getByTestId('target-from-jar')).toBeVisible();
  await expect(page.getByTestId('target-contradicts-jar')).toHaveCount(0);
  // the user says 1.x: the verdict for 1.x, with the contradiction said beside it
  await page.getByTestId('change-target').click();
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('overall-verdict')).toHaveText('not restorable');
  await expect(page.getByTestId('target-contradicts-jar')).toContainText(/the jar bundles 0\.x; you chose 1\.x/i);
  await page.screenshot({ path: '/tmp/shots/one-session-target-contradicts-jar.png' });
});

test('a target named in the URL that contradicts the jar is said on the Overview and in Compatibility', async ({ page }) => {
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('file-input').setInputFiles([path.join(dir, 'other-savepoint.zip'), path.join(dir, 'jar', 'thin-4.36.2.jar')]);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('overall-verdict')).toHaveText('not restorable');
  await expect(page.getByTestId('target-contradicts-jar')).toContainText(/the jar bundles 0\.x; you chose 1\.x/i);
  await page.getByTestId('nav-compat').click();
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('compat-view').getByTestId('target-contradicts-jar')).toContainText(/the jar bundles 0\.x; you chose 1\.x/i);
  await page.screenshot({ path: '/tmp/shots/one-session-target-contradicts-jar-compat.png' });
});

for (const [what, folder, query] of [
  ['registered', KRYO_REGISTERED, ''],
  ['defaulted', KRYO_DEFAULT, '?target=1.x'],
] as const) {
  test(`Protobuf held by Kryo (chill-protobuf ${what}) opened alone: not restorable from the snapshot, never "nothing to check"`, async ({ page }) => {
    await page.goto(`/${query}`);
    await waitForAppState(page, 'empty');
    await page.getByTestId('folder-input').setInputFiles(folder);
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('no-protobuf-state')).toHaveCount(0);
    const verdict = page.getByTestId('kryo-snapshot-verdict');
    await expect(verdict.getByTestId('verdict').first()).toHaveText('not restorable');
    await expect(verdict).toContainText('whatever the new schema');
    const group = verdict.getByTestId('snapshot-verdict-group').first();
    await expect(group).toContainText('[KRYO_PROTOBUF_NOT_RESTORABLE]');
    await expect(group).toContainText('cannot restore it: the saved KryoSerializerSnapshot is not the native serializer');
    await expect(group.getByTestId('snapshot-verdict-state').first().locator('a')).toHaveAttribute('href', /^#\/state\?op=[0-9a-f]{32}&state=/);
    await expect(page.getByTestId('overall-verdict')).toHaveText('not restorable');
    await page.screenshot({ path: `/tmp/shots/one-session-kryo-${what}-alone.png`, fullPage: true });
    // the Compatibility view says the same before a schema is open
    await page.getByTestId('nav-compat').click();
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('compat-view').getByTestId('kryo-snapshot-verdict').getByTestId('verdict').first()).toHaveText('not restorable');
    await page.screenshot({ path: `/tmp/shots/one-session-kryo-${what}-alone-compat.png` });
    await page.getByTestId('nav-overview').click();
    await waitForAppState(page, 'ready');
    // with a schema: the check decides; still no "nothing to check" above it
    await page.getByTestId('file-input').setInputFiles([SCHEMA]);
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('schema-chip')).toContainText('events.binpb');
    await expect(page.getByTestId('no-protobuf-state')).toHaveCount(0);
    await expect(page.getByTestId('kryo-snapshot-verdict')).toHaveCount(0);
    if (query !== '') await expect(page.getByTestId('overall-verdict')).toHaveText('not restorable');
    else await expect(page.getByTestId('overview-compat').or(page.getByTestId('target-question'))).toBeVisible();
  });
}

test('the flow: demo → own savepoint → Close → another savepoint + jar, each screen with its own verdict and inputs', async ({ page }) => {
  await openDemo(page);
  await expect(page.getByTestId('savepoint-chip')).toContainText('flink-1.20-hashmap-canonical-savepoint');
  await expect(page).toHaveTitle(/^flink-1\.20-hashmap-canonical-savepoint · not restorable · Savepoint Inspector$/i);

  await page.getByTestId('folder-input').setInputFiles(OWN_SAVEPOINT);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('savepoint-chip')).toContainText('savepoint');
  await expect(page.getByTestId('schema-chip')).toContainText('none');
  await expect(page.getByTestId('overall-verdict')).toHaveCount(0);
  await expect(page).toHaveTitle('savepoint · Savepoint Inspector');

  await page.getByRole('button', { name: 'Close the input and go back to the start page' }).click();
  await waitForAppState(page, 'empty');
  expect(queryOf(page)).toEqual([]);
  await expect(page).toHaveTitle('Savepoint Inspector');

  await page.getByTestId('file-input').setInputFiles([path.join(dir, 'other-savepoint.zip'), path.join(dir, 'jar', 'thin-4.36.2.jar')]);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('savepoint-chip')).toContainText('other-savepoint.zip');
  await expect(page.getByTestId('schema-chip')).toContainText('thin-4.36.2.jar');
  await expect(page.getByTestId('overall-verdict')).toHaveText('compatible');
  await expect(page.getByTestId('target-answer')).toContainText('flink-datastream-protobuf 0.x');
  await expect(page).toHaveTitle(/^other-savepoint\.zip · compatible · Savepoint Inspector$/i);
  await page.screenshot({ path: '/tmp/shots/one-session-flow-jar.png' });

  await page.getByRole('button', { name: 'Close the input and go back to the start page' }).click();
  await waitForAppState(page, 'empty');
  await page.screenshot({ path: '/tmp/shots/one-session-recent.png', fullPage: true });
  const rows = await recentRows(page);
  // newest first: each session with its own inputs, size and verdict; one size per savepoint
  expect(rows.map((r) => [r[0], r[1], r[3]])).toEqual([
    ['other-savepoint.zip', 'thin-4.36.2.jar', 'compatible'],
    ['savepoint', '—', '—'],
    ['flink-1.20-hashmap-canonical-savepoint', 'events-changed.binpb', 'not restorable'],
  ]);
  for (const r of rows) expect(r[2]).not.toContain('given');
});

test('Recent sessions give one size per savepoint: the measured one, also for an input opened again and for the savepoint with a schema', async ({ page }) => {
  const close = async () => {
    await page.getByRole('button', { name: 'Close the input and go back to the start page' }).click();
    await waitForAppState(page, 'empty');
  };
  await openDemo(page);
  await close();
  // the same input again (same hash): its row is written anew and keeps the size measured for it
  await page.getByTestId('open-demo').click();
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('savepoint-size')).toHaveText('121 KiB');
  await close();
  // the same savepoint alone and then with a schema: two sessions, one savepoint size
  await page.getByTestId('folder-input').setInputFiles(OWN_SAVEPOINT);
  await waitForAppState(page, 'ready');
  await page.getByTestId('file-input').setInputFiles([SCHEMA]);
  await waitForAppState(page, 'ready');
  await close();
  const rows = await recentRows(page);
  expect(rows.map((r) => [r[0], r[1], r[2]])).toEqual([
    ['savepoint', 'events.binpb', '121 KiB'],
    ['savepoint', '—', '121 KiB'],
    ['flink-1.20-hashmap-canonical-savepoint', 'events-changed.binpb', '121 KiB'],
  ]);
});

test("the last session's settings go with it, also from the setting fields, when the same savepoint comes back with another schema", async ({ page }) => {
  await page.goto('/?demo&target=1.x#/compat');
  await waitForAppState(page, 'ready');
  await page.getByTestId('setting-maxMessageSize').fill('1000');
  await page.getByTestId('setting-maxMessageSize').press('Enter');
  await page.getByTestId('setting-newRoot').fill('fixtures.events.Rule');
  await page.getByTestId('setting-newRoot').press('Enter');
  await waitForAppState(page, 'ready');
  // the demo's own savepoint dropped with a job jar in one go: a new session, which opens on the Overview
  const folder = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');
  const files = readdirSync(folder).map((name) => ({ name, bytes: readFileSync(path.join(folder, name)) }));
  await dropFiles(page, [...files, { name: 'thin-4.36.2.jar', bytes: readFileSync(JAR_0X) }]);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('schema-chip')).toContainText('thin-4.36.2.jar');
  await expect(page.getByTestId('overview')).toBeVisible();
  await page.keyboard.press('3');
  await expect(page.getByTestId('setting-maxMessageSize')).toHaveValue('');
  await expect(page.getByTestId('setting-newRoot')).toHaveValue('');
  await expect(page.getByTestId('target-select')).toHaveValue('0.x');
  await expect(page.getByTestId('overall-verdict')).toHaveText('compatible');
});
