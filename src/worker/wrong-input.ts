import type { InspectorFailure } from './inspector';

/** The failure for an input the user gave wrongly (nothing open, no schema, no such entry). */
export function wrongInput(detail: string): InspectorFailure {
  return { kind: 'decode', name: 'DecodeError', code: 'wrong-file-kind', message: detail, detail, path: [] };
}
