import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSchemaDiff, describeNewDeclaration, loadDescriptorSet, type SchemaDiff } from '../../src/core/compat';
import { evaluateSchemaChange } from '../../src/core/compat/rules/evaluate-schema-change';

const CASE = path.resolve(process.cwd(), 'fixtures/schema-changes/field-added');
const load = (file: string) => loadDescriptorSet(new Uint8Array(readFileSync(path.join(CASE, file))), file).set;
const ORDER = 'fixtures.change.Order';

/** The schema diff of the field-added case (Order gains `string added = 10`), as a report carries it. */
function fieldAddedDiff(): SchemaDiff {
  return buildSchemaDiff(evaluateSchemaChange(load('old.binpb'), ORDER, load('new.binpb'), ORDER));
}

/** The diff with the new side of Order's field `key` replaced. */
function withNewField(diff: SchemaDiff, key: string, summary: Record<string, string>): SchemaDiff {
  const copy = structuredClone(diff);
  copy.declarations.find((d) => d.savedName === ORDER)!.rows.find((r) => r.kind === 'field' && r.key === key)!.new = summary;
  return copy;
}

describe('describeNewDeclaration: what the new schema makes of an unknown field number', () => {
  const diff = fieldAddedDiff();

  it('reads it as the declared field when the type accepts the wire type, else it stays unknown', () => {
    expect(describeNewDeclaration(diff, ORDER, 10, 2)).toEqual({ kind: 'read-as', name: 'added', type: 'STRING' });
    expect(describeNewDeclaration(diff, ORDER, 10, 0)).toEqual({ kind: 'wire-type-mismatch', name: 'added', type: 'STRING' });
    expect(describeNewDeclaration(diff, ORDER, 1, 0)).toEqual({ kind: 'read-as', name: 'id', type: 'INT32' });
    expect(describeNewDeclaration(diff, ORDER, 1, 5)).toEqual({ kind: 'wire-type-mismatch', name: 'id', type: 'INT32' });
    expect(describeNewDeclaration(diff, ORDER, 3, 0)).toEqual({ kind: 'read-as', name: 'status', type: 'ENUM fixtures.change.Status' });
    expect(describeNewDeclaration(diff, ORDER, 4, 2)).toEqual({ kind: 'read-as', name: 'item', type: 'MESSAGE fixtures.change.Item' });
    expect(describeNewDeclaration(diff, ORDER, 5, 2)).toEqual({ kind: 'read-as', name: 'tags', type: 'STRING', label: 'repeated' });
    expect(describeNewDeclaration(diff, ORDER, 8, 0)).toEqual({ kind: 'read-as', name: 'priority', type: 'INT32', label: 'optional' });
  });

  it('a repeated scalar also takes the packed (length-delimited) form; fixed widths take only theirs', () => {
    expect(describeNewDeclaration(withNewField(diff, '5', { number: '5', name: 'scores', type: 'SINT64', label: 'repeated' }), ORDER, 5, 2)).toMatchObject({
      kind: 'read-as',
    });
    expect(describeNewDeclaration(withNewField(diff, '1', { number: '1', name: 'id', type: 'FIXED64', label: 'singular' }), ORDER, 1, 1)).toMatchObject({
      kind: 'read-as',
    });
    expect(describeNewDeclaration(withNewField(diff, '1', { number: '1', name: 'id', type: 'FIXED64', label: 'singular' }), ORDER, 1, 5)).toMatchObject({
      kind: 'wire-type-mismatch',
    });
    expect(describeNewDeclaration(withNewField(diff, '1', { number: '1', name: 'id', type: 'FLOAT', label: 'singular' }), ORDER, 1, 5)).toMatchObject({
      kind: 'read-as',
    });
  });

  it('says when the number is not declared, the message is not reached, or the type is one protobuf does not define', () => {
    expect(describeNewDeclaration(diff, ORDER, 11, 0)).toEqual({ kind: 'undeclared' });
    expect(describeNewDeclaration(diff, 'fixtures.change.Unrelated', 1, 0)).toEqual({ kind: 'unknown-message' });
    expect(describeNewDeclaration(undefined, ORDER, 1, 0)).toEqual({ kind: 'unknown-message' });
    expect(describeNewDeclaration(withNewField(diff, '1', { number: '1', name: 'id', type: 'type 99', label: 'singular' }), ORDER, 1, 0)).toEqual({
      kind: 'declared',
      name: 'id',
      type: 'type 99',
    });
  });
});
