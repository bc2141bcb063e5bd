/**
 * The in-process Inspector: the real implementation. The Web Worker exposes one instance of it
 * through Comlink (`inspector.worker.ts`); unit tests use it directly, with no worker and no
 * browser, so they exercise the same code paths the app runs.
 *
 * Cost model: `open`, `getInspection` and `checkHeaders` read `_metadata` and the state headers
 * only (O(files)); `getStateStats` is one structural scan of a state (or a sample of it);
 * `listEntries`/`getEntryDetail` read one key group's block per page; `check` runs the value scan
 * of the CLI's `check` (its report is what the export writes).
 */
import {
  computeOperatorId,
  createSavepointSession,
  createSubtaskHeaderCache,
  inspectSavepoint,
  openSavepoint,
  readSourcesAndSinks,
  openSavepointSession,
  type OpenedSavepoint,
  type SourcesAndSinks,
  type SavepointInspection,
  type SnapshotRegistry,
  type StateSample,
} from '../core/flink';
import { createSavepointRegistry, findProtobufStates, indexDeclarations, loadDescriptorSet } from '../core/compat';
import { isDecodeError, wrongInput, type SavepointFiles } from '../core/io';
import {
  buildReportView,
  buildSizeBreakdown,
  checkSavepoint,
  diffSavepoints,
  evaluateSnapshotVerdicts,
  formatReport,
  NO_VALUE_VIEW_CAPS,
  sizedStatesOf,
  VALUE_VIEW_CAPS,
  type CompatibilityReport,
  type SizeBreakdown,
  type ValueViewCaps,
} from '../core/report';
import { exportStates } from '../core/export';
import { planKryoMigration, type KryoMigrationOperator } from '../core/migration';
import packageJson from '../../package.json';
import type { Cancellation } from './cancellation';
import { createSwitchingStep } from './create-switching-step';
import type {
  CheckOptions,
  CompareOptions,
  EntryDetail,
  EntryPage,
  EntryQuery,
  ExportChunkListener,
  ExportFormat,
  IndexedExportChunkListener,
  StatesExportQuery,
  Inspector,
  InspectorInput,
  OpenedSession,
  ProgressListener,
  StateExportQuery,
  StateExportSummary,
  StateQuery,
  StateStatsDetail,
  SavepointDiff,
  SnapshotFindings,
  ViewedReport,
} from './inspector';
import type { OpenSession, Session } from './inspector-session';
import { openFileSession } from './open-file-session';
import { openUrlSession } from './open-url-session';
import { readNewSchema } from './read-new-schema';
import { readStatePage, type ReadEntry } from './read-state-page';
import { scanStateStatistics, type ScannedState } from './scan-state-statistics';
import { signalOf, StepRunner } from './step-runner';
import { isCutValue } from './to-entry-protobuf-value';
import { toPlainData } from './to-plain-data';
import { trackOpenedSavepointReads } from './track-savepoint-reads';

/** The report and what the app draws of it (a copy: the cached report stays the report alone). */
function withView(report: CompatibilityReport): ViewedReport {
  return { ...report, view: buildReportView(report) };
}

/** What the plain inspection's serializer snapshots give alone, computed as the app showed it: per line, and per operator. */
function findSnapshotFindings(inspection: SavepointInspection): SnapshotFindings {
  const kryoMigrationPlans: Record<string, KryoMigrationOperator> = {};
  for (const operator of inspection.operators) {
    const plan = planKryoMigration(findProtobufStates({ ...inspection, operators: [operator] }).kryo)[0];
    if (plan !== undefined) kryoMigrationPlans[operator.id] = plan;
  }
  return { verdicts: { '1.x': evaluateSnapshotVerdicts(inspection, '1.x'), '0.x': evaluateSnapshotVerdicts(inspection, '0.x') }, kryoMigrationPlans };
}

/** The tool identity written into reports: the same as the CLI's, so exports equal `check` output. */
export const REPORT_TOOL = { name: 'savepoint-inspector', version: packageJson.version };

