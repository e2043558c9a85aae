// @ts-check
/**
 * The layers of `src/`, enforced (`npm run lint:layers`, part of `npm test`). A folder may import
 * its own files and the folders BELOW it in LAYERS, never one above: the data flows one way (see
 * the README's Architecture section, which shows the same order). Type-only imports count.
 *
 * The hedge venue and the hedger (`hedge/`) sit above the portfolio (they read positions) and
 * below observability (metrics read them) and the daemon (wires them); the simulated hedge venue,
 * which implements the hedge layer's venue contract, is the lab's (`lab/hedge/`).
 *
 * The simulated venue (`sim/`) is a stand-in for the real one: the lab and the commands may use
 * it, the daemon and everything it is built from may not (PRODUCTION).
 *
 * Imports that break the rule today and wait for their fix are listed in
 * `.dependency-cruiser-known-violations.json` (regenerate it only to REMOVE entries:
 * `npx depcruise src --output-type baseline > .dependency-cruiser-known-violations.json`).
 */

/** Lowest first. */
const LAYERS = [
  'core',
  'logging',
  'signing',
  'venue',
  // The simulated venue needs only the venue's wire types: it sits just above them. Paper mode's
  // assembly (daemon on the simulator) lives in lab/rig/, not here.
  'sim',
  'orders',
  'config',
  'market',
  'strategy',
  'risk',
  'execution',
  'portfolio',
  'hedge',
  'observability',
  'daemon',
  'watchdog',
  'lab',
  'cli',
];

/** The folders the daemon is made of: none of them may import the simulated venue. */
const PRODUCTION = [
  'config',
  'market',
  'strategy',
  'risk',
  'execution',
  'portfolio',
  'hedge',
  'observability',
  'daemon',
  'watchdog',
];

/** @type {import('dependency-cruiser').IForbiddenRuleType[]} */
const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer}`,
  comment: `src/${layer}/ may import only the layers below it: ${LAYERS.slice(0, i).join(', ') || 'none'}`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${LAYERS.slice(i + 1).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-sim-in-production',
      comment: 'the daemon runs against any venue; only the lab and the commands wire the simulated one',
      severity: 'error',
      from: { path: `^src/(${PRODUCTION.join('|')})/` },
      to: { path: '^src/sim/' },
    },
    {
      name: 'no-circular',
      comment: 'no import cycle, type-only imports included: a cycle hides which module is the lower one',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'barrel-only',
      comment:
        'orders/fsm/ and orders/journal/ are read through their index.ts from outside them (the other folders have no barrel)',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/orders/(fsm|journal)/' },
      to: { path: '^src/orders/(fsm|journal)/', pathNot: '^src/orders/(fsm|journal)/index\\.ts$' },
    },
    {
      name: 'no-unknown-folder',
      comment: 'a new top-level folder of src/ needs its place in LAYERS',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(${LAYERS.join('|')})/` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
