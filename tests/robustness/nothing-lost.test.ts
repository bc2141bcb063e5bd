/**
 * Nothing lost: decoding never modifies the input bytes, a cancelled or failed scan leaves the same
 * opened input usable with identical results, and exporting the same inputs twice gives identical
 * bytes (every report format), with state names and values escaped in the HTML report.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateStateCompatibility, loadDescriptorSet } from '../../src/core/compat';
import { createSnapshotRegistry, inspectSavepoint, openSavepoint, type CancelSignal, type StateEntry } from '../../src/core/flink';
import { readStateEntries } from '../helpers/read-state-entries';
import { bytesSource, isDecodeError, openSavepointInput, type SavepointFiles } from '../../src/core/io';
import { getProtobufSnapshotContent, registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { formatReport, REPORT_FORMATS } from '../../src/core/report';
import { buildReport } from '../../src/core/report/build-report';
import { type ReportStateInput } from '../../src/core/report/report-types';
import { listSavepointInputs, type SavepointFolderInput } from './list-robustness-inputs';
import { runSavepointPipeline } from './run-decode-pipelines';
import { requireCommitted } from '../helpers/committed-data';

const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');
const exists = existsSync(FIXTURE);
if (!exists) console.log(`skipping: ${FIXTURE} is absent`);

function fixtureInput(): SavepointFolderInput {
  const found = listSavepointInputs().find((i): i is SavepointFolderInput => i.kind === 'folder' && i.name.endsWith('flink-1.20/hashmap/canonical/savepoint'));
  if (!found) throw new Error('fixture savepoint not listed');
  return found;
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function open(input: SavepointFolderInput): Promise<SavepointFiles> {
  return openSavepointInput({ kind: 'files', name: input.name, files: input.files.map((f) => ({ path: f.path, source: bytesSource(f.path, f.bytes) })) });
}

function registry() {
  const r = createSnapshotRegistry();
  registerProtobufSnapshotReaders(r);
  return r;
}

async function collect(files: SavepointFiles, operatorId: string, state: string, signal?: CancelSignal): Promise<StateEntry[]> {
  const out: StateEntry[] = [];
  for await (const e of readStateEntries(files, registry(), { operatorId, state, ...(signal ? { signal } : {}) })) out.push(e);
  return out;
}

requireCommitted(FIXTURE);

describe('nothing lost', () => {
  it('decoding (clean and corrupt) never modifies the input bytes', async () => {
    const input = fixtureInput();
    const before = input.files.map((f) => sha(f.bytes));
    await runSavepointPipeline(input);
    const stateIndex = input.files.findIndex((f) => !f.path.endsWith('_metadata'));
    const corrupt = input.files.map((f, i) => (i === stateIndex ? { path: f.path, bytes: f.bytes.subarray(0, 40) } : f));
    const outcome = await runSavepointPipeline({ kind: 'folder', name: input.name, files: corrupt });
    expect(outcome.errors.length).toBeGreaterThan(0);
    expect(input.files.map((f) => sha(f.bytes))).toEqual(before);
  });

  it('a cancelled scan ends in a cancelled DecodeError and the same opened input then reads everything', async () => {
    const files = await open(fixtureInput());
    const inspection = await inspectSavepoint(await openSavepoint(files), registry());
    const op = inspection.operators.find((o) => o.states.some((s) => s.scope === 'keyed' && s.status === 'ok'))!;
    const state = op.states.find((s) => s.scope === 'keyed' && s.status === 'ok')!;
    const reference = await collect(await open(fixtureInput()), op.id, state.name);
    expect(reference.length).toBeGreaterThan(1);
    let reads = 0;
    const signal: CancelSignal = {
      get aborted() {
        return ++reads > 1;
      },
    };
    const cancelled = await collect(files, op.id, state.name, signal).catch((e: unknown) => e);
    expect(isDecodeError(cancelled) && cancelled.code).toBe('cancelled');
    expect(await collect(files, op.id, state.name)).toEqual(reference);
  });

  it('a state that fails to decode leaves the other states of the same input readable, with identical results', async () => {
    const input = fixtureInput();
    const clean = await open(input);
    const inspection = await inspectSavepoint(await openSavepoint(clean), registry());
    const states = inspection.operators.flatMap((o) => o.states.filter((s) => s.status === 'ok').map((s) => ({ op: o.id, name: s.name })));
    // truncate the largest state file: some states fail, the rest must read exactly as from the clean input
    const biggest = input.files.reduce((a, f, i) => (!f.path.endsWith('_metadata') && f.bytes.length > input.files[a]!.bytes.length ? i : a), 0);
    const damaged = await open({
      ...input,
      files: input.files.map((f, i) => (i === biggest ? { path: f.path, bytes: f.bytes.subarray(0, f.bytes.length >> 1) } : f)),
    });
    let failed = 0;
    let same = 0;
    for (const s of states) {
      const got = await collect(damaged, s.op, s.name).catch((e: unknown) => {
        if (!isDecodeError(e)) throw e;
        return undefined;
      });
      if (got === undefined) failed++;
      else if (JSON.stringify(got) === JSON.stringify(await collect(clean, s.op, s.name))) same++;
    }
    expect(failed).toBeGreaterThan(0);
    expect(same).toBeGreaterThan(0);
    expect(failed + same).toBe(states.length);
  });

  it('exporting the same inputs twice gives identical bytes in every format; HTML escapes names and carries its own CSP', async () => {
    const build = async () => {
      const files = await open(fixtureInput());
      const inspection = await inspectSavepoint(await openSavepoint(files), registry());
      const states: ReportStateInput[] = [];
      for (const op of inspection.operators) {
        for (const s of op.states) {
          const content = s.valueSerializer ? getProtobufSnapshotContent(s.valueSerializer) : undefined;
          if (!content) {
            states.push({
              kind: 'other',
              operator: { id: op.id, uid: '<img src=x onerror=alert(1)>' },
              state: `${s.name}<img src=x onerror=alert(1)>`,
              role: 'VALUE_SERIALIZER',
              snapshotClass: s.valueSerializer?.className ?? '?',
              reason: '<script>alert(1)</script>',
            });
            continue;
          }
          const set = loadDescriptorSet(content.descriptorBytes, 'saved').set;
          const settings = {
            deterministicSerialization: content.settings.deterministic,
            maxMessageSize: content.settings.maxMessageSize,
            recursionLimit: content.settings.recursionLimit,
          };
          const compatibility = evaluateStateCompatibility(
            {
              savedSet: set,
              savedRoot: content.rootFullName,
              savedJavaClass: content.javaClass,
              savedKind: 'generated',
              savedSettings: settings,
              snapshotClass: s.valueSerializer!.className,
              savedLine: '0.x',
            },
            { newSet: set, newRoot: content.rootFullName, newKind: 'generated', newSettings: settings, target: '0.x' },
          );
          states.push({
            kind: 'protobuf',
            operator: { id: op.id },
            state: s.name,
            role: 'VALUE_SERIALIZER',
            snapshotClass: s.valueSerializer!.className,
            compatibility,
            warnings: [],
          });
        }
      }
      const report = buildReport({
        tool: { name: 'savepoint-inspector', version: '0.1.0' },
        inputs: [{ role: 'savepoint', name: 'sp', size: 1, sha256: '0'.repeat(64) }],
        target: '0.x',
        newSettings: { deterministicSerialization: false, maxMessageSize: 67_108_864, recursionLimit: 100 },
        states,
      });
      return REPORT_FORMATS.map((f) => formatReport(report, f));
    };
    const first = await build();
    const second = await build();
    expect(second).toEqual(first);
    const html = first[REPORT_FORMATS.indexOf('html')]!;
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
  });
});
