// What registerDisruptionController takes, and what every reconcile sees (ctx.data).
import type { KubeClient } from '../../client/client.ts';
import type { EventRecorder, Informer, ReadYourWrites, StatusWriter } from '../../runtime/index.ts';
import type { Disruption } from '../api/types.ts';
import type { ChaosConfig } from '../config.ts';
import type { ChaosPodExpectations } from './expectations.ts';
import type { ChaosPodReplacements } from './failed-chaos-pods.ts';
import type { KeyedMutex } from './keyed-mutex.ts';
import type { Node, Pod } from '../../apimachinery/api/index.ts';
import type { ChaosControllerMetrics } from './metrics.ts';
import type { Rng } from './selection.ts';

export interface DisruptionControllerOptions {
  /** Chaos namespace, durations, delays, safeguards and how chaos pods are built; default DEFAULT_CHAOS_CONFIG. */
  config?: ChaosConfig;
  /** Disruptions reconciled in parallel; default 4. */
  concurrency?: number;
  /** A number in [0, 1) for picking random targets; default Math.random (tests pin it). */
  rng?: Rng;
  now?: () => Date;
  name?: string;
}

export interface DisruptionControllerData {
  client: KubeClient;
  config: ChaosConfig;
  recorder: EventRecorder;
  status: StatusWriter<Disruption>;
  disruptions: Informer<Disruption>;
  /** Pods in every namespace: targets, and chaos pods (indexed by disruption and by target). */
  pods: Informer<Pod>;
  nodes: Informer<Node>;
  expectations: ChaosPodExpectations;
  /** When the chaos pods that failed before the end may be replaced (their backoff). */
  replacements: ChaosPodReplacements;
  /** Our own writes of disruptions, until the cache shows them (a stale status would re-pick random targets). */
  writes: ReadYourWrites<Disruption>;
  /** Target selection and chaos pod creation, one disruption at a time per namespace (or for nodes). */
  selection: KeyedMutex;
  metrics: ChaosControllerMetrics;
  rng: Rng;
  now(): Date;
}
