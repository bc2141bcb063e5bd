const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
/** the character codes of up to 1,024 groups of 3 bytes, turned into one flat string at a time (a plain array: String.fromCharCode.apply reads it faster than a typed one) */
const GROUPS = 1024;
const SCRATCH: number[] = new Array<number>(4 * GROUPS).fill(0);

/**
 * Standard base64 (RFC 4648, padded). Platform-free: no btoa/Buffer in the core. Written in chunks of
 * 4,096 characters (String.fromCharCode over a scratch array): a string built 4 characters at a time
 * is a chain of thousands of pieces to flatten and collect, the main cost of a large bytes value's JSON.
 */
export function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  const whole = bytes.length - (bytes.length % 3);
  while (i < whole) {
    const end = Math.min(whole, i + 3 * GROUPS);
    let o = 0;
    for (; i < end; i += 3) {
      const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
      SCRATCH[o++] = CODES[n >>> 18]!;
      SCRATCH[o++] = CODES[(n >>> 12) & 63]!;
      SCRATCH[o++] = CODES[(n >>> 6) & 63]!;
      SCRATCH[o++] = CODES[n & 63]!;
    }
    out += String.fromCharCode.apply(null, o === SCRATCH.length ? SCRATCH : SCRATCH.slice(0, o));
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + '==';
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]! + '=';
  }
  return out;
}
