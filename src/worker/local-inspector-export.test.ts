/**
 * LocalInspector.exportState(s) over a fixture savepoint written by real Flink: the app's export is the
 * CLI's, byte for byte (the same core function), streamed in chunks; an unknown state is a not-found
 * failure; a cancelled export stops; several states exported together are each what exportState gives, read in one pass.
 */
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli';
import { LocalInspector } from './local-inspector';
import { requireCommitted } from '../../tests/helpers/committed-data';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');

async function open(): Promise<{ inspector: LocalInspector; operatorId: string }> {
  const files = readdirSync(SAVEPOINT).map((n) => ({ path: `sp/${n}`, blob: new Blob([readFileSync(path.join(SAVEPOINT, n))]) }));
  const inspector = new LocalInspector();
  await inspector.open({ kind: 'files', files });
  const inspection = await inspector.getInspection();
  return { inspector, operatorId: inspection.operators.find((o) => o.uid === 'int-keyed' || o.states.some((s) => s.name === 'last-event'))!.id };
}

requireCommitted(path.join(SAVEPOINT, '_metadata'));

describe('LocalInspector.exportState', () => {
  it.each(['parquet', 'jsonl'] as const)('writes %s byte for byte as the CLI does', async (format) => {
    const { inspector, operatorId } = await open();
    const chunks: Uint8Array[] = [];
    const summary = await inspector.exportState({ operatorId, state: 'events-by-name', format }, (c) => void chunks.push(c));
    expect(summary).toEqual({ rows: 24, entries: 24, valueBytes: expect.any(Number) as number, incomplete: [] });
    const dir = mkdtempSync(path.join(tmpdir(), 'inspector-export-'));
    try {
      const out = path.join(dir, `x.${format}`);
      const code = await runCli(['export', SAVEPOINT, '--operator', operatorId, '--state', 'events-by-name', '--format', format, '--output', out, '--quiet'], {
        stdout: () => undefined,
        stderr: () => undefined,
      });
      expect(code).toBe(0);
      expect(Buffer.concat(chunks).equals(readFileSync(out))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails with not-found for a state the operator does not have', async () => {
    const { inspector, operatorId } = await open();
    await expect(inspector.exportState({ operatorId, state: 'nope', format: 'jsonl' }, () => undefined)).rejects.toMatchObject({ code: 'not-found' });
  });
});

describe('LocalInspector.exportStates', () => {
  /** the savepoint's files as Blobs that count the bytes sliced out of the state files (not `_metadata`) */
  async function openCounting(): Promise<{ inspector: LocalInspector; operatorId: string; stateBytesRead: () => number }> {
    let read = 0;
    class CountingBlob extends Blob {
      override slice(start?: number, end?: number, type?: string): Blob {
        const part = super.slice(start, end, type);
        read += part.size;
        return part;
      }
    }
    const files = readdirSync(SAVEPOINT).map((n) => {
      const bytes = readFileSync(path.join(SAVEPOINT, n));
      return { path: `sp/${n}`, blob: n === '_metadata' ? new Blob([bytes]) : new CountingBlob([bytes]) };
    });
    const inspector = new LocalInspector();
    await inspector.open({ kind: 'files', files });
    const inspection = await inspector.getInspection();
    return { inspector, operatorId: inspection.operators.find((o) => o.uid === 'int-keyed')!.id, stateBytesRead: () => read };
  }

  it('gives every state the bytes exportState gives it, reading the state files once for them all', async () => {
    const keyed = ['event-history', 'events-by-name', 'last-event'];
    for (const format of ['arrow', 'parquet'] as const) {
      const { inspector, operatorId, stateBytesRead } = await openCounting();
      const single: Buffer[] = [];
      const before = stateBytesRead();
      for (const state of keyed) {
        const chunks: Uint8Array[] = [];
        await inspector.exportState({ operatorId, state, scope: 'keyed', format }, (c) => void chunks.push(c));
        single.push(Buffer.concat(chunks));
      }
      const readOneByOne = stateBytesRead() - before;
      const together: Uint8Array[][] = keyed.map(() => []);
      const mark = stateBytesRead();
      const summaries = await inspector.exportStates(
        { operatorId, states: keyed.map((state) => ({ state, scope: 'keyed' as const })), format },
        (i, c) => void together[i]!.push(c),
      );
      const readTogether = stateBytesRead() - mark;
      expect(summaries.map((s) => s.rows)).toEqual([24, 24, 5]);
      keyed.forEach((_, i) => expect(Buffer.concat(together[i]!).equals(single[i]!), `${format} ${keyed[i]}`).toBe(true));
      // one pass over the keyed stream instead of three
      expect(readTogether).toBeGreaterThan(0);
      expect(readTogether * 2).toBeLessThan(readOneByOne);
    }
  });
});

describe('LocalInspector.exportStates with a sample (the Query view past its memory limit)', () => {
  it('reads only the sampled key groups and says so in every summary', async () => {
    const { inspector, operatorId } = await open();
    const keyed = ['event-history', 'events-by-name', 'last-event'];
    const states = keyed.map((state) => ({ state, scope: 'keyed' as const }));
    const whole = await inspector.exportStates({ operatorId, states, format: 'arrow' }, () => undefined);
    const sampled = await inspector.exportStates({ operatorId, states, format: 'arrow', sample: { kind: 'key-groups', every: 2 } }, () => undefined);
    sampled.forEach((s, i) => {
      expect(s.incomplete).toContain('a sample: one key group in every 2 (key groups 0, 2, 4, …)');
      expect(s.rows).toBeLessThanOrEqual(whole[i]!.rows);
    });
    expect(sampled.reduce((n, s) => n + s.rows, 0)).toBeLessThan(whole.reduce((n, s) => n + s.rows, 0));
    expect(whole.every((s) => s.incomplete.length === 0)).toBe(true);
  });
});
