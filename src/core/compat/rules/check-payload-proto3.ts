/**
 * PAYLOAD_NOT_PROTO3: the new type information is not
 * even constructed when a message the payload reaches is not proto3, or declares a group, a
 * required field, an extension, an extension range or a field number above 536,870,911.
 */
import { FieldDescriptorProto_Label, FieldDescriptorProto_Type } from '@bufbuild/protobuf/wkt';
import { describeRange, describeSyntax, MAX_FIELD_NUMBER } from './describe-descriptor-parts';
import type { MessageDeclaration } from '../descriptors/index-declarations';
import { addFinding, type WalkContext } from './walk-context';

/** Adds one finding per problem of the new message; returns whether any was found. */
export function checkPayloadProto3(ctx: WalkContext, next: MessageDeclaration): boolean {
  const before = ctx.findings.length;
  const m = next.fullName;
  const report = (what: string): void => addFinding(ctx, 'PAYLOAD_NOT_PROTO3', m, { what });
  if (next.file.syntax !== 'proto3') report(`Message ${m} is declared in ${describeSyntax(next.file)} file ${next.file.name}`);
  for (const f of next.proto.field) {
    if (f.label === FieldDescriptorProto_Label.REQUIRED) report(`Field ${f.number} (${f.name}) of ${m} is required`);
    if (f.type === FieldDescriptorProto_Type.GROUP) report(`Field ${f.number} (${f.name}) of ${m} is a group`);
    if (f.number > MAX_FIELD_NUMBER) report(`Field ${f.number} (${f.name}) of ${m} has a number above 536,870,911`);
  }
  for (const r of next.proto.extensionRange) report(`Message ${m} declares extension range ${describeRange(r.start, r.end, true)}`);
  for (const e of next.proto.extension) report(`Message ${m} declares extension ${e.name}`);
  return ctx.findings.length > before;
}