export class LocalInspector implements Inspector {
  private session: Session | null = null;
  private readonly steps = new StepRunner();
  /** SHA-256 of descriptor sets seen before, by path, size and modification time */
  private readonly knownDigests = new Map<string, string>();
  /** the cancellation of each state scan's step */
  private readonly scanCancels = new WeakMap<Promise<ScannedState>, Cancellation>();
  /** for the inspection and the header-only reads: Protobuf behind Kryo recognised; its values decode with the session's schema (createValueRegistry) */
  private readonly registry: SnapshotRegistry = createSavepointRegistry();
  /** per session, the saved schemas its inspection found (the plain inspection the UI gets carries no descriptor bytes) */
  private readonly savedSchemas = new WeakMap<Session, Map<string, Uint8Array>>();
  /** per session, what its serializer snapshots tell alone (getSnapshotFindings) */
  private readonly snapshotFindings = new WeakMap<Session, SnapshotFindings>();
  /** per session, where its bytes are (getSizeBreakdown) */
  private readonly sizeBreakdowns = new WeakMap<Session, SizeBreakdown>();

  async open(input: InspectorInput, onProgress?: ProgressListener): Promise<OpenedSession> {
    return this.steps.run('hashing', onProgress, async (cancel, phase, _bytesRead, step) => {
      const session =
        input.kind === 'url'
          ? await openUrlSession(input.url, input.schemaFiles, {
              knownDigests: this.knownDigests,
              step,
              phase,
              ...(input.companion === undefined ? {} : { companion: input.companion }),
            })
          : await openFileSession(input.files, this.session, {
              knownDigests: this.knownDigests,
              step,
              cancel,
              phase,
              onProgress,
              ...(input.metadataPath === undefined ? {} : { metadataPath: input.metadataPath }),
            });
      this.session = session;
      return session.opened;
    });
  }

  /** `_metadata` and every state header; entry counts come from the state scans (getStateStats). */
  async getInspection(onProgress?: ProgressListener): Promise<SavepointInspection> {
    const session = this.requireSavepoint();
    return this.steps.run('reading-metadata', onProgress, async (cancel, phase, _bytesRead, step) => {
      // `_metadata` of the session, read once (openMetadata); this step reads the state headers
      const opened = trackOpenedSavepointReads(await this.openMetadata(session), step);
      phase('reading-state-headers', 0);
      const inspection = await inspectSavepoint(opened, this.registry, { signal: signalOf(cancel) });
      this.savedSchemas.set(session, new Map(findProtobufStates(inspection).protobuf.map((f) => [f.content.descriptorSha256, f.content.descriptorBytes])));
      const plain = toPlainData(inspection);
      this.snapshotFindings.set(session, findSnapshotFindings(plain));
      // from the inspection itself: its serializer snapshots still carry their Protobuf content (the plain copy does not)
      this.sizeBreakdowns.set(session, buildSizeBreakdown(opened.metadata, sizedStatesOf(inspection)));
      return plain;
    });
  }

  /** The connectors' state as views: the state headers, then only the connector states' elements (core/flink readSourcesAndSinks). */
  async getSourcesAndSinks(onProgress?: ProgressListener): Promise<SourcesAndSinks> {
    const session = this.requireSavepoint();
    return this.steps.run('reading-metadata', onProgress, async (cancel, phase, _bytesRead, step) => {
      const opened = trackOpenedSavepointReads(await this.openMetadata(session), step);
      phase('reading-state-headers', 0);
      const headers = createSubtaskHeaderCache();
      const inspection = await inspectSavepoint(opened, this.registry, { signal: signalOf(cancel), headers });
      phase('scanning-values', 0);
      return toPlainData(await readSourcesAndSinks(opened, this.registry, inspection.operators, { signal: signalOf(cancel), headers }));
    });
  }

  /** From the session's inspection (read once, with its progress and cancel, when there is none yet). */
  async getSnapshotFindings(onProgress?: ProgressListener): Promise<SnapshotFindings> {
    const session = this.requireSavepoint();
    if (!this.snapshotFindings.has(session)) await this.getInspection(onProgress);
    return this.snapshotFindings.get(session)!;
  }

  /** From the session's handles and inspection (read once, with its progress and cancel, when there is none yet). */
  async getSizeBreakdown(onProgress?: ProgressListener): Promise<SizeBreakdown> {
    const session = this.requireSavepoint();
    if (!this.sizeBreakdowns.has(session)) await this.getInspection(onProgress);
    return this.sizeBreakdowns.get(session)!;
  }

  async computeOperatorId(uid: string): Promise<string> {
    return computeOperatorId(uid);
  }

  /** The session is taken once: a page started before another `open` is read from its own savepoint. */
  async listEntries(query: EntryQuery, onProgress?: ProgressListener): Promise<EntryPage> {
    const session = this.requireSavepoint();
    const scan = await this.scanState(session, query, onProgress);
    const offset = Math.max(0, Math.min(query.offset, scan.index.total));
    const read = await this.readPage(session, query, scan, offset, query.limit, null, onProgress);
    return { total: scan.index.total, offset, rows: read.map((r) => r.row) };
  }

