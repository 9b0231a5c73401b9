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
  /**
   * What it waits for, while it waits: a deploy item's Waiting condition, or a lastError that records a wait
   * (upstream's ERR_FOR_INFO_ONLY code, e.g. an installation in Init waiting for its predecessors). A wait is
   * the normal course of a job, so it is shown apart from errors.
   */
  waitingFor?: string;
  /** The reason of a wait recorded in lastError (PredecessorsNotFinished, WaitingForSuccessors…). */
  waitingReason?: string;
  /** Deploy items: the names of the deploy items of the same execution it depends on (spec dependsOn). */
  dependsOn?: string[];
  children: TreeNode[];
}

/** The tree plus what the renderer says about the data itself. */
export interface TreeModel {
  namespace: string;
  /** The requested root's name (shown when it does not exist). */
  name: string;
  /** The requested root's kind (shown when it does not exist); Installation when not given. */
  rootKind?: TreeNodeKind;
  root: TreeNode | undefined;
}

/** Every top-level installation of a namespace, each with its tree (`bosun tree installations`). */
export interface ForestModel {
  namespace: string;
  roots: TreeNode[];
}
