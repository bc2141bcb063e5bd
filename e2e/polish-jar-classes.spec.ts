import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

/** the fixture savepoint zipped, and the job jar with one added field (as job-jar.spec.ts opens them) */
const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical');
const JAR = path.resolve(process.cwd(), 'fixtures/job-jars/jars/added-field-4.36.2.jar');

test("the jar's Java classes are shown once, as the table, not again as one long bullet", async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'spi-jar-classes-'));
  execFileSync('zip', ['-qr', path.join(dir, 'fixture-savepoint.zip'), 'savepoint'], { cwd: FIXTURE });
  copyFileSync(JAR, path.join(dir, 'added-field-4.36.2.jar'));
  await page.goto('/?nodemo&target=0.x#/compat');
  await page.getByTestId('file-input').setInputFiles([path.join(dir, 'fixture-savepoint.zip'), path.join(dir, 'added-field-4.36.2.jar')]);
  await waitForAppState(page, 'ready');
  const schema = page.getByTestId('new-schema');
  await expect(
    schema.getByTestId('jar-messages').getByRole('row').filter({ hasText: 'dev.savepointinspector.fixtures.generated.EventMessages$Event$Location' }),
  ).toHaveCount(1);
  await expect(schema.locator('li')).not.toHaveCount(0);
  await expect(schema.locator('li').filter({ hasText: 'Java classes' })).toHaveCount(0);
  await expect(schema.locator('li').filter({ hasText: 'EventMessages$Event$Location' })).toHaveCount(0);
  await schema.screenshot({ path: '/tmp/shots/polish-jar-classes.png' });
});
