/**
 * What a jar bundles, from its entry names and the `META-INF/maven/<group>/<artifact>/pom.properties`
 * files Maven writes into every artifact (and shading keeps): each artifact's coordinates, Flink if
 * any, and the flink-datastream-protobuf line. The line is told by its snapshot classes, by name:
 * the 0.x milestones' `io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot`; 1.0.0 removed
 * that class and writes under other snapshot classes (seed 002), so another `*SerializerSnapshot`
 * of the library's package, or the artifact's own version, tells 1.x.
 */
import type { InputFile } from '../io';
import type { BundledArtifact, JarLibrary } from './job-jar-types';

const LIBRARY_PACKAGE = 'io/github/flink/gcp/protobuf/';
export const LIBRARY_0X_SNAPSHOT = `${LIBRARY_PACKAGE}ProtobufTypeSerializerSnapshot.class`;
const LIBRARY_ARTIFACT = 'flink-datastream-protobuf';
/** pom.properties files read at most (each a few hundred bytes) */
const MAX_POM_PROPERTIES = 5000;
const MAX_POM_PROPERTIES_BYTES = 64 * 1024;

export interface BundledContents {
  artifacts: BundledArtifact[];
  library?: JarLibrary;
  flink?: { version?: string; evidence: string };
  warnings: string[];
}

export async function readBundledArtifacts(files: readonly InputFile[]): Promise<BundledContents> {
  const artifacts: BundledArtifact[] = [];
  const warnings: string[] = [];
  const poms = files.filter((f) => /^META-INF\/maven\/[^/]+\/[^/]+\/pom\.properties$/.test(f.path));
  if (poms.length > MAX_POM_PROPERTIES) warnings.push(`read the first ${MAX_POM_PROPERTIES} of ${poms.length} pom.properties files`);
  for (const pom of poms.slice(0, MAX_POM_PROPERTIES)) {
    if (pom.source.size > MAX_POM_PROPERTIES_BYTES) {
      warnings.push(`skipped ${pom.path}: ${pom.source.size} bytes is not a pom.properties`);
      continue;
    }
    const text = decodeLatin1(await pom.source.read(0, pom.source.size));
    const props = parseProperties(text);
    const groupId = props.get('groupId');
    const artifactId = props.get('artifactId');
    const version = props.get('version');
    if (groupId && artifactId && version) artifacts.push({ groupId, artifactId, version, path: pom.path });
    else warnings.push(`${pom.path} has no groupId, artifactId and version`);
  }
  artifacts.sort((a, b) => `${a.groupId}:${a.artifactId}`.localeCompare(`${b.groupId}:${b.artifactId}`));
  const paths = new Set(files.map((f) => f.path));
  const libraryArtifact = artifacts.find((a) => a.artifactId === LIBRARY_ARTIFACT);
  let library: JarLibrary | undefined;
  if (paths.has(LIBRARY_0X_SNAPSHOT)) {
    library = {
      line: '0.x',
      evidence: `snapshot class ${toBinaryName(LIBRARY_0X_SNAPSHOT)} (0.x milestones)`,
      ...(libraryArtifact ? { version: libraryArtifact.version } : {}),
    };
  } else {
    const other = [...paths].filter((p) => p.startsWith(LIBRARY_PACKAGE) && p.endsWith('SerializerSnapshot.class')).sort()[0];
    if (other !== undefined)
      library = {
        line: '1.x',
        evidence: `snapshot class ${toBinaryName(other)} (not a 0.x snapshot class)`,
        ...(libraryArtifact ? { version: libraryArtifact.version } : {}),
      };
    else if (libraryArtifact) {
      library = {
        line: /^0\./.test(libraryArtifact.version) ? '0.x' : '1.x',
        evidence: `${libraryArtifact.path} (version ${libraryArtifact.version})`,
        version: libraryArtifact.version,
      };
    }
  }
  const flinkArtifacts = artifacts.filter((a) => a.groupId === 'org.apache.flink');
  const core =
    flinkArtifacts.find((a) => a.artifactId === 'flink-core') ??
    flinkArtifacts.find((a) => /^flink-(runtime|streaming-java|dist)/.test(a.artifactId)) ??
    flinkArtifacts[0];
  let flink: BundledContents['flink'];
  if (core) flink = { version: core.version, evidence: `${core.path}` };
  else if (paths.has('org/apache/flink/api/common/typeutils/TypeSerializer.class'))
    flink = { evidence: 'org.apache.flink.api.common.typeutils.TypeSerializer (no pom.properties tells the version)' };
  return { artifacts, ...(library ? { library } : {}), ...(flink ? { flink } : {}), warnings };
}

function parseProperties(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const m = /^([^=:\s]+)\s*[=:]\s*(.*)$/.exec(line);
    if (m) out.set(m[1]!, m[2]!);
  }
  return out;
}

function toBinaryName(path: string): string {
  return path.replace(/\.class$/, '').replaceAll('/', '.');
}

/** java.util.Properties files are ISO-8859-1 */
function decodeLatin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4096) out += String.fromCharCode(...bytes.subarray(i, i + 4096));
  return out;
}
