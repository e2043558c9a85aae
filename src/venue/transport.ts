/**
 * The venue transport: the single seam between the venue client and the outside. The live
 * daemon uses {@link import('./undici-transport.js').UndiciTransport} (one keep-alive Pool per
 * host); the simulator's in-process face implements the same interface without sockets, so the
 * same client code runs live, over HTTP and under fake timers.
 */
export interface TransportRequest {
  method: 'GET' | 'POST';
  /** Absolute URL. The client has already checked its origin and scheme. */
  url: URL;
  headers: Record<string, string>;
  /** JSON text, for POST. */
  body?: string;
  /** Aborts the request; the client combines its timeout and the caller's signal into it. */
  signal: AbortSignal;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text, possibly partial when `truncated`. */
  body: string;
  /** True when the connection ended before the body was complete. */
  truncated?: boolean;
  /**
   * The body already parsed, `JSON.parse(body)`, when the transport has it without parsing (the
   * in-process transport: the simulated venue's own copy of its answer). The decoder then takes
   * it instead of parsing `body`, and validates it with the same schemas. A transport that sets it
   * must keep it equal to `body`: the in-process one drops it when `body` is replaced.
   */
  json?: unknown;
  /**
   * True when `json` is the simulated venue's own answer, written by its typed model (the
   * in-process transport's `answers: 'typed'`, which `simulate` uses). For a schema that returns
   * its input unchanged (`PASS_THROUGH` in decode.ts) the decoder then takes the value as the
   * data without validating it again. Dropped with `json` when `body` is replaced.
   */
  typed?: boolean;
}

/** Sends one request and reads the whole body. Rejects only when no status line arrived. */
export interface Transport {
  request(req: TransportRequest): Promise<TransportResponse>;
  /** Releases connections. Lifecycle: created, used, closed once. */
  close(): Promise<void>;
}
