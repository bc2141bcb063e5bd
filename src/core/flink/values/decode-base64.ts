const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

/**
 * Standard padded base64 (RFC 4648) back to bytes: the inverse of encodeBase64, for a DecodedValue's
 * `bytes` read again as a layout (a connector's state held in a `byte[]` state). Platform-free; throws
 * on a character outside the alphabet (only this program's own encodeBase64 output is passed in).
 */
export function decodeBase64(text: string): Uint8Array {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */) end--;
  const out = new Uint8Array(Math.floor((end * 6) / 8));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? INDEX[c]! : -1;
    if (v < 0) throw new Error(`expected a base64 character at ${i}, found ${JSON.stringify(text[i])}`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}
