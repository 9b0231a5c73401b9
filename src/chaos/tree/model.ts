// The printable tree of one Disruption: Disruption → targets → one line per kind with its injection status and
// chaos pod, plus what cleanup waits for. Independent of where the objects came from, so rendering is pure.

export interface ChaosPodNode {
  name: string;
  phase?: string;
  ready: boolean;
  node?: string;
  deleting: boolean;
  /** Still holds the chaos-pod finalizer (cleanup waits for the injector to clean). */
  finalizer: boolean;
  /** A terminated or waiting container's reason and exit code. */
  reason?: string;
}

export interface TargetKindNode {
  kind: string;
  /** The per-target-per-kind status the controller wrote (NotInjected, Injected, IsStuckOnRemoval). */
  status?: string;
  since?: string;
  pod?: ChaosPodNode;
}

export interface TargetNode {
  name: string;
  /** The target pod's or node's phase/readiness as the API has it; 'gone' when it no longer exists. */
  state: string;
  node?: string;
  kinds: TargetKindNode[];
}

export interface DisruptionNode {
  namespace: string;
  name: string;
  level: string;
  kinds: string[];
  injectionStatus?: string;
  dryRun: boolean;
  counts: { desired: number; selected: number; injected: number; ignored: number };
  createdAt?: string;
  /** The Go duration string of spec.duration. */
  duration?: string;
  deleting: boolean;
  stuckOnRemoval: boolean;
  cleanedAt?: string;
  targets: TargetNode[];
  /** Chaos pods of this disruption whose target is no longer in its status (being removed). */
  strays: ChaosPodNode[];
}

export interface DisruptionTreeModel {
  namespace: string;
  name: string;
  root: DisruptionNode | undefined;
}
