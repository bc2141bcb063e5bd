/**
 * The Java classes of `scan-job` that need no Flink-line placeholder (generate-scan-job.ts): ValueScan, which
 * summarizes a saved value with protobuf-java's DynamicMessage and UnknownFieldSet and looks its warnings up in
 * scan-plan.json (planValueWarnings), and FrameSerializer, which reads flink-datastream-protobuf's value frames as bytes.
 */
export const VALUE_SCAN_JAVA = String.raw`package scanjob;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The value half of savepoint-inspector's "check", per saved value: protobuf-java's DynamicMessage over the saved
 * descriptors (the schema the serializer snapshot recorded) and its UnknownFieldSet give the value's unknown and
 * present known fields, its nesting depth and size; the warnings they hit are looked up in scan-plan.json, which
 * "savepoint-inspector scan-job" wrote from the new schema (its table of the warnings the CLI's collector makes).
 */
public final class ValueScan {
  private ValueScan() {}

  private static JsonNode plan;

  /** scan-plan.json, as the generator wrote it. */
  public static synchronized JsonNode plan() {
    if (plan == null) {
      try (InputStream in = ValueScan.class.getResourceAsStream("/scan-plan.json")) {
        if (in == null) throw new IllegalStateException("scan-plan.json is not on the class path");
        plan = new ObjectMapper().readTree(in);
      } catch (IOException e) {
        throw new IllegalStateException("cannot read scan-plan.json: " + e.getMessage(), e);
      }
    }
    return plan;
  }

  /** What the values of one key (or one operator state element) hit, on its way to the shard's writer. */
  public static final class Hits implements Serializable {
    private static final long serialVersionUID = 1L;
    public int shard;
    public int state;
    public int keyGroup;
    public long seq;
    public long values;
    public ArrayList<Integer> warning = new ArrayList<>();
    public ArrayList<Long> size = new ArrayList<>();
    public ArrayList<String> key = new ArrayList<>();

    public Hits() {}

    public Hits(int shard, int state, int keyGroup, long seq) {
      this.shard = shard;
      this.state = state;
      this.keyGroup = keyGroup;
      this.seq = seq;
    }
  }

  /**
   * The payload of a value: RocksDB hands the stored bytes to FrameSerializer; the heap backend deserialized every
   * value with the saved serializer while restoring and holds the message object, whose protobuf-java bytes are taken.
   */
  public static byte[] payloadOf(Object value) {
    return value instanceof byte[] bytes ? bytes : ((com.google.protobuf.MessageLite) value).toByteArray();
  }

  /** Display text of a key, as the CLI writes it: numbers and booleans as they are, strings as JSON strings. */
  public static String describeKey(Object key) {
    return key instanceof String s ? jsonString(s) : String.valueOf(key);
  }

  /** Counts one state's values into Hits: the CLI's ValueWarningCollector.add, with the warnings looked up in the plan. */
  public static final class Summarizer {
    /** the saved root message of the state's values */
    final Descriptor root;
    private final int savedRecursionLimit;
    private final String[] warningKeys;
    private final Map<String, Integer> unknown = new HashMap<>();
    private final Map<String, Integer> known = new HashMap<>();
    private final int size;
    private final int depth;
    private final int aliasing;
    private final long maxMessageSize;
    private final long recursionLimit;
    private final long aliasingThreshold;

    public Summarizer(JsonNode state) {
      try {
        FileDescriptorSet set = FileDescriptorSet.parseFrom(Base64.getDecoder().decode(state.get("descriptorSet").asText()));
        Map<String, FileDescriptor> built = new HashMap<>();
        Descriptor found = null;
        // the saved set is in dependency order (each file after its imports)
        for (FileDescriptorProto file : set.getFileList()) {
          List<FileDescriptor> deps = new ArrayList<>();
          for (String d : file.getDependencyList()) deps.add(built.get(d));
          FileDescriptor fd = FileDescriptor.buildFrom(file, deps.toArray(new FileDescriptor[0]));
          built.put(file.getName(), fd);
        }
        String rootName = state.get("root").asText();
        for (FileDescriptor fd : built.values()) {
          for (Descriptor d : allMessages(fd)) if (d.getFullName().equals(rootName)) found = d;
        }
        if (found == null) throw new IllegalStateException("the saved descriptors have no message " + rootName);
        root = found;
      } catch (Exception e) {
        throw new IllegalStateException("cannot build the saved descriptors of " + state.get("state").asText() + ": " + e.getMessage(), e);
      }
      savedRecursionLimit = state.get("recursionLimit").asInt();
      JsonNode p = state.get("plan");
      warningKeys = new String[p.get("warnings").size()];
      for (int i = 0; i < warningKeys.length; i++) warningKeys[i] = p.get("warnings").get(i).get("key").asText();
      p.get("unknown").fields().forEachRemaining(e -> unknown.put(e.getKey(), e.getValue().asInt()));
      p.get("known").fields().forEachRemaining(e -> known.put(e.getKey(), e.getValue().asInt()));
      size = p.get("size").asInt();
      depth = p.get("depth").asInt();
      aliasing = p.get("aliasing").isNull() ? -1 : p.get("aliasing").asInt();
      maxMessageSize = p.get("maxMessageSize").asLong();
      recursionLimit = p.get("recursionLimit").asLong();
      aliasingThreshold = p.get("aliasingThresholdBytes").asLong();
    }

    private static List<Descriptor> allMessages(FileDescriptor fd) {
      List<Descriptor> out = new ArrayList<>();
      List<Descriptor> queue = new ArrayList<>(fd.getMessageTypes());
      for (int i = 0; i < queue.size(); i++) {
        out.add(queue.get(i));
        queue.addAll(queue.get(i).getNestedTypes());
      }
      return out;
    }

    /** One value: false when protobuf-java cannot parse it (the CLI does not count such a value either). */
    public boolean add(byte[] payload, String key, Hits out) {
      Message message;
      try {
        CodedInputStream in = CodedInputStream.newInstance(payload);
        in.setRecursionLimit(savedRecursionLimit);
        message = DynamicMessage.parseFrom(root, in);
      } catch (IOException e) {
        return false;
      }
      Walk w = new Walk();
      w.message(message, 0, false);
      out.values++;
      Set<String> seen = new HashSet<>();
      for (String u : w.unknown) hit(unknown.get(u), 0, key, seen, out);
      if (!known.isEmpty()) for (String k : w.known) hit(known.get(k), 0, key, seen, out);
      if (payload.length > maxMessageSize) hit(size, payload.length, key, seen, out);
      if (w.depth > recursionLimit) hit(depth, w.depth, key, seen, out);
      if (aliasing >= 0 && payload.length > aliasingThreshold && (w.bytesKnown || w.lengthDelimitedUnknown)) hit(aliasing, payload.length, key, seen, out);
      return true;
    }

    private void hit(Integer warning, long size, String key, Set<String> seen, Hits out) {
      if (warning == null || !seen.add(warningKeys[warning])) return;
      out.warning.add(warning);
      out.size.add(size);
      out.key.add(key);
    }
  }

  /** The fields of one value, as the CLI's structural scan lists them (map entries: only their values are walked). */
  private static final class Walk {
    final Set<String> unknown = new LinkedHashSet<>();
    final Set<String> known = new LinkedHashSet<>();
    int depth;
    boolean bytesKnown;
    boolean lengthDelimitedUnknown;

    void message(Message m, int d, boolean mapEntry) {
      if (d > depth) depth = d;
      String name = m.getDescriptorForType().getFullName();
      for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
        FieldDescriptor f = e.getKey();
        if (!mapEntry) {
          known.add(name + "|" + f.getNumber());
          if (f.getType() == FieldDescriptor.Type.BYTES && !f.isRepeated()) bytesKnown = true;
        }
        if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
          if (f.isRepeated()) for (Object o : (List<?>) e.getValue()) message((Message) o, d + 1, f.isMapField());
          else message((Message) e.getValue(), d + 1, false);
        }
      }
      if (!mapEntry) unknownFields(name, m.getUnknownFields(), d, true);
    }

    void unknownFields(String name, UnknownFieldSet set, int d, boolean log) {
      for (Map.Entry<Integer, UnknownFieldSet.Field> e : set.asMap().entrySet()) {
        int no = e.getKey();
        UnknownFieldSet.Field f = e.getValue();
        if (!f.getVarintList().isEmpty() && log) unknown.add(name + "|" + no + "|0");
        if (!f.getFixed64List().isEmpty() && log) unknown.add(name + "|" + no + "|1");
        if (!f.getLengthDelimitedList().isEmpty() && log) {
          unknown.add(name + "|" + no + "|2");
          lengthDelimitedUnknown = true;
        }
        if (!f.getGroupList().isEmpty()) {
          if (log) unknown.add(name + "|" + no + "|3");
          for (UnknownFieldSet g : f.getGroupList()) {
            if (d + 1 > depth) depth = d + 1;
            unknownFields(name, g, d + 1, false);
          }
        }
        if (!f.getFixed32List().isEmpty() && log) unknown.add(name + "|" + no + "|5");
      }
    }
  }

  /** JSON.stringify(value, null, 2) of the CLI, for the documents this job writes. */
  public static String stringify(JsonNode node) {
    StringBuilder sb = new StringBuilder();
    write(sb, node, "");
    return sb.toString();
  }

  private static void write(StringBuilder sb, JsonNode n, String indent) {
    if (n.isObject()) {
      if (n.size() == 0) {
        sb.append("{}");
        return;
      }
      sb.append("{\n");
      String inner = indent + "  ";
      Iterator<Map.Entry<String, JsonNode>> it = n.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        sb.append(inner).append(jsonString(e.getKey())).append(": ");
        write(sb, e.getValue(), inner);
        if (it.hasNext()) sb.append(',');
        sb.append('\n');
      }
      sb.append(indent).append('}');
    } else if (n.isArray()) {
      if (n.size() == 0) {
        sb.append("[]");
        return;
      }
      sb.append("[\n");
      String inner = indent + "  ";
      for (int i = 0; i < n.size(); i++) {
        sb.append(inner);
        write(sb, n.get(i), inner);
        if (i < n.size() - 1) sb.append(',');
        sb.append('\n');
      }
      sb.append(indent).append(']');
    } else if (n.isTextual()) sb.append(jsonString(n.asText()));
    else sb.append(n.toString());
  }

  /** JSON.stringify of a string. */
  public static String jsonString(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          boolean lone =
              Character.isHighSurrogate(c) ? !(i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) : Character.isLowSurrogate(c) && !(i > 0 && Character.isHighSurrogate(s.charAt(i - 1)));
          if (c < 0x20 || lone) sb.append(String.format("\\u%04x", (int) c));
          else sb.append(c);
        }
      }
    }
    return sb.append('"').toString();
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
`;

