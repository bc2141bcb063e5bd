import { isDecodeError, type DecodeError } from '../../src/core/io';

/** The DecodeError `fn` throws; any other exception is rethrown, and no exception fails the test. */
export function decodeErrorOf(fn: () => unknown): DecodeError {
  try {
    fn();
  } catch (e) {
    if (isDecodeError(e)) return e;
    throw e;
  }
  throw new Error('expected a DecodeError, none was thrown');
}

/** The DecodeError `run` rejects with (async twin of decodeErrorOf). */
export async function decodeErrorOfAsync(run: () => unknown): Promise<DecodeError> {
  try {
    await run();
  } catch (e) {
    if (isDecodeError(e)) return e;
    throw e;
  }
  throw new Error('expected a DecodeError, none was thrown');
}
