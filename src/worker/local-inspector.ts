/**
 * The in-process Inspector: the real implementation. The Web Worker exposes one instance of it
 * through Comlink (`inspector.worker.ts`); unit tests use it directly, with no worker and no
 * browser, so they exercise the same code paths the app runs.
 */
import { createSnapshotRegistry, inspectSavepoint, openSavepoint, type OpenedSavepoint, type SavepointInspection, type SnapshotRegistry } from '../core/flink';
import { openSavepointInput, readAll, type ByteSource, type SavepointFiles } from '../core/io';
import { openUrlInput } from './open-url-input';
import { registerProtobufSnapshotReaders } from '../core/protobuf';
import { checkSavepoint, formatReport, type CompatibilityReport } from '../core/report';
import packageJson from '../../package.json';
import { redecodeProtobufValue, registerCapturingProtobufReaders, type CapturedProtobufValue } from './capture-protobuf-values';
import { describeInputFiles } from './describe-input-files';
import { hashInputFiles, hashListing } from './hash-input-files';
import type {
  CheckOptions,
  EntryDetail,
  EntryPage,
  EntryQuery,
  ExportFormat,
  InputFile,
  Inspector,
  InspectorFailure,
  InspectorInput,
  OpenedSession,
  ProgressListener,
  StateStats,
} from './inspector';
import { scanStateEntries, toEntryProtobufValue, type ScannedState } from './scan-state-entries';
import { toInputFiles } from './sources';
import { nameSavepointInput, splitInputFiles } from './split-input-files';
import { toPlainData } from './to-plain-data';
import { signalOf, StepRunner, type SetPhase } from './step-runner';
import { trackSourceReads } from './track-source-reads';

/** The tool identity written into reports: the same as the CLI's, so exports equal `check` output. */
export const REPORT_TOOL = { name: 'savepoint-inspector', version: packageJson.version };

interface Session {
  opened: OpenedSession;
  savepoint: SavepointFiles | null;
  descriptorSet: InputFile | null;
  metadata?: Promise<OpenedSavepoint>;
  /** state scans, running or done; a failed or cancelled scan is removed */
  scans: Map<string, Promise<ScannedState>>;
  reports: Map<string, CompatibilityReport>;
}

export class LocalInspector implements Inspector {
  private session: Session | null = null;
  private readonly steps = new StepRunner();
  /** SHA-256 of files seen before, by path, size and modification time */
  private readonly knownDigests = new Map<string, string>();
  /** for the inspection (headers and entry counts); each state scan uses its own capturing registry */
  private readonly registry: SnapshotRegistry = createSnapshotRegistry();

  constructor() {
    registerProtobufSnapshotReaders(this.registry);
  }

  async open(input: InspectorInput, onProgress?: ProgressListener): Promise<OpenedSession> {
    return this.steps.run('hashing', onProgress, async (cancel, phase) => {
      if (input.kind === 'url') return this.openUrl(input.url, input.schemaFiles, phase);
      if (input.files.length === 0) {
        throw wrongInput('no files were given: drop a savepoint folder, a .zip/.tar/.tar.gz of one, or a _metadata file');
      }
      const { descriptorSets, savepointFiles } = splitInputFiles(input.files);
      const { digests, inputHash } = await hashInputFiles(
        input.files,
        (bytesRead, bytesTotal, path) => {
          cancel.check();
          onProgress?.({ phase: 'hashing', bytesRead, bytesTotal, detail: path });
        },
        this.knownDigests,
      );
      phase('opening', 0);
      const savepointPaths = new Set(savepointFiles.map((f) => f.path));
      const savepointHash = savepointFiles.length > 0 ? hashListing(digests.filter((d) => savepointPaths.has(d.path))) : null;
      const previous = this.session;
      // the same savepoint again (e.g. only the schema changed): keep its opened files and scans
      const same = previous !== null && previous.savepoint !== null && savepointHash !== null && previous.opened.savepointHash === savepointHash;
      let savepoint: SavepointFiles | null = same ? previous.savepoint : null;
      if (!same && savepointFiles.length > 0) {
        const tracked = toInputFiles(savepointFiles).map((f) => ({ path: f.path, source: trackSourceReads(f.source, () => this.steps.running) }));
        savepoint = await openSavepointInput({ kind: 'files', name: nameSavepointInput(savepointFiles), files: tracked });
      }
      const warnings = [...(savepoint?.warnings ?? [])];
      if (descriptorSets.length > 1) {
        warnings.push(`${descriptorSets.length} descriptor sets were given; using ${descriptorSets[0].path} as the new schema`);
      }
      const schema = descriptorSets[0] ?? null;
      const opened: OpenedSession = {
        inputHash,
        savepointHash,
        files: describeInputFiles(input.files, savepoint, schema),
        digests,
        savepointName: savepoint?.name ?? null,
        descriptorSetName: schema?.path ?? null,
        warnings,
      };
      this.session = same
        ? { opened, savepoint, descriptorSet: schema, scans: previous.scans, reports: new Map(), ...(previous.metadata ? { metadata: previous.metadata } : {}) }
        : { opened, savepoint, descriptorSet: schema, scans: new Map(), reports: new Map() };
      return opened;
    });
  }

