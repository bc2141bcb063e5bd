import type { ReadingStep } from './track-source-reads';

/**
 * A ReadingStep that stands for the step running now: sources wrapped with it once (e.g. subtask
 * streams cached across page reads, which run one at a time) count and cancel for the step given to
 * `during` while its work runs, and for none between steps. Which step that is lives inside the
 * object: no caller sets or clears it.
 */
export interface SwitchingStep extends ReadingStep {
  /** Runs `work` with `step` as the reading step (work of one step at a time: refused while another runs). */
  during<T>(step: ReadingStep, work: () => Promise<T>): Promise<T>;
}

export function createSwitchingStep(): SwitchingStep {
  let current: ReadingStep | null = null;
  return {
    get cancel() {
      if (current === null) throw new Error('no step is reading');
      return current.cancel;
    },
    onRead(bytes, source) {
      current?.onRead(bytes, source);
    },
    get active() {
      return current?.active === true;
    },
    async during(step, work) {
      if (current !== null) throw new Error('a step is reading already');
      current = step;
      try {
        return await work();
      } finally {
        current = null;
      }
    },
  };
}
