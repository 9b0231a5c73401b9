// `helm template` end to end: load, process dependencies, coalesce, render, sort, print as Helm prints.
import picomatch from 'picomatch';
import type { Chart } from './chart.ts';
import { processDependencies } from './dependencies.ts';
import { renderChart, type RenderOptions } from './render.ts';
import { sortManifests, splitManifests } from './sort.ts';
import { coalesceChartValues, isTable, type Values } from './values.ts';
import { DEFAULT_API_VERSIONS } from './capabilities.ts';

export class HelmTemplateError extends Error {}

export interface HelmTemplateOptions {
  releaseName: string;
  namespace: string;
  values: Values;
  kubeVersion?: string;
  apiVersions?: string[];
  includeCrds?: boolean;
  skipTests?: boolean;
  showOnly?: string[];
  lookup?: RenderOptions['lookup'];
}

/** Merges -f values files the way Helm's values options do: later files win, maps merge. */
export function mergeMaps(a: Values, b: Values): Values {
  const out: Values = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const av = out[k];
    out[k] = isTable(v) && isTable(av) ? mergeMaps(av, v) : v;
  }
  return out;
}

export function helmTemplate(chart: Chart, opts: HelmTemplateOptions): string {
  if (chart.metadata.type === 'library') throw new HelmTemplateError('library charts are not installable');
  if (chart.metadata.type && chart.metadata.type !== 'application') throw new HelmTemplateError(`validation: chart.metadata.type must be application or library`);
  processDependencies(chart, structuredClone(opts.values));
  const values = coalesceChartValues(chart, opts.values);
  const kubeVersion = opts.kubeVersion ?? 'v1.20.0';
  const files = renderChart(chart, values, {
    release: { name: opts.releaseName, namespace: opts.namespace, revision: 1, isInstall: true, isUpgrade: false },
    capabilities: { kubeVersion: kubeVersion.startsWith('v') ? kubeVersion : `v${kubeVersion}`, apiVersions: [...DEFAULT_API_VERSIONS, ...(opts.apiVersions ?? [])] },
    lookup: opts.lookup,
  });
  for (const name of [...files.keys()]) if (name.endsWith('NOTES.txt')) files.delete(name);
  const { hooks, manifests } = sortManifests(files);
  let b = '';
  if (opts.includeCrds) for (const crd of allCrds(chart)) b += `---\n# Source: ${crd.name}\n${crd.data}\n`;
  for (const m of manifests) b += `---\n# Source: ${m.name}\n${m.content}\n`;
  let out = b.trim() + '\n';
  for (const h of hooks) {
    if (opts.skipTests && /(^|,)\s*test(-success)?\s*(,|$)/.test(h.hook ?? '')) continue;
    out += `---\n# Source: ${h.name}\n${h.content}\n`;
  }
  if (!opts.showOnly?.length) return out;
  const docs = splitManifests(out);
  let shown = '';
  for (const f of opts.showOnly) {
    const match = picomatch(f, { dot: true });
    let missing = true;
    for (const doc of docs) {
      const m = /# Source: [^/]+\/(.+)/.exec(doc);
      if (!m || !match(m[1]!)) continue;
      shown += `---\n${doc}\n`;
      missing = false;
    }
    if (missing) throw new HelmTemplateError(`could not find template ${f} in chart`);
  }
  return shown;
}

function allCrds(c: Chart): { name: string; data: string }[] {
  const out: { name: string; data: string }[] = [];
  const path = (ch: Chart): string => (ch.parent ? `${path(ch.parent)}/charts/${ch.metadata.name}` : ch.metadata.name);
  for (const f of c.crds) out.push({ name: `${path(c)}/${f.name}`, data: f.data.toString() });
  for (const d of c.dependencies) out.push(...allCrds(d));
  return out;
}
