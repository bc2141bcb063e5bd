/**
 * An export's sink on a Node Writable (a file stream, stdout on a pipe): each chunk is written and,
 * when the stream's buffer is past its high-water mark (`write` returned false), the sink waits for
 * 'drain' — so a slow pipe or file system pauses the export instead of filling memory. A stream
 * error (EPIPE, ENOSPC) rejects the waiting write and every later one.
 */
import type { Writable } from 'node:stream';

export type WritableSink = (chunk: Uint8Array) => Promise<void> | undefined;

export function writeToWritable(out: Writable): WritableSink {
  let failed: Error | undefined;
  out.on('error', (e: Error) => {
    failed ??= e;
  });
  return (chunk) => {
    if (failed !== undefined) return Promise.reject(failed);
    if (out.write(chunk)) return undefined;
    return new Promise<void>((resolve, reject) => {
      const done = (e?: Error) => {
        out.off('drain', onDrain);
        out.off('error', done);
        out.off('close', onClose);
        if (e !== undefined) reject(e);
        else resolve();
      };
      const onDrain = () => done();
      const onClose = () => done(failed ?? new Error('the output closed before the export was written'));
      out.on('drain', onDrain);
      out.on('error', done);
      out.on('close', onClose);
    });
  };
}

/** Ends the stream and waits until its bytes are handed to the system ('finish'), or its error. */
export function endWritable(out: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (out.errored) {
      reject(out.errored);
      return;
    }
    out.once('error', reject);
    out.end(() => {
      out.off('error', reject);
      resolve();
    });
  });
}

/** Waits until what was written so far has left the stream's buffer (stdout, which is never ended). */
export function flushWritable(out: Writable): Promise<void> {
  if (!out.writableNeedDrain && out.writableLength === 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const done = (e?: Error) => {
      out.off('drain', onDrain);
      out.off('error', done);
      if (e !== undefined) reject(e);
      else resolve();
    };
    const onDrain = () => done();
    out.on('drain', onDrain);
    out.on('error', done);
  });
}

/**
 * Waits while the stream's buffer is past its high-water mark, until 'drain' (or its close or error, which the
 * stream's owner reports: stdout's in run-as-process.ts). For a writer that writes text through another path
 * (dump's CliIo.stdout) and only needs to pause its reads.
 */
export function waitForDrain(out: Writable): Promise<void> {
  if (!out.writableNeedDrain) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      out.off('error', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
    out.on('error', done);
  });
}
