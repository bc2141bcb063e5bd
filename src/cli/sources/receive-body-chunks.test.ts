import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BODY_QUEUE_BYTES, BODY_RESUME_BYTES, BODY_WAKE_BYTES, BodyChunks } from './receive-body-chunks';

const KiB = 1024;

/** `n` bytes starting at `from` (byte i = i mod 251). */
function bytesAt(from: number, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (from + i) % 251;
  return b;
}

/** lets the body's events run */
const settle = () => new Promise((r) => setImmediate(r));

describe('BodyChunks', () => {
  it('hands on every chunk in order, synchronously, and wakes a waiter once BODY_WAKE_BYTES are ready, not per chunk', async () => {
    const body = new PassThrough();
    const chunks = new BodyChunks(body, 4 * BODY_WAKE_BYTES);
    expect(chunks.take()).toBeUndefined();
    let woken = false;
    const waiting = chunks.wait().then(() => (woken = true));
    let sent = 0;
    while (sent < BODY_WAKE_BYTES - 64 * KiB) {
      body.write(bytesAt(sent, 64 * KiB));
      sent += 64 * KiB;
    }
    await settle();
    expect(woken).toBe(false);
    body.write(bytesAt(sent, 64 * KiB));
    sent += 64 * KiB;
    await waiting;
    let got = 0;
    for (let c = chunks.take(); c !== undefined; c = chunks.take()) {
      expect(Buffer.compare(c, bytesAt(got, c.length))).toBe(0);
      got += c.length;
    }
    expect(got).toBe(sent);
    expect(chunks.queued).toBe(0);
  });

  it('pauses the body while BODY_QUEUE_BYTES wait untaken, and lets it flow again once they are down to BODY_RESUME_BYTES', async () => {
    const body = new PassThrough({ highWaterMark: 16 * KiB });
    const chunks = new BodyChunks(body, 4 * BODY_QUEUE_BYTES);
    let sent = 0;
    while (sent < BODY_QUEUE_BYTES) {
      body.write(bytesAt(sent, 64 * KiB));
      sent += 64 * KiB;
    }
    await settle();
    expect(body.isPaused()).toBe(true);
    // more written now stays in the body (its own buffer: the socket's backpressure), not in the queue
    body.write(bytesAt(sent, 64 * KiB));
    sent += 64 * KiB;
    await settle();
    expect(chunks.queued).toBe(BODY_QUEUE_BYTES);
    let got = 0;
    while (chunks.queued > BODY_RESUME_BYTES) got += chunks.take()!.length;
    expect(body.isPaused()).toBe(false);
    await settle();
    for (let c = chunks.take(); c !== undefined; c = chunks.take()) {
      expect(Buffer.compare(c, bytesAt(got, c.length))).toBe(0);
      got += c.length;
    }
    expect(got).toBe(sent);
  });

  it('a body that ends, fails or closes early wakes the waiter and says so; a waiter for the last bytes wakes with fewer than BODY_WAKE_BYTES', async () => {
    const ended = new PassThrough();
    const a = new BodyChunks(ended, 10);
    const waitA = a.wait();
    ended.end(bytesAt(0, 10));
    await waitA;
    expect(a.take()!.length).toBe(10);
    await settle();
    expect(a.ended).toBe(true);
    expect(a.failure).toBeUndefined();

    const failing = new PassThrough();
    const b = new BodyChunks(failing, 1000);
    const waitB = b.wait();
    failing.destroy(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    await waitB;
    expect((b.failure as { code?: string }).code).toBe('ECONNRESET');

    const closing = new PassThrough();
    const c = new BodyChunks(closing, 1000);
    const waitC = c.wait();
    closing.write(bytesAt(0, 100));
    closing.destroy();
    await waitC;
    expect(c.take()!.length).toBe(100);
    expect((c.failure as { code?: string }).code).toBe('ERR_STREAM_PREMATURE_CLOSE');
  });
});
