import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { paperConfigFiles } from '../../src/cli/paper.js';
import { loadConfig } from '../../src/config/load.js';

const load = (files: string[]) =>
  loadConfig({
    configFiles: files,
    env: { LEDGER_MM_API_KEY: 'mm_ak_paper.0123456789abcdef' },
    cwd: os.tmpdir(),
  });

describe('paper mode config layers', () => {
  it('stops within 30 s at the fast and instant profiles, where a cancel takes about 2 s', () => {
    expect(load(paperConfigFiles('fast', [])).shutdown.graceMs).toBe(30_000);
    expect(load(paperConfigFiles('instant', [])).shutdown.graceMs).toBe(30_000);
  });

  it("takes a live daemon's 150 s at the realistic profile, where eight cancels of ~35 s do not fit in 30 s", () => {
    const config = load(paperConfigFiles('realistic', []));
    expect(config.shutdown.graceMs).toBe(150_000);
    expect(config.pairs).toEqual(['BTC/USDC', 'ETH/USDC']);
  });

  it("keeps the user's --config files last", () => {
    expect(paperConfigFiles('realistic', ['mine.json']).at(-1)).toBe('mine.json');
  });
});
