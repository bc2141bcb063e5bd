import { classifyError, DecodeError, isDecodeError, type UsageError } from '../core/io';
import type { InspectorFailure, InspectorFailureKind } from './inspector';

/**
 * Turns anything thrown into failure data that survives the worker boundary unchanged, with its
 * kind (core/io classifyError): a DecodeError keeps its code, file, offset and path (kind `input`,
 * or `network` for code `network`), a UsageError its code (kind `input`); anything else is an
 * internal error (our bug), with its stack.
 */
export function toInspectorFailure(e: unknown): InspectorFailure {
  if (isInspectorFailure(e)) return e;
  switch (classifyError(e)) {
    case 'cancelled':
      return { kind: 'cancelled', message: (e as DecodeError).message };
    case 'network':
      return { kind: 'network', ...(e as DecodeError).toJSON() };
    case 'input':
      return { kind: 'input', ...(isDecodeError(e) ? e.toJSON() : (e as UsageError).toJSON()) };
    case 'internal':
      if (e instanceof Error) {
        return { kind: 'internal', name: e.name, message: e.message, ...(e.stack === undefined ? {} : { stack: e.stack }) };
      }
      return { kind: 'internal', name: 'Error', message: String(e) };
  }
}

/** A request for `url` that failed before any response (offline, server stopped, CORS): a `network` failure whose message says what was expected and what happened. */
export function networkFailure(url: string, detail: string, cause?: unknown): InspectorFailure {
  return toInspectorFailure(new DecodeError({ code: 'network', file: url, detail, ...(cause === undefined ? {} : { cause }) }));
}

const KINDS: readonly InspectorFailureKind[] = ['input', 'network', 'internal', 'cancelled', 'unavailable'];

function isInspectorFailure(e: unknown): e is InspectorFailure {
  if (typeof e !== 'object' || e === null) return false;
  const kind = (e as { kind?: unknown }).kind;
  const message = (e as { message?: unknown }).message;
  return typeof message === 'string' && (KINDS as readonly unknown[]).includes(kind);
}
