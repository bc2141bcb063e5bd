import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startAppServer, type AppServer } from '../src/cli/commands/app-server';
import { ACCOUNT, ACCOUNT_KEY, startAzurite, uploadFolder as uploadToAzurite, type RunningAzurite } from '../tests/helpers/azurite';
import { canRunVersitygw, createBucket, startVersitygw, uploadFolder, type RunningGateway } from '../tests/helpers/versitygw';
import { waitForAppState } from './helpers';
import { expect, test } from './test';

/**
 * The app's companion (issue #29): the app `savepoint-inspector serve` serves (startAppServer, in this
 * process, over the built dist/) opens an s3:// URL typed in its open-by-URL box, reads it from versitygw
 * (on 127.0.0.1) through the companion API in the worker, and shows the states and the verdict the local
 * copy gets, and the credential source the companion used beside the URL (the Overview's Input card); the same for an abfss:// URL read
 * from Azurite. The token the companion's URL carries leaves the address bar once read (a reload still
 * finds it in the tab's sessionStorage). The app without the companion (vite preview) answers an s3:// URL
 * with the one line saying how to start it.
 */
const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const JAR = path.resolve(process.cwd(), 'fixtures/job-jars/jars/added-field-4.36.2.jar');
const BUCKET = 'savepoints';
const URL_S3 = `s3://${BUCKET}/hashmap/savepoint-7`;
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;

async function shoot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true });
}

/** Opens the local copy of the savepoint and the jar in the same app: the operators and verdict shown equal `remote`'s. */
async function expectSameAsLocalCopy(page: Page, remote: { rows: string[]; verdict: string }): Promise<void> {
  await page.getByTestId('folder-input').setInputFiles(SAVEPOINT);
  await waitForAppState(page, 'ready');
  await page.getByTestId('file-input').setInputFiles(JAR);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('overall-verdict')).toBeVisible();
  const local = await shown(page);
  expect(remote.rows.length).toBeGreaterThan(0);
  expect(remote).toEqual(local);
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
    // the token is read, then taken out of the address bar (not left in the history, a bookmark or a screen share)
    expect(new URL(server.url).searchParams.get('token')).toMatch(/^[0-9a-f]{64}$/);
    expect(page.url()).not.toContain('token=');
    await page.getByTestId('open-url-input').fill(URL_S3);
    await expect(page.getByTestId('companion-note')).toContainText(`Read through the local companion (http://127.0.0.1:${server.port})`);
    await expect(page.getByTestId('companion-needed')).toHaveCount(0);
    await shoot(page, 'companion-box.png');
    await page.getByTestId('open-url-submit').click();
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('savepoint-chip')).toContainText(URL_S3);
    // the Overview's Input card: the URL, and the credential source the companion used (as the CLI names it)
    await expect(page.getByTestId('ov-input')).toContainText(URL_S3);
    await expect(page.getByTestId('ov-input')).toContainText(
      'read through the local companion, credentials from environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)',
    );
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
    await expectSameAsLocalCopy(page, remote);
    // a local folder was not read through the companion: no credential source beside its name
    await expect(page.getByTestId('ov-input')).not.toContainText('credentials from');
  });

  test('after the token left the address bar, a reload still finds the companion (the tab keeps the token)', async ({ page }) => {
    await page.goto(server.url);
    await waitForAppState(page, 'empty');
    expect(page.url()).not.toContain('token=');
    await page.reload();
    await waitForAppState(page, 'empty');
    await page.getByTestId('open-url-input').fill(URL_S3);
    await expect(page.getByTestId('companion-note')).toBeVisible();
    await expect(page.getByTestId('companion-needed')).toHaveCount(0);
  });
});

test.describe('the companion: abfss:// read from Azurite through savepoint-inspector serve', () => {
  const URL_AZURE = `abfss://savepoints@${ACCOUNT}.dfs.core.windows.net/hashmap/savepoint-7`;
  let azurite: RunningAzurite;
  let server: AppServer;
  const saved = { ...process.env };

  test.beforeAll(async () => {
    test.setTimeout(5 * 60 * 1000);
    azurite = await startAzurite();
    await azurite.client.getContainerClient('savepoints').create();
    await uploadToAzurite(azurite.client, 'savepoints', SAVEPOINT, 'hashmap/savepoint-7/');
    for (const k of Object.keys(process.env)) if (k.startsWith('AZURE_')) delete process.env[k];
    Object.assign(process.env, { AZURE_STORAGE_BLOB_ENDPOINT: azurite.endpoint, AZURE_STORAGE_KEY: ACCOUNT_KEY });
    server = await startAppServer({ appDir: path.resolve('dist'), port: 0 });
  });
  test.afterAll(async () => {
    process.env = saved;
    await server?.close();
    await azurite?.stop();
  });

  test('an abfss:// URL typed in the open-by-URL box gets the verdict the local copy gets, and names the credential source', async ({ page }) => {
    await page.goto(server.url);
    await waitForAppState(page, 'empty');
    expect(page.url()).not.toContain('token=');
    await page.getByTestId('open-url-input').fill(URL_AZURE);
    await expect(page.getByTestId('companion-note')).toBeVisible();
    await page.getByTestId('open-url-submit').click();
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('savepoint-chip')).toContainText(URL_AZURE);
    await expect(page.getByTestId('ov-input')).toContainText(URL_AZURE);
    await expect(page.getByTestId('ov-input')).toContainText(
      `read through the local companion, credentials from account key (AZURE_STORAGE_KEY, account ${ACCOUNT})`,
    );
    await page.getByTestId('file-input').setInputFiles(JAR);
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('overall-verdict')).toBeVisible();
    const remote = await shown(page);
    await shoot(page, 'companion-azure.png');

    await expectSameAsLocalCopy(page, remote);
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
