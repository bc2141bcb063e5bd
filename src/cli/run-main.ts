/**
 * The CLI as a process runs it, every command (run-as-process.ts wires process.argv and the streams
 * into runCli). Shared by main.ts (the TypeScript entry) and bundle-entry.ts (the prebuilt bundle).
 */
import { installNativeBase64 } from './install-native-base64';
import { installSnappyWasm } from './install-snappy-wasm';
import { runAsProcess } from './run-as-process';
import { runCli } from './run-cli';

export async function runMain(argv: readonly string[]): Promise<void> {
  installNativeBase64();
  installSnappyWasm();
  await runAsProcess(runCli, argv);
}
