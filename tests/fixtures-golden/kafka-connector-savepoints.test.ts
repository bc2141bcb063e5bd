/**
 * Golden over fixtures/kafka-savepoints: savepoints written by real Flink with the real Kafka connector against
 * Kafka's own broker (fixtures/kafka-writer). The "Sources and sinks" views equal the manifest: every split's
 * topic, partition, starting and stopping offset and subtask; the enumerator's assigned partitions; the legacy
 * FlinkKafkaConsumer's offsets (Flink 1.x only: 2.x has no FlinkKafkaConsumer); the sink writers' transactional id
 * prefix; the committer's pending transactions (transactional id, producer id, epoch per subtask), which the fixture
 * writers read from the broker just before the savepoint. `inspect` shows them in text and JSON.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeOperatorId, createSnapshotRegistry, inspectSavepoint, openSavepoint, type SourcesAndSinks } from '../../src/core/flink';
import { runCli } from '../../src/cli/run-cli';
import { describeSourcesAndSinks } from '../../src/core/report';
import { openFolderSavepoint } from '../helpers/open-folder-savepoint';
import { requireCommitted, requireCommittedCases } from '../helpers/committed-data';

const ROOT = requireCommitted(path.resolve('fixtures/kafka-savepoints'));

interface Manifest {
  versions: { flink: string; flinkConnectorKafka: string; kafkaBroker: string };
  topic: string;
  kafkaSource: {
    uid: string;
    parallelism: number;
    splits: { topic: string; partition: number; startingOffset: number; stoppingOffset: number; subtask: number }[];
    enumerator: {
      assignedPartitions: { topic: string; partition: number }[];
      initialDiscoveryFinished: boolean;
      /** enumerator state v3 (connector 5.0): each split as the enumerator assigned it */
      splits?: { topic: string; partition: number; startingOffset: number; stoppingOffset: number; status: 'assigned' | 'unassigned-initial' }[];
    };
  };
  legacyConsumer?: { uid: string; parallelism: number; offsets: { topic: string; partition: number; offset: number }[] };
  kafkaSink: {
    uid: string;
    parallelism: number;
    transactionalIdPrefix: string;
    pendingTransactions: { subtask: number; transactionalId: string; producerId: number; epoch: number }[];
  };
}

const cases = requireCommittedCases(
  'Kafka connector savepoints',
  readdirSync(ROOT).map((line) => ({ line, dir: path.join(ROOT, line) })),
);

async function cli(argv: string[]): Promise<{ exitCode: number; stdout: string }> {
  let stdout = '';
  const exitCode = await runCli(argv, { stdout: (t) => (stdout += t), stderr: () => {} });
  return { exitCode, stdout };
}

async function views(dir: string): Promise<SourcesAndSinks> {
  const inspection = await inspectSavepoint(await openSavepoint(openFolderSavepoint(path.join(dir, 'savepoint'))), createSnapshotRegistry(), {
    countEntries: true,
  });
  expect(inspection.sourcesAndSinks).toBeDefined();
  return inspection.sourcesAndSinks!;
}

