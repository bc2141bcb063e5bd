/** JSON rendering: 2-space indentation, keys in model order, trailing newline; identical input gives identical bytes. */
import type { CompatibilityReport } from './report-types';

export function formatJson(report: CompatibilityReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
