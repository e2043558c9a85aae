/**
 * The generated reference pages of `docs/reference/`, and `config/default.json` (the schema's
 * defaults, the base layer every config is read over), as text: what `npm run docs` writes and
 * what `test/cli/reference/reference-docs.test.ts` compares the committed files with. So a new
 * config key is one row of its section's table; its doc and its default follow from it.
 * Deterministic; starts no server and touches no network or file.
 */
import { defaultsOf } from '../../config/define.js';
import { configSchema } from '../../config/schema.js';
import { cliReference } from './cli-reference.js';
import { configReference } from './config-reference.js';
import { metricsReference } from './metrics-reference.js';

/** One generated page: its path from the repository root, and its text. */
export interface ReferencePage {
  readonly path: string;
  readonly text: string;
}

/** Every generated page. */
export async function referencePages(): Promise<readonly ReferencePage[]> {
  return [
    { path: 'docs/reference/config.md', text: configReference() },
    { path: 'docs/reference/metrics.md', text: metricsReference() },
    { path: 'docs/reference/cli.md', text: await cliReference() },
    { path: 'config/default.json', text: defaultConfigText() },
  ];
}

/** `config/default.json`: every key's default, secrets left out, as the schema declares them. */
export function defaultConfigText(): string {
  return `${JSON.stringify(defaultsOf(configSchema, true), null, 2)}\n`;
}
