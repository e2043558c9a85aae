/**
 * The venue's own limit for a run's latencies: a party has one placement in flight at a time, and
 * a placement takes a prepare, a submission and the wait for its commit. At the profile's means:
 *
 * - the least possible time to a two-sided quote on one pair is two serialized placements,
 *   `2 × (prepare + submit + confirm)`;
 * - the most placements one pipeline allows per hour is `3600 s / (prepare + submit + confirm)`.
 *
 * With several parties (each its own pipeline) the placements scale with the parties, and two
 * parties can place a pair's two sides at once: one placement to two-sided.
 *
 * Signing, the client's reads and every other cost are taken as zero: no client can beat this.
 */
import type { LatencyKey, LatencyRange } from '../../../sim/latency.js';

/** The limit of a run; times in ms. */
export interface VenueLimit {
  readonly prepareMs: number;
  readonly submitMs: number;
  readonly confirmMs: number;
  /** prepare + submit + confirm at the means. */
  readonly placementMs: number;
  /** Two serialized placements. */
  readonly minTimeToTwoSidedMs: number;
  readonly maxPlacementsPerHour: number;
}

const HOUR_MS = 3_600_000;

function mean(range: LatencyRange): number {
  return (range[0] + range[1]) / 2;
}

/** The limit for the venue's latency ranges (the profile with its overrides). */
export function venueLimit(ranges: Readonly<Record<LatencyKey, LatencyRange>>, parties = 1): VenueLimit {
  const prepareMs = mean(ranges.prepare);
  const submitMs = mean(ranges.submit);
  const confirmMs = mean(ranges.confirm);
  const placementMs = prepareMs + submitMs + confirmMs;
  return {
    prepareMs,
    submitMs,
    confirmMs,
    placementMs,
    minTimeToTwoSidedMs: (parties > 1 ? 1 : 2) * placementMs,
    maxPlacementsPerHour: placementMs > 0 ? (parties * HOUR_MS) / placementMs : Infinity,
  };
}

/** A run's figures against the limit. */
export interface VersusLimit {
  /** The limit's time to two-sided over the run's (first pair to be two-sided), 0–1; null when never. */
  readonly timeToTwoSidedShare: number | null;
  /** Placements committed per hour over the limit's maximum, 0–1. */
  readonly placementRateShare: number;
}

/** How close a run came to the limit. */
export function versusLimit(
  limit: VenueLimit,
  timeToFirstTwoSidedMs: number | null,
  placementsPerHour: number,
): VersusLimit {
  return {
    timeToTwoSidedShare:
      timeToFirstTwoSidedMs === null || timeToFirstTwoSidedMs <= 0
        ? null
        : limit.minTimeToTwoSidedMs / timeToFirstTwoSidedMs,
    placementRateShare: Number.isFinite(limit.maxPlacementsPerHour)
      ? placementsPerHour / limit.maxPlacementsPerHour
      : 0,
  };
}