describe.each(cases)('fixtures/kafka-savepoints/$line', ({ dir }) => {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;

  it('the Kafka source: every split and the enumerator equal the manifest', async () => {
    const s = await views(dir);
    const source = s.sources.find((o) => o.operatorId === computeOperatorId(manifest.kafkaSource.uid));
    expect(source).toBeDefined();
    expect(source!.connector).toBe('kafka');
    expect(source!.problems).toEqual([]);
    expect(source!.parallelism).toBe(manifest.kafkaSource.parallelism);
    const expected = manifest.kafkaSource.splits
      .map((sp) => ({
        topic: sp.topic,
        partition: sp.partition,
        subtask: sp.subtask,
        startingOffset: String(sp.startingOffset),
        stoppingOffset: String(sp.stoppingOffset),
      }))
      .sort((a, b) => a.subtask - b.subtask || a.partition - b.partition);
    expect(source!.splits).toEqual(expected);
    expect(source!.splitElements).toBe(expected.length);
    expect(source!.enumerator).toEqual({
      coordinatorSerdeVersion: 1,
      // connector 3.x writes version 2; connector 5.0 version 3 (whole splits)
      enumStateVersion: manifest.versions.flinkConnectorKafka.startsWith('5.') ? 3 : 2,
      assignedPartitions: manifest.kafkaSource.enumerator.assignedPartitions,
      unassignedInitialPartitions: [],
      initialDiscoveryFinished: manifest.kafkaSource.enumerator.initialDiscoveryFinished,
      // version 3 stores whole splits: their starting and stopping offsets and assignment status are shown
      ...(manifest.kafkaSource.enumerator.splits
        ? {
            splits: manifest.kafkaSource.enumerator.splits.map((sp) => ({
              topic: sp.topic,
              partition: sp.partition,
              startingOffset: String(sp.startingOffset),
              stoppingOffset: String(sp.stoppingOffset),
              status: sp.status,
            })),
          }
        : {}),
    });
    expect(s.sources).toHaveLength(1);
  });

  it('the legacy FlinkKafkaConsumer: the union state offsets equal the manifest (none in a savepoint without one)', async () => {
    const s = await views(dir);
    if (!manifest.legacyConsumer) {
      expect(s.legacyKafkaConsumers).toEqual([]);
      return;
    }
    expect(s.legacyKafkaConsumers).toHaveLength(1);
    const legacy = s.legacyKafkaConsumers[0]!;
    expect(legacy.operatorId).toBe(computeOperatorId(manifest.legacyConsumer.uid));
    expect(legacy.problems).toEqual([]);
    expect(legacy.offsets.map(({ topic, partition, offset }) => ({ topic, partition, offset: Number(offset) }))).toEqual(manifest.legacyConsumer.offsets);
    // every partition saved by exactly one of the consumer's subtasks
    expect(legacy.offsets.every((o) => o.subtask >= 0 && o.subtask < manifest.legacyConsumer!.parallelism)).toBe(true);
  });

  it('the KafkaSink writer: every subtask holds the transactional id prefix (and, v2, its own subtask and precommitted transactions)', async () => {
    const s = await views(dir);
    const writer = s.sinks.find((o) => o.operatorId === computeOperatorId(manifest.kafkaSink.uid));
    expect(writer).toBeDefined();
    expect(writer!.connector).toBe('kafka');
    expect(writer!.problems).toEqual([]);
    const pending = manifest.kafkaSink.pendingTransactions;
    // connector 3.x writes writer state v1 (the prefix); 4.0/5.0 v2
    const v2 = !manifest.versions.flinkConnectorKafka.startsWith('3.');
    expect(writer!.writers).toEqual(
      Array.from({ length: manifest.kafkaSink.parallelism }, (_, subtask) =>
        v2
          ? {
              subtask,
              stateVersion: 2,
              transactionalIdPrefix: manifest.kafkaSink.transactionalIdPrefix,
              ownedSubtaskId: subtask,
              totalNumberOfOwnedSubtasks: manifest.kafkaSink.parallelism,
              transactionOwnership: 'implicit-by-subtask-id',
              ongoingTransactions: pending.filter((t) => t.subtask === subtask).map((t) => ({ transactionalId: t.transactionalId, checkpointId: '1' })),
            }
          : { subtask, stateVersion: 1, transactionalIdPrefix: manifest.kafkaSink.transactionalIdPrefix, ongoingTransactions: [] },
      ),
    );
  });

  it("the KafkaSink committer: the pending transactions of the savepoint's checkpoint, as the broker had them open", async () => {
    const s = await views(dir);
    const committers = s.sinks.filter((o) => o.connector === 'committer');
    expect(committers).toHaveLength(1);
    const committer = committers[0]!;
    expect(committer.problems).toEqual([]);
    expect(
      committer.pendingTransactions.map(({ subtask, transactionalId, producerId, epoch, state, checkpointId }) => ({
        subtask,
        transactionalId,
        producerId: Number(producerId),
        epoch,
        state,
        checkpointId,
      })),
    ).toEqual(manifest.kafkaSink.pendingTransactions.map((t) => ({ ...t, state: 'received', checkpointId: '1' })));
  });

  it('inspect shows the sources and sinks in text and JSON', async () => {
    const sp = path.join(dir, 'savepoint');
    const text = await cli(['inspect', sp]);
    expect(text.exitCode).toBe(0);
    const src = computeOperatorId(manifest.kafkaSource.uid);
    // Flink 2.x records the uid in the savepoint; 1.20 does not
    expect(text.stdout).toMatch(
      new RegExp(`\\nSources and sinks\\n  Kafka source ${src}( \\(uid ${manifest.kafkaSource.uid}\\))?, parallelism 2: 3 of 3 splits decoded\\n`),
    );
    for (const split of manifest.kafkaSource.splits) {
      expect(text.stdout).toContain(
        `    subtask ${split.subtask}  ${split.topic}-${split.partition}  starting offset ${split.startingOffset}  stopping offset ${split.stoppingOffset}\n`,
      );
    }
    for (const sp of manifest.kafkaSource.enumerator.splits ?? []) {
      expect(text.stdout).toContain(
        `      ${sp.topic}-${sp.partition}  ${sp.status}  starting offset ${sp.startingOffset}  stopping offset ${sp.stoppingOffset}\n`,
      );
    }
    expect(text.stdout).toContain(`transactional id prefix "${manifest.kafkaSink.transactionalIdPrefix}" (writer state v`);
    for (const t of manifest.kafkaSink.pendingTransactions) {
      expect(text.stdout).toContain(
        `    subtask ${t.subtask}  transactional id "${t.transactionalId}"  producer id ${t.producerId}  epoch ${t.epoch}  checkpoint 1\n`,
      );
    }
    const json = await cli(['inspect', sp, '--format', 'json']);
    const doc = JSON.parse(json.stdout) as { sourcesAndSinks: SourcesAndSinks };
    expect(doc.sourcesAndSinks.sources[0]!.splits.map((x) => x.startingOffset)).toEqual(
      [...manifest.kafkaSource.splits].sort((a, b) => a.subtask - b.subtask || a.partition - b.partition).map((x) => String(x.startingOffset)),
    );
  });
});

