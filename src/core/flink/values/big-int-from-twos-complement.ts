/** A big-endian two's-complement integer (Java's BigInteger.toByteArray(), Flink's DECIMAL bytes) as a bigint; no bytes is 0. */
export function bigIntFromTwosComplement(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n;
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return (bytes[0]! & 0x80) !== 0 ? v - (1n << BigInt(bytes.length * 8)) : v;
}
