// What a deployer implements on top of the library (upstream lib.Deployer): reconcile and delete one deploy item
// of its type. The library owns the job protocol, phases, finalizer, target/context lookup, errors and timeouts.
import type { ContinuousReconcileSpec } from '../../api/mock-deployer.ts';
import type { Logger } from 'pino';
import type { KubeClient } from '../../../client/client.ts';
import type { EventRecorder } from '../../../runtime/index.ts';
import type { Context } from '../../api/context.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import type { Target } from '../../api/target.ts';

export interface DeployerContext {
  /** The Landscaper cluster (where DeployItems, Targets and export Secrets live). */
  client: KubeClient;
  /** Working copy: the deployer sets status.phase, providerStatus, exportRef, conditions on it. */
  item: DeployItem;
  target: Target | undefined;
  lsContext: Context | undefined;
  /** The item's queue key ("namespace/name"): what `bind`'s wake and `release` take. */
  key: string;
  /** The job being worked on (status.jobID at pickup). */
  jobID: string;
  log: Logger;
  signal: AbortSignal;
  recorder: EventRecorder;
  /** Writes item.status now; throws InterruptedError when the job was taken away meanwhile. */
  writeStatus(): Promise<void>;
  /** A timeout checkpoint: throws on an exceeded progressing timeout, or when the job was interrupted. */
  checkpoint(name: string): Promise<void>;
}

export interface DeployerResult {
  /**
   * The item waits for something outside (readiness, exports, a deletion): this names it. The library shows it
   * in the Waiting condition and in a progressing-timeout error, and reconciles again when the deployer wakes
   * the item (or after requeueAfterMs).
   */
  waitingFor?: string;
  /** Run again after this delay at the latest (e.g. when a timeout of the deployer's falls due). */
  requeueAfterMs?: number;
}

export interface Deployer {
  /** spec.type this deployer is responsible for. */
  readonly type: string;
  /**
   * Its reconcile and delete take moments (no target cluster, no waits): the library writes the pickup together
   * with their outcome, one status write per job instead of two. A slow deployer leaves it unset, so that the
   * pickup shows (and the pickup timeout stays quiet) while it works.
   */
  readonly quick?: boolean;
  /**
   * Reconciles the item: sets a final phase (Succeeded/Failed) when done, or returns what it waits for. Throw
   * a LandscaperError (../../ls-error.ts) for failures: its codes decide whether the job ends.
   */
  reconcile(ctx: DeployerContext): Promise<DeployerResult | void>;
  /** Uninstalls what the item deployed, or returns what it waits for; once done the library removes the finalizer. */
  delete(ctx: DeployerContext): Promise<DeployerResult | void>;
  /** Hands over the controller's requeue ("namespace/name"): a deployer that waits on events wakes items with it. */
  bind?(wake: (key: string) => void): void;
  /** The item no longer waits (its job ended, was taken away, failed, or the item is gone): drop what it held. */
  release?(key: string): void;
  /**
   * The continuousReconcile schedule of the item's provider configuration (./continuous-reconcile.ts); undefined
   * when it has none, or a configuration its next job fails on (that job's error says why).
   */
  continuousReconcile?(item: DeployItem): ContinuousReconcileSpec | undefined;
}
