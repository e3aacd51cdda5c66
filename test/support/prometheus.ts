/**
 * Reading Prometheus' text format in tests with an independent parser (npm parse-prometheus-text-format), into one
 * series per sample name and label set. That parser folds the `_bucket`/`_sum`/`_count` lines of a histogram into one
 * entry and drops their labels when the histogram has labels of its own, so histograms are read as untyped families
 * (each of `_bucket`, `_sum`, `_count` then keeps its labels); their declared type is kept in `types`.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export interface Scrape {
  /** Declared type of each family (COUNTER, GAUGE, HISTOGRAM, ...). */
  types: Map<string, string>;
  /** The sample named `name` (a histogram's `x_count`, `x_sum`, `x_bucket` too) whose labels include `labels`. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** Every label set of the samples named `name`. */
  labelsOf(name: string): Record<string, string>[];
}

export function parseScrape(text: string): Scrape {
  const types = new Map<string, string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) types.set(m[1]!, m[2]!.toUpperCase());
  const flat = text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped');
  const samples = new Map<string, { value?: string; labels?: Record<string, string> }[]>();
  for (const family of parsePrometheusTextFormat(flat))
    samples.set(family.name, [...(samples.get(family.name) ?? []), ...family.metrics]);
  const matching = (name: string, labels: Record<string, string>) =>
    (samples.get(name) ?? []).filter((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v));
  return {
    types,
    value(name, labels = {}) {
      const found = matching(name, labels);
      return found.length === 0 ? undefined : found.reduce((sum, s) => sum + Number(s.value), 0);
    },
    labelsOf: (name) => (samples.get(name) ?? []).map((s) => s.labels ?? {}),
  };
}
