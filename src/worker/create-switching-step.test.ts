import { describe, expect, it } from 'vitest';
import { createSwitchingStep } from './create-switching-step';
import type { ReadingStep } from './track-source-reads';

function step(): ReadingStep & { reads: number } {
  const s = { cancel: {} as ReadingStep['cancel'], reads: 0, active: true, onRead: (bytes: number) => void (s.reads += bytes) };
  return s;
}

describe('createSwitchingStep', () => {
  it('counts and cancels for the step given to `during` while its work runs, and for none before or after', async () => {
    const reader = createSwitchingStep();
    const a = step();
    const b = step();
    reader.onRead(5, 'f');
    expect(reader.active).toBe(false);
    expect(() => reader.cancel).toThrow('no step is reading');
    const got = await reader.during(a, async () => {
      reader.onRead(3, 'f');
      expect(reader.active).toBe(true);
      expect(reader.cancel).toBe(a.cancel);
      return 'page';
    });
    expect(got).toBe('page');
    await expect(reader.during(b, () => Promise.reject(new Error('failed read')))).rejects.toThrow('failed read');
    reader.onRead(7, 'f');
    expect([a.reads, b.reads, reader.active]).toEqual([3, 0, false]);
  });

  it('refuses a second step while one is reading (page reads run one at a time)', async () => {
    const reader = createSwitchingStep();
    let release!: () => void;
    const first = reader.during(step(), () => new Promise<void>((r) => (release = r)));
    await expect(reader.during(step(), async () => undefined)).rejects.toThrow('a step is reading already');
    release();
    await first;
  });
});
