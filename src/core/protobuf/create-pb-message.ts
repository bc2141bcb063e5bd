/** Construction and recognition of decoded message trees. */
import type { DescMessage } from '@bufbuild/protobuf';
import type { PbMessage } from './protobuf-message-types';

export function createPbMessage(desc: DescMessage): PbMessage {
  return { kind: 'message', desc, fields: new Map(), unknown: [] };
}

export function isPbMessage(v: unknown): v is PbMessage {
  return typeof v === 'object' && v !== null && (v as PbMessage).kind === 'message';
}
