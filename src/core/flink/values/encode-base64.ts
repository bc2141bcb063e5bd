const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** the two characters of each 12-bit group as one 16-bit unit, in the platform's byte order, to store into a Uint16Array view of the output */
const PAIRS = new Uint16Array(4096);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
for (let k = 0; k < 4096; k++) {
  const first = ALPHABET.charCodeAt(k >> 6);
  const second = ALPHABET.charCodeAt(k & 63);
  PAIRS[k] = LITTLE_ENDIAN ? first | (second << 8) : (first << 8) | second;
}
/** output of up to this many characters goes through one reused scratch buffer; longer output gets its own */
const SCRATCH_CHARS = 1 << 16;
const SCRATCH = new Uint8Array(SCRATCH_CHARS);
const SCRATCH_PAIRS = new Uint16Array(SCRATCH.buffer);
/** the ASCII text is turned into a string by the runtime's own decoder: one native call, a flat one-byte string */
const ASCII = new TextDecoder();

/** `Uint8Array.prototype.toBase64` (ECMAScript 2026, TC39's proposal-arraybuffer-base64) where the runtime has it. */
type MaybeNativeBase64 = Uint8Array & { toBase64?: (this: Uint8Array) => string };

/**
 * Standard base64 (RFC 4648, padded). Platform-free: the core uses the language's own
 * `Uint8Array.prototype.toBase64` where the runtime has it (recent browsers; the CLI supplies it on Node,
 * src/cli/install-native-base64.ts) and otherwise encodes here: two characters per 12-bit group from a
 * table, written as one 16-bit store into ASCII bytes, decoded into a string by one TextDecoder call. That
 * was 3.4× faster than String.fromCharCode over pieces of character codes (5,000-byte values, measured in
 * Node 20), and a 60 MB bytes field becomes one flat string, not millions of concatenations.
 */
export function encodeBase64(bytes: Uint8Array): string {
  const native = (bytes as MaybeNativeBase64).toBase64;
  if (typeof native === 'function') return native.call(bytes);
  return encodeBase64Here(bytes);
}

/** The core's own encoder (exported for its test, which holds it to RFC 4648 whether or not the runtime has toBase64). */
export function encodeBase64Here(bytes: Uint8Array): string {
  const length = Math.ceil(bytes.length / 3) * 4;
  const [out, pairs] = length <= SCRATCH_CHARS ? [SCRATCH, SCRATCH_PAIRS] : allocate(length);
  const whole = bytes.length - (bytes.length % 3);
  let o = 0;
  for (let i = 0; i < whole; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    pairs[o++] = PAIRS[n >>> 12]!;
    pairs[o++] = PAIRS[n & 4095]!;
  }
  let at = 2 * o;
  const rest = bytes.length - whole;
  if (rest > 0) {
    const n = (bytes[whole]! << 16) | (rest === 2 ? bytes[whole + 1]! << 8 : 0);
    out[at++] = ALPHABET.charCodeAt(n >>> 18);
    out[at++] = ALPHABET.charCodeAt((n >>> 12) & 63);
    out[at++] = rest === 2 ? ALPHABET.charCodeAt((n >>> 6) & 63) : 61;
    out[at++] = 61;
  }
  return ASCII.decode(out.subarray(0, at));
}

/** an output buffer of at least `length` bytes with an even byte length, for its 16-bit view */
function allocate(length: number): [Uint8Array, Uint16Array] {
  const buffer = new ArrayBuffer(length + (length & 1));
  return [new Uint8Array(buffer), new Uint16Array(buffer)];
}
