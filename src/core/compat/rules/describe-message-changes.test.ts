/** describeMessageChanges with option declarations: custom options by name, by number without one, and never equal when only their bytes differ. */
import { create } from '@bufbuild/protobuf';
import { FieldOptionsSchema, FileDescriptorSetSchema, file_google_protobuf_descriptor } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { describeMessageChanges } from './describe-message-changes';
import { createOptionExtensionFinder } from './find-option-extension';

// extend google.protobuf.FieldOptions { repeated int32 codes = 50000; string label = 50001; }
const set = create(FileDescriptorSetSchema, {
  file: [
    file_google_protobuf_descriptor.proto,
    {
      name: 'opts.proto',
      package: 'opts',
      dependency: ['google/protobuf/descriptor.proto'],
      syntax: 'proto3',
      extension: [
        { name: 'codes', number: 50000, label: 3, type: 5, extendee: '.google.protobuf.FieldOptions' },
        { name: 'label', number: 50001, label: 1, type: 9, extendee: '.google.protobuf.FieldOptions' },
      ],
    },
  ],
});
const finders = { saved: createOptionExtensionFinder(set), next: createOptionExtensionFinder(set) };
const options = (...unknown: { no: number; wireType: number; data: number[] }[]) => {
  const o = create(FieldOptionsSchema);
  o.$unknown = unknown.map((u) => ({ no: u.no, wireType: u.wireType as 0 | 2, data: new Uint8Array(u.data) }));
  return o;
};

describe('describeMessageChanges of custom options', () => {
  it('names them after their declaration, or numbers them (content without the length prefix) without one', () => {
    const a = options({ no: 50001, wireType: 2, data: [2, 0x61, 0x62] });
    const b = options({ no: 50001, wireType: 2, data: [3, 0x61, 0x62, 0x63] });
    expect(describeMessageChanges(FieldOptionsSchema, a, b, finders)).toBe('(opts.label): "ab" → "abc"');
    expect(describeMessageChanges(FieldOptionsSchema, a, b)).toBe('#50001: wire 2 0x6162 → wire 2 0x616263');
  });

  it('shows by number options whose bytes differ while they read alike by name (packed and unpacked codes 1, 2)', () => {
    const packed = options({ no: 50000, wireType: 2, data: [2, 1, 2] });
    const unpacked = options({ no: 50000, wireType: 0, data: [1] }, { no: 50000, wireType: 0, data: [2] });
    expect(describeMessageChanges(FieldOptionsSchema, packed, unpacked, finders)).toBe('#50000: wire 2 0x0102 → wire 0 0x01, wire 0 0x02');
  });
});
