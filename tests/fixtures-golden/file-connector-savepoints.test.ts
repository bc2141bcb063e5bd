/**
 * Golden over fixtures/file-savepoints: a savepoint written by real Flink 1.20 with flink-connector-files
 * (fixtures/file-writer): a continuously monitoring FileSource whose readers were stopped in the middle of their
 * files, and a row-format FileSink with an in-progress part per bucket and rolled parts awaiting commit. The
 * "Sources and sinks" views equal the manifest, which the writer computed from its own counts (records the gates
 * received before the barrier), the input files and a model of the rolling policy checked against the output
 * folder: every reader split's path, byte range, file size, modification time and position; the enumerator's
 * pending splits and processed paths; every writer bucket's id, path and in-progress file (temp file and offset);
 * every pending committable. `inspect` (text, JSON) and `check` (text, Markdown, HTML, JSON) show them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeOperatorId, createSnapshotRegistry, inspectSavepoint, openSavepoint, type SourcesAndSinks } from '../../src/core/flink';
import { runCli } from '../../src/cli/run-cli';
import { describeSourcesAndSinks } from '../../src/core/report';
import { openFolderSavepoint } from '../helpers/open-folder-savepoint';
import { requireCommitted } from '../helpers/committed-data';

const DIR = requireCommitted(path.resolve('fixtures/file-savepoints/flink-1.20'));
const SP = path.join(DIR, 'savepoint');

interface SplitManifest {
  subtask?: number;
  path: string;
  offset: number;
  length: number;
  position: { offset: number; recordsAfterOffset: number } | null;
}
interface Manifest {
  fileSource: {
    uid: string;
    parallelism: number;
    inputFiles: { path: string; size: number; modificationTime: number }[];
    readerSplits: SplitManifest[];
    enumerator: { pendingSplits: SplitManifest[]; alreadyProcessedPaths: string[] };
  };
  fileSink: {
    uid: string;
    parallelism: number;
    parts: { subtask: number; bucketId: string; bucketPath: string; size: number; state: 'pending' | 'in-progress'; tempFile: string; targetFile: string }[];
  };
}

const manifest = JSON.parse(readFileSync(path.join(DIR, 'manifest.json'), 'utf8')) as Manifest;

async function cli(argv: string[]): Promise<{ exitCode: number; stdout: string }> {
  let stdout = '';
  const exitCode = await runCli(argv, { stdout: (t) => (stdout += t), stderr: () => {} });
  return { exitCode, stdout };
}

async function views(): Promise<SourcesAndSinks> {
  const inspection = await inspectSavepoint(await openSavepoint(openFolderSavepoint(SP)), createSnapshotRegistry(), { countEntries: true });
  expect(inspection.sourcesAndSinks).toBeDefined();
  return inspection.sourcesAndSinks!;
}

function expectedSplit(sp: SplitManifest, subtask: number) {
  const file = manifest.fileSource.inputFiles.find((f) => f.path === sp.path)!;
  return {
    subtask,
    splitId: expect.stringMatching(/^\d+$/) as unknown as string,
    path: sp.path,
    offset: String(sp.offset),
    length: String(sp.length),
    fileModificationTime: String(file.modificationTime),
    fileSize: String(file.size),
    hostnames: [],
    position: sp.position ? { offset: String(sp.position.offset), recordsAfterOffset: String(sp.position.recordsAfterOffset) } : null,
  };
}

/** Flink's Path of a local file, as the writer's and committer's recoverables name it (no trailing slash on a folder). */
function flinkFile(p: string): string {
  return `file:${p}`;
}

