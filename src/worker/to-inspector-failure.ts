import { isDecodeError } from '../core/io';
import type { InspectorFailure } from './inspector';

/**
 * Turns anything thrown into failure data that survives the worker boundary unchanged: a
 * DecodeError keeps its code, file, offset and path; anything else is an internal error (our bug).
 */
export function toInspectorFailure(e: unknown): InspectorFailure {
  if (isInspectorFailure(e)) return e;
  if (isDecodeError(e)) {
    if (e.code === 'cancelled') return { kind: 'cancelled', message: e.message };
    return { kind: 'decode', ...e.toJSON() };
  }
  if (e instanceof Error) {
    return { kind: 'internal', name: e.name, message: e.message, ...(e.stack === undefined ? {} : { stack: e.stack }) };
  }
  return { kind: 'internal', name: 'Error', message: String(e) };
}

export function isInspectorFailure(e: unknown): e is InspectorFailure {
  if (typeof e !== 'object' || e === null) return false;
  const kind = (e as { kind?: unknown }).kind;
  const message = (e as { message?: unknown }).message;
  return (
    typeof message === 'string' && (kind === 'decode' || kind === 'internal' || kind === 'cancelled' || kind === 'unavailable')
  );
}
