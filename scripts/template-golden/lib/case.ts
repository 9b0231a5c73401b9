// The shape of a golden case as written in cases/*.ts and stored in test/golden/template/*.json.

export interface CaseSource {
  /** Template text (Go text/template syntax). */
  template: string;
  /** JSON data bound to dot; omitted means the shared default data. */
  data?: unknown;
  /** Blueprint filesystem for include/readFile/readDir. */
  files?: Record<string, string>;
  /** Template name; Go's default here is "execution", as in Landscaper. */
  name?: string;
  /** For errors whose text is another library's (YAML parser, regexp): the substring to require. */
  errorContains?: string;
  /** For random or time-dependent output: a regular expression the whole output must match. */
  pattern?: string;
  /** Short description, shown in test names. */
  note?: string;
}

export type Expectation =
  | { output: string }
  | { pattern: string }
  | { error: string; errorContains?: string; phase: string };

export interface GoldenCase {
  id: string;
  template: string;
  data?: unknown;
  files?: Record<string, string>;
  name?: string;
  note?: string;
  expect: Expectation;
}

export interface GoldenFile {
  comment: string;
  group: string;
  cases: GoldenCase[];
}
