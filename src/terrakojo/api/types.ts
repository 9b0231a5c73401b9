// The terrakojo.io/v1alpha1 kinds as TypeScript shapes, field for field as upstream's api/v1alpha1/*_types.go.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ExecutionUnit, WorkflowPhase } from './constants.ts';

/** metav1.Condition. */
export interface TerrakojoCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

export interface Repository extends KubeObject {
  spec: {
    owner: string;
    name: string;
    /** Free text ("github"); upstream reads it nowhere. */
    type: string;
    defaultBranch: string;
    githubSecretRef: { name: string; namespace?: string };
  };
  status?: {
    conditions?: TerrakojoCondition[];
    /** The default-branch sync cursor: the last commit made into a Branch. */
    lastDefaultBranchHeadSha?: string;
    synced?: boolean;
  };
}

export interface Branch extends KubeObject {
  spec: {
    owner: string;
    /** The GitHub repository name (not the Repository object's name). */
    repository: string;
    /** The git ref, e.g. "main" or "feature/x". */
    name: string;
    prNumber?: number;
    sha: string;
  };
  status?: {
    conditions?: TerrakojoCondition[];
    workflows?: string[];
    changedFiles?: string[];
  };
}

export interface Workflow extends KubeObject {
  spec: {
    owner: string;
    repository: string;
    /** The Branch object's name (not the git ref). */
    branch: string;
    sha: string;
    /** A WorkflowTemplate in the same namespace. */
    template: string;
    /** A folder, "." for the repository unit, or a file path. */
    path?: string;
    parameters?: Record<string, string>;
  };
  status?: {
    conditions?: TerrakojoCondition[];
    phase?: WorkflowPhase;
    /** Legacy; upstream documents it as not maintained. */
    jobs?: string[];
    checkRunID?: number;
    checkRunName?: string;
  };
}

export interface WorkflowTemplate extends KubeObject {
  spec: {
    displayName: string;
    match: { paths: string[]; executionUnit?: ExecutionUnit | string };
    /** A batch/v1 JobSpec, copied into every Job. */
    job: Record<string, unknown>;
  };
  status?: { conditions?: TerrakojoCondition[] };
}
