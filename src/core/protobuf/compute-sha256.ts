/**
 * SHA-256 for the snapshot's descriptor fingerprint. @noble/hashes (pinned) is pure TypeScript
 * with no DOM or Node dependency, so it runs unchanged in the worker, the CLI and tests, and is
 * synchronous (crypto.subtle is async and needs DOM types the core does not have).
 */
import { sha256 } from '@noble/hashes/sha2.js';

export function computeSha256(bytes: Uint8Array): Uint8Array {
  return sha256(bytes);
}
