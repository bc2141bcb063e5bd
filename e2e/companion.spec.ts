import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startAppServer, type AppServer } from '../src/cli/commands/app-server';
import { canRunVersitygw, createBucket, startVersitygw, uploadFolder, type RunningGateway } from '../tests/helpers/versitygw';
import { waitForAppState } from './helpers';
import { expect, test } from './test';

/**
 * The app's companion (issue #29): the app `savepoint-inspector serve` serves (startAppServer, in this
 * process, over the built dist/) opens an s3:// URL typed in its open-by-URL box, reads it from versitygw
 * (on 127.0.0.1) through the companion API in the worker, and shows the states and the verdict the local
 * copy gets; the app without the companion (vite preview) answers an s3:// URL with the one line saying
 * how to start it.
 */
const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const JAR = path.resolve(process.cwd(), 'fixtures/job-jars/jars/added-field-4.36.2.jar');
const BUCKET = 'savepoints';
const URL_S3 = `s3://${BUCKET}/hashmap/savepoint-7`;
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;

async function shoot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true });
}

/** What the overview shows of a savepoint: its operator rows' text, and the verdict. */
async function shown(page: Page): Promise<{ rows: string[]; verdict: string }> {
  const rows = await page.getByTestId('operator-row').allTextContents();
  const verdict = (await page.getByTestId('overall-verdict').textContent()) ?? '';
  return { rows, verdict };
}

test.describe('the companion: s3:// read through savepoint-inspector serve', () => {
  test.skip(!canRunVersitygw(), 'no versitygw binary and no `go` to build it (scripts/ensure-versitygw.ts)');
  let gw: RunningGateway;
  let server: AppServer;
  let dir = '';
  const saved = { ...process.env };

  test.beforeAll(async () => {
    test.setTimeout(40 * 60 * 1000);
    gw = await startVersitygw();
    await createBucket(gw.client, BUCKET);
    await uploadFolder(gw.client, BUCKET, SAVEPOINT, 'hashmap/savepoint-7/');
    dir = mkdtempSync(path.join(tmpdir(), 'companion-e2e-'));
    for (const k of Object.keys(process.env)) if (k.startsWith('AWS_')) delete process.env[k];
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'inspector-test-access',
      AWS_SECRET_ACCESS_KEY: 'inspector-test-secret-key',
      AWS_ENDPOINT_URL_S3: gw.endpoint,
      AWS_CONFIG_FILE: path.join(dir, 'no-aws-config'),
      AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'no-aws-credentials'),
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    server = await startAppServer({ appDir: path.resolve('dist'), port: 0 });
  });
  test.afterAll(async () => {
    process.env = saved;
    await server?.close();
    await gw?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('an s3:// URL typed in the open-by-URL box shows what the local copy shows', async ({ page }) => {
    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).origin}${new URL(r.url()).pathname}`));
    await page.goto(server.url);
    await waitForAppState(page, 'empty');
    await page.getByTestId('open-url-input').fill(URL_S3);
    await expect(page.getByTestId('companion-note')).toContainText(`Read through the local companion (http://127.0.0.1:${server.port})`);
    await expect(page.getByTestId('companion-needed')).toHaveCount(0);
    await shoot(page, 'companion-box.png');
    await page.getByTestId('open-url-submit').click();
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('savepoint-chip')).toContainText(URL_S3);
    await page.getByTestId('file-input').setInputFiles(JAR);
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('overall-verdict')).toBeVisible();
    const remote = await shown(page);
    await shoot(page, 'companion-s3.png');
    // every request of the page went to the companion's own origin: the store is reached by the companion only
    expect(requests.filter((r) => !r.includes(` http://127.0.0.1:${server.port}/`))).toEqual([]);
    expect(requests.some((r) => r === `POST http://127.0.0.1:${server.port}/api/open`)).toBe(true);
    expect(requests.some((r) => r === `POST http://127.0.0.1:${server.port}/api/read`)).toBe(true);

    // the local copy, in the same app
    await page.getByTestId('folder-input').setInputFiles(SAVEPOINT);
    await waitForAppState(page, 'ready');
    await page.getByTestId('file-input').setInputFiles(JAR);
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('overall-verdict')).toBeVisible();
    const local = await shown(page);
    expect(remote.rows.length).toBeGreaterThan(0);
    expect(remote).toEqual(local);
  });
});

test('without the companion, an s3:// URL gets the one line saying how to start it', async ({ page }) => {
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByTestId('open-url-input').fill(URL_S3);
  const line =
    "s3:// URLs are read through the local companion, which reads the store with this machine's credentials: run `npx savepoint-inspector serve` and open the URL it prints";
  await expect(page.getByTestId('companion-needed')).toHaveText(line);
  await shoot(page, 'companion-needed-box.png');
  await page.getByTestId('open-url-submit').click();
  await waitForAppState(page, 'failed');
  await expect(page.getByTestId('failure')).toContainText(line);
  await shoot(page, 'companion-needed.png');
  // an http(s) URL in the box loads the page with ?savepoint=, whose policy allows that origin (and no note)
  await page.getByTestId('open-url-input').fill('http://127.0.0.1:9/sp/');
  await expect(page.getByTestId('companion-needed')).toHaveCount(0);
  const [response] = await Promise.all([page.waitForNavigation(), page.getByTestId('open-url-submit').click()]);
  expect(new URL(page.url()).searchParams.get('savepoint')).toBe('http://127.0.0.1:9/sp/');
  expect(response!.headers()['content-security-policy']).toContain("connect-src 'self' http://127.0.0.1:9;");
});