  /** One entry with its values cut at the caps `dump` prints (VALUE_VIEW_CAPS), unless `whole` asks for all of it. */
  async getEntryDetail(query: StateQuery & { index: number; whole?: boolean }): Promise<EntryDetail> {
    const session = this.requireSavepoint();
    const scan = await this.scanState(session, query);
    const caps = query.whole === true ? NO_VALUE_VIEW_CAPS : VALUE_VIEW_CAPS;
    const [read] = query.index >= 0 && query.index < scan.index.total ? await this.readPage(session, query, scan, query.index, 1, caps) : [];
    if (read === undefined) throw wrongInput('not-found', `entry ${query.index} does not exist: state ${query.state} has ${scan.index.total} entries`);
    return toPlainData({ ...read, cut: read.values.some(isCutValue) });
  }

  async getStateStats(query: StateQuery, onProgress?: ProgressListener): Promise<StateStatsDetail> {
    return toPlainData((await this.scanState(this.requireSavepoint(), query, onProgress)).stats);
  }

  /** Headers read again with the export's own registry (its codecs decode the values), then one decode-mode scan of the state. */
  async exportState(query: StateExportQuery, onChunk: ExportChunkListener, onProgress?: ProgressListener): Promise<StateExportSummary> {
    const [summary] = await this.runExport(
      {
        operatorId: query.operatorId,
        states: [{ state: query.state, ...(query.scope === undefined ? {} : { scope: query.scope }) }],
        format: query.format,
        ...(query.layout === undefined ? {} : { layout: query.layout }),
      },
      query.sample,
      (_i, chunk) => onChunk(chunk),
      onProgress,
    );
    return summary!;
  }

  async exportStates(query: StatesExportQuery, onChunk: IndexedExportChunkListener, onProgress?: ProgressListener): Promise<StateExportSummary[]> {
    return this.runExport(query, query.sample, onChunk, onProgress);
  }

  private async runExport(
    query: StatesExportQuery,
    sample: StateSample | undefined,
    onChunk: IndexedExportChunkListener,
    onProgress?: ProgressListener,
  ): Promise<StateExportSummary[]> {
    const session = this.requireSavepoint();
    return this.steps.run('reading-state-headers', onProgress, async (cancel, phase, _bytesRead, step) => {
      const registry = createSavepointRegistry({ serializers: 'protobuf' });
      const opened = trackOpenedSavepointReads(await this.openMetadata(session), step);
      const inspection = await inspectSavepoint(opened, registry, { signal: signalOf(cancel) });
      const op = inspection.operators.find((o) => o.id === query.operatorId);
      const states = query.states.map(({ state: name, scope }) => {
        const state = op?.states.find((s) => s.name === name && (scope === undefined || s.scope === scope));
        if (op === undefined || state === undefined)
          throw wrongInput('not-found', `expected a state of the savepoint, found ${JSON.stringify(name)} of operator ${query.operatorId}`);
        return state;
      });
      phase('scanning-values', op!.stateSize);
      const results = await exportStates(
        opened,
        registry,
        {
          operator: op!.id,
          states,
          format: query.format,
          ...(query.layout === undefined ? {} : { layout: query.layout }),
          ...(sample === undefined ? {} : { sample }),
          signal: signalOf(cancel),
        },
        onChunk,
      );
      // values kept as their bytes (not decoded) are said too, as the CLI's export fails on them
      return results.map((r) => ({
        rows: r.rows,
        entries: r.entries,
        valueBytes: r.valueBytes,
        incomplete: r.undecodable > 0 ? [...r.incomplete, r.failures[r.failures.length - 1]!] : r.incomplete,
      }));
    });
  }

  async checkHeaders(options: CheckOptions, onProgress?: ProgressListener): Promise<ViewedReport> {
    return withView(await this.runCheck(options, false, onProgress));
  }

  async check(options: CheckOptions, onProgress?: ProgressListener): Promise<ViewedReport> {
    return withView(await this.runCheck(options, true, onProgress));
  }

  async formatReport(options: CheckOptions, format: ExportFormat): Promise<string> {
    return formatReport(await this.runCheck(options, true), format);
  }

