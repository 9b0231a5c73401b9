// What every handler needs from the server.
import type { KubeObject, ListMeta } from '../../apimachinery/object.ts';
import type { AdmittedWrites } from '../admission/admitted-writes.ts';
import type { ServiceAccountTokens } from '../auth/service-account-tokens.ts';
import type { Representation } from '../http/negotiation.ts';
import type { ObjectService } from '../registry/object-service.ts';
import type { ResourceRegistry } from '../registry/registry.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import type { SqliteStore } from '../storage/sqlite-store.ts';
import type { WatchRegistry } from '../storage/watch-registry.ts';

export interface TableConverter {
  toTable(type: ResourceType, objects: KubeObject[], representation: Representation, listMeta: ListMeta, includeHeaders: boolean): unknown;
}

export interface HandlerContext {
  readonly registry: ResourceRegistry;
  readonly store: SqliteStore;
  readonly objects: ObjectService;
  /** The HTTP API's writes: through admission webhooks, then ObjectService. */
  readonly writes: AdmittedWrites;
  readonly watches: WatchRegistry;
  readonly tables: TableConverter;
  readonly bookmarkIntervalMs: number;
  /**
   * The client certificate and key presented to kubelets (pods/log, pods/exec) and the CA their serving
   * certificates are verified with (kube-apiserver's --kubelet-client-certificate/-key, --kubelet-certificate-authority);
   * without them nothing is proxied to a kubelet.
   */
  readonly kubeletClient: KubeletClientTls | undefined;
  /** Issues service account tokens (serviceaccounts/token). */
  readonly serviceAccountTokens: ServiceAccountTokens;
}

export interface KubeletClientTls {
  cert: string;
  key: string;
  ca: string;
}
