// Helm's release actions (helm.sh/helm/v3/pkg/action) against one cluster: install, upgrade, uninstall, read.
// Releases live in Helm's own storage (Secrets `sh.helm.release.v1.NAME.vN`, type `helm.sh/release.v1`), so a
// real `helm list` sees what Bosun installed and Bosun sees Helm's. Used by the Landscaper helm deployer's
// real-Helm mode (`helmDeployment: true`) and by `bosun helm install|upgrade|uninstall|list|history`.
import type { KubeClient } from '../../../../client/client.ts';
import type { Chart } from '../../../../template/helm/chart.ts';
import type { Values } from '../../../../template/helm/values.ts';

/** Helm's release.Status values, as stored in the release JSON and the Secret's `status` label. */
export type ReleaseStatus =
  | 'unknown' | 'deployed' | 'uninstalled' | 'superseded' | 'failed' | 'uninstalling' | 'pending-install' | 'pending-upgrade' | 'pending-rollback';

/** What the actions report about one revision of a release (the fields `helm list` and `helm history` print). */
export interface ReleaseSummary {
  name: string;
  namespace: string;
  revision: number;
  status: ReleaseStatus;
  /** `NAME-VERSION` of the chart, as `helm list` prints it. */
  chart: string;
  appVersion: string;
  /** RFC 3339 time of the revision's last deployment. */
  updated: string;
  description: string;
  /** The rendered manifests (no hooks), `---\n# Source: …` separated, as Helm stores them. */
  manifest: string;
  notes: string;
}

export interface InstallOrUpgradeRequest {
  name: string;
  namespace: string;
  chart: Chart;
  /** User-supplied values (the release's `config`); chart defaults are coalesced under them. */
  values: Values;
  createNamespace?: boolean;
  /** Roll back (upgrade) or uninstall (install) when the action fails. */
  atomic?: boolean;
  /** Wait for the resources to be ready (Helm's --wait) within timeoutMs. */
  wait?: boolean;
  timeoutMs?: number;
  force?: boolean;
  disableHooks?: boolean;
  description?: string;
  /** Revisions kept (Helm's --history-max); Landscaper uses 10. */
  historyMax?: number;
  signal?: AbortSignal;
}

export interface UninstallRequest {
  name: string;
  namespace: string;
  keepHistory?: boolean;
  disableHooks?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface HelmActions {
  /**
   * Installs the release when it has no deployed revision, else upgrades it. A release left in a `pending-*`
   * state by an interrupted action is recovered (marked failed, then superseded by the new revision), never a
   * "another operation is in progress" error that blocks forever.
   */
  installOrUpgrade(request: InstallOrUpgradeRequest): Promise<ReleaseSummary>;
  /** Deletes the release's resources (hooks by their delete policies) and its storage (unless keepHistory). */
  uninstall(request: UninstallRequest): Promise<ReleaseSummary | undefined>;
  /** The latest revision, or undefined when the release does not exist. */
  get(name: string, namespace: string): Promise<ReleaseSummary | undefined>;
  /** Every revision, oldest first. */
  history(name: string, namespace: string): Promise<ReleaseSummary[]>;
  /** The latest revision of each release, in one namespace or (undefined) all. */
  list(namespace: string | undefined): Promise<ReleaseSummary[]>;
}

/** The actions against the cluster `client` talks to. Implemented in ./helm-actions.ts. */
export type CreateHelmActions = (client: KubeClient) => HelmActions;
