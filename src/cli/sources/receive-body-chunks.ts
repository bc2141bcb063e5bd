import type { Readable } from 'node:stream';

/** The body is paused while this many bytes are received and not yet taken (then the socket's own buffers fill: backpressure). */
export const BODY_QUEUE_BYTES = 1024 * 1024;
/** …and flows again once the bytes not taken are down to this. */
export const BODY_RESUME_BYTES = 256 * 1024;
/** A waiter is woken once this many bytes are ready (or fewer when the answer has no more), not for every socket read. */
export const BODY_WAKE_BYTES = 256 * 1024;

/**
 * The chunks of a response body (a Node Readable: the SDK's IncomingMessage) as they arrive, for a reader that
 * takes them synchronously. The body flows into a queue from its `data` events — no promise, no
 * `read()`, no stop/start of the socket per chunk, as its async iterator costs — and is paused while
 * BODY_QUEUE_BYTES wait, so memory stays bounded. `take` hands on the next chunk (undefined: none is
 * ready); `wait` resolves once BODY_WAKE_BYTES are ready, or every byte still expected is, or the body
 * ended or failed. A chunk is handed on as received, never reused.
 */
export class BodyChunks {
  private readonly queue: (Uint8Array | undefined)[] = [];
  private head = 0;
  /** bytes received and not yet taken */
  queued = 0;
  /** bytes received so far */
  received = 0;
  /** `end` was seen: every byte of the body is received */
  ended = false;
  /** why the body broke (an error, or closed before its end), when it did */
  failure: Error | undefined;
  private paused = false;
  private wake: (() => void) | undefined;
  private wakeAt = 0;
  private detached = false;

  /** `expected`: the bytes the body holds (a waiter never waits for more than are left) */
  constructor(
    private readonly body: Readable,
    private readonly expected: number,
  ) {
    body.on('data', this.onData);
    body.once('end', this.onEnd);
    body.once('error', this.onError);
    body.once('close', this.onClose);
  }

  private readonly onData = (chunk: Uint8Array): void => {
    if (this.detached) return;
    this.queue.push(chunk);
    this.queued += chunk.length;
    this.received += chunk.length;
    if (this.queued >= BODY_QUEUE_BYTES && !this.paused) {
      this.paused = true;
      this.body.pause();
    }
    if (this.wake !== undefined && this.queued >= this.wakeAt) this.notify();
  };
  private readonly onEnd = (): void => {
    this.ended = true;
    this.notify();
  };
  private readonly onError = (e: Error): void => {
    this.failure ??= e;
    this.notify();
  };
  private readonly onClose = (): void => {
    if (!this.ended && this.failure === undefined) {
      this.failure = Object.assign(new Error('the answer was closed before its end'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
    }
    this.notify();
  };
  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** the next chunk received, or undefined when none is ready */
  take(): Uint8Array | undefined {
    if (this.head === this.queue.length) return undefined;
    const chunk = this.queue[this.head]!;
    this.queue[this.head++] = undefined;
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    }
    this.queued -= chunk.length;
    if (this.paused && this.queued <= BODY_RESUME_BYTES) {
      this.paused = false;
      this.body.resume();
    }
    return chunk;
  }

  /** resolves when `take` has BODY_WAKE_BYTES (or all the bytes still expected) to hand on, or the body ended or failed */
  wait(): Promise<void> {
    const left = this.expected - (this.received - this.queued);
    this.wakeAt = Math.max(1, Math.min(BODY_WAKE_BYTES, left));
    if (this.queued >= this.wakeAt || this.ended || this.failure !== undefined) return Promise.resolve();
    return new Promise((resolve) => (this.wake = resolve));
  }

  /** stops receiving: the body is destroyed (its connection not reused), its chunks not taken are dropped */
  destroy(): void {
    this.detached = true;
    this.queue.length = 0;
    this.head = 0;
    this.queued = 0;
    this.notify();
    (this.body as { destroy?: () => void }).destroy?.();
  }
}
