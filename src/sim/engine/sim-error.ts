/**
 * The simulated venue's one refusal, {@link SimError}: an HTTP status, a code of the venue's
 * enumeration (or a routing failure outside the contract) and the extra fields that code
 * carries. Engine operations throw it; the router turns it into the error envelope the daemon's
 * client classifies.
 */
import type { VenueCode } from '../../venue/errors.js';

/** Codes the simulator answers with: the venue's enumeration plus routing failures outside the contract. */
export type SimErrorCode = VenueCode | 'NOT_FOUND' | 'METHOD_NOT_ALLOWED';

/** Extra fields of an error body (`venue-api.md` section 2, "Error body"). */
export interface SimErrorExtras {
  expectedPrefix?: string;
  allowedPairs?: string[];
  limit?: number;
  openOrders?: number;
  maxOpenOrders?: number;
  correlationId?: string;
}

/**
 * A refusal by the simulated venue: an HTTP status, a code from section 7 and the extra fields
 * that code carries. Engine operations throw it; the router turns it into the error envelope.
 */
export class SimError extends Error {
  override readonly name = 'SimError';

  constructor(
    readonly status: number,
    readonly code: SimErrorCode,
    message: string,
    readonly extras: SimErrorExtras = {},
    /**
     * True when the refusal comes from the ledger's prepare step, so it takes the endpoint's full
     * latency; request validation answers at read speed.
     */
    readonly slow = false,
  ) {
    super(message);
  }
}

/** 400 VALIDATION_ERROR. */
export function validationError(message: string): SimError {
  return new SimError(400, 'VALIDATION_ERROR', message);
}

/** 404 CONTRACT_NOT_FOUND, deliberately the same for "does not exist" and "not yours". */
export function contractNotFound(): SimError {
  return new SimError(404, 'CONTRACT_NOT_FOUND', 'Order or contract not found');
}