  /** From the session's inspection (read once, with its progress and cancel, when there is none yet): no second read of the savepoint. */
  async getSavedSchema(descriptorSha256: string): Promise<Uint8Array> {
    const session = this.requireSavepoint();
    if (!this.savedSchemas.has(session)) await this.getInspection();
    const bytes = this.savedSchemas.get(session)?.get(descriptorSha256);
    if (bytes === undefined) throw wrongInput('not-found', `the open savepoint has no saved schema with SHA-256 ${descriptorSha256}`);
    return bytes.slice();
  }

  /** The message full names the new schema declares, sorted: the choices of the app's root picker. */
  async listNewSchemaMessages(): Promise<string[]> {
    const session = this.requireSavepoint();
    const schema = session.descriptorSet;
    if (schema === null)
      throw wrongInput(
        'no-schema',
        "no new schema was given: drop the new job's jar (.jar) or a descriptor set (.pb, .binpb, .desc, .protoset) to pick a root message from",
      );
    // a jar's embedded descriptors or the descriptor set, as the check reads them
    const { descriptorSet } = await readNewSchema(schema, session.opened.digests);
    const loaded = loadDescriptorSet(descriptorSet.bytes, descriptorSet.name);
    return [...indexDeclarations(loaded.set).byName]
      .filter(([, d]) => d.kind === 'message')
      .map(([name]) => name)
      .sort();
  }

  /** Cancels every running step; each rejects with a `cancelled` failure. */
  async cancel(): Promise<void> {
    this.steps.cancelAll();
  }

  private async runCheck(options: CheckOptions, scanValues: boolean, onProgress?: ProgressListener): Promise<CompatibilityReport> {
    const session = this.requireSavepoint();
    const schema = session.descriptorSet;
    if (schema === null)
      throw wrongInput(
        'no-schema',
        "no new schema was given: drop the new job's jar (.jar) or a descriptor set (.pb, .binpb, .desc, .protoset) to check compatibility",
      );
    const cache = scanValues ? session.reports : session.headerReports;
    const key = JSON.stringify(options);
    const cached = cache.get(key);
    if (cached) return cached;
    const report = await this.steps.run('evaluating', onProgress, async (cancel, phase, _bytesRead, step) => {
      phase(scanValues ? 'scanning-values' : 'evaluating', scanValues ? totalBytes(session.savepoint) : 0);
      const newSchema = await readNewSchema(schema, session.opened.digests);
      const opened = trackOpenedSavepointReads(await this.openMetadata(session), step);
      return checkSavepoint({
        files: opened.files,
        opened,
        ...newSchema,
        tool: REPORT_TOOL,
        target: options.target,
        newSettings: options.newSettings,
        ...(options.newRoot ? { newRoot: options.newRoot } : {}),
        ...(options.newRoots && Object.keys(options.newRoots).length > 0 ? { newRoots: options.newRoots } : {}),
        scanValues,
        signal: signalOf(cancel),
      });
    });
    const plain = toPlainData(report);
    cache.set(key, plain);
    return plain;
  }

  /** A state's scan in `session` (its scans are kept in that session only). */
  private scanState(session: OpenSession, query: StateQuery, onProgress?: ProgressListener): Promise<ScannedState> {
    const key = JSON.stringify([query.operatorId, query.state, query.sample ?? null]);
    const known = session.scans.get(key);
    // a scan cancelled but not yet unwound is not handed to a new call
    if (known && this.scanCancels.get(known)?.isCancelled !== true) return known;
    let stepCancel: Cancellation | undefined;
    const scan = this.steps.run('scanning-values', onProgress, async (cancel, phase, bytesRead, step) => {
      stepCancel = cancel;
      phase('reading-metadata', session.savepoint.metadata.size);
      const opened = trackOpenedSavepointReads(await this.openMetadata(session), step);
      const op = opened.totals.operators.find((o) => o.id === query.operatorId);
      phase('scanning-values', op?.stateSize ?? totalBytes(session.savepoint));
      const registry = await createValueRegistry(session);
      const start = bytesRead();
      return scanStateStatistics(opened, registry, query, { signal: signalOf(cancel), bytesRead: () => bytesRead() - start });
    });
    if (stepCancel) this.scanCancels.set(scan, stepCancel);
    session.scans.set(key, scan);
    scan.catch(() => {
      if (session.scans.get(key) === scan) session.scans.delete(key);
    });
    return scan;
  }

