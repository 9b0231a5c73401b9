// A release rendered as Helm's install and upgrade actions render it (action.renderResources): dependencies
// processed, values coalesced and checked against the charts' schemas, templates rendered with the release and
// the cluster's capabilities, NOTES.txt taken out, manifests and hooks split and sorted in install order, and
// the CRDs of every chart beside them. `helm template`, the Landscaper helm deployer and the release actions
// all start from here.
import type { Chart } from './chart.ts';
import { processDependencies } from './dependencies.ts';
import { DEFAULT_API_VERSIONS } from './capabilities.ts';
import { HelmRenderError, renderChart, type RenderOptions } from './render.ts';
import { validateValuesSchema } from './schema.ts';
import { ManifestParseError, sortManifests, type Hook, type Manifest } from './sort.ts';
import { coalesceChartValues, type Values } from './values.ts';

export class HelmTemplateError extends Error {}

/**
 * A failure after the values were accepted (a template or manifest error). `helm template` then says "Use
 * --debug flag to render out invalid YAML", and under --debug first prints `manifest`: what was rendered.
 */
export class HelmRenderFailure extends HelmTemplateError {
  constructor(
    message: string,
    readonly manifest: string,
  ) {
    super(message);
  }
}

export interface RenderReleaseOptions {
  releaseName: string;
  namespace: string;
  /** The user's values; chart defaults are coalesced under them. */
  values: Values;
  /** Default 1, an install. */
  revision?: number;
  isUpgrade?: boolean;
  /** Default Helm's v1.20.0 (helm template without a cluster). */
  kubeVersion?: string;
  /** Added to Helm's default API versions. */
  apiVersions?: string[];
  lookup?: RenderOptions['lookup'];
  skipSchemaValidation?: boolean;
}

export interface RenderedRelease {
  /** The coalesced values the templates saw (.Values). */
  values: Values;
  manifests: Manifest[];
  hooks: Hook[];
  /** The crds/ files of the chart and its subcharts, named `chart/charts/sub/crds/file`. */
  crds: { name: string; data: string }[];
  /** The root chart's rendered NOTES.txt ('' when none). */
  notes: string;
}

export function renderRelease(chart: Chart, opts: RenderReleaseOptions): RenderedRelease {
  if (chart.metadata.type === 'library') throw new HelmTemplateError('library charts are not installable');
  if (chart.metadata.type && chart.metadata.type !== 'application') throw new HelmTemplateError(`validation: chart.metadata.type must be application or library`);
  processDependencies(chart, structuredClone(opts.values));
  const values = coalesceChartValues(chart, opts.values);
  if (!opts.skipSchemaValidation) validateValuesSchema(chart, values);
  const kubeVersion = opts.kubeVersion ?? 'v1.20.0';
  const revision = opts.revision ?? 1;
  let files: Map<string, string>;
  try {
    files = renderChart(chart, values, {
      release: { name: opts.releaseName, namespace: opts.namespace, revision, isInstall: opts.isUpgrade !== true, isUpgrade: opts.isUpgrade === true },
      capabilities: { kubeVersion: kubeVersion.startsWith('v') ? kubeVersion : `v${kubeVersion}`, apiVersions: [...DEFAULT_API_VERSIONS, ...(opts.apiVersions ?? [])] },
      lookup: opts.lookup,
    });
  } catch (e) {
    if (e instanceof HelmRenderError) throw new HelmRenderFailure(e.message, '');
    throw e;
  }
  let notes = '';
  for (const name of [...files.keys()]) {
    if (!name.endsWith('NOTES.txt')) continue;
    if (name === `${chart.metadata.name}/templates/NOTES.txt`) notes = files.get(name) ?? '';
    files.delete(name);
  }
  try {
    return { values, ...sortManifests(files), crds: allCrds(chart), notes };
  } catch (e) {
    // Helm hands back every rendered file (Go map order; by name here) so --debug can show the invalid YAML.
    let blob = '';
    for (const [name, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) if (content.trim() !== '') blob += `---\n# Source: ${name}\n${content}\n`;
    if (e instanceof ManifestParseError) throw new HelmRenderFailure(e.message, blob.trim() + '\n');
    throw e;
  }
}

function allCrds(c: Chart): { name: string; data: string }[] {
  const out: { name: string; data: string }[] = [];
  const path = (ch: Chart): string => (ch.parent ? `${path(ch.parent)}/charts/${ch.metadata.name}` : ch.metadata.name);
  for (const f of c.crds) out.push({ name: `${path(c)}/${f.name}`, data: f.data.toString() });
  for (const d of c.dependencies) out.push(...allCrds(d));
  return out;
}
