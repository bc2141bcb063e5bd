/**
 * The in-process Inspector: the real implementation. The Web Worker exposes one instance of it
 * through Comlink (`inspector.worker.ts`); unit tests use it directly, with no worker and no
 * browser, so they exercise the same code paths the app runs.
 */
import type { SavepointInspection } from '../core/flink';
import { Cancellation } from './cancellation';
import { classifyInputFiles, type ClassifiedInput } from './classify-input-files';
import { hashInputFiles } from './hash-input-files';
import type {
  EntryDetail,
  EntryPage,
  EntryQuery,
  Inspector,
  InspectorFailure,
  InspectorInput,
  InspectorProgress,
  OpenedSession,
  ProgressListener,
} from './inspector';

interface Session {
  opened: OpenedSession;
  input: ClassifiedInput;
}

export class LocalInspector implements Inspector {
  private session: Session | null = null;
  private running: Cancellation | null = null;

  async open(input: InspectorInput, onProgress?: ProgressListener): Promise<OpenedSession> {
    return this.runStep(async (cancel) => {
      if (input.kind === 'url') {
        throw unavailable('loading a savepoint by URL needs the HTTP range source, which is not built yet');
      }
      if (input.files.length === 0) {
        throw wrongInput('no files were given: drop a savepoint folder, a .zip/.tar/.tar.gz of one, or a _metadata file');
      }
      const classified = classifyInputFiles(input.files);
      if (classified.savepointFiles.length === 0 && classified.descriptorSets.length === 0) {
        const names = input.files.slice(0, 3).map((f) => f.path).join(', ');
        throw wrongInput(
          `no savepoint was found in ${names}${input.files.length > 3 ? ', …' : ''}: expected a folder with _metadata, a .zip/.tar/.tar.gz of one, a lone _metadata file, or a descriptor set (.pb, .binpb, .desc, .protoset)`,
        );
      }
      const { digests, inputHash } = await hashInputFiles(input.files, (bytesRead, bytesTotal, path) => {
        cancel.check();
        emit(onProgress, { phase: 'hashing', bytesRead, bytesTotal, detail: path });
      });
      const opened: OpenedSession = {
        inputHash,
        files: classified.files,
        digests,
        savepointName: classified.savepointName,
        descriptorSetName: classified.descriptorSets[0]?.path ?? null,
        warnings: [...classified.warnings],
      };
      if (classified.descriptorSets.length > 1) {
        opened.warnings.push(
          `${classified.descriptorSets.length} descriptor sets were given; using ${classified.descriptorSets[0].path} as the new schema`,
        );
      }
      this.session = { opened, input: classified };
      return opened;
    });
  }

  async getInspection(_onProgress?: ProgressListener): Promise<SavepointInspection> {
    const session = this.requireSession();
    if (session.input.savepointFiles.length === 0) {
      throw wrongInput(noSavepointMessage(session.opened));
    }
    throw unavailable('savepoint decoding (core inspectSavepoint) is not built yet');
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
    this.running?.cancel();
  }

  private requireSession(): Session {
    if (this.session === null) throw wrongInput('nothing is open: open a savepoint first');
    return this.session;
  }

  /** Runs one long step with a fresh cancellation; a newer step cancels an older one. */
  private async runStep<T>(step: (cancel: Cancellation) => Promise<T>): Promise<T> {
    this.running?.cancel();
    const cancel = new Cancellation();
    this.running = cancel;
    try {
      return await step(cancel);
    } finally {
      if (this.running === cancel) this.running = null;
    }
  }
}

function emit(listener: ProgressListener | undefined, p: InspectorProgress): void {
  if (listener) void listener(p);
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
