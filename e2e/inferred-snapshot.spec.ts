import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './test';
import { INFERRED_SAVED_SET, writeInferredProtobufSavepoint } from '../tests/helpers/write-inferred-protobuf-savepoint';
import { waitForAppState } from './helpers';

const OPERATOR = 'b'.repeat(32);
const V1_CLASS = 'io.github.flink.gcp.protobuf.v1.ProtobufSerializerSnapshot';

test('a snapshot class not yet seen is read by structure and every verdict and view says it is inferred, never exact', async ({ page }) => {
  // the 0.1.0 payload under a class name the 0.x builds never wrote (tests/helpers: the test writer)
  const dir = mkdtempSync(path.join(tmpdir(), 'spi-inferred-'));
  const savepoint = path.join(dir, 'savepoint');
  writeInferredProtobufSavepoint(savepoint, V1_CLASS, { kind: 'v010' });
  const schema = path.join(dir, 'same.binpb');
  writeFileSync(schema, INFERRED_SAVED_SET);

  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(savepoint);
  await waitForAppState(page, 'ready');
  await page.getByTestId('file-input').setInputFiles([schema]);
  await waitForAppState(page, 'ready');

  await page.goto(`/?target=1.x#/compat?op=${OPERATOR}&state=v`);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('verdict-headline').getByTestId('verdict')).toHaveText('unknown (inferred)');
  await expect(page.getByTestId('verdict-reason')).toContainText(
    'Inferred, not exact: the snapshot class of 1 state is one no reader knows, read by structure',
  );
  await expect(page.getByTestId('summary-inferred')).toHaveText(' · 1 verdict inferred (snapshot read by structure)');
  const detail = page.getByTestId('compat-state-detail');
  await expect(detail.getByTestId('verdict').first()).toHaveText('compatible (inferred)');
  const note = detail.getByTestId('inferred-note');
  await expect(note).toContainText(
    `INFERRED, not exact: the snapshot was read by structure: a modified-UTF-8 root name and a length-prefixed descriptor set in the bytes of unknown snapshot class ${V1_CLASS} v1`,
  );
  await expect(note).toContainText('read: descriptor set (1 file, 65 bytes) at offset');
  await expect(note).toContainText('not checked: the limit and settings rules');
  await page.screenshot({ path: '/tmp/shots/inferred-compat.png', fullPage: true });

  await page.goto(`/?target=1.x#/state?op=${OPERATOR}&state=v`);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('snapshot').first().getByTestId('snapshot-inferred')).toHaveText('inferred');
  await expect(page.getByTestId('snapshot').first()).toContainText('Protobuf p.Val (inferred from unknown ProtobufSerializerSnapshot)');

  await page.goto(`/?target=1.x#/values?op=${OPERATOR}&state=v&entry=1`);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('entry-detail').getByTestId('json-tree')).toContainText('n: "42"s: "hi"');
  await page.screenshot({ path: '/tmp/shots/inferred-values.png', fullPage: true });
});
