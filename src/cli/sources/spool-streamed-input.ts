/**
 * An input that can only be read once, front to back — stdin named `-` (`inspect - < sp.zip`,
 * `cat new.binpb | check sp --descriptors -`) or a FIFO (`--descriptors <(buf build -o -)`) — is spooled to a
 * temporary file first: the readers take a savepoint, an archive or a jar by range (a zip's directory is
 * at its end), so it is streamed, a chunk at a time (memory stays at the stream's buffer), into
 * `<tmp>/savepoint-inspector-XXXXXX/<stdin | the FIFO's name>`, which the command reads as it would any file
 * and removes when it ends. A FIFO is opened without waiting for a writer: one that nobody holds open for
 * writing when the command starts (an ordinary FIFO before its writer came) reads as empty, which is refused
 * at once, as is an empty stdin. `limit`: more bytes than this stop the spool (the reader then refuses
 * the file by its size, as it refuses a large file).
 */
import { closeSync, constants, createWriteStream, openSync, readSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { wrongInput } from '../../core/io';

export interface SpooledInput {
  /** the temporary file holding what was read */
  path: string;
  /** removes the temporary file and its folder */
  remove(): Promise<void>;
}

/** Whether `arg` names a streamed input: `-`, or a path that is a FIFO (a URL or a missing path is not). */
export async function isStreamedInput(arg: string): Promise<boolean> {
  if (arg === '-') return true;
  if (/^https?:\/\//i.test(arg)) return false;
  const info = await stat(arg).catch(() => undefined);
  return info?.isFIFO() === true;
}

/** Spools `-` (from `stdin()`) or the FIFO `arg` into a temporary file. */
export async function spoolStreamedInput(arg: string, stdin: (() => Readable) | undefined, limit = Infinity): Promise<SpooledInput> {
  const what = arg === '-' ? 'stdin (-)' : `the FIFO (named pipe) ${arg}`;
  const source = arg === '-' ? openStdin(stdin) : openFifo(arg);
  const dir = await mkdtemp(path.join(tmpdir(), 'savepoint-inspector-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  const file = path.join(dir, arg === '-' ? 'stdin' : path.basename(arg));
  let bytes = 0;
  try {
    await pipeline(
      source,
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          if (bytes + chunk.length > limit) {
            // past the limit: one byte more than it is kept, so that the reader refuses the file by its size
            yield chunk.subarray(0, limit + 1 - bytes);
            bytes = limit + 1;
            return;
          }
          bytes += chunk.length;
          yield chunk;
        }
      },
      createWriteStream(file),
    );
    if (bytes === 0)
      throw wrongInput(
        'bad-path',
        `expected data on ${what}, found none${arg === '-' ? '' : ': nothing held it open for writing when the command started, or its writer wrote nothing'}`,
      );
    return { path: file, remove };
  } catch (e) {
    source.destroy();
    await remove();
    throw e;
  }
}

function openStdin(stdin: (() => Readable) | undefined): Readable {
  if (stdin === undefined) throw wrongInput('bad-path', '- reads stdin, which this caller does not give');
  const stream = stdin();
  if ((stream as { isTTY?: boolean }).isTTY === true)
    throw wrongInput(
      'bad-path',
      'expected a savepoint or a file piped or redirected into stdin (-), found a terminal: e.g. savepoint-inspector inspect - < savepoint.zip',
    );
  return stream;
}

/**
 * The FIFO's bytes as a stream, without waiting for a writer: opened non-blocking, read once at once — no
 * writer reads as the end (nothing); a writer with nothing written yet as EAGAIN — then read through a
 * socket over its descriptor, which waits for data as a pipe does.
 */
function openFifo(file: string): Readable {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  const first = Buffer.alloc(64 * 1024);
  let got: number;
  try {
    got = readSync(fd, first, 0, first.length, null);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') {
      closeSync(fd);
      throw e;
    }
    got = -1;
  }
  if (got === 0) {
    closeSync(fd);
    return Readable.from([]);
  }
  const socket = new Socket({ fd, readable: true, writable: false });
  const head = got > 0 ? first.subarray(0, got) : undefined;
  return Readable.from(
    (async function* () {
      try {
        if (head !== undefined) yield head;
        for await (const chunk of socket) yield chunk as Buffer;
      } finally {
        socket.destroy();
      }
    })(),
  );
}
