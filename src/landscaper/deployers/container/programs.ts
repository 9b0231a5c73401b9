// The init and wait programs of the pod (`bosun container-init`, `bosun container-wait`, run by the node agent
// for the images container-deployer-init and container-deployer-wait). init lays out /data/ls/shared from the
// deployer's input Secret; wait, which runs after the program, reports exports and state on its log.
import { existsSync, mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { COMPONENT_DESCRIPTOR_PATH, CONTENT_PATH, EXPORTS_PATH, IMPORTS_PATH, INPUT_KEYS, INTERNAL_PATH, STATE_PATH } from './layout.ts';
import { formatReport } from './report.ts';
import { archiveDirectory, restoreDirectory } from './state.ts';

export interface ProgramPaths {
  internal: string;
  imports: string;
  exports: string;
  state: string;
  content: string;
  componentDescriptor: string;
}

export const podPaths: ProgramPaths = {
  internal: INTERNAL_PATH,
  imports: IMPORTS_PATH,
  exports: EXPORTS_PATH,
  state: STATE_PATH,
  content: CONTENT_PATH,
  componentDescriptor: COMPONENT_DESCRIPTOR_PATH,
};

/** Returns a line for the init container's log. */
export function runInit(paths: ProgramPaths = podPaths): string {
  for (const dir of [dirname(paths.imports), dirname(paths.exports), paths.state, paths.content]) mkdirSync(dir, { recursive: true });
  const input = (key: string): string => join(paths.internal, key);
  const copy = (key: string, to: string): void => {
    if (existsSync(input(key))) copyFileSync(input(key), to);
  };
  copy(INPUT_KEYS.imports, paths.imports);
  copy(INPUT_KEYS.componentDescriptor, paths.componentDescriptor);
  copy(INPUT_KEYS.blueprint, join(paths.content, INPUT_KEYS.blueprint));
  const restored = existsSync(input(INPUT_KEYS.state)) ? restoreDirectory(readFileSync(input(INPUT_KEYS.state)), paths.state) : 0;
  return `init: imports, content and ${restored} state file(s) in place`;
}

/** The report line for the wait container's log. */
export function runWait(paths: ProgramPaths = podPaths): string {
  const exportsText = existsSync(paths.exports) ? readFileSync(paths.exports, 'utf8') : undefined;
  const state = archiveDirectory(paths.state).toString('base64');
  return formatReport(exportsText === undefined ? { state } : { exports: exportsText, state });
}

/** For tests that run the programs outside a pod. */
export function writeInput(dir: string, files: Partial<Record<keyof typeof INPUT_KEYS, Buffer | string>>): void {
  mkdirSync(dir, { recursive: true });
  for (const [key, content] of Object.entries(files)) writeFileSync(join(dir, INPUT_KEYS[key as keyof typeof INPUT_KEYS]), content);
}