  /** Reads rows [offset, offset + limit) of a scanned state; page reads of a session run one at a time. */
  private readPage(
    session: OpenSession,
    query: StateQuery,
    scan: ScannedState,
    offset: number,
    limit: number,
    detail: ValueViewCaps | null,
    onProgress?: ProgressListener,
  ): Promise<ReadEntry[]> {
    if (session.pages === null) {
      const registry = createValueRegistry(session);
      registry.catch(() => undefined);
      session.pages = { queue: Promise.resolve(), registry, headers: createSubtaskHeaderCache(), reader: createSwitchingStep() };
    }
    const pages = session.pages;
    const run = pages.queue.then(() =>
      this.steps.run('scanning-values', onProgress, async (cancel, _phase, _bytesRead, step) => {
        // the cached subtask streams read through pages.reader: this step's reads while it runs
        return pages.reader.during(step, async () => {
          const opened = trackOpenedSavepointReads(await this.openMetadata(session), pages.reader);
          return readStatePage(opened, await pages.registry, query, scan.index, { offset, limit }, signalOf(cancel), pages.headers, detail);
        });
      }),
    );
    pages.queue = run.catch(() => undefined);
    return run;
  }

  /** `_metadata` of the session, read once; a failed or cancelled read is not kept. */
  async compareWith(input: InspectorInput, options: CompareOptions, onProgress?: ProgressListener): Promise<SavepointDiff> {
    const session = this.requireSavepoint();
    return this.steps.run('opening', onProgress, async (cancel, phase, _bytesRead, step) => {
      // the other savepoint is opened beside the open one (no session of its own: the open one stays open)
      const other =
        input.kind === 'url'
          ? await openUrlSession(input.url, [], {
              knownDigests: this.knownDigests,
              step,
              phase,
              ...(input.companion === undefined ? {} : { companion: input.companion }),
            })
          : await openFileSession(input.files, null, {
              knownDigests: this.knownDigests,
              step,
              cancel,
              phase,
              onProgress,
              ...(input.metadataPath === undefined ? {} : { metadataPath: input.metadataPath }),
            });
      if (other.savepoint === null)
        throw wrongInput('no-savepoint', 'the files to compare with hold no savepoint: give its folder, a .zip/.tar/.tar.gz of one, or its _metadata');
      phase('reading-state-headers', 0);
      // the open savepoint's `_metadata` as this session read it (openMetadata), not read again
      const open = createSavepointSession(await this.openMetadata(session), createSavepointRegistry());
      const given = await openSavepointSession(other.savepoint, createSavepointRegistry());
      const [older, newer] = options.openIs === 'older' ? [open, given] : [given, open];
      if (options.values === true) phase('scanning-values', 0);
      return toPlainData(await diffSavepoints({ older, newer, values: options.values === true, signal: signalOf(cancel) }));
    });
  }

  private openMetadata(session: OpenSession): Promise<OpenedSavepoint> {
    if (session.metadata === undefined) {
      const pending = openSavepoint(session.savepoint);
      session.metadata = pending;
      pending.catch(() => {
        if (session.metadata === pending) session.metadata = undefined;
      });
    }
    return session.metadata;
  }

  private requireSavepoint(): OpenSession {
    if (this.session === null) throw wrongInput('nothing-open', 'nothing is open: open a savepoint first');
    if (this.session.savepoint === null) throw wrongInput('no-savepoint', noSavepointMessage(this.session.opened));
    return this.session as OpenSession;
  }
}

function totalBytes(files: SavepointFiles): number {
  return files.files.reduce((n, f) => n + f.size, 0);
}

function noSavepointMessage(opened: OpenedSession): string {
  const schema = opened.descriptorSetName;
  return schema === null
    ? 'no savepoint was given'
    : `${schema} is a Protobuf descriptor set (the new schema), not a savepoint: add the savepoint too — its folder, a .zip/.tar/.tar.gz of it, or its _metadata file`;
}

/**
 * The registry of value scans and pages: the Protobuf serializer's readers and, with the session's descriptor set
 * (or the new job jar's embedded descriptors: the schema a Kryo snapshot does not embed), Kryo-held Protobuf values decoded as such; a set that does not
 * load leaves them recognised only (the check reports the set's error).
 */
async function createValueRegistry(session: OpenSession): Promise<SnapshotRegistry> {
  const schema = session.descriptorSet;
  if (schema === null) return createSavepointRegistry();
  try {
    // the new job's jar or descriptor set, as the check reads it (a jar's embedded descriptors)
    const { descriptorSet } = await readNewSchema(schema, session.opened.digests);
    return createSavepointRegistry({ schema: { name: descriptorSet.name, bytes: descriptorSet.bytes } });
  } catch (e) {
    if (!isDecodeError(e)) throw e;
    return createSavepointRegistry();
  }
}
