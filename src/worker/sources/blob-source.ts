import { DecodeError, type ByteSource, type InputFile } from '../../core/io';

/** A ByteSource over a browser File/Blob: each read is Blob.slice().arrayBuffer(), nothing else is loaded. */
export function blobSource(blob: Blob, name: string): ByteSource {
  return {
    name,
    size: blob.size,
    async read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > blob.size) {
        throw new DecodeError({ code: 'truncated', detail: `expected ${length} bytes at offset ${offset}, found a ${blob.size}-byte file`, file: name, offset });
      }
      let buf: ArrayBuffer;
      try {
        buf = await blob.slice(offset, offset + length).arrayBuffer();
      } catch (e) {
        // e.g. NotReadableError when the file changed or was removed after it was picked
        throw new DecodeError({ code: 'missing-file', detail: `expected to read ${name}, found the browser cannot read it any more (${e instanceof Error ? e.message : String(e)}); pick it again`, file: name, offset, cause: e });
      }
      if (buf.byteLength !== length) {
        throw new DecodeError({ code: 'truncated', detail: `expected ${length} bytes at offset ${offset}, found ${buf.byteLength}: the file changed after it was picked`, file: name, offset });
      }
      return new Uint8Array(buf);
    },
  };
}

/** Dropped/picked files (relative path + Blob) as the core's InputFile list. */
export function toInputFiles(files: readonly { path: string; blob: Blob }[]): InputFile[] {
  return files.map((f) => ({ path: f.path, source: blobSource(f.blob, f.path) }));
}
