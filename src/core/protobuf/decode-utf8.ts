/**
 * UTF-8 decoding without TextDecoder (the core has no DOM/Node types). Strict mode follows
 * protobuf-java's Utf8.isValidUtf8 (no overlongs, no surrogates, nothing above U+10FFFF) and
 * returns undefined for invalid input; lenient mode replaces each malformed sequence with U+FFFD
 * as Java's `new String(bytes, UTF_8)` does for proto2 strings.
 */
export function decodeUtf8(bytes: Uint8Array, start = 0, end = bytes.length, strict = true): string | undefined {
  let out = '';
  const units: number[] = [];
  let i = start;
  while (i < end) {
    const b0 = bytes[i]!;
    let cp = -1;
    let n = 1;
    if (b0 < 0x80) {
      cp = b0;
    } else if (b0 >= 0xc2 && b0 <= 0xdf) {
      if (i + 1 < end && isCont(bytes[i + 1]!)) {
        cp = ((b0 & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
        n = 2;
      }
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      const b1 = bytes[i + 1];
      const lo = b0 === 0xe0 ? 0xa0 : 0x80;
      const hi = b0 === 0xed ? 0x9f : 0xbf;
      if (i + 2 < end && b1 !== undefined && b1 >= lo && b1 <= hi && isCont(bytes[i + 2]!)) {
        cp = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
        n = 3;
      }
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      const b1 = bytes[i + 1];
      const lo = b0 === 0xf0 ? 0x90 : 0x80;
      const hi = b0 === 0xf4 ? 0x8f : 0xbf;
      if (i + 3 < end && b1 !== undefined && b1 >= lo && b1 <= hi && isCont(bytes[i + 2]!) && isCont(bytes[i + 3]!)) {
        cp = ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((bytes[i + 2]! & 0x3f) << 6) | (bytes[i + 3]! & 0x3f);
        n = 4;
      }
    }
    if (cp < 0) {
      if (strict) return undefined;
      cp = 0xfffd;
      n = 1;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
    } else {
      units.push(cp);
    }
    if (units.length >= 4096) {
      out += String.fromCharCode(...units);
      units.length = 0;
    }
    i += n;
  }
  return out + String.fromCharCode(...units);
}

function isCont(b: number): boolean {
  return (b & 0xc0) === 0x80;
}

/** Standard UTF-8 encoding; an unpaired surrogate becomes '?' as Java's String.getBytes(UTF_8) writes it. */
export function encodeUtf8(s: string): Uint8Array {
  // two passes, the bytes written into one buffer of their exact size: a number[] of one element per byte
  // took 8 bytes per byte (640 MB for a JSON line with a 60 MB bytes field in base64)
  let size = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) size++;
    else if (c < 0x800) size += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && isLowSurrogate(s.charCodeAt(i + 1))) {
      size += 4;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) size++;
    else size += 3;
  }
  const out = new Uint8Array(size);
  let o = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (isLowSurrogate(d)) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        out[o++] = 0xf0 | (cp >> 18);
        out[o++] = 0x80 | ((cp >> 12) & 0x3f);
        out[o++] = 0x80 | ((cp >> 6) & 0x3f);
        out[o++] = 0x80 | (cp & 0x3f);
        i++;
        continue;
      }
    }
    // an unpaired surrogate: '?'
    if (c >= 0xd800 && c <= 0xdfff) c = 0x3f;
    if (c < 0x80) out[o++] = c;
    else if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6);
      out[o++] = 0x80 | (c & 0x3f);
    } else {
      out[o++] = 0xe0 | (c >> 12);
      out[o++] = 0x80 | ((c >> 6) & 0x3f);
      out[o++] = 0x80 | (c & 0x3f);
    }
  }
  return out;
}

function isLowSurrogate(d: number): boolean {
  return d >= 0xdc00 && d <= 0xdfff;
}
