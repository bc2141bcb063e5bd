const UNITS: Record<string, number> = { '': 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, kb: 1e3, mb: 1e6, gb: 1e9 };

/** `512MiB` → 536870912; `2GiB`, `64mib`, `1000` (bytes). */
export function parseByteSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new Error(`expected a size such as 512MiB or 2GiB, found '${text}'`);
  return Math.round(Number(m[1]) * unit);
}
