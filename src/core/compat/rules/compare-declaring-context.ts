/**
 * Compares what surrounds a reached declaration: its declaring file
 * (package, syntax/edition, options, never the list of declarations or imports) with the file that
 * declares the same declaration in the new set, and its enclosing
 * messages (options only; their names are part of the declaration's full name).
 */
import { create } from '@bufbuild/protobuf';
import { FileOptionsSchema, MessageOptionsSchema, type FileDescriptorProto, type FileOptions } from '@bufbuild/protobuf/wkt';
import { copyDescriptorMessage } from '../descriptors/copy-descriptor-message';
import { isSet } from '../descriptors/normalize-for-comparison';
import { describeMessageChanges, describeUnknownField } from './describe-message-changes';
import { describeSyntax } from './describe-descriptor-parts';
import type { Declaration } from '../descriptors/index-declarations';
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
    const changes = describeMessageChanges(MessageOptionsSchema, s.proto.options, n.proto.options, ctx.options);
    if (changes) addFinding(ctx, 'MESSAGE_OPTION_CHANGED', s.fullName, { message: s.fullName, changes });
  }
}

function compareDeclaringFile(ctx: WalkContext, saved: FileDescriptorProto, next: FileDescriptorProto): void {
  const key = `${saved.name}|${next.name}`;
  if (ctx.comparedFiles.has(key)) return;
  ctx.comparedFiles.add(key);
  const path = `file ${saved.name}`;
  // a declaration that moved to another file is compared with the file that declares it now: name both
  const file = saved.name === next.name ? saved.name : `${saved.name} (${next.name} in the new set)`;
  if (saved.package !== next.package) {
    addFinding(ctx, 'FILE_PACKAGE_CHANGED', path, { file, from: saved.package || '(none)', to: next.package || '(none)' });
  }
  const fromSyntax = describeSyntax(saved);
  const toSyntax = describeSyntax(next);
  if (fromSyntax !== toSyntax) addFinding(ctx, 'FILE_SYNTAX_CHANGED', path, { file, from: fromSyntax, to: toSyntax });
  const [savedJava, savedOther] = splitFileOptions(saved.options);
  const [nextJava, nextOther] = splitFileOptions(next.options);
  const changes = describeMessageChanges(FileOptionsSchema, savedJava, nextJava, ctx.options);
  if (changes) addFinding(ctx, 'FILE_OPTION_CHANGED', path, { file, changes });
  const otherChanges = describeMessageChanges(FileOptionsSchema, savedOther, nextOther, ctx.options);
  if (otherChanges) addFinding(ctx, 'FILE_NON_JAVA_OPTION_CHANGED', path, { file, changes: otherChanges });
  const savedUnknown = unknownOnly(saved);
  const nextUnknown = unknownOnly(next);
  if (savedUnknown !== nextUnknown) {
    addFinding(ctx, 'DECLARATION_CHANGED', path, {
      declaration: `File ${file}`,
      what: `unknown fields from ${savedUnknown || 'none'} to ${nextUnknown || 'none'}`,
    });
  }
}

/**
 * File options that protoc's Java generator and the Java runtime never read (other languages' package
 * names and prefixes, C++/Python service and arena switches): a change to them leaves generated Java code
 * as it was, yet it is an option change of a reached declaration, which the serializer rejects.
 */
const NON_JAVA_FILE_OPTIONS = [
  'goPackage',
  'ccGenericServices',
  'pyGenericServices',
  'ccEnableArenas',
  'objcClassPrefix',
  'csharpNamespace',
  'swiftPrefix',
  'phpClassPrefix',
  'phpNamespace',
  'phpMetadataNamespace',
  'rubyPackage',
] as const;

/** The options Java reads (and every custom option), and those it never reads; either undefined when it holds none. */
function splitFileOptions(options: FileOptions | undefined): [FileOptions | undefined, FileOptions | undefined] {
  if (options === undefined || !NON_JAVA_FILE_OPTIONS.some((key) => isSet(options, key))) return [options, undefined];
  const java = copyDescriptorMessage(options);
  const other = create(FileOptionsSchema);
  for (const key of NON_JAVA_FILE_OPTIONS) {
    if (!isSet(options, key)) continue;
    (other as unknown as Record<string, unknown>)[key] = options[key];
    delete (java as unknown as Record<string, unknown>)[key];
  }
  return [java, other];
}

/** Unknown fields of the FileDescriptorProto itself (normalization already removed buf's 8042). */
function unknownOnly(file: FileDescriptorProto): string {
  return (file.$unknown ?? []).map((u) => `#${u.no} ${describeUnknownField(u)}`).join(', ');
}
