/** Types of the npm package parse-prometheus-text-format (it ships none): the text format as metric families. */
declare module 'parse-prometheus-text-format' {
  export interface PrometheusMetric {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface PrometheusFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PrometheusMetric[];
  }
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
