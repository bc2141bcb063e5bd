import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

const EVENTS_OP = '6d821971c3bfd7ae2c972e89d7414f7c';
let schema = '';

// the demo's new schema with `go_package` added to both of its files: two FILE_NON_JAVA_OPTION_CHANGED findings per state
test.beforeAll(() => {
  const dir = mkdtempSync(path.join(tmpdir(), 'spi-notes-'));
  cpSync(path.resolve(process.cwd(), 'src/ui/demo-schema'), path.join(dir, 'schema'), { recursive: true });
  for (const file of ['events.proto', 'common.proto']) {
    const p = path.join(dir, 'schema/fixtures', file);
    writeFileSync(p, readFileSync(p, 'utf8').replace(/^(option java_package = .*)$/m, '$1\noption go_package = "example.com/fixtures";'));
  }
  schema = path.join(dir, 'go-package.binpb');
  execFileSync(
    path.resolve(process.cwd(), 'node_modules/.bin/buf'),
    ['build', path.join(dir, 'schema'), '--as-file-descriptor-set', '--exclude-source-info', '-o', schema],
    {
      stdio: 'ignore',
      env: { ...process.env, BUF_CACHE_DIR: path.join(tmpdir(), 'bench-buf-cache') },
    },
  );
});

test("a rule's shared note is said once under a state's findings, not at the end of every row", async ({ page }) => {
  await page.goto(`/?demo&target=1.x#/compat?op=${EVENTS_OP}&state=last-event`);
  await waitForAppState(page, 'ready');
  await page.getByTestId('file-input').setInputFiles(schema);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('schema-chip')).toContainText('go-package.binpb');
  const rows = page.getByTestId('planning-findings').locator('tbody tr').filter({ hasText: 'FILE_NON_JAVA_OPTION_CHANGED' });
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) await expect(row).not.toContainText('rejects it all the same');
  const note = page.getByTestId('planning-findings-note');
  await expect(note).toHaveCount(1);
  await expect(note).toContainText(/^Note on FILE_NON_JAVA_OPTION_CHANGED \(2 findings above\): .*rejects it all the same/);
  await page.screenshot({ path: '/tmp/shots/finding-notes.png', fullPage: true });
});
