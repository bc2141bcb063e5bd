package dev.savepointinspector.hdfs;

import java.io.InputStream;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A real HDFS for the WebHDFS tests: Hadoop's MiniDFSCluster with one NameNode and one DataNode, every
 * listener on 127.0.0.1 with a free port, WebHDFS and permission checks on, simple (non-Kerberos)
 * authentication. The superuser is the user this JVM runs as (HADOOP_USER_NAME when set).
 *
 * Usage: java -cp ... dev.savepointinspector.hdfs.WebHdfsServer BASE_DIR
 * Prints one line "webhdfs-ready http=127.0.0.1:PORT rpc=127.0.0.1:PORT" once the cluster is active, then
 * stays up until its stdin closes (the test process exits or closes the pipe), and shuts down.
 */
public final class WebHdfsServer {
  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: WebHdfsServer BASE_DIR");
      System.exit(2);
    }
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, args[0]);
    conf.setBoolean("dfs.webhdfs.enabled", true);
    conf.setBoolean("dfs.permissions.enabled", true);
    conf.set("hadoop.security.authentication", "simple");
    conf.set("dfs.namenode.rpc-address", "127.0.0.1:0");
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    conf.set("dfs.namenode.https-address", "127.0.0.1:0");
    conf.set("dfs.namenode.servicerpc-address", "127.0.0.1:0");
    conf.set("dfs.datanode.address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
    conf.set("dfs.datanode.hostname", "127.0.0.1");
    conf.setBoolean("dfs.datanode.use.datanode.hostname", false);
    // small blocks: the fixtures' bigger state files span several blocks, so reads cross block boundaries
    conf.setLong("dfs.blocksize", 1024 * 1024);
    conf.setInt("dfs.replication", 1);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf)
        .numDataNodes(1)
        .nameNodePort(0)
        .nameNodeHttpPort(0)
        .build();
    cluster.waitActive();
    InetSocketAddress http = cluster.getNameNode().getHttpAddress();
    InetSocketAddress rpc = cluster.getNameNode().getNameNodeAddress();
    System.out.println("webhdfs-ready http=127.0.0.1:" + http.getPort() + " rpc=127.0.0.1:" + rpc.getPort());
    System.out.flush();
    InputStream in = System.in;
    byte[] buf = new byte[256];
    while (in.read(buf) >= 0) {
      // wait for stdin to close
    }
    cluster.shutdown(true);
    System.exit(0);
  }
}
