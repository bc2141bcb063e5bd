import type { DecodedValue, SerializerSnapshot, ValueCodec, ValueMode } from './snapshot-types';
import type { ByteReader } from '../../io';

/**
 * Builds a composite SerializerSnapshot. A codec is attached only when every nested snapshot is
 * 'known' with a codec (an opaque nested value cannot be delimited inside a composite value).
 */
export function makeComposite(
  className: string,
  version: number,
  nested: SerializerSnapshot[],
  typeLabel: string,
  fixedLength: number,
  decode: ((r: ByteReader, codecs: ValueCodec[], mode: ValueMode | undefined) => DecodedValue) | undefined,
  details?: Record<string, unknown>,
): SerializerSnapshot {
  const codecs = nested.map((n) => (n.status === 'known' ? n.codec : undefined));
  const decodable = decode !== undefined && codecs.every((c) => c !== undefined);
  return {
    className,
    version,
    typeLabel,
    status: decodable ? 'known' : 'opaque',
    nested,
    fixedLength,
    ...(details === undefined ? {} : { details }),
    ...(decodable ? { codec: { decode: (r: ByteReader, mode?: ValueMode) => decode(r, codecs as ValueCodec[], mode) } } : {}),
  };
}
