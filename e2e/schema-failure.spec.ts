import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { expect, test } from './test';
import { makeArchives, waitForAppState } from './helpers';

/**
 * Errors reach the Overview, not only a later view (issue #32): a job jar that gives no schema (here the relocated
 * fixture jar without its generated Protobuf classes, as tests/job-jar/bad-job-jars.test.ts makes it) is said with
 * its reason in the target-line question and on the Overview, never as "the check failed" above an empty page.
 */
const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');
const JAR = path.resolve(process.cwd(), 'fixtures/job-jars/jars/relocated-4.36.2.jar');
const GENERATED = 'dev/savepointinspector/fixtures/generated/';
const REASON = 'expected protoc-generated Java classes';

let zip: string;
let jar: string;
test.beforeAll(() => {
  zip = makeArchives(SAVEPOINT).zip;
  const kept: Zippable = {};
  for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(readFileSync(JAR))))) if (!name.startsWith(GENERATED)) kept[name] = bytes;
  jar = path.join(mkdtempSync(path.join(tmpdir(), 'spi-nogen-')), 'no-gencode.jar');
  writeFileSync(jar, zipSync(kept, { level: 0 }));
});

test('a jar without generated classes: both target previews and the Overview give the reason', async ({ page }) => {
  await page.goto('/?nodemo');
  await page.getByTestId('file-input').setInputFiles([zip, jar]);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('target-question')).toBeVisible();
  for (const line of ['0.x', '1.x']) await expect(page.getByTestId(`choose-target-${line}`)).toContainText('no preview: the check failed — why is said below');
  // the reason once, in full, in the question on the Overview (with where it was found), not only in a later view
  const failure = page.getByTestId('target-question').getByTestId('failure');
  await expect(failure).toHaveCount(1);
  await expect(failure.getByTestId('failure-message')).toContainText(REASON);
  await expect(failure.getByTestId('failure-file')).toHaveText('no-gencode.jar');
  await page.screenshot({ path: '/tmp/shots/schema-failure-question.png' });

  // with the line chosen, the Overview still says why there is no verdict
  await page.getByTestId('choose-target-1.x').click();
  await expect(page.getByTestId('target-question')).toHaveCount(0);
  await expect(page.getByTestId('overview').getByTestId('failure-message')).toContainText(REASON);
  await page.screenshot({ path: '/tmp/shots/schema-failure-chosen.png' });
});
