const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
/** input bytes per piece of text: 32 KiB of characters, turned into a string at once */
const PIECE_BYTES = 3 * 8192;

/**
 * Standard base64 (RFC 4648, padded). Platform-free: no btoa/Buffer in the core. The text is made a
 * piece of 32 KiB characters at a time (character codes into a byte buffer, one String.fromCharCode per
 * piece) and the pieces joined: appending four characters at a time would build a string of millions of
 * concatenations, which for a 60 MB bytes field took 20 s and over 600 MB before it was flattened.
 */
export function encodeBase64(bytes: Uint8Array): string {
  const pieces: string[] = [];
  const codes = new Uint8Array((Math.min(PIECE_BYTES, bytes.length) / 3 + 1) * 4);
  for (let start = 0; start < bytes.length; start += PIECE_BYTES) {
    const end = Math.min(bytes.length, start + PIECE_BYTES);
    let o = 0;
    let i = start;
    for (; i + 2 < end; i += 3) {
      const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
      codes[o++] = CODES[n >>> 18]!;
      codes[o++] = CODES[(n >>> 12) & 63]!;
      codes[o++] = CODES[(n >>> 6) & 63]!;
      codes[o++] = CODES[n & 63]!;
    }
    // only the last piece has a remainder (PIECE_BYTES is a multiple of 3)
    const rest = end - i;
    if (rest === 1) {
      const n = bytes[i]! << 16;
      codes[o++] = CODES[n >>> 18]!;
      codes[o++] = CODES[(n >>> 12) & 63]!;
      codes[o++] = 61;
      codes[o++] = 61;
    } else if (rest === 2) {
      const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
      codes[o++] = CODES[n >>> 18]!;
      codes[o++] = CODES[(n >>> 12) & 63]!;
      codes[o++] = CODES[(n >>> 6) & 63]!;
      codes[o++] = 61;
    }
    pieces.push(String.fromCharCode.apply(null, codes.subarray(0, o) as unknown as number[]));
  }
  return pieces.length === 1 ? pieces[0]! : pieces.join('');
}
