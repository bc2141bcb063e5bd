import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './test';
import { readCheckpointMetadata, writeCheckpointMetadata } from '../src/core/flink';
import { waitForAppState, watchForeignRequests } from './helpers';

const IMG = '<img src=x onerror=alert(1)>';
const SCRIPT = '<script>alert(2)</script>';
const SVG = '<svg onload=alert(3)>';

/**
 * A V5 `_metadata` whose operator name, uid and state name are HTML payloads, and whose operator
 * state stream is garbage (so the error text, which quotes the input, is shown too).
 */
function hostileMetadata(): Buffer {
  // the CheckpointProperties trailer (Java serialization) of the project's own fixture savepoint
  const fixture = new Uint8Array(readFileSync(path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint/_metadata')));
  const trailerSize = readCheckpointMetadata(fixture).properties!.trailerSize;
  const trailer = fixture.subarray(fixture.length - trailerSize);
  const garbage = new TextEncoder().encode(`${IMG}${SCRIPT}`);
  return Buffer.from(
    writeCheckpointMetadata({
      version: 5,
      checkpointId: 7n,
      trailer,
      operators: [
        {
          id: 'ab'.repeat(16),
          name: IMG,
          uid: SCRIPT,
          parallelism: 1,
          maxParallelism: 128,
          coordinatorState: null,
          fullyFinished: false,
          subtasks: [
            {
              index: 0,
              finished: false,
              managedOperatorState: {
                kind: 'operator',
                code: 4,
                states: [{ name: SVG, mode: 'SPLIT_DISTRIBUTE', offsets: [0] }],
                delegate: { kind: 'inline', name: SVG, size: garbage.length, offset: 0, data: garbage },
              },
              rawOperatorState: null,
              managedKeyedState: null,
              rawKeyedState: null,
              inputChannelStateCount: 0,
              resultSubpartitionStateCount: 0,
            },
          ],
        },
      ],
    }),
  );
}

test('strings from a savepoint and from file names are rendered as text, never as HTML', async ({ page, baseURL }) => {
  const foreign = watchForeignRequests(page, baseURL!);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  // the folder's own name is a payload too
  const folder = path.join(mkdtempSync(path.join(tmpdir(), 'spi-xss-')), IMG);
  mkdirSync(folder);
  writeFileSync(path.join(folder, '_metadata'), hostileMetadata());
  await page.getByTestId('folder-input').setInputFiles(folder);
  await waitForAppState(page, 'ready');
  const row = page.getByTestId('operator-row');
  await expect(row).toContainText(SCRIPT);
  await expect(row).toContainText(IMG);
  await expect(row).toContainText(SVG);
  await expect(page.getByTestId('ov-input').locator('.card-value')).toHaveText(IMG);
  await page.getByTestId('file-input').setInputFiles({ name: `${IMG}.binpb`, mimeType: 'application/octet-stream', buffer: Buffer.from([0x0a, 0x00]) });
  await expect(page.getByTestId('schema-chip')).toContainText(`${IMG}.binpb`);
  await page.goto(`/?target=1.x#/state?op=${'ab'.repeat(16)}&state=${encodeURIComponent(SVG)}`);
  await expect(page.getByTestId('state-view')).toContainText(SVG);
  await page.screenshot({ path: '/tmp/shots/untrusted.png', fullPage: true });
  // no element was created from the payloads, and nothing ran
  expect(await page.locator('img, svg:not([data-testid]) [onload], script:not([src])').count()).toBe(0);
  expect(await page.locator('[onerror], [onload]').count()).toBe(0);
  expect(dialogs).toEqual([]);
  expect(foreign).toEqual([]);
});
