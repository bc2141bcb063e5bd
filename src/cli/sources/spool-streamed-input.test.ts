/**
 * `-` (stdin) and FIFOs spooled to a temporary file: the bytes whole, the file removed after, an empty input
 * and a FIFO nobody writes to refused at once, a limit keeping one byte past it, a terminal refused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { isStreamedInput, spoolStreamedInput } from './spool-streamed-input';

const scratch = mkdtempSync(path.join(tmpdir(), 'spi-spool-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const chunks = (total: number, size: number) =>
  Array.from({ length: Math.ceil(total / size) }, (_, i) => Buffer.alloc(Math.min(size, total - i * size), i % 251));

describe('spoolStreamedInput', () => {
  it('stdin (-) is written to a temporary file chunk by chunk, which remove() deletes', async () => {
    const parts = chunks(1_000_000, 65_536);
    const spooled = await spoolStreamedInput('-', () => Readable.from(parts));
    expect(path.basename(spooled.path)).toBe('stdin');
    expect(readFileSync(spooled.path).equals(Buffer.concat(parts))).toBe(true);
    await spooled.remove();
    expect(existsSync(path.dirname(spooled.path))).toBe(false);
  });

  it('an empty stdin, stdin on a terminal and no stdin at all are refused', async () => {
    await expect(spoolStreamedInput('-', () => Readable.from([]))).rejects.toThrow('expected data on stdin (-), found none');
    const tty = Object.assign(Readable.from([Buffer.from('x')]), { isTTY: true });
    await expect(spoolStreamedInput('-', () => tty)).rejects.toThrow('found a terminal: e.g. savepoint-inspector inspect - < savepoint.zip');
    await expect(spoolStreamedInput('-', undefined)).rejects.toThrow('- reads stdin, which this caller does not give');
  });

  it('keeps one byte past the limit, so the reader refuses the file by its size', async () => {
    const spooled = await spoolStreamedInput('-', () => Readable.from(chunks(300_000, 65_536)), 100_000);
    expect(statSync(spooled.path).size).toBe(100_001);
    await spooled.remove();
  });

  it('a FIFO nobody holds open for writing reads as nothing, at once (no wait for a writer)', async () => {
    const fifo = path.join(scratch, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(await isStreamedInput(fifo)).toBe(true);
    expect(await isStreamedInput('-')).toBe(true);
    expect(await isStreamedInput(scratch)).toBe(false);
    expect(await isStreamedInput('https://example.com/x')).toBe(false);
    await expect(spoolStreamedInput(fifo, undefined)).rejects.toThrow(
      `expected data on the FIFO (named pipe) ${fifo}, found none: nothing held it open for writing when the command started, or its writer wrote nothing`,
    );
  });
});
