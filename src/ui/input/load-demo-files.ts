import { networkFailure, type InputFile, type InspectorFailure } from '../../worker';

/** The bundled demo: a small real savepoint and a changed schema, served from the app's own origin. */
export interface DemoManifest {
  savepoint: string;
  schema: string | null;
  description: string;
  files: string[];
}

export async function loadDemoFiles(): Promise<InputFile[]> {
  const base = `${import.meta.env.BASE_URL}demo/`;
  const res = await fetchDemo(`${base}manifest.json`);
  if (!res.ok) throw unavailable(`the demo is not bundled in this build (${base}manifest.json: HTTP ${res.status})`);
  const manifest = (await res.json()) as DemoManifest;
  const files: InputFile[] = [];
  for (const path of manifest.files) {
    const r = await fetchDemo(`${base}${path.split('/').map(encodeURIComponent).join('/')}`);
    if (!r.ok) throw unavailable(`demo file ${path} is missing (HTTP ${r.status})`);
    files.push({ path, blob: await r.blob() });
  }
  return files;
}

/** A request to the app's own server that fails (offline, server stopped) is a network failure, not a bug. */
async function fetchDemo(url: string): Promise<Response> {
  try {
    return await fetch(url);
  } catch (e) {
    throw networkFailure(
      url,
      `expected to fetch ${url} from the app's server, found the request failed (${e instanceof Error ? e.message : String(e)}): the app is offline or its server stopped`,
      e,
    );
  }
}

function unavailable(message: string): InspectorFailure {
  return { kind: 'unavailable', message };
}
