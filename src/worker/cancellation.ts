import { DecodeError } from '../core/io';

/** A cancellation flag for the running long step; `check()` throws a `cancelled` DecodeError once set. */
export class Cancellation {
  private cancelled = false;

  cancel(): void {
    this.cancelled = true;
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  check(): void {
    if (this.cancelled) {
      throw new DecodeError({ code: 'cancelled', detail: 'cancelled by the user' });
    }
  }
}
