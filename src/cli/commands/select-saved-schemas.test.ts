/** selectSavedSchemas over synthetic lists: the operator as dump finds it, narrowing by role and root, one schema or several. */
import { describe, expect, it } from 'vitest';
import type { SavedSchema } from '../../core/compat';
import { computeOperatorId } from '../../core/flink';
import { selectSavedSchemas } from './select-saved-schemas';

const KEYED = computeOperatorId('keyed-by-proto');
const schema = (state: string, role: string, root: string, sha: string, uid?: string): SavedSchema => ({
  operatorId: KEYED,
  ...(uid ? { operatorUid: uid } : {}),
  state,
  role,
  rootFullName: root,
  javaClass: `x.${root}`,
  snapshotClass: 'snapshot',
  settings: { deterministicSerialization: false, maxMessageSize: 67_108_864, recursionLimit: 100 },
  descriptorBytes: new Uint8Array([0x0a]),
  descriptorSha256: sha.repeat(64),
});
// a keyed state whose key and value are Protobuf messages from different files, and a map state of two message types
const ALL = [
  schema('v', 'KEY_SERIALIZER', 'p.Key', 'a'),
  schema('v', 'VALUE_SERIALIZER', 'p.Value', 'b'),
  schema('m', 'KEY_SERIALIZER', 'p.Key', 'a'),
  schema('m', 'VALUE_SERIALIZER/0', 'p.Key', 'a'),
  schema('m', 'VALUE_SERIALIZER/1', 'p.Other', 'c'),
];

describe('selectSavedSchemas', () => {
  it('finds the operator by id in any case and by a uid the savepoint does not store', () => {
    for (const operator of [KEYED, KEYED.toUpperCase(), 'keyed-by-proto']) {
      const r = selectSavedSchemas(ALL, { operator, state: 'v', role: 'VALUE_SERIALIZER' });
      expect(r.kind === 'one' && r.schema.rootFullName, operator).toBe('p.Value');
    }
    expect(selectSavedSchemas(ALL, { operator: 'another-uid' }).kind).toBe('none');
  });

  it('a state with a Protobuf key and value holds two schemas; its role or root names one', () => {
    const both = selectSavedSchemas(ALL, { state: 'v' });
    expect(both.kind === 'several' && [both.schemas, both.states.length]).toEqual([2, 2]);
    const key = selectSavedSchemas(ALL, { state: 'v', role: 'KEY_SERIALIZER' });
    expect(key.kind === 'one' && key.schema.descriptorSha256).toBe('a'.repeat(64));
    const byRoot = selectSavedSchemas(ALL, { root: 'p.Key' });
    // the key type in three places, one schema: all three states are named
    expect(byRoot.kind === 'one' && byRoot.states.map((s) => `${s.state} ${s.role}`)).toEqual(['v KEY_SERIALIZER', 'm KEY_SERIALIZER', 'm VALUE_SERIALIZER/0']);
    expect(selectSavedSchemas(ALL, { state: 'm', role: 'VALUE_SERIALIZER/1' }).kind).toBe('one');
    expect(selectSavedSchemas(ALL, { state: 'm', role: 'VALUE_SERIALIZER' }).kind).toBe('none');
  });
});
