/**
 * The generated reference pages of `docs/reference/`, as text: what `npm run docs` writes and what
 * `test/cli/reference/reference-docs.test.ts` compares the committed files with. Deterministic;
 * starts no server and touches no network or file.
 */
import { cliReference } from './cli-reference.js';
import { configReference } from './config-reference.js';
import { metricsReference } from './metrics-reference.js';

/** One generated page: its path from the repository root, and its text. */
export interface ReferencePage {
  readonly path: string;
  readonly text: string;
}

/** Every generated page. */
export function referencePages(): readonly ReferencePage[] {
  return [
    { path: 'docs/reference/config.md', text: configReference() },
    { path: 'docs/reference/metrics.md', text: metricsReference() },
    { path: 'docs/reference/cli.md', text: cliReference() },
  ];
}
