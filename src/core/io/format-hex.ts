/** Bytes as lower-case hex, two digits a byte, joined by `separator` (none for digests, ' ' for bytes shown in messages). */
export function formatHex(bytes: ArrayLike<number>, separator = ''): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    if (i > 0) out += separator;
    out += bytes[i]!.toString(16).padStart(2, '0');
  }
  return out;
}
