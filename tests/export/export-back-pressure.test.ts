/**
 * Back pressure: an export into a deliberately slow Writable (each write completes a timer later, a
 * small high-water mark) never has more than one chunk past the stream's high-water mark buffered —
 * the export waits for 'drain' and the scan reads no further meanwhile — and writes the same bytes as
 * into a file. The control run ignores the stream's answer and shows that this stream is slow enough
 * for the bound to fail without back pressure. No timing is asserted: only buffered bytes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { openNodeInput } from '../../src/cli/sources';
import { writeToWritable, endWritable } from '../../src/cli/write-to-writable';
import { exportState } from '../../src/core/export/export-state';
import { createSnapshotRegistry, inspectSavepoint, openSavepoint } from '../../src/core/flink';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { useGeneratedBenchSavepoint } from '../helpers/use-generated-bench-savepoint';

const HIGH_WATER_MARK = 16 * 1024;

/** A Writable that takes each chunk a timer tick later and records the most bytes it ever held buffered. */
class SlowWritable extends Writable {
  maxBuffered = 0;
  maxChunk = 0;
  readonly received: Buffer[] = [];
  constructor() {
    super({ highWaterMark: HIGH_WATER_MARK });
  }
  override write(chunk: Uint8Array, ...rest: never[]): boolean {
    this.maxChunk = Math.max(this.maxChunk, chunk.length);
    const ok = super.write(chunk, ...rest);
    this.maxBuffered = Math.max(this.maxBuffered, this.writableLength);
    return ok;
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.received.push(Buffer.from(chunk));
    setTimeout(callback, 1);
  }
  get bytes(): Buffer {
    return Buffer.concat(this.received);
  }
}

describe('export into a slow sink', () => {
  // 128 key groups in one state file: the scan reads (and may pause) key-group block by block
  const sp = useGeneratedBenchSavepoint('export-back-pressure-', { targetBytes: 8 * 1024 * 1024, parallelism: 1 }, 60_000);

  async function openLastEvent() {
    const files = await openNodeInput(sp.dir);
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    const opened = await openSavepoint(files);
    const inspection = await inspectSavepoint(await openSavepoint(files), registry);
    const op = inspection.operators[0]!;
    const state = op.states.find((s) => s.name === 'last-event')!;
    return { opened, registry, op, state };
  }

  it('Parquet: waits for drain, so at most one row group past the high-water mark is ever buffered', async () => {
    const { opened, registry, op, state } = await openLastEvent();
    const out = new SlowWritable();
    const result = await exportState(opened, registry, { state, operator: op.id, format: 'parquet', rowGroupRows: 50 }, writeToWritable(out));
    await endWritable(out);
    const total = out.bytes.length;
    expect(result.rows).toBeGreaterThan(1000);
    // many row groups, each well below the whole file
    expect(total).toBeGreaterThan(8 * (HIGH_WATER_MARK + out.maxChunk));
    expect(out.maxBuffered).toBeLessThanOrEqual(HIGH_WATER_MARK + out.maxChunk);
    expect(out.bytes.subarray(0, 4).toString()).toBe('PAR1');
    expect(out.bytes.subarray(total - 4).toString()).toBe('PAR1');
  });

  it('control: the same stream written without waiting for drain buffers past that bound (the assertion above can fail)', async () => {
    const { opened, registry, op, state } = await openLastEvent();
    const out = new SlowWritable();
    await exportState(opened, registry, { state, operator: op.id, format: 'parquet', rowGroupRows: 50 }, (chunk) => void out.write(chunk));
    await endWritable(out);
    expect(out.maxBuffered).toBeGreaterThan(2 * (HIGH_WATER_MARK + out.maxChunk));
  });

  it('JSON Lines to stdout (`--output -`): the bytes of the file export, never more than one text chunk past the high-water mark buffered', async () => {
    const { op } = await openLastEvent();
    const stdout = new SlowWritable();
    let summary = '';
    const code = await runCli(['export', sp.dir, '--operator', op.id, '--state', 'last-event', '--format', 'jsonl', '--output', '-'], {
      stdout: () => {
        throw new Error('text on stdout while it carries the export');
      },
      stderr: (t) => (summary += t),
      stdoutStream: stdout,
    });
    expect(code).toBe(0);
    // progress lines, then the summary line, all on stderr
    expect(summary).toMatch(/^savepoint-inspector export: stdout: \d+ rows of state "last-event"/m);
    const file = path.join(path.dirname(sp.dir), 'last-event.jsonl');
    expect(
      await runCli(['export', sp.dir, '--operator', op.id, '--state', 'last-event', '--format', 'jsonl', '--output', file, '--quiet'], {
        stdout: () => undefined,
        stderr: () => undefined,
      }),
    ).toBe(0);
    expect(stdout.bytes.equals(readFileSync(file))).toBe(true);
    expect(stdout.maxBuffered).toBeLessThanOrEqual(HIGH_WATER_MARK + stdout.maxChunk);
    // the text is handed over in 1 MiB chunks: several of them
    expect(stdout.bytes.length).toBeGreaterThan(2 * stdout.maxChunk);
  });

  it('dump (the same scan, printing) into a slow stdout waits for it too: never more than one batch of text past the high-water mark buffered', async () => {
    const { op } = await openLastEvent();
    const stdout = new SlowWritable();
    const argv = ['dump', sp.dir, '--operator', op.id, '--state', 'last-event', '--format', 'json'];
    const code = await runCli(argv, { stdout: (t) => void stdout.write(Buffer.from(t)), stderr: () => undefined, stdoutStream: stdout });
    expect(code).toBe(0);
    await endWritable(stdout);
    let text = '';
    expect(await runCli(argv, { stdout: (t) => void (text += t), stderr: () => undefined })).toBe(0);
    expect(stdout.bytes.toString('utf8')).toBe(text);
    // one read (a key-group block) of entries may be printed before the scan waits: a few batches of 64 KiB at most
    expect(stdout.maxBuffered).toBeLessThanOrEqual(HIGH_WATER_MARK + 4 * stdout.maxChunk);
    expect(stdout.bytes.length).toBeGreaterThan(10 * (HIGH_WATER_MARK + 4 * stdout.maxChunk));
  });

  it('refuses --output - with --all, and where stdout is no byte stream', async () => {
    let stderr = '';
    const io = { stdout: () => undefined, stderr: (t: string) => (stderr += t) };
    expect(await runCli(['export', sp.dir, '--operator', 'bench-events', '--all', '--format', 'jsonl', '--output', '-'], io)).toBe(2);
    expect(stderr).toContain('--all writes one file per state: --output must be a folder, not -');
    stderr = '';
    expect(await runCli(['export', sp.dir, '--operator', 'bench-events', '--state', 'last-event', '--format', 'jsonl', '--output', '-'], io)).toBe(2);
    expect(stderr).toContain('--output - needs a byte stream on stdout');
  });
});
