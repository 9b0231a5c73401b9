// One phase handler's hold on a deploy item's job: the working copy the deployer changes, and the object as
// stored. Every write of the library's own (the deployer's status writes, the finalizer) moves the stored object
// on; the handler keeps the phase machine's copy of it in step, so that the machine's transition write starts
// from the latest resourceVersion instead of conflicting with our own write.
import { addFinalizer, phaseResult } from '../../../runtime/index.ts';
import { isFinalPhase, LANDSCAPER_FINALIZER } from '../../api/constants.ts';
import type { Context } from '../../api/context.ts';
import type { DeployItem, DeployItemStatus } from '../../api/deploy-item.ts';
import type { Target } from '../../api/target.ts';
import type { DeployerContext, DeployerResult } from './deployer.ts';
import { isInterrupted } from './errors.ts';
import { checkInterrupted } from './interruption.ts';
import type { DeployerPhaseResult, Run } from './library.ts';
import { deployItemsResource } from '../../api/resources.ts';
import { finishDeletion } from '../../job-phases.ts';
import { checkProgressingTimeout, untilDeadlineMs } from './timeout.ts';

/** The wait reason that names what the deployer waits for (the Waiting condition shows it). */
export const DEPLOYER_WAITS = 'DeployerWaits';
/** The wait of a job the deployer left unfinished without naming a wait: only a new job or the deadline ends it. */
const JOB_UNFINISHED = 'JobUnfinished';

export class DeployJob {
  readonly jobID: string;
  /** The working copy: the deployer sets status.phase, providerStatus, exportRef and conditions on it. */
  readonly item: DeployItem & { status: DeployItemStatus };
  /** The phase machine's object: kept in step with our writes. */
  private readonly stored: DeployItem;
  private readonly run: Run;

  constructor(stored: DeployItem, run: Run) {
    this.stored = stored;
    this.run = run;
    this.jobID = stored.status?.jobID ?? '';
    this.item = { ...stored, status: structuredClone(stored.status ?? {}) };
  }

  /** Writes the working status now; InterruptedError when the job was taken away meanwhile. */
  async writeStatus(): Promise<void> {
    const desired = structuredClone(this.item.status);
    this.keep(await this.run.lib.writer.write(this.stored, (draft) => void (draft.status = structuredClone(desired)), { signal: this.run.signal }));
  }

  async ensureFinalizer(): Promise<void> {
    this.keep(await addFinalizer(this.run.lib.client, deployItemsResource, this.stored, LANDSCAPER_FINALIZER));
  }

  async removeFinalizer(): Promise<void> {
    await finishDeletion(this.run.lib.client, deployItemsResource, this.stored, this.run.lib.recorder);
  }

  /**
   * Runs the deployer (its reconcile or delete). When it throws, what it changed but did not write (a validation
   * condition…) is written before the error is handled, as the status the error belongs to.
   */
  async runDeployer(work: (ctx: DeployerContext) => Promise<DeployerResult | void>, target: Target | undefined, lsContext: Context | undefined): Promise<DeployerResult | void> {
    try {
      return await work(this.context(target, lsContext));
    } catch (err) {
      if (!isInterrupted(err)) {
        await this.writeStatus().catch((writeErr: unknown) => {
          // Taken away: that ends the job for us; any other failure leaves the deployer's error to report.
          if (isInterrupted(writeErr)) throw writeErr;
        });
      }
      throw err;
    }
  }

  /**
   * The deployer's outcome as the phase machine takes it: a final phase finishes the job; otherwise the item
   * stays where the deployer left it, waiting for what the deployer named (it wakes the item), or else for a new
   * job; either way no longer than the progressing deadline. The working status goes with it.
   */
  settle(result: DeployerResult | void): DeployerPhaseResult {
    const status = structuredClone(this.item.status);
    const mutate = (s: DeployItemStatus): void => replaceStatus(s, status);
    if (status.phase !== undefined && isFinalPhase(status.phase)) return phaseResult.next(status.phase, mutate);
    const deadline = untilDeadlineMs(this.stored);
    if (result?.waitingFor !== undefined) {
      this.run.deployerWaits = true;
      const requeueAfterMs = earliest(result.requeueAfterMs, deadline);
      return phaseResult.wait(DEPLOYER_WAITS, result.waitingFor, { mutate, ...(requeueAfterMs !== undefined ? { requeueAfterMs } : {}) });
    }
    return phaseResult.wait(JOB_UNFINISHED, `the deployer left the job in phase ${status.phase ?? '(none)'}`, { mutate, ...(deadline !== undefined ? { requeueAfterMs: deadline } : {}) });
  }

  private context(target: Target | undefined, lsContext: Context | undefined): DeployerContext {
    const { lib, key, log, signal } = this.run;
    return {
      client: lib.client,
      item: this.item,
      target,
      lsContext,
      key,
      jobID: this.jobID,
      log,
      signal,
      recorder: lib.recorder,
      writeStatus: () => this.writeStatus(),
      checkpoint: async (name) => {
        checkProgressingTimeout(this.item, name);
        await checkInterrupted(lib.client, this.item, this.jobID, signal);
      },
    };
  }

  private keep(stored: DeployItem): void {
    this.stored.metadata = stored.metadata;
    this.stored.status = stored.status;
    this.item.metadata = stored.metadata;
  }
}

function replaceStatus(target: DeployItemStatus, source: DeployItemStatus): void {
  for (const key of Object.keys(target) as (keyof DeployItemStatus)[]) delete target[key];
  Object.assign(target, structuredClone(source));
}

function earliest(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}
