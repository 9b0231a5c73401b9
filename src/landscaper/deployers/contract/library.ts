// What the deployer library's phases work with: the library of one deployer (one per controller), and one
// reconcile of one deploy item (the data the phase machine hands every handler).
import type { Logger } from 'pino';
import type { KubeClient } from '../../../client/client.ts';
import type { EventRecorder, Informer, PhaseHandler, PhaseResult, StatusWriter } from '../../../runtime/index.ts';
import type { DeployItemPhase } from '../../api/constants.ts';
import type { Context } from '../../api/context.ts';
import type { DeployerInformation, DeployItem, DeployItemStatus } from '../../api/deploy-item.ts';
import type { Deployer } from './deployer.ts';

export interface Library {
  deployer: Deployer;
  info: DeployerInformation;
  client: KubeClient;
  /** Every status write of the library and its deployer (./job-writer.ts). */
  writer: StatusWriter<DeployItem>;
  recorder: EventRecorder;
  /** A missing Context fails the item (upstream requires it). */
  requireContext: boolean;
  /** Contexts from the manager's cache: one GET per job saved (a miss still asks the server). */
  contexts: Informer<Context>;
}

/** One reconcile of one deploy item. */
export interface Run {
  lib: Library;
  /** The item's queue key ("namespace/name"). */
  key: string;
  log: Logger;
  signal: AbortSignal;
  /**
   * The deployer returned what it waits for: it holds watches that wake the item, so the library must not
   * release it when the reconcile ends.
   */
  deployerWaits: boolean;
}

/** What a phase handler of the deployer library concludes. */
export type DeployerPhaseResult = PhaseResult<DeployItemPhase, DeployItemStatus>;

export type DeployerPhaseHandler = PhaseHandler<DeployItem, DeployItemPhase, DeployItemStatus, Run>;
