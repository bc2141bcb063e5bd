import { describe, expect, it } from 'vitest';
import { KRYO_VALUES_NEED_SAVED_SCHEMA } from '../../worker';
import { describeValuesNotRead } from './describe-values-not-read';

describe('describeValuesNotRead', () => {
  it('says Kryo-held values are not checked for want of a saved schema, and that the Values view decodes them, without CLI flags', () => {
    const d = describeValuesNotRead(KRYO_VALUES_NEED_SAVED_SCHEMA);
    expect(d.label).toBe('values not checked: no saved schema (Kryo)');
    expect(d.sentence).toContain('a Kryo snapshot keeps no saved schema, so no value warning was checked for this state');
    expect(d.sentence).toContain('The Values view decodes them with the new schema');
    expect(d.sentence).not.toContain('--');
  });

  it('says any other reason as the report gives it', () => {
    expect(describeValuesNotRead('expected state file "x" next to _metadata in sp, found no such file')).toEqual({
      label: 'values not read',
      sentence: 'Values not read: expected state file "x" next to _metadata in sp, found no such file. No value warning was checked for this state.',
    });
  });
});
