import { describe, expect, it } from 'vitest';
import { computeMurmur3x64128, computeOperatorId, encodeJavaUtf8 } from './compute-operator-id';

describe('computeOperatorId (Guava murmur3_128, seed 0, asBytes order)', () => {
  it('gives the ids of known uids and the README uids (all ids occur in the test savepoints)', () => {
    const expected: Record<string, string> = {
      second: '6730ef7375fb60f9d9bbdfdfd174d803',
      first: 'adf090656b210b1609ad3203d4ee7329',
      window: '01203aa9a12dc1ec725e03853dd7c8f2',
      third: '013ef814c76e319e5fe9a82a3ba14933',
      CheckpointingSource1: '69f32d314b97c6f7f9ed7873983167f2',
      CheckpointingSource2: '1f2b5df5a66154aca61fcb26193792be',
      CheckpointingKeyedStateFlatMap1: 'd5c8b168c6cbfe8c507a10f88b325243',
      CheckpointingKeyedStateFlatMap2: 'dab25811652d3d4983a30c6e4afacb1c',
      CheckpointingTimelyStatefulOperator1: '4b818c7923a927796d24b727201ba34d',
      CheckpointingTimelyStatefulOperator2: '41e91aae0bee218c44306cf7d21940ad',
      BrCheckpointingSource1: '81afaf64abeedc40a0f29989b81a3659',
      BrCheckpointingSource2: '63dd9c79b328282531c0a8c5cb466735',
      BrProcess1: '12d7d939fd56473cac7cff0603179a41',
      BrProcess2: '56a26c4c54bda3adf3700194db4afe93',
      'keyed-state-process-uid': '928f3b38bde6af749ed4cb45aa1237db',
    };
    for (const [uid, id] of Object.entries(expected)) expect(computeOperatorId(uid), uid).toBe(id);
  });

  // Computed with Guava 33.3.1 Hashing.murmur3_128(0).newHasher().putString(uid, UTF_8).hash().asBytes()
  it('matches Guava for empty, tail-only, exactly one block, block + tail, many blocks and non-ASCII uids', () => {
    expect(computeOperatorId('')).toBe('00000000000000000000000000000000');
    expect(computeOperatorId('a')).toBe('897859f6655555855a890e51483ab5e6');
    expect(computeOperatorId('0123456789abcdef')).toBe('a7d14acf946de04bda08a7635c5bc387');
    expect(computeOperatorId('0123456789abcdefg')).toBe('def945aa2d61328eee72c306c2f40008');
    expect(computeOperatorId('x'.repeat(100))).toBe('e26a598802e50404c37caf2e4057afde');
    expect(computeOperatorId('größe-zähler')).toBe('189a0529f3b7c3095ba1c10a52593372');
    expect(computeOperatorId('订单-状态-operator-uid-长名字')).toBe('a33169ae227f6256fbd6e7f14e652e98');
    expect(computeOperatorId('emoji-😀-uid')).toBe('31280a6270291f5fdd765986d5c300c8');
  });

  it('returns h1 and h2 as unsigned 64-bit values (h1 little-endian first in the id)', () => {
    const [h1, h2] = computeMurmur3x64128(encodeJavaUtf8('second'));
    expect(h1).toBe(0xf960fb7573ef3067n);
    expect(h2).toBe(0x03d874d1dfdfbbd9n);
  });

  it('encodes like Java String.getBytes(UTF_8): surrogate pairs as 4 bytes, a lone surrogate as "?"', () => {
    expect([...encodeJavaUtf8('é😀')]).toEqual([0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80]);
    expect([...encodeJavaUtf8('a\ud800b')]).toEqual([0x61, 0x3f, 0x62]);
    expect([...encodeJavaUtf8('\u0000')]).toEqual([0x00]);
  });
});
