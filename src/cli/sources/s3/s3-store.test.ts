import { describe, expect, it } from 'vitest';
import { nameCredentialSource, resolveS3Endpoint } from './s3-store';

describe('the S3 client set-up', () => {
  it('takes AWS_ENDPOINT_URL_S3 before AWS_ENDPOINT_URL, path-style for an IP address or localhost', () => {
    expect(resolveS3Endpoint({})).toEqual({ pathStyle: false });
    expect(resolveS3Endpoint({ AWS_ENDPOINT_URL: 'https://s3.example.com', AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9000' })).toEqual({
      url: 'http://127.0.0.1:9000',
      setting: 'AWS_ENDPOINT_URL_S3',
      pathStyle: true,
    });
    expect(resolveS3Endpoint({ AWS_ENDPOINT_URL: 'http://localhost:9000' })).toEqual({
      url: 'http://localhost:9000',
      setting: 'AWS_ENDPOINT_URL',
      pathStyle: true,
    });
    expect(resolveS3Endpoint({ AWS_ENDPOINT_URL: 'https://minio.internal' }).pathStyle).toBe(false);
    expect(resolveS3Endpoint({ AWS_ENDPOINT_URL: 'https://minio.internal', SAVEPOINT_INSPECTOR_S3_PATH_STYLE: 'true' }).pathStyle).toBe(true);
  });

  it('names the credential source from the marks the SDK providers set', () => {
    expect(nameCredentialSource({ CREDENTIALS_ENV_VARS: 'g' }, {})).toBe('environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)');
    expect(nameCredentialSource({ CREDENTIALS_PROFILE: 'n' }, { AWS_PROFILE: 'prod' })).toBe('shared config/credentials files, profile "prod"');
    expect(nameCredentialSource({ CREDENTIALS_PROFILE: 'n', CREDENTIALS_PROFILE_SSO: 'r' }, {})).toBe('SSO of shared config profile "default"');
    expect(nameCredentialSource({ CREDENTIALS_ENV_VARS_STS_WEB_ID_TOKEN: 'h', CREDENTIALS_STS_ASSUME_ROLE_WEB_ID: 'k' }, {})).toBe(
      'web identity token (AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN)',
    );
    expect(nameCredentialSource({ CREDENTIALS_HTTP: 'z' }, {})).toBe('container credentials endpoint (ECS/EKS)');
    expect(nameCredentialSource(undefined, {})).toBe('instance metadata (IMDS) or another provider of the default chain');
  });
});
