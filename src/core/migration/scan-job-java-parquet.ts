/**
 * The Parquet half of `scan-job` (generate-scan-job.ts): ParquetRows writes a state's values as the rows of the
 * CLI's `export --format parquet` (docs/export.md "Rows": key_group, subtask, key, namespace, user_key,
 * element_index, value, value_size, unknown_fields), through flink-parquet's ParquetWriterFactory, over a row message
 * built at run time around the saved value descriptor: the schema is parquet-protobuf's ProtoSchemaConverter's, the
 * records are written by the rules of parquet-protobuf 1.15.2's ProtoWriteSupport (RowWriteSupport: its own write path
 * calls FileDescriptor.getSyntax(), which protobuf-java 4 no longer has: a NoSuchMethodError at the first row).
 */
export const PARQUET_ROWS_JAVA = String.raw`package scanjob;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.ByteString;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.formats.parquet.ParquetWriterFactory;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.state.api.runtime.SavepointLoader;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.proto.ProtoSchemaConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * One part file of a state's Parquet table: PARQUET/<operator>/<scope>-<state>/part-<subtask>-<n>.parquet, the rows
 * of the values this subtask read, with the columns of the CLI's export (docs/export.md), so that Spark, DuckDB or
 * pandas read the folder as one table, the table "savepoint-inspector export --format parquet" writes for the state.
 */
public final class ParquetRows implements AutoCloseable {
  /** docs/export.md: at most 1,000 unknown fields per value (EXPORT_UNKNOWN_FIELDS_PER_VALUE) */
  static final int UNKNOWN_FIELDS_PER_VALUE = 1000;
  static final String CAPPED_KEY = "savepoint-inspector.unknown-fields-capped";

  /** the namespace of the keyed state the State Processor API reads, as the CLI's export writes it */
  static final String NAMESPACE = "VoidNamespace";

  private final Descriptor row;
  private final Descriptor value;
  private final int maxParallelism;
  private final int parallelism;
  private boolean closed;
  private final Descriptor unknown;
  private final RowWriteSupport support;
  private final FSDataOutputStream stream;
  private final BulkWriter<DynamicMessage> writer;

  private ParquetRows(Descriptor row, int maxParallelism, int parallelism, FSDataOutputStream stream, RowWriteSupport support) throws IOException {
    this.row = row;
    this.maxParallelism = maxParallelism;
    this.parallelism = parallelism;
    this.value = row.findFieldByName("value").getMessageType();
    this.unknown = row.findFieldByName("unknown_fields").getMessageType();
    this.support = support;
    this.stream = stream;
    // flink-parquet's factory; the builder hands parquet-protobuf's writer the row descriptor (there is no generated class)
    this.writer = new ParquetWriterFactory<DynamicMessage>(out -> new Builder(out, support).withCompressionCodec(CompressionCodecName.SNAPPY).build()).create(stream);
  }

  /** The folder of a state's part files, named as "export --all --key-groups" names it, under its operator. */
  static String folder(String parquet, JsonNode s) {
    String scope = s.get("keyed").asBoolean() ? "keyed" : s.get("kind").asText().equals("BROADCAST") ? "broadcast" : "operator";
    String operator = s.get("uid").isNull() ? s.get("operatorId").asText() : s.get("uid").asText();
    return parquet.replaceAll("/+$", "") + "/" + safe(operator) + "/" + scope + "-" + safe(s.get("state").asText());
  }

  private static String safe(String name) {
    return name.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  /** Where the part files go (--parquet DIR) and each operator's parallelism in the savepoint (its subtasks' state files). */
  public static final class Target implements Serializable {
    private static final long serialVersionUID = 1L;
    private final String dir;
    private final HashMap<String, Integer> parallelism = new HashMap<>();

    private Target(String dir) {
      this.dir = dir;
    }

    static Target of(String savepoint, String dir) throws Exception {
      Target t = new Target(dir);
      for (OperatorState op : SavepointLoader.loadSavepointMetadata(savepoint).getOperatorStates()) t.parallelism.put(op.getOperatorID().toHexString(), op.getParallelism());
      return t;
    }

    /** Opens part file part-<subtask>-<n>.parquet of state s, whose values are messages of the saved descriptor "value". */
    ParquetRows open(JsonNode s, Descriptor value, int subtask, int n) throws IOException {
      Path file = new Path(folder(dir, s) + "/part-" + subtask + "-" + n + ".parquet");
      Descriptor row = rowDescriptor(s, value);
      int p = parallelism.getOrDefault(s.get("operatorId").asText(), 1);
      return new ParquetRows(row, s.get("maxParallelism").asInt(), p, file.getFileSystem().create(file, FileSystem.WriteMode.OVERWRITE), new RowWriteSupport(row));
    }
  }

  /**
   * A keyed state's row: its subtask is the one whose state file held the key group (the savepoint's parallelism over
   * the operator's key groups), its namespace VoidNamespace.
   */
  void addKeyed(int keyGroup, Object key, Object userKey, int elementIndex, byte[] payload) throws IOException {
    add(keyGroup, KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(maxParallelism, parallelism, keyGroup), key, NAMESPACE, userKey, elementIndex, payload);
  }

  /** An operator (or broadcast: with its map key) state element's row, key group -1 as in the CLI's export; returns the payload. */
  static byte[] row(ParquetRows rows, int subtask, Object userKey, byte[] payload) throws IOException {
    if (rows != null) rows.add(-1, subtask, null, null, userKey, -1, payload);
    return payload;
  }

  /**
   * The row message (proto2, so that key_group, subtask, value_size and the unknown fields' members are REQUIRED as in
   * the CLI's export): the export's columns in its order, those the state has (docs/export.md "Rows").
   */
  static Descriptor rowDescriptor(JsonNode s, Descriptor value) {
    boolean keyed = s.get("keyed").asBoolean();
    String kind = s.get("kind").asText();
    DescriptorProto.Builder unknown = DescriptorProto.newBuilder().setName("UnknownField");
    unknown.addField(field("path", 1, FieldDescriptorProto.Type.TYPE_STRING, FieldDescriptorProto.Label.LABEL_REQUIRED));
    unknown.addField(field("number", 2, FieldDescriptorProto.Type.TYPE_INT32, FieldDescriptorProto.Label.LABEL_REQUIRED));
    unknown.addField(field("wire_type", 3, FieldDescriptorProto.Type.TYPE_INT32, FieldDescriptorProto.Label.LABEL_REQUIRED));
    unknown.addField(field("bytes", 4, FieldDescriptorProto.Type.TYPE_BYTES, FieldDescriptorProto.Label.LABEL_REQUIRED));
    DescriptorProto.Builder m = DescriptorProto.newBuilder().setName("savepoint_state");
    m.addField(field("key_group", 1, FieldDescriptorProto.Type.TYPE_INT32, FieldDescriptorProto.Label.LABEL_REQUIRED));
    m.addField(field("subtask", 2, FieldDescriptorProto.Type.TYPE_INT32, FieldDescriptorProto.Label.LABEL_REQUIRED));
    if (keyed) m.addField(field("key", 3, typeOf(s.get("keyType").asText()), FieldDescriptorProto.Label.LABEL_OPTIONAL));
    if (keyed) m.addField(field("namespace", 4, FieldDescriptorProto.Type.TYPE_STRING, FieldDescriptorProto.Label.LABEL_OPTIONAL));
    if (kind.equals("MAP") || kind.equals("BROADCAST")) m.addField(field("user_key", 5, typeOf(s.get("userKeyType").asText()), FieldDescriptorProto.Label.LABEL_OPTIONAL));
    if (kind.equals("LIST")) m.addField(field("element_index", 6, FieldDescriptorProto.Type.TYPE_INT32, FieldDescriptorProto.Label.LABEL_OPTIONAL));
    m.addField(field("value", 7, FieldDescriptorProto.Type.TYPE_MESSAGE, FieldDescriptorProto.Label.LABEL_OPTIONAL).toBuilder().setTypeName("." + value.getFullName()));
    m.addField(field("value_size", 8, FieldDescriptorProto.Type.TYPE_INT64, FieldDescriptorProto.Label.LABEL_REQUIRED));
    m.addField(field("unknown_fields", 9, FieldDescriptorProto.Type.TYPE_MESSAGE, FieldDescriptorProto.Label.LABEL_REPEATED).toBuilder().setTypeName(".savepointinspector.scanjob.UnknownField"));
    FileDescriptorProto file =
        FileDescriptorProto.newBuilder()
            .setName("savepointinspector/scanjob/export_row.proto")
            .setPackage("savepointinspector.scanjob")
            .setSyntax("proto2")
            .addDependency(value.getFile().getName())
            .addMessageType(m)
            .addMessageType(unknown)
            .build();
    try {
      return FileDescriptor.buildFrom(file, new FileDescriptor[] {value.getFile()}).findMessageTypeByName("savepoint_state");
    } catch (Exception e) {
      throw new IllegalStateException("cannot build the export row message around " + value.getFullName() + ": " + e.getMessage(), e);
    }
  }

  private static FieldDescriptorProto field(String name, int number, FieldDescriptorProto.Type type, FieldDescriptorProto.Label label) {
    return FieldDescriptorProto.newBuilder().setName(name).setNumber(number).setType(type).setLabel(label).build();
  }

  /** the export's typed key columns: Integer → INT32, Long → INT64, String, Boolean */
  private static FieldDescriptorProto.Type typeOf(String keyType) {
    return switch (keyType) {
      case "INT" -> FieldDescriptorProto.Type.TYPE_INT32;
      case "LONG" -> FieldDescriptorProto.Type.TYPE_INT64;
      case "STRING" -> FieldDescriptorProto.Type.TYPE_STRING;
      case "BOOLEAN" -> FieldDescriptorProto.Type.TYPE_BOOL;
      default -> throw new IllegalArgumentException("unsupported key type " + keyType);
    };
  }

  /**
   * One row. key / namespace / userKey: null where the state has no such column; elementIndex: -1 for none. The value
   * is parsed with DynamicMessage over the saved descriptor (a payload protobuf-java refuses: no value, its size and
   * no unknown fields); its unknown fields are read off the payload itself, in wire order, nested ones too.
   */
  void add(int keyGroup, int subtask, Object key, String namespace, Object userKey, int elementIndex, byte[] payload) throws IOException {
    DynamicMessage.Builder b = DynamicMessage.newBuilder(row);
    b.setField(row.findFieldByName("key_group"), keyGroup);
    b.setField(row.findFieldByName("subtask"), subtask);
    if (key != null) b.setField(row.findFieldByName("key"), key);
    if (namespace != null) b.setField(row.findFieldByName("namespace"), namespace);
    if (userKey != null) b.setField(row.findFieldByName("user_key"), userKey);
    if (elementIndex >= 0) b.setField(row.findFieldByName("element_index"), elementIndex);
    b.setField(row.findFieldByName("value_size"), (long) payload.length);
    try {
      b.setField(row.findFieldByName("value"), DynamicMessage.parseFrom(value, payload));
      List<Object[]> fields = new ArrayList<>();
      unknownFields(value, payload, 0, payload.length, "", fields);
      FieldDescriptor list = row.findFieldByName("unknown_fields");
      int kept = 0;
      for (Object[] f : fields) {
        if (kept == UNKNOWN_FIELDS_PER_VALUE) break;
        DynamicMessage.Builder u = DynamicMessage.newBuilder(unknown);
        u.setField(unknown.findFieldByName("path"), f[0]);
        u.setField(unknown.findFieldByName("number"), f[1]);
        u.setField(unknown.findFieldByName("wire_type"), f[2]);
        u.setField(unknown.findFieldByName("bytes"), f[3]);
        b.addRepeatedField(list, u.build());
        kept++;
      }
      if (fields.size() > kept) {
        support.cappedRows++;
        support.omitted += fields.size() - kept;
      }
    } catch (IOException e) {
      // as the CLI's value scan, a value protobuf-java cannot parse has no message here
    }
    writer.addElement(b.build());
  }

  /**
   * The unknown fields of the message in buf[start, end), as the CLI's export lists them (list-export-rows.ts): the
   * message's own in wire order (path: the containing message, '' = root; a group's fields follow it, path "<group
   * number>"), then those of its message fields in the order they first appear (repeated: "name[i]", map values:
   * "name[<JSON key>]"). Each field's bytes are the payload's own, tag included.
   */
  static void unknownFields(Descriptor d, byte[] buf, int start, int end, String path, List<Object[]> out) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(buf, start, end - start);
    Map<FieldDescriptor, List<int[]>> children = new LinkedHashMap<>();
    while (!in.isAtEnd()) {
      int at = start + in.getTotalBytesRead();
      int tag = in.readTag();
      int number = WireFormat.getTagFieldNumber(tag);
      int wireType = WireFormat.getTagWireType(tag);
      FieldDescriptor f = d.findFieldByNumber(number);
      if (f != null && f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        int length = in.readRawVarint32();
        int from = start + in.getTotalBytesRead();
        in.skipRawBytes(length);
        children.computeIfAbsent(f, k -> new ArrayList<>()).add(new int[] {from, from + length});
        continue;
      }
      in.skipField(tag);
      if (f != null) continue;
      int to = start + in.getTotalBytesRead();
      out.add(new Object[] {path, number, wireType, ByteString.copyFrom(buf, at, to - at)});
      if (wireType == WireFormat.WIRETYPE_START_GROUP) groupFields(buf, at, to, path.isEmpty() ? String.valueOf(number) : path + "." + number, out);
    }
    for (Map.Entry<FieldDescriptor, List<int[]>> e : children.entrySet()) {
      FieldDescriptor f = e.getKey();
      String name = path.isEmpty() ? f.getName() : path + "." + f.getName();
      List<int[]> ranges = e.getValue();
      if (f.isMapField()) {
        Descriptor entry = f.getMessageType();
        FieldDescriptor v = entry.findFieldByNumber(2);
        if (v.getJavaType() != FieldDescriptor.JavaType.MESSAGE) continue;
        Map<String, int[]> byKey = new LinkedHashMap<>();
        for (int[] r : ranges) {
          DynamicMessage m = DynamicMessage.parseFrom(entry, ByteString.copyFrom(buf, r[0], r[1] - r[0]));
          Object k = m.getField(entry.findFieldByNumber(1));
          int[] valueRange = valueRange(buf, r[0], r[1]);
          if (valueRange != null) byKey.put(k instanceof String s ? ValueScan.jsonString(s) : String.valueOf(k), valueRange);
        }
        for (Map.Entry<String, int[]> kv : byKey.entrySet()) unknownFields(v.getMessageType(), buf, kv.getValue()[0], kv.getValue()[1], name + "[" + kv.getKey() + "]", out);
      } else if (f.isRepeated()) {
        for (int i = 0; i < ranges.size(); i++) unknownFields(f.getMessageType(), buf, ranges.get(i)[0], ranges.get(i)[1], name + "[" + i + "]", out);
      } else {
        for (int[] r : ranges) unknownFields(f.getMessageType(), buf, r[0], r[1], name, out);
      }
    }
  }

  /** The last value field (number 2, length-delimited) of a map entry in buf[start, end). */
  private static int[] valueRange(byte[] buf, int start, int end) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(buf, start, end - start);
    int[] found = null;
    while (!in.isAtEnd()) {
      int tag = in.readTag();
      if (tag == (2 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        int length = in.readRawVarint32();
        int from = start + in.getTotalBytesRead();
        in.skipRawBytes(length);
        found = new int[] {from, from + length};
      } else in.skipField(tag);
    }
    return found;
  }

  /** The fields of an unknown group (its start tag … end tag in buf[start, end)), each listed, nested groups too. */
  private static void groupFields(byte[] buf, int start, int end, String path, List<Object[]> out) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(buf, start, end - start);
    in.readTag();
    while (true) {
      int at = start + in.getTotalBytesRead();
      int tag = in.readTag();
      if (tag == 0 || WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_END_GROUP) return;
      in.skipField(tag);
      int to = start + in.getTotalBytesRead();
      int number = WireFormat.getTagFieldNumber(tag);
      out.add(new Object[] {path, number, WireFormat.getTagWireType(tag), ByteString.copyFrom(buf, at, to - at)});
      if (WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_START_GROUP) groupFields(buf, at, to, path + "." + number, out);
    }
  }

  /** Writes the footer (with the capped-unknown-fields note, as the CLI's) and closes the file. */
  @Override
  public void close() throws IOException {
    if (closed) return;
    closed = true;
    writer.finish();
    stream.close();
  }

  /**
   * The row message written as parquet-protobuf 1.15.2's ProtoWriteSupport writes it (legacy layout, the default
   * ParquetProtoWriters uses): the schema is its ProtoSchemaConverter's; a message of a proto2 file writes the fields
   * getAllFields() lists, any other the fields of its descriptor but an unset oneof member or unset singular message
   * (so a proto3 scalar at its default is written, 0 / "" / the enum's first name); repeated and map fields as bare
   * repeated fields (map entries as their key / value groups), empty ones not at all; enums by name; a message past
   * the converter's recursion cut as its bytes. The CLI's footer note on capped unknown fields is added.
   */
  static final class RowWriteSupport extends WriteSupport<DynamicMessage> {
    private final Descriptor row;
    private final MessageType schema;
    private RecordConsumer out;
    long cappedRows;
    long omitted;

    RowWriteSupport(Descriptor row) {
      this.row = row;
      this.schema = new ProtoSchemaConverter().convert(row);
    }

    @Override
    public String getName() {
      return "protobuf";
    }

    @Override
    public WriteSupport.WriteContext init(Configuration configuration) {
      Map<String, String> meta = new HashMap<>();
      meta.put("parquet.proto.descriptor", row.toProto().toString());
      return new WriteSupport.WriteContext(schema, meta);
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
      out = recordConsumer;
    }

    @Override
    public void write(DynamicMessage record) {
      out.startMessage();
      fields(record, schema);
      out.endMessage();
    }

    private void fields(MessageOrBuilder m, GroupType type) {
      Descriptor d = m.getDescriptorForType();
      boolean proto2 = d.getFile().toProto().getSyntax().isEmpty() || d.getFile().toProto().getSyntax().equals("proto2");
      if (proto2) {
        for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) field(e.getKey(), e.getValue(), type);
        return;
      }
      for (FieldDescriptor f : d.getFields()) {
        if (f.getContainingOneof() != null && !m.hasField(f)) continue;
        if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !f.isRepeated() && !m.hasField(f)) continue;
        field(f, m.getField(f), type);
      }
    }

    private void field(FieldDescriptor f, Object v, GroupType type) {
      int index = type.getFieldIndex(f.getName());
      Type t = type.getType(index);
      if (f.isRepeated()) {
        List<?> list = (List<?>) v;
        if (list.isEmpty()) return;
        out.startField(f.getName(), index);
        for (Object o : list) value(f, o, t);
        out.endField(f.getName(), index);
        return;
      }
      out.startField(f.getName(), index);
      value(f, v, t);
      out.endField(f.getName(), index);
    }

    private void value(FieldDescriptor f, Object v, Type t) {
      switch (f.getJavaType()) {
        case MESSAGE -> {
          if (t.isPrimitive()) out.addBinary(Binary.fromConstantByteArray(((Message) v).toByteArray()));
          else {
            out.startGroup();
            fields((MessageOrBuilder) v, t.asGroupType());
            out.endGroup();
          }
        }
        case INT -> out.addInteger((Integer) v);
        case LONG -> out.addLong((Long) v);
        case FLOAT -> out.addFloat((Float) v);
        case DOUBLE -> out.addDouble((Double) v);
        case BOOLEAN -> out.addBoolean((Boolean) v);
        case STRING -> out.addBinary(Binary.fromString((String) v));
        case BYTE_STRING -> out.addBinary(Binary.fromConstantByteArray(((ByteString) v).toByteArray()));
        case ENUM -> out.addBinary(Binary.fromString(((EnumValueDescriptor) v).getName()));
      }
    }

    @Override
    public WriteSupport.FinalizedWriteContext finalizeWrite() {
      Map<String, String> meta = new HashMap<>();
      if (omitted > 0) meta.put(CAPPED_KEY, "{\"perValue\":" + UNKNOWN_FIELDS_PER_VALUE + ",\"rows\":" + cappedRows + ",\"omitted\":" + omitted + "}");
      return new WriteSupport.FinalizedWriteContext(meta);
    }
  }

  /** parquet-hadoop's writer builder for an OutputFile (flink-parquet's stream), with the row's write support. */
  static final class Builder extends ParquetWriter.Builder<DynamicMessage, Builder> {
    private final RowWriteSupport support;

    Builder(OutputFile out, RowWriteSupport support) {
      super(out);
      this.support = support;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<DynamicMessage> getWriteSupport(Configuration conf) {
      return support;
    }
  }
}
`;