describe.each(cases)('fixtures/kafka-savepoints/$line: the check report carries the same views', ({ dir }) => {
  const sp = path.join(dir, 'savepoint');
  // the savepoints hold no Protobuf state: any descriptor set lets check run (every state "not Protobuf")
  const descriptors = path.resolve('fixtures/kryo-savepoints/events.binpb');

  it('check --format json has the sourcesAndSinks of inspect --format json, and text, Markdown and HTML show its lines', async () => {
    const inspected = JSON.parse((await cli(['inspect', sp, '--format', 'json'])).stdout) as { sourcesAndSinks: SourcesAndSinks };
    const json = await cli(['check', sp, '--descriptors', descriptors, '--format', 'json']);
    const report = JSON.parse(json.stdout) as { sourcesAndSinks?: SourcesAndSinks };
    expect(report.sourcesAndSinks).toEqual(inspected.sourcesAndSinks);
    const lines = describeSourcesAndSinks(inspected.sourcesAndSinks);
    expect((await cli(['check', sp, '--descriptors', descriptors])).stdout).toContain(`\nSources and sinks\n${lines.join('\n')}\n`);
    expect((await cli(['check', sp, '--descriptors', descriptors, '--format', 'markdown'])).stdout).toContain(
      `\n## Sources and sinks\n\n\`\`\`text\n${lines.join('\n')}\n\`\`\`\n`,
    );
    const html = (await cli(['check', sp, '--descriptors', descriptors, '--format', 'html'])).stdout;
    expect(html).toContain('<h2>Sources and sinks</h2>');
    for (const sp of report.sourcesAndSinks!.sources.flatMap((src) => src.enumerator?.splits ?? []))
      expect(html).toContain(`${sp.topic}-${sp.partition}  ${sp.status}  starting offset ${sp.startingOffset}  stopping offset ${sp.stoppingOffset}`);
    for (const t of report.sourcesAndSinks!.sinks.flatMap((k) => k.pendingTransactions))
      expect(html).toContain(`transactional id &quot;${t.transactionalId}&quot;`);
    // --no-values reads the state headers only: no views (as inspect --headers-only)
    const headersOnly = JSON.parse((await cli(['check', sp, '--descriptors', descriptors, '--format', 'json', '--no-values'])).stdout) as object;
    expect(headersOnly).not.toHaveProperty('sourcesAndSinks');
  });
});

describe('savepoints without Kafka state', () => {
  it("a FLIP-27 source of another connector (the fixtures' CountingSource) gives no Sources and sinks: inspect prints what it printed before", async () => {
    const sp = requireCommitted(path.resolve('fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint'));
    const inspection = await inspectSavepoint(await openSavepoint(openFolderSavepoint(sp)), createSnapshotRegistry(), { countEntries: true });
    expect(inspection.operators.some((o) => o.states.some((s) => s.name === 'SourceReaderState'))).toBe(true);
    expect(inspection.sourcesAndSinks).toBeUndefined();
    const text = await cli(['inspect', sp]);
    expect(text.stdout).not.toContain('Sources and sinks');
    expect(JSON.parse((await cli(['inspect', sp, '--format', 'json'])).stdout)).not.toHaveProperty('sourcesAndSinks');
    const report = await cli(['check', sp, '--descriptors', path.resolve('fixtures/kryo-savepoints/events.binpb'), '--format', 'json', '--no-values']);
    expect(JSON.parse(report.stdout)).not.toHaveProperty('sourcesAndSinks');
  });
});
