import { describe, expect, it } from 'vitest';

import { Dec } from '../../src/core/decimal.js';
import { type HedgeInputs, type HedgeRules, decideHedge } from '../../src/hedge/hedge-decision.js';

const d = (x: string | number): Dec => new Dec(x);
const RULES: HedgeRules = {
  mode: 'every-fill',
  thresholdBase: d('0.5'),
  minOrderBase: d('0.01'),
  maxOrderBase: d('1'),
  maxPositionBase: d('2'),
  maxSlippageBps: 10,
  stepBase: d('0.001'),
};
const IN: HedgeInputs = {
  venueExcessBase: d(0),
  hedgePositionBase: d(0),
  bid: d(100),
  ask: d('100.02'),
  inFlight: false,
  venueFailing: false,
};

describe('decideHedge', () => {
  const cases: Array<{
    name: string;
    rules?: Partial<HedgeRules>;
    x: Partial<HedgeInputs>;
    want: string;
  }> = [
    { name: 'flat: nothing', x: {}, want: 'hold none' },
    {
      name: 'long after a buy fill: sell it at bid − 10 bps',
      x: { venueExcessBase: d('0.3') },
      want: 'SELL 0.3 @ 99.9',
    },
    { name: 'short: buy at ask + 10 bps', x: { venueExcessBase: d('-0.25') }, want: 'BUY 0.25 @ 100.12002' },
    {
      name: 'already hedged: venue long, hedge short as much',
      x: { venueExcessBase: d('0.4'), hedgePositionBase: d('-0.4') },
      want: 'hold none',
    },
    {
      name: 'partly hedged: the rest',
      x: { venueExcessBase: d('0.4'), hedgePositionBase: d('-0.1') },
      want: 'SELL 0.3 @ 99.9',
    },
    {
      name: 'order in flight: never a second one',
      x: { venueExcessBase: d('0.3'), inFlight: true },
      want: 'hold in-flight',
    },
    { name: 'below the minimum order size', x: { venueExcessBase: d('0.005') }, want: 'hold below-min-size' },
    {
      name: 'threshold mode below the threshold',
      rules: { mode: 'threshold' },
      x: { venueExcessBase: d('0.3') },
      want: 'hold below-threshold',
    },
    {
      name: 'threshold mode past it: back to zero',
      rules: { mode: 'threshold' },
      x: { venueExcessBase: d('0.6') },
      want: 'SELL 0.6 @ 99.9',
    },
    {
      name: 'threshold mode with keepBase: back down to the band, not to zero',
      rules: { mode: 'threshold', keepBase: d('0.2') },
      x: { venueExcessBase: d('0.6') },
      want: 'SELL 0.4 @ 99.9',
    },
    {
      name: 'a band (keepBase = thresholdBase): only the part beyond it, short side',
      rules: { mode: 'threshold', keepBase: d('0.5') },
      x: { venueExcessBase: d('-0.62') },
      want: 'BUY 0.12 @ 100.12002',
    },
    {
      name: 'a band: exactly at its edge, nothing',
      rules: { mode: 'threshold', keepBase: d('0.5') },
      x: { venueExcessBase: d('0.5') },
      want: 'hold below-threshold',
    },
    {
      name: 'a band: the part beyond it under the minimum order size waits',
      rules: { mode: 'threshold', keepBase: d('0.5') },
      x: { venueExcessBase: d('0.505') },
      want: 'hold below-min-size',
    },
    {
      name: 'keepBase is read in threshold mode only',
      rules: { keepBase: d('0.2') },
      x: { venueExcessBase: d('0.3') },
      want: 'SELL 0.3 @ 99.9',
    },
    { name: 'capped by the max order size', x: { venueExcessBase: d('1.7') }, want: 'SELL 1 @ 99.9' },
    {
      name: 'capped by the hedge position cap',
      x: { venueExcessBase: d('2.5'), hedgePositionBase: d('-1.6') },
      want: 'SELL 0.4 @ 99.9',
    },
    {
      name: 'at the cap: nothing more',
      x: { venueExcessBase: d('2.5'), hedgePositionBase: d('-2') },
      want: 'hold at-cap',
    },
    { name: 'rounded down to the step', x: { venueExcessBase: d('0.12345') }, want: 'SELL 0.123 @ 99.9' },
    {
      name: 'hedge venue failing',
      x: { venueExcessBase: d('0.3'), venueFailing: true },
      want: 'hold venue-failing',
    },
    {
      name: 'no price on the hedge venue',
      x: { venueExcessBase: d('-0.3'), ask: null },
      want: 'hold no-price',
    },
  ];
  it.each(cases)('$name', ({ rules, x, want }) => {
    const r = decideHedge({ ...RULES, ...rules }, { ...IN, ...x });
    const got = r.send
      ? `${r.order.side} ${r.order.quantity.toFixed()} @ ${r.order.limitPrice.toFixed()}`
      : `hold ${r.hold}`;
    expect(got).toBe(want);
  });
});
