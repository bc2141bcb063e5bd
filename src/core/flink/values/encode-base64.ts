const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** the two characters of each 12-bit group, as character codes: PAIRS[2k], PAIRS[2k + 1] */
const PAIRS = new Uint16Array(2 * 4096);
for (let k = 0; k < 4096; k++) {
  PAIRS[2 * k] = ALPHABET.charCodeAt(k >> 6);
  PAIRS[2 * k + 1] = ALPHABET.charCodeAt(k & 63);
}
/** input bytes per piece of text: 8,192 characters, turned into a string at once */
const PIECE_BYTES = 3 * 2048;
/** a plain array: String.fromCharCode.apply reads it faster than a typed one (measured: the whole encode ~30 % faster) */
const SCRATCH: number[] = new Array<number>((PIECE_BYTES / 3) * 4).fill(0);

/**
 * Standard base64 (RFC 4648, padded). Platform-free: no btoa/Buffer in the core. The text is made a
 * piece of 8,192 characters at a time (character codes, two per 12-bit group from a table, into a scratch
 * array, one String.fromCharCode per piece) and the pieces joined: appending four characters at a time
 * would build a string of millions of concatenations, which for a 60 MB bytes field took 20 s and over
 * 600 MB before it was flattened.
 */
export function encodeBase64(bytes: Uint8Array): string {
  const pieces: string[] = [];
  const whole = bytes.length - (bytes.length % 3);
  let i = 0;
  while (i < whole) {
    const end = Math.min(whole, i + PIECE_BYTES);
    let o = 0;
    for (; i < end; i += 3) {
      const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
      const hi = 2 * (n >>> 12);
      const lo = 2 * (n & 4095);
      SCRATCH[o++] = PAIRS[hi]!;
      SCRATCH[o++] = PAIRS[hi + 1]!;
      SCRATCH[o++] = PAIRS[lo]!;
      SCRATCH[o++] = PAIRS[lo + 1]!;
    }
    pieces.push(String.fromCharCode.apply(null, o === SCRATCH.length ? SCRATCH : SCRATCH.slice(0, o)));
  }
  const rest = bytes.length - whole;
  if (rest === 1) {
    const n = bytes[whole]! << 16;
    pieces.push(`${ALPHABET[n >>> 18]!}${ALPHABET[(n >>> 12) & 63]!}==`);
  } else if (rest === 2) {
    const n = (bytes[whole]! << 16) | (bytes[whole + 1]! << 8);
    pieces.push(`${ALPHABET[n >>> 18]!}${ALPHABET[(n >>> 12) & 63]!}${ALPHABET[(n >>> 6) & 63]!}=`);
  }
  return pieces.length === 1 ? pieces[0]! : pieces.join('');
}
