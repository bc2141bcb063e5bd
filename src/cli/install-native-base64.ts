/**
 * `Uint8Array.prototype.toBase64` (ECMAScript 2026, TC39's proposal-arraybuffer-base64) for Node versions
 * that lack it, backed by Node's own encoder. The core encodes base64 with the language's method where the
 * runtime has it (core/flink/values/encode-base64.ts) and with portable code otherwise; on Node the native
 * encoder is about 7× faster than the portable one, and `dump`/`export` of a table of large bytes fields
 * spend a fifth of their time in base64. The method follows the proposal's options (`alphabet`:
 * "base64" | "base64url", `omitPadding`), so any code that feature-detects it gets the standard behaviour.
 */
export function installNativeBase64(): void {
  if (typeof (Uint8Array.prototype as { toBase64?: unknown }).toBase64 === 'function') return;
  Object.defineProperty(Uint8Array.prototype, 'toBase64', {
    value: toBase64,
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

function toBase64(this: Uint8Array, options?: { alphabet?: 'base64' | 'base64url'; omitPadding?: boolean }): string {
  if (!(this instanceof Uint8Array)) throw new TypeError('Uint8Array.prototype.toBase64 called on a value that is not a Uint8Array');
  const alphabet = options?.alphabet ?? 'base64';
  if (alphabet !== 'base64' && alphabet !== 'base64url') throw new TypeError(`expected alphabet "base64" or "base64url", found ${String(alphabet)}`);
  const bytes = Buffer.from(this.buffer, this.byteOffset, this.byteLength);
  if (alphabet === 'base64url') {
    // Node's base64url never pads; the proposal pads unless omitPadding
    const text = bytes.toString('base64url');
    return options?.omitPadding === true ? text : text + '='.repeat((4 - (text.length % 4)) % 4);
  }
  const text = bytes.toString('base64');
  return options?.omitPadding === true ? text.replace(/=+$/, '') : text;
}
