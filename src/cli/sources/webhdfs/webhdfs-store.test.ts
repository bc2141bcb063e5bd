import http from 'node:http';
import type net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebHdfsStore, resolveWebHdfsEndpoint, resolveWebHdfsUser } from './webhdfs-store';

describe('where WebHDFS is reached, and as whom', () => {
  it('webhdfs:// and swebhdfs:// name the HTTP address; hdfs:// takes SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT, else port 9870 of its host', () => {
    expect(resolveWebHdfsEndpoint({ scheme: 'webhdfs', authority: 'nn:50070' }, {})).toEqual({ url: 'http://nn:50070', setting: 'the webhdfs:// URL' });
    expect(resolveWebHdfsEndpoint({ scheme: 'swebhdfs', authority: 'nn' }, {})).toEqual({ url: 'https://nn:9870', setting: 'the swebhdfs:// URL' });
    expect(resolveWebHdfsEndpoint({ scheme: 'hdfs', authority: 'nn:8020' }, { SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT: 'https://gw:9871/' })).toEqual({
      url: 'https://gw:9871',
      setting: 'SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT',
    });
    expect(resolveWebHdfsEndpoint({ scheme: 'hdfs', authority: 'nn:8020' }, {})).toEqual({
      url: 'http://nn:9870',
      setting: "Hadoop's default HTTP port for hdfs://nn:8020; SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT sets another",
    });
    expect(() => resolveWebHdfsEndpoint({ scheme: 'hdfs', authority: '' }, {})).toThrow(
      "expected the NameNode's WebHDFS address for an hdfs:/// URL (it names no NameNode: the cluster's fs.defaultFS), found none: set SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT=http://NAMENODE:9870",
    );
    expect(() => resolveWebHdfsEndpoint({ scheme: 'hdfs', authority: 'nn' }, { SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT: 'nn:9870' })).toThrow(
      'expected SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT to be the NameNode\'s WebHDFS address http(s)://HOST:PORT, found "nn:9870"',
    );
  });

  it('the user is HADOOP_USER_NAME, else the OS user, and says which', () => {
    expect(resolveWebHdfsUser({ HADOOP_USER_NAME: 'flink' })).toEqual({ name: 'flink', source: 'HADOOP_USER_NAME' });
    expect(resolveWebHdfsUser({ HADOOP_USER_NAME: '' }).source).toBe('the OS user');
  });
});

describe('answers no MiniDFSCluster gives (simple authentication, one NameNode)', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  /** A NameNode that answers every request with `status`, `headers` and `body`. */
  async function nameNode(status: number, headers: Record<string, string>, body: string): Promise<string> {
    server = http.createServer((_req, res) => {
      res.writeHead(status, headers);
      res.end(body);
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  }

  it("a Kerberized NameNode (401, WWW-Authenticate: Negotiate, as hadoop-auth's KerberosAuthenticationHandler answers): one line saying SPNEGO is not spoken", async () => {
    const authority = await nameNode(
      401,
      { 'WWW-Authenticate': 'Negotiate', 'Content-Type': 'text/html' },
      '<html><body><h2>HTTP ERROR 401 Authentication required</h2></body></html>',
    );
    const store = createWebHdfsStore({ scheme: 'webhdfs', authority }, { HADOOP_USER_NAME: 'alice' });
    await expect(store.head('/sp/_metadata')).rejects.toThrow(
      `expected to read webhdfs://${authority}/sp/_metadata (path /sp/_metadata; WebHDFS http://${authority} (the webhdfs:// URL); credentials from HADOOP_USER_NAME (WebHDFS user alice)), found a demand for Kerberos (401 WWW-Authenticate: Negotiate: <html><body><h2>HTTP ERROR 401 Authentication required</h2></body></html>): this cluster uses SPNEGO, which this tool does not speak (simple authentication only; see docs/cli.md)`,
    );
  });

  it('another IOException, which WebHDFS also answers with 403 (its ExceptionHandler maps every IOException but FileNotFoundException there): not called a denial', async () => {
    const body = JSON.stringify({
      RemoteException: { exception: 'IOException', javaClassName: 'java.io.IOException', message: 'Cannot obtain block length for LocatedBlock' },
    });
    const authority = await nameNode(403, { 'Content-Type': 'application/json' }, body);
    const store = createWebHdfsStore({ scheme: 'webhdfs', authority }, { HADOOP_USER_NAME: 'alice' });
    await expect(store.head('/sp/x')).rejects.toThrow(/found HTTP 403 IOException: Cannot obtain block length for LocatedBlock —/);
  });

  it('a standby NameNode of an HA pair (403 StandbyException, as WebHDFS serialises it): one line saying to point at the active one', async () => {
    const body = JSON.stringify({
      RemoteException: {
        exception: 'StandbyException',
        javaClassName: 'org.apache.hadoop.ipc.StandbyException',
        message: 'Operation category READ is not supported in state standby',
      },
    });
    const authority = await nameNode(403, { 'Content-Type': 'application/json' }, body);
    const store = createWebHdfsStore({ scheme: 'webhdfs', authority }, { HADOOP_USER_NAME: 'alice' });
    await expect(store.list('/sp/')).rejects.toThrow(
      `expected to list webhdfs://${authority}/sp/ (path /sp/; WebHDFS http://${authority} (the webhdfs:// URL); credentials from HADOOP_USER_NAME (WebHDFS user alice)), found a standby NameNode (403 StandbyException: Operation category READ is not supported in state standby): point SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT (or the webhdfs:// URL) at the active NameNode`,
    );
  });
});
