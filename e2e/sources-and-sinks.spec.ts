import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

// a savepoint written by real Flink 1.20 with the real Kafka connector against Kafka's own broker (fixtures/kafka-writer)
const CASE = path.resolve(process.cwd(), 'fixtures/kafka-savepoints/flink-1.20');
const manifest = JSON.parse(readFileSync(path.join(CASE, 'manifest.json'), 'utf8')) as {
  kafkaSource: { splits: { topic: string; partition: number; startingOffset: number; stoppingOffset: number; subtask: number }[] };
  kafkaSink: { transactionalIdPrefix: string };
};

test('the Overview shows the Kafka source splits, the enumerator, the legacy consumer, the sink transactional id prefix and its pending transaction', async ({
  page,
}) => {
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(path.join(CASE, 'savepoint'));
  await waitForAppState(page, 'ready');
  const section = page.getByTestId('sources-and-sinks');
  await expect(section).toBeVisible();
  const rows = section.getByTestId('kafka-split');
  const splits = [...manifest.kafkaSource.splits].sort((a, b) => a.subtask - b.subtask || a.partition - b.partition);
  await expect(rows).toHaveCount(splits.length);
  for (const [i, s] of splits.entries()) {
    await expect(rows.nth(i).locator('td')).toHaveText([String(s.subtask), s.topic, String(s.partition), String(s.startingOffset), String(s.stoppingOffset)]);
  }
  await expect(section.getByTestId('kafka-enumerator')).toHaveText('Enumerator: assigned orders-0, orders-1, orders-2; initial discovery finished');
  await expect(section.getByTestId('legacy-kafka-consumer').locator('tbody tr')).toHaveCount(3);
  await expect(section.getByTestId('kafka-sink-writers').locator('li')).toHaveText([
    `subtask 0: transactional id prefix ${manifest.kafkaSink.transactionalIdPrefix}`,
    `subtask 1: transactional id prefix ${manifest.kafkaSink.transactionalIdPrefix}`,
  ]);
  // the committer's pending transaction (the savepoint's checkpoint 1; only sink subtask 1 had records), and no problem
  await expect(section.getByTestId('kafka-pending-transaction').locator('td')).toHaveText([
    '1',
    `${manifest.kafkaSink.transactionalIdPrefix}-1-1`,
    /^\d+$/,
    /^\d+$/,
    '1',
    'received',
  ]);
  await expect(section.getByTestId('connector-problem')).toHaveCount(0);
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/shots/sources-and-sinks-overview.png', fullPage: true });
});

// Flink 2.2 with connector 5.0 (fixtures/kafka-writer-flink2): enumerator state v3 stores whole splits
const CASE_2 = path.resolve(process.cwd(), 'fixtures/kafka-savepoints/flink-2.x');
const manifest2 = JSON.parse(readFileSync(path.join(CASE_2, 'manifest.json'), 'utf8')) as {
  kafkaSource: { enumerator: { splits: { topic: string; partition: number; startingOffset: number; stoppingOffset: number; status: string }[] } };
};

test('the Overview shows what enumerator state v3 stores per split: status, starting and stopping offset', async ({ page }) => {
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(path.join(CASE_2, 'savepoint'));
  await waitForAppState(page, 'ready');
  const section = page.getByTestId('sources-and-sinks');
  const rows = section.getByTestId('kafka-enumerator-split');
  const splits = manifest2.kafkaSource.enumerator.splits;
  await expect(rows).toHaveCount(splits.length);
  for (const [i, s] of splits.entries()) {
    await expect(rows.nth(i).locator('td')).toHaveText([s.topic, String(s.partition), s.status, String(s.startingOffset), String(s.stoppingOffset)]);
  }
  await section.getByTestId('kafka-enumerator-splits').scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/shots/sources-and-sinks-enumerator-v3.png', fullPage: true });
});

// a savepoint written by real Flink 1.20 with flink-connector-files (fixtures/file-writer)
const FILE_CASE = path.resolve(process.cwd(), 'fixtures/file-savepoints/flink-1.20');
const fileManifest = JSON.parse(readFileSync(path.join(FILE_CASE, 'manifest.json'), 'utf8')) as {
  fileSource: {
    readerSplits: { subtask: number; path: string; length: number; position: { recordsAfterOffset: number } }[];
    enumerator: { pendingSplits: { path: string }[]; alreadyProcessedPaths: string[] };
  };
  fileSink: { parts: { subtask: number; bucketId: string; state: string; size: number; targetFile: string }[] };
};

test('the Overview shows the FileSource splits and pending splits, the FileSink buckets and the pending committables', async ({ page }) => {
  await page.goto('/');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(path.join(FILE_CASE, 'savepoint'));
  await waitForAppState(page, 'ready');
  const section = page.getByTestId('sources-and-sinks');
  await expect(section).toBeVisible();
  const splits = [...fileManifest.fileSource.readerSplits].sort((a, b) => a.subtask - b.subtask);
  const rows = section.getByTestId('file-split');
  await expect(rows).toHaveCount(splits.length);
  for (const [i, s] of splits.entries()) {
    await expect(rows.nth(i).locator('td')).toHaveText([
      String(s.subtask),
      s.path,
      `0+${s.length}`,
      String(s.length),
      `after ${s.position.recordsAfterOffset} records`,
    ]);
  }
  await expect(section.getByTestId('file-pending-split')).toHaveCount(fileManifest.fileSource.enumerator.pendingSplits.length);
  await expect(section.getByTestId('file-enumerator').locator('summary')).toHaveText(
    `Enumerator: ${fileManifest.fileSource.enumerator.pendingSplits.length} pending splits, ${fileManifest.fileSource.enumerator.alreadyProcessedPaths.length} processed paths`,
  );
  const parts = fileManifest.fileSink.parts;
  await expect(section.getByTestId('file-bucket')).toHaveCount(parts.filter((p) => p.state === 'in-progress').length);
  const committables = section.getByTestId('file-committable');
  await expect(committables).toHaveCount(parts.filter((p) => p.state === 'pending').length);
  for (const p of parts.filter((x) => x.state === 'pending')) await expect(section.getByText(`commit file:${p.targetFile}`)).toBeVisible();
  await expect(section.getByTestId('connector-problem')).toHaveCount(0);
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/shots/file-connectors-overview.png', fullPage: true });
});
