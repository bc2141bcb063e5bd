import { describe, expect, it } from 'vitest';
import {
  formatAzureUrl,
  formatGcsUrl,
  formatHdfsUrl,
  formatS3Url,
  isAzureUrl,
  isGcsUrl,
  isHdfsUrl,
  isObjectStoreUrl,
  isS3Url,
  parseAzureUrl,
  parseGcsUrl,
  parseHdfsUrl,
  parseS3Url,
  unsupportedStoreError,
} from './object-store-url';

describe('S3 URLs', () => {
  it('parses s3://, s3a:// and s3p:// alike, the key without its leading /', () => {
    expect(parseS3Url('s3://bucket/flink/savepoints/savepoint-1')).toEqual({ scheme: 's3', bucket: 'bucket', key: 'flink/savepoints/savepoint-1' });
    expect(parseS3Url('S3A://my.bucket/ckpt/')).toEqual({ scheme: 's3a', bucket: 'my.bucket', key: 'ckpt/' });
    expect(parseS3Url('s3p://b-1')).toEqual({ scheme: 's3p', bucket: 'b-1', key: '' });
    expect(formatS3Url('b', 'k/x')).toBe('s3://b/k/x');
  });

  it('refuses a URL without a usable bucket, or with a query', () => {
    expect(() => parseS3Url('s3:///key')).toThrow("expected a bucket name in s3:///key (3 to 63 letters, digits, '.', '-' or '_'), found none");
    expect(() => parseS3Url('s3://a/key')).toThrow('found "a"');
    expect(() => parseS3Url('s3://bucket/key?versionId=1')).toThrow('expected an S3 URL s3://BUCKET/KEY without ? or #, found s3://bucket/key?versionId=1');
    expect(() => parseS3Url('https://bucket/key')).toThrow('expected an S3 URL (s3://, s3a:// or s3p://), found https://bucket/key');
  });

  it('recognises the other stores Flink writes to, with a message instead of a local path', () => {
    expect(isS3Url('s3a://b/k')).toBe(true);
    expect(isS3Url('gs://b/k')).toBe(false);
    for (const url of ['oss://b/k', 'cosn://b/k']) {
      expect(isObjectStoreUrl(url)).toBe(true);
      expect(unsupportedStoreError(url)?.message).toMatch(
        /^expected a savepoint on local disk, over http\(s\), in S3 \(s3:\/\/, s3a:\/\/, s3p:\/\/\), in Azure, in GCS or in HDFS, found a \w+:\/\/ URL: only S3, Azure \(abfs:\/\/, abfss:\/\/, wasb:\/\/, wasbs:\/\/\), GCS \(gs:\/\/\) and HDFS \(hdfs:\/\/, webhdfs:\/\/, through WebHDFS\) are read directly; this store is not read directly yet/,
      );
    }
    for (const url of ['gs://b/k', 'hdfs://nn:8020/ckpt']) {
      expect(isObjectStoreUrl(url)).toBe(true);
      expect(unsupportedStoreError(url)).toBeUndefined();
    }
    expect(unsupportedStoreError('s3://b/k')).toBeUndefined();
    expect(unsupportedStoreError('abfss://c@a.dfs.core.windows.net/k')).toBeUndefined();
    expect(unsupportedStoreError('/tmp/gs:/x')).toBeUndefined();
  });
});

describe('Azure URLs', () => {
  it('parses abfs://, abfss://, wasb:// and wasbs:// alike: container, account, host as written, the blob without its leading /', () => {
    expect(parseAzureUrl('abfss://flink@prodstate.dfs.core.windows.net/savepoints/savepoint-1')).toEqual({
      scheme: 'abfss',
      container: 'flink',
      account: 'prodstate',
      host: 'prodstate.dfs.core.windows.net',
      blob: 'savepoints/savepoint-1',
    });
    expect(parseAzureUrl('WASBS://ckpt@acct01.blob.core.windows.net/job/')).toEqual({
      scheme: 'wasbs',
      container: 'ckpt',
      account: 'acct01',
      host: 'acct01.blob.core.windows.net',
      blob: 'job/',
    });
    expect(parseAzureUrl('abfs://c-1@acct.dfs.core.chinacloudapi.cn')).toEqual({
      scheme: 'abfs',
      container: 'c-1',
      account: 'acct',
      host: 'acct.dfs.core.chinacloudapi.cn',
      blob: '',
    });
    expect(formatAzureUrl({ scheme: 'wasb', container: 'c0', host: 'a.blob.core.windows.net' }, 'x/_metadata')).toBe(
      'wasb://c0@a.blob.core.windows.net/x/_metadata',
    );
    expect(isAzureUrl('abfss://c@a.dfs.core.windows.net/k')).toBe(true);
    expect(isAzureUrl('s3://b/k')).toBe(false);
    expect(isObjectStoreUrl('wasb://c@a.blob.core.windows.net/k')).toBe(true);
  });

  it('refuses a URL without a container or a usable account, or with a query', () => {
    expect(() => parseAzureUrl('abfss://acct.dfs.core.windows.net/k')).toThrow(
      'expected an Azure URL abfss://CONTAINER@ACCOUNT.dfs.core.windows.net/PATH (or wasbs://CONTAINER@ACCOUNT.blob.core.windows.net/PATH) without ? or #, found abfss://acct.dfs.core.windows.net/k',
    );
    expect(() => parseAzureUrl('abfss://Flink@acct.dfs.core.windows.net/k')).toThrow(
      'expected a container name in abfss://Flink@acct.dfs.core.windows.net/k (3 to 63 lowercase letters, digits and \'-\'), found "Flink"',
    );
    expect(() => parseAzureUrl('wasbs://ckpt@My_Account.blob.core.windows.net/k')).toThrow(
      'expected a storage account in wasbs://ckpt@My_Account.blob.core.windows.net/k (CONTAINER@ACCOUNT.dfs.core.windows.net, the account 3 to 24 lowercase letters and digits), found "My_Account.blob.core.windows.net"',
    );
    expect(() => parseAzureUrl('abfss://ckpt@acct.dfs.core.windows.net/k?sv=1')).toThrow('without ? or #');
    expect(() => parseAzureUrl('s3://b/k')).toThrow('expected an Azure URL (abfs://, abfss://, wasb:// or wasbs://), found s3://b/k');
  });
});

