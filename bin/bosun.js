#!/usr/bin/env node
// Runs the CLI compiled by `npm ci` (scripts/build-cli.mjs, into dist/cli) while that build is up to date,
// otherwise the TypeScript sources through tsx: in a checkout being edited, bosun runs what is on disk.
// Up to date means: every file that went into the build (dist/cli/build.json) still exists and was last
// modified before the build started. Editing, adding an import or switching branches makes it stale until
// `npm run build`.
import { readFileSync, statSync } from 'node:fs';

const build = new URL('../dist/cli/', import.meta.url);
const root = new URL('../', import.meta.url);

function buildIsCurrent() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(new URL('build.json', build), 'utf8'));
  } catch {
    return false; // never built (or an interrupted build)
  }
  try {
    return manifest.inputs.every((input) => statSync(new URL(input, root)).mtimeMs < manifest.builtAt);
  } catch {
    return false; // an input is gone: the sources no longer match the build
  }
}

if (buildIsCurrent()) {
  await import(new URL('main.js', build).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
