import { describe, expect, it } from 'vitest';
import { nameGcsCredentialSource, resolveGcsEmulator } from './gcs-store';

describe('the GCS client set-up', () => {
  it("takes STORAGE_EMULATOR_HOST as Google's clients do (a host) and as Node's does (a base URL)", () => {
    expect(resolveGcsEmulator({})).toBeUndefined();
    expect(resolveGcsEmulator({ STORAGE_EMULATOR_HOST: '127.0.0.1:4443' })).toBe('http://127.0.0.1:4443');
    expect(resolveGcsEmulator({ STORAGE_EMULATOR_HOST: 'http://localhost:4443/storage/v1/' })).toBe('http://localhost:4443');
    expect(resolveGcsEmulator({ STORAGE_EMULATOR_HOST: 'https://gcs.test:8443' })).toBe('https://gcs.test:8443');
  });

  it("names the Application Default Credentials source that answers, in ADC's order", () => {
    const none = () => false;
    expect(nameGcsCredentialSource({ STORAGE_EMULATOR_HOST: '127.0.0.1:4443', GOOGLE_APPLICATION_CREDENTIALS: '/k.json' }, none)).toBe(
      'none: STORAGE_EMULATOR_HOST names an emulator (no credentials sent)',
    );
    expect(nameGcsCredentialSource({ GOOGLE_APPLICATION_CREDENTIALS: '/var/run/key.json' }, () => true)).toBe(
      'Application Default Credentials: GOOGLE_APPLICATION_CREDENTIALS (/var/run/key.json)',
    );
    expect(nameGcsCredentialSource({ HOME: '/home/u' }, (f) => f === '/home/u/.config/gcloud/application_default_credentials.json')).toBe(
      "Application Default Credentials: gcloud's application-default login (/home/u/.config/gcloud/application_default_credentials.json)",
    );
    expect(nameGcsCredentialSource({ HOME: '/home/u', CLOUDSDK_CONFIG: '/etc/gcloud' }, (f) => f === '/etc/gcloud/application_default_credentials.json')).toBe(
      "Application Default Credentials: gcloud's application-default login (/etc/gcloud/application_default_credentials.json)",
    );
    expect(nameGcsCredentialSource({ HOME: '/home/u' }, none)).toBe('Application Default Credentials: the metadata server (GCE, GKE, Cloud Run)');
  });
});
