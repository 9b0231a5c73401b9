// Prometheus metrics under controller-runtime's names, in a registry per manager (never prom-client's
// global one, so two managers in one process — or in one test file — don't collide).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ControllerMetrics, ReconcileResult } from './controller/controller-metrics.ts';
import type { QueueMetrics } from './workqueue/queue-metrics.ts';
import type { WorkQueue } from './workqueue/queue.ts';

// controller-runtime's pkg/internal/controller/metrics buckets.
const reconcileBuckets = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4,
  4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];
// client-go's workqueue buckets: 10 ns × 10^i, i < 12.
const queueBuckets = Array.from({ length: 12 }, (_, i) => 1e-8 * 10 ** i);

export interface RuntimeMetricsOptions {
  registry?: Registry;
  /** Add prom-client's process metrics (CPU, memory, event-loop lag) to the registry. */
  processMetrics?: boolean;
}

export class RuntimeMetrics {
  readonly registry: Registry;
  private readonly queues = new Map<string, WorkQueue>();

  private readonly reconcileTotal: Counter<'controller' | 'result'>;
  private readonly reconcileErrors: Counter<'controller'>;
  private readonly terminalErrors: Counter<'controller'>;
  private readonly reconcilePanics: Counter<'controller'>;
  private readonly reconcileTime: Histogram<'controller'>;
  private readonly activeWorkers: Gauge<'controller'>;
  private readonly maxConcurrent: Gauge<'controller'>;

  private readonly depth: Gauge<'name'>;
  private readonly adds: Counter<'name'>;
  private readonly retries: Counter<'name'>;
  private readonly queueDuration: Histogram<'name'>;
  private readonly workDuration: Histogram<'name'>;

  constructor(options: RuntimeMetricsOptions = {}) {
    const registry = options.registry ?? new Registry();
    this.registry = registry;
    const registers = [registry];
    // prom-client samples the event loop's delay with a 10 ms timer by default: a hundred wake-ups a second in an
    // idle `bosun up` (most of its idle CPU). Every 100 ms still catches any stall longer than that.
    if (options.processMetrics) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });

    this.reconcileTotal = new Counter({ name: 'controller_runtime_reconcile_total', help: 'Total number of reconciliations per controller', labelNames: ['controller', 'result'], registers });
    this.reconcileErrors = new Counter({ name: 'controller_runtime_reconcile_errors_total', help: 'Total number of reconciliation errors per controller', labelNames: ['controller'], registers });
    this.terminalErrors = new Counter({ name: 'controller_runtime_terminal_reconcile_errors_total', help: 'Total number of terminal reconciliation errors per controller', labelNames: ['controller'], registers });
    this.reconcilePanics = new Counter({ name: 'controller_runtime_reconcile_panics_total', help: 'Total number of reconciliation panics per controller', labelNames: ['controller'], registers });
    this.reconcileTime = new Histogram({ name: 'controller_runtime_reconcile_time_seconds', help: 'Length of time per reconciliation per controller', labelNames: ['controller'], buckets: reconcileBuckets, registers });
    this.activeWorkers = new Gauge({ name: 'controller_runtime_active_workers', help: 'Number of currently used workers per controller', labelNames: ['controller'], registers });
    this.maxConcurrent = new Gauge({ name: 'controller_runtime_max_concurrent_reconciles', help: 'Maximum number of concurrent reconciles per controller', labelNames: ['controller'], registers });

    this.depth = new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames: ['name'], registers });
    this.adds = new Counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames: ['name'], registers });
    this.retries = new Counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue', labelNames: ['name'], registers });
    this.queueDuration = new Histogram({ name: 'workqueue_queue_duration_seconds', help: 'How long in seconds an item stays in workqueue before being requested', labelNames: ['name'], buckets: queueBuckets, registers });
    this.workDuration = new Histogram({ name: 'workqueue_work_duration_seconds', help: 'How long in seconds processing an item from workqueue takes', labelNames: ['name'], buckets: queueBuckets, registers });
    // The two in-flight gauges are computed at scrape time from the queues themselves: no ticker.
    const queues = this.queues;
    new Gauge({
      name: 'workqueue_unfinished_work_seconds',
      help: 'How many seconds of work has been done that is in progress and hasn\'t been observed by work_duration',
      labelNames: ['name'],
      registers,
      collect() {
        for (const [name, queue] of queues) this.set({ name }, queue.unfinishedWorkSeconds());
      },
    });
    new Gauge({
      name: 'workqueue_longest_running_processor_seconds',
      help: 'How many seconds has the longest running processor for workqueue been running',
      labelNames: ['name'],
      registers,
      collect() {
        for (const [name, queue] of queues) this.set({ name }, queue.longestRunningProcessorSeconds());
      },
    });
  }

  controller(name: string): ControllerMetrics {
    return {
      reconciled: (result: ReconcileResult, seconds: number) => {
        this.reconcileTotal.inc({ controller: name, result });
        this.reconcileTime.observe({ controller: name }, seconds);
      },
      errored: (terminal: boolean) => {
        this.reconcileErrors.inc({ controller: name });
        if (terminal) this.terminalErrors.inc({ controller: name });
      },
      panicked: () => this.reconcilePanics.inc({ controller: name }),
      activeWorkers: (delta: number) => this.activeWorkers.inc({ controller: name }, delta),
      maxConcurrentReconciles: (n: number) => this.maxConcurrent.set({ controller: name }, n),
    };
  }

  queue(name: string): QueueMetrics {
    return {
      added: () => this.adds.inc({ name }),
      depth: (n: number) => this.depth.set({ name }, n),
      dequeued: (seconds: number) => this.queueDuration.observe({ name }, seconds),
      finished: (seconds: number) => this.workDuration.observe({ name }, seconds),
      retried: () => this.retries.inc({ name }),
    };
  }

  /** Lets the in-flight gauges read the queue at scrape time. */
  trackQueue(name: string, queue: WorkQueue): void {
    this.queues.set(name, queue);
  }

  /** Current value of a counter or gauge sample, for tests and the CLI's summary. */
  async value(metric: string, labels: Record<string, string> = {}): Promise<number> {
    const found = this.registry.getSingleMetric(metric);
    if (!found) return 0;
    const data = await found.get();
    let total = 0;
    for (const sample of data.values) {
      const sl = sample.labels as Record<string, string | number | undefined>;
      if (Object.entries(labels).every(([k, v]) => String(sl[k]) === v) && !('le' in sl)) total += sample.value;
    }
    return total;
  }
}
