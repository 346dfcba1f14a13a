import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

type Labels<L extends string> = Partial<Record<L, string | number>>;

export interface GaugeHandle<L extends string> {
  set(value: number, labels?: Labels<L>): void;
}

export interface HistogramHandle<L extends string> {
  observe(seconds: number, labels?: Labels<L>): void;
}

/**
 * The Prometheus metrics of one server (prom-client): Node's own (event-loop delay, memory, GC,
 * handles) and the ones the server defines. Gauges are filled at scrape time by the collectors given
 * to `onScrape`, so nothing runs between scrapes; a collector that fails (the database is away)
 * leaves its gauges empty for that scrape instead of failing the whole answer.
 */
export class MetricsRegistry {
  private readonly registry = new Registry();
  private readonly gauges: Gauge[] = [];
  private readonly collectors: { name: string; collect: () => Promise<void> | void }[] = [];

  constructor(private readonly onCollectError: (collector: string, error: Error) => void) {
    collectDefaultMetrics({ register: this.registry });
  }

  readonly contentType = this.registry.contentType;

  histogram<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[],
  ): HistogramHandle<L> {
    const histogram = new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
    return { observe: (seconds, labels = {}) => histogram.observe(labels, seconds) };
  }

  gauge<L extends string>(name: string, help: string, labelNames: readonly L[] = []): GaugeHandle<L> {
    const gauge = new Gauge({ name, help, labelNames, registers: [this.registry] });
    this.gauges.push(gauge);
    return { set: (value, labels = {}) => gauge.set(labels, value) };
  }

  /** Runs `collect` at every scrape, before the answer is written; it sets the gauges it owns. */
  onScrape(name: string, collect: () => Promise<void> | void): void {
    this.collectors.push({ name, collect });
  }

  /** The Prometheus text format of every metric, collected now (collectors start in their order). */
  async render(): Promise<string> {
    for (const gauge of this.gauges) gauge.reset();
    const failed = (name: string) => (err: unknown) => this.onCollectError(name, err as Error);
    await Promise.all(
      this.collectors.map(({ name, collect }) => {
        try {
          return Promise.resolve(collect()).catch(failed(name));
        } catch (err) {
          failed(name)(err);
          return Promise.resolve();
        }
      }),
    );
    return this.registry.metrics();
  }
}
