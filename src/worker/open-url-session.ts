import { hashInputFiles } from './hash-input-files';
import { computeInputHash, identifySavepoint } from './identify-savepoint';
import type { InputFile, OpenedSession } from './inspector';
import { createSession, type Session } from './inspector-session';
import { companionStoreOf, type CompanionAccess } from './open-companion-input';
import { openUrlInput } from './open-url-input';
import type { SetPhase } from './step-runner';
import { trackSavepointReads } from './track-savepoint-reads';
import type { ReadingStep } from './track-source-reads';

/** A savepoint served over HTTP: identified like a folder (`_metadata` + listing), nothing else is fetched. */
export async function openUrlSession(
  url: string,
  schemaFiles: InputFile[],
  ctx: { knownDigests: Map<string, string>; step: ReadingStep; phase: SetPhase; companion?: CompanionAccess },
): Promise<Session> {
  ctx.phase('opening', 0);
  const savepoint = await openUrlInput(url, ctx.companion);
  const identity = await identifySavepoint(trackSavepointReads(savepoint, ctx.step));
  const schemaDigests = await hashInputFiles(schemaFiles, () => undefined, ctx.knownDigests);
  const schema = schemaFiles[0] ?? null;
  const opened: OpenedSession = {
    inputHash: computeInputHash(identity.savepointHash, schemaDigests),
    savepointHash: identity.savepointHash,
    files: [
      { path: url, size: savepoint.metadata.size, role: 'savepoint-metadata' },
      ...schemaFiles.map((f) => ({ path: f.path, size: f.blob.size, role: 'descriptor-set' as const })),
    ],
    digests: [...identity.digests, ...schemaDigests],
    savepointName: url,
    descriptorSetName: schema?.path ?? null,
    warnings: [...savepoint.warnings],
    ...storeOf(savepoint),
  };
  return createSession(opened, savepoint, schema, null);
}

function storeOf(savepoint: Parameters<typeof companionStoreOf>[0]): Pick<OpenedSession, 'store'> {
  const store = companionStoreOf(savepoint);
  return store === undefined ? {} : { store: { endpoint: store.endpoint, credentials: store.credentials } };
}
