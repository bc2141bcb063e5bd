/** Whether a descriptor set declares a message of that full name (its index remembered per set object). */
import type { FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { indexDeclarations, type DeclarationIndex } from '../descriptors/index-declarations';

const indexes = new WeakMap<FileDescriptorSet, DeclarationIndex>();

export function declaresMessage(set: FileDescriptorSet, fullName: string): boolean {
  let index = indexes.get(set);
  if (index === undefined) indexes.set(set, (index = indexDeclarations(set)));
  return index.byName.get(fullName)?.kind === 'message';
}
