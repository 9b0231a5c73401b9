// Bosun's version, from its package.json (the file sits two levels above this one in the sources and the build).
import { readFileSync } from 'node:fs';

export const bosunVersion: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
