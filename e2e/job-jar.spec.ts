import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState, watchForeignRequests } from './helpers';

/** The fixture savepoint and the fixture job jar with one added field (fixtures/job-jars). */
const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical');
const JAR = path.resolve(process.cwd(), 'fixtures/job-jars/jars/added-field-4.36.2.jar');
const LAST_EVENT_OPERATOR = '6d821971c3bfd7ae2c972e89d7414f7c';

function runCliCheck(dir: string): string {
  const tsx = path.resolve(process.cwd(), 'node_modules/.bin/tsx');
  const main = path.resolve(process.cwd(), 'src/cli/main.ts');
  try {
    return execFileSync(tsx, [main, 'check', 'fixture-savepoint.zip', '--job-jar', 'added-field-4.36.2.jar', '--format', 'json', '--target', '0.x'], {
      cwd: dir,
      encoding: 'utf8',
    });
  } catch (e) {
    const out = (e as { stdout?: string }).stdout;
    if (typeof out === 'string' && out.length > 0) return out;
    throw e;
  }
}

test.describe('the new job jar as the schema', () => {
  test.skip(!existsSync(path.join(FIXTURE, 'savepoint/_metadata')), 'the fixture savepoint is not in this checkout');
  let dir: string;
  test.beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'spi-jar-'));
    execFileSync('zip', ['-qr', path.join(dir, 'fixture-savepoint.zip'), 'savepoint'], { cwd: FIXTURE });
    execFileSync('cp', [JAR, path.join(dir, 'added-field-4.36.2.jar')]);
  });

  test('a picked .jar is read in the worker; the view shows what the jar tells; the export equals check --job-jar', async ({ page, baseURL }) => {
    const foreign = watchForeignRequests(page, baseURL!);
    await page.goto('/');
    await waitForAppState(page, 'empty');
    await page.getByTestId('file-input').setInputFiles([path.join(dir, 'fixture-savepoint.zip'), path.join(dir, 'added-field-4.36.2.jar')]);
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('schema-chip')).toContainText('added-field-4.36.2.jar');
    // no target in the URL: the jar bundles the library's 0.x classes, which answers the question (as check --job-jar takes it)
    await expect(page.getByTestId('target-answer')).toContainText('flink-datastream-protobuf 0.x');
    await expect(page.getByTestId('target-from-jar')).toContainText("the line the new job's jar bundles");
    expect(new URL(page.url()).searchParams.get('target')).toBe('0.x');
    await page.screenshot({ path: '/tmp/shots/job-jar-target.png' });
    await page.goto(`/?target=0.x#/compat?op=${LAST_EVENT_OPERATOR}&state=last-event`);
    await waitForAppState(page, 'ready');
    await page.getByTestId('target-select').selectOption('0.x');
    await waitForAppState(page, 'ready');
    const jar = page.getByTestId('new-schema');
    await expect(jar).toContainText('new schema from the job jar added-field-4.36.2.jar');
    await expect(jar).toContainText('protobuf-java gencode: 4.36.2; runtime: com.google.protobuf');
    await expect(jar).toContainText('flink-datastream-protobuf: 0.x');
    await expect(page.getByTestId('jar-messages')).toContainText('dev.savepointinspector.fixtures.generated.EventMessages$Event$Location');
    const detail = page.getByTestId('compat-state-detail');
    await expect(detail.getByTestId('verdict').first()).toHaveText('incompatible');
    await page.screenshot({ path: '/tmp/shots/job-jar.png', fullPage: true });
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    expect(readFileSync((await dl.path())!, 'utf8')).toBe(runCliCheck(dir));
    expect(foreign).toEqual([]);
  });
});