  /** A savepoint served over HTTP; the input hash covers the URL, `_metadata` and the schema files. */
  private async openUrl(url: string, schemaFiles: InputFile[], phase: SetPhase): Promise<OpenedSession> {
    phase('opening', 0);
    const remote = await openUrlInput(url);
    const track = (source: ByteSource) => trackSourceReads(source, () => this.steps.running);
    const savepoint: SavepointFiles = {
      ...remote,
      metadata: track(remote.metadata),
      files: remote.files.map(track),
      resolveRelative: (path) => {
        const source = remote.resolveRelative(path);
        return source === undefined ? undefined : track(source);
      },
    };
    const metadataFile: InputFile = { path: url, blob: new Blob([(await readAll(savepoint.metadata)) as Uint8Array<ArrayBuffer>]) };
    const { digests, inputHash } = await hashInputFiles([metadataFile, ...schemaFiles], () => undefined);
    const schema = schemaFiles[0] ?? null;
    const opened: OpenedSession = {
      inputHash,
      savepointHash: hashListing(digests.filter((d) => d.path === url)),
      files: [{ path: url, size: savepoint.metadata.size, role: 'savepoint-metadata' }, ...schemaFiles.map((f) => ({ path: f.path, size: f.blob.size, role: 'descriptor-set' as const }))],
      digests,
      savepointName: url,
      descriptorSetName: schema?.path ?? null,
      warnings: [...savepoint.warnings],
    };
    this.session = { opened, savepoint, descriptorSet: schema, scans: new Map(), reports: new Map() };
    return opened;
  }

  /** `_metadata`, every state header, and a full scan that counts each state's entries. */
  async getInspection(onProgress?: ProgressListener): Promise<SavepointInspection> {
    const { savepoint } = this.requireSavepoint();
    return this.steps.run('reading-metadata', onProgress, async (cancel, phase) => {
      phase('reading-state-headers', totalBytes(savepoint));
      return toPlainData(await inspectSavepoint(savepoint, this.registry, { countEntries: true, signal: signalOf(cancel) }));
    });
  }

  async listEntries(query: EntryQuery, onProgress?: ProgressListener): Promise<EntryPage> {
    const scan = await this.scanState(query, onProgress);
    const offset = Math.max(0, Math.min(query.offset, scan.rows.length));
    return { total: scan.rows.length, offset, rows: scan.rows.slice(offset, offset + Math.max(0, query.limit)) };
  }

  async getEntryDetail(query: { operatorId: string; state: string; index: number }): Promise<EntryDetail> {
    const scan = await this.scanState(query);
    const row = scan.rows[query.index];
    if (row === undefined) throw wrongInput(`entry ${query.index} does not exist: state ${query.state} has ${scan.rows.length} entries`);
    return toPlainData({ row, entry: scan.entries[query.index], values: scan.values[query.index].map((v) => toEntryProtobufValue(redecodeProtobufValue(v))) });
  }

  async getStateStats(query: { operatorId: string; state: string }, onProgress?: ProgressListener): Promise<StateStats> {
    return toPlainData((await this.scanState(query, onProgress)).stats);
  }

  async check(options: CheckOptions, onProgress?: ProgressListener): Promise<CompatibilityReport> {
    const session = this.requireSavepoint();
    const schema = session.descriptorSet;
    if (schema === null) throw wrongInput('no new schema was given: drop a descriptor set (.pb, .binpb, .desc, .protoset) to check compatibility');
    const key = JSON.stringify(options);
    const cached = session.reports.get(key);
    if (cached) return cached;
    const report = await this.steps.run('evaluating', onProgress, async (cancel, phase) => {
      phase('evaluating', totalBytes(session.savepoint));
      const bytes = new Uint8Array(await schema.blob.arrayBuffer());
      return checkSavepoint({
        files: session.savepoint,
        descriptorSet: { name: schema.path, bytes },
        tool: REPORT_TOOL,
        target: options.target,
        newSettings: options.newSettings,
        ...(options.newRoot ? { newRoot: options.newRoot } : {}),
        signal: signalOf(cancel),
      });
    });
    const plain = toPlainData(report);
    session.reports.set(key, plain);
    return plain;
  }

  async formatReport(options: CheckOptions, format: ExportFormat): Promise<string> {
    return formatReport(await this.check(options), format);
  }

  /** Cancels every running step; each rejects with a `cancelled` failure. */
  async cancel(): Promise<void> {
    this.steps.cancelAll();
  }

  private scanState(query: { operatorId: string; state: string }, onProgress?: ProgressListener): Promise<ScannedState> {
    const session = this.requireSavepoint();
    const key = `${query.operatorId}\u0000${query.state}`;
    const known = session.scans.get(key);
    if (known) return known;
    const scan = this.steps.run('scanning-values', onProgress, async (cancel, phase) => {
      phase('reading-metadata', session.savepoint.metadata.size);
      const opened = await this.openMetadata(session);
      phase('scanning-values', totalBytes(session.savepoint));
      const captured: CapturedProtobufValue[] = [];
      const registry = createSnapshotRegistry();
      registerCapturingProtobufReaders(registry, (v) => captured.push(v));
      return scanStateEntries(session.savepoint, opened, registry, captured, query, signalOf(cancel));
    });
    session.scans.set(key, scan);
    scan.catch(() => {
      if (session.scans.get(key) === scan) session.scans.delete(key);
    });
    return scan;
  }

  /** `_metadata` of the session, read once; a failed or cancelled read is not kept. */
  private openMetadata(session: Session & { savepoint: SavepointFiles }): Promise<OpenedSavepoint> {
    if (session.metadata === undefined) {
      const pending = openSavepoint(session.savepoint);
      session.metadata = pending;
      pending.catch(() => {
        if (session.metadata === pending) session.metadata = undefined;
      });
    }
    return session.metadata;
  }

  private requireSession(): Session {
    if (this.session === null) throw wrongInput('nothing is open: open a savepoint first');
    return this.session;
  }

  private requireSavepoint(): Session & { savepoint: SavepointFiles } {
    const session = this.requireSession();
    if (session.savepoint === null) throw wrongInput(noSavepointMessage(session.opened));
    return session as Session & { savepoint: SavepointFiles };
  }
}

function totalBytes(files: SavepointFiles): number {
  return files.files.reduce((n, f) => n + f.size, 0);
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

