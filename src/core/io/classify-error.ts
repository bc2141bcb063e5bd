/**
 * The error family, by who must act:
 * - `input`: the user's input is wrong — a DecodeError (bytes: not recognised, corrupt, missing,
 *   over a limit) or a UsageError (not about bytes: nothing open, a bad URL, a name that matches
 *   nothing). The message says what was expected and what was found; the user can fix it.
 * - `network`: a remote file could not be fetched (DecodeError code `network`): offline, CORS, a
 *   server without range support or an error status. The message names what the server must send.
 * - `cancelled`: the user cancelled the step (DecodeError code `cancelled`).
 * - `internal`: anything else, a bug of the inspector (a broken invariant); reported with its stack.
 */
import { isDecodeError } from './decode-error';
import { isUsageError } from './usage-error';

export type ErrorKind = 'input' | 'network' | 'cancelled' | 'internal';

export function classifyError(e: unknown): ErrorKind {
  if (isDecodeError(e)) return e.code === 'cancelled' ? 'cancelled' : e.code === 'network' ? 'network' : 'input';
  if (isUsageError(e)) return 'input';
  return 'internal';
}
