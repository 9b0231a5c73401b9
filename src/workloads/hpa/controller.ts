// Registers the HorizontalPodAutoscaler controller: an autoscaler syncs when it changes and then every sync
// period (--horizontal-pod-autoscaler-sync-period, 15 s), since the pods' readings change with no object changing.
import type { HorizontalPodAutoscaler, Pod } from '../../apimachinery/api/index.ts';
import { horizontalPodAutoscalersResource, podsResource } from '../../apimachinery/builtin-resources.ts';
import { objectKey } from '../../apimachinery/object.ts';
import type { Controller, Manager } from '../../runtime/index.ts';
import { statusWriter } from '../../runtime/index.ts';
import { ReplicaNormalizer } from './normalize.ts';
import { defaultReplicaCalculatorOptions, type ReplicaCalculatorOptions } from './replica-calculator.ts';
import { syncHorizontalPodAutoscaler, type HpaControllerData } from './sync.ts';

export interface HpaControllerOptions {
  name?: string;
  concurrency?: number;
  /** How often each autoscaler is synced again (default 15 s). */
  syncPeriodMs?: number;
  /** The scale-down stabilization window of autoscalers whose behavior sets none (default 5 min). */
  downscaleStabilizationMs?: number;
  calculator?: Partial<ReplicaCalculatorOptions>;
  now?: () => Date;
}

export function registerHpaController(mgr: Manager, options: HpaControllerOptions = {}): Controller<HorizontalPodAutoscaler, HpaControllerData> {
  const normalizer = new ReplicaNormalizer(options.downscaleStabilizationMs ?? 5 * 60_000);
  const data: HpaControllerData = {
    client: mgr.client,
    recorder: mgr.recorder('horizontal-pod-autoscaler'),
    pods: mgr.informer<Pod>(podsResource),
    status: statusWriter<HorizontalPodAutoscaler>(mgr.client, horizontalPodAutoscalersResource),
    normalizer,
    calculator: { ...defaultReplicaCalculatorOptions, ...options.calculator },
    syncPeriodMs: options.syncPeriodMs ?? 15_000,
    now: options.now ?? (() => new Date()),
  };
  // The remembered recommendations and scale events go with their autoscaler.
  mgr.informer<HorizontalPodAutoscaler>(horizontalPodAutoscalersResource).addEventHandler({ onDelete: (hpa) => normalizer.forget(objectKey(hpa.metadata.namespace, hpa.metadata.name ?? '')) });
  const controller = mgr.controller<HorizontalPodAutoscaler, HpaControllerData>({
    name: options.name ?? 'horizontalpodautoscaler',
    for: horizontalPodAutoscalersResource,
    data,
    concurrency: options.concurrency ?? 5,
    reconcile: syncHorizontalPodAutoscaler,
  });
  return controller;
}
