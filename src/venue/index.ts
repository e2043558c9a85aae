/**
 * The venue client's public surface. Import from here rather than from individual files.
 */
export { VenueClient } from './client.js';
export type { CallOptions, PrepareCancelResult, PrepareOrderResult, SubmitOutcome } from './call-types.js';
export { DEFAULT_MAX_PAGES, walkPages } from './pagination.js';
export type { PageOptions } from './pagination.js';
export { DEFAULT_TIMEOUTS, MIN_SUBMIT_TIMEOUT_MS } from './client-options.js';
export type { AuthHeader, VenueClientOptions, VenueTimeouts } from './client-options.js';
export { ENDPOINTS } from './endpoints.js';
export type {
  CursorParams,
  EndpointName,
  OrderBookQuery,
  OrdersQuery,
  OrderStatusFilter,
  TradesQuery,
} from './endpoints.js';
export type { RateLimitEvent, ResponseEvent, VenueHooks } from './exchange.js';
export { DEFAULT_RETRY } from './retry.js';
export type { RetryEvent, RetryOptions } from './retry.js';
export { createLiveVenueClient } from './live-client.js';
export type { LiveVenueClientOptions } from './live-client.js';
export { UndiciTransport } from './undici-transport.js';
export type { UndiciTransportOptions } from './undici-transport.js';
export * from './errors.js';
export type { Transport, TransportRequest, TransportResponse } from './transport.js';
