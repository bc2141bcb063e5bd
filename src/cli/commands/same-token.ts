import { timingSafeEqual } from 'node:crypto';

/** Whether `given` is `token`, compared in constant time (no timing tells how much of it matched). */
export function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