export const FRAME_SERIALIZER_JAVA = String.raw`package scanjob;

import java.io.IOException;
import java.util.Arrays;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Reads a value of flink-datastream-protobuf's ProtobufTypeSerializer as the frame it is (int32 big-endian
 * payload length, then the standard Protobuf bytes) and returns the payload: the job needs the bytes, not the
 * job's message classes. Its snapshot accepts the saved snapshot of the serializer class that wrote the state
 * (compatible as is: the same frame), so Flink's readers restore the state with it.
 */
public final class FrameSerializer extends TypeSerializer<byte[]> {
  private static final long serialVersionUID = 1L;
  private static final byte[] EMPTY = new byte[0];
  /** the saved serializer snapshot class this serializer reads the values of */
  private final String savedSnapshotClass;

  public FrameSerializer(String savedSnapshotClass) {
    this.savedSnapshotClass = savedSnapshotClass;
  }

  @Override public boolean isImmutableType() { return false; }
  @Override public TypeSerializer<byte[]> duplicate() { return this; }
  @Override public byte[] createInstance() { return EMPTY; }
  @Override public byte[] copy(byte[] from) { return Arrays.copyOf(from, from.length); }
  @Override public byte[] copy(byte[] from, byte[] reuse) { return copy(from); }
  @Override public int getLength() { return -1; }

  @Override
  public void serialize(byte[] record, DataOutputView target) throws IOException {
    target.writeInt(record.length);
    target.write(record);
  }

  @Override
  public byte[] deserialize(DataInputView source) throws IOException {
    int length = source.readInt();
    if (length < 0) throw new IOException("expected a Protobuf frame length, found " + length);
    byte[] payload = new byte[length];
    source.readFully(payload);
    return payload;
  }

  @Override public byte[] deserialize(byte[] reuse, DataInputView source) throws IOException { return deserialize(source); }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }

  @Override public boolean equals(Object o) { return o instanceof FrameSerializer f && f.savedSnapshotClass.equals(savedSnapshotClass); }
  @Override public int hashCode() { return savedSnapshotClass.hashCode(); }

  @Override
  public TypeSerializerSnapshot<byte[]> snapshotConfiguration() {
    return new Snapshot(savedSnapshotClass);
  }

  /** The snapshot of FrameSerializer: compatible as is with the saved Protobuf serializer's snapshot. */
  public static final class Snapshot implements TypeSerializerSnapshot<byte[]> {
    private String savedSnapshotClass;

    public Snapshot() {}

    Snapshot(String savedSnapshotClass) {
      this.savedSnapshotClass = savedSnapshotClass;
    }

    @Override public int getCurrentVersion() { return 1; }

    @Override
    public void writeSnapshot(DataOutputView out) throws IOException {
      out.writeUTF(savedSnapshotClass);
    }

    @Override
    public void readSnapshot(int readVersion, DataInputView in, ClassLoader classLoader) throws IOException {
      savedSnapshotClass = in.readUTF();
    }

    @Override
    public TypeSerializer<byte[]> restoreSerializer() {
      return new FrameSerializer(savedSnapshotClass);
    }

    @Override
    public TypeSerializerSchemaCompatibility<byte[]> resolveSchemaCompatibility(TypeSerializerSnapshot<byte[]> oldSnapshot) {
      return oldSnapshot.getClass().getName().equals(savedSnapshotClass) || oldSnapshot instanceof Snapshot
          ? TypeSerializerSchemaCompatibility.compatibleAsIs()
          : TypeSerializerSchemaCompatibility.incompatible();
    }
  }
}
`;
