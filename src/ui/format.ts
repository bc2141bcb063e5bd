/** 1536 → "1.5 KiB"; exact bytes are shown in titles where it matters. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return '—';
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 && !Number.isInteger(v) ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function formatPercent(part: number, whole: number): string {
  if (whole === 0) return '—';
  const p = (part / whole) * 100;
  return `${p < 10 ? p.toFixed(1) : Math.round(p)}%`;
}

export function shortHash(hex: string): string {
  return hex.length > 12 ? `${hex.slice(0, 12)}…` : hex;
}
