import { describe, expect, it } from 'vitest';
import { classifyError, DecodeError, UsageError, wrongInput } from './index';
import { isUsageError } from './usage-error';

describe('classifyError: who must act on an error', () => {
  it('input for DecodeErrors and UsageErrors, network and cancelled by code, internal for anything else', () => {
    expect(classifyError(new DecodeError({ code: 'not-recognised', detail: 'x' }))).toBe('input');
    expect(classifyError(new DecodeError({ code: 'missing-file', detail: 'x' }))).toBe('input');
    expect(classifyError(new DecodeError({ code: 'network', detail: 'x' }))).toBe('network');
    expect(classifyError(new DecodeError({ code: 'cancelled', detail: 'x' }))).toBe('cancelled');
    expect(classifyError(wrongInput('nothing-open', 'nothing is open'))).toBe('input');
    expect(classifyError(new Error('broken invariant'))).toBe('internal');
    expect(classifyError(new RangeError('x'))).toBe('internal');
    expect(classifyError('a string')).toBe('internal');
  });

  it('recognises a UsageError by its flag, as after a worker-thread boundary', () => {
    const e = wrongInput('bad-url', 'expected an http(s) URL, found x');
    expect(e).toBeInstanceOf(UsageError);
    expect([e.name, e.code, e.message, e.detail]).toEqual(['UsageError', 'bad-url', 'expected an http(s) URL, found x', 'expected an http(s) URL, found x']);
    expect(e.toJSON()).toEqual({
      name: 'UsageError',
      code: 'bad-url',
      message: 'expected an http(s) URL, found x',
      detail: 'expected an http(s) URL, found x',
      path: [],
    });
    const copied = { ...e, message: e.message };
    expect(isUsageError(copied)).toBe(true);
    expect(classifyError(copied)).toBe('input');
  });
});
