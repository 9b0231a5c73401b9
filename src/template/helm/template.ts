// `helm template` end to end: the release rendered as an install renders it, printed as Helm prints it.
import picomatch from 'picomatch';
import type { Chart } from './chart.ts';
import type { RenderOptions } from './render.ts';
import { HelmTemplateError, renderRelease } from './release-render.ts';
import { splitManifests } from './sort.ts';
import { isTable, type Values } from './values.ts';

export { HelmRenderFailure, HelmTemplateError } from './release-render.ts';

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
  /** --skip-schema-validation: leave values.schema.json unchecked. */
  skipSchemaValidation?: boolean;
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
  const { hooks, manifests, crds } = renderRelease(chart, opts);
  let b = '';
  if (opts.includeCrds) for (const crd of crds) b += `---\n# Source: ${crd.name}\n${crd.data}\n`;
  for (const m of manifests) b += `---\n# Source: ${m.name}\n${m.content}\n`;
  let out = b.trim() + '\n';
  for (const h of hooks) {
    if (opts.skipTests && h.events.includes('test')) continue;
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
