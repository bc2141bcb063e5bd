/** haveSameContent: the fast "equal" answer in front of describeMessageChanges must never hide a difference. */
import { create } from '@bufbuild/protobuf';
import { FieldOptionsSchema, MessageOptionsSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { describeMessageChanges } from './describe-message-changes';
import { haveSameContent } from './have-same-content';

describe('haveSameContent', () => {
  it('is true for equal content in different objects, and then describeMessageChanges reports nothing', () => {
    const a = create(FieldOptionsSchema, { deprecated: true, packed: false });
    const b = create(FieldOptionsSchema, { deprecated: true, packed: false });
    expect(haveSameContent(a, b)).toBe(true);
    expect(describeMessageChanges(FieldOptionsSchema, a, b)).toBeUndefined();
    expect(haveSameContent(undefined, undefined)).toBe(true);
  });

  it('is false for a value, a presence, a list, bytes or an unknown field that differs', () => {
    const base = (): ReturnType<typeof create<typeof FieldOptionsSchema>> => create(FieldOptionsSchema, { deprecated: true });
    expect(haveSameContent(base(), create(FieldOptionsSchema, { deprecated: false }))).toBe(false);
    // set to its default on one side only: not the same content (proto2 presence)
    expect(haveSameContent(create(FieldOptionsSchema, {}), create(FieldOptionsSchema, { deprecated: false }))).toBe(false);
    const withUnknown = base();
    withUnknown.$unknown = [{ no: 50000, wireType: 2, data: new Uint8Array([1]) }];
    const otherUnknown = base();
    otherUnknown.$unknown = [{ no: 50000, wireType: 2, data: new Uint8Array([2]) }];
    expect(haveSameContent(withUnknown, otherUnknown)).toBe(false);
    expect(describeMessageChanges(FieldOptionsSchema, withUnknown, otherUnknown)).toBe('#50000: wire 2 0x01 → wire 2 0x02');
    expect(haveSameContent([1, 2], [1, 2, 3])).toBe(false);
    expect(haveSameContent(new Uint8Array([1]), [1])).toBe(false);
    expect(haveSameContent(base(), undefined)).toBe(false);
  });

  it('answers false (compare the slow way) for NaN, different message types and nesting past its limit', () => {
    expect(haveSameContent({ x: NaN }, { x: NaN })).toBe(false);
    expect(haveSameContent(create(FieldOptionsSchema, {}), create(MessageOptionsSchema, {}))).toBe(false);
    let deepA: unknown = 1;
    let deepB: unknown = 1;
    for (let i = 0; i < 150; i++) {
      deepA = { v: deepA };
      deepB = { v: deepB };
    }
    expect(haveSameContent(deepA, deepB)).toBe(false);
  });
});
