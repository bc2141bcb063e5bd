/**
 * protoc writes a FileDescriptorProto into Java source as string literals whose characters are the
 * bytes (ISO-8859-1: every char U+0000–U+00FF, escaped in octal), and protobuf-java joins them with
 * no separator and takes `getBytes(ISO_8859_1)`. The class file holds each part as modified UTF-8,
 * already decoded to a Java string here. A char above U+00FF cannot come from protoc: the string is
 * not a serialized descriptor.
 */
import { DecodeError } from '../io';

export function joinDescriptorParts(parts: readonly string[], where: { file: string; offset: number; owner: string }): Uint8Array {
  let total = 0;
  for (const part of parts) total += part.length;
  const out = new Uint8Array(total);
  let p = 0;
  for (const [index, part] of parts.entries()) {
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i);
      if (c > 0xff) {
        throw new DecodeError({
          code: 'not-recognised',
          detail: `expected descriptor part ${index} of ${where.owner} to hold bytes (chars U+0000–U+00FF), found U+${c.toString(16).toUpperCase().padStart(4, '0')} at char ${i}: not a serialized descriptor`,
          file: where.file,
          offset: where.offset,
          path: ['class file', '<clinit>'],
        });
      }
      out[p++] = c;
    }
  }
  return out;
}
