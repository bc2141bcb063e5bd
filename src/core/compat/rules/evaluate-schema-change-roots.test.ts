import { create } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { decodeErrorOf } from '../../../../tests/helpers/decode-error-of';
import { evaluateSchemaChange } from './evaluate-schema-change';

const SET = create(FileDescriptorSetSchema, { file: [{ name: 'a.proto', package: 'x', syntax: 'proto3', messageType: [{ name: 'A' }] }] });

describe('evaluateSchemaChange: roots that the sets lack', () => {
  it('is a DecodeError naming the missing message, never a plain Error (found by the mutation suite)', () => {
    const saved = decodeErrorOf(() => evaluateSchemaChange(SET, 'x.Missing', SET, 'x.A'));
    expect([saved.code, saved.message]).toEqual(['invalid-value', 'The saved descriptor set has no message x.Missing — at [saved descriptor set]']);
    const next = decodeErrorOf(() => evaluateSchemaChange(SET, 'x.A', SET, 'x.Gone'));
    expect([next.code, next.message]).toEqual(['invalid-value', 'The new descriptor set has no message x.Gone — at [new descriptor set]']);
  });
});
