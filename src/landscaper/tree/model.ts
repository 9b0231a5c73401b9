// The printable tree of one installation: what `bosun tree` renders, independent of where the data came from
// (a one-shot list or live informers), so the renderer is a pure function of it.

export type TreeNodeKind = 'Installation' | 'Execution' | 'DeployItem';

export interface TreeNode {
  kind: TreeNodeKind;
  name: string;
  namespace: string;
  /** Undefined before any controller wrote a status. */
  phase?: string;
  jobID?: string;
  jobIDFinished?: string;
  /** Deploy items: the type without the landscaper.gardener.cloud/ prefix ("mock", "kubernetes-manifest"). */
  type?: string;
  /** When the current (or last) job reached this object: transitionTimes.triggerTime, else initTime. */
  startedAt?: string;
  /** transitionTimes.finishedTime, only when that job has finished (jobID == jobIDFinished). */
  finishedAt?: string;
  /** status.phaseTransitionTime: the fallback for the duration when no transition times exist. */
  phaseChangedAt?: string;
  /** Set while the object is being deleted. */
  deleting?: boolean;
  lastError?: { operation?: string; reason?: string; message: string };
  /** What the deployer waits for (a deploy item's Waiting condition), while it waits. */
  waitingFor?: string;
  children: TreeNode[];
}

/** The tree plus what the renderer says about the data itself. */
export interface TreeModel {
  namespace: string;
  /** The requested installation's name (shown when it does not exist). */
  name: string;
  root: TreeNode | undefined;
}
