import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './test';
import { readCheckpointMetadata } from '../src/core/flink';
import { isDecodeError } from '../src/core/io';
import { HAVE_SHARED_SAVEPOINTS, sharedSavepoint, waitForAppState } from './helpers';

test.describe('a corrupt savepoint', () => {
  test.skip(!HAVE_SHARED_SAVEPOINTS, 'the shared savepoints (../shared/flink-savepoints) are not on this machine');

  test("a truncated _metadata shows the core's message, file, offset and path, with Copy diagnostics", async ({ page, context }) => {
    const whole = readFileSync(path.join(sharedSavepoint('new-stateful-udf-migration-itcase-flink1.20-hashmap-savepoint'), '_metadata'));
    const truncated = whole.subarray(0, 300);
    // what the core says about these bytes
    let expected: { detail: string; offset?: number; path: readonly string[] } | undefined;
    try {
      readCheckpointMetadata(new Uint8Array(truncated), '_metadata');
    } catch (e) {
      if (isDecodeError(e)) expected = e;
    }
    expect(expected).toBeDefined();

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/');
    await waitForAppState(page, 'empty');
    await page.getByTestId('file-input').setInputFiles({ name: '_metadata', mimeType: 'application/octet-stream', buffer: truncated });
    await waitForAppState(page, 'failed');
    const panel = page.getByTestId('failure');
    // titled by who must act: the user's input, not a bug
    await expect(panel.getByTestId('failure-kind')).toHaveText('Your input');
    await expect(panel.getByTestId('failure-message')).toHaveText(expected!.detail);
    await expect(panel.getByTestId('failure-file')).toHaveText('_metadata');
    await expect(panel.getByTestId('failure-offset')).toHaveText(`${expected!.offset} (0x${expected!.offset!.toString(16)})`);
    await expect(panel.getByTestId('failure-path')).toHaveText(expected!.path.join(' / '));
    await page.screenshot({ path: '/tmp/shots/decode-error.png' });
    await panel.getByRole('button', { name: 'Copy diagnostics to the clipboard' }).click();
    await expect(panel).toContainText('Copied');
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { failure: { code: string; offset: number; file: string } };
    expect(copied.failure).toMatchObject({ file: '_metadata', offset: expected!.offset });
  });
});