describe('fixtures/file-savepoints/flink-1.20', () => {
  it('the FileSource: every reader split (file, range, position) and the enumerator (pending splits, processed paths) equal the manifest', async () => {
    const s = await views();
    expect(s.sources).toEqual([]);
    expect(s.fileSources).toHaveLength(1);
    const source = s.fileSources![0]!;
    expect(source.operatorId).toBe(computeOperatorId(manifest.fileSource.uid));
    expect(source.connector).toBe('file');
    expect(source.problems).toEqual([]);
    expect(source.parallelism).toBe(manifest.fileSource.parallelism);
    const expected = manifest.fileSource.readerSplits.map((sp) => expectedSplit(sp, sp.subtask!)).sort((a, b) => a.subtask - b.subtask);
    expect(source.splits).toEqual(expected);
    expect(source.splitElements).toBe(expected.length);
    // the readers were caught mid-file: a restored reader skips the records it had emitted (TextLineInputFormat has no offsets)
    for (const sp of source.splits) expect(Number(sp.position!.recordsAfterOffset)).toBeGreaterThan(0);
    expect(source.enumerator).toEqual({
      coordinatorSerdeVersion: 1,
      enumStateVersion: 1,
      splitSerializerVersion: 1,
      pendingSplits: manifest.fileSource.enumerator.pendingSplits.map((sp) => expectedSplit(sp, -1)).sort((a, b) => (a.path < b.path ? -1 : 1)),
      alreadyProcessedPaths: [...manifest.fileSource.enumerator.alreadyProcessedPaths].sort(),
    });
  });

  it('the FileSink writer: every bucket with its in-progress part file (temp file, bytes written) equals the manifest', async () => {
    const s = await views();
    expect(s.sinks).toEqual([]);
    const writer = s.fileSinks!.find((k) => k.operatorId === computeOperatorId(manifest.fileSink.uid));
    expect(writer).toBeDefined();
    expect(writer!.connector).toBe('file-writer');
    expect(writer!.problems).toEqual([]);
    expect(writer!.committables).toEqual([]);
    const inProgress = manifest.fileSink.parts.filter((p) => p.state === 'in-progress');
    expect(writer!.buckets).toEqual(
      inProgress
        .map((p) => ({
          subtask: p.subtask,
          stateVersion: 3,
          bucketId: p.bucketId,
          bucketPath: p.bucketPath.replace(/\/$/, ''),
          inProgressFileCreationTime: expect.stringMatching(/^\d+$/) as unknown as string,
          inProgressFile: {
            path: flinkFile(p.targetFile),
            size: null,
            recoverable: { kind: 'local', offset: String(p.size), targetFile: p.targetFile, tempFile: p.tempFile },
          },
        }))
        .sort((a, b) => a.subtask - b.subtask || (a.bucketId < b.bucketId ? -1 : 1)),
    );
  });

  it('the FileSink committer: the pending committables of the savepoint are the rolled part files of the manifest', async () => {
    const s = await views();
    const committer = s.fileSinks!.find((k) => k.connector === 'file-committer');
    expect(committer).toBeDefined();
    expect(committer!.problems).toEqual([]);
    expect(committer!.buckets).toEqual([]);
    const pending = manifest.fileSink.parts.filter((p) => p.state === 'pending');
    expect(pending.length).toBeGreaterThan(0);
    expect(committer!.committables).toEqual(
      pending
        .map((p) => ({
          subtask: p.subtask,
          recordedSubtaskId: p.subtask,
          checkpointId: '1',
          bucketId: p.bucketId,
          pendingFile: {
            path: flinkFile(p.targetFile),
            size: String(p.size),
            recoverable: { kind: 'local', offset: String(p.size), targetFile: p.targetFile, tempFile: p.tempFile },
          },
          inProgressFileToCleanup: null,
          compactedFileToCleanup: null,
          state: 'received',
          retries: 0,
        }))
        .sort((a, b) => a.subtask - b.subtask || (a.bucketId < b.bucketId ? -1 : 1)),
    );
  });

  it('inspect shows the views in text and JSON; check carries them in JSON, text, Markdown and HTML', async () => {
    const inspected = JSON.parse((await cli(['inspect', SP, '--format', 'json'])).stdout) as { sourcesAndSinks: SourcesAndSinks };
    expect(inspected.sourcesAndSinks).toEqual(JSON.parse(JSON.stringify(await views())));
    const lines = describeSourcesAndSinks(inspected.sourcesAndSinks);
    const reader = manifest.fileSource.readerSplits[0]!;
    expect(lines).toContain(
      `    subtask ${reader.subtask}  ${reader.path}  bytes 0+${reader.length} (file size ${reader.length}, split ${inspected.sourcesAndSinks.fileSources![0]!.splits.find((x) => x.path === reader.path)!.splitId})  resumes after ${reader.position!.recordsAfterOffset} records (no offset)`,
    );
    for (const p of manifest.fileSource.enumerator.alreadyProcessedPaths) expect(lines).toContain(`      processed  ${p}`);
    expect((await cli(['inspect', SP])).stdout).toContain(`\nSources and sinks\n${lines.join('\n')}\n`);
    const descriptors = path.resolve('fixtures/kryo-savepoints/events.binpb');
    const report = JSON.parse((await cli(['check', SP, '--descriptors', descriptors, '--format', 'json'])).stdout) as { sourcesAndSinks?: SourcesAndSinks };
    expect(report.sourcesAndSinks).toEqual(inspected.sourcesAndSinks);
    expect((await cli(['check', SP, '--descriptors', descriptors])).stdout).toContain(`\nSources and sinks\n${lines.join('\n')}\n`);
    expect((await cli(['check', SP, '--descriptors', descriptors, '--format', 'markdown'])).stdout).toContain(
      `\n## Sources and sinks\n\n\`\`\`text\n${lines.join('\n')}\n\`\`\`\n`,
    );
    const html = (await cli(['check', SP, '--descriptors', descriptors, '--format', 'html'])).stdout;
    expect(html).toContain('<h2>Sources and sinks</h2>');
    for (const p of manifest.fileSink.parts) expect(html).toContain(p.tempFile);
  });
});