describe('HDFS URLs', () => {
  it('parses hdfs:// (with or without an authority, and hdfs:/path as Flink writes handles), webhdfs:// and swebhdfs://', () => {
    expect(parseHdfsUrl('hdfs://namenode:8020/flink/savepoints/savepoint-1')).toEqual({
      scheme: 'hdfs',
      authority: 'namenode:8020',
      path: '/flink/savepoints/savepoint-1',
    });
    expect(parseHdfsUrl('hdfs:///flink//ckpt/')).toEqual({ scheme: 'hdfs', authority: '', path: '/flink/ckpt/' });
    expect(parseHdfsUrl('hdfs:/x/merged')).toEqual({ scheme: 'hdfs', authority: '', path: '/x/merged' });
    expect(parseHdfsUrl('WEBHDFS://127.0.0.1:9870')).toEqual({ scheme: 'webhdfs', authority: '127.0.0.1:9870', path: '/' });
    expect(parseHdfsUrl('swebhdfs://nn.example.com:9871/a')).toEqual({ scheme: 'swebhdfs', authority: 'nn.example.com:9871', path: '/a' });
    expect(formatHdfsUrl({ scheme: 'webhdfs', authority: 'h:1' }, '/a/_metadata')).toBe('webhdfs://h:1/a/_metadata');
    expect(isHdfsUrl('hdfs:/x')).toBe(true);
    expect(isHdfsUrl('s3://b/k')).toBe(false);
  });

  it('refuses a query, a webhdfs:// URL without a host, or a malformed authority', () => {
    expect(() => parseHdfsUrl('hdfs://nn:8020/a?op=OPEN')).toThrow(
      'expected an HDFS URL hdfs://NAMENODE:PORT/PATH or webhdfs://HOST:PORT/PATH without ? or #, found hdfs://nn:8020/a?op=OPEN',
    );
    expect(() => parseHdfsUrl('webhdfs:///a')).toThrow("expected the NameNode's HTTP address in webhdfs:///a (webhdfs://HOST:PORT/PATH), found none");
    expect(() => parseHdfsUrl('hdfs://user@nn/a')).toThrow('expected HOST or HOST:PORT in hdfs://user@nn/a, found "user@nn"');
  });
});

describe('GCS URLs', () => {
  it('parses gs://BUCKET/OBJECT: the bucket, the object name without its leading /', () => {
    expect(isGcsUrl('GS://b/k')).toBe(true);
    expect(isGcsUrl('s3://b/k')).toBe(false);
    expect(parseGcsUrl('gs://flink-state/savepoints/savepoint-1')).toEqual({ bucket: 'flink-state', key: 'savepoints/savepoint-1' });
    expect(parseGcsUrl('gs://my_bucket.example.com')).toEqual({ bucket: 'my_bucket.example.com', key: '' });
    expect(formatGcsUrl('b1b', 'a/_metadata')).toBe('gs://b1b/a/_metadata');
  });

  it('refuses a bucket name GCS would refuse, and a query', () => {
    expect(() => parseGcsUrl('gs://Bucket/k')).toThrow(
      "expected a bucket name in gs://Bucket/k (3 to 63 lowercase letters, digits, '-', '_' or '.'), found \"Bucket\"",
    );
    expect(() => parseGcsUrl('gs:///k')).toThrow('found none');
    expect(() => parseGcsUrl('gs://bucket/k?generation=1')).toThrow('expected a GCS URL gs://BUCKET/OBJECT without ? or #, found gs://bucket/k?generation=1');
  });
});
