import { describe, expect, it } from 'vitest';
import { freshSessionChoices, withoutSessionParams } from './end-session';

describe('withoutSessionParams', () => {
  it("drops the session's parameters (?demo, ?target, ?savepoint) and keeps the page's", () => {
    expect(withoutSessionParams('?demo&target=1.x')).toBe('');
    expect(withoutSessionParams('?savepoint=http%3A%2F%2F127.0.0.1%3A9%2Fsp%2F&target=0.x')).toBe('');
    expect(withoutSessionParams('?nodemo&demo')).toBe('?nodemo');
    expect(withoutSessionParams('')).toBe('');
  });
});

describe('freshSessionChoices', () => {
  it('asks for the target again and keeps no setting, root, sample or value scan of the last session', () => {
    expect(freshSessionChoices()).toEqual({
      checkOptions: { target: '1.x', newSettings: {} },
      targetChosen: false,
      sample: null,
      valueCheckFor: null,
      operatorFilter: '',
    });
  });
});
