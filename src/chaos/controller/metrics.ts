// The controller's Prometheus metrics: upstream's statsd names (o11y/metrics, prefix chaos.controller.) as
// Prometheus names under chaos_controller_, in the manager's registry. Gauges are read from the caches at
// scrape time, so no ticker runs (upstream reports them every minute).
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { KubeObject } from '../../apimachinery/object.ts';
import type { Disruption } from '../api/types.ts';

const durationBuckets = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 86400];

export interface ChaosMetricSources {
  disruptions(): Iterable<Disruption>;
  chaosPods(): Iterable<KubeObject>;
}

export class ChaosControllerMetrics {
  readonly reconcile: Counter;
  readonly reconcileDuration: Histogram;
  readonly injectDuration: Histogram;
  readonly cleanupDuration: Histogram;
  readonly completedDuration: Histogram;
  readonly podsCreated: Counter<'status'>;
  readonly disruptionsCount: Counter<'kind'>;
  readonly orphanFound: Counter;

  constructor(registry: Registry, sources: ChaosMetricSources) {
    const registers = [registry];
    this.reconcile = new Counter({ name: 'chaos_controller_reconcile_total', help: 'Disruption reconcile loops', registers });
    this.reconcileDuration = new Histogram({ name: 'chaos_controller_reconcile_duration_seconds', help: 'Duration of a disruption reconcile loop', buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30], registers });
    this.injectDuration = new Histogram({ name: 'chaos_controller_inject_duration_seconds', help: 'Time from a disruption\'s creation to its chaos pods being created', buckets: durationBuckets, registers });
    this.cleanupDuration = new Histogram({ name: 'chaos_controller_cleanup_duration_seconds', help: 'Time from a disruption\'s deletion to its finalizer being removed', buckets: durationBuckets, registers });
    this.completedDuration = new Histogram({ name: 'chaos_controller_disruption_completed_duration_seconds', help: 'Lifetime of a completed disruption, creation to finalizer removal', buckets: durationBuckets, registers });
    this.podsCreated = new Counter({ name: 'chaos_controller_pods_created_total', help: 'Chaos pods created, by outcome', labelNames: ['status'], registers });
    this.disruptionsCount = new Counter({ name: 'chaos_controller_disruptions_count_total', help: 'Completed disruptions, by kind', labelNames: ['kind'], registers });
    this.orphanFound = new Counter({ name: 'chaos_controller_orphan_found_total', help: 'Chaos pods found without their disruption', registers });
    new Gauge({
      name: 'chaos_controller_disruptions_gauge',
      help: 'Disruptions that exist, by namespace',
      labelNames: ['namespace'],
      registers,
      collect() {
        this.reset();
        for (const d of sources.disruptions()) this.inc({ namespace: d.metadata.namespace ?? '' });
      },
    });
    new Gauge({
      name: 'chaos_controller_disruptions_stuck_on_removal_current',
      help: 'Disruptions flagged stuck on removal',
      registers,
      collect() {
        let n = 0;
        for (const d of sources.disruptions()) if (d.status?.isStuckOnRemoval) n++;
        this.set(n);
      },
    });
    new Gauge({
      name: 'chaos_controller_disruption_ongoing_duration_seconds',
      help: 'Age of the oldest disruption not being deleted',
      registers,
      collect() {
        let oldest = Date.now();
        for (const d of sources.disruptions()) {
          const created = Date.parse(d.metadata.creationTimestamp ?? '');
          if (!d.metadata.deletionTimestamp && !Number.isNaN(created)) oldest = Math.min(oldest, created);
        }
        this.set((Date.now() - oldest) / 1000);
      },
    });
    new Gauge({
      name: 'chaos_controller_pods_gauge',
      help: 'Chaos pods that exist',
      registers,
      collect() {
        let n = 0;
        for (const _ of sources.chaosPods()) n++;
        this.set(n);
      },
    });
  }
}
