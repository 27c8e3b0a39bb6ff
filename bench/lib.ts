/** One line of the results table. */
export interface Row {
  figure: string;
  subject: string;
  value: number;
  unit: string;
  /** What `value` is compared with, and the ratio. */
  baseline?: { name: string; value: number; ratio: number };
  /** The target, in words, and whether this run met it. */
  target?: { text: string; met: boolean };
  note?: string;
}

/** Options every figure gets. */
export interface BenchOptions {
  quick: boolean;
  root: string;
}

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Runs each subject `rounds` times, alternating subjects within a round so that machine
 * noise hits them alike, and returns the median result per subject.
 */
export async function alternate<K extends string>(
  rounds: number,
  subjects: Record<K, () => Promise<number> | number>,
): Promise<Record<K, number>> {
  const samples = Object.fromEntries(Object.keys(subjects).map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < rounds; round++) {
    const order = Object.keys(subjects) as K[];
    if (round % 2 === 1) order.reverse();
    for (const key of order) samples[key].push(await subjects[key]());
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v as number[])])) as Record<K, number>;
}

/** A ratio with two decimals. */
export function ratio(value: number, baseline: number): number {
  return Math.round((value / baseline) * 100) / 100;
}

/** Formats the rows as a Markdown table. */
export function table(rows: readonly Row[]): string {
  const lines = ['| # | subject | value | vs | ratio | target |', '|---|---|---|---|---|---|'];
  for (const row of rows) {
    const value = `${formatNumber(row.value)} ${row.unit}`;
    const vs = row.baseline ? `${row.baseline.name} (${formatNumber(row.baseline.value)})` : '';
    const r = row.baseline ? `${row.baseline.ratio}x` : '';
    const target = row.target ? `${row.target.met ? 'met' : 'MISSED'}: ${row.target.text}` : (row.note ?? '');
    lines.push(`| ${row.figure} | ${row.subject} | ${value} | ${vs} | ${r} | ${target} |`);
  }
  return lines.join('\n');
}

function formatNumber(value: number): string {
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return String(Math.round(value * 100) / 100);
}
