/**
 * The in-process Inspector: the real implementation. The Web Worker exposes one instance of it
 * through Comlink (`inspector.worker.ts`); unit tests use it directly, with no worker and no
 * browser, so they exercise the same code paths the app runs.
 */
import { openSavepointInput, type SavepointFiles } from '../core/io';
import { createSnapshotRegistry, inspectSavepoint, type CancelSignal, type SavepointInspection, type SnapshotRegistry } from '../core/flink';
import { Cancellation } from './cancellation';
import { hashInputFiles } from './hash-input-files';
import type {
  ClassifiedFile,
  EntryDetail,
  EntryPage,
  EntryQuery,
  InputFile,
  Inspector,
  InspectorFailure,
  InspectorInput,
  InspectorPhase,
  OpenedSession,
  ProgressListener,
} from './inspector';
import { toInputFiles } from './sources';
import { nameSavepointInput, splitInputFiles } from './split-input-files';
import { stripFunctions } from './strip-functions';
import { trackSourceReads, type ReadingStep } from './track-source-reads';

interface Session {
  opened: OpenedSession;
  savepoint: SavepointFiles | null;
  descriptorSet: InputFile | null;
}

export class LocalInspector implements Inspector {
  private session: Session | null = null;
  private step: ReadingStep | null = null;
  private readonly registry: SnapshotRegistry = createSnapshotRegistry();

  async open(input: InspectorInput, onProgress?: ProgressListener): Promise<OpenedSession> {
    return this.runStep('hashing', onProgress, async (cancel, phase) => {
      if (input.kind === 'url') {
        throw unavailable('loading a savepoint by URL is not wired into the app yet');
      }
      if (input.files.length === 0) {
        throw wrongInput('no files were given: drop a savepoint folder, a .zip/.tar/.tar.gz of one, or a _metadata file');
      }
      const { descriptorSets, savepointFiles } = splitInputFiles(input.files);
      const { digests, inputHash } = await hashInputFiles(input.files, (bytesRead, bytesTotal, path) => {
        cancel.check();
        onProgress?.({ phase: 'hashing', bytesRead, bytesTotal, detail: path });
      });
      phase('opening', 0);
      let savepoint: SavepointFiles | null = null;
      if (savepointFiles.length > 0) {
        const tracked = toInputFiles(savepointFiles).map((f) => ({ path: f.path, source: trackSourceReads(f.source, () => this.step) }));
        savepoint = await openSavepointInput({ kind: 'files', name: nameSavepointInput(savepointFiles), files: tracked });
      }
      const warnings = [...(savepoint?.warnings ?? [])];
      if (descriptorSets.length > 1) {
        warnings.push(`${descriptorSets.length} descriptor sets were given; using ${descriptorSets[0].path} as the new schema`);
      }
      const opened: OpenedSession = {
        inputHash,
        files: describeFiles(input.files, savepoint, descriptorSets[0] ?? null),
        digests,
        savepointName: savepoint?.name ?? null,
        descriptorSetName: descriptorSets[0]?.path ?? null,
        warnings,
      };
      this.session = { opened, savepoint, descriptorSet: descriptorSets[0] ?? null };
      return opened;
    });
  }

  /** `_metadata`, every state header, and a full scan that counts each state's entries. */
  async getInspection(onProgress?: ProgressListener): Promise<SavepointInspection> {
    const session = this.requireSession();
    const savepoint = session.savepoint;
    if (savepoint === null) throw wrongInput(noSavepointMessage(session.opened));
    return this.runStep('reading-metadata', onProgress, async (cancel, phase) => {
      phase('reading-state-headers', totalBytes(savepoint));
      return stripFunctions(await inspectSavepoint(savepoint, this.registry, { countEntries: true, signal: signalOf(cancel) }));
    });
  }

  async listEntries(_query: EntryQuery, _onProgress?: ProgressListener): Promise<EntryPage> {
    this.requireSession();
    throw unavailable('reading state entries (core readStateEntries) is not built yet');
  }

  async getEntryDetail(_query: { operatorId: string; state: string; index: number }): Promise<EntryDetail> {
    this.requireSession();
    throw unavailable('reading state entries (core readStateEntries) is not built yet');
  }

  async cancel(): Promise<void> {
    this.step?.cancel.cancel();
  }

  private requireSession(): Session {
    if (this.session === null) throw wrongInput('nothing is open: open a savepoint first');
    return this.session;
  }

  /**
   * Runs one long step with a fresh cancellation (a newer step cancels an older one); reads of the
   * session's sources during the step are reported as progress of the step's current phase.
   */
  private async runStep<T>(
    firstPhase: InspectorPhase,
    onProgress: ProgressListener | undefined,
    body: (cancel: Cancellation, phase: (p: InspectorPhase, bytesTotal: number) => void) => Promise<T>,
  ): Promise<T> {
    this.step?.cancel.cancel();
    const cancel = new Cancellation();
    let current = { phase: firstPhase, bytesRead: 0, bytesTotal: 0 };
    const step: ReadingStep = {
      cancel,
      onRead: (bytes, source) => {
        current.bytesRead += bytes;
        onProgress?.({ ...current, detail: source });
      },
    };
    this.step = step;
    try {
      return await body(cancel, (phase, bytesTotal) => {
        current = { phase, bytesRead: 0, bytesTotal };
        onProgress?.({ ...current });
      });
    } finally {
      if (this.step === step) this.step = null;
    }
  }
}

function totalBytes(files: SavepointFiles): number {
  return files.files.reduce((n, f) => n + f.size, 0);
}

function signalOf(cancel: Cancellation): CancelSignal {
  return {
    get aborted() {
      return cancel.isCancelled;
    },
  };
}

function describeFiles(input: readonly InputFile[], savepoint: SavepointFiles | null, schema: InputFile | null): ClassifiedFile[] {
  const used = new Set(savepoint?.files.map((f) => f.name) ?? []);
  return input.map((f): ClassifiedFile => {
    const size = f.blob.size;
    if (f === schema) return { path: f.path, size, role: 'descriptor-set' };
    if (savepoint && f.path === savepoint.metadata.name) return { path: f.path, size, role: 'savepoint-metadata' };
    if (used.has(f.path)) return { path: f.path, size, role: 'savepoint-file' };
    if (savepoint && f.path === savepoint.name) return { path: f.path, size, role: 'savepoint-archive' };
    return { path: f.path, size, role: 'ignored' };
  });
}

function unavailable(message: string): InspectorFailure {
  return { kind: 'unavailable', message };
}

function wrongInput(detail: string): InspectorFailure {
  return { kind: 'decode', name: 'DecodeError', code: 'wrong-file-kind', message: detail, detail, path: [] };
}

function noSavepointMessage(opened: OpenedSession): string {
  const schema = opened.descriptorSetName;
  return schema === null
    ? 'no savepoint was given'
    : `${schema} is a Protobuf descriptor set (the new schema), not a savepoint: add the savepoint too — its folder, a .zip/.tar/.tar.gz of it, or its _metadata file`;
}
