/**
 * The recommended settings: the quoting parameters measured in the lab (`config/paper.json`,
 * which `npm start` and `simulate` run, and docs/results/ figures come from) are the ones a real
 * venue's starting points carry, `config/live.example.json` and the Kubernetes ConfigMap. What is
 * left out of the comparison is the firm's own: order sizes, the holdings the skew aims at, and
 * the venue's tick and quantity step. (The engine's own defaults, `config/default.json`, quote
 * with the plain spread model, which gives the spread away on this venue.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { StrategyConfig } from '../../src/config/schema.js';
import { KUBERNETES_DIR, ROOT, yamlDocuments } from '../deploy/support/deploy-files.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-recommended-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
fs.writeFileSync(path.join(dir, 'api-key'), 'mm_ak_example.0123456789abcdef0123456789abcdef\n');

function strategyOf(file: string | null): StrategyConfig {
  return loadConfig({
    configFiles: file === null ? [] : [file],
    cwd: dir,
    env: { LEDGER_MM_API_KEY_FILE: path.join(dir, 'api-key') },
  }).strategy;
}

function configMapFile(): string {
  const docs = yamlDocuments(path.join(KUBERNETES_DIR, 'configmap.yaml')) as {
    kind: string;
    data?: Record<string, string>;
  }[];
  const text = docs.find((d) => d.kind === 'ConfigMap')?.data?.['ledger-mm.json'];
  if (text === undefined) throw new Error('no ledger-mm.json in deploy/kubernetes/configmap.yaml');
  const file = path.join(dir, 'configmap.json');
  fs.writeFileSync(file, text);
  return file;
}

/** The quoting parameters: every default but the firm's sizes, holdings and venue steps; the reconciler's. */
function quoting(s: StrategyConfig): unknown {
  const { levels, inventory, guards: _venueSteps, ...rest } = s.defaults;
  const { size: _size, sizeUnit: _unit, sizeIncrement: _increment, ...ladder } = levels;
  return {
    ...rest,
    levels: ladder,
    inventory: {
      maxSkewBps: inventory.maxSkewBps,
      sizeSkew: inventory.sizeSkew,
      shedOuterAt: inventory.shedOuterAt,
    },
    reconcile: s.reconcile,
  };
}

describe('the recommended live settings are the ones measured', () => {
  const paper = strategyOf(path.join(ROOT, 'config/paper.json'));

  it('paper trading quotes with the latency-aware model', () => {
    expect(paper.defaults.model).toBe('latency-aware');
  });

  it.each([['config/live.example.json'], ['deploy/kubernetes/configmap.yaml']])(
    '%s quotes with the parameters of config/paper.json',
    (name) => {
      const file = name.endsWith('.yaml') ? configMapFile() : path.join(ROOT, name);
      expect(quoting(strategyOf(file))).toEqual(quoting(paper));
    },
  );

  it("the engine's own defaults are not those (a live config must carry them)", () => {
    expect(quoting(strategyOf(null))).not.toEqual(quoting(paper));
  });
});
