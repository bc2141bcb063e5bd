/**
 * Compares what surrounds a reached declaration: its declaring file
 * (package, syntax/edition, options, never the list of declarations or imports) and its enclosing
 * messages (options only; their names are part of the declaration's full name).
 */
import { FileOptionsSchema, MessageOptionsSchema, type FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import { describeMessageChanges } from './describe-message-changes';
import { describeSyntax } from './describe-descriptor-parts';
import type { Declaration } from './index-declarations';
import { addFinding, type WalkContext } from './walk-context';

export function compareDeclaringContext(ctx: WalkContext, saved: Declaration, next: Declaration): void {
  compareDeclaringFile(ctx, saved.file, next.file);
  if (saved.enclosing.length !== next.enclosing.length) return; // the full name changed: reported by the referring field
  for (let i = 0; i < saved.enclosing.length; i++) {
    const s = saved.enclosing[i];
    const n = next.enclosing[i];
    const key = `${s.fullName}|${n.fullName}`;
    if (ctx.comparedEnclosing.has(key)) continue;
    ctx.comparedEnclosing.add(key);
    const changes = describeMessageChanges(MessageOptionsSchema, s.proto.options, n.proto.options);
    if (changes) addFinding(ctx, 'MESSAGE_OPTION_CHANGED', s.fullName, { message: s.fullName, changes });
  }
}

function compareDeclaringFile(ctx: WalkContext, saved: FileDescriptorProto, next: FileDescriptorProto): void {
  const key = `${saved.name}|${next.name}`;
  if (ctx.comparedFiles.has(key)) return;
  ctx.comparedFiles.add(key);
  const path = `file ${saved.name}`;
  if (saved.package !== next.package) {
    addFinding(ctx, 'FILE_PACKAGE_CHANGED', path, { file: saved.name, from: saved.package || '(none)', to: next.package || '(none)' });
  }
  const fromSyntax = describeSyntax(saved);
  const toSyntax = describeSyntax(next);
  if (fromSyntax !== toSyntax) addFinding(ctx, 'FILE_SYNTAX_CHANGED', path, { file: saved.name, from: fromSyntax, to: toSyntax });
  const changes = describeMessageChanges(FileOptionsSchema, saved.options, next.options);
  if (changes) addFinding(ctx, 'FILE_OPTION_CHANGED', path, { file: saved.name, changes });
  const savedUnknown = unknownOnly(saved);
  const nextUnknown = unknownOnly(next);
  if (savedUnknown !== nextUnknown) {
    addFinding(ctx, 'DECLARATION_CHANGED', path, { declaration: `File ${saved.name}`, what: `unknown fields from ${savedUnknown || 'none'} to ${nextUnknown || 'none'}` });
  }
}

/** Unknown fields of the FileDescriptorProto itself (normalization already removed buf's 8042). */
function unknownOnly(file: FileDescriptorProto): string {
  return (file.$unknown ?? [])
    .map((u) => `#${u.no}=${Array.from(u.data, (b) => b.toString(16).padStart(2, '0')).join('')}`)
    .join(', ');
}
