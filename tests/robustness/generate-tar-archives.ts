/**
 * A structure-aware generator of tar archives of a savepoint folder: ustar members of the fixture's
 * files (plain, under a GNU long name or a pax `path` record, in a seeded order) and, per case, one
 * planted structure: many members of one name (zero-size ones, or copies of a savepoint file with
 * the real one last), many distinct small members, a damaged header, a size field far past the
 * end (octal or base-256 near 2^53), or a cut. Optionally gzipped.
 */
import { gzipSync } from 'fflate';
import type { SeededRandom } from './seeded-random';

export const TAR_SHAPES = ['same-name', 'many-members', 'bad-header', 'huge-size', 'cut'] as const;
export type TarShape = (typeof TAR_SHAPES)[number];

const enc = new TextEncoder();

function header(name: string, size: number, type = '0', hugeSize?: number): Uint8Array {
  const h = new Uint8Array(512);
  const put = (at: number, text: string) => h.set(enc.encode(text).subarray(0, 512 - at), at);
  put(0, name.slice(0, 100));
  put(100, '0000644\0');
  put(108, '0000000\0');
  put(116, '0000000\0');
  if (hugeSize === undefined) put(124, `${size.toString(8).padStart(11, '0')}\0`);
  else {
    // GNU base-256: top bit of the first byte, then the size big-endian in the other 11 bytes
    h[124] = 0x80;
    let v = hugeSize;
    for (let i = 135; i > 124; i--) {
      h[i] = v % 256;
      v = Math.floor(v / 256);
    }
  }
  put(136, '00000000000\0');
  put(148, '        ');
  h[156] = type.charCodeAt(0);
  put(257, 'ustar\u000000');
  let sum = 0;
  for (const b of h) sum += b;
  put(148, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

function padded(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(data.length / 512) * 512);
  out.set(data);
  return out;
}

function paxRecord(key: string, value: string): Uint8Array {
  const body = ` ${key}=${value}\n`;
  const n = enc.encode(body).length;
  let len = n + 1;
  while (String(len).length + n !== len) len = String(len).length + n;
  return enc.encode(`${len}${body}`);
}

export interface TarCase {
  bytes: Uint8Array;
  label: string;
  /** whether the archive is a readable savepoint (exit 0/1 expected) or may be refused */
  readable: boolean;
}

/** `files`: the savepoint folder's files by relative path (`_metadata` among them), placed under `sp/`. */
export function generateTarArchive(files: readonly { path: string; bytes: Uint8Array }[], shape: TarShape, rnd: SeededRandom, many: number): TarCase {
  const parts: Uint8Array[] = [];
  const headerOffsets: number[] = [];
  let length = 0;
  const push = (p: Uint8Array, isHeader = false) => {
    if (isHeader) headerOffsets.push(length);
    parts.push(p);
    length += p.length;
  };
  const member = (name: string, data: Uint8Array) => {
    const style = rnd.int(4);
    if (style === 1) {
      const longName = enc.encode(`${name}\0`);
      push(header('././@LongLink', longName.length, 'L'), true);
      push(padded(longName));
      push(header(name.slice(-99), data.length), true);
    } else if (style === 2) {
      const record = paxRecord('path', name);
      push(header('PaxHeaders/x', record.length, 'x'), true);
      push(padded(record));
      push(header('placeholder', data.length), true);
    } else {
      push(header(name, data.length), true);
    }
    push(padded(data));
  };
  let label: string = shape;
  let readable = true;
  const order = files
    .map((f) => ({ f, key: rnd.next() }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.f);
  const planted = (where: string) => {
    if (shape === 'same-name') {
      const copy = files[rnd.int(files.length)]!;
      const name = rnd.int(2) === 0 ? 'sp/x' : `sp/${copy.path}`;
      const n = many;
      const one = header(name, 0);
      for (let i = 0; i < n; i++) push(one, true);
      label = `${n} zero-size members named ${name} ${where} the savepoint files`;
      // zero-size copies of a savepoint file after it replace it (tar semantics): the savepoint is then unreadable
      if (where === 'after' && name !== 'sp/x') readable = false;
    } else if (shape === 'many-members') {
      const one = new Uint8Array([7]);
      for (let i = 0; i < many; i++) member(`sp/extra/${i}`, one);
      label = `${many} distinct one-byte members ${where} the savepoint files`;
    }
  };
  const before = rnd.int(2) === 0;
  if (before) planted('before');
  for (const f of order) member(`sp/${f.path}`, f.bytes);
  if (!before) planted('after');
  push(new Uint8Array(1024));
  let bytes = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  if (shape === 'bad-header') {
    const h = headerOffsets[rnd.int(headerOffsets.length)]!;
    const k = rnd.int(512);
    bytes[h + k] = (bytes[h + k]! + 1 + rnd.int(255)) & 0xff;
    label = `byte ${k} of the header at ${h} changed`;
    readable = false;
  } else if (shape === 'huge-size') {
    const h = headerOffsets[rnd.int(headerOffsets.length)]!;
    const huge = [2 ** 53 - 1, 2 ** 53 - 1 - rnd.int(1 << 20), 2 ** 40, 0o77777777777][rnd.int(4)]!;
    const name = new TextDecoder().decode(bytes.subarray(h, h + 100)).replace(/\0.*$/s, '');
    const type = String.fromCharCode(bytes[h + 156]!);
    bytes.set(header(name, 0, type, huge > 0o77777777777 ? huge : undefined), h);
    if (huge <= 0o77777777777) bytes.set(header(name, huge, type), h);
    label = `the header at ${h} (${name}) declares ${huge} bytes`;
    readable = false;
  } else if (shape === 'cut') {
    const cut = rnd.int(bytes.length);
    bytes = bytes.subarray(0, cut);
    label = `cut at ${cut} of ${length}`;
    readable = false;
  }
  const gzip = rnd.int(3) === 0;
  if (gzip) bytes = gzipSync(bytes, { level: 1 });
  return { bytes, label: `${label}${gzip ? ', gzipped' : ''}`, readable };
}
