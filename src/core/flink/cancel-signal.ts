import { DecodeError } from '../io';

/** The part of an AbortSignal the core needs (the core has no DOM types). */
export interface CancelSignal {
  readonly aborted: boolean;
}

export function throwIfCancelled(signal: CancelSignal | undefined): void {
  if (signal?.aborted) throw new DecodeError({ code: 'cancelled', detail: 'reading state entries was cancelled' });
}
