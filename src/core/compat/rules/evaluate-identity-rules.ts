/** Identity and settings rules, checked first, in the table's order. */
import type { SerializerSettings, TypeKind } from '../types';
import { createWalkContext, addFinding } from './walk-context';
import { indexDeclarations } from '../descriptors/index-declarations';
import type { Finding } from '../types';

export interface IdentityInput {
  savedKind: TypeKind;
  newKind: TypeKind;
  savedJavaClass?: string;
  newJavaClass?: string;
  savedRoot: string;
  newRoot: string;
  /** absent when not read (a snapshot read by structure): the settings rules are not checked */
  savedSettings?: SerializerSettings;
  newSettings: SerializerSettings;
}

export function evaluateIdentityRules(input: IdentityInput): Finding[] {
  const empty = indexDeclarations({ file: [] } as never);
  const ctx = createWalkContext(empty, empty);
  if (input.savedKind !== input.newKind) {
    addFinding(ctx, 'TYPE_KIND_CHANGED', 'type kind', { oldKind: input.savedKind, newKind: input.newKind });
  }
  if (input.savedKind === 'generated' && input.newKind === 'generated' && input.savedJavaClass !== input.newJavaClass) {
    addFinding(ctx, 'JAVA_CLASS_CHANGED', 'java class', { old: input.savedJavaClass ?? '(unknown)', new: input.newJavaClass ?? '(unknown)' });
  }
  if (input.savedRoot !== input.newRoot) addFinding(ctx, 'ROOT_RENAMED', 'root', { old: input.savedRoot, new: input.newRoot });
  const s = input.savedSettings;
  if (s === undefined) return ctx.findings;
  const n = input.newSettings;
  if (n.maxMessageSize < s.maxMessageSize) {
    addFinding(ctx, 'MAX_MESSAGE_SIZE_DECREASED', 'settings.maxMessageSize', { old: s.maxMessageSize, new: n.maxMessageSize });
  }
  if (n.recursionLimit < s.recursionLimit) {
    addFinding(ctx, 'RECURSION_LIMIT_DECREASED', 'settings.recursionLimit', { old: s.recursionLimit, new: n.recursionLimit });
  }
  if (n.maxMessageSize > s.maxMessageSize) {
    addFinding(ctx, 'MAX_MESSAGE_SIZE_INCREASED', 'settings.maxMessageSize', { old: s.maxMessageSize, new: n.maxMessageSize });
  }
  if (n.recursionLimit > s.recursionLimit) {
    addFinding(ctx, 'RECURSION_LIMIT_INCREASED', 'settings.recursionLimit', { old: s.recursionLimit, new: n.recursionLimit });
  }
  if (n.deterministicSerialization !== s.deterministicSerialization) {
    addFinding(ctx, 'DETERMINISTIC_SERIALIZATION_CHANGED', 'settings.deterministicSerialization', {
      old: String(s.deterministicSerialization),
      new: String(n.deterministicSerialization),
    });
  }
  if (s.largePayloadAliasing !== undefined && n.largePayloadAliasing !== undefined && n.largePayloadAliasing !== s.largePayloadAliasing) {
    addFinding(ctx, 'LARGE_PAYLOAD_ALIASING_CHANGED', 'settings.largePayloadAliasing', {
      old: String(s.largePayloadAliasing),
      new: String(n.largePayloadAliasing),
    });
  }
  return ctx.findings;
}
