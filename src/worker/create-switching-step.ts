import type { ReadingStep } from './track-source-reads';

/**
 * A ReadingStep that stands for whichever step is `current`: sources wrapped with it once (e.g.
 * subtask streams cached across page reads, which run one at a time) count and cancel for the step
 * running now, and for none between steps.
 */
export interface SwitchingStep extends ReadingStep {
  current: ReadingStep | null;
}

export function createSwitchingStep(): SwitchingStep {
  const self: SwitchingStep = {
    current: null,
    get cancel() {
      if (self.current === null) throw new Error('no step is reading');
      return self.current.cancel;
    },
    onRead(bytes, source) {
      self.current?.onRead(bytes, source);
    },
    get active() {
      return self.current?.active === true;
    },
  };
  return self;
}
