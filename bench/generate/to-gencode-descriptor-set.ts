/**
 * A FileDescriptorSet as protoc's Java gencode embeds its files: without buf's image extension
 * (`buf build -o x.binpb` writes an image whose files carry field 8042, buf.alpha.image.v1
 * ImageFileExtension, and the core's normalization keeps unknown fields) and without derived
 * json_names.
 *
 * Drops every field's json_name that equals the name protoc derives from the field name, as the
 * embedded descriptors of protoc's Java gencode have no json_name (field 10). `buf build` and
 * `protoc --descriptor_set_out` fill them in, so a snapshot written from such a set is one no Java
 * job writes, and the 0.x serializer refuses to restore it ("Generated class has a
 * different Protobuf schema"). Explicit json_names (different from the derived one) are kept.
 */
import { clearField, fromBinary, isFieldSet, toBinary } from '@bufbuild/protobuf';
import { protoCamelCase } from '@bufbuild/protobuf/reflect';
import { FieldDescriptorProtoSchema, FileDescriptorSetSchema, type DescriptorProto, type FieldDescriptorProto } from '@bufbuild/protobuf/wkt';

const JSON_NAME = FieldDescriptorProtoSchema.field.jsonName;

function stripField(f: FieldDescriptorProto): void {
  if (isFieldSet(f, JSON_NAME) && f.jsonName === protoCamelCase(f.name)) clearField(f, JSON_NAME);
}

export function toGencodeDescriptorSet(descriptorSet: Uint8Array): Uint8Array {
  const set = fromBinary(FileDescriptorSetSchema, descriptorSet);
  const visit = (m: DescriptorProto) => {
    [...m.field, ...m.extension].forEach(stripField);
    m.nestedType.forEach(visit);
  };
  for (const file of set.file) {
    file.messageType.forEach(visit);
    file.extension.forEach(stripField);
  }
  return toBinary(FileDescriptorSetSchema, set, { writeUnknownFields: false });
}
