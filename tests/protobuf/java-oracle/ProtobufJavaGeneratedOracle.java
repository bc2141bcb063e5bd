import com.google.protobuf.CodedInputStream;
import com.google.protobuf.ExtensionRegistry;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;

/**
 * Differential oracle with protoc-generated classes — the serializer's own parsing path: each
 * payload (stdin lines "<recursionLimit> <hex>") is parsed by the generated class's parser on a
 * stream CodedInputStream with the size and recursion limits and an empty extension registry, then
 * the last tag must be 0 and the input consumed. Prints "OK <hex of toByteArray()>" or
 * "ERR <exception message>". Usage: java ProtobufJavaGeneratedOracle <binary class name> <maxMessageSize>
 */
public class ProtobufJavaGeneratedOracle {
  public static void main(String[] args) throws Exception {
    Parser<?> parser = (Parser<?>) Class.forName(args[0]).getMethod("parser").invoke(null);
    int max = Integer.parseInt(args[1]);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    String line;
    while ((line = in.readLine()) != null) {
      String[] parts = line.split(" ", -1);
      byte[] payload = hex(parts.length > 1 ? parts[1] : "");
      try {
        CodedInputStream cis = CodedInputStream.newInstance(new ByteArrayInputStream(payload));
        cis.setSizeLimit(max);
        cis.setRecursionLimit(Integer.parseInt(parts[0]));
        MessageLite m = (MessageLite) parser.parseFrom(cis, ExtensionRegistry.getEmptyRegistry());
        cis.checkLastTagWas(0);
        if (!cis.isAtEnd() || cis.getTotalBytesRead() != payload.length) throw new IOException("Protobuf parser did not consume the complete frame");
        System.out.println("OK " + toHex(m.toByteArray()));
      } catch (IOException e) {
        System.out.println("ERR " + e.getMessage());
      }
    }
  }

  static byte[] hex(String s) {
    byte[] b = new byte[s.length() / 2];
    for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
    return b;
  }

  static String toHex(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (byte x : b) sb.append(String.format("%02x", x));
    return sb.toString();
  }
}
