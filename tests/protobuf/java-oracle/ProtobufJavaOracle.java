import com.google.protobuf.*;
import com.google.protobuf.DescriptorProtos.*;
import com.google.protobuf.Descriptors.*;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.*;
import java.util.*;

/**
 * Differential oracle for tests/protobuf/protobuf-java-differential.test.ts: parses each payload
 * (stdin lines "<recursionLimit> <hex>") with protobuf-java as the serializer configures it (stream
 * decoder, size and recursion limits, empty extension registry, last tag 0) into a DynamicMessage
 * and prints "OK <hex of its re-serialization>" or "ERR <exception message>".
 * Usage: java ProtobufJavaOracle <descriptor set> <root full name> <maxMessageSize>
 */
public class ProtobufJavaOracle {
  public static void main(String[] args) throws Exception {
    FileDescriptorSet set = FileDescriptorSet.parseFrom(Files.readAllBytes(Paths.get(args[0])));
    Map<String, FileDescriptor> files = new HashMap<>();
    for (FileDescriptorProto f : set.getFileList()) {
      FileDescriptor[] deps = new FileDescriptor[f.getDependencyCount()];
      for (int i = 0; i < deps.length; i++) deps[i] = files.get(f.getDependency(i));
      files.put(f.getName(), FileDescriptor.buildFrom(f, deps));
    }
    Descriptor type = null;
    for (FileDescriptor fd : files.values()) for (Descriptor d : fd.getMessageTypes()) if (d.getFullName().equals(args[1])) type = d;
    int max = Integer.parseInt(args[2]);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    String line;
    while ((line = in.readLine()) != null) {
      String[] parts = line.split(" ", -1);
      int limit = Integer.parseInt(parts[0]);
      byte[] payload = hex(parts.length > 1 ? parts[1] : "");
      try {
        CodedInputStream cis = CodedInputStream.newInstance(new ByteArrayInputStream(payload));
        cis.setSizeLimit(max);
        cis.setRecursionLimit(limit);
        DynamicMessage.Builder b = DynamicMessage.newBuilder(type);
        b.mergeFrom(cis, ExtensionRegistry.getEmptyRegistry());
        cis.checkLastTagWas(0);
        if (!cis.isAtEnd() || cis.getTotalBytesRead() != payload.length) throw new IOException("Protobuf parser did not consume the complete frame");
        DynamicMessage m = b.build();
        System.out.println("OK " + toHex(m.toByteArray()));
      } catch (UninitializedMessageException e) {
        System.out.println("ERR " + e.asInvalidProtocolBufferException().getMessage());
      } catch (IOException e) {
        System.out.println("ERR " + e.getMessage());
      }
    }
  }
  static byte[] hex(String s) { byte[] b = new byte[s.length() / 2]; for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16); return b; }
  static String toHex(byte[] b) { StringBuilder sb = new StringBuilder(); for (byte x : b) sb.append(String.format("%02x", x)); return sb.toString(); }
}
