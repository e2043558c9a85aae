import { describe, expect, it } from 'vitest';
import { apply } from '../../src/orders/fsm/index.js';
import {
  echoFromWire,
  foreignFromWire,
  preparedLiveFromWire,
  snapshotFromWire,
  viewFromWire,
} from '../../src/orders/wire-events.js';
import { T0, orderIn, wireOrder } from './support/fixtures.js';

describe('wire → machine inputs', () => {
  it('maps a read to a VenueSnapshot with decimals', () => {
    const e = snapshotFromWire(
      wireOrder({ filled: '0.25', status: 'PARTIALLY_FILLED', contractId: 'c-2' }),
      T0,
    );
    expect(e.type).toBe('VenueSnapshot');
    expect(e.status).toBe('PARTIALLY_FILLED');
    expect(e.contractId).toBe('c-2');
    expect(e.filled.eq('0.25')).toBe(true);
    expect(e.quantity!.eq('1')).toBe(true);
    expect(e.at).toBe(T0);
    const open = orderIn('OPEN');
    expect(apply(open, { ...e, at: open.updatedAt + 1 }).order.state).toBe('PARTIALLY_FILLED');
  });

  it('maps a prepare echo, a null price and a missing clientOrderId', () => {
    const echo = echoFromWire(wireOrder({ type: 'MARKET', price: null, clientOrderId: undefined }));
    expect(echo.price).toBeNull();
    expect(echo.clientOrderId).toBeNull();
    expect(echo.quantity.eq('1')).toBe(true);
    expect(viewFromWire(wireOrder({ status: null, contractId: null })).status).toBeNull();
  });

  it('maps a 201 response to PreparedLive', () => {
    const preparing = orderIn('PREPARING');
    const e = preparedLiveFromWire(wireOrder(), preparing.clientOrderId!, preparing.updatedAt + 1);
    expect(apply(preparing, e).order.state).toBe('OPEN');
  });

  it('maps a foreign order', () => {
    const f = foreignFromWire(wireOrder({ clientOrderId: null, status: 'PENDING_TRIGGER' }), T0);
    expect(f).toMatchObject({ orderId: 'ord-1', clientOrderId: null, status: 'PENDING_TRIGGER', at: T0 });
  });
});
