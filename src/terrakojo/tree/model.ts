// The printable tree of one Repository: Repository → Branches → Workflows → Job → pods, independent of where the
// objects came from (a one-shot list or live informers), so the renderer is a pure function of it.

export interface PodNode {
  name: string;
  phase?: string;
  node?: string;
  restarts: number;
  /** A waiting or terminated container's reason (CrashLoopBackOff, Error, Completed…). */
  reason?: string;
}

export interface JobNode {
  name: string;
  active: number;
  succeeded: number;
  failed: number;
  /** The Complete or Failed condition's type and reason, once the Job has finished. */
  finished?: { type: string; reason?: string; message?: string };
  pods: PodNode[];
}

export interface WorkflowNode {
  name: string;
  template: string;
  path?: string;
  phase?: string;
  checkRunID?: number;
  checkRunName?: string;
  createdAt?: string;
  /** When the phase last changed (the JobStatus condition), the end of a terminal Workflow's run. */
  phaseChangedAt?: string;
  deleting: boolean;
  /** A condition that says something went wrong (status False), to show under the Workflow. */
  problem?: { reason: string; message: string };
  job?: JobNode;
}

export interface BranchNode {
  name: string;
  ref: string;
  sha: string;
  prNumber?: number;
  deleting: boolean;
  problem?: { reason: string; message: string };
  workflows: WorkflowNode[];
}

export interface RepositoryNode {
  name: string;
  namespace: string;
  owner: string;
  repo: string;
  defaultBranch: string;
  cursor?: string;
  deleting: boolean;
  /** The Ready-style condition of the last sync: its status and, when not True, why. */
  sync?: { status: string; reason: string; message: string };
  branches: BranchNode[];
}

export interface RepositoryTreeModel {
  namespace: string;
  name: string;
  root: RepositoryNode | undefined;
}
