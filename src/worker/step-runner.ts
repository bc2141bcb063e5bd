import type { CancelSignal } from '../core/flink';
import { Cancellation } from './cancellation';
import type { InspectorPhase, ProgressListener } from './inspector';
import type { ReadingStep } from './track-source-reads';

export type SetPhase = (phase: InspectorPhase, bytesTotal: number) => void;

/**
 * Reads are reported at most this often (the last one when the interval ends): each report crosses to
 * the page and re-renders its progress bar, and a scan reads 1 MiB windows, ~1,000 per GiB (measured:
 * ~0.4 CPU s of the page's threads per GiB scanned, on the same cores the scan runs on).
 */
export const PROGRESS_INTERVAL_MS = 100;

/**
 * Runs the Inspector's long steps side by side (the UI runs independent queries at once), each with
 * its own cancellation and byte counter: the body wraps the sources it reads with its `step`
 * (trackSourceReads / trackSavepointReads), so reads count as progress of that step's current
 * phase only, reported at most every PROGRESS_INTERVAL_MS. `cancelAll` cancels every running step.
 */
export class StepRunner {
  private readonly running = new Set<ReadingStep>();

  async run<T>(
    firstPhase: InspectorPhase,
    onProgress: ProgressListener | undefined,
    body: (cancel: Cancellation, phase: SetPhase, bytesRead: () => number, step: ReadingStep) => Promise<T>,
  ): Promise<T> {
    const cancel = new Cancellation();
    let current = { phase: firstPhase, bytesRead: 0, bytesTotal: 0 };
    let stepBytes = 0;
    let active = true;
    let sentAt = -Infinity;
    let detail = '';
    let due: ReturnType<typeof setTimeout> | undefined;
    const report = () => {
      due = undefined;
      sentAt = Date.now();
      onProgress?.({ ...current, detail });
    };
    const step: ReadingStep = {
      cancel,
      onRead: (bytes, source) => {
        current.bytesRead += bytes;
        stepBytes += bytes;
        if (onProgress === undefined) return;
        detail = source;
        const wait = sentAt + PROGRESS_INTERVAL_MS - Date.now();
        if (wait <= 0) {
          if (due !== undefined) clearTimeout(due);
          report();
        } else due ??= setTimeout(report, wait);
      },
      get active() {
        return active;
      },
    };
    this.running.add(step);
    try {
      return await body(
        cancel,
        (phase, bytesTotal) => {
          if (due !== undefined) clearTimeout(due);
          due = undefined;
          current = { phase, bytesRead: 0, bytesTotal };
          onProgress?.({ ...current });
        },
        () => stepBytes,
        step,
      );
    } finally {
      // no report after the step: the page has cleared its progress by then
      if (due !== undefined) clearTimeout(due);
      active = false;
      this.running.delete(step);
    }
  }

  cancelAll(): void {
    for (const step of this.running) step.cancel.cancel();
  }
}

/** The core's cancel signal over a step's cancellation. */
export function signalOf(cancel: Cancellation): CancelSignal {
  return {
    get aborted() {
      return cancel.isCancelled;
    },
  };
}
