// Groups, versions, kinds and resources (apimachinery's runtime/schema): how an apiVersion string splits, and the
// GroupVersionKind / GroupVersionResource triples that admission and discovery pass around.

export interface GroupVersion {
  /** '' for the core group. */
  group: string;
  version: string;
}

export interface GroupVersionKind extends GroupVersion {
  kind: string;
}

export interface GroupVersionResource extends GroupVersion {
  /** Plural, lower-case: 'deployments', 'widgets'. */
  resource: string;
}

/** `apps/v1` → apps, v1; `v1` → the core group (schema.ParseGroupVersion without its error for extra slashes). */
export function parseApiVersion(apiVersion: string): GroupVersion {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The apiVersion string of a group and version: `apps/v1`, or plain `v1` for the core group. */
export function apiVersionOf(gv: GroupVersion): string {
  return gv.group ? `${gv.group}/${gv.version}` : gv.version;
}

/** The group of an apiVersion: owner references and resource identity ignore the version. */
export function groupOf(apiVersion: string): string {
  return parseApiVersion(apiVersion).group;
}

/** Go's GroupVersionKind.String(): `group/version, Kind=kind`. */
export function formatGroupVersionKind(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}, Kind=${gvk.kind}`;
}
