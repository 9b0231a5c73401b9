// Exports without fromResource (upstream's helm deployer): a jsonPath over the render's top-level objects, e.g.
// `.Values.service.port` or `.Release.Namespace`. Upstream skips a path that finds nothing and the item still
// Succeeds without the export (#445); here it fails, naming the export and its path.
import type { Chart } from '../../../template/helm/chart.ts';
import type { RenderedRelease } from '../../../template/helm/release-render.ts';
import type { ExportSpec } from '../../api/manifest-deployer.ts';
import type { AnyJSON } from '../../api/shared.ts';
import { jsonPathValues } from '../manifest/readiness.ts';
import { ConfigurationError } from '../../ls-error.ts';

/** bigint (int64 from --set style values) as JSON numbers: exports are JSON. */
function toJSON(value: unknown): AnyJSON {
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))) as AnyJSON;
}

export function valueExports(exports: ExportSpec[], chart: Chart, rendered: RenderedRelease, release: { name: string; namespace: string }): Record<string, AnyJSON> | undefined {
  const fromValues = exports.filter((e) => e.fromResource === undefined);
  if (fromValues.length === 0) return undefined;
  const root = {
    Values: rendered.values,
    Release: { Name: release.name, Namespace: release.namespace, Revision: 1, IsInstall: true, IsUpgrade: false, Service: 'Helm' },
    Chart: { ...chart.metadata, Name: chart.metadata.name, Version: chart.metadata.version ?? '' },
  };
  const out: Record<string, AnyJSON> = {};
  for (const e of fromValues) {
    const found = jsonPathValues(root, e.jsonPath);
    if (found.length === 0) throw new ConfigurationError('ReadExports', 'ExportNotFound', `export "${e.key}": nothing at ${e.jsonPath} in the chart's values, release and chart`);
    out[e.key] = toJSON(found[0]);
  }
  return out;
}
