import { openSavepointInput, wrongInput, type SavepointFiles } from '../core/io';
import type { Cancellation } from './cancellation';
import { describeInputFiles } from './describe-input-files';
import { hashInputFiles } from './hash-input-files';
import { computeInputHash, identifySavepoint } from './identify-savepoint';
import type { InputFile, OpenedSession, ProgressListener } from './inspector';
import { createSession, type Session } from './inspector-session';
import { toInputFiles } from './sources';
import { nameSavepointInput, splitInputFiles } from './split-input-files';
import type { SetPhase } from './step-runner';
import { trackSourceReads, type ReadingStep } from './track-source-reads';

/**
 * Opens dropped or picked files: descriptor sets are hashed whole (they are small), the savepoint
 * is identified by `_metadata` and its listing (no state file is read). The same savepoint given
 * again (same files, or same identity) keeps the previous session's scans and page reader.
 */
export async function openFileSession(
  files: readonly InputFile[],
  previous: Session | null,
  ctx: {
    knownDigests: Map<string, string>;
    step: ReadingStep;
    cancel: Cancellation;
    phase: SetPhase;
    onProgress: ProgressListener | undefined;
    metadataPath?: string;
  },
): Promise<Session> {
  if (files.length === 0) {
    throw wrongInput('no-input', 'no files were given: drop a savepoint folder, a .zip/.tar/.tar.gz of one, or a _metadata file');
  }
  const { descriptorSets, savepointFiles } = splitInputFiles(files);
  const schemaDigests = await hashInputFiles(
    descriptorSets,
    (bytesRead, bytesTotal, path) => {
      ctx.cancel.check();
      ctx.onProgress?.({ phase: 'hashing', bytesRead, bytesTotal, detail: path });
    },
    ctx.knownDigests,
  );
  ctx.phase('opening', 0);
  // the same files with another savepoint named in them are another savepoint
  const fileKey = savepointFiles.length > 0 ? listFileKey(savepointFiles, ctx.metadataPath) : null;
  let reuse = previous !== null && previous.savepoint !== null && fileKey !== null && previous.fileKey === fileKey ? previous : null;
  let savepoint: SavepointFiles | null = reuse?.savepoint ?? null;
  let identity = reuse
    ? { savepointHash: reuse.opened.savepointHash!, digests: reuse.opened.digests.filter((d) => !descriptorPaths(reuse!).has(d.path)) }
    : null;
  if (!reuse && savepointFiles.length > 0) {
    const tracked = toInputFiles(savepointFiles).map((f) => ({ path: f.path, source: trackSourceReads(f.source, ctx.step) }));
    // several savepoints in the drop and none named: a 'several-savepoints' failure whose candidates the UI offers
    savepoint = await openSavepointInput(
      { kind: 'files', name: nameSavepointInput(savepointFiles), files: tracked },
      ctx.metadataPath === undefined ? {} : { metadataPath: ctx.metadataPath },
    );
    identity = await identifySavepoint(savepoint);
    // the same savepoint given again as other file objects: keep its scans
    if (previous?.savepoint && previous.opened.savepointHash === identity.savepointHash) reuse = previous;
  }
  const warnings = [...(savepoint?.warnings ?? [])];
  if (descriptorSets.length > 1) warnings.push(`${descriptorSets.length} descriptor sets were given; using ${descriptorSets[0].path} as the new schema`);
  const schema = descriptorSets[0] ?? null;
  const savepointHash = identity?.savepointHash ?? null;
  const opened: OpenedSession = {
    inputHash: computeInputHash(savepointHash, schemaDigests),
    savepointHash,
    files: describeInputFiles(files, savepoint, schema),
    digests: [...(identity?.digests ?? []), ...schemaDigests],
    savepointName: savepoint?.name ?? null,
    descriptorSetName: schema?.path ?? null,
    warnings,
  };
  return {
    ...createSession(opened, savepoint, schema, fileKey),
    ...(reuse ? { scans: reuse.scans, pages: reuse.pages, ...(reuse.metadata ? { metadata: reuse.metadata } : {}) } : {}),
  };
}

/** The savepoint files by path, size and modification time; null when one has no time (then the files are identified by content). */
function listFileKey(files: readonly InputFile[], metadataPath: string | undefined): string | null {
  const parts: string[] = metadataPath === undefined ? [] : [`\u0001${metadataPath}`];
  for (const f of files) {
    const lastModified = (f.blob as Partial<File>).lastModified;
    if (typeof lastModified !== 'number') return null;
    parts.push(`${f.path}\u0000${f.blob.size}\u0000${lastModified}`);
  }
  return parts.sort().join('\n');
}

function descriptorPaths(session: Session): Set<string> {
  return new Set(session.opened.files.filter((f) => f.role === 'descriptor-set').map((f) => f.path));
}
