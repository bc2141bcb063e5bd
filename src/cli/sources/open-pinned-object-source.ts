import { DecodeError, type ByteSource } from '../../core/io';
import type { PinnedObject } from './object-store';
import { streamObjectReads } from './stream-object-reads';

/**
 * A ByteSource over one object of an object store: every read is one ranged GET for exactly the bytes
 * asked for, made against the version pinned on first sight (S3/Azure `If-Match` on the ETag, GCS
 * `ifGenerationMatch`), so an object overwritten between two reads is an error (never a mixed read).
 * Reads may run in parallel; nothing is buffered beyond the range asked for.
 *
 * `known` gives the size and pin when a listing or a HEAD already told them; without it (a file an
 * absolute handle names, whose size the handle records), the first read asks HEAD, checks that the object
 * holds at least `declaredSize` bytes and pins its version; a failed HEAD is remembered and rethrown.
 * `cacheWhole`: a read of the whole object is made once (a `_metadata` is read whole several times).
 *
 * Where the store streams (PinnedObject.streamRange), the source also has `readInto`, which only the core's
 * whole-state scans call (the readers that reuse their read buffers): their consecutive reads are served from
 * one streamed answer per span of the object (stream-object-reads.ts), pinned the same way, instead of one
 * request per window. `read` stays one ranged GET per read, so a verdict reads only the bytes it asks for.
 */
export function openPinnedObjectSource(
  object: PinnedObject,
  init: { known?: { size: number; pin: string }; declaredSize?: number; name?: string; cacheWhole?: boolean },
): ByteSource {
  const url = object.url;
  const name = init.name ?? url;
  const size = init.known?.size ?? init.declaredSize ?? 0;
  let whole: Promise<Uint8Array> | undefined;
  let pinned: Promise<string> | undefined = init.known === undefined ? undefined : Promise.resolve(init.known.pin);
  const pin = (): Promise<string> => {
    pinned ??= (async () => {
      const info = await object.head();
      if (info === undefined) throw new DecodeError({ code: 'missing-file', file: name, detail: `expected ${url}${await object.missing()}` });
      if (info.size < size) {
        throw new DecodeError({
          code: 'truncated',
          file: name,
          offset: info.size,
          detail: `expected ${url} to hold the ${size} bytes its state handle records, found ${info.size} bytes`,
        });
      }
      return info.pin;
    })();
    return pinned;
  };
  const check = (offset: number, length: number): void => {
    if (offset < 0 || length < 0 || offset + length > size) {
      throw new DecodeError({ code: 'truncated', detail: `expected ${length} bytes at offset ${offset}, found a ${size}-byte file`, file: name, offset });
    }
  };
  /** the store's failure names the URL; a source of another display name (an archive entry, a mapped path) keeps its own */
  const named = (e: unknown, offset: number): unknown =>
    e instanceof DecodeError && name !== url ? new DecodeError({ code: e.code, detail: e.detail, file: name, offset, cause: e }) : e;
  const streamRange = object.streamRange?.bind(object);
  let streamed: ((offset: number, length: number, target: Uint8Array) => Promise<Uint8Array>) | undefined;
  return {
    name,
    size,
    ...(streamRange === undefined
      ? {}
      : {
          async readInto(offset: number, length: number, target: Uint8Array): Promise<Uint8Array> {
            check(offset, length);
            const version = await pin();
            streamed ??= streamObjectReads(
              size,
              (at, n) => streamRange(at, n, version),
              (at, n) => object.readRange(at, n, version),
            );
            try {
              return await streamed(offset, length, target);
            } catch (e) {
              throw named(e, offset);
            }
          },
        }),
    async read(offset, length) {
      check(offset, length);
      const version = await pin();
      if (length === 0) return new Uint8Array(0);
      if (init.cacheWhole === true && offset === 0 && length === size)
        return (whole ??= object.readRange(0, size, version).catch((e: unknown) => {
          whole = undefined;
          throw e;
        }));
      try {
        return await object.readRange(offset, length, version);
      } catch (e) {
        throw named(e, offset);
      }
    },
  };
}
