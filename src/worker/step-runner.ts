import type { CancelSignal } from '../core/flink';
import { Cancellation } from './cancellation';
import type { InspectorPhase, ProgressListener } from './inspector';
import type { ReadingStep } from './track-source-reads';

export type SetPhase = (phase: InspectorPhase, bytesTotal: number) => void;

/**
 * Runs the Inspector's long steps side by side (the UI runs independent queries at once), each with
 * its own cancellation and byte counter: the body wraps the sources it reads with its `step`
 * (trackSourceReads / trackSavepointReads), so reads count as progress of that step's current
 * phase only. `cancelAll` cancels every running step.
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
    const step: ReadingStep = {
      cancel,
      onRead: (bytes, source) => {
        current.bytesRead += bytes;
        stepBytes += bytes;
        onProgress?.({ ...current, detail: source });
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
          current = { phase, bytesRead: 0, bytesTotal };
          onProgress?.({ ...current });
        },
        () => stepBytes,
        step,
      );
    } finally {
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
