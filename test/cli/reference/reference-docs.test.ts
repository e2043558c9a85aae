/**
 * The generated reference (`docs/reference/`): the committed pages equal freshly generated ones
 * (run `npm run docs` after changing a config key, a metric or a command), generation is
 * deterministic, and each page covers every key, metric and command of its source.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { COMMANDS, loadCommands } from '../../../src/cli/commands.js';
import { configReference } from '../../../src/cli/reference/config-reference.js';
import {
  daemonMetricEntries,
  metricsReference,
  watchdogMetricEntries,
} from '../../../src/cli/reference/metrics-reference.js';
import { cliReference } from '../../../src/cli/reference/cli-reference.js';
import { referencePages } from '../../../src/cli/reference/reference-docs.js';
import { type AnySection, leaves } from '../../../src/config/define.js';
import { configSchema } from '../../../src/config/schema.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

const pages = await referencePages();

describe('docs/reference/', () => {
  it('lists the three pages and the config defaults', () => {
    expect(pages.map((p) => p.path)).toEqual([
      'docs/reference/config.md',
      'docs/reference/metrics.md',
      'docs/reference/cli.md',
      'config/default.json',
    ]);
  });

  it.each(pages.map((p) => [p.path, p.text] as const))(
    '%s is committed as generated (npm run docs)',
    (path, text) => {
      expect(readFileSync(join(ROOT, path), 'utf8')).toBe(text);
    },
  );

  it('generates the same text twice', async () => {
    expect(await referencePages()).toEqual(pages);
  });

  it('config.md has a row for every key of the schema, strategy parameters included', () => {
    const keys = leaves(configSchema as unknown as AnySection).map((l) => l.key);
    expect(keys.length).toBeGreaterThan(100);
    expect(keys).toContain('strategy.defaults.latency.prepareZ');
    const page = configReference();
    const missing = keys.filter((k) => !page.includes(`| \`${k}\` |`));
    expect(missing).toEqual([]);
  });

  it('config.md gives the rule the format refuses with, the env variable and the default', () => {
    const page = configReference();
    expect(page).toContain('| `venue.timeouts.submitMs` | integer | `130000` |  | ');
    expect(page).toMatch(
      /\| `metrics\.port` \| integer \| `9464` \| `LEDGER_MM_METRICS_PORT` \| .* \| must be an integer from 0 to 65535 \(a TCP port\) \|/,
    );
    expect(page).toMatch(
      /\| `venue\.apiKey` \| string \| \(secret: from the environment or a file only\) \|/,
    );
  });

  it('metrics.md has a row for every metric of the daemon and of the watchdog', () => {
    const daemon = daemonMetricEntries();
    const watchdog = watchdogMetricEntries();
    expect(daemon.map((m) => m.name)).toContain('ledger_mm_side_missing_seconds');
    expect(watchdog.map((m) => m.name)).toContain('ledger_mm_watchdog_triggers_total');
    const page = metricsReference();
    const missing = [...daemon, ...watchdog].filter((m) => !page.includes(`| \`${m.name}\` | ${m.type} |`));
    expect(missing).toEqual([]);
    expect(page).toContain('| `ledger_mm_side_missing_seconds` | gauge | pair, side, reason |');
  });

  it('cli.md holds every command usage', async () => {
    const page = await cliReference();
    expect(COMMANDS.length).toBe(15);
    const commands = await loadCommands();
    const missing = commands.filter(
      (c) => !page.includes(`## ${c.name}\n`) || !page.includes(c.usage.trimEnd()),
    );
    expect(missing.map((c) => c.name)).toEqual([]);
  });
});
