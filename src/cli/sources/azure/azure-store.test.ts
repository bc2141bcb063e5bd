import { describe, expect, it } from 'vitest';
import { parseConnectionString, resolveAzureSetup } from './azure-store';

describe('the Azure client set-up', () => {
  it("reads the Blob endpoint of the URL's account, or AZURE_STORAGE_BLOB_ENDPOINT, or the connection string's", () => {
    expect(resolveAzureSetup('prodstate', 'prodstate.dfs.core.windows.net', {}).url).toBe('https://prodstate.blob.core.windows.net');
    expect(resolveAzureSetup('acct', 'acct.dfs.core.chinacloudapi.cn', {}).url).toBe('https://acct.blob.core.chinacloudapi.cn');
    expect(resolveAzureSetup('acct', 'acct.blob.core.windows.net', { AZURE_STORAGE_BLOB_ENDPOINT: 'http://127.0.0.1:10000/devstoreaccount1/' })).toMatchObject({
      url: 'http://127.0.0.1:10000/devstoreaccount1',
      setting: 'AZURE_STORAGE_BLOB_ENDPOINT',
    });
    expect(
      resolveAzureSetup('acct', 'acct.blob.core.windows.net', {
        AZURE_STORAGE_CONNECTION_STRING: 'AccountName=acct;AccountKey=a2V5;BlobEndpoint=http://localhost:10000/acct',
      }),
    ).toMatchObject({ url: 'http://localhost:10000/acct', setting: 'BlobEndpoint of AZURE_STORAGE_CONNECTION_STRING' });
    expect(
      resolveAzureSetup('devstoreaccount1', 'devstoreaccount1.blob.core.windows.net', { AZURE_STORAGE_CONNECTION_STRING: 'UseDevelopmentStorage=true' }),
    ).toMatchObject({ url: 'http://127.0.0.1:10000/devstoreaccount1', auth: { kind: 'key', account: 'devstoreaccount1' } });
  });

  it('takes the connection string, then AZURE_STORAGE_KEY, then a SAS token, then DefaultAzureCredential, and names each', () => {
    const cs = 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a2V5PT0=;EndpointSuffix=core.windows.net';
    expect(parseConnectionString(cs)).toEqual({
      DefaultEndpointsProtocol: 'https',
      AccountName: 'acct',
      AccountKey: 'a2V5PT0=',
      EndpointSuffix: 'core.windows.net',
    });
    expect(resolveAzureSetup('acct', 'acct.dfs.core.windows.net', { AZURE_STORAGE_CONNECTION_STRING: cs, AZURE_STORAGE_KEY: 'other' }).auth).toEqual({
      kind: 'key',
      account: 'acct',
      key: 'a2V5PT0=',
      source: 'account key of AZURE_STORAGE_CONNECTION_STRING (account acct)',
    });
    expect(
      resolveAzureSetup('acct', 'acct.dfs.core.windows.net', {
        AZURE_STORAGE_CONNECTION_STRING: 'BlobEndpoint=https://acct.blob.core.windows.net;SharedAccessSignature=sv=2024&sig=x',
      }).auth,
    ).toEqual({ kind: 'sas', sas: 'sv=2024&sig=x', source: 'SAS token of AZURE_STORAGE_CONNECTION_STRING' });
    expect(resolveAzureSetup('acct', 'acct.dfs.core.windows.net', { AZURE_STORAGE_KEY: 'a2V5', AZURE_STORAGE_SAS_TOKEN: '?sv=1' }).auth).toEqual({
      kind: 'key',
      account: 'acct',
      key: 'a2V5',
      source: 'account key (AZURE_STORAGE_KEY, account acct)',
    });
    expect(resolveAzureSetup('acct', 'acct.dfs.core.windows.net', { AZURE_STORAGE_KEY: 'a2V5', AZURE_STORAGE_ACCOUNT: 'other' }).auth.source).toBe(
      'account key (AZURE_STORAGE_KEY, account other from AZURE_STORAGE_ACCOUNT)',
    );
    expect(resolveAzureSetup('acct', 'acct.dfs.core.windows.net', { AZURE_STORAGE_SAS_TOKEN: '?sv=1' }).auth).toEqual({
      kind: 'sas',
      sas: '?sv=1',
      source: 'SAS token (AZURE_STORAGE_SAS_TOKEN)',
    });
    expect(resolveAzureSetup('acct', 'acct.dfs.core.windows.net', {}).auth).toEqual({
      kind: 'default',
      source: 'DefaultAzureCredential (environment service principal, workload identity, managed identity, Azure CLI, Azure Developer CLI or Azure PowerShell)',
    });
  });
});
